import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// A blit encoder's `resolveCounters(_:range:destinationBuffer:destinationOffset:)`: the
/// GPU writes the values `resolveCounterRange(_:)` gives on the CPU.
@Suite("Counters resolved on the GPU", .validated)
struct ResolveCountersTests {
    @Test("the kernel's words are glslc's output for its source, as the SPIRVCompiler plugin compiles it")
    func kernelWordsMatchTheSource() throws {
        let compiled = try GLSLC.compile(CounterResolveKernel.source, stage: "comp", options: ["--target-env=vulkan1.2", "-O"])
        let words = compiled.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(words == CounterResolveKernel.words)
    }

    /// The `UInt64`s of `buffer` (shared) from byte `offset`.
    static func values(_ buffer: Buffer, offset: Int = 0, count: Int) -> [UInt64] {
        (0..<count).map { buffer.contents().load(fromByteOffset: offset + 8 * $0, as: UInt64.self) }
    }

    /// Resolves `range` of `samples` into `destination` from `offset` in a command buffer of
    /// its own, which must complete.
    static func resolve(_ gpu: TestGPU, _ samples: CounterSampleBuffer, _ range: Range<Int>, into destination: Buffer,
                        offset: Int) throws {
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.resolveCounters(samples, range: range, destinationBuffer: destination, destinationOffset: offset)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
    }

    @Test("samples of an earlier command buffer resolve on the GPU to the CPU's values, an unwritten one to counterErrorValue, from an offset")
    func earlierCommandBuffer() throws {
        let gpu = try TestGPU()
        let samples = try CounterSampleBufferTests.sampleBuffer(gpu, .timestamp, count: 14)
        let sampling = try CounterSampleBufferTests.recordTimestamps(gpu, into: samples)
        sampling.commit()
        sampling.waitUntilCompleted()
        #expect(sampling.status == .completed)

        let destination = try gpu.device.makeBuffer(length: 16 + 14 * 8 + 8)
        destination.contents().initializeMemory(as: UInt8.self, repeating: 0xAB, count: destination.length)
        try Self.resolve(gpu, samples, 0..<14, into: destination, offset: 16)

        let cpu = try CounterSampleBufferTests.timestamps(samples, 0..<14)
        #expect(cpu[13] == counterErrorValue && cpu.prefix(13).allSatisfy { $0 != counterErrorValue && $0 > 0 })
        #expect(Self.values(destination, offset: 16, count: 14) == cpu)
        let marker = UInt64(0xABAB_ABAB_ABAB_ABAB)
        #expect(Self.values(destination, count: 2) == [marker, marker], "nothing before the offset is written")
        #expect(Self.values(destination, offset: 16 + 14 * 8, count: 1) == [marker], "nothing after the samples is written")
    }

    @Test("samples taken earlier in the same command buffer (render pass ones too) resolve into a private buffer that a later blit copies out")
    func sameCommandBuffer() throws {
        let gpu = try TestGPU()
        let samples = try CounterSampleBufferTests.sampleBuffer(gpu, .timestamp, count: 14)
        let commandBuffer = try CounterSampleBufferTests.recordTimestamps(gpu, into: samples)
        let resolved = try gpu.device.makeBuffer(length: 14 * 8, options: .storageModePrivate)
        let readBack = try gpu.device.makeBuffer(length: 6 * 8)
        let resolving = try commandBuffer.makeBlitCommandEncoder()
        resolving.resolveCounters(samples, range: 4..<10, destinationBuffer: resolved, destinationOffset: 0)
        resolving.endEncoding()
        let copying = try commandBuffer.makeBlitCommandEncoder()
        copying.copy(from: resolved, sourceOffset: 0, to: readBack, destinationOffset: 0, size: 6 * 8)
        copying.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        // 4...7 are the render pass's, taken in the command buffer's own queries; 8 and 9
        // the blit pass's start and a sample between its blits.
        let cpu = try CounterSampleBufferTests.timestamps(samples, 4..<10)
        #expect(cpu.allSatisfy { $0 != counterErrorValue && $0 > 0 })
        #expect(Self.values(readBack, count: 6) == cpu)
    }

    @Test("an empty range writes nothing")
    func emptyRange() throws {
        let gpu = try TestGPU()
        let samples = try CounterSampleBufferTests.sampleBuffer(gpu, .timestamp, count: 2)
        let destination = try gpu.device.makeBuffer(length: 8)
        try Self.resolve(gpu, samples, 2..<2, into: destination, offset: 8)
        #expect(Self.values(destination, count: 1) == [0])
    }

    /// Resolves Metal (or SwiftGPU) refuses, each with the message it stops with.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case rangeOutside, misalignedOffset, destinationTooSmall, statistics

        var message: String {
            let call = "resolveCounters(_:range:destinationBuffer:destinationOffset:)"
            return switch self {
            case .rangeOutside: "\(call): range 2..<5 is outside the sample buffer 'samples''s 0..<4"
            case .misalignedOffset: "\(call): destinationOffset 4 is not a non-negative multiple of 8"
            case .destinationTooSmall:
                "\(call): 4 samples take 32 bytes from destinationOffset 8, beyond the buffer 'results' of 32 bytes"
            case .statistics: "\(call): the sample buffer 'samples' samples statistics, which are resolved on the CPU only"
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let samples = try CounterSampleBufferTests.sampleBuffer(gpu, self == .statistics ? .statistic : .timestamp, count: 4)
            let destination = try gpu.device.makeBuffer(length: 32)
            destination.label = "results"
            let blit = try gpu.queue.makeCommandBuffer().makeBlitCommandEncoder()
            switch self {
            case .rangeOutside: blit.resolveCounters(samples, range: 2..<5, destinationBuffer: destination, destinationOffset: 0)
            case .misalignedOffset: blit.resolveCounters(samples, range: 0..<2, destinationBuffer: destination, destinationOffset: 4)
            case .destinationTooSmall:
                blit.resolveCounters(samples, range: 0..<4, destinationBuffer: destination, destinationOffset: 8)
            case .statistics: blit.resolveCounters(samples, range: 0..<1, destinationBuffer: destination, destinationOffset: 0)
            }
        }
    }

    @Test("misuse: a range outside the samples, an offset not a multiple of 8, a destination too small, a statistic buffer",
          arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: " + misuse.message))
    }
}
