/// The lifecycle's view of its clock: the time since the lifecycle was made, and timers.
/// A `ManualClock` fires timers synchronously as it is advanced; any other clock through a
/// task that sleeps on it.
struct LifecycleClock: Sendable {
    /// Time since the lifecycle was made.
    let now: @Sendable () -> Duration
    /// Runs an action after a duration; returns a function that cancels it.
    let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> @Sendable () -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        if let manual = clock as? ManualClock {
            after = { delay, action in
                let id = manual.schedule(at: manual.now.advanced(by: delay), action)
                return { manual.cancelScheduled(id) }
            }
        } else {
            after = { delay, action in
                let task = Task.detached {
                    do {
                        try await clock.sleep(for: delay)
                        action()
                    } catch {}
                }
                return { task.cancel() }
            }
        }
    }
}
