import PointerInput
import PredictionCorpus
import Testing

/// The corpus run once for every test here (deterministic: virtual time, seeded noise).
private let results = CorpusResults()

private func label(_ key: CorpusResults.Case) -> String {
    "\(key.stroke) at \(Int(key.rate)) Hz, \(key.lead) ahead"
}

/// The held-out strokes, run once: no default was tuned on them.
private let heldOut = CorpusResults(strokes: StrokeCorpus.heldOut)

/// The corpus a parameterized test reads, named in its output.
enum Corpus: String, CaseIterable, CustomTestStringConvertible {
    case tuned = "the corpus", heldOut = "the held-out strokes"

    var results: CorpusResults { self == .tuned ? PointerInputTests.results : PointerInputTests.heldOut }
    var testDescription: String { rawValue }
}

/// Held-out cases where the default's drawn point jitters more than the latest sample: at
/// 60 Hz the predicted step, about 40 ms long at a 25 ms lead, carries the noise of the
/// velocity it is drawn from (decision record 0139).
private let heldOutJitterMisses: Set<String> = [
    "held out: noisy fast at 60 Hz, 0.016 seconds ahead",
    "held out: noisy fast at 60 Hz, 0.025 seconds ahead",
    "held out: noisy faint at 60 Hz, 0.008 seconds ahead",
    "held out: noisy faint at 60 Hz, 0.016 seconds ahead",
    "held out: noisy faint at 60 Hz, 0.025 seconds ahead",
    "held out: noisy faint at 120 Hz, 0.025 seconds ahead",
]

@Suite("Prediction on the stroke corpus")
struct PredictionCorpusTests {
    @Test("the default's p95 error is never worse than no prediction, in every class, input rate and lead", arguments: Corpus.allCases)
    func p95NeverWorseThanNone(_ corpus: Corpus) {
        let measured = corpus.results
        for key in measured.cases {
            let standard = measured.entry(key, Contender.standard.name).metrics, none = measured.entry(key, Contender.none.name).metrics
            #expect(standard.p95 <= none.p95, "\(label(key)): \(standard.p95) px, none \(none.p95) px")
            #expect(standard.mean < none.mean, "\(label(key)): \(standard.mean) px, none \(none.mean) px")
        }
    }

    @Test("the default's mean error is within 10% of the best built-in predictor's for each class, rate and lead",
          arguments: Corpus.allCases)
    func meanNearTheBest(_ corpus: Corpus) {
        let measured = corpus.results
        for key in measured.cases {
            let standard = measured.entry(key, Contender.standard.name).metrics.mean
            let best = measured.entry(key, measured.bestAlternative(key)).metrics.mean
            #expect(standard <= best * 1.1, "\(label(key)): \(standard) px, \(measured.bestAlternative(key)) \(best) px")
        }
    }

    @Test("on the noisy stroke the drawn point jitters no more than the latest sample does")
    func jitterOnNoise() {
        for key in results.cases where key.stroke == StrokeCorpus.noisySlow.name {
            let standard = results.entry(key, Contender.standard.name).metrics.jitter, none = results.entry(key, Contender.none.name).metrics.jitter
            #expect(standard <= none, "\(label(key)): \(standard) px, none \(none) px")
        }
    }

    @Test("on the held-out noisy strokes the drawn point jitters no more than the latest sample does, but in the listed cases")
    func jitterOnHeldOutNoise() {
        let noisy = [StrokeCorpus.heldOutNoisyFast.name, StrokeCorpus.heldOutNoisyFaint.name]
        for key in heldOut.cases where noisy.contains(key.stroke) {
            let standard = heldOut.entry(key, Contender.standard.name).metrics.jitter, none = heldOut.entry(key, Contender.none.name).metrics.jitter
            if heldOutJitterMisses.contains(label(key)) {
                withKnownIssue("listed miss") { #expect(standard <= none, "\(label(key)): \(standard) px, none \(none) px") }
            } else {
                #expect(standard <= none, "\(label(key)): \(standard) px, none \(none) px")
            }
        }
    }

    @Test("once the contact has been still for 50 ms, the default is within 2 px of no prediction", arguments: Corpus.allCases)
    func boundedOvershootPastAStop(_ corpus: Corpus) {
        let measured = corpus.results
        for key in measured.cases {
            let excess = measured.stillExcess(key, Contender.standard.name)
            #expect(excess <= 2, "\(label(key)): \(excess) px more than none")
        }
        #expect(measured.cases.contains { key in measured.entry(key, Contender.standard.name).run.frames.contains(where: \.settledStill) })
    }

    @Test("no predicted sample reaches more than the lead, cut to 25 ms, plus one input interval past its latest sample",
          arguments: Corpus.allCases)
    func reachFromTheFramesLead(_ corpus: Corpus) {
        let measured = corpus.results
        for key in measured.cases {
            let interval = Duration.seconds(1 / key.rate) + .milliseconds(1)
            for frame in measured.entry(key, Contender.standard.name).run.frames {
                #expect(frame.reach <= min(key.lead, .milliseconds(25)) + interval, "\(label(key)) at \(frame.timestamp): \(frame.reach)")
            }
        }
    }
}
