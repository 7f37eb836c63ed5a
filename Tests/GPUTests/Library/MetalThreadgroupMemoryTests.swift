import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's `[[threadgroup(n)]]` kernel arguments, whose lengths
/// `setThreadgroupMemoryLength(_:index:)` gives.
@Suite("Metal Shading Language threadgroup memory arguments", .validated)
struct MetalThreadgroupMemoryTests {
    static let sums = """
        #include <metal_stdlib>
        using namespace metal;
        struct Pair { float value; uint group; };
        kernel void sums(device const float* input [[buffer(0)]], device float2* output [[buffer(1)]],
                         threadgroup float* scratch [[threadgroup(0)]], threadgroup Pair* pairs [[threadgroup(3)]],
                         uint i [[thread_position_in_grid]], uint t [[thread_position_in_threadgroup]],
                         uint n [[threads_per_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
            scratch[t] = input[i];
            pairs[t] = Pair { input[i] * 2, g };
            threadgroup_barrier(mem_flags::mem_threadgroup);
            if (t == 0) {
                float sum = 0, doubled = 0;
                for (uint k = 0; k < n; k++) { sum += scratch[k]; doubled += pairs[k].group == g ? pairs[k].value : -1000; }
                output[g] = float2(sum, doubled);
            }
        }
        """

