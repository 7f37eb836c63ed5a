/// The default predictor: it predicts with two others, a least-squares quadratic (exact on
/// clean curves) and a constant-acceleration Kalman filter (which smooths noise), and judges
/// its own confidence at every call from how well it would have done on the contact's
/// latest samples, shortening or dropping its lead when confidence falls, as Chromium's
/// and Android's predictors do.
///
/// At each call, for each sample of the last `hindcastSpan`, it predicts that sample from
/// the samples up to the one about the asked lead before it (a *hindcast*: the prediction
/// it would have drawn then), and compares it with the sample that arrived:
///
/// - **Recent error.** The two predictors are blended by the inverse squares of their
///   hindcasts' summed squared errors: noise makes the quadratic's hindcasts worse and hands
///   the answer to the filter (whose measurement noise is set to the noise the positions
///   show); clean motion hands it to the quadratic.
/// - **Confidence.** The lead is scaled by the factor that would have brought the blend's
///   hindcasts closest to the samples that arrived (least squares), over 0.8, at most 1: 1
///   when the predictions came (nearly) true, less when they ran ahead (curvature the fits
///   miss, reversals, stops), 0 when predicting did worse than drawing the latest sample.
///   At 0 it declines, and the latest sample is drawn. The blend is drawn from its own
///   estimate of where the contact is now, so on noisy input the drawn point is smoothed
///   as well as moved ahead.
/// - **Deceleration.** A contact slowing down is predicted no further than where its fitted
///   velocity would reach zero: past that a parabola turns back, and hands rarely do.
///
/// - **Stillness.** When the line through the samples of the last 35 ms moves less than
///   half a pixel (or twice the noise) across them, the contact has stopped: it declines.
///
/// Silence (no samples at all while a mouse is still) is judged by `InputPrediction`,
/// which knows the frame's time. Like every predictor it holds no state between calls.
public struct AdaptivePredictor: InputPredictor {
    /// The predictor for clean motion.
    public var curvePredictor: LeastSquaresPredictor
    /// The predictor for noisy motion.
    public var noisePredictor: KalmanPredictor
    /// How far back the hindcasts reach: samples this recent are predicted from older ones.
    public var hindcastSpan: Duration

    /// The hindcasts' best lead scale that counts as full confidence: a factor a little
    /// under 1 comes as often from the fits' own error as from motion they missed.
    static let fullConfidence = 0.8

    /// The longest lead whose hindcasts the history is kept for (`InputPrediction`'s
    /// default horizon); a longer lead is judged on fewer hindcasts.
    static let longestLead: Duration = .milliseconds(25)

    /// An adaptive predictor over `curvePredictor` and `noisePredictor`, judging itself on the
    /// last `hindcastSpan` of samples.
    public init(curvePredictor: LeastSquaresPredictor = LeastSquaresPredictor(),
                noisePredictor: KalmanPredictor = KalmanPredictor(), hindcastSpan: Duration = .milliseconds(60)) {
        precondition(hindcastSpan > .zero, "AdaptivePredictor: hindcastSpan must be positive, got \(hindcastSpan)")
        self.curvePredictor = curvePredictor
        self.noisePredictor = noisePredictor
        self.hindcastSpan = hindcastSpan
    }

    /// The hindcasts' span and lead, and the predictors' own history before them.
    public var historySpan: Duration {
        hindcastSpan + Self.longestLead + max(curvePredictor.historySpan, noisePredictor.historySpan)
    }

    /// The blended prediction with its lead scaled by the confidence; nil when the
    /// confidence is 0 or neither predictor answers.
    public func predict(from history: [InputSample], at time: Duration) -> PredictedPosition? {
        guard history.count >= 2, let latest = history.last, time > latest.timestamp else { return nil }
        let lead = time - latest.timestamp
        let noiseLevel = noise(history)
        guard !isStill(history, noise: noiseLevel) else { return nil }
        var smoother = noisePredictor
        smoother.measurementNoise = max(noisePredictor.measurementNoise, noiseLevel)
        let hindcasts = self.hindcasts(history, lead: lead, smoother: smoother)
        let weight = curveWeight(hindcasts)
        let aimed = latest.timestamp + (timeToStop(history).map { $0 < lead.seconds ? .seconds(rounding: $0) : lead } ?? lead)
        guard aimed > latest.timestamp, let estimate = blend(history, at: aimed, weight: weight, smoother: smoother),
              let anchor = blend(history, at: latest.timestamp, weight: weight, smoother: smoother) else { return nil }
        let confidence = self.confidence(hindcasts, weight: weight)
        guard confidence > 0 else { return nil }
        let scaled = latest.timestamp + (aimed - latest.timestamp) * confidence
        guard scaled > latest.timestamp else { return nil }
        return PredictedPosition(timestamp: scaled, position: anchor + (estimate - anchor) * confidence)
    }

    /// Whether the line fitted through the samples of the last `stillWindow` (two at least)
    /// moves less than `stillTolerance` (or twice the noise) across that window: the contact
    /// has stopped, and the latest sample is the best guess.
    private func isStill(_ history: [InputSample], noise: Double) -> Bool {
        let latest = history[history.count - 1]
        let recent = history.filter { latest.timestamp - $0.timestamp <= Self.stillWindow }
        guard recent.count >= 2 else { return false }
        let times = recent.map { ($0.timestamp - latest.timestamp) / Self.stillWindow }
        guard let x = PolynomialFit(times: times, values: recent.map(\.position.x), degree: 1),
              let y = PolynomialFit(times: times, values: recent.map(\.position.y), degree: 1) else { return false }
        let limit = max(Self.stillTolerance, 2 * noise)
        return Self.squared(SIMD2(x.coefficients[1], y.coefficients[1])) <= limit * limit
    }

