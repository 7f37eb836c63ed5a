import FramePacing
import Foundation
import Glibc
import Shaders
import Testing
// Device.makeDefault's test options are internal. `swift build -c release` builds this target
// too, where GPU is not testable; no test runs there.
#if DEBUG
@testable import GPU
#else
import GPU
#endif
import GPUFoundationCompat
import SwiftGPUSupport

/// Pins tests to lavapipe and turns the validation layer on, before the process's Vulkan
/// instance exists. `scripts/test.sh` sets the same; this makes a bare `swift test` match.
package enum TestEnvironment {
    package static let prepared: Bool = {
        #if arch(arm64)
        let arch = "aarch64"
        #else
        let arch = "x86_64"
        #endif
        let lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.\(arch).json"
        if getenv("VK_DRIVER_FILES") == nil, getenv("VK_ICD_FILENAMES") == nil, FileManager.default.fileExists(atPath: lavapipe) {
            setenv("VK_DRIVER_FILES", lavapipe, 1)
        }
        if getenv("GPU_VALIDATION") == nil { setenv("GPU_VALIDATION", "1", 1) }
        return true
    }()

    package static func prepare() { _ = prepared }
}

/// A device, a queue and the bundled shaders, made fresh for one test.
package struct TestGPU {
    package let device: Device
    package let queue: CommandQueue
    package let library: Library

    /// A device without a pipeline-cache file unless `cacheDirectory` names one.
    package init(lifecycle: AppLifecycle = AppLifecycle(), maxCommandBufferCount: Int = 64, pushDescriptors: Bool = true,
                 pushConstants: Bool = true, cacheDirectory: URL? = nil) throws {
        TestEnvironment.prepare()
        #if DEBUG
        device = try Device.makeDefault(lifecycle: lifecycle, usePushDescriptors: pushDescriptors, pushConstantBytes: pushConstants,
                                        cacheDirectory: cacheDirectory?.path)
        queue = try device.makeCommandQueue(maxCommandBufferCount: maxCommandBufferCount)
        library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
        #else
        fatalError("the tests run in debug builds")
        #endif
    }

    package func pipeline(_ name: String) throws -> ComputePipelineState {
        try device.makeComputePipelineState(function: library.makeFunction(name: name))
    }

    /// A command buffer that adds `amount` to the first UInt32 of `counter`.
    package func incrementBuffer(_ counter: Buffer, by amount: UInt32 = 1, on queue: CommandQueue? = nil) throws -> CommandBuffer {
        let commandBuffer = try (queue ?? self.queue).makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        try encodeIncrement(counter, by: amount, into: encoder)
        encoder.endEncoding()
        return commandBuffer
    }

    /// Encodes `result = a + b` over `count` floats (a multiple of 64) with `add.comp`.
    package func encodeAdd(_ a: Buffer, _ b: Buffer, into result: Buffer, count: Int, encoder: ComputeCommandEncoder) throws {
        encoder.setComputePipelineState(try pipeline("add.comp"))
        encoder.setBuffer(a, offset: 0, index: 0)
        encoder.setBuffer(b, offset: 0, index: 1)
        encoder.setBuffer(result, offset: 0, index: 2)
        var n = UInt32(count)
        encoder.setBytes(&n, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: count / 64), threadsPerThreadgroup: Size(width: 64))
    }

    /// Encodes one dispatch that adds `amount` to the first UInt32 of `counter`.
    package func encodeIncrement(_ counter: Buffer, by amount: UInt32, into encoder: ComputeCommandEncoder) throws {
        encoder.setComputePipelineState(try pipeline("increment.comp"))
        encoder.setBuffer(counter, offset: 0, index: 0)
        var amount = amount
        encoder.setBytes(&amount, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
    }
}

/// Fails the test if the validation layer reported anything while it ran, and checks the
/// layer is really on.
package struct ValidatedTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        TestEnvironment.prepare()
        let before = Validation.messageCount
        try await function()
        if test.isSuite { return }
        #expect(Validation.isEnabled, "the Khronos validation layer is not on")
        let after = Validation.messageCount
        #expect(after == before, "validation messages: \(Validation.messages.suffix(after - before))")
    }
}

extension Trait where Self == ValidatedTrait {
    /// Runs with the validation layer on and fails on any validation message.
    package static var validated: ValidatedTrait { ValidatedTrait() }
}

/// A value shared between a test and handlers on other threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    package init(_ value: Value) { self.value = value }
    package func withLock<T>(_ body: (inout Value) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(&value) }
    package var current: Value { withLock { $0 } }
}
