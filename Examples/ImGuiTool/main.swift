// ImGuiTool: Dear ImGui controls over a SwiftGPU scene in one window, both drawn by
// SwiftGPU. GLFW makes the window, its Vulkan surface on SwiftGPU's instance and the
// pointer input; a slider scales the triangle and a colour editor sets the clear colour.
// Each frame is one command buffer: the scene's pass, then a pass that loads it and draws
// ImGui's draw data with GPUImGui's renderer on top.
//
//     swift run ImGuiTool [--size 480x320] [--frames N]
//
// It runs until Q, the close box, or N frames; then it says what a frame cost: ImGui's part
// (building the interface and encoding its draw data) and the whole frame (from the events
// to the commit, waiting for a drawable included), mean and 95th percentile in ms. It says "ready" once the first frame is
// shown, "scale S" whenever the slider moves and "shown scale S" once the frame drawn at
// that scale is shown (a test clicks the slider with XTest). Minimised, it says how many
// command buffers it had committed, counts ten passes of its loop that found no drawable
// (the lifecycle is in the background) and says the count again; restored, it says both
// once more and "drawing resumed at N" once the next commit is shown.
import AppLifecycle
import CGLFW
import ExampleSupport
import Foundation
import GPU
import GPUImGui

let size = (option("--size") ?? "480x320").split(separator: "x").compactMap { Int32($0) }
let frameLimit = option("--frames").flatMap(Int.init) ?? Int.max
guard size.count == 2, size.allSatisfy({ $0 > 0 }), frameLimit > 0 else { fail("--size takes WIDTHxHEIGHT, --frames N > 0") }

guard glfwInit() == GLFW_TRUE else { fail("glfwInit failed (is DISPLAY set?)") }
defer { glfwTerminate() }
glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API)
guard let window = glfwCreateWindow(size[0], size[1], "SwiftGPU with Dear ImGui", nil, nil) else { fail("glfwCreateWindow failed") }
defer { glfwDestroyWindow(window) }
glfwSetKeyCallback(window) { window, key, _, action, _ in
    if key == GLFW_KEY_Q && action == GLFW_PRESS { glfwSetWindowShouldClose(window, GLFW_TRUE) }
}
// The primary button, latched: a press and release that arrive between two frames still
// count as a press in the next one. Touched only on the main thread (glfwPollEvents runs
// the callback).
nonisolated(unsafe) var button = (down: false, pressedSinceFrame: false)
glfwSetMouseButtonCallback(window) { _, which, action, _ in
    guard which == GLFW_MOUSE_BUTTON_LEFT else { return }
    button.down = action == GLFW_PRESS
    if action == GLFW_PRESS { button.pressedSinceFrame = true }
}
// Command buffers committed, and the loop's passes since the window was minimised (nil
// while it is not). Touched only on the main thread.
nonisolated(unsafe) var committed = 0
nonisolated(unsafe) var hidden: (passes: Int, committedAtHide: Int)?
nonisolated(unsafe) var resumed = false
// A hidden (iconified) window sends the app to the background: no frames are drawn.
glfwSetWindowIconifyCallback(window) { _, iconified in
    AppLifecycle.shared.hostWindowDidChange(isFocused: iconified != GLFW_TRUE, isVisible: iconified != GLFW_TRUE)
    if iconified == GLFW_TRUE {
        hidden = (0, committed)
        say("hidden after \(committed) submissions; lifecycle \(AppLifecycle.shared.state)")
    } else if let wasHidden = hidden {
        say("shown after \(wasHidden.passes) frames hidden: \(committed) submissions (\(wasHidden.committedAtHide) at hiding)")
        hidden = nil
        resumed = true
    }
}

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    var made: UnsafeMutableRawPointer?
    let result = glfwCreateWindowSurface(UnsafeMutableRawPointer(device.vulkanHandles.instance), window, nil, &made)
    guard result == 0, let made else { fail("glfwCreateWindowSurface failed (VkResult \(result))") }
    let hostSurface = OpaquePointer(made)
    try run(device: device, queue: queue, layer: Layer(device: device, surface: .vulkan(surface: hostSurface)))
    guard Layer.waitUntilReleased(hostSurface: hostSurface) else { fail("the layer still held the surface after 5 s") }
    swiftgpu_glfw_destroy_surface(UnsafeMutableRawPointer(device.vulkanHandles.instance), UnsafeMutableRawPointer(hostSurface))
} catch {
    fail("\(error)")
}

