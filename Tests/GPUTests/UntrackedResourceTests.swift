import GPUTestSupport
import Testing
@testable import GPU

/// Metal's hazard tracking modes on buffers and textures: tracked resources get their
/// barriers as before, untracked ones none (and no place in the hazard record).
@Suite("untracked resources", .validated)
struct UntrackedResourceTests {
    @Test("the option bits are Metal's, and each resource reports its mode")
    func modes() throws {
        #expect(ResourceOptions.hazardTrackingModeUntracked.rawValue == 0x100)
        #expect(ResourceOptions.hazardTrackingModeTracked.rawValue == 0x200)
        #expect(ResourceOptions.hazardTrackingModeDefault.rawValue == 0)
        let gpu = try TestGPU()
        #expect(try gpu.device.makeBuffer(length: 16).hazardTrackingMode == .tracked)
        #expect(try gpu.device.makeBuffer(length: 16, options: .hazardTrackingModeTracked).hazardTrackingMode == .tracked)
        let untracked = try gpu.device.makeBuffer(length: 16, options: [.storageModePrivate, .hazardTrackingModeUntracked])
        #expect(untracked.hazardTrackingMode == .untracked)
        #expect(untracked.storageMode == .private)
        var bytes = [UInt8](repeating: 1, count: 16)
        #expect(try gpu.device.makeBuffer(bytes: &bytes, length: 16, options: [.storageModePrivate, .hazardTrackingModeUntracked])
            .hazardTrackingMode == .untracked)

        let descriptor = TextureDescriptor(pixelFormat: .rgba8Unorm, width: 4, height: 4, usage: [.shaderRead, .pixelFormatView])
        #expect(descriptor.hazardTrackingMode == .default)
        #expect(try gpu.device.makeTexture(descriptor: descriptor).hazardTrackingMode == .tracked)
        descriptor.hazardTrackingMode = .untracked
        let texture = try gpu.device.makeTexture(descriptor: descriptor)
        #expect(texture.hazardTrackingMode == .untracked)
        #expect(texture.descriptor.hazardTrackingMode == .untracked)
        #expect(try texture.makeTextureView(pixelFormat: .bgra8Unorm).hazardTrackingMode == .untracked, "a view shows its texture's image")
    }

    @Test("tracked buffers are unchanged: a barrier between a write and the next encoder's read, and the right sums")
    func trackedBarrier() throws {
        let (gpu, commandBuffer, doubled) = try Self.writeThenRead(options: [])
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1)
        #expect(doubled.hazardTrackingMode == .tracked)
        FenceTests.commit(commandBuffer, expecting: doubled) { 2 * (Float($0) + 1) }
        _ = gpu
    }

    // Recorded in a child process: the read is unordered (the app's to order), which
    // synchronization validation reports as it is recorded.
    @Test("untracked buffers get no barrier between a write and the next encoder's read")
    func untrackedNoBarrier() async {
        await #expect(processExitsWith: .success) {
            let (_, commandBuffer, _) = try UntrackedResourceTests.writeThenRead(options: .hazardTrackingModeUntracked)
            let barriers = commandBuffer.record.context?.encoding.hazards.barriers
            precondition(barriers == 0, "untracked buffers got \(String(describing: barriers)) barriers")
        }
    }

    /// A command buffer, not committed, whose first compute encoder writes `sum = a + b` and
    /// whose second reads it into `doubled`, both made with `options`.
    static func writeThenRead(options: ResourceOptions) throws -> (TestGPU, CommandBuffer, Buffer) {
        let gpu = try TestGPU()
        let (a, b) = try FenceTests.inputs(gpu)
        let sum = try gpu.device.makeBuffer(length: FenceTests.count * 4, options: options)
        let doubled = try gpu.device.makeBuffer(length: FenceTests.count * 4, options: options)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        for (x, y, result) in [(a, b, sum), (sum, sum, doubled)] {
            let encoder = try commandBuffer.makeComputeCommandEncoder()
            try FenceTests.add(x, y, into: result, gpu, encoder)
            encoder.endEncoding()
        }
        return (gpu, commandBuffer, doubled)
    }

    @Test("an untracked storage texture gets no barrier between dispatches; a fence orders them")
    func untrackedTexture() throws {
        let gpu = try TestGPU()
        let descriptor = TextureDescriptor(pixelFormat: .rgba8Unorm, width: 16, height: 16, usage: [.shaderRead, .shaderWrite])
        descriptor.hazardTrackingMode = .untracked
        let texture = try gpu.device.makeTexture(descriptor: descriptor)
        let input = (0..<(16 * 16 * 4)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        texture.replace(region: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0, withBytes: input, bytesPerRow: 64)
        let fence = gpu.device.makeFence()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.pipeline("invert.comp"))
        encoder.setTexture(texture, index: 0)
        encoder.dispatchThreadgroups(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 8, height: 8))
        encoder.updateFence(fence)
        encoder.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 0)
        let again = try commandBuffer.makeComputeCommandEncoder()
        again.waitForFence(fence)
        again.setComputePipelineState(try gpu.pipeline("invert.comp"))
        again.setTexture(texture, index: 0)
        again.dispatchThreadgroups(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 8, height: 8))
        again.endEncoding()
        #expect(context.encoding.hazards.barriers == 1, "the fence's wait")
        commandBuffer.commit()
        var output = [UInt8](repeating: 0, count: input.count)
        texture.getBytes(&output, bytesPerRow: 64, from: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0)
        #expect(commandBuffer.status == .completed, "getBytes waits for the writer, tracked or not")
        #expect(output == input, "inverted twice")
    }

    @Test("misuse: options asking for both tracking modes stop with the call")
    func bothModes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            _ = try gpu.device.makeBuffer(length: 16, options: [.hazardTrackingModeTracked, .hazardTrackingModeUntracked])
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: makeBuffer(length:options:): the options ask for both "
            + ".hazardTrackingModeTracked and .hazardTrackingModeUntracked"))
    }
}
