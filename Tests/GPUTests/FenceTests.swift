import GPUTestSupport
import Testing
@testable import GPU

/// Metal's fences: an untracked resource gets no barrier of SwiftGPU's; a fence an earlier
/// encoder updated and a later one waits for orders them.
@Suite("fences", .validated)
struct FenceTests {
    static let count = 4096

    @Test("an untracked buffer written by one compute encoder and read by the next, ordered by a fence: the right sums, one barrier")
    func fenceOrdersUntrackedBuffer() throws {
        let gpu = try TestGPU()
        let (a, b) = try Self.inputs(gpu)
        let sum = try gpu.device.makeBuffer(length: Self.count * 4, options: [.storageModeShared, .hazardTrackingModeUntracked])
        let doubled = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        #expect(sum.hazardTrackingMode == .untracked)
        let fence = gpu.device.makeFence()
        fence.label = "sum written"
        #expect(fence.device === gpu.device)

        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let first = try commandBuffer.makeComputeCommandEncoder()
        try Self.add(a, b, into: sum, gpu, first)
        first.updateFence(fence)
        first.endEncoding()
        let second = try commandBuffer.makeComputeCommandEncoder()
        second.waitForFence(fence)
        try Self.add(sum, sum, into: doubled, gpu, second)
        second.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "the fence's wait, and nothing for the untracked buffers")
        FenceTests.commit(commandBuffer, expecting: doubled) { 2 * (Float($0) + 1) }
    }

    @Test("a fence waited for in a later command buffer on the queue: ordered by the earlier buffer's end")
    func fenceAcrossCommandBuffers() throws {
        let gpu = try TestGPU()
        let (a, b) = try Self.inputs(gpu)
        let sum = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        let doubled = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        let fence = gpu.device.makeFence()
        let writer = try gpu.queue.makeCommandBuffer()
        let first = try writer.makeComputeCommandEncoder()
        try Self.add(a, b, into: sum, gpu, first)
        first.updateFence(fence)
        first.endEncoding()
        let reader = try gpu.queue.makeCommandBuffer()
        let second = try reader.makeComputeCommandEncoder()
        second.waitForFence(fence)
        try Self.add(sum, sum, into: doubled, gpu, second)
        second.endEncoding()
        writer.commit()
        reader.commit()
        reader.waitUntilCompleted()
        #expect(writer.status == .completed)
        #expect(reader.status == .completed)
        let output = doubled.contents().bindMemory(to: Float.self, capacity: Self.count)
        #expect((0..<Self.count).allSatisfy { output[$0] == 2 * (Float($0) + 1) })
    }

    @Test("blit encoders update and wait for fences: a copy into an untracked buffer, then a dispatch reading it")
    func blitFences() throws {
        let gpu = try TestGPU()
        let (a, b) = try Self.inputs(gpu)
        let copied = try gpu.device.makeBuffer(length: Self.count * 4, options: [.storageModePrivate, .hazardTrackingModeUntracked])
        let sum = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        let result = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        let copiedFence = gpu.device.makeFence(), summedFence = gpu.device.makeFence()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let copy = try commandBuffer.makeBlitCommandEncoder()
        copy.copy(from: a, sourceOffset: 0, to: copied, destinationOffset: 0, size: Self.count * 4)
        copy.updateFence(copiedFence)
        copy.endEncoding()
        let compute = try commandBuffer.makeComputeCommandEncoder()
        compute.waitForFence(copiedFence)
        try Self.add(copied, b, into: sum, gpu, compute)
        compute.updateFence(summedFence)
        compute.endEncoding()
        let readBack = try commandBuffer.makeBlitCommandEncoder()
        readBack.waitForFence(summedFence)
        readBack.copy(from: sum, sourceOffset: 0, to: result, destinationOffset: 0, size: Self.count * 4)
        readBack.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 2, "one per wait")
        FenceTests.commit(commandBuffer, expecting: result) { Float($0) + 1 }
    }

    @Test("a render pass waits for a fence a compute encoder updated, and updates one a blit waits for")
    func renderStages() throws {
        let gpu = try TestGPU()
        let (a, b) = try Self.inputs(gpu)
        let sum = try gpu.device.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeUntracked)
        let target = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 8, height: 8,
                                                                              usage: .renderTarget))
        let fence = gpu.device.makeFence(), drawn = gpu.device.makeFence()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let compute = try commandBuffer.makeComputeCommandEncoder()
        try Self.add(a, b, into: sum, gpu, compute)
        compute.updateFence(fence)
        compute.endEncoding()
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].clearColor = ClearColor(red: 1, green: 0, blue: 0, alpha: 1)
        let render = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        render.waitForFence(fence, before: [.vertex, .fragment])
        render.updateFence(drawn, after: .fragment)
        render.endEncoding()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.waitForFence(drawn)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        var texels = [UInt8](repeating: 0, count: 8 * 8 * 4)
        target.getBytes(&texels, bytesPerRow: 32, from: Region(x: 0, y: 0, width: 8, height: 8), mipmapLevel: 0)
        #expect(texels.prefix(4) == [255, 0, 0, 255])
        #expect(RenderStages.vertex.rawValue == 1 && RenderStages.fragment.rawValue == 2, "Metal's MTLRenderStages bits")
    }

    @Test("misuse: a fence of another device stops with the call")
    func otherDevice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let fence = try TestGPU().device.makeFence()
            fence.label = "elsewhere"
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.updateFence(fence)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: updateFence(_:): the fence 'elsewhere' belongs to another device "
            + "than the command buffer's"))
    }

    /// Commits `commandBuffer`, waits for it, and checks that it completed with
    /// `expected(i)` in float `i` of `buffer`.
    static func commit(_ commandBuffer: CommandBuffer, expecting buffer: Buffer, _ expected: (Int) -> Float) {
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let output = buffer.contents().bindMemory(to: Float.self, capacity: count)
        #expect((0..<count).allSatisfy { output[$0] == expected($0) })
    }

    /// Two shared inputs: a[i] = i, b[i] = 1.
    static func inputs(_ gpu: TestGPU) throws -> (Buffer, Buffer) {
        let a = try gpu.device.makeBuffer(length: count * 4)
        let b = try gpu.device.makeBuffer(length: count * 4)
        let aValues = a.contents().bindMemory(to: Float.self, capacity: count)
        let bValues = b.contents().bindMemory(to: Float.self, capacity: count)
        for i in 0..<count { aValues[i] = Float(i); bValues[i] = 1 }
        return (a, b)
    }

    /// Encodes `result = a + b` over `count` floats.
    static func add(_ a: Buffer, _ b: Buffer, into result: Buffer, _ gpu: TestGPU, _ encoder: ComputeCommandEncoder) throws {
        try gpu.encodeAdd(a, b, into: result, count: count, encoder: encoder)
    }
}
