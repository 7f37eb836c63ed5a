// EmbedInGLFW: renders into a window that GLFW owns. GLFW makes the X11 window (with no
// client API: no OpenGL context); the example takes its Xlib Display and Window from GLFW
// and gives them to a SwiftGPU layer, which makes the Vulkan surface itself. GLFW keeps
// running the window: its events, its size, its close button.
//
//     swift run EmbedInGLFW [--frames 120] [--size 480x320]
//
// GLFW's window focus and iconify callbacks drive the app lifecycle, so rendering stops
// while the window is minimised and the frames are not drawn while it is not focused.
import AppLifecycle
import CGLFW
import Foundation
import GPU
import Shaders
import Synchronization

func option(_ name: String) -> String? {
    CommandLine.arguments.firstIndex(of: name).flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
}

func fail(_ message: String) -> Never {
    print("error: \(message)")
    exit(1)
}

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

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
    guard let display = glfwGetX11Display() else { fail("GLFW is not running on X11") }
    let layer = try Layer(device: device, surface: .xlib(display: display, window: UInt(glfwGetX11Window(window))))

    let descriptor = RenderPipelineDescriptor()
    descriptor.vertexFunction = try library.makeFunction(name: "triangle.vert")
    descriptor.fragmentFunction = try library.makeFunction(name: "color.frag")
    let layout = VertexDescriptor()
    layout.attributes[0].format = .float2             // position
    layout.attributes[1].format = .float4             // colour
    layout.attributes[1].offset = 8
    layout.layouts[0].stride = 24
    descriptor.vertexDescriptor = layout
    descriptor.colorAttachments[0].pixelFormat = layer.pixelFormat
    let pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
    let vertices: [Float] = [0, 0.8, 1, 0, 0, 1, 0.8, -0.8, 0, 1, 0, 1, -0.8, -0.8, 0, 0, 1, 1]
    let vertexBuffer = try vertices.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }

    let shown = Mutex(0)
    let handled = DispatchGroup()
    var frames = 0
    while frames < frameLimit, glfwWindowShouldClose(window) == GLFW_FALSE {
        glfwPollEvents()
        guard let drawable = layer.nextDrawable() else {
            // Hidden or not active: wait for GLFW's next event instead of spinning.
            glfwWaitEventsTimeout(0.1)
            continue
        }
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = ClearColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertexBuffer, offset: 0, index: 0)
        var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        handled.enter()
        drawable.addPresentedHandler { drawable in
            if drawable.presentedTime > 0 { shown.withLock { $0 += 1 } }
            handled.leave()
        }
        commandBuffer.present(drawable)
        commandBuffer.commit()
        frames += 1
    }
    // Every drawable's presented handler runs once it is shown or dropped.
    guard handled.wait(timeout: .now() + 5) == .success else { fail("frames were still unpresented after 5 s") }
    print("window \(glfwGetX11Window(window)) made by GLFW \(String(cString: glfwGetVersionString()))")
    print("rendered \(frames) frames into it through an Xlib surface on \(device.name); \(shown.withLock { $0 }) shown")
    withExtendedLifetime(layer) {}
} catch {
    fail("\(error)")
}
