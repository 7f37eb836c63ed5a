import FramePacing
import SwiftGPUSupport

/// A source that plays a script of samples on a `DisplayClock`: each entry reaches the
/// sink when the clock reaches its arrival time, on the clock's thread. On a
/// `VirtualDisplay` the script runs in virtual time, in order with the display's vblanks
/// and display links, so tests of input are deterministic. Entries due at the same time
/// arrive together, in script order; entries already due when it starts arrive at the
/// clock's next step.
public final class ScriptedInputSource: InputSource {
    /// One scripted sample and when it reaches the sink.
    public struct Entry: Sendable, Hashable {
        /// When the sample reaches the sink, on the clock.
        public var arrival: Duration
        /// The sample (its own `timestamp` may be earlier: input is delivered after it is
        /// measured, and a refinement carries the time of the sample it refines).
        public var sample: InputSample

        /// `sample`, arriving at `arrival`.
        public init(arrival: Duration, sample: InputSample) {
            self.arrival = arrival
            self.sample = sample
        }
    }

    /// The clock the script plays on.
    public let clock: any DisplayClock
    private let entries: [Entry]
    private let state = LockedValue(State(), rank: .leaf("ScriptedInputSource.state"))

    private struct State {
        var sink: InputSink?
        var next = 0
        var timer: ClockTimer?
        /// Bumped by every start and stop, so that a timer already running when it was
        /// cancelled neither delivers nor schedules again.
        var epoch = 0
    }

    /// A source playing `entries` (stably sorted by arrival) on `clock`.
    public init(clock: any DisplayClock, entries: [Entry]) {
        self.clock = clock
        self.entries = entries.enumerated().sorted { ($0.element.arrival, $0.offset) < ($1.element.arrival, $1.offset) }
            .map(\.element)
    }

    /// A source playing `samples`, each arriving `latency` after its timestamp.
    public convenience init(clock: any DisplayClock, samples: [InputSample], latency: Duration = .zero) {
        self.init(clock: clock, entries: samples.map { Entry(arrival: $0.timestamp + latency, sample: $0) })
    }

    /// Begins (or goes on) playing the script from the first entry not yet delivered.
    public func start(_ sink: @escaping InputSink) {
        let (old, epoch) = state.withLock { state -> (ClockTimer?, Int) in
            state.sink = sink
            state.epoch += 1
            defer { state.timer = nil }
            return (state.timer, state.epoch)
        }
        old?.cancel()
        scheduleNext(epoch: epoch)
    }

    /// Stops playing; no delivery starts after this returns. `start(_:)` goes on from where
    /// it stopped.
    public func stop() {
        let timer = state.withLock { state -> ClockTimer? in
            state.sink = nil
            state.epoch += 1
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Whether it is playing: started, not stopped, entries left.
    public var isRunning: Bool { state.withLock { $0.sink != nil && $0.next < entries.count } }

    /// How many entries reached the sink.
    public var deliveredCount: Int { state.withLock { $0.next } }

    /// How many entries are still to come.
    public var remainingCount: Int { entries.count - deliveredCount }

    private func scheduleNext(epoch: Int) {
        let deadline = state.withLock { state -> Duration? in
            guard state.epoch == epoch, state.sink != nil, state.next < entries.count else { return nil }
            return entries[state.next].arrival
        }
        guard let deadline else { return }
        let timer = clock.schedule(at: deadline, leeway: .zero) { [weak self] now in self?.deliver(upTo: now, epoch: epoch) }
        let stale = state.withLock { state -> Bool in
            guard state.epoch == epoch, state.timer == nil else { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    private func deliver(upTo now: Duration, epoch: Int) {
        let due = state.withLock { state -> (InputSink, ArraySlice<Entry>)? in
            guard state.epoch == epoch, let sink = state.sink else { return nil }
            state.timer = nil
            let end = entries[state.next...].firstIndex { $0.arrival > now } ?? entries.endIndex
            defer { state.next = end }
            return (sink, entries[state.next..<end])
        }
        guard let (sink, batch) = due else { return }
        for entry in batch { sink(entry.sample) }
        scheduleNext(epoch: epoch)
    }
}
