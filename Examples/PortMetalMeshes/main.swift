// The port's app shell (see README.md). In the original, AppKit loads Main.storyboard's
// 800×580 MTKView, ViewController's viewDidLoad makes the device and the Renderer, and
// MetalKit draws at each display refresh. Here the view is headless and three frames are
// drawn; the last is checked (added for the test suite).

import Foundation
import MetalKit
import MetalPortSupport

MainActor.assumeIsolated {
    let shell = HeadlessShell(width: 800, height: 580) { Renderer(device: $0, view: $1) }
    var pixels = shell.drawFrame()
    for _ in 1..<3 { pixels = shell.drawFrame() }
    let checks = Checks()

    // The renderer draws an 11-sided polygon of radius 250 canvas units, a vertex straight
    // up, in (0, 0.5, 0.8), unturned (its time step is commented out), on an 800-unit-wide
    // canvas of the view's aspect ratio: one unit a pixel.
    let blue = [0, 0.5, 0.8, 1]
    let clear = [0.95, 0.95, 0.95, 1]
    func pixel(radius: Double, angle: Double) -> [Int] {
        pixels[clip: radius * cos(angle) / 400, radius * sin(angle) / 290]
    }
    checks.color("centre", pixel(radius: 0, angle: 0), blue)
    let step = 2 * Double.pi / 11
    for k in [0, 3, 7] {
        let vertex = Double.pi / 2 + Double(k) * step
        // 245 units out: inside towards a vertex (250 away), outside towards the middle of
        // an edge (250 cos(π/11) ≈ 239.9 away).
        checks.color("towards vertex \(k), 245 units out", pixel(radius: 245, angle: vertex), blue)
        checks.color("towards the middle of edge \(k), 245 units out", pixel(radius: 245, angle: vertex + step / 2), clear)
        checks.color("towards the middle of edge \(k), 230 units out", pixel(radius: 230, angle: vertex + step / 2), blue)
    }
    checks.finish()
}
