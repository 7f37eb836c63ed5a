import GPUTestSupport
import Metal
import Testing

/// SwiftGPU's stencil is the depth attachment's depth-stencil texture: a pass that sets a
/// stencil attachment otherwise is stopped, naming what differs.
@Suite("Metal's stencil attachment: misuse")
struct MTLRenderPassStencilMisuseTests {
    /// A pass with a colour target and `depth` as its depth attachment, made into an encoder
    /// after `configure` set its stencil attachment.
    static func encode(depth format: MTLPixelFormat, _ configure: (MTLRenderPassDescriptor, MTLTexture) -> Void) {
        let device = MTLCreateSystemDefaultDevice()!
        let descriptor = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: format, width: 4, height: 4, mipmapped: false)
        descriptor.usage = .renderTarget
        let depth = device.makeTexture(descriptor: descriptor)!
        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = RenderTargets.make(device, width: 4, height: 4)
        pass.depthAttachment.texture = depth
        configure(pass, depth)
        _ = device.makeCommandQueue()!.makeCommandBuffer()!.makeRenderCommandEncoder(descriptor: pass)
    }

    @Test("misuse: a stencil texture that is not the depth attachment's stops, naming both attachments")
    func otherTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Self.encode(depth: .depth32Float_stencil8) { pass, _ in
                let other = MTLTextureDescriptor.texture2DDescriptor(pixelFormat: .depth32Float_stencil8, width: 4, height: 4,
                                                                     mipmapped: false)
                other.usage = .renderTarget
                pass.stencilAttachment.texture = MTLCreateSystemDefaultDevice()!.makeTexture(descriptor: other)
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: makeRenderCommandEncoder(descriptor:): stencilAttachment.texture is not depthAttachment.texture"))
    }

    @Test("misuse: a stencil attachment on a depth format without stencil stops, naming the format")
    func noStencil() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Self.encode(depth: .depth32Float) { pass, depth in pass.stencilAttachment.texture = depth }
        }
        #expect(stderr(result).contains("stencilAttachment.texture's format depth32Float has no stencil"))
    }

    @Test("misuse: stencil actions that differ from the depth attachment's stop, naming both")
    func otherActions() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Self.encode(depth: .depth32Float_stencil8) { pass, depth in
                pass.stencilAttachment.texture = depth
                pass.stencilAttachment.storeAction = .store
            }
        }
        #expect(stderr(result).contains("stencilAttachment's actions (clear, store) differ from depthAttachment's (clear, dontCare)"))
    }
}
