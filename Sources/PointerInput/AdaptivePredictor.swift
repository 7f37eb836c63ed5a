import Glibc

/// The default predictor: it predicts with several others, a least-squares quadratic (exact
/// on clean curves), constant-acceleration and constant-velocity Kalman filters, and, on
/// noisy input, a slow constant-velocity filter that smooths; it weighs them, and its own
/// confidence, at every call by how well each would have done on the contact's latest
/// samples, shortening or dropping its lead when confidence falls, as Chromium's and
/// Android's predictors do.
///
/// At each call, for each sample of the last `hindcastSpan` (on noisy input, of the
/// smoothing filter's window, if longer), it predicts that sample from the samples up to the
/// one about the asked lead before it (a *hindcast*: the prediction it would have drawn
/// then), and compares it with the sample that arrived:
///
/// - **Noise.** The positions' noise is measured by how far each sample lies from the
///   parabola through its neighbours (the median, so that corners and starts do not count
///   as noise), over 100 ms and at least 12 samples. The filters' measurement noise is
///   raised to it, and from half a pixel the smoothing filter joins the candidates.
/// - **Recent error.** Each candidate's hindcast errors are summed, squared, the latest
///   counting most on clean input (they fade with a time constant of `errorMemory`; on
///   noisy input, where one hindcast's error is mostly noise, all count the same), and the
///   candidates are blended by the inverse 8th power of those sums: in effect the one whose recent
///   hindcasts were best, mixed with any close to it, so the answer does not jump when
///   another candidate takes over. Noise makes the quadratic's hindcasts worse and hands the answer
///   to the filters; clean motion hands it to whichever model fits it.
/// - **Confidence.** The lead is scaled by the factor that would have brought the blend's
///   hindcasts closest to the samples that arrived (least squares), at most 1: 1
///   when the predictions came true, less when they ran ahead (curvature the fits
///   miss, reversals, stops), 0 when predicting did worse than drawing the latest sample.
///   At 0 it declines, and the latest sample is drawn. The blend is drawn from its own
///   estimate of where the contact is now, so on noisy input the drawn point is smoothed
///   as well as moved ahead.
/// - **Deceleration.** A contact slowing down is predicted no further than where its fitted
///   velocity would reach zero: past that a parabola turns back, and hands rarely do. On
///   clean input, when the last step is under half the one before (a mouse that stops dead
///   reports one short step; rounding to whole pixels changes a step by at most one), the
///   stop is also read from the last three samples, and the quadratic alone predicts it:
///   the filters' velocity lags a sudden stop.
/// - **Stillness.** When the line through the samples of the last 35 ms moves less than
///   half a pixel (or twice the noise) across them, the contact has stopped: it declines.
///   On clean input it declines as soon as a sample repeats the one before.
///   Samples before a silence longer than that belong to a motion that ended and are not
///   read; nor, on clean input, are those before the contact last started from rest, and
///   such a start is predicted only once the contact is further from where it rested than
///   noise could put it (three standard deviations, of the noise measured or of the
///   positions while it rested, whichever is larger).
///
/// Silence (no samples at all while a mouse is still) is judged by `InputPrediction`,
/// which knows the frame's time. Like every predictor it holds no state between calls.
public struct AdaptivePredictor: InputPredictor {
    /// The predictor for clean curves.
    public var curvePredictor: LeastSquaresPredictor
    /// The predictor for accelerating motion on noisy input.
    public var noisePredictor: KalmanPredictor
    /// The predictor for motion at a constant velocity.
    public var velocityPredictor: KalmanPredictor
    /// The predictor that smooths noisy input, a candidate only where the positions show noise.
    public var smoothingPredictor: KalmanPredictor
    /// How far back the hindcasts reach: samples this recent are predicted from older ones.
    public var hindcastSpan: Duration

    /// The longest reach whose hindcasts the history is kept for: `InputPrediction`'s
    /// default horizon (25 ms) plus its longest interval between samples (20 ms). A longer
    /// one is judged on fewer hindcasts.
    static let longestLead: Duration = .milliseconds(45)

    /// The time constant over which a hindcast's error fades from a candidate's score.
    static let errorMemory = 0.02
    /// The power of the inverse error sums that weighs the candidates.
    static let weightPower = 8.0
    /// The noise, in pixels, from which input counts as noisy: the smoothing predictor is a
    /// candidate, and a start from rest is no longer told from slow motion.
    static let noiseThreshold = 0.5
    /// How far back the noise is measured.
    static let noiseSpan: Duration = .milliseconds(100)
    /// The fewest samples the noise is measured over, reaching back past `noiseSpan` where
    /// it holds fewer: a median of fewer (six at 60 Hz) varies by a third from one frame to
    /// the next, and input with noise near `noiseThreshold` then flips between the clean and
    /// the noisy rules, which makes the drawn point jitter.
    static let noiseSamples = 12
    /// The longest interval between samples that `InputPrediction` predicts across (20 ms),
    /// which sets how long `noiseSamples` samples may take.
    static let longestInterval: Duration = .milliseconds(20)

