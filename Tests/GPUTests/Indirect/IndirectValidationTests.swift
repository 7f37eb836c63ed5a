import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Indirect arguments checked on the GPU before use: arguments out of range, written by the
/// host or by a shader, make their command do nothing and the command buffer end in
/// `.error` naming the call, the buffer, the offset, the argument and the limit; the other
/// commands of the buffer run as recorded. Off (`validatesIndirectArguments` false), the
/// arguments reach the driver as they are, as in Metal.
@Suite("Indirect arguments validated on the GPU", .validated)
struct IndirectValidationTests {
    @Test("the kernel's words are glslc's output for its source, as the SPIRVCompiler plugin compiles it")
    func kernelWordsMatchTheSource() throws {
        let compiled = try GLSLC.compile(IndirectValidationKernel.source, stage: "comp", options: ["--target-env=vulkan1.2", "-O"])
        let words = compiled.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(words == IndirectValidationKernel.words)
    }

    /// Runs `increment.comp` (each group adds 7 to the counter) over the groups at
    /// `offset` in `arguments`, then over a valid (2, 1, 1) from the same buffer; returns
    /// the command buffer, completed, and the counter.
    static func dispatch(_ gpu: TestGPU, arguments: Buffer, offset: Int, validating: Bool = true,
                         writtenByShader: [UInt32]? = nil) throws -> (CommandBuffer, UInt32) {
        let counter = try gpu.device.makeBuffer(length: 4)
        let cb = try gpu.queue.makeCommandBuffer(descriptor: CommandBufferDescriptor(validatesIndirectArguments: validating))
        let encoder = try cb.makeComputeCommandEncoder()
        if let words = writtenByShader {
            try IndirectTests.write(words, to: arguments, first: UInt32(offset / 4), encoder: encoder, gpu: gpu)
        }
        var amount: UInt32 = 7
        for argumentOffset in [offset, arguments.length - 12] {
            encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
            encoder.setBuffer(counter, offset: 0, index: 0)
            encoder.setBytes(&amount, length: 4, index: 3)
            encoder.dispatchThreadgroups(indirectBuffer: arguments, indirectBufferOffset: argumentOffset,
                                         threadsPerThreadgroup: Size(width: 1))
        }
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        return (cb, counter.contents().load(as: UInt32.self))
    }

    /// A 64-byte argument buffer labelled "arguments" holding `words` at byte `offset` and
    /// a valid (2, 1, 1) dispatch in its last 12 bytes.
    static func argumentBuffer(_ gpu: TestGPU, _ words: [UInt32], at offset: Int) throws -> Buffer {
        let buffer = try gpu.device.makeBuffer(length: 64)
        buffer.label = "arguments"
        let contents = buffer.contents().bindMemory(to: UInt32.self, capacity: 16)
        for (index, word) in words.enumerated() { contents[offset / 4 + index] = word }
        contents[13] = 2
        contents[14] = 1
        contents[15] = 1
        return buffer
    }

    /// A dispatch whose counts are out of range, and the argument the error must name.
    struct BadDispatch: Sendable, CustomTestStringConvertible {
        let groups: [UInt32]
        let argument: String
        let value: UInt64
        let limit: UInt64
        var testDescription: String { "\(groups) → \(argument)" }
    }

    static let badDispatches = [
        BadDispatch(groups: [65_536, 1, 1], argument: "threadgroupsPerGrid.x", value: 65_536, limit: 65_535),
        BadDispatch(groups: [1, 0xFFFF_FFFF, 1], argument: "threadgroupsPerGrid.y", value: 0xFFFF_FFFF, limit: 65_535),
        BadDispatch(groups: [1, 1, 1 << 31], argument: "threadgroupsPerGrid.z", value: 1 << 31, limit: 65_535),
        BadDispatch(groups: [65_535, 65_535, 65_535], argument: "threadgroupsPerGrid.x × y × z",
                    value: 65_535 * 65_535 * 65_535, limit: 0xFFFF_FFFF),
    ]

