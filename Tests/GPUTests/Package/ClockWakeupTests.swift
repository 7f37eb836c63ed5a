import FramePacing
import Foundation
import GPU
import GPUTestSupport
import GPUWayland
import GPUXCB
import SwiftGPUSupport
import Testing

/// One vblank source per display: any number of display links on a clock cost the wakeups
/// of the vblanks they need, not one per link — on the monotonic clock, on the X Present
/// clock (Xvfb) and on a Wayland compositor's presentation feedback (Weston). Counted by
/// the clock and, from the kernel's side, as voluntary context switches of its thread.
/// Real-clock tests: they run after the rest of the suite, one at a time.
@Suite("Clock wakeups for 1 and 10 display links (real clock)", .validated)
struct ClockWakeupTests {
    /// What running links cost a clock.
    struct Cost: CustomStringConvertible {
        var wakeups: Int
        var contextSwitches: Int
        var callbacks: Int
        var description: String { "\(wakeups) wakeups, \(contextSwitches) context switches, \(callbacks) callbacks" }
    }

    /// Voluntary context switches, summed over this process's threads named `prefix…`
    /// (`/proc/self/task/*/comm`, 15 characters at most).
    static func contextSwitches(ofThreadsNamed prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.reduce(0) { total, task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.hasPrefix(String(prefix.prefix(15))) else { return total }
            let status = (try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return total + (line.flatMap { Int($0.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces)) } ?? 0)
        }
    }

    /// Runs `count` display links at 30 fps on `clock` and returns what `seconds` of them
    /// cost the clock's thread (named `thread`), counted once every link has run (setting
    /// the links up contends for their locks, which is not what is measured).
    static func cost(of count: Int, linksOn clock: any DisplayClock, wakeups: () -> Int, thread: String,
                     seconds: Double = 1) async -> Cost {
        let callbacks = LockedValue(0, rank: .leaf("ClockWakeupTests.callbacks"))
        let started = LockedValue<CheckedContinuation<Void, Never>?>(nil,
            rank: LockRank(level: 90, name: "ClockWakeupTests.started"))   // held while the count's leaf is read
        let links = (0..<count).map { _ in
            let link = DisplayLink(clock: clock) { _ in
                let n = callbacks.withLock { $0 += 1; return $0 }
                if n == 2 * count { started.withLock { $0.take() }?.resume() }
            }
            link.preferredFrameRateRange = FrameRateRange(minimum: 30, maximum: 30, preferred: 30)
            return link
        }
        await withCheckedContinuation { continuation in
            let running = started.withLock { pending -> Bool in
                guard callbacks.withLock({ $0 }) < 2 * count else { return true }
                pending = continuation
                return false
            }
            if running { continuation.resume() }
        }
        let (switches, woken, before) = (contextSwitches(ofThreadsNamed: thread), wakeups(), callbacks.withLock { $0 })
        let other = MonotonicClock()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = other.schedule(at: other.now + .wholeSeconds(seconds), leeway: .zero) { _ in continuation.resume() }
        }
        let cost = Cost(wakeups: wakeups() - woken, contextSwitches: contextSwitches(ofThreadsNamed: thread) - switches,
                        callbacks: callbacks.withLock { $0 } - before)
        for link in links { link.isPaused = true }
        return cost
    }

    /// Checks that 10 links cost what 1 does, give or take a few wakeups at the starts and
    /// ends of the runs.
    static func expectShared(_ one: Cost, _ ten: Cost, clock: String) {
        print("wakeups on \(clock): 1 link: \(one); 10 links: \(ten)")
        // The links ran (at 30 fps, less where a busy 2-core machine delays a tick past its
        // vblank), and each wakeup served all ten.
        #expect(one.callbacks >= 15 && ten.callbacks >= 10 * ten.wakeups - 10, "\(one), \(ten)")
        // Neither run woke more than once per frame of its second (30, and a few at the
        // starts and ends). Each is held to the frame count rather than to the other: a busy
        // machine can delay one run's ticks and not the other's.
        #expect(one.wakeups <= 34, "one wakeup per frame of a 30 fps link")
        #expect(ten.wakeups <= 34, "10 links share that one wakeup per frame")
        #expect(ten.contextSwitches <= one.contextSwitches + 6, "and the thread's context switches")
    }

    @Test("monotonic clock")
    func monotonic() async {
        let clock = MonotonicClock(refreshRate: 60)
        let one = await Self.cost(of: 1, linksOn: clock, wakeups: { clock.wakeups }, thread: "FramePacing.MonotonicClock")
        let ten = await Self.cost(of: 10, linksOn: clock, wakeups: { clock.wakeups }, thread: "FramePacing.MonotonicClock")
        Self.expectShared(one, ten, clock: "the monotonic clock")
    }

    @Test("X Present clock on Xvfb")
    func xPresent() async throws {
        let server = try XvfbServer(width: 128, height: 128)
        let x = try XcbConnection(display: server.display)
        let window = x.makeWindow(width: 64, height: 64)
        let clock = try XPresentClock(connection: x.connection, window: window)
        defer { clock.invalidate() }
        let one = await Self.cost(of: 1, linksOn: clock, wakeups: { clock.wakeups }, thread: "GPUXCB.XPresentClock")
        let ten = await Self.cost(of: 10, linksOn: clock, wakeups: { clock.wakeups }, thread: "GPUXCB.XPresentClock")
        Self.expectShared(one, ten, clock: "the X Present clock")
    }

    @Test("Wayland presentation feedback on Weston")
    func waylandFeedback() async throws {
        let weston = try WestonServer()
        let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: nil)
        let feedback = try WaylandPresentationFeedback(display: window.display, surface: try #require(window.surface))
        let clock = try #require(feedback.clock as? FeedbackClock)
        let one = await Self.cost(of: 1, linksOn: clock, wakeups: { clock.wakeups }, thread: "FramePacing.FeedbackClock")
        let ten = await Self.cost(of: 10, linksOn: clock, wakeups: { clock.wakeups }, thread: "FramePacing.FeedbackClock")
        Self.expectShared(one, ten, clock: "Wayland presentation feedback")
        withExtendedLifetime(window) {}
    }
}

extension Duration {
    /// `seconds` as a duration.
    fileprivate static func wholeSeconds(_ seconds: Double) -> Duration { .nanoseconds(Int64(seconds * 1e9)) }
}