    /// An adaptive predictor over `curvePredictor`, `noisePredictor`, `velocityPredictor`
    /// and (on noisy input) `smoothingPredictor`, judging them on the last `hindcastSpan` of samples.
    public init(curvePredictor: LeastSquaresPredictor = LeastSquaresPredictor(),
                noisePredictor: KalmanPredictor = KalmanPredictor(),
                velocityPredictor: KalmanPredictor = KalmanPredictor(model: .constantVelocity),
                smoothingPredictor: KalmanPredictor = KalmanPredictor(model: .constantVelocity, processNoise: 1e4,
                                                                      window: .milliseconds(200)),
                hindcastSpan: Duration = .milliseconds(60)) {
        precondition(hindcastSpan > .zero, "AdaptivePredictor: hindcastSpan must be positive, got \(hindcastSpan)")
        self.curvePredictor = curvePredictor
        self.noisePredictor = noisePredictor
        self.velocityPredictor = velocityPredictor
        self.smoothingPredictor = smoothingPredictor
        self.hindcastSpan = hindcastSpan
    }

    /// The hindcasts' span and lead, and the candidates' own history before them.
    public var historySpan: Duration {
        let candidates: [any InputPredictor] = [curvePredictor, noisePredictor, velocityPredictor, smoothingPredictor]
        let noise = max(Self.noiseSpan, Self.longestInterval * Self.noiseSamples)
        return max(hindcastSpan, smoothingPredictor.window) + Self.longestLead + max(noise, candidates.map(\.historySpan).max() ?? .zero)
    }

    /// The blended prediction with its lead scaled by the confidence; nil when the
    /// confidence is 0 or no candidate answers.
    public func predict(from history: [InputSample], at time: Duration) -> PredictedPosition? {
        let motion = Self.sinceSilence(history)
        guard motion.count >= 2, let latest = motion.last, time > latest.timestamp else { return nil }
        let lead = time - latest.timestamp
        let noiseLevel = PositionNoise.estimate(motion, span: Self.noiseSpan, minimumSamples: Self.noiseSamples)
        guard !isStill(motion, noise: noiseLevel) else { return nil }
        let clean = noiseLevel < Self.noiseThreshold
        guard !clean || !Self.repeats(motion) else { return nil }
        let history = clean ? sinceStill(motion, noise: noiseLevel) : motion
        // Until a start from rest has gone further than noise could take it, its few samples
        // are noise, which fits through them would extrapolate.
        guard history.count == motion.count || Self.hasLeftRest(motion, at: motion.count - history.count, noise: noiseLevel) else {
            return nil
        }
        let candidates = self.candidates(noise: noiseLevel)
        // On noisy input each hindcast's error is mostly noise: they reach back as far as the smoothing filter's window.
        let span = clean ? hindcastSpan : max(hindcastSpan, smoothingPredictor.window)
        let hindcasts = self.hindcasts(history, lead: lead, candidates: candidates, span: span)
        var weights = self.weights(hindcasts, count: candidates.count, clean: clean)
        let confidence = self.confidence(hindcasts, weights: weights)
        let stop = timeToStop(history, clean: clean).flatMap { $0 < lead.seconds ? Duration.seconds(rounding: $0) : nil }
        // Stopping on clean input: the quadratic alone, as the filters' velocity lags the stop.
        if stop != nil, clean { weights = [1] + [Double](repeating: 0, count: candidates.count - 1) }
        let aimed = latest.timestamp + (stop ?? lead)
        guard aimed > latest.timestamp, let estimate = blend(history, at: aimed, weights: weights, candidates: candidates),
              let anchor = blend(history, at: latest.timestamp, weights: weights, candidates: candidates) else { return nil }
        guard confidence > 0 else { return nil }
        let scaled = latest.timestamp + (aimed - latest.timestamp) * confidence
        guard scaled > latest.timestamp else { return nil }
        return PredictedPosition(timestamp: scaled, position: anchor + (estimate - anchor) * confidence)
    }

    /// The predictors blended: the curve predictor and the filters, their measurement noise
    /// raised to `noise`; the smoothing filter only from `noiseThreshold`.
    private func candidates(noise: Double) -> [any InputPredictor] {
        var filters = [noisePredictor, velocityPredictor]
        if noise >= Self.noiseThreshold { filters.append(smoothingPredictor) }
        for index in filters.indices { filters[index].measurementNoise = max(filters[index].measurementNoise, noise) }
        return [curvePredictor] + filters
    }

