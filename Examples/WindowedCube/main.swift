// WindowedCube: a spinning, depth-tested cube in an X11 window the example makes with xcb.
//
//     swift run WindowedCube [--frames N] [--seconds S] [--mode fifo|fifoRelaxed|mailbox|immediate]
//                            [--low-latency] [--focus] [--pause-unfocused] [--size 640x480] [--stats-interval 1]
//                            [--fps N] [--svg PATH]
//
// Keys: 1–4 switch the present mode (fifo, fifoRelaxed, mailbox, immediate), L toggles
// low-latency mode, Q quits. A stats line each second gives fps, mode and frame latency.
// Hiding, covering or unmapping the window puts the app in the background and pauses
// rendering (the loop blocks on the next X event); an unfocused window keeps drawing, as
// desktop windows do. --pause-unfocused chooses iOS's rule instead (losing the focus makes
// the app inactive): a bare X server (Xvfb) has no window manager to give the window
// focus, so pass --focus with it, or focus it from outside. --fps N paces frames with
// present(_:afterMinimumDuration: 1/N); --svg PATH writes the frame-time plot at the end.
import AppLifecycle
import CVulkan.XCB
import ExampleSupport
import Foundation
import GPU
import GPUXCB

/// Signalled once per presented (or dropped) drawable.
let presentations = DispatchSemaphore(value: 0)

let modes: [Character: PresentMode] = ["1": .fifo, "2": .fifoRelaxed, "3": .mailbox, "4": .immediate]
let frameLimit = option("--frames").flatMap(Int.init)
let secondsLimit = option("--seconds").flatMap(Double.init)
let statsInterval = option("--stats-interval").flatMap(Double.init) ?? 1
let pacedRate = option("--fps").flatMap(Double.init)
if let pacedRate, pacedRate <= 0 { fail("--fps takes a positive rate") }
let size = (option("--size") ?? "640x480").split(separator: "x").compactMap { Int($0) }
guard size.count == 2, size.allSatisfy({ $0 > 0 }) else { fail("--size takes WIDTHxHEIGHT") }
var mode = PresentMode.fifo
if let name = option("--mode") {
    guard let named = PresentMode.allCases.first(where: { "\($0)" == name }) else { fail("unknown --mode \(name)") }
    mode = named
}

