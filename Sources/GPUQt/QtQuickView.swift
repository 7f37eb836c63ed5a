import AppLifecycle
import Glibc
import CQtQuickView
import CQtView
import GPU
import Logging

/// A Qt 6 Quick window that shows SwiftGPU's frames with no copy: Qt's scene graph renders
/// with Vulkan on the device's own instance, device and queue, and an item that fills the
/// window samples the texture the app drew, in place
/// (`QNativeInterface::QSGVulkanTexture::fromNative`).
///
/// Frames follow Qt's frame timing: at each of Qt's frames (an update request or exposure
/// of the window) `draw` gets a texture of the item's size in pixels and returns a command
/// buffer, which the view commits and waits to see scheduled; Qt then renders the scene and
/// presents. Qt renders on its basic render loop, on the GUI thread, and each of its frames
/// runs inside `Device.withVulkanQueue(_:)`: Qt submits to and presents on SwiftGPU's
/// queue, and Vulkan forbids two threads using a queue at once. The texture
/// (`renderTarget` and `shaderRead`) rests in `SHADER_READ_ONLY_OPTIMAL` between SwiftGPU's
/// command buffers, which begin and end with full barriers, so Qt samples it where it rests
/// and leaves it there.
///
/// The window's exposure and focus drive the lifecycle, as ``QtToolWindow``'s do. The view
/// owns the texture; Qt owns its swapchain and its wrapper of the image. Everything runs on
/// the thread that made the view, Qt's GUI thread, usually the main thread.
public final class QtQuickView {
    private var handle: OpaquePointer?
    private let events: Events
    private let device: Device

    /// What the window reports and asks for, boxed for the C callbacks.
    private final class Events {
        let device: Device
        let lifecycle: AppLifecycle
        var frame: (Int, Int) -> Void = { _, _ in }
        var rendered: (Int) -> Void = { _ in }
        var key: (Character) -> Void = { _ in }
        var visibility: (Bool) -> Void = { _ in }
        var exposed = false

        init(device: Device, lifecycle: AppLifecycle) {
            self.device = device
            self.lifecycle = lifecycle
        }
    }

    /// The texture the item shows, once a frame was drawn.
    public private(set) var texture: Texture?
    /// Command buffers committed for Qt's frames.
    public private(set) var submittedFrames = 0
    /// Qt's frames rendered and presented.
    public private(set) var renderedFrames = 0
    /// Whether the view asks Qt for the next frame after each (an animation) rather than
    /// only after ``setNeedsDisplay()``.
    public var isContinuous = false
    /// Called on the GUI thread when the window becomes visible or not (shown, hidden or
    /// minimised), after the lifecycle heard of it; outside the queue lock.
    public var visibilityChanged: (Bool) -> Void {
        get { events.visibility }
        set { events.visibility = newValue }
    }
    /// Called on the GUI thread after Qt rendered and presented a frame, with the count of
    /// frames so far; outside the queue lock.
    public var frameRendered: (Int) -> Void = { _ in }
    private let draw: (Texture) throws -> CommandBuffer?
    private static let logger = Logger(label: "SwiftGPU.qt")

