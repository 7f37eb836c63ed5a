import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Buffers' GPU addresses (`gpuAddress`) and kernels that reach buffers through them,
/// declared with `useResource(_:usage:)`.
@Suite("GPU addresses", .validated)
struct GPUAddressTests {
    /// A kernel that writes `base + i` into word i of the buffer at the address `target`.
    static let writer = """
        #version 450
        #extension GL_EXT_buffer_reference : require
        #extension GL_EXT_buffer_reference_uvec2 : require
        #pragma shader_stage(compute)
        layout(local_size_x = 64) in;
        layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Words { uint words[]; };
        layout(set = 0, binding = 0, std430) readonly buffer Params { uvec2 target; uint count; uint base; };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i >= count) return;
            Words(target).words[i] = base + i;
        }
        """

    /// A kernel that writes twice word i of the buffer at the address `source` into buffer 1.
    static let reader = """
        #version 450
        #extension GL_EXT_buffer_reference : require
        #pragma shader_stage(compute)
        layout(local_size_x = 64) in;
        layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words { uint words[]; };
        layout(set = 0, binding = 0, std430) readonly buffer Params { Words source; uint count; };
        layout(set = 0, binding = 1, std430) writeonly buffer Result { uint result[]; };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i >= count) return;
            result[i] = 2u * source.words[i];
        }
        """

    /// The writer with its address in a uniform block: `setBytes` feeds it as push constants.
    static let uniformWriter = """
        #version 450
        #extension GL_EXT_buffer_reference : require
        #pragma shader_stage(compute)
        layout(local_size_x = 64) in;
        layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Words { uint words[]; };
        layout(set = 0, binding = 0) uniform Params { Words target; uint count; uint base; };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i >= count) return;
            target.words[i] = base + i;
        }
        """

    static func kernel(_ gpu: TestGPU, _ source: String) throws -> ComputePipelineState {
        let library = try gpu.device.makeLibrary(source: source)
        return try gpu.device.makeComputePipelineState(function: library.makeFunction(name: library.functionNames[0]))
    }

