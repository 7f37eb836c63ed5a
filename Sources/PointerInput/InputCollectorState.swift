/// An `InputCollector`'s bookkeeping, without locking (the collector keeps it behind its
/// lock): the samples waiting for the next frame, the refinements of samples already
/// delivered, each live contact's recent samples for prediction, and what the lifecycle
/// policy dropped.
struct InputCollectorState {
    /// A sample expecting refinements: its contact and update sequence.
    struct RefinementKey: Hashable {
        var contact: InputContactID
        var sequence: Int
    }

    /// One live contact's recent measured samples, oldest first.
    struct ContactHistory {
        var contact: InputContactID
        var samples: [InputSample]
    }

    /// What a frame needs, taken under the lock; predictions are made from it after.
    struct FrameInput {
        var coalesced: [InputSample]
        var updates: [InputSample]
        var histories: [[InputSample]]
        var prediction: InputPrediction?
    }

    /// The most samples kept per contact for prediction, whatever the predictor's span.
    static let historyLimit = 256

    var prediction: InputPrediction?
    var predictionLead: Duration?
    var inactivePolicy: InactiveInputPolicy
    let capacity: Int
    private(set) var isActive: Bool
    /// Samples since the last frame, in the order pushed.
    private(set) var pending: [InputSample] = []
    /// The `.cancelled` samples made when the app resigned active, for the next frame.
    private(set) var cancellations: [InputSample] = []
    /// Refinements of samples delivered in earlier frames, one per sample.
    private(set) var updates: [InputSample] = []
    /// Samples expecting refinements, as last known.
    private var estimated: [RefinementKey: InputSample] = [:]
    /// Contacts not ended, in the order they appeared.
    private var live: [ContactHistory] = []
    /// Contacts cancelled when the app resigned active: their samples are dropped until
    /// they begin again.
    private var cancelled: Set<InputContactID> = []
    /// Samples dropped: by the inactive policy, or past `capacity`.
    private(set) var discarded = 0
    /// Frames taken.
    private(set) var frames = 0
    /// Whether a lifecycle transition has been applied.
    private(set) var hasFollowedLifecycle = false

    init(prediction: InputPrediction?, inactivePolicy: InactiveInputPolicy, capacity: Int, isActive: Bool) {
        self.prediction = prediction
        self.inactivePolicy = inactivePolicy
        self.capacity = capacity
        self.isActive = isActive
    }

    /// Samples waiting for the next frame, refinements and cancellations included.
    var waitingCount: Int { pending.count + cancellations.count + updates.count }

    /// Takes in one sample from a source.
    mutating func push(_ sample: InputSample) {
        let contact = sample.contactID
        guard isActive || inactivePolicy == .deliverOnReactivation else {
            discarded += 1
            return
        }
        if cancelled.contains(contact) {
            guard sample.phase == .began else {
                discarded += 1
                if sample.phase.endsContact { cancelled.remove(contact) }
                return
            }
            cancelled.remove(contact)
        }
        if let sequence = sample.updateSequence {
            let key = RefinementKey(contact: contact, sequence: sequence)
            if let base = estimated[key] {
                refine(base, with: sample, key: key)
                return
            }
            if !sample.estimatedPropertiesExpectingUpdates.isEmpty { estimated[key] = sample }
        }
        if pending.count >= capacity {
            pending.removeFirst()
            discarded += 1
        }
        pending.append(sample)
        record(sample)
    }

    /// Follows the lifecycle: on leaving active, applies the inactive policy.
    mutating func setActive(_ active: Bool) {
        guard active != isActive else { return }
        isActive = active
        guard !active, inactivePolicy == .discard else { return }
        discarded += pending.count + updates.count
        pending = []
        updates = []
        estimated = [:]
        for history in live {
            guard let last = history.samples.last, last.phase.isDown else { continue }
            var cancellation = last
            cancellation.phase = .cancelled
            cancellation.estimatedPropertiesExpectingUpdates = []
            cancellation.updateSequence = nil
            cancellations.append(cancellation)
            cancelled.insert(history.contact)
        }
        live = []
    }

    /// Applies a lifecycle transition to or from active.
    mutating func follow(active: Bool) {
        hasFollowedLifecycle = true
        setActive(active)
    }

    /// Everything waiting, for a frame: the waiting lists are emptied.
    mutating func takeFrame() -> FrameInput {
        defer {
            pending = []
            cancellations = []
            updates = []
            frames += 1
        }
        return FrameInput(coalesced: cancellations + pending, updates: updates,
                          histories: prediction == nil ? [] : live.map(\.samples), prediction: prediction)
    }

    /// Applies a refinement to the sample it refines, wherever that sample is.
    private mutating func refine(_ base: InputSample, with update: InputSample, key: RefinementKey) {
        let merged = base.refined(by: update)
        estimated[key] = merged.estimatedPropertiesExpectingUpdates.isEmpty ? nil : merged
        if let index = pending.lastIndex(where: { $0.isRefined(by: update) }) {
            pending[index] = merged
        } else if let index = updates.lastIndex(where: { $0.isRefined(by: update) }) {
            updates[index] = merged
        } else {
            updates.append(merged)
        }
        if let contact = live.firstIndex(where: { $0.contact == key.contact }),
           let index = live[contact].samples.lastIndex(where: { $0.isRefined(by: update) }) {
            live[contact].samples[index] = merged
        }
    }

    /// Adds a measured sample to its contact's history: a new stroke starts one, an end
    /// removes it, and only what the predictor reads is kept.
    private mutating func record(_ sample: InputSample) {
        guard !sample.isPredicted else { return }
        let contact = sample.contactID
        guard let index = live.firstIndex(where: { $0.contact == contact }) else {
            if !sample.phase.endsContact { live.append(ContactHistory(contact: contact, samples: [sample])) }
            return
        }
        if sample.phase.endsContact {
            live.remove(at: index)
            return
        }
        if sample.phase == .began {
            live[index].samples = [sample]
            return
        }
        var samples = live[index].samples
        // In time order, should a source hand a contact's samples out of order.
        let position = (samples.lastIndex { $0.timestamp <= sample.timestamp }).map { $0 + 1 } ?? 0
        samples.insert(sample, at: position)
        let span = prediction?.predictor.historySpan ?? .zero
        let latest = samples[samples.count - 1].timestamp
        let firstKept = samples.firstIndex { latest - $0.timestamp <= span } ?? samples.count
        let dropped = max(min(firstKept, samples.count - 2), samples.count - InputCollectorState.historyLimit, 0)
        samples.removeFirst(dropped)
        live[index].samples = samples
    }
}
