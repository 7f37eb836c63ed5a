// Prediction error on the stroke corpus: every class at 60, 120 and 240 Hz input, 8, 16
// and 25 ms ahead of a 60 Hz display link, for no prediction, the default and every other
// built-in predictor, in virtual time (the figures are the same on every machine).
//
//     swift run -c release PredictionBench            # the summary table, then one table per class
//     swift run -c release PredictionBench --summary  # the summary only
import Foundation
import PredictionCorpus

let summaryOnly = CommandLine.arguments.contains("--summary")
let results = CorpusResults()
print("## Prediction on the stroke corpus: mean / p95 error in px\n")
print(results.summaryTable())
if !summaryOnly {
    print("## Per class: error, over- and under-prediction, frame-to-frame jitter, in px\n")
    print(results.detailTables())
}
print("## After 50 ms still: the most the default's error exceeds no prediction's, in px\n")
print("| stroke | largest excess |\n|---|---|")
for stroke in StrokeCorpus.all {
    let excess = results.cases.filter { $0.stroke == stroke.name }.map { results.stillExcess($0, Contender.standard.name) }.max() ?? 0
    print("| \(stroke.name) | \(String(format: "%.2f", excess)) |")
}
