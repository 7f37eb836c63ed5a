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
}
