import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Out-of-range numbers: misuse stops with a message naming the call and the value (an exit
/// test per case); what the app cannot know in advance (this device's limits and formats)
/// throws. None reaches Swift arithmetic or the driver unchecked.
@Suite("Numeric arguments are checked before any arithmetic", .validated)
struct ArgumentCheckTests {
    /// A misuse case, run in its own child process.
    enum Misuse: String, Codable, Sendable, CaseIterable {
        case negativeWidth, arrayLengthOn2D, negativeCopySize, overflowingCopyOffset, rowPitchOverflow, originOverflow
        case readBackRowPitchOverflow, negativeVertexCount, hugeInstanceCount, hugeBaseVertex, negativeScissor
        case scissorPastTarget, nanViewport, zeroViewport, missingLevel, missingSlice, invertedLOD, anisotropy
        case negativeAttributeOffset

        /// What standard error must contain.
        var message: String {
            switch self {
            case .negativeWidth: "makeTexture(descriptor:): width, height and arrayLength must be above 0, got -1×8 with arrayLength 1"
            case .arrayLengthOn2D: "makeTexture(descriptor:): arrayLength 2 on a .type2D texture; use .type2DArray"
            case .negativeCopySize: "copy(from:sourceOffset:to:destinationOffset:size:): source range of -1 bytes at offset 0 is outside the buffer's 64 bytes"
            case .overflowingCopyOffset: "copy(from:sourceOffset:to:destinationOffset:size:): source range of 16 bytes at offset \(Int.max) is outside the buffer's 64 bytes"
            case .rowPitchOverflow: "replace(region:mipmapLevel:slice:withBytes:bytesPerRow:): bytesPerRow × height (\(Int.max - 3) × 2) overflows"
            case .originOverflow: "replace(region:mipmapLevel:slice:withBytes:bytesPerRow:): region \(Int.max),0 1×1×1 is outside level 0's 8×8×1 of the texture (8×8 rgba8Unorm)"
            case .readBackRowPitchOverflow: "destinationBytesPerRow × height (\(Int.max - 3) × 8) overflows"
            case .negativeVertexCount: "drawPrimitives(type:vertexStart:vertexCount:instanceCount:baseInstance:): vertexCount -1 is outside 0...4294967295"
            case .hugeInstanceCount: "drawPrimitives(type:vertexStart:vertexCount:instanceCount:baseInstance:): instanceCount 4294967296 is outside 0...4294967295"
            case .hugeBaseVertex: "baseVertex \(Int.max) is outside -2147483648...2147483647"
            case .negativeScissor: "setScissorRect(_:): ScissorRect(x: -1, y: 0, width: 8, height: 8) is not inside the 64×64 render target"
            case .scissorPastTarget: "setScissorRect(_:): ScissorRect(x: 60, y: 0, width: \(Int.max), height: 8) is not inside the 64×64 render target"
            case .nanViewport: "setViewport(_:): Viewport(originX: nan, originY: 0.0, width: 64.0, height: 64.0, znear: 0.0, zfar: 1.0) has a value that is not finite"
            case .zeroViewport: "setViewport(_:): width 0.0 and height 64.0 must be above 0"
            case .missingLevel: "makeRenderCommandEncoder(descriptor:): colorAttachments[0].level 1 is outside the texture (64×64 rgba8Unorm)'s 0..<1"
            case .missingSlice: "makeRenderCommandEncoder(descriptor:): colorAttachments[0].slice 3 is outside the texture (64×64 rgba8Unorm)'s 0..<1"
            case .invertedLOD: "makeSamplerState(descriptor:): lodMinClamp 4.0 and lodMaxClamp 1.0 must be numbers with 0 ≤ lodMinClamp ≤ lodMaxClamp"
            case .anisotropy: "makeSamplerState(descriptor:): maxAnisotropy 0 is outside 1...16"
            case .negativeAttributeOffset: "makeRenderPipelineState(descriptor:): vertexDescriptor attribute 0 has offset -4"
            }
        }

        /// Does the misuse; never returns.
        func run() throws {
            let gpu = try TestGPU()
            let device = gpu.device
            switch self {
            case .negativeWidth:
                _ = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: -1, height: 8))
            case .arrayLengthOn2D:
                _ = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 8, height: 8, arrayLength: 2))
            case .negativeCopySize, .overflowingCopyOffset:
                let buffer = try device.makeBuffer(length: 64), other = try device.makeBuffer(length: 64)
                let blit = try gpu.queue.makeCommandBuffer().makeBlitCommandEncoder()
                if self == .negativeCopySize {
                    blit.copy(from: buffer, sourceOffset: 0, to: other, destinationOffset: 0, size: -1)
                } else {
                    blit.copy(from: buffer, sourceOffset: Int.max, to: other, destinationOffset: 0, size: 16)
                }
            case .rowPitchOverflow, .originOverflow:
                let texture = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 8, height: 8))
                let bytes = [UInt8](repeating: 0, count: 64)
                if self == .rowPitchOverflow {
                    texture.replace(region: Region(x: 0, y: 0, width: 1, height: 2), mipmapLevel: 0, withBytes: bytes, bytesPerRow: Int.max - 3)
                } else {
                    texture.replace(region: Region(x: Int.max, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: bytes, bytesPerRow: 4)
                }
            case .readBackRowPitchOverflow:
                let texture = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 8, height: 8))
                let blit = try gpu.queue.makeCommandBuffer().makeBlitCommandEncoder()
                blit.copy(from: texture, to: try device.makeBuffer(length: 256), destinationOffset: 0, destinationBytesPerRow: Int.max - 3)
            case .negativeVertexCount, .hugeInstanceCount, .hugeBaseVertex, .negativeScissor, .scissorPastTarget, .nanViewport,
                 .zeroViewport:
                let target = try gpu.renderTarget()
                let encoder = try gpu.queue.makeCommandBuffer().makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
                let descriptor = RenderPipelineDescriptor()
                descriptor.vertexFunction = try gpu.function("fullscreen.vert")
                descriptor.fragmentFunction = try gpu.function("textured.frag")
                descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
                encoder.setRenderPipelineState(try device.makeRenderPipelineState(descriptor: descriptor))
                switch self {
                case .negativeVertexCount: encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: -1)
                case .hugeInstanceCount: encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3, instanceCount: 1 << 32)
                case .hugeBaseVertex:
                    encoder.drawIndexedPrimitives(type: .triangle, indexCount: 3, indexType: .uint16,
                                                  indexBuffer: try device.makeBuffer(length: 8), indexBufferOffset: 0, baseVertex: Int.max)
                case .negativeScissor: encoder.setScissorRect(ScissorRect(x: -1, y: 0, width: 8, height: 8))
                case .scissorPastTarget: encoder.setScissorRect(ScissorRect(x: 60, y: 0, width: Int.max, height: 8))
                case .nanViewport: encoder.setViewport(Viewport(originX: .nan, originY: 0, width: 64, height: 64, znear: 0, zfar: 1))
                default: encoder.setViewport(Viewport(originX: 0, originY: 0, width: 0, height: 64, znear: 0, zfar: 1))
                }
            case .missingLevel, .missingSlice:
                let target = try gpu.renderTarget()
                let pass = gpu.clearingPass(target)
                if self == .missingLevel { pass.colorAttachments[0].level = 1 } else { pass.colorAttachments[0].slice = 3 }
                _ = try gpu.queue.makeCommandBuffer().makeRenderCommandEncoder(descriptor: pass)
            case .invertedLOD, .anisotropy:
                let descriptor = SamplerDescriptor()
                if self == .invertedLOD { (descriptor.lodMinClamp, descriptor.lodMaxClamp) = (4, 1) } else { descriptor.maxAnisotropy = 0 }
                _ = try device.makeSamplerState(descriptor: descriptor)
            case .negativeAttributeOffset:
                let descriptor = RenderPipelineDescriptor()
                descriptor.vertexFunction = try gpu.function("triangle.vert")
                descriptor.fragmentFunction = try gpu.function("color.frag")
                descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
                let vertices = VertexDescriptor()
                vertices.attributes[0].format = .float2
                vertices.attributes[0].offset = -4
                vertices.layouts[0].stride = 8
                descriptor.vertexDescriptor = vertices
                _ = try device.makeRenderPipelineState(descriptor: descriptor)
            }
        }
    }

    @Test("misuse stops with the call and the value", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }

    @Test("a texture or buffer over this device's limits, or a format and usage it lacks, throws with the limit")
    func deviceLimits() throws {
        let gpu = try TestGPU()
        let device = gpu.device
        let limits = try #require(device.backend.physical.imageCapabilities(for: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 1, height: 1).spec))
        for width in [1 << 32, Int.max, limits.maxWidth + 1] {
            #expect(throws: GPUError.self) {
                _ = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: width, height: 1))
            }
        }
        do {
            _ = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: limits.maxWidth + 1, height: 1))
        } catch {
            #expect("\(error)" == "makeTexture(descriptor:): \(limits.maxWidth + 1)×1 is over this device's maximum of "
                + "\(limits.maxWidth)×\(limits.maxHeight) for a rgba8Unorm type2D texture with usage [.shaderRead]")
        }
        do {
            _ = try device.makeTexture(descriptor: TextureDescriptor(textureType: .type2DArray, pixelFormat: .rgba8Unorm, width: 4,
                                                                     height: 4, arrayLength: 1 << 32))
            Issue.record("an array length of 2^32 was accepted")
        } catch {
            #expect("\(error)" == "makeTexture(descriptor:): arrayLength 4294967296 is over this device's maximum of "
                + "\(limits.maxLayerCount) for a rgba8Unorm type2DArray texture with usage [.shaderRead]")
        }
        do {
            _ = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm_srgb, width: 4, height: 4,
                                                                     usage: [.shaderRead, .shaderWrite]))
            Issue.record("a storage sRGB texture was accepted")
        } catch {
            #expect("\(error)" == "makeTexture(descriptor:): this device cannot make a rgba8Unorm_srgb type2D texture with usage "
                + "[.shaderRead, .shaderWrite]")
        }
        #expect(throws: GPUError.self) { _ = try device.makeBuffer(length: Int.max) }
        do {
            _ = try device.makeBuffer(length: device.maxBufferLength + 1)
        } catch {
            #expect("\(error)" == "a buffer of \(device.maxBufferLength + 1) bytes is longer than this device's maxBufferLength "
                + "of \(device.maxBufferLength) bytes")
        }
    }

    @Test("a queue with maxCommandBufferCount Int.max works; a viewport depth range of -1...1 is clamped, as Metal accepts it")
    func acceptedExtremes() throws {
        let gpu = try TestGPU()
        let queue = try gpu.device.makeCommandQueue(maxCommandBufferCount: Int.max)
        let counter = try gpu.device.makeBuffer(length: 4)
        let commandBuffer = try gpu.incrementBuffer(counter, on: queue)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 1)

        let target = try gpu.renderTarget()
        let renderBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try renderBuffer.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
        encoder.setViewport(Viewport(originX: 0, originY: 0, width: 64, height: 64, znear: -1, zfar: 1))
        encoder.endEncoding()
        renderBuffer.commit()
        renderBuffer.waitUntilCompleted()
        #expect(renderBuffer.status == .completed)
    }
}
