import PointerInput
import PredictionCorpus
import Testing

/// The corpus run once for every test here (deterministic: virtual time, seeded noise).
private let results = CorpusResults()

private func label(_ key: CorpusResults.Case) -> String {
    "\(key.stroke) at \(Int(key.rate)) Hz, \(key.lead) ahead"
}

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
        for key in results.cases {
            let standard = results.entry(key, Contender.standard.name).metrics.mean
            let best = results.entry(key, results.bestAlternative(key)).metrics.mean
            #expect(standard <= best * 1.1, "\(label(key)): \(standard) px, \(results.bestAlternative(key)) \(best) px")
        }
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
        for key in results.cases {
            let excess = results.stillExcess(key, Contender.standard.name)
            #expect(excess <= 2, "\(label(key)): \(excess) px more than none")
        }
        #expect(results.cases.contains { key in results.entry(key, Contender.standard.name).run.frames.contains(where: \.settledStill) })
    }

    @Test("a noisy contact held still is not read as starting again from the noise of its next samples")
    func noStartFromNoise() {
        // Minimum-jerk steps with 100 ms holds and 0.6 px of noise, which the noise estimate
        // over a dozen moving samples can put under the clean threshold.
        let steps = CorpusResults(strokes: [StrokeCorpus.heldOutNoisyReaches], rates: [120],
                                  leads: [.milliseconds(16), .milliseconds(25)], contenders: [.none, .standard])
        for key in steps.cases {
            let excess = steps.stillExcess(key, Contender.standard.name)
            #expect(excess <= 2, "\(label(key)): \(excess) px more than none")
        }
    }

    @Test("no predicted sample reaches more than the lead, cut to 25 ms, plus one input interval past its latest sample")
    func reachFromTheFramesLead() {
        for key in results.cases {
            let interval = Duration.seconds(1 / key.rate) + .milliseconds(1)
            for frame in results.entry(key, Contender.standard.name).run.frames {
                #expect(frame.reach <= min(key.lead, .milliseconds(25)) + interval, "\(label(key)) at \(frame.timestamp): \(frame.reach)")
            }
        }
    }
}
