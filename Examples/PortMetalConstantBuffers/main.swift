// The port's app shell (see README.md). In the original, AppKit loads Main.storyboard's
// 800×580 MTKView, ViewController's viewDidLoad makes the device and the Renderer, and
// MetalKit draws at each display refresh. Here the view is headless and six frames are
// drawn, one a refresh, without waiting for any, twice the renderer's three frames in
// flight. The renderer's queue is held for the first three, as a busy GPU would hold
// them (added for the test suite), so that its semaphore has three frames in flight when
// the fourth begins; the view hands out a drawable for each while earlier frames are in
// flight. The last two frames are checked (added for the test suite).

import MetalKit
import MetalPortSupport

MainActor.assumeIsolated {
    var renderer: Renderer?
    let shell = HeadlessShell(width: 800, height: 580) { device, view in
        let made = Renderer(device: device, view: view)
        renderer = made
        return made
    }
    let checks = Checks()
    guard let renderer, let gate = try? QueueGate(holding: renderer.commandQueue) else { fatalError("no renderer") }

    // The default library is this program's own shaders, not those of the other ports
    // whose bundles lie beside it.
    let names = renderer.device.makeDefaultLibrary()?.functionNames ?? []
    checks.check("default library", names == ["fragment_main.frag", "vertex_main.vert"], "\(names)")

    var inFlight: [Int] = []
    let drawables = (1...6).map { frame in
        inFlight.append(shell.framesInFlight)
        // The queue opens as the fourth frame begins: its semaphore wait lasts until the
        // first frame completes.
        if frame == 4 { gate.open() }
        return shell.drawFrameInFlight()
    }
    checks.check("frames in flight as each frame began", inFlight.max() == 3 && inFlight[3] == 3,
                 "\(inFlight), at most 3, 3 as the fourth began")
    checks.check("drawables", Set(drawables.map(\.drawableID)).count == 6, "\(drawables.count) distinct")

    // Each frame's constant is its own slot of the constant buffer: the triangle moved by
    // 0.1 in the direction of the media time when the frame was drawn.
    for frame in 5...6 {
        let pixels = Pixels(drawables[frame - 1].texture)
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
