// BackgroundSafeRendering: a headless GPU loop that goes active → inactive → background →
// active, printing a timeline of commits, refusals and the drain report, and proving with
// a counter that a compute shader increments that nothing ran in the background.
//
//     swift run BackgroundSafeRendering              # scripted
//     swift run BackgroundSafeRendering --signals    # driven by Ctrl-Z / fg / Ctrl-C
//     swift run BackgroundSafeRendering --logind unix:path=/run/dbus/system_bus_socket
//                                                    # one suspend and resume through logind
import Foundation
import GPU
import GPUFoundationCompat
import Shaders
import SystemLifecycle

/// One frame of "rendering": a command buffer whose compute pass adds 1 to the counter.
struct Renderer {
    let device: Device
    let queue: CommandQueue
    let pipeline: ComputePipelineState
    let counter: Buffer
    let start = Date()

    init(lifecycle: AppLifecycle) throws {
        device = try Device.makeDefault(lifecycle: lifecycle)
        queue = try device.makeCommandQueue(label: "frames")
        let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
        pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "increment.comp"))
        counter = try device.makeBuffer(length: 4)
    }

    var count: UInt32 { counter.contents().load(as: UInt32.self) }

    func makeFrame(_ number: Int, critical: Bool = false, waitingFor event: SharedEvent? = nil) throws -> CommandBuffer {
        let frame = try queue.makeCommandBuffer(descriptor: CommandBufferDescriptor(criticalForDeactivation: critical))
        frame.label = "frame \(number)"
        if let event { frame.encodeWaitForEvent(event, value: 1) }
        let encoder = try frame.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(counter, offset: 0, index: 0)
        var amount: UInt32 = 1
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        return frame
    }

    func log(_ text: String) {
        print(String(format: "[%8.2f ms] ", Date().timeIntervalSince(start) * 1000) + text)
        fflush(nil)
    }

    /// Commits a frame and reports what became of it.
    @discardableResult
    func commitAndReport(_ frame: CommandBuffer, state: LifecycleState) -> Bool {
        frame.commit()
        frame.waitUntilCompleted()
        let name = frame.label ?? "frame"
        if frame.status == .completed {
            log("\(state): \(name) committed → completed (counter \(count))")
            return true
        }
        log("\(state): \(name) committed → refused: \(frame.error?.localizedDescription ?? "?")")
        return false
    }
}

func scripted() throws -> Bool {
    let lifecycle = AppLifecycle()
    let renderer = try Renderer(lifecycle: lifecycle)
    print("device: \(renderer.device.name)")
    let token = lifecycle.observe { renderer.log("— \($0)") }
    var completed = 0
    var number = 0
    func next() -> Int { number += 1; return number }

    for _ in 0..<3 where renderer.commitAndReport(try renderer.makeFrame(next()), state: .active) { completed += 1 }

    let inFlight = try renderer.makeFrame(next())          // being encoded when focus goes
    lifecycle.willResignActive()
    if renderer.commitAndReport(inFlight, state: .inactive) { completed += 1 }
    _ = renderer.commitAndReport(try renderer.makeFrame(next()), state: .inactive)
    if renderer.commitAndReport(try renderer.makeFrame(next(), critical: true), state: .inactive) { completed += 1 }

    // Frames held behind an upload that finishes as the app leaves: the drain waits for them.
    let upload = try renderer.device.makeSharedEvent()
    var held: [CommandBuffer] = []
    for _ in 0..<8 {
        let frame = try renderer.makeFrame(next(), critical: true, waitingFor: upload)
        frame.commit()
        held.append(frame)
    }
    renderer.log("inactive: \(held.count) critical frames committed, waiting for an upload")
    let release = lifecycle.observe { if $0.event == .didEnterBackground { upload.signaledValue = 1 } }
    let report = lifecycle.didEnterBackground(deadline: .seconds(2))
    renderer.log("drain report: \(report)")
    for frame in held { frame.waitUntilCompleted() }
    completed += held.filter { $0.status == .completed }.count

    let before = renderer.count
    for _ in 0..<3 { _ = renderer.commitAndReport(try renderer.makeFrame(next()), state: .background) }
    let after = renderer.count
    renderer.log("background: counter \(before) → \(after)\(before == after ? ", nothing ran" : ", GPU WORK RAN")")

    lifecycle.willEnterForeground()
    _ = renderer.commitAndReport(try renderer.makeFrame(next()), state: .inactive)
    lifecycle.didBecomeActive()
    for _ in 0..<3 where renderer.commitAndReport(try renderer.makeFrame(next()), state: .active) { completed += 1 }

    let ok = before == after && Int(renderer.count) == completed && report.failedAtDeadline == 0 && report.scheduled == 8
    print("summary: \(number) frames, \(completed) completed, \(number - completed) refused, counter \(renderer.count)"
        + (ok ? " — background-safe" : " — CHECK FAILED"))
    _ = (token, release)
    return ok
}

