import Dispatch
import FramePacing
import Foundation
import SwiftGPUSupport
import Testing
import GPU

/// Waits for presented handlers: each drawable watched signals once when shown or dropped.
package final class PresentWaiter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let times = LockedValue<[Int: Double]>([:], rank: .leaf("WindowPresentationTests.times"))

    package init() {}

    package func watch(_ drawable: Drawable) {
        drawable.addPresentedHandler { [self] d in
            let time = d.presentedTime   // read before the lock: it takes the layer's
            times.withLock { $0[d.drawableID] = time }
            semaphore.signal()
        }
    }

    /// Waits for `count` handlers (a safety limit of 10 s keeps a broken build from hanging).
    package func wait(for count: Int) -> Bool {
        (0..<count).allSatisfy { _ in semaphore.wait(timeout: .now() + 10) == .success }
    }

    package var presentedTimes: [Int: Double] { times.withLock { $0 } }
}

/// A window on a fresh Xvfb server, with a layer over it. Stored properties are destroyed
/// in declaration order: the layer (whose swapchain talks to the server) before the server.
package struct XWindowFixture {
    package let layer: Layer
    package let x: XcbConnection
    package let window: UInt32
    package let width: Int
    package let height: Int
    package let server: XvfbServer

    /// An xcb window, or with `xlib` an Xlib one (read back through xcb all the same), on a
    /// server started with `serverArguments` added.
    package init(_ gpu: TestGPU, width: Int = 256, height: Int = 256, xlib: Bool = false, serverArguments: [String] = []) throws {
        server = try XvfbServer(extraArguments: serverArguments)
        x = try XcbConnection(display: server.display)
        self.width = width
        self.height = height
        if xlib {
            let xlibWindow = try XlibWindow(display: server.display, width: width, height: height)
            window = UInt32(xlibWindow.window)
            layer = try Layer(device: gpu.device, surface: .xlib(display: xlibWindow.display, window: xlibWindow.window))
        } else {
            window = x.makeWindow(width: width, height: height)
            layer = try Layer(device: gpu.device, surface: .xcb(connection: x.connection, window: window))
        }
    }

    package func pixel(x px: Int, y py: Int) throws -> [UInt8] {
        try x.pixel(of: window, width: width, height: height, x: px, y: py)
    }
}

extension TestGPU {
    /// A pass that clears `target` to `clear` and stores it.
    package func clearingPass(_ target: Texture, clear: ClearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)) -> RenderPassDescriptor {
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = clear
        return pass
    }

    /// Clears `drawable` to `clear` in a new command buffer and calls the drawable's own
    /// `present()` before the buffer is committed, as a commit in a `defer` does; returns
    /// the buffer, not committed.
    package func renderPresentingBeforeCommit(_ drawable: Drawable, clear: ClearColor) throws -> CommandBuffer {
        let cb = try queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: clearingPass(drawable.texture, clear: clear))
        encoder.endEncoding()
        drawable.present()
        return cb
    }

    /// Clears `drawable` to (`red`, `green`, 0) and presents it.
    package func present(_ drawable: Drawable, red: Double, green: Double = 0,
                 waiter: PresentWaiter? = nil, how: (CommandBuffer, Drawable) -> Void = { $0.present($1) }) throws {
        waiter?.watch(drawable)
        let cb = try queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(
            descriptor: clearingPass(drawable.texture, clear: ClearColor(red: red, green: green, blue: 0, alpha: 1)))
        encoder.endEncoding()
        how(cb, drawable)
        cb.commit()
    }
}

/// Presents `frames` frames on `layer`, alternately red and black, at 60 Hz
/// (`present(_:afterMinimumDuration:)`), and waits for them all: the drawables and the
/// server's reports (each checked to be there).
package func presentPaced(_ gpu: TestGPU, _ layer: Layer, frames: Int) throws -> ([Drawable], [PresentationReport?]) {
    let waiter = PresentWaiter()
    var drawables: [Drawable] = []
    for frame in 0..<frames {
        let drawable = try #require(layer.nextDrawable())
        drawables.append(drawable)
        try gpu.present(drawable, red: Double(frame % 2), waiter: waiter) {
            $0.present($1, afterMinimumDuration: 1.0 / 60)
        }
    }
    #expect(waiter.wait(for: drawables.count))
    let reports = drawables.map(\.presentationReport)
    #expect(reports.allSatisfy { $0 != nil }, "every frame reported")
    return (drawables, reports)
}

extension Duration {
    /// The duration in seconds, as a Double.
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
