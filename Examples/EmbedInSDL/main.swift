// EmbedInSDL: SDL2 owns the window, the Vulkan instance is the app's own, and SDL makes the
// surface; SwiftGPU adopts the instance for its device and presents to SDL's surface. This
// is the handshake from the host's side, destruction order included:
//
//   1. the app makes its VkInstance with SDL's instance extensions and SwiftGPU's
//      (Device.requiredVulkanInstanceExtensions), for Vulkan 1.3;
//   2. SDL_Vulkan_CreateSurface makes the surface; Device.makeDefault(adopting:) the device;
//   3. a Layer presents to the surface; SDL's window events drive the app lifecycle;
//   4. at the end the app lets go of the layer and waits until SwiftGPU has too
//      (Layer.waitUntilReleased) before destroying the surface, then of the device
//      (Device.waitUntilReleased) before destroying the instance.
//
//     swift run EmbedInSDL [--frames 120] [--size 480x320] [--hold]
//
// With --hold the window stays up after the frames (showing the last) until Q or its close box.
import AppLifecycle
import CSDL2
import CVulkan
import ExampleSupport
import Foundation
import GPU

let frameLimit = option("--frames").flatMap(Int.init) ?? 120
let size = (option("--size") ?? "480x320").split(separator: "x").compactMap { Int32($0) }
guard frameLimit > 0, size.count == 2, size.allSatisfy({ $0 > 0 }) else { fail("--frames takes N > 0, --size WIDTHxHEIGHT") }

guard SDL_Init(SDL_INIT_VIDEO) == 0 else { fail("SDL_Init failed: \(String(cString: SDL_GetError()))") }
defer { SDL_Quit() }
let flags = SDL_WINDOW_VULKAN.rawValue | SDL_WINDOW_SHOWN.rawValue
// SDL_WINDOWPOS_UNDEFINED, which does not import into Swift.
let undefinedPosition: Int32 = 0x1FFF_0000
guard let window = SDL_CreateWindow("SwiftGPU in an SDL window", undefinedPosition, undefinedPosition, size[0], size[1], flags) else {
    fail("SDL_CreateWindow failed: \(String(cString: SDL_GetError()))")
}
defer { SDL_DestroyWindow(window) }
var windowInfo = SDL_SysWMinfo()
SDL_GetVersion(&windowInfo.version)
guard SDL_GetWindowWMInfo(window, &windowInfo) == SDL_TRUE else { fail("SDL_GetWindowWMInfo failed") }
say("window \(windowInfo.info.x11.window) made by SDL \(SDL_MAJOR_VERSION).\(SDL_MINOR_VERSION).\(SDL_PATCHLEVEL)")

/// SDL's instance extensions for this window.
@MainActor
func sdlInstanceExtensions() -> [String] {
    var count: UInt32 = 0
    guard SDL_Vulkan_GetInstanceExtensions(window, &count, nil) == SDL_TRUE else { return [] }
    var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(count))
    guard SDL_Vulkan_GetInstanceExtensions(window, &count, &names) == SDL_TRUE else { return [] }
    return names.prefix(Int(count)).compactMap { $0.map { String(cString: $0) } }
}

/// The app's own instance: SDL's extensions and SwiftGPU's, debug labels, and the
/// validation layer when GPU_VALIDATION asks for it (SwiftGPU then reports its messages).
func makeInstance(extensions: [String], layers: [String]) -> OpaquePointer {
    var app = VkApplicationInfo()
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
    app.apiVersion = Device.vulkanAPIVersion
    var instance: VkInstance?
    let duplicates = (extensions + layers).map { strdup($0) }
    defer { duplicates.forEach { free($0) } }
    let pointers = duplicates.map { UnsafePointer<CChar>($0) }
    let result = pointers.withUnsafeBufferPointer { names in
        withUnsafePointer(to: &app) { app in
            var info = VkInstanceCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            info.pApplicationInfo = app
            info.enabledExtensionCount = UInt32(extensions.count)
            info.ppEnabledExtensionNames = names.baseAddress
            info.enabledLayerCount = UInt32(layers.count)
            info.ppEnabledLayerNames = names.baseAddress.map { $0 + extensions.count }
            return vkCreateInstance(&info, nil, &instance)
        }
    }
    guard result == VK_SUCCESS, let instance else { fail("vkCreateInstance failed (VkResult \(result.rawValue))") }
    return instance
}