    /// Dispatches `count` threads of `pipeline` with `buffers` bound at indices 0, 1, ….
    static func dispatch(_ pipeline: ComputePipelineState, buffers: [Buffer], count: Int, on encoder: ComputeCommandEncoder) {
        encoder.setComputePipelineState(pipeline)
        for (index, buffer) in buffers.enumerated() { encoder.setBuffer(buffer, offset: 0, index: index) }
        encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: 64))
    }

    /// Waits for `commandBuffer`, which must complete, and returns the first `count` words
    /// of `buffer`.
    static func completedWords(_ commandBuffer: CommandBuffer, _ buffer: Buffer, count: Int) -> [UInt32] {
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        return words(buffer, count: count)
    }

    /// The first `count` words of a shared buffer.
    static func words(_ buffer: Buffer, count: Int) -> [UInt32] {
        Array(UnsafeBufferPointer(start: buffer.contents().bindMemory(to: UInt32.self, capacity: count), count: count))
    }

    /// A private buffer of `count` words reached through its address, the writer's and the
    /// reader's parameters for it, and a shared buffer for the reader's result.
    static func writeAndRead(_ gpu: TestGPU, count: Int, base: UInt32)
        throws -> (target: Buffer, write: Buffer, read: Buffer, result: Buffer) {
        let target = try gpu.device.makeBuffer(length: 4 * count, options: .storageModePrivate)
        return (target, try parameters(gpu, address: target.gpuAddress, [UInt32(count), base]),
                try parameters(gpu, address: target.gpuAddress, [UInt32(count)]), try gpu.device.makeBuffer(length: 4 * count))
    }

    /// A shared buffer holding `words`, each a UInt64 or UInt32 as the kernel's block lays
    /// them out.
    static func parameters(_ gpu: TestGPU, address: UInt64, _ words: [UInt32]) throws -> Buffer {
        let buffer = try gpu.device.makeBuffer(length: 8 + 4 * words.count)
        buffer.contents().storeBytes(of: address, as: UInt64.self)
        for (index, word) in words.enumerated() { buffer.contents().storeBytes(of: word, toByteOffset: 8 + 4 * index, as: UInt32.self) }
        return buffer
    }

    @Test("gpuAddress is the buffer's device address: nonzero, the same on each read, one per buffer, shared and private")
    func addresses() throws {
        let gpu = try TestGPU()
        #expect(gpu.device.supportsGPUAddresses)
        let shared = try gpu.device.makeBuffer(length: 256)
        let other = try gpu.device.makeBuffer(length: 256)
        let priv = try gpu.device.makeBuffer(length: 256, options: .storageModePrivate)
        let addresses = [shared.gpuAddress, other.gpuAddress, priv.gpuAddress]
        #expect(addresses.allSatisfy { $0 != 0 })
        #expect(Set(addresses).count == 3)
        #expect(shared.gpuAddress == addresses[0])
        // Storage buffers are bound at this alignment, so a buffer's address has it too.
        #expect(addresses.allSatisfy { $0 % 4 == 0 })
        // Memory is reached at its address: the ranges do not overlap.
        let ranges = addresses.map { $0..<($0 + 256) }
        #expect(!ranges[0].overlaps(ranges[1]) && !ranges[0].overlaps(ranges[2]) && !ranges[1].overlaps(ranges[2]))
    }

    @Test("a kernel built by the package follows a chain of addresses: a table of buffers' addresses, then each buffer's values")
    func chain() throws {
        let gpu = try TestGPU()
        let buffers = 4, perBuffer = 100, count = buffers * perBuffer
        var values: [Buffer] = []
        for index in 0..<buffers {
            let words = (0..<perBuffer).map { UInt32(index * 1000 + $0) }
            // Shared and private buffers alike: a private one is reached only by the GPU.
            values.append(try words.withUnsafeBytes {
                try gpu.device.makeBuffer(bytes: $0.baseAddress!, length: $0.count,
                                          options: index.isMultiple(of: 2) ? .storageModeShared : .storageModePrivate)
            })
        }
        let table = try gpu.device.makeBuffer(length: 8 * buffers)
        for (index, buffer) in values.enumerated() {
            table.contents().storeBytes(of: buffer.gpuAddress, toByteOffset: 8 * index, as: UInt64.self)
        }
        let root = try Self.parameters(gpu, address: table.gpuAddress, [UInt32(perBuffer), UInt32(count)])
        let result = try gpu.device.makeBuffer(length: 4 * count)

        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.useResource(table, usage: .read)
        for buffer in values { encoder.useResource(buffer, usage: .read) }
        Self.dispatch(try gpu.pipeline("address_chain.comp"), buffers: [root, result], count: count, on: encoder)
        encoder.endEncoding()
        commandBuffer.commit()
        let output = Self.completedWords(commandBuffer, result, count: count)
        #expect(output == (0..<count).map { UInt32(($0 / perBuffer) * 1000 + $0 % perBuffer) })
    }

    @Test("a kernel writes through an address and the next encoder's kernel reads it through its address, after a barrier")
    func writeThenReadInNextEncoder() throws {
        let gpu = try TestGPU()
        let count = 256
        let (target, write, read, result) = try Self.writeAndRead(gpu, count: count, base: 7)
        // Held on an event until the hazard record is read.
        let event = try gpu.device.makeSharedEvent()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        commandBuffer.encodeWaitForEvent(event, value: 1)
        let writing = try commandBuffer.makeComputeCommandEncoder()
        writing.useResource(target, usage: .write)
        Self.dispatch(try Self.kernel(gpu, Self.writer), buffers: [write], count: count, on: writing)
        writing.endEncoding()
        let reading = try commandBuffer.makeComputeCommandEncoder()
        reading.useResource(target, usage: .read)
        Self.dispatch(try Self.kernel(gpu, Self.reader), buffers: [read, result], count: count, on: reading)
        reading.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "the read through the address waits for the write through it")
        commandBuffer.commit()
        event.signaledValue = 1
        let output = Self.completedWords(commandBuffer, result, count: count)
        #expect(output == (0..<count).map { 2 * UInt32(7 + $0) })
    }

    @Test("in one encoder, a dispatch reading through a declared address waits for the dispatch before that wrote through it")
    func writeThenReadInOneEncoder() throws {
        let gpu = try TestGPU()
        let count = 128
        let (target, write, read, result) = try Self.writeAndRead(gpu, count: count, base: 40)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.useResource(target, usage: [.read, .write])
        Self.dispatch(try Self.kernel(gpu, Self.writer), buffers: [write], count: count, on: encoder)
        Self.dispatch(try Self.kernel(gpu, Self.reader), buffers: [read, result], count: count, on: encoder)
        encoder.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "one barrier, between the two dispatches; none before the first")
        commandBuffer.commit()
        let output = Self.completedWords(commandBuffer, result, count: count)
        #expect(output == (0..<count).map { 2 * UInt32(40 + $0) })
    }

    @Test("a buffer written through its address is waited for by a later blit that copies it; two reads through addresses need no barrier")
    func declaredWriteThenCopyAndReads() throws {
        let gpu = try TestGPU()
        let count = 64
        let (target, write, read, result) = try Self.writeAndRead(gpu, count: count, base: 3)
        let copy = try gpu.device.makeBuffer(length: 4 * count)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let writing = try commandBuffer.makeComputeCommandEncoder()
        writing.useResource(target, usage: .write)
        Self.dispatch(try Self.kernel(gpu, Self.writer), buffers: [write], count: count, on: writing)
        writing.endEncoding()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.copy(from: target, sourceOffset: 0, to: copy, destinationOffset: 0, size: 4 * count)
        blit.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "the copy waits for the write through the address")
        let second = try gpu.device.makeBuffer(length: 4 * count)
        for output in [result, second] {
            let reading = try commandBuffer.makeComputeCommandEncoder()
            reading.useResource(target, usage: .read)
            Self.dispatch(try Self.kernel(gpu, Self.reader), buffers: [read, output], count: count, on: reading)
            reading.endEncoding()
        }
        #expect(context.encoding.hazards.barriers == 1, "reads after the copy's read wait for nothing")
        commandBuffer.commit()
        #expect(Self.completedWords(commandBuffer, copy, count: count) == (0..<count).map { 3 + UInt32($0) })
        #expect(Self.words(second, count: count) == (0..<count).map { 2 * (3 + UInt32($0)) })
    }

    @Test("an address in a uniform block, fed by setBytes as push constants or by a buffer as a descriptor")
    func addressInUniformBlock() throws {
        let gpu = try TestGPU()
        let count = 64
        let pipeline = try Self.kernel(gpu, Self.uniformWriter)
        let twin = try #require(pipeline.pushConstants, "the block, an address and two words, fits the push constants")
        #expect(twin.pushSlots.map(\.size) == [16])
        let pushed = try gpu.device.makeBuffer(length: 4 * count)
        let bound = try gpu.device.makeBuffer(length: 4 * count)
        var block = (pushed.gpuAddress, UInt32(count), UInt32(100))
        let parameters = try Self.parameters(gpu, address: bound.gpuAddress, [UInt32(count), 200])
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.useResource(pushed, usage: .write)
        encoder.useResource(bound, usage: .write)
        encoder.setBytes(&block, length: 16, index: 0)
        encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: 64))
        Self.dispatch(pipeline, buffers: [parameters], count: count, on: encoder)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        for (buffer, base) in [(pushed, UInt32(100)), (bound, 200)] {
            let output = Self.words(buffer, count: count)
            #expect(output == (0..<count).map { base + UInt32($0) })
        }
    }

    @Test("a buffer given memory again after its contents were discarded has an address a kernel writes through")
    func addressAfterDiscard() throws {
        let gpu = try TestGPU()
        let count = 64
        let target = try gpu.device.makeBuffer(length: 4 * count)
        _ = target.setPurgeableState(.volatile)
        _ = target.setPurgeableState(.empty)
        #expect(target.setPurgeableState(.nonVolatile) == .empty)
        let write = try Self.parameters(gpu, address: target.gpuAddress, [UInt32(count), 9])
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.useResource(target, usage: .write)
        Self.dispatch(try Self.kernel(gpu, Self.writer), buffers: [write], count: count, on: encoder)
        encoder.endEncoding()
        commandBuffer.commit()
        #expect(Self.completedWords(commandBuffer, target, count: count) == (0..<count).map { 9 + UInt32($0) })
    }

    @Test("a discarded buffer has no address: gpuAddress stops with a misuse message")
    func discardedBuffer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 64)
            buffer.label = "nodes"
            buffer.setPurgeableState(.empty)
            _ = buffer.gpuAddress
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: gpuAddress: the buffer 'nodes' of 64 bytes was "
            + "used after its contents were discarded (purgeable state empty)"))
    }
}
