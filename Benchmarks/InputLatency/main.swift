// InputLatencyBench: input-to-photon latency on X11. XTest moves the pointer along
// horizontal sweeps at 240 positions a second and 600 px/s, on a connection of its own, and
// records when it put the pointer where. The app under test (XInputSource → InputCollector →
// a display link on the window's X Present clock) draws a marker at the contact's predicted
// position, or its latest sample without prediction; XPresentFeedback reports when each
// frame was shown. A frame's perceived latency is its presented time minus the time the
// true pointer was where the frame shows the marker (within 2 px; negative when a
// prediction runs ahead). Only the first frame showing a position counts: the frames after
// it, while the pointer rests between sweeps, show it at rest.
//
//     DISPLAY=:N InputLatencyBench [--seconds-per-run S]
//
// Runs FIFO, mailbox and low-latency mode, each with and without prediction, and prints
// p50 and p95 of the perceived latency per run. scripts/input-latency.sh starts an Xvfb
// server for it.
import ExampleSupport
import Foundation
import FramePacing
import GPU
import GPUXCB
import PointerInput
import SwiftGPUSupport

struct Configuration {
    var name: String
    var mode: PresentMode
    var lowLatency: Bool
    var predicts: Bool
}

/// A presented frame: when it was shown, and where it showed the marker.
struct Shown {
    var time: Double
    var marker: SIMD2<Double>
}

let sweeps = Int(option("--sweeps") ?? "") ?? 4
let span = 20.0...620.0, speed = 600.0, rate = 240.0
let rows = (0..<sweeps).map { 60.0 + Double($0) * 90 }

func run(_ configuration: Configuration, device: Device) throws -> (latencies: [Double], unmatched: Int, frames: Int) {
    let window = try XWindow(width: 640, height: 480, title: "SwiftGPU InputLatencyBench")
    window.map { _ in }
    // Everything on the window's connection goes before the window does.
    return try withExtendedLifetime(window) { try measure(configuration, device: device, window: window) }
}

