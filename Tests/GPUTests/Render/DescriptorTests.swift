import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's descriptors are classes set up after `init()`; the objects made from them take a
/// copy, so a descriptor can be changed and reused without reaching what it made.
@Suite("Descriptors as Metal uses them", .validated)
struct DescriptorTests {
    @Test("TextureDescriptor(): Metal's defaults, properties set afterwards, later changes do not reach the texture")
    func textureDescriptor() throws {
        let gpu = try TestGPU()
        let descriptor = TextureDescriptor()
        #expect(descriptor.textureType == .type2D)
        #expect(descriptor.pixelFormat == .rgba8Unorm)
        #expect(descriptor.width == 1 && descriptor.height == 1)
        #expect(descriptor.arrayLength == 1 && descriptor.mipmapLevelCount == 1 && descriptor.sampleCount == 1)
        #expect(descriptor.usage == .shaderRead)
        descriptor.pixelFormat = .bgra8Unorm
        descriptor.width = 64
        descriptor.height = 32
        descriptor.usage = [.shaderRead, .renderTarget]
        let texture = try gpu.device.makeTexture(descriptor: descriptor)
        descriptor.width = 8
        descriptor.pixelFormat = .r32Float
        let second = try gpu.device.makeTexture(descriptor: descriptor)
        #expect(texture.width == 64 && texture.height == 32 && texture.pixelFormat == .bgra8Unorm)
        #expect(texture.descriptor.width == 64 && texture.descriptor.usage == [.shaderRead, .renderTarget])
        #expect(second.width == 8 && second.pixelFormat == .r32Float)
        // The texture's descriptor is a copy too.
        texture.descriptor.width = 1
        #expect(texture.width == 64 && texture.descriptor.width == 64)
    }

    @Test("SamplerDescriptor and DepthStencilDescriptor are copied when the state is made")
    func stateDescriptors() throws {
        let gpu = try TestGPU()
        let sampler = SamplerDescriptor()
        sampler.minFilter = .linear
        sampler.sAddressMode = .repeat
        let linear = try gpu.device.makeSamplerState(descriptor: sampler)
        sampler.minFilter = .nearest
        #expect(linear.descriptor.minFilter == .linear && linear.descriptor.sAddressMode == .repeat)

        let depth = DepthStencilDescriptor()
        #expect(depth.depthCompareFunction == .always && !depth.isDepthWriteEnabled)
        depth.depthCompareFunction = .less
        depth.isDepthWriteEnabled = true
        let stencil = StencilDescriptor()
        stencil.stencilCompareFunction = .equal
        depth.frontFaceStencil = stencil
        let state = gpu.device.makeDepthStencilState(descriptor: depth)
        stencil.stencilCompareFunction = .never
        depth.depthCompareFunction = .greater
        let copy = state.descriptor
        #expect(copy.depthCompareFunction == .less && copy.isDepthWriteEnabled)
        #expect(copy.frontFaceStencil?.stencilCompareFunction == .equal && copy.backFaceStencil == nil)
    }

    @Test("CommandBufferDescriptor is copied when the buffer is made")
    func commandBufferDescriptor() throws {
        let gpu = try TestGPU()
        let descriptor = CommandBufferDescriptor()
        descriptor.criticalForDeactivation = true
        let buffer = try gpu.queue.makeCommandBuffer(descriptor: descriptor)
        descriptor.criticalForDeactivation = false
        #expect(buffer.descriptor.criticalForDeactivation)
        #expect(try !gpu.queue.makeCommandBuffer().descriptor.criticalForDeactivation)
    }

    @Test("colorAttachments as Metal's arrays: an implicitly unwrapped element, a settable index that copies, nil for the defaults; Size() is zero")
    func colorAttachmentArrays() throws {
        let gpu = try TestGPU()
        let target = try gpu.renderTarget(width: 8, height: 8)
        let pass = RenderPassDescriptor()
        let attachment = RenderPassColorAttachmentDescriptor()
        attachment.texture = target
        attachment.loadAction = .clear
        attachment.clearColor = ClearColor(red: 0, green: 1, blue: 0, alpha: 1)
        pass.colorAttachments[0] = attachment
        attachment.clearColor = ClearColor(red: 1, green: 0, blue: 0, alpha: 1)   // after the copy: not the pass's
        #expect(pass.colorAttachments[0]!.texture === target)
        #expect(pass.colorAttachments[0] !== attachment)
        #expect(pass.colorAttachments[1].texture == nil)

        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: pass)
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        #expect(try gpu.pixels(of: target).prefix(4) == [0, 255, 0, 255])

        pass.colorAttachments[0] = nil
        #expect(pass.colorAttachments[0].texture == nil)
        #expect(pass.colorAttachments[0].loadAction == .dontCare)

        let pipeline = RenderPipelineDescriptor()
        let blend = RenderPipelineColorAttachmentDescriptor()
        blend.pixelFormat = .rgba8Unorm
        blend.isBlendingEnabled = true
        pipeline.colorAttachments[2] = blend
        blend.pixelFormat = .bgra8Unorm
        #expect(pipeline.colorAttachments[2].pixelFormat == .rgba8Unorm)
        #expect(pipeline.colorAttachments[2].isBlendingEnabled)

        #expect(Size() == Size(width: 0, height: 0, depth: 0))
    }

    @Test("misuse: a colour attachment index outside 0..<4")
    func colorAttachmentIndexMisuse() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RenderPassDescriptor().colorAttachments[4]
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: colorAttachments[4]: index is outside 0..<4"))
    }
}
