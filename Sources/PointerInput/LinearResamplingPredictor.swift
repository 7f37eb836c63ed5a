/// Linear resampling, as Chromium's `LinearResampling` and Android's `InputConsumer` do:
/// the position at the asked time minus `resampleLatency`, extrapolated along the line
/// through the last two samples, but no further past the latest sample than
/// `maximumPrediction` or half the interval between the two, whichever is less. It stays
/// close to measured data and so never overshoots far; it also never reaches more than
/// 8 ms ahead, so at longer horizons it lags.
public struct LinearResamplingPredictor: InputPredictor {
    /// How far before the asked time the resample point is (5 ms in Chromium and Android).
    public var resampleLatency: Duration
    /// The furthest past the latest sample it extrapolates (8 ms in Chromium and Android).
    public var maximumPrediction: Duration
    /// Samples closer together than this give no direction: it declines (2 ms in both).
    public var minimumInterval: Duration

    /// A resampler with Chromium's and Android's constants by default.
    public init(resampleLatency: Duration = .milliseconds(5), maximumPrediction: Duration = .milliseconds(8),
                minimumInterval: Duration = .milliseconds(2)) {
        self.resampleLatency = resampleLatency
        self.maximumPrediction = maximumPrediction
        self.minimumInterval = minimumInterval
    }

    /// Two samples are all it reads.
    public var historySpan: Duration { .zero }

    /// The resampled position; nil when the last two samples are too close together or the
    /// resample point is not after the latest sample.
    public func predict(from history: [InputSample], at time: Duration) -> PredictedPosition? {
        guard history.count >= 2 else { return nil }
        let current = history[history.count - 1], previous = history[history.count - 2]
        let delta = current.timestamp - previous.timestamp
        guard delta >= minimumInterval, delta > .zero else { return nil }
        let furthest = current.timestamp + min(maximumPrediction, delta / 2)
        let sampleTime = min(time - resampleLatency, furthest)
        guard sampleTime > current.timestamp else { return nil }
        let alpha = (sampleTime - current.timestamp) / delta
        return PredictedPosition(timestamp: sampleTime,
                                 position: current.position + (current.position - previous.position) * alpha)
    }
}