    /// The samples after the last silence longer than `stillWindow` (all of them when there
    /// is none, or fewer than two after it): those before it belong to a motion that stopped.
    static func sinceSilence(_ history: [InputSample]) -> [InputSample] {
        guard let gap = history.indices.dropFirst().last(where: { history[$0].timestamp - history[$0 - 1].timestamp > stillWindow }),
              history.count - gap >= 2 else { return history }
        return Array(history[gap...])
    }

    /// The samples from the last one at which the contact had been still for `stillWindow`
    /// (over three samples at least), within the hindcasts' reach; all of them when there is
    /// none. A start from rest begins a new motion: a fit across its kink reads it as
    /// acceleration and overshoots. Only on clean input: with noise, `isStill`'s tolerance
    /// lets slow motion pass for still.
    private func sinceStill(_ history: [InputSample], noise: Double) -> [InputSample] {
        let latest = history[history.count - 1].timestamp
        for end in stride(from: history.count - 2, through: 1, by: -1) {
            guard latest - history[end].timestamp <= hindcastSpan + Self.longestLead else { break }
            let before = history[...end]
            guard before.count(where: { history[end].timestamp - $0.timestamp <= Self.stillWindow }) >= 3,
                  isStill(Array(before), noise: noise) else { continue }
            return Array(history[end...])
        }
        return history
    }

