import CVulkan
import GPUTestSupport
import Testing
@testable import GPU

/// Lists read in one call: a guess at the length, grown when the implementation answers
/// `VK_INCOMPLETE`, and the same items, in the same order, as the usual count-then-fill pair.
@Suite("Vulkan list enumeration", .validated)
struct VulkanEnumerationTests {
    /// How many times a reader was called.
    final class Calls { var count = 0 }

    /// A list of `items` read as a Vulkan implementation hands one out: up to `count`
    /// items written, `count` set to how many, `VK_INCOMPLETE` when some were left.
    static func reader(of items: [Int], calls: Calls) -> (inout UInt32, UnsafeMutablePointer<Int>) -> VkResult {
        { count, destination in
            calls.count += 1
            let written = min(Int(count), items.count)
            for index in 0..<written { destination[index] = items[index] }
            count = UInt32(written)
            return written < items.count ? VK_INCOMPLETE : VK_SUCCESS
        }
    }

    @Test("a list within the guess takes one call; a longer one grows until it fits, every item in order")
    func growsOnIncomplete() throws {
        let calls = Calls()
        let short = try enumerated(initialCapacity: 8, filler: -1, Self.reader(of: [3, 1, 2], calls: calls))
        #expect(short == [3, 1, 2])
        #expect(calls.count == 1)

        calls.count = 0
        let long = Array(100..<117)
        #expect(try enumerated(initialCapacity: 2, filler: -1, Self.reader(of: long, calls: calls)) == long)
        #expect(calls.count == 5)   // room for 2, 4, 8, 16, then 32

        calls.count = 0
        #expect(try enumerated(initialCapacity: 0, filler: -1, Self.reader(of: [], calls: calls)).isEmpty)
        #expect(calls.count == 1)
    }

    @Test("a failed read is thrown as it came")
    func failureThrown() {
        let failure = VulkanError(code: .outOfHostMemory, callSite: "vkEnumeratePhysicalDevices")
        #expect(throws: failure) {
            try enumerated(initialCapacity: 4, filler: 0) { (_, _) throws(VulkanError) -> VkResult in throw failure }
        }
    }

    @Test("physical devices and a device's extensions: the same as the loader's count-then-fill pair gives")
    func sameAsTwoCalls() throws {
        let instance = try BackendInstance.shared()
        var count: UInt32 = 0
        vkEnumeratePhysicalDevices(instance.handle, &count, nil)
        var handles = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        vkEnumeratePhysicalDevices(instance.handle, &count, &handles)
        let devices = try instance.physicalDevices()
        try #require(!devices.isEmpty)
        // Every device the pair lists that SwiftGPU can use, in the loader's order.
        let usable = handles.prefix(Int(count)).compactMap { $0 }.filter { handle in devices.contains { $0.handle == handle } }
        #expect(devices.map(\.handle) == usable)

        for device in devices {
            var extensionCount: UInt32 = 0
            vkEnumerateDeviceExtensionProperties(device.handle, nil, &extensionCount, nil)
            var properties = [VkExtensionProperties](repeating: .init(), count: Int(extensionCount))
            vkEnumerateDeviceExtensionProperties(device.handle, nil, &extensionCount, &properties)
            let names = Set(properties.prefix(Int(extensionCount)).map { fixedString($0.extensionName) })
            #expect(!names.isEmpty)
            #expect(device.extensions == names)
        }
    }
}
