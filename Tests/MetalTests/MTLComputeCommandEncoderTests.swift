import GPUTestSupport
import Metal
import Testing

/// A compute pass written as for Apple's Metal: optionals unwrapped with `!` and
/// `guard let`, `MTLSizeMake`, `contents()`; only the kernel is GLSL.
@Suite("Metal's compute names", .validated)
struct MTLComputeCommandEncoderTests {
    static let addArrays = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x_id = 0) in;
        layout(std430, binding = 0) readonly buffer InA { float inA[]; };
        layout(std430, binding = 1) readonly buffer InB { float inB[]; };
        layout(std430, binding = 2) writeonly buffer Result { float result[]; };
        void main() {
            uint index = gl_GlobalInvocationID.x;
            result[index] = inA[index] + inB[index];
        }
        """

    /// Encodes the add kernel over `count` floats, with `dispatch` choosing the call.
    static func add(count: Int, dispatch: (MTLComputeCommandEncoder, MTLComputePipelineState) -> Void) throws -> [Float] {
        let device = MTLCreateSystemDefaultDevice()!
        guard let commandQueue = device.makeCommandQueue() else {
            Issue.record("no command queue")
            return []
        }
        let library = try device.makeLibrary(source: addArrays, options: nil)
        let addFunction = library.makeFunction(name: "main")!
        let pipelineState = try device.makeComputePipelineState(function: addFunction)

        let length = count * MemoryLayout<Float>.stride
        let bufferA = device.makeBuffer(length: length, options: .storageModeShared)!
        var values = (0..<count).map { Float($0) }
        let bufferB = device.makeBuffer(bytes: &values, length: length, options: .storageModeShared)!
        let bufferResult = device.makeBuffer(length: length, options: MTLResourceOptions.storageModeShared)!
        let a = bufferA.contents().bindMemory(to: Float.self, capacity: count)
        for index in 0..<count { a[index] = Float(index) * 10 }

        let commandBuffer = commandQueue.makeCommandBuffer()!
        let computeEncoder = commandBuffer.makeComputeCommandEncoder()!
        computeEncoder.setComputePipelineState(pipelineState)
        computeEncoder.setBuffer(bufferA, offset: 0, index: 0)
        computeEncoder.setBuffer(bufferB, offset: 0, index: 1)
        computeEncoder.setBuffer(bufferResult, offset: 0, index: 2)
        dispatch(computeEncoder, pipelineState)
        computeEncoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)

        let result = bufferResult.contents().bindMemory(to: Float.self, capacity: count)
        return Array(UnsafeBufferPointer(start: result, count: count))
    }

    @Test("dispatchThreads(_:threadsPerThreadgroup:) over MTLSizeMake grids adds two buffers")
    func dispatchThreads() throws {
        let count = 1000
        let result = try Self.add(count: count) { encoder, pipeline in
            let width = min(pipeline.maxTotalThreadsPerThreadgroup, count)
            encoder.dispatchThreads(MTLSizeMake(count, 1, 1), threadsPerThreadgroup: MTLSizeMake(width, 1, 1))
        }
        #expect(result == (0..<count).map { Float($0) * 11 })
    }

    @Test("dispatchThreadgroups(_:threadsPerThreadgroup:) covers the threadgroups it names, and no more")
    func dispatchThreadgroups() throws {
        let result = try Self.add(count: 256) { encoder, pipeline in
            // 3 groups of 64: the first 192 elements; the rest stay zero.
            encoder.dispatchThreadgroups(MTLSize(width: 3, height: 1, depth: 1),
                                         threadsPerThreadgroup: MTLSizeMake(64, 1, 1))
        }
        #expect(result == (0..<256).map { $0 < 192 ? Float($0) * 11 : 0 })
    }

    @Test("misuse: a buffer that is not SwiftGPU's stops setBuffer(_:offset:index:), naming the call and the type")
    func foreignBuffer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestEnvironment.prepare()
            final class ForeignBuffer: MTLBuffer, @unchecked Sendable {
                var length: Int { 4 }
                var label: String?
                func contents() -> UnsafeMutableRawPointer { UnsafeMutableRawPointer.allocate(byteCount: 4, alignment: 4) }
            }
            let device = MTLCreateSystemDefaultDevice()!
            let encoder = device.makeCommandQueue()!.makeCommandBuffer()!.makeComputeCommandEncoder()!
            encoder.setBuffer(ForeignBuffer(), offset: 0, index: 0)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setBuffer(_:offset:index:): ForeignBuffer is not a SwiftGPU Buffer"))
    }
}
