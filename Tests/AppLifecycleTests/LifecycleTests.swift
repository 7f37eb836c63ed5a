import AppLifecycle
import Foundation
import SwiftGPUSupport
import Testing

@Suite("App lifecycle")
struct LifecycleTests {
    @Test("transitions follow iOS, out-of-order calls pass through inactive")
    func transitions() {
        let life = AppLifecycle(clock: ManualClock())
        let seen = Locked<[String]>([])
        let token = life.observe { transition in seen.withLock { $0.append("\(transition)") } }
        #expect(life.state == .active)
        life.didEnterBackground()
        #expect(life.state == .background)
        life.willResignActive()          // does not apply in the background
        life.didBecomeActive()
        #expect(life.state == .active)
        life.willResignActive()
        life.willResignActive()
        life.willEnterForeground()       // does not apply while inactive
        life.didBecomeActive()
        #expect(seen.current == [
            "willResignActive: active → inactive",
            "didEnterBackground: inactive → background",
            "willEnterForeground: background → inactive",
            "didBecomeActive: inactive → active",
            "willResignActive: active → inactive",
            "didBecomeActive: inactive → active",
        ])
        token.cancel()
        life.willResignActive()
        #expect(seen.current.count == 6, "a cancelled observer hears nothing")
    }

    @Test("willTerminate ends in the background for good")
    func terminate() {
        let life = AppLifecycle(clock: ManualClock())
        let seen = Locked<[LifecycleEvent]>([])
        let token = life.observe { transition in seen.withLock { $0.append(transition.event) } }
        life.willTerminate()
        life.didBecomeActive()
        #expect(life.state == .background)
        #expect(life.isTerminating)
        #expect(seen.current == [.willResignActive, .willTerminate])
        _ = token
    }

    @Test("transitions arrive as an AsyncStream, with times on the lifecycle's clock")
    func asyncStream() async {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        let stream = life.transitions
        clock.advance(by: .seconds(2))
        life.willResignActive()
        clock.advance(by: .seconds(1))
        life.didBecomeActive()
        var received: [LifecycleTransition] = []
        for await transition in stream {
            received.append(transition)
            if received.count == 2 { break }
        }
        #expect(received.map(\.event) == [.willResignActive, .didBecomeActive])
        #expect(received.map(\.time) == [.seconds(2), .seconds(3)])
    }

    @Test("a drain with nothing to wait for starts no timer; one that waits gets the rest of the deadline from the call")
    func drainDeadlineStartsWhenNeeded() {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        let idle = DrainingParticipant(clock: clock, waits: false)
        life.register(idle)
        let started = clock.startedCount
        _ = life.didEnterBackground(deadline: .seconds(5))
        #expect(clock.startedCount == started, "no participant waited: no timer")
        life.didBecomeActive()

        let waiting = DrainingParticipant(clock: clock, waits: true)
        life.register(waiting)
        _ = life.didEnterBackground(deadline: .seconds(5))
        // It waited 2 s before asking: the deadline fell 3 s later, 5 s after the call.
        #expect(waiting.seen.current == ["timer started", "not expired at 4.999 s", "expired at 5 s"])
        #expect(clock.waitingCount == 0, "the timer ran: nothing is left on the clock")
        withExtendedLifetime((idle, waiting)) {}
    }

    @Test("a background task expires once when it outlives its budget, on the test clock")
    func backgroundTaskExpiry() {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        #expect(life.backgroundTaskBudget == .seconds(30))
        let expirations = Locked(0)
        let task = life.beginBackgroundTask(name: "save", usesGPU: true) { expirations.withLock { $0 += 1 } }
        #expect(life.allowsGPUWorkInBackground)
        clock.advance(by: .seconds(60))
        #expect(expirations.current == 0, "the budget runs only in the background")
        life.didEnterBackground()
        clock.advance(by: .seconds(29))
        #expect(expirations.current == 0)
        #expect(life.allowsGPUWorkInBackground)
        clock.advance(by: .seconds(1))
        #expect(expirations.current == 1)
        #expect(!life.allowsGPUWorkInBackground)
        clock.advance(by: .seconds(100))
        #expect(expirations.current == 1)
        life.endBackgroundTask(task)
        life.endBackgroundTask(task)
        #expect(life.backgroundTaskNames.isEmpty)
    }

    @Test("a task ended in time never expires; the budget is configurable")
    func backgroundTaskEnded() {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        life.backgroundTaskBudget = .seconds(5)
        life.didEnterBackground()
        let expired = Locked(false)
        let task = life.beginBackgroundTask(name: "upload") { expired.withLock { $0 = true } }
        #expect(life.backgroundTaskNames == ["upload"])
        #expect(!life.allowsGPUWorkInBackground, "the task did not declare GPU use")
        clock.advance(by: .seconds(4))
        life.endBackgroundTask(task)
        clock.advance(by: .seconds(10))
        #expect(!expired.current)
        #expect(clock.waitingCount == 0, "ending the task cancelled its timer")
    }

    @Test("returning to the foreground stops the budget; the next background starts it anew")
    func budgetRestarts() {
        let clock = ManualClock()
        let life = AppLifecycle(clock: clock)
        let expirations = Locked(0)
        _ = life.beginBackgroundTask(name: "sync") { expirations.withLock { $0 += 1 } }
        life.didEnterBackground()
        clock.advance(by: .seconds(20))
        life.didBecomeActive()
        clock.advance(by: .seconds(20))
        life.didEnterBackground()
        clock.advance(by: .seconds(29))
        #expect(expirations.current == 0)
        clock.advance(by: .seconds(1))
        #expect(expirations.current == 1)
    }
}

/// A participant whose drain returns at once, or spends 2 s of the test clock, then waits
/// for the deadline (advancing the clock itself, which runs timers synchronously).
private final class DrainingParticipant: LifecycleParticipant {
    let clock: ManualClock
    let waits: Bool
    let seen = Locked<[String]>([])

    init(clock: ManualClock, waits: Bool) {
        self.clock = clock
        self.waits = waits
    }

    func drain(until deadline: DrainDeadline) -> DrainReport {
        guard waits else { return DrainReport() }
        clock.advance(by: .seconds(2))
        let started = clock.startedCount
        deadline.onExpiry {}
        if clock.startedCount == started + 1 { seen.withLock { $0.append("timer started") } }
        clock.advance(by: .milliseconds(2999))
        if !deadline.isExpired { seen.withLock { $0.append("not expired at 4.999 s") } }
        clock.advance(by: .milliseconds(1))
        if deadline.isExpired { seen.withLock { $0.append("expired at 5 s") } }
        return DrainReport()
    }

    func lifecycleDidChange(_ transition: LifecycleTransition) {}
}
