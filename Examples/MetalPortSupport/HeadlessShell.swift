import FramePacing
import GPU
import MetalKit

/// The part of AppKit's run loop a ported sample's view needs, headless: the display's time
/// passes, vblank by vblank, and the view's display link asks its delegate (the sample's
/// renderer) for frames as MetalKit's does; each frame's drawable is kept so the port can
/// check what the sample drew.
@MainActor
public final class HeadlessShell: NSObject, MTKViewDelegate {
    /// The view the sample draws into.
    public let view: MTKView
    /// The sample's own delegate, held here: a view holds its delegate weakly, and the
    /// view controller that held it in the original is the part the port replaces.
    private let renderer: any MTKViewDelegate
    /// The drawable of the frame drawn last, once a frame was drawn.
    public private(set) var lastDrawable: Drawable?
    /// The drawables of the frames drawn and not yet shown, oldest first.
    private var unshown: [Drawable] = []

    /// Stands between `view` and the delegate the sample gave it.
    public init(view: MTKView) {
        guard let renderer = view.delegate else {
            fatalError("HeadlessShell: the sample set no delegate on its view")
        }
        self.view = view
        self.renderer = renderer
        super.init()
        view.delegate = self
    }

    /// What the original's storyboard and view controller made: a view of `width` ×
    /// `height` pixels (headless) on the system's default device, and the renderer
    /// `makeRenderer` makes for them, which sets itself as the view's delegate; this shell
    /// then stands between the two.
    public convenience init(width: Int, height: Int, makeRenderer: (any MTLDevice, MTKView) -> any MTKViewDelegate) {
        guard let device = MTLCreateSystemDefaultDevice() else { fatalError("HeadlessShell: no Metal device") }
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: width, height: height), device: device)
        let renderer = makeRenderer(device, view)
        guard view.delegate === renderer else { fatalError("HeadlessShell: the renderer is not its view's delegate") }
        self.init(view: view)
    }

    /// Passes the size change on to the sample's delegate.
    public func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {
        renderer.mtkView(view, drawableSizeWillChange: size)
    }

    /// The sample's frame, then a note of the drawable it rendered into.
    public func draw(in view: MTKView) {
        renderer.draw(in: view)
        lastDrawable = view.currentDrawable as? Drawable
    }

    /// Draws one frame, as MetalKit does at a display refresh, and reads back what it drew
    /// (once its command buffer completed).
    public func drawFrame() -> Pixels {
        Pixels(drawFrameInFlight().texture)
    }

    /// How many frames are in flight: drawn, their drawables not yet shown (their command
    /// buffers not completed, or completed and waiting for a vblank).
    public var framesInFlight: Int {
        unshown.removeAll { $0.presentedTime > 0 }
        return unshown.count
    }

    /// Advances the display vblank by vblank, as a screen's time passes, until the view's
    /// display link has had the sample draw a frame, without waiting for the frame: its
    /// command buffer may still be in flight. Returns the frame's drawable; read it
    /// (`Pixels`) before the view hands its slot out again, `maximumDrawableCount` frames
    /// later.
    @discardableResult
    public func drawFrameInFlight() -> Drawable {
        guard let display = view.display else { fatalError("HeadlessShell: the view is on a window, not headless") }
        // The view's rate is a divisor of the refresh rate: a frame comes within this many vblanks.
        let vblanksPerFrame = Int((display.refreshRate / Double(view.preferredFramesPerSecond)).rounded(.up))
        for _ in 0..<vblanksPerFrame {
            let now = display.now
            display.advance(by: display.vblank(atOrAfter: now + .nanoseconds(1)) - now)
            guard let drawable = lastDrawable else { continue }
            lastDrawable = nil
            unshown.append(drawable)
            return drawable
        }
        fatalError("HeadlessShell: the view drew no frame in \(vblanksPerFrame) vblanks (is it paused?)")
    }
}

/// A frame's pixels, read from a BGRA texture.
public struct Pixels: Sendable {
    /// The frame's width in pixels.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// The texels, four bytes each (blue, green, red, alpha), row by row from the top.
    private let bgra: [UInt8]

    /// The pixels of `texture`, once the command buffer rendering it completed.
    public init(_ texture: Texture) {
        width = texture.width
        height = texture.height
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        texture.getBytes(&bytes, bytesPerRow: width * 4, from: Region(x: 0, y: 0, width: width, height: height),
                         mipmapLevel: 0)
        bgra = bytes
    }

    /// The pixel at column `x`, row `y` (from the top) as red, green, blue and alpha.
    public subscript(x: Int, y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return [Int(bgra[i + 2]), Int(bgra[i + 1]), Int(bgra[i]), Int(bgra[i + 3])]
    }

    /// The pixel where a clip-space position (Metal's: y up, (-1, 1) the top-left corner)
    /// falls.
    public subscript(clip x: Double, _ y: Double) -> [Int] {
        self[Int((x + 1) / 2 * Double(width)), Int((1 - y) / 2 * Double(height))]
    }

    /// The smallest rectangle, in clip space, holding every pixel that is not `background`
    /// (RGBA bytes): where the sample drew.
    public func drawnBounds(background: [Int]) -> (minX: Double, maxX: Double, minY: Double, maxY: Double)? {
        var (left, right, top, bottom) = (width, -1, height, -1)
        for y in 0..<height {
            for x in 0..<width where self[x, y] != background {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= 0 else { return nil }
        // Pixel edges, not centres: column x spans x...x+1.
        let clipX = { (x: Int) in Double(x) / Double(width) * 2 - 1 }
        let clipY = { (y: Int) in 1 - Double(y) / Double(height) * 2 }
        return (clipX(left), clipX(right + 1), clipY(bottom + 1), clipY(top))
    }
}

/// Checks, printed one a line, and the exit status they add up to.
@MainActor
public final class Checks {
    /// How many checks were made, and how many passed.
    private var (made, passed) = (0, 0)

    /// A checker with no checks yet.
    public init() {}

    /// Notes and prints a check: `what` held (`ok`) or not, with `detail`.
    public func check(_ what: String, _ ok: Bool, _ detail: String) {
        made += 1
        if ok { passed += 1 }
        print("\(what): \(detail) \(ok ? "as expected" : "NOT as expected")")
    }

    /// Checks that `got` (RGBA bytes) is `expected` (RGBA in 0...1) within 2 in 255.
    public func color(_ what: String, _ got: [Int], _ expected: [Double]) {
        let ok = zip(got, expected).allSatisfy { abs(Double($0) - $1 * 255) <= 2 }
        check(what, ok, "RGBA \(got), expected \(expected.map { Int(($0 * 255).rounded()) })")
    }

    /// Prints the tally and exits, with status 0 only if every check passed.
    public func finish() -> Never {
        print("\(passed) of \(made) checks as expected")
        exit(passed == made && made > 0 ? 0 : 1)
    }
}
