import FramePacing
import PointerInput
import Testing

/// Samples of `path` (position at a time in milliseconds) every `interval` ms up to `last` ms.
private func sampled(every interval: Double, upTo last: Double, _ path: (Double) -> SIMD2<Double>) -> [InputSample] {
    let count = Int((last / interval).rounded(.down))
    return (0...count).map { index in
        let time = last - Double(count - index) * interval
        return touch(0, index == 0 ? .began : .moved, at: time, path(time))
    }
}

/// `value` milliseconds, to the nanosecond.
private func ms(_ value: Double) -> Duration { .nanoseconds(Int64((value * 1e6).rounded())) }

@Suite("Predictors")
struct PredictorTests {
    @Test("linear resampling: resamples 5 ms before the asked time, extrapolating at most min(8 ms, half the interval)")
    func linearResampling() throws {
        let predictor = LinearResamplingPredictor()
        // 1 px per ms along x, samples every 8 ms (120 Hz-ish) up to 100 ms.
        let history = sampled(every: 8, upTo: 100) { [$0, 0] }
        // Asked 6 ms ahead: resampled at 101 ms, 1 ms past the latest.
        let near = try #require(predictor.predict(from: history, at: ms(106)))
        #expect(near.timestamp == ms(101) && abs(near.position.x - 101) < 1e-9)
        // Asked 25 ms ahead: only half the 8 ms interval, 4 ms.
        let far = try #require(predictor.predict(from: history, at: ms(125)))
        #expect(far.timestamp == ms(104) && abs(far.position.x - 104) < 1e-9)
        // At 30 ms intervals the 8 ms limit holds.
        let sparse = sampled(every: 30, upTo: 90) { [$0, 0] }
        #expect(try #require(predictor.predict(from: sparse, at: ms(125))).timestamp == ms(98))
        // Asked less than 5 ms ahead, or with samples under 2 ms apart: it declines.
        #expect(predictor.predict(from: history, at: ms(104)) == nil)
        #expect(predictor.predict(from: sampled(every: 1, upTo: 100) { [$0, 0] }, at: ms(116)) == nil)
    }

    @Test("least squares: a quadratic over 50 ms follows a parabola exactly, and falls back to a line on two samples")
    func leastSquares() throws {
        let parabola = { (t: Double) -> SIMD2<Double> in [3 + 0.5 * t + 0.01 * t * t, 20 - 0.2 * t] }
        let history = sampled(every: 4, upTo: 200, parabola)
        let predicted = try #require(LeastSquaresPredictor().predict(from: history, at: ms(216)))
        #expect(distance(predicted.position, parabola(216)) < 1e-6)
        // Only the last 50 ms are read: a different start does not change the answer.
        let changedStart = [touch(0, .began, at: 10, [900, 900])] + history.dropFirst()
        let same = try #require(LeastSquaresPredictor().predict(from: changedStart, at: ms(216)))
        #expect(distance(same.position, predicted.position) < 1e-9)
        let two = try #require(LeastSquaresPredictor().predict(from: [touch(at: 0, [0, 0]), touch(at: 10, [10, 5])], at: ms(20)))
        #expect(distance(two.position, [20, 10]) < 1e-9)
        #expect(LeastSquaresPredictor().predict(from: [touch(at: 10, [0, 0]), touch(at: 10, [10, 5])], at: ms(20)) == nil)
    }

