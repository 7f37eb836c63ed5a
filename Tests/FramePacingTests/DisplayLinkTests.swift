import AppLifecycle
import FramePacing
import Foundation
import SwiftGPUSupport
import Synchronization
import Testing

/// What a display link's callbacks saw, in order.
final class LinkLog: Sendable {
    private let entries = LockedValue<[(timestamp: Duration, target: Duration, now: Duration)]>([], rank: .leaf("DisplayLinkTests.entries"))

    func callback(_ clock: any DisplayClock) -> @Sendable (DisplayLink) -> Void {
        { [self] link in
            // Read before the lock is taken: a lock is never held while calling out.
            let entry = (link.timestamp, link.targetTimestamp, clock.now)
            entries.withLock { $0.append(entry) }
        }
    }

    var all: [(timestamp: Duration, target: Duration, now: Duration)] { entries.withLock { $0 } }
    var timestamps: [Duration] { all.map(\.timestamp) }
    var intervals: [Duration] { zip(timestamps.dropFirst(), timestamps).map { $0 - $1 } }
}

/// Callbacks counted per link.
final class Counter: Sendable {
    let value = LockedValue<[Int: Int]>([:], rank: .leaf("DisplayLinkTests.value"))
}

/// A virtual display whose timers run late by scripted amounts, one per timer in order:
/// the action runs at, and is given, its deadline plus the lateness.
final class LateClock: DisplayClock {
    let display = VirtualDisplay(refreshRate: 60)
    private let lateness: LockedValue<[Duration]>

    init(lateness: [Duration]) { self.lateness = LockedValue(lateness, rank: .leaf("DisplayLinkTests.lateness")) }

    var refreshRate: Double { display.refreshRate }
    var now: Duration { display.now }
    func vblank(atOrAfter time: Duration) -> Duration { display.vblank(atOrAfter: time) }
    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        let late = lateness.withLock { $0.isEmpty ? .zero : $0.removeFirst() }
        return display.schedule(at: deadline + late, leeway: leeway, action)
    }
}

/// A virtual display that runs an action, once, the next time its time is read, and
/// yields the reading thread on every read. A display link reads the time between applying
/// a property change and scheduling its next timer, so the action lands exactly where
/// another thread's change could interleave, and threads changing properties at once
/// interleave there often.
final class InterleavingClock: DisplayClock {
    let display = VirtualDisplay(refreshRate: 60)
    private let pending = LockedValue<(@Sendable () -> Void)?>(nil, rank: .leaf("DisplayLinkTests.pending"))

    /// Runs `action` on the thread that next reads `now`, before that read returns.
    func onNextRead(_ action: @escaping @Sendable () -> Void) { pending.withLock { $0 = action } }

    var refreshRate: Double { display.refreshRate }
    var now: Duration {
        if let action = pending.withLock({ $0.take() }) { action() }
        sched_yield()
        return display.now
    }
    func vblank(atOrAfter time: Duration) -> Duration { display.vblank(atOrAfter: time) }
    func schedule(at deadline: Duration, leeway: Duration, _ action: @escaping @Sendable (Duration) -> Void) -> ClockTimer {
        display.schedule(at: deadline, leeway: leeway, action)
    }
}

/// Runs `body(thread)` on `count` new threads, released together once all have started so
/// that their bodies overlap, and returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    let started = Atomic(0)
    for thread in 0..<count {
        done.enter()
        Thread {
            started.add(1, ordering: .acquiringAndReleasing)
            while started.load(ordering: .acquiring) < count { sched_yield() }
            body(thread)
            done.leave()
        }.start()
    }
    done.wait()
}

@Suite("Display link")
struct DisplayLinkTests {
    @Test("fires at every vblank: timestamp is the vblank, target the next, 60 per second")
    func everyVblank() {
        let display = VirtualDisplay(refreshRate: 60)
        let log = LinkLog()
        let link = DisplayLink(clock: display, log.callback(display))
        display.advance(by: .seconds(1))
        #expect(log.timestamps == (1...60).map { display.vblankTime($0) })
        #expect(log.all.allSatisfy { $0.target == $0.timestamp + display.refreshPeriod || $0.target == $0.timestamp + display.refreshPeriod - .nanoseconds(1) || $0.target == $0.timestamp + display.refreshPeriod + .nanoseconds(1) })
        #expect(log.all.allSatisfy { $0.now == $0.timestamp })
        #expect(link.frameRate == 60)
        #expect(link.tolerance == nil)
        link.invalidate()
    }

    @Test("a late wakeup names the latest vblank before it, never one still ahead; the cadence goes on from there")
    func lateWakeups() {
        // Timely, 10 ms late (past half a refresh), 20 ms late (past a whole one), timely.
        let clock = LateClock(lateness: [.zero, .milliseconds(10), .milliseconds(20), .zero])
        let log = LinkLog()
        let link = DisplayLink(clock: clock, log.callback(clock))
        clock.display.advance(by: .milliseconds(100))
        let vblank = { (index: Int) in clock.display.vblankTime(index) }
        #expect(log.all.prefix(4).map(\.timestamp) == [vblank(1), vblank(2), vblank(4), vblank(5)])
        #expect(log.all.prefix(4).map(\.now) == [vblank(1), vblank(2) + .milliseconds(10), vblank(3) + .milliseconds(20), vblank(5)])
        #expect(log.all.allSatisfy { $0.timestamp <= $0.now })
        #expect(log.all.allSatisfy { $0.target > $0.now })
        link.invalidate()
    }

