// PacedFrames: steady 30 fps on a 60 Hz display with no screen, on the real clock.
//
// A headless layer shows its drawables on a VirtualDisplay that runs in real time on a
// MonotonicClock. The frames cost an uneven 4–24 ms of CPU each, yet within each part
// every frame is shown 33.3 ms after the one before:
//   1. one second paced by present(_:afterMinimumDuration:);
//   2. one second driven by a DisplayLink at a preferred 30 fps, each frame presented
//      with present(_:atTime:) at the link's targetTimestamp;
//   3. the app resigns active: the link pauses and costs no wakeups, then resumes.
// It prints the frame statistics and writes the frame-time plot as SVG
// (--svg PATH; default $TMPDIR/swiftgpu-frame-times.svg).
import FramePacing
import Foundation
import GPU
import Synchronization

/// Frame deadlines handed from the display link's thread to the render loop.
final class FrameRequests: Sendable {
    private let targets = Mutex<[Duration]>([])
    private let ready = DispatchSemaphore(value: 0)

    func post(_ target: Duration) {
        targets.withLock { $0.append(target) }
        ready.signal()
    }

    /// The next frame's target; nil after 2 s without one.
    func next() -> Duration? {
        guard ready.wait(timeout: .now() + 2) == .success else { return nil }
        return targets.withLock { $0.removeFirst() }
    }
}

/// Counts presented drawables so the example can wait for the last one.
final class PresentedCounter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func watch(_ drawable: Drawable) { drawable.addPresentedHandler { [self] _ in semaphore.signal() } }
    func wait(for count: Int) -> Bool { (0..<count).allSatisfy { _ in semaphore.wait(timeout: .now() + 5) == .success } }
}

/// Why the example stopped.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

var svgPath = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/swiftgpu-frame-times.svg"
if let index = CommandLine.arguments.firstIndex(of: "--svg"), index + 1 < CommandLine.arguments.count {
    svgPath = CommandLine.arguments[index + 1]
}

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let display = VirtualDisplay(refreshRate: 60, realTime: MonotonicClock(refreshRate: 60))
    let layer = try Layer(device: device, surface: .headless(width: 128, height: 128, display: display))
    let counter = PresentedCounter()
    var frames = 0

    /// Simulated work of uneven cost, then a frame cleared to a shade and presented by `present`.
    func renderFrame(_ present: (CommandBuffer, Drawable) -> Void) throws {
        guard let drawable = layer.nextDrawable() else { throw Failure("no drawable within 1 s") }
        Thread.sleep(forTimeInterval: Double(4 + (frames * 7) % 21) / 1000)
        let commandBuffer = try queue.makeCommandBuffer()
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        let shade = Double(frames % 30) / 30
        pass.colorAttachments[0].clearColor = ClearColor(red: shade, green: 0.3, blue: 1 - shade, alpha: 1)
        try commandBuffer.makeRenderCommandEncoder(descriptor: pass).endEncoding()
        counter.watch(drawable)
        present(commandBuffer, drawable)
        commandBuffer.commit()
        frames += 1
    }

    print("1. 30 frames with present(afterMinimumDuration: 1/30), CPU work 4–24 ms each")
    for _ in 0..<30 { try renderFrame { $0.present($1, afterMinimumDuration: 1.0 / 30) } }

    guard counter.wait(for: frames) else { throw Failure("part 1's frames were not all shown") }

    print("2. 30 frames from a DisplayLink at 30 fps, each presented at the link's targetTimestamp")
    let requests = FrameRequests()
    let link = DisplayLink(clock: display, lifecycle: device.lifecycle) { link in requests.post(link.targetTimestamp) }
    link.preferredFrameRateRange = FrameRateRange(minimum: 15, maximum: 60, preferred: 30)
    print("   link: \(link.frameRate) fps, tolerance \(link.tolerance.map { "\($0)" } ?? "10% of the interval")")
    for _ in 0..<30 {
        guard let target = requests.next() else { throw Failure("the display link stopped") }
        try renderFrame { $0.present($1, atTime: Double(target.components.seconds) + Double(target.components.attoseconds) / 1e18) }
    }

    print("3. The app resigns active: the link pauses with nothing scheduled, then resumes")
    device.lifecycle.willResignActive()
    let callbacksWhilePaused = link.callbackCount
    Thread.sleep(forTimeInterval: 0.25)
    print("   paused: \(!link.isRunning), callbacks in 250 ms while inactive: \(link.callbackCount - callbacksWhilePaused)")
    device.lifecycle.didBecomeActive()
    print("   resumed: \(link.isRunning)")
    link.invalidate()

    guard counter.wait(for: frames - 30) else { throw Failure("part 2's frames were not all shown") }
    var statistics = layer.frameStatistics
    statistics.targetInterval = 1.0 / 30
    // Display intervals 0–28 are part 1's frames, 30–58 part 2's; interval 29 is the hand-over
    // from one cadence to the other.
    let intervals = statistics.displayIntervals
    print(String(format: "%d frames shown; display interval p50 %.2f ms, p99 %.2f, max %.2f; hitch ratio %.1f ms/s; stutters %d",
                 statistics.records.count, statistics.p50, statistics.p99, statistics.max, statistics.hitchRatio,
                 statistics.stutterCount))
    for (part, range) in [(1, 0..<29), (2, 30..<59)] where range.upperBound <= intervals.count {
        let steady = intervals[range].filter { abs($0 - 1000.0 / 30) < 0.01 }.count
        print("part \(part): \(steady) of \(range.count) display intervals are 33.3 ms")
    }
    try statistics.svg().write(toFile: svgPath, atomically: true, encoding: .utf8)
    print("frame-time plot: \(svgPath)")
} catch {
    print("PacedFrames failed: \(error)")
    exit(1)
}
