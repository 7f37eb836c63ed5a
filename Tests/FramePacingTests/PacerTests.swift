import FramePacing
import Foundation
import SwiftGPUSupport
import Testing

private let ms = Duration.milliseconds

@Suite("Pacer")
struct PacerTests {
    @Test("present(atTime:): the target is the first vblank at or after the time, never before it")
    func atTime() {
        let display = VirtualDisplay(refreshRate: 60)
        var pacer = Pacer(clock: display)
        var random = ScriptedRandom(state: 99)
        for _ in 0..<1_000 {
            let time = random.duration(.zero, .seconds(100))
            let paced = pacer.target(for: .atTime(time), arrival: .zero)
            #expect(paced.target >= time - .microseconds(1))
            #expect(paced.target == display.vblank(atOrAfter: time - .microseconds(1)))
        }
        // Arriving after the time asked: the first vblank after the arrival, a miss.
        let late = pacer.target(for: .atTime(ms(100)), arrival: ms(120))
        #expect(late.target == display.vblank(atOrAfter: ms(120)))
        #expect(late.missed)
    }

    @Test("after a minimum duration on a real clock's jitter: exact deadlines, no drift over 3,600 frames, none early")
    func minimumDurationJitter() {
        let clock = MonotonicClock(refreshRate: 60)
        var pacer = Pacer(clock: clock, holdsFrameStarts: false, snapsToVblanks: false)
        var random = ScriptedRandom(state: 5)
        let duration = Duration.nanoseconds(16_666_667)
        var targets: [Duration] = []
        var arrival = Duration.seconds(1)
        for _ in 0..<3_600 {
            let paced = pacer.target(for: .afterMinimumDuration(duration), arrival: arrival)
            targets.append(paced.target)
            // Shown up to 1.5 ms late, as a present call under load returns.
            let shown = paced.target + random.duration(.zero, .microseconds(1_500))
            pacer.frameDisplayed(paced, start: arrival, displayed: shown)
            arrival = shown + .microseconds(200)
        }
        let intervals = zip(targets.dropFirst(), targets).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 == duration }, "every deadline exactly the duration after the one before")
        #expect(targets.last! - targets.first! == duration * 3_599, "no drift")
    }

    @Test("a frame shown more than half a refresh late re-anchors the cadence where it was shown")
    func reanchor() {
        let display = VirtualDisplay(refreshRate: 60)
        var pacer = Pacer(clock: display)
        let first = pacer.target(for: .afterMinimumDuration(ms(33)), arrival: .zero)
        #expect(first.target == .zero)
        pacer.frameDisplayed(first, start: .zero, displayed: display.vblankTime(3))
        let second = pacer.target(for: .afterMinimumDuration(.nanoseconds(33_333_333)), arrival: display.vblankTime(3))
        #expect(second.target == display.vblankTime(5))
        pacer.unpacedFrameShown(at: display.vblankTime(9))
        let third = pacer.target(for: .afterMinimumDuration(.nanoseconds(16_666_667)), arrival: display.vblankTime(9))
        #expect(third.target == display.vblankTime(10))
    }

    @Test("the automatic interval is never faster than the preferred rate")
    func neverFasterThanAsked() {
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = .automatic(preferredFrameRate: 30)
        let result = simulation.run(frames: 300) { _ in FrameCost(cpu: ms(2), gpu: ms(2)) }
        #expect(result.finalRefreshes == 2)
        #expect(result.intervalChanges.isEmpty)
        #expect(result.displayIntervals.allSatisfy { abs(($0 - .nanoseconds(33_333_333)) / .nanoseconds(1)) <= 1 })
    }

    @Test("a real-time virtual display latches on its own vblank grid, after the present, with nothing to advance")
    func realTimeDisplay() async {
        let display = VirtualDisplay(refreshRate: 100, realTime: MonotonicClock(refreshRate: 100))
        #expect(display.scheduledTimerCount == 0)
        let presentedAt = display.now
        let shown: Duration = await withCheckedContinuation { continuation in
            let once = Once(continuation)
            display.present(DisplayPresentRequest(imageIndex: 0, mode: .fifo) { event in
                if case .displayed(let time) = event { once.resume(time) }
            })
        }
        #expect(shown > presentedAt)
        #expect(shown == display.vblank(atOrAfter: shown))
        #expect(shown - presentedAt <= ms(10) + ms(1))
    }

    @Test("misuse: advancing a real-time display by hand")
    func realTimeAdvanceMisuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            VirtualDisplay(refreshRate: 60, realTime: MonotonicClock()).advance(by: .seconds(1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("VirtualDisplay.advance(by:): this display runs in real time and advances itself"))
    }
}

/// Resumes a continuation the first time only.
final class Once<T: Sendable>: Sendable {
    private let continuation: LockedValue<CheckedContinuation<T, Never>?>
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = LockedValue(continuation, rank: .leaf("PacerTests.continuation")) }
    func resume(_ value: T) { continuation.withLock { $0.take() }?.resume(returning: value) }
}
