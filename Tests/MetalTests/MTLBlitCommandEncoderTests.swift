import GPUTestSupport
import Metal
import Testing

/// Blits written as for Apple's Metal: a fill and a copy into a private buffer and back.
@Suite("Metal's blit names", .validated)
struct MTLBlitCommandEncoderTests {
    @Test("fill(buffer:range:value:) then two copies through a private buffer carry the bytes, and a completed handler runs")
    func fillAndCopy() {
        let device = MTLCreateSystemDefaultDevice()!
        let commandQueue = device.makeCommandQueue()!
        let source = device.makeBuffer(length: 64, options: .storageModeShared)!
        let staging = device.makeBuffer(length: 64, options: .storageModePrivate)!
        let result = device.makeBuffer(length: 64, options: .storageModeShared)!
        let completions = Locked(0)

        let commandBuffer = commandQueue.makeCommandBuffer()!
        commandBuffer.addCompletedHandler { buffer in
            completions.withLock { $0 += buffer.status == .completed ? 1 : 100 }
        }
        let blitEncoder = commandBuffer.makeBlitCommandEncoder()!
        blitEncoder.fill(buffer: source, range: 16..<48, value: 7)
        blitEncoder.copy(from: source, sourceOffset: 0, to: staging, destinationOffset: 0, size: 64)
        blitEncoder.copy(from: staging, sourceOffset: 8, to: result, destinationOffset: 0, size: 56)
        blitEncoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()

        let bytes = Array(UnsafeBufferPointer(start: result.contents().assumingMemoryBound(to: UInt8.self), count: 64))
        #expect(bytes == (0..<64).map { $0 + 8 >= 16 && $0 + 8 < 48 ? 7 : 0 })
        #expect(completions.withLock { $0 } == 1)
    }
}
