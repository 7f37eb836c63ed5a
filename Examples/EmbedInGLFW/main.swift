// EmbedInGLFW: renders into a window that GLFW owns, through the Vulkan handshake. GLFW
// makes the X11 window (with no client API: no OpenGL context) and, with
// glfwCreateWindowSurface, the Vulkan surface on SwiftGPU's instance; a SwiftGPU layer
// presents to that surface, which stays GLFW's (the example destroys it once the layer has
// let go of it). GLFW keeps running the window: its events, its size, its close button.
//
//     swift run EmbedInGLFW [--frames 120] [--size 480x320] [--xlib] [--hold]
//
// With --xlib the layer makes the surface itself from GLFW's Xlib Display and Window. With
// --hold the window stays up after the frames (showing the last) until Q or its close box.
//
// GLFW's window focus and iconify callbacks drive the app lifecycle, so rendering stops
// while the window is minimised and the frames are not drawn while it is not focused.
import AppLifecycle
import CGLFW
import ExampleSupport
import Foundation
import GPU

let frameLimit = option("--frames").flatMap(Int.init) ?? 120
let size = (option("--size") ?? "480x320").split(separator: "x").compactMap { Int32($0) }
guard frameLimit > 0, size.count == 2, size.allSatisfy({ $0 > 0 }) else { fail("--frames takes N > 0, --size WIDTHxHEIGHT") }

guard glfwInit() == GLFW_TRUE else { fail("glfwInit failed (is DISPLAY set?)") }
defer { glfwTerminate() }
glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API)
guard let window = glfwCreateWindow(size[0], size[1], "SwiftGPU in a GLFW window", nil, nil) else {
    fail("glfwCreateWindow failed")
}
defer { glfwDestroyWindow(window) }

// The host's window state, as GLFW reports it, mapped onto the lifecycle. GLFW's callbacks
// are C function pointers: they reach the state through this global, touched only on the
// main thread (glfwPollEvents runs them).
nonisolated(unsafe) var windowState = (focused: true, visible: true)
func reportWindowState() {
    AppLifecycle.shared.hostWindowDidChange(isFocused: windowState.focused, isVisible: windowState.visible)
}
glfwSetWindowFocusCallback(window) { _, focused in
    windowState.focused = focused == GLFW_TRUE
    reportWindowState()
}
glfwSetWindowIconifyCallback(window) { _, iconified in
    windowState.visible = iconified != GLFW_TRUE
    reportWindowState()
}
glfwSetKeyCallback(window) { window, key, _, action, _ in
    if key == GLFW_KEY_Q && action == GLFW_PRESS { glfwSetWindowShouldClose(window, GLFW_TRUE) }
}

/// Frames rendered, and how many of them were shown (both on the main thread).
nonisolated(unsafe) var frames = 0
nonisolated(unsafe) var shown = 0

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let handles = device.vulkanHandles
    // The handshake: GLFW's surface needs instance extensions that SwiftGPU's instance must have.
    var extensionCount: UInt32 = 0
    let required = glfwGetRequiredInstanceExtensions(&extensionCount).map { names in
        (0..<Int(extensionCount)).compactMap { names[$0].map { String(cString: $0) } }
    } ?? []
    let missing = required.filter { !handles.instanceExtensions.contains($0) }
    guard missing.isEmpty else { fail("SwiftGPU's Vulkan instance lacks \(missing), which GLFW's surfaces need") }
    let hostSurface: OpaquePointer?
    let surface: LayerSurface
    if CommandLine.arguments.contains("--xlib") {
        guard let display = glfwGetX11Display() else { fail("GLFW is not running on X11") }
        hostSurface = nil
        surface = .xlib(display: display, window: UInt(glfwGetX11Window(window)))
    } else {
        var made: UnsafeMutableRawPointer?
        let result = glfwCreateWindowSurface(UnsafeMutableRawPointer(handles.instance), window, nil, &made)
        guard result == 0, let made else { fail("glfwCreateWindowSurface failed (VkResult \(result))") }
        hostSurface = OpaquePointer(made)
        surface = .vulkan(surface: OpaquePointer(made))
    }
    try render(device: device, queue: queue, layer: Layer(device: device, surface: surface))
    let route = hostSurface != nil ? "GLFW's Vulkan surface" : "an Xlib surface SwiftGPU made"
    say("rendered \(frames) frames into it through \(route) on \(device.name); \(shown) shown")
    if CommandLine.arguments.contains("--hold") {
        say("holding the last frame; Q closes the window")
        while glfwWindowShouldClose(window) == GLFW_FALSE { glfwWaitEvents() }
    }
    // The layer is gone with render(...); the surface is GLFW's, destroyed once SwiftGPU's
    // swapchains on it are gone.
    if let hostSurface {
        guard Layer.waitUntilReleased(hostSurface: hostSurface) else { fail("the layer still held the surface after 5 s") }
        swiftgpu_glfw_destroy_surface(UnsafeMutableRawPointer(handles.instance), UnsafeMutableRawPointer(hostSurface))
        say("GLFW's surface destroyed after the layer let go of it")
    }
} catch {
    fail("\(error)")
}

/// Renders `frameLimit` frames of the triangle into `layer`, while GLFW runs the window.
func render(device: Device, queue: CommandQueue, layer: Layer) throws {
    let scene = try TriangleScene(device: device, queue: queue, pixelFormat: layer.pixelFormat)
    while frames < frameLimit, glfwWindowShouldClose(window) == GLFW_FALSE {
        glfwPollEvents()
        guard let drawable = layer.nextDrawable() else {
            // Hidden or not active: wait for GLFW's next event instead of spinning.
            glfwWaitEventsTimeout(0.1)
            continue
        }
        try scene.present(drawable, clear: ClearColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1))
        frames += 1
    }
    // Every drawable's presented handler runs once it is shown or dropped.
    guard scene.waitForPresentedFrames() else { fail("frames were still unpresented after 5 s") }
    shown = scene.shown
    say("window \(glfwGetX11Window(window)) made by GLFW \(String(cString: glfwGetVersionString()))")
}
