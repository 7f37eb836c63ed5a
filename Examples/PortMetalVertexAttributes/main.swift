// The port's app shell (see README.md). In the original, AppKit loads Main.storyboard's
// 800×580 MTKView, ViewController's viewDidLoad makes the device and the Renderer, and
// MetalKit draws at each display refresh. Here the view is headless and three frames are
// drawn; the last one's pixels are checked (added for the test suite).

import MetalKit
import MetalPortSupport

MainActor.assumeIsolated {
    let shell = HeadlessShell(width: 800, height: 580) { Renderer(device: $0, view: $1) }

    var pixels = shell.drawFrame()
    for _ in 1..<3 { pixels = shell.drawFrame() }
    let checks = Checks()
    checks.check("frame size", pixels.width == 800 && pixels.height == 580, "\(pixels.width)×\(pixels.height)")
    ColoredTriangle.clipSpace.check(pixels, outside: ColoredTriangle.outside(), frame: "frame 3", with: checks)
    checks.finish()
}
