/// A least-squares polynomial fit over the samples of the last `window` (a quadratic over
/// 50 ms by default), evaluated at the asked time: it follows curves and acceleration,
/// and averages noise over the window, but a quadratic extrapolates what noise it keeps.
/// With fewer samples than the degree needs, it fits the highest degree they allow (two
/// samples: a line).
public struct LeastSquaresPredictor: InputPredictor {
    /// How far back before the latest sample the fit reads.
    public var window: Duration
    /// The polynomial's degree: 1 (a line, constant velocity) or 2 (a parabola, constant
    /// acceleration).
    public var degree: Int

    /// A fit of `degree` over `window`.
    public init(window: Duration = .milliseconds(50), degree: Int = 2) {
        precondition((1...2).contains(degree), "LeastSquaresPredictor: degree must be 1 or 2, got \(degree)")
        precondition(window > .zero, "LeastSquaresPredictor: window must be positive, got \(window)")
        self.window = window
        self.degree = degree
    }

    /// The fit's window.
    public var historySpan: Duration { window }

    /// The fitted polynomial at `time`; nil with fewer than two samples in the window (the
    /// last two always count) or when they share one time.
    public func predict(from history: [InputSample], at time: Duration) -> PredictedPosition? {
        guard let latest = history.last else { return nil }
        var used = history.filter { latest.timestamp - $0.timestamp <= window }
        if used.count < 2 { used = Array(history.suffix(2)) }
        guard used.count >= 2 else { return nil }
        // Time in units of the window, from the latest sample: the normal equations stay
        // well conditioned whatever the window.
        let scale = window.seconds
        let times = used.map { ($0.timestamp - latest.timestamp).seconds / scale }
        let at = (time - latest.timestamp).seconds / scale
        for degree in stride(from: min(degree, used.count - 1), through: 1, by: -1) {
            guard let x = PolynomialFit(times: times, values: used.map(\.position.x), degree: degree),
                  let y = PolynomialFit(times: times, values: used.map(\.position.y), degree: degree) else { continue }
            return PredictedPosition(timestamp: time, position: SIMD2(x.value(at: at), y.value(at: at)))
        }
        return nil
    }
}
