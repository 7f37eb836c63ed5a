// PresentBench: presentation figures.
//
//     DISPLAY=:N swift run -c release PresentBench [--frames 300] [--size 256]
//
// 1. Frames per second per present mode on an xcb window of the X server $DISPLAY (run it
//    under Xvfb: scripts/present-bench.sh), each frame a clear of the drawable, presented.
// 2. Frame start (nextDrawable returning) to display latency on a headless layer over a
//    VirtualDisplay at 60 Hz, with a scripted render time of 5 ms of virtual time, in
//    low-latency mode and in plain fifo with 3 drawables for contrast.
//
// Prints one JSON line per measurement.
import CVulkan.XCB
import Foundation
import GPU
import Synchronization

let arguments = CommandLine.arguments
func option(_ name: String) -> Int? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
}
let frames = option("--frames") ?? 300
let side = option("--size") ?? 256

func report(_ fields: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let device = try Device.makeDefault()
let queue = try device.makeCommandQueue()

/// Clears `drawable` and presents it through `present`.
func clearAndPresent(_ drawable: Drawable, red: Double, present: (CommandBuffer, Drawable) -> Void = { $0.present($1) }) throws
    -> CommandBuffer
{
    let cb = try queue.makeCommandBuffer()
    let pass = RenderPassDescriptor()
    pass.colorAttachments[0].texture = drawable.texture
    pass.colorAttachments[0].loadAction = .clear
    pass.colorAttachments[0].storeAction = .store
    pass.colorAttachments[0].clearColor = ClearColor(red: red, green: 0.2, blue: 0.4, alpha: 1)
    let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
    encoder.endEncoding()
    present(cb, drawable)
    cb.commit()
    return cb
}

// 1. Window presentation under the X server.
if let name = ProcessInfo.processInfo.environment["DISPLAY"], let connection = xcb_connect(name, nil),
   xcb_connection_has_error(connection) == 0 {
    let screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data.pointee
    let window = xcb_generate_id(connection)
    xcb_create_window(connection, UInt8(XCB_COPY_FROM_PARENT), window, screen.root, 0, 0, UInt16(side), UInt16(side), 0,
                      UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual, 0, nil)
    xcb_map_window(connection, window)
    xcb_flush(connection)
    let layer = try Layer(device: device, surface: .xcb(connection: connection, window: window))
    for mode in PresentMode.allCases {
        layer.presentMode = mode
        // Warm-up: the swapchain is remade for the mode on the first frame.
        for _ in 0..<10 { if let d = layer.nextDrawable() { _ = try clearAndPresent(d, red: 0) } }
        let start = Date()
        var presented = 0
        var last: CommandBuffer?
        for frame in 0..<frames {
            guard let drawable = layer.nextDrawable() else { continue }
            last = try clearAndPresent(drawable, red: Double(frame % 60) / 60)
            presented += 1
        }
        last?.waitUntilCompleted()
        let seconds = Date().timeIntervalSince(start)
        report(["bench": "window-fps", "mode": mode.rawValue, "size": side, "frames": presented,
                "seconds": seconds, "fps": Double(presented) / seconds])
    }
} else {
    FileHandle.standardError.write(Data("PresentBench: no X server at $DISPLAY; window figures skipped\n".utf8))
}

// 2. Latency on a virtual display: a frame's render takes 5 ms of virtual time. Time moves
// only through advance(by:), so the loop asks for a drawable only once one is free (low
// latency: the previous frame shown; fifo: fewer than 3 held, the one on screen included).
for lowLatency in [true, false] {
    let display = VirtualDisplay(refreshRate: 60)
    let layer = try Layer(device: device, surface: .headless(width: side, height: side, display: display))
    layer.isLowLatency = lowLatency
    layer.maximumDrawableCount = 3
    let displayed = Mutex(0)
    let step = Duration.microseconds(500)
    for frame in 0..<120 {
        while true {
            let shown = displayed.withLock { $0 }
            if lowLatency ? shown == frame : frame - max(shown - 1, 0) < 3 { break }
            display.advance(by: step)
        }
        let drawable = layer.nextDrawable()!
        drawable.addPresentedHandler { _ in displayed.withLock { $0 += 1 } }
        display.advance(by: .milliseconds(5))
        try clearAndPresent(drawable, red: Double(frame % 60) / 60).waitUntilCompleted()
    }
    display.advance(by: .milliseconds(100))
    let latencies = layer.frameLatencies.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }
        .sorted()
    report(["bench": "virtual-display-latency", "lowLatency": lowLatency, "frames": latencies.count, "renderMs": 5,
            "minMs": latencies.first ?? 0, "p50Ms": latencies[latencies.count / 2], "maxMs": latencies.last ?? 0])
}
