import Foundation
import GPUTestSupport
import Testing
@testable import GPU

@Suite("Textures and samplers", .validated)
struct TextureTests {
    /// A recognisable RGBA8 pattern.
    static func pattern(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        (0..<(width * height)).flatMap { i -> [UInt8] in
            [UInt8(truncatingIfNeeded: i % width + seed), UInt8(truncatingIfNeeded: i / width), UInt8(truncatingIfNeeded: i * 7), 255]
        }
    }

    @Test("replace then getBytes returns the texels, for several formats", arguments: [PixelFormat.rgba8Unorm, .bgra8Unorm_srgb, .r32Float, .rgba32Float])
    func replaceAndRead(format: PixelFormat) throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: format, width: 64, height: 32, mipmapped: false))
        let bytesPerRow = 64 * format.bytesPerPixel
        let input = (0..<(bytesPerRow * 32)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        texture.replace(region: Region(x: 0, y: 0, width: 64, height: 32), mipmapLevel: 0, withBytes: input, bytesPerRow: bytesPerRow)
        var output = [UInt8](repeating: 0, count: input.count)
        texture.getBytes(&output, bytesPerRow: bytesPerRow, from: Region(x: 0, y: 0, width: 64, height: 32), mipmapLevel: 0)
        #expect(output == input)
    }

    @Test("a sub-region of one mip level and slice of a 2D array, with padded rows")
    func subRegionOfSliceAndLevel() throws {
        let gpu = try TestGPU()
        let descriptor = TextureDescriptor(textureType: .type2DArray, pixelFormat: .rgba8Unorm, width: 32, height: 32,
                                           arrayLength: 3, mipmapLevelCount: 3)
        descriptor.usage = [.shaderRead, .renderTarget]
        let texture = try gpu.device.makeTexture(descriptor: descriptor)
        #expect(texture.size(ofLevel: 1) == Size(width: 16, height: 16))
        let region = Region(x: 3, y: 5, width: 8, height: 4)
        let bytesPerRow = 8 * 4 + 16   // padded
        let input = (0..<(bytesPerRow * 4)).map { UInt8(truncatingIfNeeded: $0) }
        texture.replace(region: region, mipmapLevel: 1, slice: 2, withBytes: input, bytesPerRow: bytesPerRow)
        var output = [UInt8](repeating: 0, count: 8 * 4 * 4)
        texture.getBytes(&output, bytesPerRow: 32, from: region, mipmapLevel: 1, slice: 2)
        let expected = (0..<4).flatMap { row in input[(row * bytesPerRow)..<(row * bytesPerRow + 32)] }
        #expect(output == expected)
    }

    @Test("blits: buffer → texture → texture → buffer in one command buffer")
    func blitChain() throws {
        let gpu = try TestGPU()
        let pixels = Self.pattern(width: 16, height: 8)
        let source = try pixels.withUnsafeBytes { try gpu.device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
        let destination = try gpu.device.makeBuffer(length: pixels.count)
        let descriptor = TextureDescriptor.texture2D(pixelFormat: .rgba8Unorm, width: 16, height: 8, mipmapped: false)
        let first = try gpu.device.makeTexture(descriptor: descriptor)
        let second = try gpu.device.makeTexture(descriptor: descriptor)
        let cb = try gpu.queue.makeCommandBuffer()
        let blit = try cb.makeBlitCommandEncoder()
        blit.copy(from: source, sourceOffset: 0, sourceBytesPerRow: 64, sourceSize: Size(width: 16, height: 8), to: first)
        blit.copy(from: first, to: second)
        blit.copy(from: second, to: destination, destinationOffset: 0, destinationBytesPerRow: 64)
        blit.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(cb.status == .completed)
        #expect(Array(UnsafeRawBufferPointer(start: destination.contents(), count: pixels.count)) == pixels)
        // getBytes waits for the command buffer that last wrote the texture.
        var read = [UInt8](repeating: 0, count: pixels.count)
        second.getBytes(&read, bytesPerRow: 64, from: Region(x: 0, y: 0, width: 16, height: 8), mipmapLevel: 0)
        #expect(read == pixels)
    }

    @Test("generateMipmaps averages each level from the one above")
    func mipmaps() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 4, height: 4, mipmapped: true))
        #expect(texture.mipmapLevelCount == 3)
        // Red channel: 0, 40, 80, ... across the 16 texels; others constant.
        let pixels: [UInt8] = (0..<16).flatMap { i -> [UInt8] in [UInt8(i * 16), 100, 200, 255] }
        texture.replace(region: Region(x: 0, y: 0, width: 4, height: 4), mipmapLevel: 0, withBytes: pixels, bytesPerRow: 16)
        let cb = try gpu.queue.makeCommandBuffer()
        let blit = try cb.makeBlitCommandEncoder()
        blit.generateMipmaps(for: texture)
        blit.endEncoding()
        cb.commit()
        var level1 = [UInt8](repeating: 0, count: 16)
        texture.getBytes(&level1, bytesPerRow: 8, from: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 1)
        var level2 = [UInt8](repeating: 0, count: 4)
        texture.getBytes(&level2, bytesPerRow: 4, from: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 2)
        func average(_ indices: [Int]) -> Int { indices.map { $0 * 16 }.reduce(0, +) / indices.count }
        let expected1 = [average([0, 1, 4, 5]), average([2, 3, 6, 7]), average([8, 9, 12, 13]), average([10, 11, 14, 15])]
        for (i, value) in expected1.enumerated() {
            #expect(abs(Int(level1[i * 4]) - value) <= 1, "level 1 texel \(i): \(level1[i * 4]) vs \(value)")
            #expect(level1[i * 4 + 1] == 100 && level1[i * 4 + 2] == 200)
        }
        #expect(abs(Int(level2[0]) - average(Array(0..<16))) <= 1)
    }

    @Test("samplers are made from Metal's descriptor fields")
    func samplers() throws {
        let gpu = try TestGPU()
        let descriptor = SamplerDescriptor()
        #expect(descriptor.minFilter == .nearest && descriptor.sAddressMode == .clampToEdge)
        _ = try gpu.device.makeSamplerState(descriptor: descriptor)
        descriptor.minFilter = .linear
        descriptor.magFilter = .linear
        descriptor.mipFilter = .linear
        descriptor.sAddressMode = .repeat
        descriptor.tAddressMode = .mirrorRepeat
        descriptor.rAddressMode = .clampToBorderColor
        descriptor.borderColor = .opaqueWhite
        descriptor.maxAnisotropy = 16
        descriptor.lodMaxClamp = 4
        descriptor.compareFunction = .lessEqual
        let sampler = try gpu.device.makeSamplerState(descriptor: descriptor)
        #expect(sampler.descriptor.values == descriptor.values)
    }

    @Test("depth, cube and 4x MSAA textures can be made")
    func otherKinds() throws {
        let gpu = try TestGPU()
        _ = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .depth32Float, width: 64, height: 64,
                                                                     usage: [.renderTarget, .shaderRead]))
        _ = try gpu.device.makeTexture(descriptor: TextureDescriptor(textureType: .typeCube, pixelFormat: .rgba16Float,
                                                                     width: 16, height: 16))
        _ = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 64, height: 64,
                                                                     sampleCount: 4, usage: .renderTarget))
    }

    @Test("storage-image writes are tracked: a barrier before the next dispatch on the image, and getBytes waits for the writer")
    func storageImageWritesAreTracked() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 16, height: 16,
                                                                               usage: [.shaderRead, .shaderWrite]))
        let input = Self.pattern(width: 16, height: 16)
        texture.replace(region: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0, withBytes: input, bytesPerRow: 64)
        // Held on an event until the checks are made, so it cannot finish first.
        let event = try gpu.device.makeSharedEvent()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        commandBuffer.encodeWaitForEvent(event, value: 1)
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.pipeline("invert.comp"))
        encoder.setTexture(texture, index: 0)
        for _ in 0..<2 {
            encoder.dispatchThreadgroups(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 8, height: 8))
        }
        encoder.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "the second inversion waits for the first")
        commandBuffer.commit()
        #expect(texture.committedWriter === commandBuffer)
        event.signaledValue = 1
        var output = [UInt8](repeating: 0, count: input.count)
        texture.getBytes(&output, bytesPerRow: 64, from: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0)
        #expect(commandBuffer.status == .completed)
        #expect(output == input, "inverted twice")
    }

    @Test("uploads and read-backs share the device's one internal queue")
    func oneInternalQueue() throws {
        let gpu = try TestGPU()
        let queue = try gpu.device.internalQueue()
        let texture = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 8, height: 8, mipmapped: false))
        let input = Self.pattern(width: 8, height: 8)
        var output = [UInt8](repeating: 0, count: input.count)
        for _ in 0..<10 {
            texture.replace(region: Region(x: 0, y: 0, width: 8, height: 8), mipmapLevel: 0, withBytes: input, bytesPerRow: 32)
            texture.getBytes(&output, bytesPerRow: 32, from: Region(x: 0, y: 0, width: 8, height: 8), mipmapLevel: 0)
        }
        #expect(output == input)
        #expect(try gpu.device.internalQueue() === queue)
        #expect(queue.device === gpu.device)
        #expect(gpu.device.gate.liveEngineCount == 2, "the test's queue and the internal one")
    }

    @Test("getBytes and replace touch only the rows' texels, as Metal does: the last row ends at its last texel")
    func lastRowEndsAtItsTexels() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 4, height: 2,
                                                                               usage: [.shaderRead]))
        // One texel wide, two rows 32 bytes apart: 36 bytes, in memory of 40 whose end is a
        // sentinel that must survive.
        let region = Region(x: 1, y: 0, width: 1, height: 2)
        let source: [UInt8] = [1, 2, 3, 4] + [UInt8](repeating: 0, count: 28) + [5, 6, 7, 8]
        texture.replace(region: region, mipmapLevel: 0, withBytes: source, bytesPerRow: 32)
        var read = [UInt8](repeating: 0xAB, count: 40)
        texture.getBytes(&read, bytesPerRow: 32, from: region, mipmapLevel: 0)
        #expect(Array(read[0..<4]) == [1, 2, 3, 4] && Array(read[32..<36]) == [5, 6, 7, 8])
        #expect(Array(read[36..<40]) == [0xAB, 0xAB, 0xAB, 0xAB], "nothing written past the last texel")
    }
}