    /// `sums` over `groups` threadgroups of `width` threads, with `lengths` set by index.
    static func sums(_ gpu: TestGPU, groups: Int, width: Int, lengths: [Int: Int]) throws -> [SIMD2<Float>] {
        let pipeline = try gpu.device.makeComputePipelineState(
            function: try gpu.device.makeLibrary(source: sums, options: nil).makeFunction(name: "sums"))
        let input = try gpu.buffer((0..<(groups * width)).map { Float($0) })
        let output = try gpu.buffer([SIMD2<Float>](repeating: .zero, count: groups))
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            encoder.setBuffer(input, offset: 0, index: 0)
            encoder.setBuffer(output, offset: 0, index: 1)
            for (index, length) in lengths { encoder.setThreadgroupMemoryLength(length, index: index) }
            encoder.dispatchThreadgroups(Size(width: groups), threadsPerThreadgroup: Size(width: width))
        }
        return Array(UnsafeBufferPointer(start: output.contents().bindMemory(to: SIMD2<Float>.self, capacity: groups), count: groups))
    }

    @Test("threadgroup arguments hold the lengths set: each threadgroup's sums through a float array and a struct array, at two sizes")
    func sums() throws {
        let gpu = try TestGPU()
        for width in [32, 64] {
            let groups = 4
            let expected = (0..<groups).map { group in
                let sum = Float((0..<width).map { group * width + $0 }.reduce(0, +))
                return SIMD2(sum, 2 * sum)
            }
            // A Pair is 8 bytes in Metal's layout; the lengths are multiples of 16, as Metal requires.
            #expect(try Self.sums(gpu, groups: groups, width: width, lengths: [0: width * 4, 3: width * 8]) == expected, "\(width)")
        }
        // Lengths that take all the device's threadgroup memory: the kernel declares none of its own.
        let limit = gpu.device.limits.maxThreadgroupMemoryLength
        let all = try Self.sums(gpu, groups: 2, width: 32, lengths: [0: limit - 256, 3: 256])
        #expect(all == (0..<2).map { group in
            let sum = Float((0..<32).map { group * 32 + $0 }.reduce(0, +))
            return SIMD2(sum, 2 * sum)
        })
        let function = try gpu.device.makeLibrary(source: Self.sums, options: nil).makeFunction(name: "sums")
        #expect(function.functionConstantsDictionary.isEmpty)
        #expect(try gpu.device.makeComputePipelineState(function: function).staticThreadgroupMemoryLength == 0)
        #expect(function.threadgroupArguments == [ThreadgroupMemoryArgument(index: 0, countId: 2016, stride: 4),
                                                  ThreadgroupMemoryArgument(index: 3, countId: 2019, stride: 8)])
    }

    @Test("Apple's N-body kernel, unchanged, computes one step of 64 bodies in threadgroups of 32 through its threadgroup positions")
    func appleNBody() throws {
        let gpu = try TestGPU()
        let url = MetalCorpusTests.folder.appending(path: "apple/SelectingDeviceObjectsForComputeProcessing/AAPLKernels.metal")
        let options = CompileOptions()
        options.includeFolders = [url.deletingLastPathComponent().path]
        let library = try gpu.device.makeLibrary(source: String(contentsOf: url, encoding: .utf8), options: options)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "NBodySimulation"))
        let count = 64, width = 32
        let positions = (0..<count).map { i -> SIMD4<Float> in
            let f = Float(i)
            return SIMD4(sin(f * 1.3) * 10, cos(f * 0.7) * 10, sin(f * 0.37) * 5, 1 + Float(i % 5))
        }
        let velocities = (0..<count).map { i in SIMD4<Float>(Float(i % 3) - 1, 0.5, Float(i % 7) * 0.1, 0) }
        // AAPLSimParams: timestep, damping, softeningSqr, numBodies.
        var parameters: (Float, Float, Float, UInt32) = (0.016, 0.99, 0.01, UInt32(count))
        let oldPosition = try gpu.buffer(positions), oldVelocity = try gpu.buffer(velocities)
        let newPosition = try gpu.buffer([SIMD4<Float>](repeating: .zero, count: count))
        let newVelocity = try gpu.buffer([SIMD4<Float>](repeating: .zero, count: count))
        try gpu.compute { encoder in
            encoder.setComputePipelineState(pipeline)
            for (buffer, index) in [(oldPosition, 0), (oldVelocity, 1), (newPosition, 2), (newVelocity, 3)] {
                encoder.setBuffer(buffer, offset: 0, index: index)
            }
            encoder.setBytes(&parameters, length: 16, index: 4)
            encoder.setThreadgroupMemoryLength(width * MemoryLayout<SIMD4<Float>>.stride, index: 0)
            encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: width))
        }
        // The kernel's step, on the CPU, summing in the order its threadgroups do.
        func read(_ buffer: Buffer) -> [SIMD4<Float>] {
            Array(UnsafeBufferPointer(start: buffer.contents().bindMemory(to: SIMD4<Float>.self, capacity: count), count: count))
        }
        let (gotPositions, gotVelocities) = (read(newPosition), read(newVelocity))
        for i in 0..<count {
            var acceleration = SIMD3<Float>.zero
            for other in positions {
                let r = SIMD3(other.x, other.y, other.z) - SIMD3(positions[i].x, positions[i].y, positions[i].z)
                let distance = (r * r).sum() + parameters.2
                let inverse = 1 / distance.squareRoot()
                acceleration += r * (other.w * inverse * inverse * inverse)
            }
            var velocity = velocities[i], position = positions[i]
            let step = (SIMD3(velocity.x, velocity.y, velocity.z) + acceleration * parameters.0) * parameters.1
            velocity = SIMD4(step, velocity.w)
            position = SIMD4(SIMD3(position.x, position.y, position.z) + step * parameters.0, position.w)
            for (got, want, what) in [(gotVelocities[i], velocity, "velocity"), (gotPositions[i], position, "position")] {
                #expect(((got - want) * (got - want)).sum().squareRoot() <= 1e-4 * max(1, (want * want).sum().squareRoot()),
                        "body \(i) \(what): \(got) against \(want)")
            }
        }
    }

    @Test("a dispatch without the argument's length stops, naming the kernel and the index")
    func lengthUnset() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try MetalThreadgroupMemoryTests.sums(TestGPU(), groups: 1, width: 32, lengths: [0: 128])
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): 'sums' has threadgroup "
            + "memory at index 3, and no length is set there (setThreadgroupMemoryLength)"), "\(stderr(result))")
    }

    @Test("a length that holds no element stops at the dispatch")
    func lengthTooShort() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try MetalThreadgroupMemoryTests.sums(TestGPU(), groups: 1, width: 32, lengths: [0: 128, 3: 0])
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): the threadgroup memory "
            + "length 0 at index 3 holds no element of 'sums''s argument there, of 8 bytes"), "\(stderr(result))")
    }

    @Test("lengths over the device's threadgroup memory together stop at the dispatch")
    func lengthsOverLimit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let limit = gpu.device.limits.maxThreadgroupMemoryLength
            _ = try MetalThreadgroupMemoryTests.sums(gpu, groups: 1, width: 32, lengths: [0: limit, 3: 128])
        }
        #expect(stderr(result).contains("would use"), "\(stderr(result))")
        #expect(stderr(result).contains("bytes of threadgroup memory with the lengths set, over this device's maxThreadgroupMemoryLength"),
                "\(stderr(result))")
    }

    @Test("a length that is not a multiple of 16 stops where it is set")
    func lengthNotMultiple() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try TestGPU().queue.makeCommandBuffer().makeComputeCommandEncoder().setThreadgroupMemoryLength(24, index: 0)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setThreadgroupMemoryLength(_:index:): length 24 at index 0 is not "
            + "a multiple of 16"), "\(stderr(result))")
    }

    @Test("an index past 30 stops where it is set")
    func indexPastLast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try TestGPU().queue.makeCommandBuffer().makeComputeCommandEncoder().setThreadgroupMemoryLength(16, index: 31)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setThreadgroupMemoryLength(_:index:): index 31 is outside 0...30"),
                "\(stderr(result))")
    }
}
