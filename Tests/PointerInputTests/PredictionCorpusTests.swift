import PointerInput
import PredictionCorpus
import Testing

/// The corpus run once for every test here (deterministic: virtual time, seeded noise).
private let results = CorpusResults()

private func label(_ key: CorpusResults.Case) -> String {
    "\(key.stroke) at \(Int(key.rate)) Hz, \(key.lead) ahead"
}

/// Cases where the default's mean is more than 10% above the best alternative's: measured,
/// and listed so that a change to either side shows (decision records 0082, 0102 and 0098 say why).
private let meanMisses: Set<String> = [
    "lissajous at 60 Hz, 0.025 seconds ahead",
    "lissajous at 120 Hz, 0.025 seconds ahead",
    // 1.097 times the best in a release build, 1.1004 in the debug build the suite runs.
    "corner at 240 Hz, 0.025 seconds ahead",
    "zigzag at 60 Hz, 0.025 seconds ahead",
    "zigzag at 120 Hz, 0.025 seconds ahead",
    "stop-and-go, silent at 60 Hz, 0.008 seconds ahead",
    "stop-and-go, silent at 60 Hz, 0.016 seconds ahead",
]

@Suite("Prediction on the stroke corpus")
struct PredictionCorpusTests {
    @Test("the default's p95 error is never worse than no prediction, in every class, input rate and lead")
    func p95NeverWorseThanNone() {
        for key in results.cases {
            let standard = results.entry(key, Contender.standard.name).metrics, none = results.entry(key, Contender.none.name).metrics
            #expect(standard.p95 <= none.p95, "\(label(key)): \(standard.p95) px, none \(none.p95) px")
            #expect(standard.mean < none.mean, "\(label(key)): \(standard.mean) px, none \(none.mean) px")
        }
    }

    @Test("the default's mean error is within 10% of the best built-in predictor's for each class, rate and lead")
    func meanNearTheBest() {
        var misses: [String] = []
        for key in results.cases {
            let standard = results.entry(key, Contender.standard.name).metrics.mean
            let best = results.entry(key, results.bestAlternative(key)).metrics.mean
            if standard > best * 1.1 { misses.append(label(key)) }
            if meanMisses.contains(label(key)) {
                withKnownIssue("listed miss") { #expect(standard <= best * 1.1, "\(label(key)): \(standard) px, \(results.bestAlternative(key)) \(best) px") }
            } else {
                #expect(standard <= best * 1.1, "\(label(key)): \(standard) px, \(results.bestAlternative(key)) \(best) px")
            }
        }
        print("mean misses: \(misses.map { "\"\($0)\"" }.joined(separator: ", "))")
    }

    @Test("on the noisy stroke the drawn point jitters no more than the latest sample does")
    func jitterOnNoise() {
        for key in results.cases where key.stroke == StrokeCorpus.noisySlow.name {
            let standard = results.entry(key, Contender.standard.name).metrics.jitter, none = results.entry(key, Contender.none.name).metrics.jitter
            #expect(standard <= none, "\(label(key)): \(standard) px, none \(none) px")
        }
    }

    @Test("once the contact has been still for 50 ms, the default is within 2 px of no prediction")
    func boundedOvershootPastAStop() {
        var largest = 0.0
        for key in results.cases {
            let excess = results.stillExcess(key, Contender.standard.name)
            largest = max(largest, excess)
            #expect(excess <= 2, "\(label(key)): \(excess) px more than none")
        }
        print("largest excess over none 50 ms after a stop: \(largest) px")
        #expect(results.cases.contains { key in results.entry(key, Contender.standard.name).run.frames.contains(where: \.settledStill) })
    }

    @Test("no predicted sample reaches more than the lead plus one input interval past its latest sample, nor past 25 ms")
    func reachFromTheFramesLead() {
        for key in results.cases {
            for frame in results.entry(key, Contender.standard.name).run.frames {
                let interval = Duration.seconds(1 / key.rate) + .milliseconds(1)
                #expect(frame.reach <= min(key.lead + interval, .milliseconds(25)), "\(label(key)) at \(frame.timestamp): \(frame.reach)")
            }
        }
    }
}