    /// Whether the latest sample lies further from `motion[start]`, where the contact was
    /// last still, than noise could put it: three standard deviations of the difference of
    /// two noisy positions, the noise being the larger of `noise` and the spread of the
    /// samples of the `stillWindow` up to `start`. That spread measures the noise at rest
    /// directly; the estimate from the moving samples comes out at half the true noise often
    /// enough (a median of a dozen samples) for a noisy contact to pass for clean.
    private static func hasLeftRest(_ motion: [InputSample], at start: Int, noise: Double) -> Bool {
        let rest = motion[...start].filter { motion[start].timestamp - $0.timestamp <= stillWindow }
        let centre = rest.reduce(SIMD2<Double>.zero) { $0 + $1.position } / Double(rest.count)
        let spread = (rest.reduce(0) { $0 + squared($1.position - centre) } / Double(2 * max(rest.count - 1, 1))).squareRoot()
        let limit = 3 * 2.squareRoot() * max(noise, spread)
        return squared(motion[motion.count - 1].position - motion[start].position) >= limit * limit
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

    /// Whether the latest sample lies within `repeatTolerance` of the one before: on clean
    /// input, a contact that reports the same place twice has stopped, a sample or two
    /// before the line through the last `stillWindow` says so. Moving contacts do not repeat
    /// a position, and declining for one that creeps draws the latest sample, which is off
    /// by less than the creep.
    private static func repeats(_ history: [InputSample]) -> Bool {
        squared(history[history.count - 1].position - history[history.count - 2].position) <= repeatTolerance * repeatTolerance
    }

    /// How close, in pixels, two clean samples must lie to count as one place.
    static let repeatTolerance = 0.1

    /// How long a contact's samples must have stayed put for it to count as still.
    static let stillWindow: Duration = .milliseconds(35)
    /// How far a still contact's fitted line may move across `stillWindow`, in pixels.
    static let stillTolerance = 0.5

    /// One sample of the recent past predicted from the samples up to about `lead` before it.
    struct Hindcast {
        /// The sample that arrived.
        var actual: SIMD2<Double>
        /// How long before the latest sample it arrived, in seconds.
        var age: Double
        /// The latest sample the prediction was made from.
        var base: SIMD2<Double>
        /// What each candidate said, in the candidates' order (nil where it declined).
        var predictions: [SIMD2<Double>?]
    }

    /// The hindcasts of the samples of the last `span`, each from the samples about `lead` before it.
    private func hindcasts(_ history: [InputSample], lead: Duration, candidates: [any InputPredictor], span: Duration) -> [Hindcast] {
        let latest = history[history.count - 1].timestamp
        var result: [Hindcast] = []
        for index in stride(from: history.count - 1, through: 2, by: -1) {
            let target = history[index]
            guard latest - target.timestamp <= span else { break }
            let cutoff = target.timestamp - lead
            guard let before = history[..<index].lastIndex(where: { $0.timestamp <= cutoff }) else { break }
            // The base whose distance to the target is nearest the lead.
            let after = before + 1
            let end = after < index && (history[after].timestamp - cutoff) < (cutoff - history[before].timestamp) ? after : before
            guard end >= 1 else { break }
            let past = Array(history[...end])
            result.append(Hindcast(actual: target.position, age: (latest - target.timestamp).seconds, base: past[past.count - 1].position,
                                   predictions: candidates.map { $0.predict(from: past, at: target.timestamp)?.position }))
        }
        return result
    }

    /// Each candidate's share: the inverse `weightPower` of its summed squared hindcast error
    /// (on `clean` input each hindcast's fading with its age over `errorMemory`; on noisy
    /// input every hindcast of the span counting the same, as one hindcast's error is then
    /// mostly the noise, and shares that follow it make the drawn point jitter), normalized;
    /// all to one that made no error, equal shares with no hindcasts. Hindcasts where a
    /// candidate declined count for none.
    private func weights(_ hindcasts: [Hindcast], count: Int, clean: Bool) -> [Double] {
        var errors = [Double](repeating: 0, count: count)
        for hindcast in hindcasts {
            let predictions = hindcast.predictions.compactMap { $0 }
            guard predictions.count == count else { continue }
            let recency = clean ? exp(-hindcast.age / Self.errorMemory) : 1
            for (index, prediction) in predictions.enumerated() { errors[index] += recency * Self.squared(prediction - hindcast.actual) }
        }
        guard let smallest = errors.min(), errors.contains(where: { $0 > 1e-12 }) else {
            return [Double](repeating: 1 / Double(count), count: count)
        }
        guard smallest > 1e-12 else {
            let exact = Double(errors.filter { $0 <= 1e-12 }.count)
            return errors.map { $0 <= 1e-12 ? 1 / exact : 0 }
        }
        // Relative to the smallest, so that the power stays in range.
        let inverse = errors.map { pow(smallest / $0, Self.weightPower) }
        let total = inverse.reduce(0, +)
        return inverse.map { $0 / total }
    }

    /// The lead scale that brings the blended hindcasts' displacements from their base
    /// sample closest to the samples that arrived (least squares), within 0...1; 1 with no
    /// hindcasts.
    private func confidence(_ hindcasts: [Hindcast], weights: [Double]) -> Double {
        var along = 0.0, predicted = 0.0
        for hindcast in hindcasts {
            guard let blended = Self.blend(hindcast.predictions, weights: weights) else { continue }
            let step = blended - hindcast.base
            along += (step * (hindcast.actual - hindcast.base)).sum()
            predicted += Self.squared(step)
        }
        guard predicted > 1e-12 else { return 1 }
        return min(max(along / predicted, 0), 1)
    }

    /// The weighted mean of the answers, the weights of those that declined shared among the
    /// rest (the plain mean when those that answered had no weight); nil when none answered.
    private static func blend(_ predictions: [SIMD2<Double>?], weights: [Double]) -> SIMD2<Double>? {
        var sum = SIMD2<Double>.zero, total = 0.0
        for (prediction, weight) in zip(predictions, weights) {
            guard let prediction else { continue }
            sum += prediction * weight
            total += weight
        }
        if total > 1e-12 { return sum / total }
        let answered = predictions.compactMap { $0 }
        return answered.isEmpty ? nil : answered.reduce(.zero, +) / Double(answered.count)
    }

    private func blend(_ history: [InputSample], at time: Duration, weights: [Double], candidates: [any InputPredictor]) -> SIMD2<Double>? {
        Self.blend(candidates.map { $0.predict(from: history, at: time)?.position }, weights: weights)
    }

    /// How many seconds until the contact stops if it keeps decelerating as the quadratic
    /// through the curve predictor's window says, or, on `clean` input whose last step was
    /// cut short, the parabola through the last three samples, whichever stops sooner; nil
    /// when neither is slowing down. The window's fit averages a sudden stop (a mouse's
    /// last, short step) over the steps before it; the last three samples show it, and on
    /// clean input hold no noise to mistake for it.
    private func timeToStop(_ history: [InputSample], clean: Bool) -> Double? {
        let latest = history[history.count - 1]
        let window = history.filter { latest.timestamp - $0.timestamp <= curvePredictor.window }
        let fits = clean && Self.stepCutShort(history) ? [window, Array(history.suffix(3))] : [window]
        return fits.compactMap(Self.timeToStop).min()
    }

    /// Whether the latest step is under half the one before it and shorter by more than
    /// `positionQuantum`: what a contact that stops dead between two samples reports, and
    /// what positions rounded to whole pixels (a step of 2.5 px reported as 2 and 3) do not.
    private static func stepCutShort(_ history: [InputSample]) -> Bool {
        guard history.count >= 3 else { return false }
        let last = (squared(history[history.count - 1].position - history[history.count - 2].position)).squareRoot()
        let before = (squared(history[history.count - 2].position - history[history.count - 3].position)).squareRoot()
        return last < before / 2 && before - last > positionQuantum
    }

    /// The resolution of positions from devices that report whole pixels or counts.
    static let positionQuantum = 1.0

    /// The time to stop of the quadratic through `used` (three samples at least).
    private static func timeToStop(_ used: [InputSample]) -> Double? {
        guard used.count >= 3, let latest = used.last else { return nil }
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
