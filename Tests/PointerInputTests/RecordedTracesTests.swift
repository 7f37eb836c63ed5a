import Foundation
import PointerInput
import PredictionCorpus
import Testing

/// What TraceRecorder sent for `trace`: its stroke's path time k / rate for every k from 1
/// while it is within the stroke, moved by the trace's offset and rounded to whole pixels,
/// only where that differs from the position before (the first being the path's start).
private func sent(_ trace: RecordedTrace) -> [(time: Double, position: SIMD2<Double>)] {
    guard let stroke = StrokeCorpus.injected.first(where: { $0.name == trace.stroke }) else { return [] }
    let position = { (time: Double) in (stroke.path(time) + trace.offset).rounded(.toNearestOrEven) }
    var sent = [(time: 0.0, position: position(0))]
    var index = 1
    while Double(index) / trace.rate <= stroke.duration {
        let time = Double(index) / trace.rate
        if position(time) != sent[sent.count - 1].position { sent.append((time, position(time))) }
        index += 1
    }
    return Array(sent.dropFirst())
}

/// The injected stroke `trace` recorded.
private func injected(_ trace: RecordedTrace) -> CorpusStroke? { StrokeCorpus.injected.first { $0.name == trace.stroke } }

/// The recorded strokes at 60 and 240 Hz, 16 ms ahead: a subset, as every rate and lead
/// would add minutes to a debug run (PredictionBench prints them all).
private let recordedResults = CorpusResults(strokes: StrokeCorpus.recorded, rates: [60, 240], leads: [.milliseconds(16)])

@Suite("Recorded X traces")
struct RecordedTracesTests {
    @Test("on the recorded strokes at 60 and 240 Hz, 16 ms ahead, the default meets the corpus's targets")
    func predictionTargets() {
        #expect(recordedResults.cases.count == StrokeCorpus.injected.count * 2)
        for key in recordedResults.cases {
            let label = "\(key.stroke) at \(Int(key.rate)) Hz"
            let standard = recordedResults.entry(key, Contender.standard.name).metrics, none = recordedResults.entry(key, Contender.none.name).metrics
            let best = recordedResults.entry(key, recordedResults.bestAlternative(key)).metrics.mean
            #expect(standard.p95 <= none.p95, "\(label): \(standard.p95) px, none \(none.p95) px")
            #expect(standard.mean < none.mean, "\(label): \(standard.mean) px, none \(none.mean) px")
            #expect(standard.mean <= best * 1.1, "\(label): \(standard.mean) px, \(recordedResults.bestAlternative(key)) \(best) px")
            #expect(recordedResults.stillExcess(key, Contender.standard.name) <= 2, "\(label)")
        }
    }

    @Test("every injected stroke has a recording at every rate, pointer samples from .began to .ended")
    func everyTraceParses() {
        #expect(StrokeCorpus.recorded.map(\.name) == StrokeCorpus.injected.map { "\($0.name), recorded (X)" })
        #expect(RecordedTrace.all.count == StrokeCorpus.injected.count * CorpusResults.rates.count)
        for stroke in StrokeCorpus.recorded {
            for rate in CorpusResults.rates {
                let samples = stroke.samples(rate: rate)
                #expect(samples.count > 50, "\(stroke.name) at \(Int(rate)) Hz: \(samples.count) samples")
                #expect(samples.allSatisfy { $0.device == .pointer && $0.contact == 0 })
                #expect(samples.first?.phase == .began && samples.last?.phase == .ended)
                #expect(samples.dropFirst().dropLast().allSatisfy { $0.phase == .moved })
            }
        }
    }

    @Test("samples are whole pixels at increasing times within the stroke, each where the one before was not")
    func quantisedAndOrdered() {
        for trace in RecordedTrace.all {
            let samples = trace.samples, label = "\(trace.stroke) at \(Int(trace.rate)) Hz"
            #expect(samples.allSatisfy { $0.position == $0.position.rounded(.toNearestOrEven) }, "\(label)")
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time < $1.time }, "\(label)")
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.position != $1.position }, "\(label)")
            #expect((samples.first?.time ?? 0) > 0 && (samples.last?.time ?? .infinity) <= (injected(trace)?.duration ?? 0) + 0.01, "\(label)")
        }
    }

    @Test("one sample per whole-pixel move sent: duration × rate less the ticks where the pointer stayed put")
    func sampleCounts() {
        for trace in RecordedTrace.all {
            let count = trace.samples.count, moves = sent(trace).count
            let ticks = Int((injected(trace)?.duration ?? 0) * trace.rate)
            #expect(count <= moves && count >= moves - 1, "\(trace.stroke) at \(Int(trace.rate)) Hz: \(count) samples, \(moves) moves sent")
            #expect(moves <= ticks, "\(trace.stroke) at \(Int(trace.rate)) Hz: \(moves) moves in \(ticks) ticks")
            // A mouse held still reports nothing: over a third of the stop-and-go's ticks are still.
            if trace.stroke == StrokeCorpus.stopAndGoSilent.name {
                #expect(Double(count) < 0.7 * Double(ticks), "at \(Int(trace.rate)) Hz: \(count) samples in \(ticks) ticks")
            }
        }
    }

    @Test("each sample is within 6 px of the path at its time, stamped -1 to 5 ms after the path time of its position")
    func nearThePath() {
        var farthest = 0.0, earliest = Double.infinity, latest = -Double.infinity
        for trace in RecordedTrace.all {
            guard let stroke = injected(trace) else {
                Issue.record("\(trace.stroke): no such injected stroke")
                continue
            }
            let moves = sent(trace)
            for sample in trace.samples {
                let d = sample.position - (stroke.path(min(sample.time, stroke.duration)) + trace.offset)
                farthest = max(farthest, (d * d).sum().squareRoot())
                // The latest move to this position sent by 20 ms after the sample.
                guard let move = moves.last(where: { $0.position == sample.position && $0.time <= sample.time + 0.02 }) else {
                    Issue.record("\(trace.stroke) at \(Int(trace.rate)) Hz: \(sample.position) at \(sample.time) s was never sent")
                    continue
                }
                earliest = min(earliest, sample.time - move.time)
                latest = max(latest, sample.time - move.time)
            }
        }
        #expect(farthest <= 6, "\(farthest) px")
        #expect(earliest >= -0.001 && latest <= 0.005, "\(earliest * 1000) to \(latest * 1000) ms")
    }
}
