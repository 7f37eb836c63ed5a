// Sketch: a drawing tool in an X11 window. Pointer, touch and pen samples come from
// XInput 2 (XInputSource); an InputCollector hands them over once per frame on a display
// link on the window's X Present clock: every coalesced sample joins the strokes (so a
// fast stroke at a high input rate stays smooth), and the predicted sample draws a
// provisional tail, in another colour, that the next frame replaces with real samples.
// Presented times come from the X server.
//
//     swift run Sketch [--seconds S] [--predictor adaptive|kalman|linear|leastSquares|none]
//                      [--mode fifo|fifoRelaxed|mailbox|immediate] [--low-latency] [--size 640x480]
//
// Q quits. Prints "window N" and "ready", then a line per stroke when its last frame was
// shown, and a summary at the end. The window stays at the root's top-left corner on a
// server without a window manager, so scripted XTest input (the tests') lands at window
// coordinates.
import CVulkan.XCB
import ExampleSupport
import Foundation
import FramePacing
import GPU
import GPUXCB
import PointerInput
import SwiftGPUSupport

let seconds = option("--seconds").flatMap(Double.init)
let size = (option("--size") ?? "640x480").split(separator: "x").compactMap { Int($0) }
guard size.count == 2, size.allSatisfy({ $0 > 0 }) else { fail("--size takes WIDTHxHEIGHT") }
let predictor: (any InputPredictor)?
switch option("--predictor") ?? "adaptive" {
case "adaptive": predictor = AdaptivePredictor()
case "kalman": predictor = KalmanPredictor()
case "linear": predictor = LinearResamplingPredictor()
case "leastSquares": predictor = LeastSquaresPredictor()
case "none": predictor = nil
case let other: fail("unknown --predictor \(other)")
}
var mode = PresentMode.fifo
if let name = option("--mode") {
    guard let named = PresentMode.allCases.first(where: { "\($0)" == name }) else { fail("unknown --mode \(name)") }
    mode = named
}

/// What the display link hands the main loop: frames to draw, in order.
let frames = LockedValue<[InputFrame]>([], rank: .leaf("Sketch.frames"))
guard let wake = closeOnExecPipe() else { fail("no pipe") }

/// Draws in `window` until Q, a close or --seconds; everything made on the window's
/// connection goes before the window does.
@MainActor func sketch(in window: XWindow) throws {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let layer = try Layer(device: device, surface: .xcb(connection: window.connection, window: window.window))
    layer.presentMode = mode
    layer.isLowLatency = CommandLine.arguments.contains("--low-latency")
    let feedback = try XPresentFeedback(connection: window.connection, window: window.window)
    layer.usePresentationFeedback(feedback)
    let input = try XInputSource(connection: window.connection, window: window.window)
    let collector = InputCollector(prediction: predictor.map { InputPrediction(predictor: $0) })
    input.start(collector.sink)
    let renderer = try StrokeRenderer(device: device, pixelFormat: layer.pixelFormat)
    // The link runs on the X Present clock's thread: it only hands the frame over and wakes
    // the main loop, which draws.
    let link = collector.makeDisplayLink(clock: feedback.presentClock) { frame, _ in
        frames.withLock { $0.append(frame) }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }
    say("ready")

    let start = HostClock.nanoseconds()
    var strokes = 0, samples = 0, strokeSamples = 0, strokeFrames = 0
    /// Strokes ended and not yet drawn.
    var ended: [String] = []
    let finished = LockedValue<[String]>([], rank: .leaf("Sketch.finished"))
    loop: while true {
        if let seconds, Double(HostClock.nanoseconds() - start) / 1e9 >= seconds { break }
        for line in finished.withLock({ lines -> [String] in defer { lines.removeAll() }; return lines }) { say(line) }
        while let event = window.pollEvent() {
            input.handle(UnsafeRawPointer(event))
            let meaning = window.input(event)
            free(event)
            switch meaning {
            case .close, .key("q"), .key("Q"): break loop
            default: break
            }
        }
        if window.isBroken { fail("the X connection broke") }
        // Every frame's samples join the strokes; one drawable shows them all, with the
        // latest frame's predicted tails.
        let handed = frames.withLock { frames -> [InputFrame] in defer { frames.removeAll() }; return frames }
        guard !handed.isEmpty else {
            // Sleep until the X server sends an event or the link hands a frame over.
            var waits = [pollfd(fd: window.eventDescriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let left = seconds.map { Int32(max(0, ($0 - Double(HostClock.nanoseconds() - start) / 1e9) * 1000)) + 1 } ?? -1
            _ = poll(&waits, 2, left)
            if waits[1].revents & Int16(POLLIN) != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                _ = read(wake.read, &drained, drained.count)
            }
            continue
        }
        for frame in handed {
            renderer.take(frame)
            samples += frame.coalescedSamples.count
            strokeSamples += frame.coalescedSamples.filter { $0.phase.isDown || $0.phase == .ended }.count
            strokeFrames += frame.coalescedSamples.isEmpty ? 0 : 1
            if frame.coalescedSamples.contains(where: { $0.phase == .ended }) {
                strokes += 1
                ended.append("stroke \(strokes): \(strokeSamples) samples over \(strokeFrames) frames")
                strokeSamples = 0
                strokeFrames = 0
            }
        }
        guard handed.contains(where: { !$0.isEmpty }) || renderer.canvas == nil, let drawable = layer.nextDrawable() else { continue }
        let commandBuffer = try queue.makeCommandBuffer()
        try renderer.render(into: drawable, commandBuffer: commandBuffer)
        // Strokes are said once the frame that ends them is on screen.
        let said = ended
        ended = []
        if !said.isEmpty { drawable.addPresentedHandler { _ in finished.withLock { $0 += said } } }
        commandBuffer.present(drawable)
        commandBuffer.commit()
    }
    link.isPaused = true
    input.stop()
    for line in finished.withLock({ $0 }) { say(line) }
    say("summary: \(strokes) strokes, \(samples) samples, \(collector.frameCount) frames")
}

do {
    let window = try XWindow(width: size[0], height: size[1], title: "SwiftGPU Sketch")
    window.map { _ in }
    say("window \(window.window)")
    try withExtendedLifetime(window) { try sketch(in: window) }
} catch {
    fail("\(error)")
}
