import GPUTestSupport
import Metal
import Testing

/// Metal's device functions and the factories that return `nil` where SwiftGPU's throw.
@Suite("Metal's device", .validated)
struct MTLDeviceTests {
    @Test("MTLCreateSystemDefaultDevice() and MTLCopyAllDevices() find the device")
    func devices() {
        let device = MTLCreateSystemDefaultDevice()
        #expect(device != nil)
        let all = MTLCopyAllDevices()
        #expect(!all.isEmpty)
        #expect(all.contains { $0.name == device?.name })
    }

    @Test("a buffer longer than the device allows is nil, as in Metal")
    func bufferTooLong() {
        let device = MTLCreateSystemDefaultDevice()!
        #expect(device.makeBuffer(length: Int.max, options: []) == nil)
        #expect(device.makeBuffer(length: 16, options: []) != nil)
    }

    @Test("a function the library lacks is nil, as in Metal")
    func missingFunction() throws {
        let device = MTLCreateSystemDefaultDevice()!
        let library = try device.makeLibrary(source: MTLComputeCommandEncoderTests.addArrays, options: nil)
        #expect(library.makeFunction(name: "add_arrays") == nil)
        #expect(library.makeFunction(name: "main") != nil)
        #expect(library.functionNames == ["main"])
    }

    @Test("misuse: a function that is not SwiftGPU's stops makeComputePipelineState(function:)")
    func foreignFunction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestEnvironment.prepare()
            struct ForeignFunction: MTLFunction { var name: String { "kernel" } }
            let device = MTLCreateSystemDefaultDevice()!
            _ = try? device.makeComputePipelineState(function: ForeignFunction())
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: makeComputePipelineState(function:): ForeignFunction is not a SwiftGPU Function"))
    }
}