    /// Makes the window (and Qt's application, once per process) for `device`, whose
    /// lifecycle it drives: `width` × `height` pixels titled `title`. `draw` encodes one frame
    /// into the texture (`rgba8Unorm`, the item's size) and returns the command buffer
    /// uncommitted, or nil to show the texture as it is (an error is logged and the frame shows
    /// the texture as it is); `key` gets the characters typed.
    public init(device: Device, title: String, width: Int, height: Int, lifecycle: AppLifecycle = .shared,
                draw: @escaping (Texture) throws -> CommandBuffer?, key: @escaping (Character) -> Void = { _ in }) throws {
        self.device = device
        self.draw = draw
        events = Events(device: device, lifecycle: lifecycle)
        events.key = key
        let callbacks = swiftgpu_qtquick_callbacks(
            context: Unmanaged.passUnretained(events).toOpaque(),
            frame: { context, width, height in
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().frame(Int(width), Int(height))
            },
            withQueue: { context, body, bodyContext in
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().device.withVulkanQueue { _ in body?(bodyContext) }
            },
            rendered: { context, count in
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().rendered(Int(count))
            },
            visibility: { context, exposed, focused in
                let events = Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue()
                events.lifecycle.hostWindowDidChange(isFocused: focused, isVisible: exposed)
                if exposed != events.exposed {
                    events.exposed = exposed
                    events.visibility(exposed)
                }
            },
            key: { context, character in
                guard let scalar = Unicode.Scalar(UInt32(UInt8(truncatingIfNeeded: character))) else { return }
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().key(Character(scalar))
            })
        // A QApplication, which Qt Quick accepts, so that a Qt Widgets window made later in
        // the process finds the application it needs.
        _ = swiftgpu_qt_ensure_application()
        if let loop = getenv("QSG_RENDER_LOOP").map({ String(cString: $0) }), !loop.isEmpty, loop != "basic" {
            let why = "Qt's own submissions must run inside the device's queue lock, on the GUI thread"
            Self.logger.warning("QtQuickView renders on Qt's basic render loop, not QSG_RENDER_LOOP=\(loop): \(why)")
        }
        let handles = device.vulkanHandles
        var error = [CChar](repeating: 0, count: 256)
        guard let made = swiftgpu_qtquick_window_create(
            UnsafeMutableRawPointer(handles.instance), UnsafeMutableRawPointer(handles.physicalDevice),
            UnsafeMutableRawPointer(handles.device), Int32(handles.queueFamilyIndex), title, Int32(width), Int32(height),
            callbacks, &error, Int32(error.count))
        else {
            throw QtToolWindow.Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                           as: UTF8.self))
        }
        handle = made
        events.frame = { [unowned self] width, height in drawFrame(width: width, height: height) }
        events.rendered = { [unowned self] count in
            renderedFrames = count
            frameRendered(count)
            if isContinuous { setNeedsDisplay() }
        }
    }

    deinit {
        close()
    }

    /// Draws one frame into the texture, made again at a new size, before Qt renders.
    private func drawFrame(width: Int, height: Int) {
        guard events.lifecycle.state == .active else { return }
        do {
            let texture = try target(width: width, height: height)
            guard let commandBuffer = try draw(texture) else { return }
            commandBuffer.commit()
            commandBuffer.waitUntilScheduled()   // submitted before Qt's frame, which samples it
            submittedFrames += 1
        } catch {
            Self.logger.error("QtQuickView could not draw a frame: \(error)")
        }
    }

    /// The texture, made again when the size changes; the item shows it from Qt's next frame.
    private func target(width: Int, height: Int) throws -> Texture {
        if let texture, texture.width == width, texture.height == height { return texture }
        let made = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: width, height: height,
                                                                        usage: [.renderTarget, .shaderRead]))
        if texture != nil {
            // Qt's frames in flight may still sample the old image: they finish first.
            device.withVulkanQueue { queue in swiftgpu_qtquick_wait_queue_idle(handle, UnsafeMutableRawPointer(queue)) }
        }
        texture = made
        swiftgpu_qtquick_set_texture(handle, UnsafeMutableRawPointer(made.vulkanImage), made.vulkanImageLayout,
                                     Int32(width), Int32(height))
        return made
    }

    /// Shows the window; Qt asks for the first frame once it is exposed.
    public func show() {
        swiftgpu_qtquick_show(handle)
    }

    /// Asks Qt for one more frame.
    public func setNeedsDisplay() {
        swiftgpu_qtquick_request_frame(handle)
    }

    /// The item's size in pixels.
    public var itemSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        swiftgpu_qtquick_item_size(handle, &width, &height)
        return (Int(width), Int(height))
    }

    /// The window's X11 id.
    public var windowID: UInt { UInt(swiftgpu_qtquick_window_id(handle)) }

    /// Runs Qt's event loop until ``quit()`` or the window closes; returns its exit code.
    @discardableResult
    public func run() -> Int {
        Int(swiftgpu_qtquick_run(handle))
    }

    /// Ends ``run()``.
    public func quit() {
        swiftgpu_qtquick_quit(handle)
    }

    /// Destroys the window, Qt's swapchain and scene graph with it (inside the queue lock;
    /// Qt waits for its frames there), then lets go of the texture. Called by `deinit` too.
    public func close() {
        guard let handle else { return }
        swiftgpu_qtquick_window_destroy(handle)
        self.handle = nil
        texture = nil
    }
}
