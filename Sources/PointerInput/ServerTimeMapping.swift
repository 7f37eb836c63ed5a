/// Maps a display server's input timestamps onto the host's `CLOCK_MONOTONIC`, learnt from
/// the events themselves: each event's server time and the host time it arrived at.
///
/// Arrival is the event's time plus a delay (the server, the socket, the app's loop), so
/// arrival minus server time overstates the clocks' offset by that delay; the smallest
/// such offset over a window of recent events is the least delayed one, and the estimate.
/// The window (30 s by default) lets the estimate follow clocks that drift apart, and a
/// server clock that jumps forward is followed at once. A server whose clock goes back (a
/// new server) needs a new mapping.
///
/// Millisecond server times wrap at 2^32 ms (49.7 days): they are unwrapped against the
/// latest one seen, so a stream of events crosses the wrap without a jump, and a late
/// event from before it maps before it. A millisecond time stands for the middle of its
/// millisecond.
///
/// A value type with no lock: the source that reads the server's events owns it.
public struct ServerTimeMapping: Sendable {
    /// The server's time stamps.
    public enum Units: Sendable, Hashable {
        /// 32-bit milliseconds that wrap: X11's `Time`, and the `time` of Wayland's
        /// `wl_pointer`, `wl_touch` and tablet events.
        case milliseconds32
        /// 64-bit nanoseconds: Wayland's `zwp_input_timestamps_v1` (see
        /// `nanoseconds(secondsHigh:secondsLow:nanoseconds:)`).
        case nanoseconds
    }

    /// What the server's times count.
    public let units: Units
    /// How far back, in host time, the events the estimate comes from reach.
    public let window: Duration
    /// Candidate offsets (arrival minus server time) increasing from the front, each from
    /// an event later than the one before: the front is the window's minimum.
    private var candidates: [(arrival: Duration, offset: Duration)] = []
    private var head = 0
    /// The latest server time seen, unwrapped, in the server's units.
    private var latest: Int64?

    /// A mapping for server times in `units`, from the events of the last `window`.
    public init(units: Units, window: Duration = .seconds(30)) {
        precondition(window > .zero, "ServerTimeMapping: window must be positive, got \(window)")
        self.units = units
        self.window = window
    }

    /// The estimated offset: host time minus server time. Nil before the first event.
    public var offset: Duration? { head < candidates.count ? candidates[head].offset : nil }

    /// Learns from one event stamped `serverTime` that arrived at host time `arrival`, and
    /// returns the event's host time: the server time mapped, and never later than its
    /// arrival.
    public mutating func record(serverTime: UInt64, arrival: Duration) -> Duration {
        let server = unwrapped(serverTime)
        latest = max(latest ?? server, server)
        let offset = arrival - duration(server)
        while candidates.count > head, candidates[candidates.count - 1].offset >= offset { candidates.removeLast() }
        candidates.append((arrival, offset))
        while candidates.count - head > 1, candidates[head].arrival < arrival - window { head += 1 }
        if head > 64, head * 2 > candidates.count {
            candidates.removeFirst(head)
            head = 0
        }
        return min(map(server), arrival)
    }

    /// The host time of server time `serverTime`; nil before the first event.
    public func hostTime(forServerTime serverTime: UInt64) -> Duration? {
        offset == nil ? nil : map(unwrapped(serverTime))
    }

    /// The 64-bit nanoseconds of a `zwp_input_timestamps_v1.timestamp` event.
    public static func nanoseconds(secondsHigh: UInt32, secondsLow: UInt32, nanoseconds: UInt32) -> UInt64 {
        (UInt64(secondsHigh) << 32 | UInt64(secondsLow)) &* 1_000_000_000 &+ UInt64(nanoseconds)
    }

    /// A server time in its units on the latest one's side of the wrap.
    private func unwrapped(_ serverTime: UInt64) -> Int64 {
        switch units {
        case .nanoseconds:
            return Int64(bitPattern: serverTime)
        case .milliseconds32:
            precondition(serverTime <= UInt64(UInt32.max), "ServerTimeMapping: a 32-bit server time, got \(serverTime)")
            guard let latest else { return Int64(serverTime) }
            let step = Int32(bitPattern: UInt32(serverTime) &- UInt32(truncatingIfNeeded: latest))
            return latest + Int64(step)
        }
    }

    private func duration(_ server: Int64) -> Duration {
        units == .milliseconds32 ? .milliseconds(server) : .nanoseconds(server)
    }

    /// An unwrapped server time on the host's clock, at the middle of its millisecond.
    private func map(_ server: Int64) -> Duration {
        let middle: Duration = units == .milliseconds32 ? .microseconds(500) : .zero
        return duration(server) + middle + (offset ?? .zero)
    }
}
