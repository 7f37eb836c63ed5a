import AppLifecycle
import CQtView
import GPU

/// A Qt 6 Widgets window with a SwiftGPU view inside and a side panel of Qt controls, for a
/// tool written in Swift. The view is a `QWindow` with a Vulkan surface on the device's own
/// `VkInstance` (`QVulkanInstance::setVkInstance`), among ordinary widgets through
/// `QWidget::createWindowContainer`; a `Layer` presents to the surface Qt made.
///
/// Qt's event loop runs the window (``run()``): it calls `frame` on each update request of
/// the view while ``requestFrame()`` asks for them, and reports the view's exposure (what
/// the user can see) and the window's focus to the app lifecycle, as the other window
/// adapters do: a hidden view sends the app to the background, where no frame is drawn;
/// focus alone does not stop drawing.
///
/// Everything runs on the thread that made the window, Qt's GUI thread, usually the main
/// thread.
public final class QtToolWindow {
    private var handle: OpaquePointer?
    private let events: Events
    /// The layer presenting to the view, once ``show()`` made it.
    public private(set) var layer: Layer?
    /// The view's surface while the layer presents to it.
    private var surface: OpaquePointer?
    private let device: Device

    /// What the window reports, boxed for the C callbacks.
    private final class Events {
        var frame: () -> Void = {}
        var changed: (Int, Int) -> Void = { _, _ in }
        var key: (Character) -> Void = { _ in }
        var visibility: (Bool) -> Void = { _ in }
        var surfaceGoing: () -> Void = {}
        let lifecycle: AppLifecycle
        var exposed = false
        var focused = false

        init(lifecycle: AppLifecycle) { self.lifecycle = lifecycle }

        func report() { lifecycle.hostWindowDidChange(isFocused: focused, isVisible: exposed) }
    }

    /// Why the window could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Makes the window (and Qt's application, once per process) for `device`, whose
    /// lifecycle the window drives: `width` × `height` pixels titled `title`. `frame` draws
    /// one frame; `changed` gets a control's id and value; `key` the characters typed.
    /// Throws when Qt cannot use the device's instance, or when the process's Qt
    /// application is not a `QApplication` (one the app made as a `QGuiApplication`).
    public init(device: Device, title: String, width: Int, height: Int, lifecycle: AppLifecycle = .shared,
                frame: @escaping () -> Void, changed: @escaping (Int, Int) -> Void = { _, _ in },
                key: @escaping (Character) -> Void = { _ in }) throws {
        self.device = device
        events = Events(lifecycle: lifecycle)
        events.frame = frame
        events.changed = changed
        events.key = key
        let callbacks = swiftgpu_qt_callbacks(
            context: Unmanaged.passUnretained(events).toOpaque(),
            frame: { Unmanaged<Events>.fromOpaque($0!).takeUnretainedValue().frame() },
            exposed: { context, exposed in
                let events = Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue()
                events.exposed = exposed
                events.report()
                events.visibility(exposed)
            },
            focused: { context, focused in
                let events = Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue()
                events.focused = focused
                events.report()
            },
            changed: { context, control, value in
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().changed(Int(control), Int(value))
            },
            key: { context, character in
                guard let scalar = Unicode.Scalar(UInt32(UInt8(truncatingIfNeeded: character))) else { return }
                Unmanaged<Events>.fromOpaque(context!).takeUnretainedValue().key(Character(scalar))
            },
            surfaceGoing: { Unmanaged<Events>.fromOpaque($0!).takeUnretainedValue().surfaceGoing() })
        var error = [CChar](repeating: 0, count: 256)
        guard let made = swiftgpu_qt_window_create(UnsafeMutableRawPointer(device.vulkanHandles.instance), title,
                                                    Int32(width), Int32(height), callbacks, &error, Int32(error.count))
        else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = made
        events.surfaceGoing = { [unowned self] in releaseLayer() }
    }

    deinit {
        close()
    }

    /// Called on Qt's GUI thread when the view becomes visible or not (shown, hidden or
    /// minimised), after the lifecycle heard of it.
    public var visibilityChanged: (Bool) -> Void {
        get { events.visibility }
        set { events.visibility = newValue }
    }

    /// Adds a push button to the side panel; its clicks report `control` with value 1.
    public func addButton(_ label: String, control: Int) {
        swiftgpu_qt_add_button(handle, label, Int32(control))
    }

    /// Adds a slider over `range` at `value`; its moves report `control` and the value.
    public func addSlider(_ range: ClosedRange<Int>, value: Int, control: Int) {
        swiftgpu_qt_add_slider(handle, Int32(range.lowerBound), Int32(range.upperBound), Int32(value), Int32(control))
    }

    /// Adds a text label; returns its index for ``setLabel(_:_:)``.
    public func addLabel(_ text: String) -> Int {
        Int(swiftgpu_qt_add_label(handle, text))
    }

    /// Sets the text of label `index`.
    public func setLabel(_ index: Int, _ text: String) {
        swiftgpu_qt_set_label(handle, Int32(index), text)
    }

    /// Shows the window and makes the ``layer`` on the view's surface.
    public func show() throws {
        swiftgpu_qt_show(handle)
        guard let surface = swiftgpu_qt_view_surface(handle) else {
            throw Failure(description: "Qt made no Vulkan surface for the view")
        }
        layer = try Layer(device: device, surface: .vulkan(surface: OpaquePointer(surface)))
        self.surface = OpaquePointer(surface)
    }

    /// Drops the layer and waits until SwiftGPU released the view's surface, before Qt
    /// destroys it: when Qt is about to (its application quits and closes its windows) and
    /// when the window closes.
    private func releaseLayer() {
        guard let surface else { return }
        layer = nil
        self.surface = nil
        _ = Layer.waitUntilReleased(hostSurface: surface)
    }

    /// The view's size in pixels.
    public var viewSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        swiftgpu_qt_view_size(handle, &width, &height)
        return (Int(width), Int(height))
    }

    /// The centre of control `control` in the window's pixels, once shown and laid out.
    public func center(ofControl control: Int) -> (x: Int, y: Int)? {
        var x: Int32 = 0
        var y: Int32 = 0
        return swiftgpu_qt_control_center(handle, Int32(control), &x, &y) ? (Int(x), Int(y)) : nil
    }

    /// The top-level window's X11 id.
    public var windowID: UInt { UInt(swiftgpu_qt_window_id(handle)) }

    /// Asks Qt for one more `frame` call, at the view's next update.
    public func requestFrame() {
        swiftgpu_qt_request_frame(handle)
    }

    /// Runs Qt's event loop until ``quit()`` or the window closes; returns its exit code.
    @discardableResult
    public func run() -> Int {
        Int(swiftgpu_qt_run(handle))
    }

    /// Ends ``run()``.
    public func quit() {
        swiftgpu_qt_quit(handle)
    }

    /// Lets go of the layer, waits until SwiftGPU released the view's surface, then
    /// destroys the window (Qt destroys the surface with the view). Called by `deinit` too.
    public func close() {
        guard let handle else { return }
        releaseLayer()
        swiftgpu_qt_window_destroy(handle)
        self.handle = nil
    }
}
