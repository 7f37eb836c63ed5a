import CVulkan
import Foundation
import GPUTestSupport
import Shaders
import Testing
@testable import GPU
import GPUFoundationCompat

/// The handshake with a host that has Vulkan objects of its own: a device on the host's
/// instance, SwiftGPU's handles and queue in the host's hands, a layer on the host's
/// surface, and the host's commands inside SwiftGPU's encoders.
@Suite("Vulkan handshake with a host", .validated)
struct VulkanHandshakeTests {
    /// A `VkInstance` made as a host makes one, with the validation layer when the tests ask
    /// for it and SwiftGPU's messenger chained, so that what the layer says while the host
    /// creates and destroys the instance (objects left on it) reaches `Validation` too.
    final class HostInstance {
        let handle: VkInstance
        let extensions: [String]
        let layers: [String]

        init(apiVersion: UInt32 = Device.vulkanAPIVersion, windowSystems: Set<WindowSystem> = [.xcb]) throws {
            TestEnvironment.prepare()
            extensions = Device.requiredVulkanInstanceExtensions(for: windowSystems) + ["VK_EXT_debug_utils"]
            layers = Validation.isRequested ? ["VK_LAYER_KHRONOS_validation"] : []
            var app = VkApplicationInfo()
            app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
            app.apiVersion = apiVersion
            var messenger = BackendInstance.messengerCreateInfo()
            var made: VkInstance?
            let (extensions, layers) = (extensions, layers)
            let result = withCStrings(extensions) { extensionNames in
                withCStrings(layers) { layerNames in
                    withUnsafePointer(to: &app) { app in
                        withUnsafePointer(to: &messenger) { messenger in
                            var info = VkInstanceCreateInfo()
                            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                            info.pNext = UnsafeRawPointer(messenger)
                            info.pApplicationInfo = app
                            info.enabledExtensionCount = UInt32(extensions.count)
                            info.ppEnabledExtensionNames = extensionNames
                            info.enabledLayerCount = UInt32(layers.count)
                            info.ppEnabledLayerNames = layerNames
                            return vkCreateInstance(&info, nil, &made)
                        }
                    }
                }
            }
            guard result == VK_SUCCESS, let made else { throw GPUError.vulkan(VulkanError(code: .initializationFailed, callSite: "vkCreateInstance")) }
            handle = made
        }

        func external(physicalDevice: OpaquePointer? = nil) -> ExternalVulkanInstance {
            ExternalVulkanInstance(instance: handle, apiVersion: Device.vulkanAPIVersion, enabledExtensions: extensions,
                                   enabledLayers: layers, physicalDevice: physicalDevice)
        }

        func physicalDevices() -> [VkPhysicalDevice] {
            var count: UInt32 = 0
            vkEnumeratePhysicalDevices(handle, &count, nil)
            var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
            vkEnumeratePhysicalDevices(handle, &count, &devices)
            return devices.compactMap { $0 }
        }

        /// Destroys the instance, as the host does once SwiftGPU's objects are gone: the
        /// validation layer reports any object still made from it.
        func destroy() { vkDestroyInstance(handle, nil) }
    }