    @Test("preferred ranges snap to divisors of the refresh rate: 26 or 35 → 30, above the maximum → the maximum")
    func snapping() {
        let range = { (preferred: Double) in FrameRateRange(minimum: 10, maximum: 60, preferred: preferred) }
        #expect(range(26).snapped(toRefreshRate: 60) == 30)
        #expect(range(35).snapped(toRefreshRate: 60) == 30)
        #expect(range(60).snapped(toRefreshRate: 60) == 60)
        #expect(range(18).snapped(toRefreshRate: 60) == 20)
        #expect(range(14).snapped(toRefreshRate: 60) == 15)
        #expect(FrameRateRange(minimum: 30, maximum: 120, preferred: 120).snapped(toRefreshRate: 60) == 60)
        #expect(FrameRateRange(minimum: 30, maximum: 48, preferred: 48).snapped(toRefreshRate: 60) == 30)
        #expect(FrameRateRange(minimum: 40, maximum: 50).snapped(toRefreshRate: 60) == 30)
        #expect(FrameRateRange(minimum: 60, maximum: 144, preferred: 144).snapped(toRefreshRate: 144) == 144)
        #expect(FrameRateRange(minimum: 60, maximum: 144, preferred: 100).snapped(toRefreshRate: 144) == 72)
        #expect(FrameRateRange.default.snapped(toRefreshRate: 75) == 75)
        #expect(FrameRateRange.default.snapped(toRefreshRate: 60, cap: 30) == 30)
    }

    @Test("a 30 fps link on 60 Hz fires every second vblank, on absolute deadlines; tolerance defaults to 10% of its interval")
    func thirty() {
        let display = VirtualDisplay(refreshRate: 60)
        let log = LinkLog()
        let link = DisplayLink(clock: display, log.callback(display))
        link.preferredFrameRateRange = FrameRateRange(minimum: 15, maximum: 60, preferred: 35)
        display.advance(by: .seconds(600))
        #expect(link.frameRate == 30)
        #expect(link.frameInterval == display.refreshPeriod * 2)
        #expect(log.timestamps.count == 18_000)
        // Vblanks 1, 3, 5, …: the first callback is at the first vblank after the link was made.
        #expect(log.timestamps.last == display.vblankTime(35_999))
        #expect(log.intervals.allSatisfy { abs(($0 - display.refreshPeriod * 2) / .nanoseconds(1)) <= 1 })
        #expect(log.all.allSatisfy { abs(($0.target - $0.timestamp - display.refreshPeriod * 2) / .nanoseconds(1)) <= 1 })
        link.tolerance = .milliseconds(1)
        #expect(link.tolerance == .milliseconds(1))
        link.invalidate()
    }

    @Test("paused while the lifecycle is not active, with nothing scheduled; resumes at the next vblank")
    func lifecyclePause() {
        let clock = ManualClock()
        let lifecycle = AppLifecycle(clock: clock)
        let display = VirtualDisplay(refreshRate: 60)
        let log = LinkLog()
        let link = DisplayLink(clock: display, lifecycle: lifecycle, log.callback(display))
        display.advance(by: .milliseconds(100))
        #expect(log.timestamps.count == 6)
        lifecycle.willResignActive()
        #expect(!link.isRunning)
        #expect(display.scheduledTimerCount == 0)
        display.advance(by: .seconds(10))
        _ = lifecycle.didEnterBackground()
        display.advance(by: .seconds(10))
        #expect(log.timestamps.count == 6)
        lifecycle.willEnterForeground()
        lifecycle.didBecomeActive()
        #expect(link.isRunning)
        display.advance(by: display.refreshPeriod)
        #expect(log.timestamps.count == 7)
        #expect(log.timestamps.last == display.vblank(after: .seconds(20) + .milliseconds(100)))
        link.isPaused = true
        #expect(display.scheduledTimerCount == 0)
        display.advance(by: .seconds(1))
        #expect(log.timestamps.count == 7)
        link.invalidate()
    }

    @Test("low power mode caps the link at 30 Hz unless it opts out")
    func lowPower() {
        let lifecycle = AppLifecycle(clock: ManualClock())
        let display = VirtualDisplay(refreshRate: 60)
        let log = LinkLog()
        let link = DisplayLink(clock: display, lifecycle: lifecycle, log.callback(display))
        lifecycle.setLowPowerModeEnabled(true)
        #expect(link.frameRate == 30)
        display.advance(by: .seconds(1))
        #expect(log.timestamps.count == 30)
        link.ignoresLowPowerMode = true
        #expect(link.frameRate == 60)
        display.advance(by: .seconds(1))
        #expect(log.timestamps.count == 90)
        link.ignoresLowPowerMode = false
        lifecycle.setLowPowerModeEnabled(false)
        #expect(link.frameRate == 60)
        link.invalidate()
    }

