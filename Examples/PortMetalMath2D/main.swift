// The port's app shell (see README.md). In the original, AppKit loads Main.storyboard's
// 800×580 MTKView, ViewController's viewDidLoad makes the device and the Renderer, and
// MetalKit draws at each display refresh. Here the view is headless and three frames are
// drawn; the first and third are checked against the sample's animation worked out here
// without its matrices (added for the test suite).

import Foundation
import MetalKit
import MetalPortSupport

/// Where frame `n` puts the triangle, in clip space: the renderer steps its time by
/// 1/60 s a frame (`preferredFramesPerSecond`), scales the vertex data (in canvas units) by
/// 1 + 0.5 cos(1.5t), turns it by 2.5t radians, moves it to 200 (cos t, sin t), and maps
/// the 800-unit-wide canvas of the view's aspect ratio onto clip space.
func triangle(atFrame n: Int) -> ColoredTriangle {
    let t = Double(n) / 60
    let (scale, angle) = (1 + 0.5 * cos(1.5 * t), 2.5 * t)
    let centre = 200 * SIMD2(cos(t), sin(t))
    let canvasHalfSize = SIMD2(400, 400 / (800.0 / 580))
    let data: [SIMD2<Double>] = [[-100, -20], [100, -60], [30, 100]]
    return ColoredTriangle(positions: data.map { vertex in
        let scaled = vertex * scale
        let turned = SIMD2(cos(angle) * scaled.x - sin(angle) * scaled.y, sin(angle) * scaled.x + cos(angle) * scaled.y)
        return (turned + centre) / canvasHalfSize
    })
}

MainActor.assumeIsolated {
    let shell = HeadlessShell(width: 800, height: 580) { Renderer(device: $0, view: $1) }
    let checks = Checks()

    // The triangle stays right of x = 0.1 in these frames: the left half is clear.
    let outside: [(name: String, position: SIMD2<Double>)] = [
        ("near the top-left corner", [-0.85, 0.85]), ("near the bottom-left corner", [-0.85, -0.85]),
        ("left of the centre", [-0.5, 0]),
    ]
    for frame in 1...3 {
        let pixels = shell.drawFrame()
        guard frame != 2 else { continue }
        triangle(atFrame: frame).check(pixels, outside: outside, frame: "frame \(frame)", with: checks)
    }
    checks.finish()
}