    /// Adds `amount` to the first UInt32 of `counter` on `device` and waits.
    static func increment(_ counter: Buffer, by amount: UInt32, device: Device, queue: CommandQueue) throws {
        let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
        let cb = try queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try device.makeComputePipelineState(function: library.makeFunction(name: "increment.comp")))
        encoder.setBuffer(counter, offset: 0, index: 0)
        var amount = amount
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed, "\(String(describing: cb.error))")
    }

    @Test("a device on the host's instance computes, and leaves nothing on it when it goes")
    func adoptHostInstance() throws {
        let host = try HostInstance()
        let physical = try #require(host.physicalDevices().first)
        for chosen in [nil, physical] {
            do {
                let device = try Device.makeDefault(adopting: host.external(physicalDevice: chosen), lifecycle: AppLifecycle())
                let handles = device.vulkanHandles
                #expect(handles.instance == host.handle)
                #expect(handles.physicalDevice == physical)
                #expect(handles.instanceExtensions == Set(host.extensions))
                let queue = try device.makeCommandQueue()
                let counter = try device.makeBuffer(length: 4)
                try Self.increment(counter, by: 7, device: device, queue: queue)
                #expect(counter.contents().load(as: UInt32.self) == 7)
            }
        }
        // Once SwiftGPU has let go of everything made on the instance, destroying it finds
        // nothing left on it (the validation layer would report a device or messenger).
        #expect(Device.waitUntilReleased(hostInstance: host.handle))
        host.destroy()
    }

    @Test("a compute-only host instance: the device enables no presentation extension, computes with no validation message, and refuses a window layer")
    func adoptHeadlessHostInstance() throws {
        let host = try HostInstance(windowSystems: [])
        #expect(!host.extensions.contains("VK_KHR_surface"))
        do {
            let device = try Device.makeDefault(adopting: host.external(), lifecycle: AppLifecycle())
            let extensions = device.vulkanHandles.deviceExtensions
            #expect(!extensions.contains("VK_KHR_swapchain"))
            #expect(extensions.isDisjoint(with: ["VK_KHR_present_id", "VK_KHR_present_wait", "VK_GOOGLE_display_timing"]))
            let queue = try device.makeCommandQueue()
            let counter = try device.makeBuffer(length: 4)
            try Self.increment(counter, by: 3, device: device, queue: queue)
            #expect(counter.contents().load(as: UInt32.self) == 3)
            // No window is touched: the device refuses before it makes a surface.
            let window = LayerSurface.xcb(connection: OpaquePointer(bitPattern: 0x10)!, window: 1)
            do {
                _ = try Layer(device: device, surface: window)
                Issue.record("a layer was made on a device that cannot present")
            } catch {
                guard case .presentationUnavailable(let reason) = error else {
                    Issue.record("expected presentationUnavailable, got \(error)")
                    return
                }
                #expect(reason.contains("without VK_KHR_surface"))
            }
        }
        #expect(Device.waitUntilReleased(hostInstance: host.handle))
        host.destroy()
    }

    @Test("an instance made for Vulkan 1.2 is refused with the versions in the message")
    func refusesOldInstance() throws {
        let host = try HostInstance(apiVersion: (1 << 22) | (2 << 12))
        defer { host.destroy() }
        var external = host.external()
        external.apiVersion = (1 << 22) | (2 << 12)
        #expect(throws: GPUError.self) { try Device.makeDefault(adopting: external, lifecycle: AppLifecycle()) }
        do {
            _ = try Device.makeDefault(adopting: external, lifecycle: AppLifecycle())
        } catch {
            #expect("\(error)" == "the host's VkInstance was made for Vulkan 1.2; SwiftGPU needs 1.3 or later")
        }
        #expect(Device.requiredVulkanInstanceExtensions(for: []) == [])
        #expect(Device.requiredVulkanInstanceExtensions(for: [.wayland, .xlib])
            == ["VK_KHR_surface", "VK_KHR_xlib_surface", "VK_KHR_wayland_surface"])
    }

    @Test("a layer on a surface the host made: frames reach the window; the surface outlives the layer and takes a second one")
    func layerOnHostSurface() throws {
        let gpu = try TestGPU()
        let server = try XvfbServer(width: 128, height: 128)
        let x = try XcbConnection(display: server.display)
        let window = x.makeWindow(width: 96, height: 64)
        let instance = gpu.device.vulkanHandles.instance
        // The host makes the surface, as SDL_Vulkan_CreateSurface or glfwCreateWindowSurface do.
        var info = SwiftGPUXcbSurfaceCreateInfo(sType: VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR, pNext: nil, flags: 0,
                                                connection: UnsafeMutableRawPointer(x.connection), window: window)
        let create = try #require(unsafeBitCast(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"),
                                                to: SwiftGPUCreateXcbSurface?.self))
        var surface: VkSurfaceKHR?
        #expect(create(instance, &info, nil, &surface) == VK_SUCCESS)
        let hostSurface = try #require(surface)
        for (red, green, expected) in [(1.0, 0.0, [UInt8]([0, 0, 255])), (0, 1, [0, 255, 0])] {
            #expect(Layer.waitUntilReleased(hostSurface: hostSurface), "the earlier layer let go of the surface")
            let layer = try Layer(device: gpu.device, surface: .vulkan(surface: hostSurface))
            #expect(layer.drawableSize == Size2D(width: 96, height: 64))
            let shown = try WindowPresentationTests.presentUntilVisible(gpu, layer, red: red, green: green, expected: expected,
                                                                        at: (48, 32)) {
                try x.pixel(of: window, width: 96, height: 64, x: 48, y: 32)
            }
            #expect(shown, "the layer's frames reach the host's window")
            // The app lets go of the layer; SwiftGPU's references go soon after.
        }
        #expect(Layer.waitUntilReleased(hostSurface: hostSurface))
        // Both layers are gone, and their swapchains with them: destroying the surface now
        // is valid (the validation layer reports a surface destroyed under a swapchain).
        vkDestroySurfaceKHR(instance, hostSurface, nil)
    }
}
