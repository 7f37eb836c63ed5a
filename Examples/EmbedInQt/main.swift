// EmbedInQt: a SwiftGPU view inside a Qt 6 Widgets window, beside Qt controls that change
// what it draws: a slider scales the triangle and a button makes it full size. Qt's event
// loop runs the window; each update request of the view draws one frame into the layer on
// the Vulkan surface Qt made on SwiftGPU's instance. The view's exposure drives the
// lifecycle: hidden, the app is in the background and draws nothing.
//
//     swift run EmbedInQt [--size 480x320] [--frames N]
//
// With --frames it quits after N frames and says what a frame cost: the frame callback's
// work (waiting for a drawable, drawing, committing) and the interval between Qt's update
// requests, mean and 95th percentile in ms.
// Q quits. It says "window ID", "view WxH" and "button at X,Y" (for tests), "ready" once the first
// frame is shown and "shown scale S" once a frame at a new scale is shown. Hidden or
// minimised, it says how many command buffers it had committed, counts ten update requests
// that found no drawable (the lifecycle is in the background) and says the count again;
// shown, it says both once more and "drawing resumed at N" once the next commit is shown.
import AppLifecycle
import ExampleSupport
import Foundation
import GPU
import GPUQt

let size = (option("--size") ?? "480x320").split(separator: "x").compactMap { Int($0) }
let frameLimit = option("--frames").flatMap(Int.init) ?? Int.max
guard size.count == 2, size.allSatisfy({ $0 > 0 }), frameLimit > 0 else { fail("--size takes WIDTHxHEIGHT, --frames N > 0") }

enum Control: Int {
    case scale = 1, fullSize = 2
}

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    var scale: Float = 0.5
    var drawnScale: Float = 0.5
    var frames = 0
    var window: QtToolWindow!
    var scene: TriangleScene!
    var label = 0
    var work: [Double] = []
    var intervals: [Double] = []
    var lastStart: Double?
    var hiddenFrames: Int?       // update requests since the view was hidden; nil while visible
    var committedAtHide = 0
    var resumed = false
    window = try QtToolWindow(device: device, title: "SwiftGPU in Qt", width: size[0], height: size[1], frame: {
        let start = milliseconds()
        if let lastStart { intervals.append(start - lastStart) }
        lastStart = start
        defer {
            if frames >= frameLimit { window.quit() } else { window.requestFrame() }
        }
        guard let layer = window.layer, let drawable = layer.nextDrawable() else {
            if let hidden = hiddenFrames {
                hiddenFrames = hidden + 1
                if hidden + 1 == 10 { say("hidden for 10 frames: \(frames) submissions") }
            }
            return
        }
        do {
            let commandBuffer = try scene.draw(into: drawable.texture, clear: ClearColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1),
                                               scale: scale)
            if frames == 0 { drawable.addPresentedHandler { _ in say("ready") } }
            if scale != drawnScale {
                let shown = scale
                drawable.addPresentedHandler { _ in say("shown scale \(shown)") }
                drawnScale = scale
            }
            commandBuffer.present(drawable)
            commandBuffer.commit()
            frames += 1
            if resumed {
                resumed = false
                let resumedAt = frames
                drawable.addPresentedHandler { _ in say("drawing resumed at \(resumedAt)") }
            }
            work.append(milliseconds() - start)
            if frames % 60 == 0 { window.setLabel(label, "\(frames) frames") }
        } catch {
            fail("\(error)")
        }
    }, changed: { control, value in
        switch Control(rawValue: control) {
        case .scale: scale = Float(value) / 100
        case .fullSize: scale = 1
        case nil: break
        }
    }, key: { character in
        if character == "q" { window.quit() }
    })
    window.visibilityChanged = { visible in
        guard frames > 0 else { return }   // the window's first mapping
        if visible {
            say("shown after \(hiddenFrames ?? 0) frames hidden: \(frames) submissions (\(committedAtHide) at hiding)")
            hiddenFrames = nil
            resumed = true
        } else {
            committedAtHide = frames
            hiddenFrames = 0
            say("hidden after \(frames) submissions; lifecycle \(AppLifecycle.shared.state)")
        }
    }
    window.addSlider(10...100, value: 50, control: Control.scale.rawValue)
    window.addButton("Full size", control: Control.fullSize.rawValue)
    label = window.addLabel("0 frames")
    try window.show()
    scene = try TriangleScene(device: device, queue: queue, pixelFormat: window.layer!.pixelFormat)
    say("window \(window.windowID)")
    say("view \(window.viewSize.width)x\(window.viewSize.height)")
    if let button = window.center(ofControl: Control.fullSize.rawValue) { say("button at \(button.x),\(button.y)") }
    window.requestFrame()
    window.run()
    guard scene.waitForPresentedFrames() else { fail("frames were still unpresented after 5 s") }
    window.close()
    say("drew \(frames) frames; the view's surface went after the layer let go of it; \(Validation.messageCount) validation messages")
    if frameLimit != Int.max { say("frame work: \(summary(work)); between updates: \(summary(intervals))") }
} catch {
    fail("\(error)")
}