/// The frame loop: GLFW's events and pointer, ImGui's frame, the scene and the controls.
func run(device: Device, queue: CommandQueue, layer: Layer) throws {
    let scene = try TriangleScene(device: device, queue: queue, pixelFormat: layer.pixelFormat)
    let context = ImGuiContext()
    let renderer = try ImGuiRenderer(device: device, colorPixelFormat: layer.pixelFormat)
    try renderer.uploadFontAtlas()
    var scale: Float = 0.5
    var clear: (Float, Float, Float) = (0.1, 0.1, 0.15)
    var announced = false
    var lastCommandBuffer: CommandBuffer?
    var imguiTimes: [Double] = []
    var frameTimes: [Double] = []
    say("window \(glfwGetX11Window(window))")
    var last = glfwGetTime()
    while committed < frameLimit, glfwWindowShouldClose(window) == GLFW_FALSE {
        let frameStart = glfwGetTime()
        glfwPollEvents()
        guard let drawable = layer.nextDrawable() else {
            if let wasHidden = hidden {
                hidden?.passes += 1
                if wasHidden.passes + 1 == 10 { say("hidden for 10 frames: \(committed) submissions") }
            }
            glfwWaitEventsTimeout(0.1)   // hidden: wait for GLFW's next event instead of spinning
            continue
        }
        let imguiStart = glfwGetTime()
        var pointer = (x: 0.0, y: 0.0)
        glfwGetCursorPos(window, &pointer.x, &pointer.y)
        let now = glfwGetTime()
        let size = layer.drawableSize
        context.newFrame(size: (Float(size.width), Float(size.height)), delta: Float(now - last),
                         pointer: (Float(pointer.x), Float(pointer.y)),
                         pressed: button.down || button.pressedSinceFrame)
        button.pressedSinceFrame = false
        last = now
        var changed: Float?
        context.window("Controls", origin: (10, 10), size: (220, 90)) {
            if context.slider("scale", &scale, in: 0.1...1) { changed = scale }
            context.colorEdit("clear", &clear)
        }
        let drawData = context.render()
        var imguiTime = glfwGetTime() - imguiStart
        let commandBuffer = try scene.draw(into: drawable.texture, clear: ClearColor(red: Double(clear.0), green: Double(clear.1),
                                                                                   blue: Double(clear.2), alpha: 1),
                                           scale: scale)
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = drawable.texture
        pass.colorAttachments[0].loadAction = .load
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        let encodeStart = glfwGetTime()
        try renderer.encode(drawData, into: encoder, of: commandBuffer, targetSize: Size(width: size.width, height: size.height))
        encoder.endEncoding()
        imguiTime += glfwGetTime() - encodeStart
        if let changed {
            say("scale \(changed)")
            drawable.addPresentedHandler { _ in say("shown scale \(changed)") }
        }
        if !announced {
            announced = true
            drawable.addPresentedHandler { _ in say("ready") }
        }
        commandBuffer.present(drawable)
        commandBuffer.commit()
        committed += 1
        if resumed {
            resumed = false
            let resumedAt = committed
            drawable.addPresentedHandler { _ in say("drawing resumed at \(resumedAt)") }
        }
        lastCommandBuffer = commandBuffer
        imguiTimes.append(imguiTime * 1000)
        frameTimes.append((glfwGetTime() - frameStart) * 1000)
    }
    lastCommandBuffer?.waitUntilCompleted()
    say("drew \(committed) frames; \(Validation.messageCount) validation messages")
    say("imgui per frame: \(summary(imguiTimes)); whole frame: \(summary(frameTimes))")
}
