/// A Kalman filter run over the contact's recent samples, each axis on its own, then
/// extrapolated along its model to the asked time. It weighs each sample by how well the
/// model predicted it, so it smooths noise that a fit through the last samples would
/// extrapolate, at the cost of some lag when the motion changes.
///
/// The filter holds no state between frames: it starts over from the oldest sample of
/// `window` at every call (cold: the first sample's position, velocity and acceleration
/// unknown), so a prediction depends only on the samples in the window.
public struct KalmanPredictor: InputPredictor {
    /// What the filter assumes about the motion between samples.
    public enum Model: Sendable, Hashable {
        /// Velocity changes by white-noise acceleration; it extrapolates along a line.
        case constantVelocity
        /// Acceleration changes by white-noise jerk; it extrapolates along a parabola.
        case constantAcceleration
    }

    /// The motion model.
    public var model: Model
    /// The spectral density of the noise that drives the model: acceleration noise in
    /// px²/s³ for constant velocity, jerk noise in px²/s⁵ for constant acceleration.
    /// Larger follows changes sooner and smooths less.
    public var processNoise: Double
    /// The standard deviation of a sample's position, in pixels.
    public var measurementNoise: Double
    /// How far back before the latest sample the filter starts.
    public var window: Duration

    /// A filter with `model`; `processNoise` defaults to the model's tuned value (see
    /// `defaultProcessNoise(for:)`).
    public init(model: Model = .constantAcceleration, processNoise: Double? = nil, measurementNoise: Double = 1,
                window: Duration = .milliseconds(100)) {
        precondition(measurementNoise > 0, "KalmanPredictor: measurementNoise must be positive, got \(measurementNoise)")
        precondition(window > .zero, "KalmanPredictor: window must be positive, got \(window)")
        self.model = model
        self.processNoise = processNoise ?? KalmanPredictor.defaultProcessNoise(for: model)
        self.measurementNoise = measurementNoise
        self.window = window
        precondition(self.processNoise > 0, "KalmanPredictor: processNoise must be positive, got \(self.processNoise)")
    }

    /// The process noise each model uses unless told: tuned on the strokes of
    /// `PredictionErrorTests` (see decision 0043).
    public static func defaultProcessNoise(for model: Model) -> Double {
        switch model {
        case .constantVelocity: 2e6
        case .constantAcceleration: 1e8
        }
    }

    /// The filter's window.
    public var historySpan: Duration { window }

    /// The filtered state at the latest sample, extrapolated to `time`.
    public func predict(from history: [InputSample], at time: Duration) -> PredictedPosition? {
        guard let latest = history.last, history.count >= 2 else { return nil }
        var used = history.drop { latest.timestamp - $0.timestamp > window }
        if used.count < 2 { used = history.suffix(2) }
        let order = model == .constantVelocity ? 2 : 3
        let variance = measurementNoise * measurementNoise
        var x = KalmanAxis(order: order, position: used.first!.position.x, variance: variance)
        var y = KalmanAxis(order: order, position: used.first!.position.y, variance: variance)
        var previous = used.first!.timestamp
        for sample in used.dropFirst() {
            let step = (sample.timestamp - previous).seconds
            previous = sample.timestamp
            x.advance(by: step, processNoise: processNoise)
            y.advance(by: step, processNoise: processNoise)
            x.correct(measured: sample.position.x, variance: variance)
            y.correct(measured: sample.position.y, variance: variance)
        }
        let ahead = (time - latest.timestamp).seconds
        return PredictedPosition(timestamp: time, position: SIMD2(x.extrapolated(by: ahead), y.extrapolated(by: ahead)))
    }
}