/// Runs the cube in `window` until Q, a close, --frames or --seconds; everything made on the
/// window's connection goes before the window does.
@MainActor func cube(in window: XWindow) throws {
    let lifecycle = AppLifecycle.shared
    if CommandLine.arguments.contains("--pause-unfocused") { lifecycle.windowFocusPolicy = .pauseOnFocusLoss }
    let observation = lifecycle.observe { say("lifecycle: \($0)") }
    let device = try Device.makeDefault(lifecycle: lifecycle)
    let queue = try device.makeCommandQueue()
    window.map { _ in }
    if CommandLine.arguments.contains("--focus") { window.takeFocus() }
    say("window \(window.window) on \(device.name)")
    // Made once the window is mapped: the app starts active (inactive until the window has
    // the focus, with --pause-unfocused).
    let adapter = XCBLifecycleAdapter(connection: window.connection, window: window.window, lifecycle: lifecycle)

    let layer = try Layer(device: device, surface: .xcb(connection: window.connection, window: window.window))
    // Presented times (the stats line's latency, the frame-time plot) from the X server's
    // Present extension, and --fps paced on its vblanks.
    layer.usePresentationFeedback { try XPresentFeedback(connection: window.connection, window: window.window) }
    layer.presentMode = mode
    layer.isLowLatency = CommandLine.arguments.contains("--low-latency")
    let cube = try Cube(device: device, colorFormat: layer.pixelFormat)
    var depth: Texture?

    let start = ContinuousClock.now
    var statsStart = start
    var statsFrames = 0
    var frames = 0
    var running = true
    var paused = false

    /// Applies one event: the adapter first (focus and visibility), then keys and close.
    func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        adapter.handle(event)
        switch window.input(event) {
        case .key(let key):
            if let next = modes[key] {
                layer.presentMode = next
                say("present mode: \(next)")
            } else if key == "l" || key == "L" {
                layer.isLowLatency.toggle()
                say("low latency: \(layer.isLowLatency ? "on" : "off")")
            } else if key == "q" || key == "Q" {
                running = false
            }
        case .close:
            running = false
        case .other:
            break
        }
    }

    while running {
        while let event = window.pollEvent() {
            handle(event)
            free(event)
        }
        guard running else { break }
        if lifecycle.state != .active {
            if !paused { say("paused: \(lifecycle.state)") }
            paused = true
            // Nothing to draw until the window is focused again: sleep in the X event wait
            // (until --seconds runs out, if given).
            let left = secondsLimit.map { $0 - (ContinuousClock.now - start) / .seconds(1) }
            if let left, left <= 0 { break }
            if let event = window.waitEvent(timeout: left) {
                handle(event)
                free(event)
            }
            if window.isBroken { fail("the X connection broke") }
            continue
        }
        if paused {
            say("resumed")
            paused = false
            statsStart = ContinuousClock.now
            statsFrames = 0
        }
        guard let drawable = layer.nextDrawable() else { continue }
        let width = drawable.texture.width, height = drawable.texture.height
        if depth?.width != width || depth?.height != height {
            depth = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .depth32Float, width: width,
                                                                         height: height, usage: .renderTarget))
        }
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = ClearColor(red: 0.05, green: 0.05, blue: 0.1, alpha: 1)
        pass.depthAttachment.texture = depth
        pass.depthAttachment.loadAction = .clear
        pass.depthAttachment.clearDepth = 1
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        try cube.draw(encoder, angle: Float(elapsed) * 1.5, aspect: Float(width) / Float(height))
        encoder.endEncoding()
        drawable.addPresentedHandler { _ in presentations.signal() }
        if let pacedRate {
            commandBuffer.present(drawable, afterMinimumDuration: 1 / pacedRate)
        } else {
            commandBuffer.present(drawable)
        }
        commandBuffer.commit()
        frames += 1
        statsFrames += 1

        let now = ContinuousClock.now
        let span = (now - statsStart) / .seconds(1)
        if span >= statsInterval {
            // The layer keeps a bounded window of latencies: this interval's frames are its last ones.
            let latencies = layer.frameLatencies.suffix(statsFrames)
            let latency = latencies.isEmpty ? 0 : latencies.reduce(.zero, +) / latencies.count / .milliseconds(1)
            say(String(format: "stats: %.1f fps, mode %@, low latency %@, latency %.2f ms, %d frames",
                         Double(statsFrames) / span, "\(layer.presentMode)", layer.isLowLatency ? "on" : "off",
                         latency, frames))
            statsStart = now
            statsFrames = 0
        }
        if let frameLimit, frames >= frameLimit { running = false }
        if let secondsLimit, (now - start) / .seconds(1) >= secondsLimit { running = false }
    }
    // Every frame's present has been made (or dropped) once its presented handler ran.
    for _ in 0..<frames where presentations.wait(timeout: .now() + 2) == .timedOut { break }
    say("summary: \(frames) frames in \(String(format: "%.2f", (ContinuousClock.now - start) / .seconds(1))) s")
    if let path = option("--svg") {
        var statistics = layer.frameStatistics
        if let pacedRate { statistics.targetInterval = 1 / pacedRate }
        try statistics.svg().write(toFile: path, atomically: true, encoding: .utf8)
        say(String(format: "frame times: %d presents, display interval p50 %.2f ms, p99 %.2f ms; plot in %@",
                   statistics.records.count, statistics.p50, statistics.p99, path))
    }
    withExtendedLifetime((observation, adapter, layer)) {}
}

do {
    let window = try XWindow(width: size[0], height: size[1], title: "SwiftGPU WindowedCube")
    try withExtendedLifetime(window) { try cube(in: window) }
} catch {
    fail("\(error)")
}