    @Test("Kalman: on noiseless motion its model matches, the prediction is exact to a hundredth of a pixel")
    func kalmanOnItsModel() throws {
        let line = { (t: Double) -> SIMD2<Double> in [100 + 0.8 * t, 100 + 0.6 * t] }
        let parabola = { (t: Double) -> SIMD2<Double> in [3 + 0.5 * t + 0.004 * t * t, 20 - 0.2 * t] }
        for rate in [60.0, 120, 240] {
            let velocity = KalmanPredictor(model: .constantVelocity)
            let onLine = try #require(velocity.predict(from: sampled(every: 1000 / rate, upTo: 300, line), at: ms(316)))
            #expect(distance(onLine.position, line(316)) < 0.01, "\(rate) Hz")
            let acceleration = KalmanPredictor(model: .constantAcceleration)
            let onParabola = try #require(acceleration.predict(from: sampled(every: 1000 / rate, upTo: 300, parabola), at: ms(316)))
            #expect(distance(onParabola.position, parabola(316)) < 0.01, "\(rate) Hz")
        }
        #expect(KalmanPredictor().model == .constantAcceleration)
        #expect(KalmanPredictor().processNoise == KalmanPredictor.defaultProcessNoise(for: .constantAcceleration))
    }

    @Test("the default reads a dead stop from a short last step, not from positions rounded to whole pixels")
    func stopFromTheLastStep() throws {
        let predictor = AdaptivePredictor()
        // 600 px/s at 240 Hz, rounded as X reports pointer positions: steps of 2 and 3 px.
        // Every prediction 20 ms ahead reaches the line, not a stop read from a 3 px step
        // followed by a 2 px one.
        var worst = 0.0
        for last in stride(from: 150.0, through: 300, by: 4.1667) {
            let history = sampled(every: 4.1667, upTo: last) { [(0.6 * $0).rounded(), 200] }
            let predicted = try #require(predictor.predict(from: history, at: ms(last + 20)))
            worst = max(worst, abs(predicted.position.x - 0.6 * (last + 20)))
        }
        print("rounded sweep, 20 ms ahead: largest error \(worst) px")
        #expect(worst < 1.5)
        // A mouse at 1,200 px/s, 60 Hz, that stops dead 8 ms after a sample reports a step of
        // 10 px after steps of 20 px: the prediction stops within the step it did not make.
        let stopped = sampled(every: 16.6667, upTo: 300) { [1.2 * min($0, 291.6667), 200] }
        let atStop = try #require(predictor.predict(from: stopped, at: ms(316)))
        #expect(abs(atStop.position.x - 350) < 5, "\(atStop)")
    }

    @Test("Kalman smooths noise that a least-squares quadratic extrapolates")
    func kalmanSmooths() {
        var noise = SeededNoise(seed: 7)
        var kalmanError = 0.0, quadraticError = 0.0
        for trial in 0..<200 {
            let still = SIMD2<Double>(400, 300)
            let history = (0...24).map { index in
                touch(0, index == 0 ? .began : .moved, at: Double(trial * 200 + index) * 4.1667,
                      still + [noise.gaussian(sigma: 1), noise.gaussian(sigma: 1)])
            }
            let time = history.last!.timestamp + .milliseconds(16)
            kalmanError += distance(KalmanPredictor().predict(from: history, at: time)!.position, still)
            quadraticError += distance(LeastSquaresPredictor().predict(from: history, at: time)!.position, still)
        }
        print("still contact with 1 px noise at 240 Hz, 16 ms ahead: mean error Kalman \(kalmanError / 200) px, least squares \(quadraticError / 200) px")
        #expect(kalmanError < quadraticError * 0.7)
    }
}

@Suite("Prediction limits")
struct PredictionLimitTests {
    private let prediction = InputPrediction(predictor: LeastSquaresPredictor(degree: 1))
    private let line = sampled(every: 8, upTo: 100) { [$0, 0] }

    @Test("no further than 25 ms past the frame's time plus the sample's age, whatever the target")
    func horizonCap() throws {
        let capped = try #require(prediction.predictedSample(from: line, now: ms(100), target: ms(200)))
        #expect(capped.timestamp == ms(125) && abs(capped.position.x - 125) < 1e-9)
        // The cap is on the frame's lead: a frame 4 ms after the latest sample reaches 29 ms
        // past it, to 25 ms after the frame's time.
        let later = try #require(prediction.predictedSample(from: line, now: ms(104), target: ms(200)))
        #expect(later.timestamp == ms(129) && abs(later.position.x - 129) < 1e-9)
        let uncapped = try #require(prediction.predictedSample(from: line, now: ms(100), target: ms(116)))
        #expect(uncapped.timestamp == ms(116))
        // The reach is the frame's lead plus the sample's age, but no more of that age than
        // one interval (8 ms): a frame at 110 ms aiming at 118 ms reaches 16 ms past the
        // sample at 100 ms, not 18.
        let stale = try #require(prediction.predictedSample(from: line, now: ms(110), target: ms(118)))
        #expect(stale.timestamp == ms(116) && abs(stale.position.x - 116) < 1e-9)
        #expect(capped.isPredicted && capped.phase == .moved && capped.updateSequence == nil)
    }

