// Prediction error on the stroke corpus: every class at 60, 120 and 240 Hz input, 8, 16
// and 25 ms ahead of a 60 Hz display link, for no prediction, the default and every other
// built-in predictor, in virtual time (the figures are the same on every machine); then
// the same for the held-out strokes, which no default was tuned on, and for the recorded
// X traces (strokes injected into an X server and received as XInput 2 samples).
//
//     swift run -c release PredictionBench            # the summary tables, then one table per class
//     swift run -c release PredictionBench --summary  # the summary tables only
//     swift run -c release PredictionBench --check    # only the cases where the default misses a target
import Foundation
import PredictionCorpus

let summaryOnly = CommandLine.arguments.contains("--summary")
let results = CorpusResults()
let heldOut = CorpusResults(strokes: StrokeCorpus.heldOut)
let recorded = CorpusResults(strokes: StrokeCorpus.recorded)
if CommandLine.arguments.contains("--check") {
    for (title, strokes, measured) in [("corpus", StrokeCorpus.all, results), ("held out", StrokeCorpus.heldOut, heldOut),
                                       ("recorded", StrokeCorpus.recorded, recorded)] {
        let misses = measured.misses(noisy: Set(strokes.filter { $0.noise > 0 }.map(\.name)))
        print("## \(title): \(misses.count) misses of \(measured.cases.count) cases\n")
        for line in misses { print("- \(line)") }
        print()
    }
    exit(0)
}
print("## Prediction on the stroke corpus: mean / p95 error in px\n")
print(results.summaryTable())
print("## Held out: strokes no default was tuned on, mean / p95 error in px\n")
print(heldOut.summaryTable())
print("## Recorded: strokes injected into an X server with XTest and received as XInput 2 samples, mean / p95 error in px\n")
print(recorded.summaryTable())
if !summaryOnly {
    print("## Per class: error, over- and under-prediction, frame-to-frame jitter, in px\n")
    print(results.detailTables())
    print(heldOut.detailTables())
    print(recorded.detailTables())
}
print("## After 50 ms still: the most the default's error exceeds no prediction's, in px\n")
print("| stroke | largest excess |\n|---|---|")
for (strokes, measured) in [(StrokeCorpus.all, results), (StrokeCorpus.heldOut, heldOut), (StrokeCorpus.recorded, recorded)] {
    for stroke in strokes {
        let excess = measured.cases.filter { $0.stroke == stroke.name }.map { measured.stillExcess($0, Contender.standard.name) }.max() ?? 0
        print("| \(stroke.name) | \(String(format: "%.2f", excess)) |")
    }
}
