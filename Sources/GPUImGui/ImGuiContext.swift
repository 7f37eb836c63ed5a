import CImGui

/// A Dear ImGui context with the few widgets SwiftGPU's examples and tests use, for Swift
/// code without C++: its frame, pointer input, and the draw data an ``ImGuiRenderer``
/// draws. An app with C++ of its own builds its interface with ImGui's C++ API instead and
/// hands `ImGui::GetDrawData()` to the renderer.
///
/// ImGui has one current context per process: making a context makes it current, and a
/// context is used from one thread at a time.
public final class ImGuiContext {
    private let handle: UnsafeMutableRawPointer

    /// Makes a context (no `imgui.ini` is written) and makes it current.
    public init() {
        handle = cimgui_create_context()
    }

    deinit {
        cimgui_destroy_context(handle)
    }

    /// Makes this context the current one.
    public func makeCurrent() {
        cimgui_set_current_context(handle)
    }

    /// Starts a frame of `size` points, `delta` seconds after the last, with the pointer at
    /// `pointer` (nil: outside the window) and its primary button `pressed` or not.
    public func newFrame(size: (width: Float, height: Float), delta: Float,
                         pointer: (x: Float, y: Float)?, pressed: Bool) {
        makeCurrent()
        cimgui_new_frame(size.width, size.height, delta, pointer?.x ?? -1, pointer?.y ?? -1, pressed)
    }

    /// Ends the frame; returns its draw data (an `ImDrawData *`), valid until the next frame.
    public func render() -> UnsafeRawPointer {
        UnsafeRawPointer(cimgui_render())
    }

    /// Whether the pointer is over one of ImGui's windows (the app should not act on it).
    public var wantsPointer: Bool { cimgui_wants_mouse() }

    /// A window placed at `origin` with `size` the first time; `content` adds its widgets
    /// while it is open and not collapsed.
    public func window(_ name: String, origin: (x: Float, y: Float), size: (width: Float, height: Float),
                       _ content: () -> Void) {
        if cimgui_begin_window(name, origin.x, origin.y, size.width, size.height) { content() }
        cimgui_end_window()
    }

    /// A line of text.
    public func text(_ text: String) {
        cimgui_text(text)
    }

    /// A button; true in the frame it is clicked.
    @discardableResult
    public func button(_ label: String) -> Bool {
        cimgui_button(label)
    }

    /// A checkbox for `value`; true when it changed it.
    @discardableResult
    public func checkbox(_ label: String, _ value: inout Bool) -> Bool {
        cimgui_checkbox(label, &value)
    }

    /// A slider for `value` in `range`; true when it changed it.
    @discardableResult
    public func slider(_ label: String, _ value: inout Float, in range: ClosedRange<Float>) -> Bool {
        cimgui_slider_float(label, &value, range.lowerBound, range.upperBound)
    }

    /// A colour editor for `rgb` (three components in 0…1); true when it changed it.
    @discardableResult
    public func colorEdit(_ label: String, _ rgb: inout (Float, Float, Float)) -> Bool {
        withUnsafeMutableBytes(of: &rgb) { cimgui_color_edit3(label, $0.baseAddress!.assumingMemoryBound(to: Float.self)) }
    }
}
