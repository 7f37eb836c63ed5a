/// Timers ordered by deadline, with the coalescing rule real clocks use: a wakeup happens
/// at the earliest moment some timer's leeway runs out, and runs every timer already due
/// then. Not thread-safe: its owner locks it.
package struct TimerQueue: Sendable {
    package struct Entry: Sendable {
        package var id: UInt64
        package var deadline: Duration
        package var leeway: Duration
        package var action: @Sendable (Duration) -> Void
    }

    private var entries: [Entry] = []
    private var nextID: UInt64 = 0

    /// An empty queue.
    package init() {}

    /// Adds a timer; returns its id.
    package mutating func add(deadline: Duration, leeway: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> UInt64 {
        nextID += 1
        let entry = Entry(id: nextID, deadline: deadline, leeway: max(leeway, .zero), action: action)
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(entry, at: index)
        return nextID
    }

    /// Removes a timer; false when it already ran or was removed.
    @discardableResult
    package mutating func remove(_ id: UInt64) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// How many timers wait.
    package var count: Int { entries.count }

    /// The earliest deadline; nil when none waits.
    package var earliestDeadline: Duration? { entries.first?.deadline }

    /// When a real clock must wake: the earliest deadline plus leeway over all timers.
    package var wakeTime: Duration? { entries.lazy.map { $0.deadline + $0.leeway }.min() }

    /// Removes and returns, in deadline order, every timer due at `time`.
    package mutating func takeDue(at time: Duration) -> [Entry] {
        let count = entries.firstIndex { $0.deadline > time } ?? entries.endIndex
        defer { entries.removeFirst(count) }
        return Array(entries.prefix(count))
    }
}
