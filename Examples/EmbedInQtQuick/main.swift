// EmbedInQtQuick: SwiftGPU's frames in a Qt Quick window, no copy. Qt's scene graph renders
// with Vulkan on SwiftGPU's own device and queue, and an item that fills the window samples
// the texture SwiftGPU drew the triangle into. C changes the clear colour, Q quits.
//
//     swift run EmbedInQtQuick [--size 480x320] [--frames N] [--widgets-window]
//
// With --widgets-window it also makes a Qt Widgets window (not shown) after the Qt Quick
// one, as a tool with both kinds of window does, and says "Qt Widgets made beside it".
//
// With --frames it draws continuously, quits after N of Qt's frames and says what a frame
// cost, mean and 95th percentile in ms: SwiftGPU's encoding of the triangle, the route's
// work (from the end of that encoding to the end of Qt's frame: the commit, waiting to see
// it scheduled, and Qt's synchronisation, rendering, submission and present of the scene,
// which waits for the GPU's rendering) and the interval between Qt's frames. It says "window ID" and "item WxH" (for tests), "ready" once the first frame
// is presented, "shown colour N" once the first frame with clear colour N is, and "shown at
// WxH" once the first frame at a new size is. Hidden or minimised, it says how many command
// buffers it had committed; shown again, it says the count once more and "drawing resumed
// at N" once the next frame is presented.
import AppLifecycle
import ExampleSupport
import Foundation
import GPU
import GPUQt

let size = (option("--size") ?? "480x320").split(separator: "x").compactMap { Int($0) }
let frameLimit = option("--frames").flatMap(Int.init)
guard size.count == 2, size.allSatisfy({ $0 > 0 }), (frameLimit ?? 1) > 0 else { fail("--size takes WIDTHxHEIGHT, --frames N > 0") }

let colours = [ClearColor(red: 0.1, green: 0.1, blue: 0.3, alpha: 1), ClearColor(red: 0.1, green: 0.3, blue: 0.1, alpha: 1)]

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let scene = try TriangleScene(device: device, queue: queue, pixelFormat: .rgba8Unorm)
    var colour = 0
    var drawnColour = -1
    var shownColour = 0
    var drawnSize = (0, 0)
    var shownSize = (0, 0)
    var encoded: Double?
    var encoding: [Double] = []
    var work: [Double] = []
    var intervals: [Double] = []
    var lastRendered: Double?
    var committedAtHide: Int?
    var resumed = false
    var view: QtQuickView!
    view = try QtQuickView(device: device, title: "SwiftGPU in Qt Quick", width: size[0], height: size[1], draw: { texture in
        let start = milliseconds()
        let commandBuffer = try scene.draw(into: texture, clear: colours[colour])
        drawnColour = colour
        drawnSize = (texture.width, texture.height)
        let end = milliseconds()
        encoding.append(end - start)
        encoded = end
        return commandBuffer
    }, key: { character in
        switch character {
        case "c":
            colour = (colour + 1) % colours.count
            view.setNeedsDisplay()
        case "q":
            view.quit()
        default:
            break
        }
    })
    view.frameRendered = { count in
        let now = milliseconds()
        if let encoded { work.append(now - encoded) }
        if let lastRendered { intervals.append(now - lastRendered) }
        encoded = nil
        lastRendered = now
        if count == 1 {
            shownSize = drawnSize
            say("ready")
        }
        if drawnSize != shownSize {
            shownSize = drawnSize
            say("shown at \(drawnSize.0)x\(drawnSize.1)")
        }
        if drawnColour != shownColour {
            shownColour = drawnColour
            say("shown colour \(drawnColour)")
        }
        if resumed {
            resumed = false
            say("drawing resumed at \(view.submittedFrames)")
        }
        if let frameLimit, count >= frameLimit { view.quit() }
    }
    view.visibilityChanged = { visible in
        guard view.renderedFrames > 0 else { return }   // the window's first exposure
        if visible {
            say("shown after hiding: \(view.submittedFrames) submissions (\(committedAtHide ?? 0) at hiding)")
            resumed = true
        } else {
            committedAtHide = view.submittedFrames
            say("hidden after \(view.submittedFrames) submissions; lifecycle \(AppLifecycle.shared.state)")
        }
    }
    view.isContinuous = frameLimit != nil
    view.show()
    say("window \(view.windowID)")
    say("item \(view.itemSize.width)x\(view.itemSize.height)")
    if CommandLine.arguments.contains("--widgets-window") {
        let widgets = try QtToolWindow(device: device, title: "Qt Widgets beside Qt Quick", width: 64, height: 64,
                                       lifecycle: AppLifecycle(), frame: {})
        say("Qt Widgets made beside it")
        widgets.close()
    }
    view.run()
    let frames = view.renderedFrames
    let submitted = view.submittedFrames
    view.close()
    say("drew \(submitted) frames, Qt rendered \(frames); \(Validation.messageCount) validation messages")
    if frameLimit != nil {
        say("encoding: \(summary(encoding)); route's work: \(summary(work)); between Qt's frames: \(summary(intervals))")
    }
} catch {
    fail("\(error)")
}