func measure(_ configuration: Configuration, device: Device, window: XWindow) throws -> (latencies: [Double], unmatched: Int, frames: Int) {
    let queue = try device.makeCommandQueue()
    let layer = try Layer(device: device, surface: .xcb(connection: window.connection, window: window.window))
    layer.presentMode = configuration.mode
    layer.isLowLatency = configuration.lowLatency
    let feedback = try XPresentFeedback(connection: window.connection, window: window.window)
    layer.usePresentationFeedback(feedback)
    let input = try XInputSource(connection: window.connection, window: window.window)
    let collector = InputCollector(prediction: configuration.predicts ? InputPrediction() : nil)
    input.start(collector.sink)
    let library = try device.makeDefaultLibrary()
    let descriptor = RenderPipelineDescriptor()
    descriptor.vertexFunction = try library.makeFunction(name: "marker.vert")
    descriptor.fragmentFunction = try library.makeFunction(name: "marker.frag")
    descriptor.colorAttachments[0].pixelFormat = layer.pixelFormat
    let pipeline = try device.makeRenderPipelineState(descriptor: descriptor)

    let frames = LockedValue<[InputFrame]>([], rank: .leaf("InputLatency.frames"))
    guard let wake = closeOnExecPipe() else { fail("no pipe") }
    defer { close(wake.read); close(wake.write) }
    let link = collector.makeDisplayLink(clock: feedback.presentClock) { frame, _ in
        frames.withLock { $0.append(frame) }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }
    let shown = LockedValue<[Shown]>([], rank: .leaf("InputLatency.shown"))
    let injector = Injector(rate: rate, speed: speed, rows: rows, span: span)
    let injected = LockedValue(false, rank: .leaf("InputLatency.injected"))
    Thread {
        injector.start()
        _ = injector.finish()
        injected.withLock { $0 = true }
    }.start()

    var latest: SIMD2<Double>?
    var drawn = 0
    while !injected.withLock({ $0 }) {
        var waits = [pollfd(fd: window.eventDescriptor, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        _ = poll(&waits, 2, 100)
        if waits[1].revents & Int16(POLLIN) != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            _ = read(wake.read, &drained, drained.count)
        }
        while let event = window.pollEvent() {
            input.handle(UnsafeRawPointer(event))
            free(event)
        }
        let handed = frames.withLock { frames -> [InputFrame] in defer { frames.removeAll() }; return frames }
        guard let frame = handed.last else { continue }
        for earlier in handed {
            if let sample = earlier.coalescedSamples.last { latest = sample.position }
        }
        guard let marker = frame.predictedSamples.first?.position ?? latest, let drawable = layer.nextDrawable() else { continue }
        let commandBuffer = try queue.makeCommandBuffer()
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        var uniforms: [Float] = [Float(marker.x), Float(marker.y), 640, 480, 6, 0, 0, 0]
        encoder.setVertexBytes(&uniforms, length: 32, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.endEncoding()
        drawable.addPresentedHandler { shownDrawable in
            let time = shownDrawable.presentedTime   // read before the lock: it takes the layer's
            if time > 0 { shown.withLock { $0.append(Shown(time: time, marker: marker)) } }
        }
        commandBuffer.present(drawable)
        commandBuffer.commit()
        drawn += 1
    }
    link.isPaused = true
    input.stop()
    // The last frames' reports.
    Injector.sleep(until: HostClock.nanoseconds() + 200_000_000)
    let path = injector.path
    var latencies: [Double] = []
    var unmatched = 0
    var previous: SIMD2<Double>?
    for frame in shown.withLock({ $0 }) {
        // Only the first frame that shows a position: later ones show a pointer at rest.
        defer { previous = frame.marker }
        if let previous, ((frame.marker - previous) * (frame.marker - previous)).sum() < 0.25 { continue }
        // The sweep the marker is on, and when the true pointer was at its x.
        guard let row = rows.indices.min(by: { abs(rows[$0] - frame.marker.y) < abs(rows[$1] - frame.marker.y) }),
              abs(rows[row] - frame.marker.y) <= 2 else { unmatched += 1; continue }
        let sweep = path.filter { $0.sweep == row }
        guard let nearest = sweep.min(by: { abs($0.x - frame.marker.x) < abs($1.x - frame.marker.x) }),
              abs(nearest.x - frame.marker.x) <= 2 else { unmatched += 1; continue }
        // Between the injected positions, at the sweep's speed.
        let trueTime = Double(nearest.time) / 1e9 + (frame.marker.x - nearest.x) / speed
        latencies.append((frame.time - trueTime) * 1000)
    }
    return (latencies, unmatched, drawn)
}

let configurations = [
    Configuration(name: "FIFO", mode: .fifo, lowLatency: false, predicts: false),
    Configuration(name: "FIFO, predicted", mode: .fifo, lowLatency: false, predicts: true),
    Configuration(name: "mailbox", mode: .mailbox, lowLatency: false, predicts: false),
    Configuration(name: "mailbox, predicted", mode: .mailbox, lowLatency: false, predicts: true),
    Configuration(name: "low latency", mode: .fifo, lowLatency: true, predicts: false),
    Configuration(name: "low latency, predicted", mode: .fifo, lowLatency: true, predicts: true),
]
guard let hold = ServerHold() else { fail("cannot connect to the X server (is DISPLAY set?)") }
do {
    let device = try Device.makeDefault()
    say("input-to-photon latency on \(device.name): \(Int(rate)) Hz XTest input at \(Int(speed)) px/s, \(sweeps) sweeps per run")
    say("| mode | frames shown and matched | p50 ms | p95 ms |")
    say("|---|---|---|---|")
    for configuration in configurations where option("--only").map({ configuration.name.hasPrefix($0) }) ?? true {
        let (latencies, unmatched, drawn) = try run(configuration, device: device)
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { fail("\(configuration.name): no frame matched (\(unmatched) unmatched, \(drawn) drawn)") }
        let p50 = sorted[sorted.count / 2], p95 = sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
        say(String(format: "| %@ | %d of %d | %.1f | %.1f |", configuration.name, sorted.count, sorted.count + unmatched, p50, p95))
    }
    withExtendedLifetime(hold) {}
} catch {
    fail("\(error)")
}
