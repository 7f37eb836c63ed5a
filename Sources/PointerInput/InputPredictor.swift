/// Where a predictor puts a contact: a position at a time.
public struct PredictedPosition: Sendable, Hashable {
    /// The time the position is estimated for, on the samples' clock.
    public var timestamp: Duration
    /// The estimated position, in window pixels.
    public var position: SIMD2<Double>

    /// The position `position` at `timestamp`.
    public init(timestamp: Duration, position: SIMD2<Double>) {
        self.timestamp = timestamp
        self.position = position
    }
}

/// Extrapolates one contact's recent samples to a later time. `InputPrediction` decides
/// whether and how far to predict (the horizon cap, sparse samples); a predictor only
/// fits and extrapolates. Predictors are values with no state between calls: each call
/// reads the history it is given, so the same history always gives the same answer.
public protocol InputPredictor: Sendable {
    /// How far back before the latest sample the predictor reads; the collector keeps at
    /// least this much history per contact (and always the last two samples).
    var historySpan: Duration { get }

    /// The contact's estimated position at `time`, from `history`: its measured samples,
    /// oldest first, at least two, the latest last, all before `time`. A predictor may
    /// answer for an earlier time than asked (a resampler that extrapolates only so far),
    /// never a later one, or return nil to decline.
    func predict(from history: [InputSample], at time: Duration) -> PredictedPosition?
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// `seconds`, rounded to the nanosecond.
    static func seconds(rounding seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
