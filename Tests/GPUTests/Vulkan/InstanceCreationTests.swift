import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// SwiftGPU's own instance: with validation off (an app's launch) it asks the loader for
/// every extension it wants at once and lists what the loader offers only when one is
/// missing; with validation on it lists first, so the layer's messenger sees no refusal.
///
/// Each case makes and destroys instances in a child process of its own: the validation
/// layer of Debian 12 keeps its instances in a map without a lock, so an instance made and
/// destroyed here while other tests call into their devices could corrupt that map.
@Suite("Instance creation", .validated)
struct InstanceCreationTests {
    @Test("with validation on, an extension the loader lacks is left out before asking; the others are enabled")
    func missingExtensionListedOut() async {
        await #expect(processExitsWith: .success) {
            setenv("GPU_VALIDATION", "1", 1)
            let absent = "VK_SWIFTGPU_not_an_extension"
            guard let shared = try? BackendInstance.shared(),
                  let instance = try? BackendInstance(wanted: BackendInstance.wantedExtensions + [absent], destroysOnDeinit: true)
            else { exit(1) }
            guard instance.validation, !instance.enabledExtensions.contains(absent),
                  instance.enabledExtensions == shared.enabledExtensions,
                  instance.enabledExtensions.isSuperset(of: ["VK_KHR_surface", "VK_EXT_debug_utils"]),
                  (try? instance.physicalDevices().isEmpty) == false else { exit(2) }
            // No message from the loader or the layer, making or destroying it.
            _ = consume instance
            exit(Validation.messageCount == 0 ? 0 : 3)
        }
    }

    @Test("with validation off, all wanted extensions in one try, and a missing one left out on a second")
    func askedAtOnceWithoutValidation() async {
        await #expect(processExitsWith: .success) {
            setenv("GPU_VALIDATION", "0", 1)
            let wanted = ["VK_KHR_surface", "VK_EXT_debug_utils"]
            guard let direct = try? BackendInstance(wanted: wanted, destroysOnDeinit: true),
                  !direct.validation, direct.enabledExtensions == Set(wanted) else { exit(1) }
            guard let retried = try? BackendInstance(wanted: wanted + ["VK_SWIFTGPU_not_an_extension"], destroysOnDeinit: true),
                  retried.enabledExtensions == Set(wanted), (try? retried.physicalDevices().isEmpty) == false else { exit(2) }
            exit(0)
        }
    }
}
