/// The input of one frame, delivered once per display-link tick (or per frame the app
/// asks for): every sample measured since the previous frame, the refinements of samples
/// delivered earlier, and each live contact extrapolated to the time the frame is shown.
/// UIKit's `coalescedTouches(for:)`, `predictedTouches(for:)` and
/// `touchesEstimatedPropertiesUpdated(_:)`, gathered per frame.
public struct InputFrame: Sendable, Hashable {
    /// The vblank the frame is for: the display link's `timestamp`.
    public var timestamp: Duration
    /// When the frame should be shown: the display link's `targetTimestamp`.
    public var targetTimestamp: Duration
    /// The time the predicted samples aim at: `targetTimestamp`, or `timestamp` plus the
    /// collector's `predictionLead` where one is set.
    public var predictionTimestamp: Duration
    /// Every sample pushed since the previous frame, in the order pushed (a source pushes
    /// each contact's samples in time order), none left out.
    public var coalescedSamples: [InputSample]
    /// One sample per live contact, extrapolated towards `predictionTimestamp` (no further
    /// than the prediction's horizon), with `isPredicted` set. Empty for a contact that
    /// ended, that has too few recent samples, or when prediction is off.
    public var predictedSamples: [InputSample]
    /// Samples delivered in an earlier frame whose estimated properties a later report
    /// refined: each is the earlier sample (same `timestamp` and `updateSequence`) with the
    /// refined values, and `estimatedPropertiesExpectingUpdates` saying what is still to
    /// come. A refinement that arrives before its sample is delivered is applied to the
    /// sample in `coalescedSamples` instead.
    public var updatedSamples: [InputSample]

    /// A frame holding the given samples.
    public init(timestamp: Duration, targetTimestamp: Duration, predictionTimestamp: Duration? = nil,
                coalescedSamples: [InputSample] = [], predictedSamples: [InputSample] = [],
                updatedSamples: [InputSample] = []) {
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.predictionTimestamp = predictionTimestamp ?? targetTimestamp
        self.coalescedSamples = coalescedSamples
        self.predictedSamples = predictedSamples
        self.updatedSamples = updatedSamples
    }

    /// Whether the frame carries no sample of any kind.
    public var isEmpty: Bool { coalescedSamples.isEmpty && predictedSamples.isEmpty && updatedSamples.isEmpty }

    /// The contacts with a sample in this frame, in the order they first appear in
    /// `coalescedSamples`, then `predictedSamples`, then `updatedSamples`.
    public var contacts: [InputContactID] {
        var seen = Set<InputContactID>()
        return (coalescedSamples + predictedSamples + updatedSamples).map(\.contactID).filter { seen.insert($0).inserted }
    }

    /// The coalesced samples of one contact, in order.
    public func coalescedSamples(for contact: InputContactID) -> [InputSample] {
        coalescedSamples.filter { $0.contactID == contact }
    }

    /// The predicted samples of one contact (none or one).
    public func predictedSamples(for contact: InputContactID) -> [InputSample] {
        predictedSamples.filter { $0.contactID == contact }
    }

    /// The refined samples of one contact, in the order their refinements arrived.
    public func updatedSamples(for contact: InputContactID) -> [InputSample] {
        updatedSamples.filter { $0.contactID == contact }
    }
}