/// Renders until SIGINT/SIGTERM; Ctrl-Z drains and stops the process, `fg` resumes it.
/// While not active the loop blocks: no frames, no wakeups.
func signalDriven() throws -> Never {
    let lifecycle = AppLifecycle.shared
    let renderer = try Renderer(lifecycle: lifecycle)
    let becameActive = DispatchSemaphore(value: 0)
    let frames = Locked()
    let token = lifecycle.observe { transition in
        renderer.log("— \(transition)")
        if transition.event == .didBecomeActive { becameActive.signal() }
        if transition.event == .willTerminate {
            renderer.log("terminating: \(frames.completed) frames completed, counter \(renderer.count)")
        }
    }
    let signals = lifecycle.handleSignals()
    renderer.log("device: \(renderer.device.name); pid \(getpid()): Ctrl-Z to background, fg to resume, Ctrl-C to quit")
    var number = 0
    while true {
        if lifecycle.state != .active {
            becameActive.wait()
            continue
        }
        number += 1
        let frame = try renderer.makeFrame(number)
        frame.commit()
        frame.waitUntilCompleted()
        if frame.status == .completed { frames.add() }
        if number % 60 == 0 {
            renderer.log("active: \(frames.completed) frames completed, counter \(renderer.count)")
        }
        Thread.sleep(forTimeInterval: 1.0 / 60)
    }
    _ = (token, signals)
}

/// Renders with a few frames in flight while active, holding logind's sleep delay lock on
/// the bus at `address`; a suspend drains the frames before the lock goes (its timeline is
/// printed), and the loop blocks until the resume. Ends after one suspend and resume.
func logindDriven(address: String) throws -> Bool {
    let lifecycle = AppLifecycle()
    let renderer = try Renderer(lifecycle: lifecycle)
    let monitor = try SystemBusMonitor(lifecycle: lifecycle, address: address, who: "BackgroundSafeRendering",
                                       session: .none)
    let becameActive = DispatchSemaphore(value: 0)
    let slept = DispatchSemaphore(value: 0)
    let token = lifecycle.observe { transition in
        renderer.log("— \(transition)")
        if transition.event == .didBecomeActive { becameActive.signal() }
    }
    monitor.onSleep { record in
        defer { slept.signal() }
        let ms = { (time: Duration) in String(format: "%.2f ms", (time - record.received) / .milliseconds(1)) }
        renderer.log("sleep: PrepareForSleep received → drained \(ms(record.drained)) → lock released "
            + "\(ms(record.released)) (deadline \(record.deadline)); \(record.report)")
    }
    try monitor.start()
    renderer.log("holding logind's sleep delay lock (delay \(monitor.inhibitDelayMax)); rendering until a suspend and resume")
    var number = 0
    var inFlight: [CommandBuffer] = []
    var counterAtSleep: UInt32?
    while counterAtSleep == nil || lifecycle.state != .active {
        if lifecycle.state != .active {
            // The drain scheduled every accepted frame before the lock went: let them
            // finish, note the counter, show a frame refused, then block until the resume.
            slept.wait()
            for frame in inFlight { frame.waitUntilCompleted() }
            inFlight.removeAll()
            counterAtSleep = renderer.count
            _ = renderer.commitAndReport(try renderer.makeFrame(number + 1), state: lifecycle.state)
            number += 1
            becameActive.wait()
            continue
        }
        number += 1
        let frame = try renderer.makeFrame(number)
        frame.commit()
        inFlight.append(frame)
        if inFlight.count == 4 { inFlight.removeFirst().waitUntilCompleted() }
    }
    let counterAtResume = renderer.count
    for _ in 0..<3 { _ = renderer.commitAndReport(try renderer.makeFrame(number + 1), state: .active); number += 1 }
    monitor.stop()
    let ok = counterAtSleep == counterAtResume
    print("summary: \(number) frames, counter \(renderer.count); "
        + (ok ? "nothing ran while suspended" : "GPU WORK RAN WHILE SUSPENDED"))
    _ = token
    return ok
}

/// A frame count shared with the lifecycle observer.
final class Locked: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var completed: Int { lock.withLock { value } }
}

do {
    if CommandLine.arguments.contains("--signals") { try signalDriven() }
    if let flag = CommandLine.arguments.firstIndex(of: "--logind") {
        guard flag + 1 < CommandLine.arguments.count else {
            print("error: --logind needs the bus address, e.g. unix:path=/run/dbus/system_bus_socket")
            exit(2)
        }
        exit(try logindDriven(address: CommandLine.arguments[flag + 1]) ? 0 : 1)
    }
    exit(try scripted() ? 0 : 1)
} catch {
    print("error: \(error)")
    exit(1)
}