// SDL on X11 asks for Xlib surfaces.
let extensions = Array(Set(sdlInstanceExtensions() + Device.requiredVulkanInstanceExtensions(for: [.xlib]) + ["VK_EXT_debug_utils"]))
    .sorted()
let layers = Validation.isRequested ? ["VK_LAYER_KHRONOS_validation"] : []
let instance = makeInstance(extensions: extensions, layers: layers)
var madeSurface: VkSurfaceKHR?
guard SDL_Vulkan_CreateSurface(window, instance, &madeSurface) == SDL_TRUE, let surface = madeSurface else {
    fail("SDL_Vulkan_CreateSurface failed: \(String(cString: SDL_GetError()))")
}

/// Maps SDL's window events onto the lifecycle, renders `frameLimit` frames, and with
/// --hold keeps the window up until Q or its close box: the device, queue and layer go
/// when it returns.
@MainActor
func run() throws {
    let host = ExternalVulkanInstance(instance: instance, apiVersion: Device.vulkanAPIVersion, enabledExtensions: extensions,
                                      enabledLayers: layers)
    let device = try Device.makeDefault(adopting: host)
    let queue = try device.makeCommandQueue()
    let layer = try Layer(device: device, surface: .vulkan(surface: surface))
    let scene = try TriangleScene(device: device, queue: queue, pixelFormat: layer.pixelFormat)
    var state = (focused: true, visible: true)
    var frames = 0
    var quit = false
    func handleEvents(wait: Bool) {
        var event = SDL_Event()
        var got = wait ? SDL_WaitEventTimeout(&event, 100) : SDL_PollEvent(&event)
        while got != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT: quit = true
            case SDL_KEYDOWN where event.key.keysym.sym == SDL_Keycode(SDLK_q.rawValue): quit = true
            case SDL_WINDOWEVENT:
                switch SDL_WindowEventID(UInt32(event.window.event)) {
                case SDL_WINDOWEVENT_FOCUS_GAINED: state.focused = true
                case SDL_WINDOWEVENT_FOCUS_LOST: state.focused = false
                case SDL_WINDOWEVENT_MINIMIZED, SDL_WINDOWEVENT_HIDDEN: state.visible = false
                case SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN: state.visible = true
                default: break
                }
                AppLifecycle.shared.hostWindowDidChange(isFocused: state.focused, isVisible: state.visible)
            default: break
            }
            got = SDL_PollEvent(&event)
        }
    }
    while frames < frameLimit, !quit {
        handleEvents(wait: false)
        // Hidden or not active: wait for SDL's next event instead of spinning.
        guard let drawable = layer.nextDrawable() else {
            handleEvents(wait: true)
            continue
        }
        try scene.present(drawable, clear: ClearColor(red: 0.15, green: 0.1, blue: 0.1, alpha: 1))
        frames += 1
    }
    guard scene.waitForPresentedFrames() else { fail("frames were still unpresented after 5 s") }
    say("rendered \(frames) frames through SDL's Vulkan surface on \(device.name), on the app's own instance; \(scene.shown) shown")
    if CommandLine.arguments.contains("--hold") {
        say("holding the last frame; Q closes the window")
        while !quit { handleEvents(wait: true) }
    }
}

do {
    try run()
} catch {
    fail("\(error)")
}
// SwiftGPU's objects may outlive run() briefly (completion threads, the recycler): the
// surface and the instance are destroyed only once SwiftGPU has let go of them.
guard Layer.waitUntilReleased(hostSurface: surface) else { fail("the layer still held the surface after 5 s") }
vkDestroySurfaceKHR(instance, surface, nil)
guard Device.waitUntilReleased(hostInstance: instance) else { fail("the device still held the instance after 5 s") }
vkDestroyInstance(instance, nil)
say("surface and instance destroyed after SwiftGPU let go of them; \(Validation.messageCount) validation messages")
