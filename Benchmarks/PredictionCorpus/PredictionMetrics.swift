/// The measures of Chromium's prediction work, over the frames of one run: the error of the
/// drawn point (mean and 95th percentile), its over- and under-prediction along the true
/// direction of motion, and the frame-to-frame jitter of the drawn point against the true
/// one.
public struct PredictionMetrics: Sendable, Hashable {
    /// Mean distance from the drawn point to the true one, in pixels.
    public var mean: Double
    /// Its 95th percentile (nearest rank).
    public var p95: Double
    /// Mean over frames of the error's component ahead of the true position along the true
    /// direction of motion (0 for a frame that lags).
    public var overPrediction: Double
    /// Mean over frames of the error's component behind the true position (0 for a frame
    /// ahead).
    public var underPrediction: Double
    /// Mean over consecutive frames of |Δdrawn − Δtrue|: how much the drawn point's motion
    /// from one frame to the next differs from the true motion.
    public var jitter: Double

    /// The measures of `run`.
    public init(_ run: PredictionRun) {
        let frames = run.frames
        precondition(!frames.isEmpty, "PredictionMetrics: the run measured no frame")
        let errors = frames.map(\.error)
        mean = errors.reduce(0, +) / Double(errors.count)
        let sorted = errors.sorted()
        p95 = sorted[min(Int((0.95 * Double(sorted.count)).rounded(.up)) - 1, sorted.count - 1)]
        let along = frames.map { frame in
            let e = frame.drawn - frame.truth
            return (e * frame.direction).sum()
        }
        overPrediction = along.reduce(0) { $0 + max($1, 0) } / Double(frames.count)
        underPrediction = along.reduce(0) { $0 + max(-$1, 0) } / Double(frames.count)
        let steps = zip(frames, frames.dropFirst()).map { previous, next in
            let d = (next.drawn - previous.drawn) - (next.truth - previous.truth)
            return (d * d).sum().squareRoot()
        }
        jitter = steps.isEmpty ? 0 : steps.reduce(0, +) / Double(steps.count)
    }
}
