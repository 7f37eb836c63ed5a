/// When and how far to predict, around an `InputPredictor`: the rules every predictor
/// shares. A contact gets a predicted sample only while its samples are dense and recent
/// enough to say where it is heading, and never further ahead than the frame needs:
///
/// - at least two samples since the contact began, and it has not ended;
/// - the latest no older than `maximumSampleAge` at the frame's time, nor older than two of
///   its last intervals plus `silenceAllowance` (a pointer that stops stops reporting: its
///   prediction stops with it);
/// - the last interval between samples no longer than `maximumSampleInterval` (sparse
///   samples say too little about the motion between them);
/// - the prediction reaches past the latest sample by the frame's lead (its prediction time
///   minus its time, at most `maximumHorizon`) plus the latest sample's age, but by no more
///   of that age than one interval between samples (a sample older than that says the
///   pointer slowed or stopped, not that it moved on). The cap is on the lead, not on the
///   reach: a cap on the reach would draw every frame whose sample is not fresh short of
///   where the contact is at the frame's time, by as far as it moves in that age.
public struct InputPrediction: Sendable {
    /// The predictor that extrapolates.
    public var predictor: any InputPredictor
    /// The furthest ahead of the frame's time a prediction aims (25 ms): a longer lead is
    /// cut to it. The reach past the latest sample adds that sample's age, up to one interval.
    public var maximumHorizon: Duration
    /// What a sample's age may exceed two of the contact's last intervals by before the
    /// contact counts as stopped (12 ms: room for the time a sample spends on its way to the
    /// app, which the timestamps do not show).
    public static let silenceAllowance: Duration = .milliseconds(12)
    /// The oldest a contact's latest sample may be, at the frame's time, for it to be
    /// predicted (25 ms).
    public var maximumSampleAge: Duration
    /// The longest interval between a contact's last two samples for it to be predicted
    /// (20 ms: 50 Hz input and faster).
    public var maximumSampleInterval: Duration

    /// Prediction with `predictor` (an `AdaptivePredictor` by default; see decision records
    /// 0043 and 0082) and the given limits.
    public init(predictor: any InputPredictor = AdaptivePredictor(), maximumHorizon: Duration = .milliseconds(25),
                maximumSampleAge: Duration = .milliseconds(25), maximumSampleInterval: Duration = .milliseconds(20)) {
        precondition(maximumHorizon >= .zero, "InputPrediction: maximumHorizon must not be negative, got \(maximumHorizon)")
        self.predictor = predictor
        self.maximumHorizon = maximumHorizon
        self.maximumSampleAge = maximumSampleAge
        self.maximumSampleInterval = maximumSampleInterval
    }

    /// The predicted sample of the contact whose recent measured samples are `history`
    /// (oldest first) for a frame at `now` shown at `target`: the latest sample moved to
    /// the predicted position and time, with `isPredicted` set and its position among its
    /// `estimatedProperties` (nothing expecting updates). Nil when the rules above
    /// or the predictor decline.
    public func predictedSample(from history: [InputSample], now: Duration, target: Duration) -> InputSample? {
        guard history.count >= 2, let latest = history.last, !latest.phase.endsContact else { return nil }
        let previous = history[history.count - 2]
        let interval = latest.timestamp - previous.timestamp, age = now - latest.timestamp
        guard age <= maximumSampleAge, age <= interval * 2 + Self.silenceAllowance,
              interval <= maximumSampleInterval else { return nil }
        let reach = min(target - latest.timestamp, min(max(target - now, .zero), maximumHorizon) + min(max(age, .zero), interval))
        let time = latest.timestamp + reach
        guard time > latest.timestamp,
              let estimate = predictor.predict(from: history, at: time),
              estimate.timestamp > latest.timestamp, estimate.timestamp <= time,
              estimate.position.x.isFinite, estimate.position.y.isFinite else { return nil }
        var sample = latest
        sample.position = estimate.position
        sample.timestamp = estimate.timestamp
        sample.phase = latest.phase == .hovering ? .hovering : .moved
        sample.isPredicted = true
        sample.estimatedProperties = latest.estimatedProperties.union(.position)
        sample.estimatedPropertiesExpectingUpdates = []
        sample.updateSequence = nil
        return sample
    }
}
