import AppLifecycle
import FramePacing
import SwiftGPUSupport

/// Gathers samples from any number of sources, on any threads, and hands them to the app
/// once per frame as an `InputFrame`: every sample since the previous frame (coalesced),
/// the refinements of earlier estimated samples, and each live contact predicted to the
/// frame's target time. UIKit's per-frame touch delivery, for a `DisplayLink`.
///
/// ```swift
/// let input = InputCollector(lifecycle: lifecycle)
/// source.start(input.sink)
/// let link = input.makeDisplayLink(clock: display) { frame, link in
///     for sample in frame.coalescedSamples { stroke.add(sample) }
///     for sample in frame.updatedSamples { stroke.refine(sample) }
///     stroke.draw(ahead: frame.predictedSamples)     // shown at frame.targetTimestamp
/// }
/// ```
///
/// Samples are delivered only when a frame is made, never more often, and none is
/// dropped while the app is active (unless more than `capacity` wait for one frame). With
/// a lifecycle the link pauses while the app is not active, so input never wakes it in the
/// background; `inactivePolicy` says whether what arrives meanwhile is dropped (the
/// default, as UIKit) or delivered on reactivation.
///
/// Every method and property may be used from any thread. Its lock is a leaf: nothing is
/// called while it is held, and predictions are made after it is let go.
public final class InputCollector: Sendable {
    /// The lifecycle the collector and its display links follow, if any.
    public let lifecycle: AppLifecycle?
    /// The most samples that wait for a frame; past it the oldest are dropped and counted
    /// in `discardedSampleCount`. Only a paused link or a long inactive spell with
    /// `.deliverOnReactivation` fills it.
    public let capacity: Int
    private let state: LockedValue<InputCollectorState>
    private let observation = LockedValue<LifecycleObservation?>(nil, rank: .leaf("InputCollector.observation"))

    /// A collector predicting with `prediction` (nil: no prediction), following
    /// `lifecycle` with `inactivePolicy`, holding at most `capacity` samples for a frame.
    public init(prediction: InputPrediction? = InputPrediction(), lifecycle: AppLifecycle? = nil,
                inactivePolicy: InactiveInputPolicy = .discard, capacity: Int = 8_192) {
        precondition(capacity > 0, "InputCollector: capacity must be positive, got \(capacity)")
        self.lifecycle = lifecycle
        self.capacity = capacity
        state = LockedValue(InputCollectorState(prediction: prediction, inactivePolicy: inactivePolicy,
                                                capacity: capacity, isActive: true),
                            rank: .leaf("InputCollector.state"))
        guard let lifecycle else { return }
        // Observed before the state is read, so no transition falls between the two; a
        // transition observed meanwhile is newer than the state read, and wins.
        let token = lifecycle.observe { [weak self] transition in
            self?.state.withLock { $0.follow(active: transition.to == .active) }
        }
        observation.withLock { $0 = token }
        let active = lifecycle.state == .active
        state.withLock { if !$0.hasFollowedLifecycle { $0.setActive(active) } }
    }

    deinit { observation.withLock { $0 }?.cancel() }

    /// The closure sources push samples into (`source.start(collector.sink)`).
    public var sink: InputSink { { [self] sample in push(sample) } }

    /// Takes in one sample, from any thread. A sample with the `updateSequence` of an
    /// earlier sample of its contact that still expects updates refines that sample
    /// (`InputSample.refined(by:)`) instead of being a new one: in place if it is not
    /// delivered yet, else in the next frame's `updatedSamples`.
    public func push(_ sample: InputSample) { state.withLock { $0.push(sample) } }

    /// Takes everything waiting into a frame for the vblank `timestamp`, to be shown at
    /// `targetTimestamp`, and predicts each live contact. A display link made by
    /// `makeDisplayLink` calls this at each tick; a loop paced otherwise (a `Pacer`) calls
    /// it once per frame it makes.
    public func nextFrame(timestamp: Duration, targetTimestamp: Duration) -> InputFrame {
        let input = state.withLock { state in
            (state.takeFrame(), state.predictionLead.map { timestamp + $0 } ?? targetTimestamp)
        }
        let (taken, predictionTime) = input
        let predicted = taken.prediction.map { prediction in
            taken.histories.compactMap { prediction.predictedSample(from: $0, now: timestamp, target: predictionTime) }
        } ?? []
        return InputFrame(timestamp: timestamp, targetTimestamp: targetTimestamp, predictionTimestamp: predictionTime,
                          coalescedSamples: taken.coalesced, predictedSamples: predicted, updatedSamples: taken.updates)
    }

    /// A display link on `clock` that calls `handler` with each tick's frame, on the
    /// clock's thread. It follows the collector's lifecycle: paused while the app is not
    /// active, so nothing is delivered then.
    public func makeDisplayLink(clock: any DisplayClock,
                                _ handler: @escaping @Sendable (InputFrame, DisplayLink) -> Void) -> DisplayLink {
        DisplayLink(clock: clock, lifecycle: lifecycle) { [self] link in
            handler(nextFrame(timestamp: link.timestamp, targetTimestamp: link.targetTimestamp), link)
        }
    }

    /// How contacts are predicted; nil turns prediction off.
    public var prediction: InputPrediction? {
        get { state.withLock { $0.prediction } }
        set { state.withLock { $0.prediction = newValue } }
    }

    /// How far after a frame's `timestamp` predictions aim; nil (the default) aims at the
    /// frame's `targetTimestamp`. For an app that knows its frames are shown later (or
    /// sooner) than the link's target.
    public var predictionLead: Duration? {
        get { state.withLock { $0.predictionLead } }
        set { state.withLock { $0.predictionLead = newValue } }
    }

    /// What happens to samples while the lifecycle is not active; applied at each
    /// deactivation and to each sample pushed.
    public var inactivePolicy: InactiveInputPolicy {
        get { state.withLock { $0.inactivePolicy } }
        set { state.withLock { $0.inactivePolicy = newValue } }
    }

    /// Whether the collector counts the app as active (always, with no lifecycle).
    public var isActive: Bool { state.withLock { $0.isActive } }

    /// How many samples, refinements and cancellations wait for the next frame.
    public var waitingCount: Int { state.withLock { $0.waitingCount } }

    /// How many samples were dropped: by the inactive policy, or past `capacity`.
    public var discardedSampleCount: Int { state.withLock { $0.discarded } }

    /// How many frames were made.
    public var frameCount: Int { state.withLock { $0.frames } }
}
