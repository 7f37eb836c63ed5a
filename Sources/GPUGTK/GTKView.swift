import AppLifecycle
import CGTKView
import FramePacing
import GPU
import Logging
import SwiftGPUSupport

/// A GTK 4 widget that shows SwiftGPU's frames, as an `MTKView` shows Metal's: GTK places
/// it in its layout, and it draws on GTK's frame clock (the frame GTK is about to paint, as a
/// Metal layer that `presentsWithTransaction` commits with Core Animation).
///
/// Each frame the view gives `draw` a texture of the widget's size in device pixels
/// (`rgba8Unorm`); the command buffer `draw` returns is committed and waited for, then
/// GTK shows the texture by one of two routes:
///
/// - ``Route/importedMemory``: the texture's memory is exported
///   (`Device.makeSharedTexture`) and imported once per size into the `GtkGLArea`'s GL
///   context (`GL_EXT_memory_object_fd`); each frame is a GL blit, and GL finishes it
///   before SwiftGPU draws again (no semaphore is shared; the CPU orders the two).
/// - ``Route/memoryTextureCopy``: the pixels are read back and shown as a
///   `GdkMemoryTexture` in a `GtkPicture`; used where GL cannot import (no GL, no
///   extension, another device).
///
/// The view drives `lifecycle`: mapped is active, focused or not (the window's focus
/// reaches `lifecycle.observeWindowFocus(_:)`, and makes an unfocused window inactive under
/// `WindowFocusPolicy.pauseOnFocusLoss`), unmapped (hidden, minimised) is the background,
/// where it draws nothing.
/// It draws when ``setNeedsDisplay()`` asks, or every frame while ``isContinuous``; the
/// frame clock does not run for it otherwise.
///
/// Main thread only, as GTK is.
@MainActor
public final class GTKView {
    /// How frames reach GTK.
    public enum Route: Sendable, Equatable, CustomStringConvertible {
        /// The frame texture's memory imported into GL: no copy.
        case importedMemory
        /// A copy of each frame in a `GdkMemoryTexture`.
        case memoryTextureCopy

        /// "imported memory" or "memory texture copy".
        public var description: String {
            switch self {
            case .importedMemory: "imported memory"
            case .memoryTextureCopy: "memory texture copy"
            }
        }
    }

    /// When and how big one frame is.
    public struct Frame: Sendable {
        /// The time the frame clock gives the frame (`CLOCK_MONOTONIC`).
        public var time: Duration
        /// The drawable size in device pixels.
        public var width: Int
        /// The drawable height in device pixels.
        public var height: Int
    }

    /// The widget (`GtkWidget *`) to place in the host's layout.
    public let widget: OpaquePointer
    /// The route frames take; nil until the view is realized and the route is known.
    public private(set) var route: Route?
    /// Whether the view draws every frame rather than on ``setNeedsDisplay()``.
    public var isContinuous = false {
        didSet { if isContinuous { swiftgpu_gtk_view_request_frame(view) } }
    }
    /// How many command buffers the view has committed.
    public private(set) var submittedFrames = 0
    /// Milliseconds the route took for each recent frame: for imported memory the GL blit
    /// and GL's finish; for the copy the read-back and the `GdkMemoryTexture`.
    public private(set) var transferMilliseconds = RingBuffer<Double>(capacity: 240)
    /// Milliseconds from the frame-clock tick to the end of GTK's paint for each recent frame
    /// shown: drawing, waiting for the GPU, the route, and GTK's own rendering of the window
    /// (a copy's upload into GL among it).
    public private(set) var frameMilliseconds = RingBuffer<Double>(capacity: 240)

    private let device: Device
    private let lifecycle: AppLifecycle
    private let draw: @MainActor (Texture, Frame) throws -> CommandBuffer
    private var view: OpaquePointer!
    private var target: Texture?
    private var pixels: [UInt8] = []
    private var needsDisplay = true
    private var importedFrame = false
    private var shownFrame = false

    /// A view drawing with `draw` on `device`, driving `lifecycle`, by `route` where it works
    /// (`importedMemory` falls back to the copy where GL cannot import).
    public init(device: Device, lifecycle: AppLifecycle = .shared, route: Route = .importedMemory,
                draw: @escaping @MainActor (Texture, Frame) throws -> CommandBuffer) {
        self.device = device
        self.lifecycle = lifecycle
        self.draw = draw
        let useGL = route == .importedMemory && device.supportsSharedTextures
        var callbacks = SwiftGPUGtkCallbacks()
        callbacks.tick = { context, width, height, time in
            MainActor.assumeIsolated { GTKView.of(context).tick(width: Int(width), height: Int(height), time: time) ? 1 : 0 }
        }
        callbacks.state = { context, mapped, focused in
            MainActor.assumeIsolated { GTKView.of(context).stateChanged(mapped: mapped != 0, focused: focused != 0) }
        }
        callbacks.gl_ready = { context, canImport, deviceUUID, driverUUID in
            MainActor.assumeIsolated { GTKView.of(context).glReady(canImport: canImport != 0, deviceUUID: deviceUUID, driverUUID: driverUUID) }
        }
        let made = swiftgpu_gtk_view_new(callbacks, useGL ? 1 : 0)
        widget = swiftgpu_gtk_view_widget(made)
        view = made
        if !useGL { self.route = .memoryTextureCopy }
        // The callbacks reach the view through its address, set once it is whole.
        swiftgpu_gtk_view_set_context(made, Unmanaged.passUnretained(self).toOpaque())
    }

