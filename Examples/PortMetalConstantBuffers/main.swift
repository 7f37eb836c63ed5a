// The port's app shell (see README.md). In the original, AppKit loads Main.storyboard's
// 800×580 MTKView, ViewController's viewDidLoad makes the device and the Renderer, and
// MetalKit draws at each display refresh. Here the view is headless and six frames are
// drawn, twice the renderer's three frames in flight, so its semaphore must have been
// signalled by completed command buffers; the first and last frames are checked (added
// for the test suite).

import MetalKit
import MetalPortSupport

MainActor.assumeIsolated {
    let shell = HeadlessShell(width: 800, height: 580) { Renderer(device: $0, view: $1) }
    let checks = Checks()

    // Each frame's constant is its own slot of the constant buffer: the triangle moved by
    // 0.1 in the direction of the media time when the frame was drawn.
    for frame in 1...6 {
        let pixels = shell.drawFrame()
        guard frame == 1 || frame == 6 else { continue }
        guard let offset = ColoredTriangle.offset(in: pixels) else {
            checks.check("frame \(frame)", false, "no triangle drawn")
            continue
        }
        let length = (offset * offset).sum().squareRoot()
        checks.check("frame \(frame): offset", abs(length - 0.1) <= 0.01,
                     "(\(offset.x), \(offset.y)), length \(length), expected 0.1")
        ColoredTriangle.clipSpace.moved(by: offset).check(pixels, outside: ColoredTriangle.outside(movedBy: offset), frame: "frame \(frame)", with: checks)
    }
    checks.finish()
}