    @Test("links are added and invalidated from many threads while the display runs; none fires after invalidate")
    func concurrentAddRemove() async {
        let display = VirtualDisplay(refreshRate: 60)
        let counts = Counter()
        let links = await withTaskGroup(of: (Int, DisplayLink).self) { group in
            for index in 0..<32 {
                group.addTask {
                    (index, DisplayLink(clock: display) { _ in counts.value.withLock { $0[index, default: 0] += 1 } })
                }
            }
            var links: [Int: DisplayLink] = [:]
            for await (index, link) in group { links[index] = link }
            return links
        }
        display.advance(by: .milliseconds(100))
        await withTaskGroup(of: Void.self) { group in
            for (index, link) in links where index % 2 == 0 { group.addTask { link.invalidate() } }
            group.addTask { display.advance(by: .milliseconds(50)) }
        }
        let atInvalidate = counts.value.withLock { $0 }
        display.advance(by: .seconds(1))
        let after = counts.value.withLock { $0 }
        for index in 0..<32 where index % 2 == 0 { #expect(after[index] == atInvalidate[index]) }
        for index in 0..<32 where index % 2 == 1 { #expect(after[index]! == atInvalidate[index]! + 60) }
        #expect(display.scheduledTimerCount == 16)
        for (_, link) in links { link.invalidate() }
        #expect(display.scheduledTimerCount == 0)
    }

    @Test("a property change landing while another is being applied leaves one timer: one callback per frame")
    func interleavedChanges() {
        let clock = InterleavingClock()
        let log = LinkLog()
        let link = DisplayLink(clock: clock, log.callback(clock.display))
        clock.onNextRead { link.isPaused = false }
        link.preferredFrameRateRange = FrameRateRange(minimum: 30, maximum: 60, preferred: 60)
        #expect(clock.display.scheduledTimerCount == 1)
        clock.display.advance(by: .seconds(1))
        #expect(link.callbackCount == 60)
        #expect(log.timestamps == (1...60).map { clock.display.vblankTime($0) })
        #expect(clock.display.scheduledTimerCount == 1)
        link.invalidate()
        #expect(clock.display.scheduledTimerCount == 0)
    }

    @Test("properties set from many threads at once leave one timer: one callback per frame")
    func concurrentChanges() {
        let clock = InterleavingClock()
        let display = clock.display
        let log = LinkLog()
        let link = DisplayLink(clock: clock, log.callback(display))
        let full = FrameRateRange(minimum: 30, maximum: 60, preferred: 60)
        onThreads(8) { thread in
            for round in 0..<2_000 {
                switch (thread + round) % 4 {
                case 0: link.preferredFrameRateRange = full
                case 1: link.isPaused = false
                case 2: link.ignoresLowPowerMode = true
                default: link.tolerance = nil
                }
            }
        }
        #expect(display.scheduledTimerCount == 1)
        display.advance(by: .seconds(1))
        #expect(link.callbackCount == 60)
        #expect(log.timestamps == (1...60).map { display.vblankTime($0) })
        #expect(display.scheduledTimerCount == 1)
        link.invalidate()
        #expect(display.scheduledTimerCount == 0)
    }

    @Test("on the monotonic clock: callbacks on the grid, never before their vblank, and timers within each other's leeway share one wakeup")
    func monotonic() async {
        let clock = MonotonicClock(refreshRate: 60)
        #expect(clock.wakeups == 0)
        let fired = LockedValue<[(deadline: Duration, ran: Duration)]>([], rank: .leaf("DisplayLinkTests.fired"))
        let start = clock.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = LockedValue(2, rank: .leaf("DisplayLinkTests.remaining"))
            for offset in [20, 21] {
                let deadline = start + .milliseconds(offset)
                _ = clock.schedule(at: deadline, leeway: .milliseconds(2)) { now in
                    fired.withLock { $0.append((deadline, now)) }
                    if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.resume() }
                }
            }
        }
        #expect(fired.withLock { $0.allSatisfy { $0.ran >= $0.deadline } })
        #expect(clock.wakeups == 1)

        let log = LinkLog()
        let done = LockedValue<CheckedContinuation<Void, Never>?>(
            nil, rank: LockRank(level: 90, name: "DisplayLinkTests.done"))   // held while the log's leaf is read
        let link = DisplayLink(clock: clock) { link in
            log.callback(clock)(link)
            guard log.all.count == 6 else { return }
            link.isPaused = true
            done.withLock { $0.take() }?.resume()
        }
        await withCheckedContinuation { continuation in
            let finished = done.withLock { pending -> Bool in
                guard log.all.count < 6 else { return true }
                pending = continuation
                return false
            }
            if finished { continuation.resume() }
        }
        #expect(!link.isRunning)
        let entries = log.all
        #expect(entries.count >= 6)
        #expect(entries.allSatisfy { $0.now >= $0.timestamp })
        #expect(entries.allSatisfy { clock.vblank(atOrAfter: $0.timestamp) == $0.timestamp })
    }
}