    isolated deinit {
        swiftgpu_gtk_view_free(view)
    }

    /// Draws a frame at the widget's next frame-clock tick.
    public func setNeedsDisplay() {
        needsDisplay = true
        swiftgpu_gtk_view_request_frame(view)
    }

    private static let logger = Logger(label: "SwiftGPU.gtk")

    private static func of(_ context: UnsafeMutableRawPointer?) -> GTKView {
        Unmanaged<GTKView>.fromOpaque(context!).takeUnretainedValue()
    }

    private func stateChanged(mapped: Bool, focused: Bool) {
        lifecycle.hostWindowDidChange(isFocused: focused, isVisible: mapped)
        if mapped { setNeedsDisplay() }
    }

    private func glReady(canImport: Bool, deviceUUID: UnsafePointer<UInt8>?, driverUUID: UnsafePointer<UInt8>?) {
        let ids = device.sharedTextureUUIDs
        let sameDevice = canImport && deviceUUID.map { Array(UnsafeBufferPointer(start: $0, count: 16)) } == ids.device
            && driverUUID.map { Array(UnsafeBufferPointer(start: $0, count: 16)) } == ids.driver
        if sameDevice {
            route = .importedMemory
        } else {
            route = .memoryTextureCopy
            target = nil
            swiftgpu_gtk_view_use_picture(view)
        }
        setNeedsDisplay()
    }

    /// One frame-clock tick: draws when asked and allowed; whether to tick again.
    private func tick(width: Int, height: Int, time: Int64) -> Bool {
        guard let route, needsDisplay || isContinuous else { return false }
        if importedFrame {
            transferMilliseconds.append(Double(swiftgpu_gtk_view_last_gl_nanoseconds(view)) / 1e6)
            importedFrame = false
        }
        if shownFrame {
            frameMilliseconds.append(Double(swiftgpu_gtk_view_last_frame_nanoseconds(view)) / 1e6)
            shownFrame = false
        }
        // In the background nothing is drawn (the gate would refuse it anyway).
        guard lifecycle.state != .background else { return false }
        needsDisplay = false
        do {
            let texture = try target(width: width, height: height, route: route)
            let commandBuffer = try draw(texture, Frame(time: .microseconds(time), width: width, height: height))
            commandBuffer.commit()
            submittedFrames += 1
            commandBuffer.waitUntilCompleted()
            guard commandBuffer.status == .completed else { return isContinuous }
            shownFrame = true
            switch route {
            case .importedMemory:
                swiftgpu_gtk_view_queue_frame(view)
                importedFrame = true
            case .memoryTextureCopy:
                let start = HostClock.nanoseconds()
                let bytesPerRow = width * 4
                if pixels.count != bytesPerRow * height { pixels = [UInt8](repeating: 0, count: bytesPerRow * height) }
                pixels.withUnsafeMutableBytes { bytes in
                    texture.getBytes(bytes.baseAddress!, bytesPerRow: bytesPerRow,
                                     from: Region(x: 0, y: 0, width: width, height: height), mipmapLevel: 0)
                    swiftgpu_gtk_view_show_pixels(view, bytes.baseAddress, Int32(width), Int32(height), bytesPerRow)
                }
                transferMilliseconds.append(Double(HostClock.nanoseconds() - start) / 1e6)
            }
        } catch {
            GTKView.logger.error("GTKView could not draw a frame: \(error)")
        }
        return isContinuous
    }

    /// The frame texture, remade (and for imported memory exported to GL) when the size changes.
    private func target(width: Int, height: Int, route: Route) throws -> Texture {
        if let target, target.width == width, target.height == height { return target }
        let descriptor = TextureDescriptor(pixelFormat: .rgba8Unorm, width: width, height: height, usage: [.renderTarget, .shaderRead])
        let texture: Texture
        switch route {
        case .importedMemory:
            texture = try device.makeSharedTexture(descriptor: descriptor)
            let handle = try texture.makeSharedTextureHandle()
            swiftgpu_gtk_view_import(view, handle.fileDescriptor, UInt64(handle.allocationSize), Int32(width), Int32(height))
        case .memoryTextureCopy:
            texture = try device.makeTexture(descriptor: descriptor)
        }
        target = texture
        return texture
    }
}