    /// How long a contact's samples must have stayed put for it to count as still.
    static let stillWindow: Duration = .milliseconds(35)
    /// How far a still contact's fitted line may move across `stillWindow`, in pixels.
    static let stillTolerance = 0.5

    /// The noise of the positions: the RMS residual, per axis, of a quadratic over the noise
    /// predictor's window (0 with fewer than five samples).
    private func noise(_ history: [InputSample]) -> Double {
        let latest = history[history.count - 1]
        let used = history.filter { latest.timestamp - $0.timestamp <= noisePredictor.window }
        guard used.count >= 5 else { return 0 }
        let times = used.map { ($0.timestamp - latest.timestamp).seconds / noisePredictor.window.seconds }
        var squares = 0.0
        for axis in 0..<2 {
            let values = used.map { $0.position[axis] }
            guard let fit = PolynomialFit(times: times, values: values, degree: 2) else { return 0 }
            squares += zip(times, values).reduce(0) { $0 + ($1.1 - fit.value(at: $1.0)) * ($1.1 - fit.value(at: $1.0)) }
        }
        return (squares / Double(2 * (used.count - 3))).squareRoot()
    }

    /// One sample of the recent past predicted from the samples up to about `lead` before it.
    struct Hindcast {
        /// The sample that arrived.
        var actual: SIMD2<Double>
        /// The latest sample the prediction was made from.
        var base: SIMD2<Double>
        /// What each predictor said (nil where it declined).
        var curve: SIMD2<Double>?
        var noise: SIMD2<Double>?
    }

    private func hindcasts(_ history: [InputSample], lead: Duration, smoother: KalmanPredictor) -> [Hindcast] {
        let latest = history[history.count - 1].timestamp
        var result: [Hindcast] = []
        for index in stride(from: history.count - 1, through: 2, by: -1) {
            let target = history[index]
            guard latest - target.timestamp <= hindcastSpan else { break }
            let cutoff = target.timestamp - lead
            guard let before = history[..<index].lastIndex(where: { $0.timestamp <= cutoff }) else { break }
            // The base whose distance to the target is nearest the lead.
            let after = before + 1
            let end = after < index && (history[after].timestamp - cutoff) < (cutoff - history[before].timestamp) ? after : before
            guard end >= 1 else { break }
            let past = Array(history[...end])
            result.append(Hindcast(actual: target.position, base: past[past.count - 1].position,
                                   curve: curvePredictor.predict(from: past, at: target.timestamp)?.position,
                                   noise: smoother.predict(from: past, at: target.timestamp)?.position))
        }
        return result
    }

    /// The share the curve predictor gets: N² / (C² + N²), C and N each predictor's summed
    /// squared hindcast error (½ with no hindcasts).
    private func curveWeight(_ hindcasts: [Hindcast]) -> Double {
        var curve = 0.0, noise = 0.0
        for hindcast in hindcasts {
            guard let c = hindcast.curve, let n = hindcast.noise else { continue }
            curve += Self.squared(c - hindcast.actual)
            noise += Self.squared(n - hindcast.actual)
        }
        guard curve + noise > 1e-12 else { return 0.5 }
        return noise * noise / (curve * curve + noise * noise)
    }

    /// The lead scale that brings the blended hindcasts' displacements from their base
    /// sample closest to the samples that arrived, over `fullConfidence`, within 0...1;
    /// 1 with no hindcasts.
    private func confidence(_ hindcasts: [Hindcast], weight: Double) -> Double {
        var along = 0.0, predicted = 0.0
        for hindcast in hindcasts {
            guard let c = hindcast.curve ?? hindcast.noise, let n = hindcast.noise ?? hindcast.curve else { continue }
            let step = c * weight + n * (1 - weight) - hindcast.base
            along += (step * (hindcast.actual - hindcast.base)).sum()
            predicted += Self.squared(step)
        }
        guard predicted > 1e-12 else { return 1 }
        return min(max(along / predicted / Self.fullConfidence, 0), 1)
    }

    private func blend(_ history: [InputSample], at time: Duration, weight: Double, smoother: KalmanPredictor) -> SIMD2<Double>? {
        let curve = curvePredictor.predict(from: history, at: time)?.position
        let noise = smoother.predict(from: history, at: time)?.position
        guard let c = curve ?? noise, let n = noise ?? curve else { return nil }
        return c * weight + n * (1 - weight)
    }

    /// How many seconds until the contact stops if it keeps decelerating as the quadratic through
    /// the curve predictor's window says; nil when it is not slowing down.
    private func timeToStop(_ history: [InputSample]) -> Double? {
        let latest = history[history.count - 1]
        let used = history.filter { latest.timestamp - $0.timestamp <= curvePredictor.window }
        guard used.count >= 3 else { return nil }
        let times = used.map { ($0.timestamp - latest.timestamp).seconds }
        guard let x = PolynomialFit(times: times, values: used.map(\.position.x), degree: 2),
              let y = PolynomialFit(times: times, values: used.map(\.position.y), degree: 2) else { return nil }
        let velocity = SIMD2(x.coefficients[1], y.coefficients[1])
        let acceleration = SIMD2(x.coefficients[2], y.coefficients[2]) * 2
        let slowing = (velocity * acceleration).sum()
        guard slowing < 0 else { return nil }
        return -Self.squared(velocity) / slowing
    }

    private static func squared(_ v: SIMD2<Double>) -> Double { (v * v).sum() }
}