    @Test("off when samples are sparse, stale or silent, when the contact ended, or with one sample")
    func sparse() {
        // Every 30 ms: intervals over 20 ms.
        #expect(prediction.predictedSample(from: sampled(every: 30, upTo: 90) { [$0, 0] }, now: ms(95), target: ms(111)) == nil)
        #expect(prediction.predictedSample(from: sampled(every: 20, upTo: 100) { [$0, 0] }, now: ms(101), target: ms(116)) != nil)
        // The latest sample more than 25 ms old at the frame (16 ms intervals, so silence
        // alone would allow 36 ms).
        let sixty = sampled(every: 16, upTo: 96) { [$0, 0] }
        #expect(prediction.predictedSample(from: sixty, now: ms(122), target: ms(138)) == nil)
        #expect(prediction.predictedSample(from: sixty, now: ms(121), target: ms(138)) != nil)
        // Silence: older than two intervals plus 12 ms (4 ms intervals: 20 ms), the pointer
        // has stopped.
        let fast = sampled(every: 4, upTo: 100) { [$0, 0] }
        #expect(prediction.predictedSample(from: fast, now: ms(121), target: ms(137)) == nil)
        #expect(prediction.predictedSample(from: fast, now: ms(120), target: ms(136)) != nil)
        var ended = line
        ended[ended.count - 1].phase = .ended
        #expect(prediction.predictedSample(from: ended, now: ms(100), target: ms(116)) == nil)
        #expect(prediction.predictedSample(from: [line[0]], now: ms(1), target: ms(16)) == nil)
    }

    @Test("through a collector: a pointer that stops reporting stops being predicted 25 ms later; 30 Hz input is never predicted")
    func throughCollector() {
        let display = VirtualDisplay(refreshRate: 60)
        let collector = InputCollector()
        let frames = Recorder<InputFrame>()
        let link = collector.makeDisplayLink(clock: display) { frame, _ in frames.append(frame) }
        let pointer = ScriptedInputSource.stroke(device: .pointer, from: .milliseconds(2), duration: .milliseconds(300),
                                                 rate: 125, hovering: true) { [$0.seconds * 500, 0] }
        let slow = ScriptedInputSource.stroke(device: .pen, from: .milliseconds(3), duration: .milliseconds(600), rate: 30) { [0, $0.seconds * 500] }
        let sources = [ScriptedInputSource(clock: display, samples: pointer), ScriptedInputSource(clock: display, samples: slow)]
        for source in sources { source.start(collector.sink) }
        display.advance(by: .milliseconds(500))

        let pointerID = InputContactID(device: .pointer, contact: 0), penID = InputContactID(device: .pen, contact: 0)
        let last = pointer.last!.timestamp
        for frame in frames.all where frame.timestamp > .milliseconds(20) {
            let predicted = frame.predictedSamples(for: pointerID)
            #expect(predicted.count == (frame.timestamp - last <= .milliseconds(25) ? 1 : 0), "\(frame.timestamp)")
            #expect(predicted.allSatisfy { $0.isPredicted && $0.phase == .hovering && $0.timestamp <= frame.predictionTimestamp })
            #expect(frame.predictedSamples(for: penID).isEmpty)
        }
        #expect(frames.all.flatMap { $0.coalescedSamples(for: penID) } == slow.filter { $0.timestamp <= .milliseconds(500) })
        link.invalidate()
    }
}