    @Test("host-written group counts over the device's limit, or 2³² groups or more in all, run no group and end the buffer in .error naming them; the next dispatch runs",
          arguments: badDispatches)
    func hostWrittenDispatch(_ bad: BadDispatch) throws {
        let gpu = try TestGPU()
        #expect(gpu.device.limits.maxThreadgroupsPerGrid == Size(width: 65_535, height: 65_535, depth: 65_535))
        let arguments = try Self.argumentBuffer(gpu, bad.groups, at: 16)
        let (cb, counter) = try Self.dispatch(gpu, arguments: arguments, offset: 16)
        #expect(counter == 2 * 7, "only the valid dispatch ran")
        #expect(cb.status == .error)
        #expect(cb.error?.code == .invalidResource)
        let invalid = try #require(cb.error?.invalidIndirectArguments)
        #expect(invalid.call == "dispatchThreadgroups(indirectBuffer:indirectBufferOffset:threadsPerThreadgroup:)")
        #expect(invalid.buffer == "buffer 'arguments' of 64 bytes")
        #expect(invalid.offset == 16)
        #expect(invalid.argument == bad.argument)
        #expect(invalid.value == bad.value)
        #expect(invalid.limit == bad.limit)
        #expect(cb.error?.message == invalid.description)
        #expect(invalid.description.contains("\(bad.argument) is \(bad.value)"))
        // The app's arguments are left as they were.
        #expect((0..<3).map { arguments.contents().load(fromByteOffset: 16 + 4 * $0, as: UInt32.self) } == bad.groups)
    }

    @Test("counts a shader wrote earlier in the pass are checked as the GPU wrote them")
    func shaderWrittenDispatch() throws {
        let gpu = try TestGPU()
        let arguments = try Self.argumentBuffer(gpu, [], at: 0)
        let (cb, counter) = try Self.dispatch(gpu, arguments: arguments, offset: 0, writtenByShader: [3, 70_000, 1])
        #expect(counter == 2 * 7)
        #expect(cb.error?.invalidIndirectArguments?.argument == "threadgroupsPerGrid.y")
        #expect(cb.error?.invalidIndirectArguments?.value == 70_000)

        let valid = try Self.argumentBuffer(gpu, [], at: 0)
        let (good, total) = try Self.dispatch(gpu, arguments: valid, offset: 0, writtenByShader: [3, 4, 5])
        #expect(good.status == .completed)
        #expect(total == (3 * 4 * 5 + 2) * 7)
    }

    @Test("without validation (Metal's behaviour) the counts reach the driver as they are: lavapipe runs 65,536 groups")
    func optOut() throws {
        let gpu = try TestGPU()
        let arguments = try Self.argumentBuffer(gpu, [65_536, 1, 1], at: 0)
        let (cb, counter) = try Self.dispatch(gpu, arguments: arguments, offset: 0, validating: false)
        #expect(cb.status == .completed)
        #expect(cb.descriptor.validatesIndirectArguments == false)
        #expect(counter == (65_536 + 2) * 7)
    }

    /// `triangle.vert` with positions per vertex from buffer 0 (24-byte stride) and colours
    /// per instance from buffer 1 (16-byte float4s).
    static func perInstancePipeline(_ gpu: TestGPU) throws -> RenderPipelineState {
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float4
        vertices.attributes[1].bufferIndex = 1
        vertices.layouts[0].stride = 24
        vertices.layouts[1].stride = 16
        vertices.layouts[1].stepFunction = .perInstance
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try gpu.function("triangle.vert")
        descriptor.fragmentFunction = try gpu.function("color.frag")
        descriptor.vertexDescriptor = vertices
        descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
        return try gpu.device.makeRenderPipelineState(descriptor: descriptor)
    }

    /// A draw whose arguments are out of range for the bound buffers, and what the error
    /// names.
    struct BadDraw: Sendable, CustomTestStringConvertible {
        let indexed: Bool
        let words: [UInt32]
        let argument: String
        let value: UInt64
        let limit: UInt64
        var testDescription: String { "\(indexed ? "indexed " : "")\(words) → \(argument)" }
    }

    static let badDraws = [
        BadDraw(indexed: false, words: [3, 1, 1, 0], argument: "vertexStart + vertexCount", value: 4, limit: 3),
        BadDraw(indexed: false, words: [3, 1 << 31, 0, 0], argument: "baseInstance + instanceCount", value: 1 << 31, limit: 2),
        BadDraw(indexed: false, words: [3, 2, 0xFFFF_FFFF, 0], argument: "vertexStart + vertexCount", value: 0x1_0000_0002,
                limit: 3),
        BadDraw(indexed: true, words: [3, 1, 2, 0, 0], argument: "indexStart + indexCount", value: 5, limit: 4),
        BadDraw(indexed: true, words: [3, 1, 0, 0, 2], argument: "baseInstance + instanceCount", value: 3, limit: 2),
    ]

    /// Draws the triangle with host-written `words` at byte 16 of the argument buffer, then
    /// with `valid` (by default 3 vertices of instance 0) at byte 48, in one pass over a
    /// cleared target; returns the completed command buffer and the target's pixels.
    static func draw(_ gpu: TestGPU, indexed: Bool, words: [UInt32], then valid: [UInt32] = [3, 1, 0, 0, 0],
                     validating: Bool = true) throws -> (CommandBuffer, [UInt8]) {
        let target = try gpu.renderTarget()
        let arguments = try gpu.device.makeBuffer(length: 80)
        arguments.label = "draws"
        let contents = arguments.contents().bindMemory(to: UInt32.self, capacity: 20)
        for (index, word) in words.enumerated() { contents[4 + index] = word }
        for (index, word) in valid.enumerated() { contents[12 + index] = word }
        // Two instance colours: green, then red; the valid draw is instance 0.
        let colors = try gpu.buffer([Float]([0, 1, 0, 1, 1, 0, 0, 1]))
        let indices = try gpu.buffer([UInt32]([0, 1, 2, 0]))
        let cb = try gpu.queue.makeCommandBuffer(descriptor: CommandBufferDescriptor(validatesIndirectArguments: validating))
        let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setRenderPipelineState(try Self.perInstancePipeline(gpu))
        encoder.setVertexBuffer(try gpu.buffer(RenderTests.triangle), offset: 0, index: 0)
        encoder.setVertexBuffer(colors, offset: 0, index: 1)
        var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        for offset in [16, 48] {
            if indexed {
                encoder.drawIndexedPrimitives(type: .triangle, indexType: .uint32, indexBuffer: indices, indexBufferOffset: 0,
                                              indirectBuffer: arguments, indirectBufferOffset: offset)
            } else {
                encoder.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: offset)
            }
        }
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        return (cb, try gpu.pixels(of: target))
    }

    @Test("vertex, index and instance ranges past the bound buffers draw nothing and end the buffer in .error naming them; the next draw draws",
          arguments: badDraws)
    func outOfRangeDraw(_ bad: BadDraw) throws {
        let gpu = try TestGPU()
        let (cb, pixels) = try Self.draw(gpu, indexed: bad.indexed, words: bad.words)
        #expect(texel(pixels, width: 64, x: 32, y: 40) == [0, 255, 0, 255], "the valid draw's green, not the bad one's red")
        #expect(cb.status == .error)
        let invalid = try #require(cb.error?.invalidIndirectArguments)
        #expect(invalid.call == (bad.indexed
            ? "drawIndexedPrimitives(type:indexType:indexBuffer:indexBufferOffset:indirectBuffer:indirectBufferOffset:)"
            : "drawPrimitives(type:indirectBuffer:indirectBufferOffset:)"))
        #expect(invalid.buffer == "buffer 'draws' of 80 bytes")
        #expect(invalid.offset == 16)
        #expect(invalid.argument == bad.argument)
        #expect(invalid.value == bad.value)
        #expect(invalid.limit == bad.limit)
    }

    @Test("arguments in range draw as recorded, with both descriptor paths", arguments: [true, false])
    func inRangeDraws(pushDescriptors: Bool) throws {
        let gpu = try TestGPU(pushDescriptors: pushDescriptors)
        // Instance 1 (red) over the whole vertex and instance ranges, then an empty draw.
        for (indexed, words) in [(true, [3, 1, 1, 0, 1]), (false, [3, 1, 0, 1])] as [(Bool, [UInt32])] {
            let (cb, pixels) = try Self.draw(gpu, indexed: indexed, words: words, then: [0, 0, 0, 0, 0])
            #expect(cb.status == .completed)
            #expect(cb.error == nil)
            #expect(texel(pixels, width: 64, x: 32, y: 40) == [255, 0, 0, 255], "indexed \(indexed)")
        }
    }

    /// A pass over `target` in `commandBuffer` that draws `instanced.vert` with the
    /// arguments at each of `offsets` in `arguments`.
    static func drawInstanced(_ gpu: TestGPU, into target: Texture, from arguments: Buffer, at offsets: [Int],
                              in commandBuffer: CommandBuffer) throws {
        let render = try commandBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        render.setRenderPipelineState(try IndirectTests.instancedPipeline(gpu))
        render.setVertexBuffer(try gpu.buffer(IndirectTests.instanceColors), offset: 0, index: 0)
        for offset in offsets { render.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: offset) }
        render.endEncoding()
    }

    @Test("a draw of more than maxValidatedIndirectVertices vertices × instances, which no buffer bounds, draws nothing")
    func tooManyVertices() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        // 2³¹ vertices of instanced.vert, which reads no vertex buffer; then instance 5's triangle.
        var draws = [DrawPrimitivesIndirectArguments(vertexCount: 1 << 31, instanceCount: 1),
                     DrawPrimitivesIndirectArguments(vertexCount: 3, instanceCount: 1, baseInstance: 5)]
        let arguments = try gpu.device.makeBuffer(bytes: &draws, length: 32)
        let cb = try gpu.queue.makeCommandBuffer()
        try Self.drawInstanced(gpu, into: target, from: arguments, at: [0, 16], in: cb)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(IndirectTests.drawnSlots(try gpu.pixels(of: target)) == [5])
        let invalid = try #require(cb.error?.invalidIndirectArguments)
        #expect(invalid.argument == "vertexCount × instanceCount")
        #expect(invalid.value == 1 << 31)
        #expect(invalid.limit == UInt64(RenderCommandEncoder.maxValidatedIndirectVertices))
        #expect(invalid.offset == 0)
    }

    @Test("of several bad commands in passes and dispatches, the error names the first recorded; every valid one runs")
    func firstFailureNamed() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        let counter = try gpu.device.makeBuffer(length: 4)
        var words: [UInt32] = [2, 1, 1, 0, 70_000, 1, 1, 0, 3, 1, 0, 4, 3, 1, 0, 0]
        let arguments = try gpu.device.makeBuffer(bytes: &words, length: 64)
        let cb = try gpu.queue.makeCommandBuffer()
        let compute = try cb.makeComputeCommandEncoder()
        var amount: UInt32 = 1
        for offset in [0, 16] {
            compute.setComputePipelineState(try gpu.pipeline("increment.comp"))
            compute.setBuffer(counter, offset: 0, index: 0)
            compute.setBytes(&amount, length: 4, index: 3)
            compute.dispatchThreadgroups(indirectBuffer: arguments, indirectBufferOffset: offset, threadsPerThreadgroup: Size(width: 1))
        }
        compute.endEncoding()
        try Self.drawInstanced(gpu, into: target, from: arguments, at: [32, 48], in: cb)
        cb.commit()
        cb.waitUntilCompleted()
        #expect(counter.contents().load(as: UInt32.self) == 2)
        #expect(IndirectTests.drawnSlots(try gpu.pixels(of: target)) == [0, 4])
        #expect(cb.error?.invalidIndirectArguments?.offset == 16)
        #expect(cb.error?.invalidIndirectArguments?.argument == "threadgroupsPerGrid.x")
    }

    @Test("a parallel pass's sub-encoders' indirect draws are checked before the pass")
    func parallelPass() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget()
        var draws = [DrawPrimitivesIndirectArguments(vertexCount: 3, instanceCount: 1, baseInstance: 2),
                     DrawPrimitivesIndirectArguments(vertexCount: 1 << 30, instanceCount: 4, baseInstance: 9)]
        let arguments = try gpu.device.makeBuffer(bytes: &draws, length: 32)
        let pipeline = try IndirectTests.instancedPipeline(gpu)
        let colors = try gpu.buffer(IndirectTests.instanceColors)
        let cb = try gpu.queue.makeCommandBuffer()
        let parallel = try cb.makeParallelRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        for offset in [0, 16] {
            let encoder = try parallel.makeRenderCommandEncoder()
            encoder.setRenderPipelineState(pipeline)
            encoder.setVertexBuffer(colors, offset: 0, index: 0)
            encoder.drawPrimitives(type: .triangle, indirectBuffer: arguments, indirectBufferOffset: offset)
            encoder.endEncoding()
        }
        parallel.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(IndirectTests.drawnSlots(try gpu.pixels(of: target)) == [2])
        #expect(cb.error?.invalidIndirectArguments?.offset == 16)
        #expect(cb.error?.invalidIndirectArguments?.value == 1 << 32)
    }
}
