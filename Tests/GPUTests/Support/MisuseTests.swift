import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// API misuse stops the process with a message naming the call. Each case runs in a
/// child process (an exit test) and checks the message on standard error.
@Suite("API misuse stops with a message")
struct MisuseTests {
    @Test("commit twice")
    func commitTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.commit()
            cb.commit()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: commit() called on a command buffer that was already committed"))
    }

    @Test("binding a buffer whose contents were discarded")
    func emptiedBuffer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 64)
            buffer.label = "particles"
            buffer.setPurgeableState(.empty)
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.setBuffer(buffer, offset: 0, index: 0)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setBuffer(_:offset:index:): the buffer 'particles' of 64 bytes was "
            + "used after its contents were discarded (purgeable state empty)"))
    }

    @Test("sampling a texture whose contents were discarded")
    func emptiedTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.renderTarget()
            texture.setPurgeableState(.empty)
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.setTexture(texture, index: 0)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setTexture(_:index:): the texture (64×64 rgba8Unorm) was used after "
            + "its contents were discarded (purgeable state empty)"))
    }

    @Test("rendering into a texture whose contents were discarded")
    func emptiedRenderTarget() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.renderTarget()
            texture.setPurgeableState(.empty)
            texture.label = "scene"
            _ = try gpu.queue.makeCommandBuffer().makeRenderCommandEncoder(descriptor: gpu.clearingPass(texture))
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: makeRenderCommandEncoder(descriptor:): the texture 'scene' "
            + "(64×64 rgba8Unorm) was used after its contents were discarded (purgeable state empty)"))
    }

    @Test("getBytes from a texture whose contents were discarded")
    func emptiedTextureGetBytes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.renderTarget()
            texture.setPurgeableState(.empty)
            _ = try gpu.pixels(of: texture)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: getBytes(_:bytesPerRow:from:mipmapLevel:slice:): the texture "
            + "(64×64 rgba8Unorm) was used after its contents were discarded (purgeable state empty)"))
    }

    @Test("replace into a texture whose contents were discarded")
    func emptiedTextureReplace() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.renderTarget()
            texture.setPurgeableState(.empty)
            let texel: [UInt8] = [1, 2, 3, 4]
            texture.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: texel, bytesPerRow: 4)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: replace(region:mipmapLevel:slice:withBytes:bytesPerRow:): the texture "
            + "(64×64 rgba8Unorm) was used after its contents were discarded (purgeable state empty)"))
    }

    @Test("a shared texture made volatile")
    func volatileSharedTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.device.makeSharedTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 4, height: 4,
                                                                                  mipmapped: false))
            texture.setPurgeableState(.volatile)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setPurgeableState(.volatile) on a shared texture (made by "
            + "makeSharedTexture(descriptor:)), the texture (4×4 rgba8Unorm): another API may be using its memory, so it cannot be made volatile or empty"))
    }

    @Test("a drawable's texture (a swapchain image) made volatile")
    func volatileDrawableTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            // -terminate: the server exits when this process's connections close at the stop.
            let fixture = try XWindowFixture(gpu, width: 64, height: 64, serverArguments: ["-terminate"])
            let drawable = try #require(fixture.layer.nextDrawable())
            drawable.texture.setPurgeableState(.volatile)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setPurgeableState(.volatile) on a drawable's texture, the texture (64×64 "))
        #expect(stderr(result).contains("): the swapchain owns its memory, so it cannot be made volatile or empty"))
    }

    @Test("encoding after commit")
    func encodeAfterCommit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.commit()
            _ = try cb.makeComputeCommandEncoder()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: makeComputeCommandEncoder() called after commit()"))
    }

    @Test("a storage buffer bound at an offset the device cannot bind")
    func misalignedStorageOffset() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeComputeCommandEncoder()
            encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
            encoder.setBuffer(try gpu.device.makeBuffer(length: 64), offset: 4, index: 0)
            var amount: UInt32 = 1
            encoder.setBytes(&amount, length: 4, index: 3)
            encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): compute buffer index 0 "
            + "is bound at offset 4, which is not a multiple of this device's 16-byte alignment for storage buffers"))
    }

    @Test("setVertexBufferOffset where setVertexBytes data is bound")
    func bufferOffsetOnBytes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(try gpu.renderTarget()))
            var bytes: [Float] = [0, 0, 0, 0]
            encoder.setVertexBytes(&bytes, length: 16, index: 2)
            encoder.setVertexBufferOffset(0, index: 2)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setVertexBufferOffset(_:index:): no buffer is set at vertex buffer index 2"))
    }

    @Test("unbalanced debug groups: a pop with none pushed, a commit or endEncoding with one still pushed")
    func unbalancedDebugGroups() async {
        let pop = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            try gpu.queue.makeCommandBuffer().popDebugGroup()
        }
        #expect(stderr(pop).contains("SwiftGPU API misuse: popDebugGroup() called with no debug group pushed"))
        let commit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.pushDebugGroup("open")
            cb.commit()
        }
        #expect(stderr(commit).contains(
            "SwiftGPU API misuse: commit() called with 1 debug group still pushed; call popDebugGroup() first"))
        let end = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeBlitCommandEncoder()
            encoder.pushDebugGroup("a")
            encoder.pushDebugGroup("b")
            encoder.endEncoding()
        }
        #expect(stderr(end).contains(
            "SwiftGPU API misuse: endEncoding() called with 2 debug groups still pushed; call popDebugGroup() first"))
    }

    @Test("dispatch sizes that are negative or need more than 2^32 - 1 groups")
    func impossibleDispatchSizes() async {
        let negative = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
            encoder.dispatchThreadgroups(Size(width: -1), threadsPerThreadgroup: Size(width: 1))
        }
        #expect(stderr(negative).contains(
            "SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): threadgroups -1×1×1 has a negative dimension"))
        let huge = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
            encoder.setBuffer(try gpu.device.makeBuffer(length: 4), offset: 0, index: 0)
            var amount: UInt32 = 1
            encoder.setBytes(&amount, length: 4, index: 3)
            encoder.dispatchThreads(Size(width: Int.max), threadsPerThreadgroup: Size(width: 1))
        }
        #expect(stderr(huge).contains("needs more than 4,294,967,295 threadgroups in a dimension"))
    }

    @Test("waits that would never end: a handler waiting on its own queue, a signal for an earlier buffer of the queue, a lowering signal")
    func waitsThatNeverEnd() async {
        let handler = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // The first buffer is held on an event until both are committed, so the handler
            // always finds the later buffer committed and not yet completed.
            let gpu = try TestGPU()
            let gate = try gpu.device.makeSharedEvent()
            let first = try gpu.queue.makeCommandBuffer()
            first.encodeWaitForEvent(gate, value: 1)
            let later = try gpu.queue.makeCommandBuffer()
            first.addCompletedHandler { _ in later.waitUntilCompleted() }
            first.commit()
            later.commit()
            gate.signaledValue = 1
            first.waitUntilCompleted()
        }
        #expect(stderr(handler).contains("SwiftGPU API misuse: waitUntilCompleted() called from a completed handler of the same "
            + "queue on a command buffer that has not completed"))
        let order = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let event = try gpu.device.makeSharedEvent()
            let waiter = try gpu.queue.makeCommandBuffer()
            waiter.encodeWaitForEvent(event, value: 1)
            let signaller = try gpu.queue.makeCommandBuffer()
            signaller.encodeSignalEvent(event, value: 1)
            waiter.commit()
            signaller.commit()
        }
        #expect(stderr(order).contains("SwiftGPU API misuse: commit() of a command buffer that signals an event to 1, which a "
            + "command buffer enqueued before it on the same queue waits for (value 1)"))
        let lower = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let event = try gpu.device.makeSharedEvent()
            event.signaledValue = 5
            try gpu.queue.makeCommandBuffer().encodeSignalEvent(event, value: 3)
        }
        #expect(stderr(lower).contains("SwiftGPU API misuse: encodeSignalEvent(_:value:) with 3, which is not greater than the "
            + "event's current 5"))
    }

    @Test("two open encoders")
    func twoOpenEncoders() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let first = try cb.makeComputeCommandEncoder()
            _ = try cb.makeBlitCommandEncoder()
            first.endEncoding()
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: makeBlitCommandEncoder() called while a compute command encoder is still open; call endEncoding() on it first"))
    }

    @Test("commit with an open encoder")
    func commitWithOpenEncoder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeBlitCommandEncoder()
            cb.commit()
            encoder.endEncoding()
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: commit() called while a blit command encoder is still open; call endEncoding() first"))
    }

    @Test("adding a completed handler after commit")
    func completedHandlerAfterCommit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.commit()
            cb.addCompletedHandler { _ in }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: addCompletedHandler(_:) called after commit()"))
    }

    @Test("adding a scheduled handler after commit")
    func scheduledHandlerAfterCommit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.commit()
            cb.addScheduledHandler { _ in }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: addScheduledHandler(_:) called after commit()"))
    }

    @Test("using an encoder after endEncoding")
    func encoderAfterEnd() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeComputeCommandEncoder()
            encoder.endEncoding()
            encoder.setComputePipelineState(try gpu.pipeline("add.comp"))
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: setComputePipelineState(_:) called on a compute command encoder after endEncoding()"))
    }

    @Test("dispatch with a shader slot left unbound")
    func unboundSlot() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeComputeCommandEncoder()
            encoder.setComputePipelineState(try gpu.pipeline("increment.comp"))
            var amount: UInt32 = 1
            encoder.setBytes(&amount, length: 4, index: 3)
            encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): 'increment.comp' uses compute buffer index 0, but no buffer or bytes are set there"))
    }

    @Test("setBytes above 4 KB")
    func setBytesTooLarge() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeComputeCommandEncoder()
            let bytes = [UInt8](repeating: 0, count: 5000)
            encoder.setBytes(bytes, length: 5000, index: 0)
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: setBytes(_:length:index:): length 5000 is outside 1...4096 bytes; use a buffer for larger data"))
    }

    @Test("threadsPerThreadgroup that differs from the shader's")
    func wrongThreadgroupSize() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeComputeCommandEncoder()
            encoder.setComputePipelineState(try gpu.pipeline("add.comp"))
            encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 32))
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): threadsPerThreadgroup 32×1×1 differs from the 64×1×1 that 'add.comp' declares"))
    }

    @Test("contents() of a private buffer")
    func privateContents() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 16, options: .storageModePrivate)
            buffer.label = "gpu-only"
            _ = buffer.contents()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: contents() called on the buffer 'gpu-only' of 16 bytes, which has "
            + "private storage; use a shared buffer or a blit copy"))
    }

    @Test("enqueue twice")
    func enqueueTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let cb = try gpu.queue.makeCommandBuffer()
            cb.enqueue()
            cb.enqueue()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: enqueue() called on a command buffer that is already enqueued"))
    }

    @Test("waiting before commit")
    func waitBeforeCommit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            try gpu.queue.makeCommandBuffer().waitUntilCompleted()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: waitUntilCompleted() called before commit()"))
    }
}

@Suite("Texture misuse stops with a message")
struct TextureMisuseTests {
    @Test("replace outside the level")
    func replaceOutside() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 8, height: 8, mipmapped: false))
            let bytes = [UInt8](repeating: 0, count: 1024)
            texture.replace(region: Region(x: 4, y: 0, width: 8, height: 8), mipmapLevel: 0, withBytes: bytes, bytesPerRow: 32)
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: replace(region:mipmapLevel:slice:withBytes:bytesPerRow:): region 4,0 8×8×1 is outside level 0's 8×8×1 "
                + "of the texture (8×8 rgba8Unorm)"))
    }
}

@Suite("Render misuse stops with a message")
struct RenderMisuseTests {
    @Test("a pipeline whose attachment formats differ from the pass")
    func formatMismatch() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let target = try gpu.renderTarget(format: .bgra8Unorm)
            let pipeline = try RenderTests.colorPipeline(gpu, format: .rgba8Unorm)
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(pipeline)
        }
        #expect(stderr(result).contains(
            "SwiftGPU API misuse: setRenderPipelineState(_:): pipeline 'triangle.vert + color.frag' renders to colour [rgba8Unorm], "
                + "depth none, 1× samples, but the pass has colour [bgra8Unorm], depth none, 1× samples"))
    }

    @Test("a fragment texture the shader uses left unbound")
    func unboundTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let target = try gpu.renderTarget()
            let descriptor = RenderPipelineDescriptor()
            descriptor.vertexFunction = try gpu.function("fullscreen.vert")
            descriptor.fragmentFunction = try gpu.function("textured.frag")
            descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
            let pipeline = try gpu.device.makeRenderPipelineState(descriptor: descriptor)
            let cb = try gpu.queue.makeCommandBuffer()
            let encoder = try cb.makeRenderCommandEncoder(descriptor: gpu.clearingPass(target))
            encoder.setRenderPipelineState(pipeline)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        }
        #expect(stderr(result).contains("uses fragment texture index 0, but no texture is set there"))
    }

    @Test("useResource of another device's buffer")
    func useResourceOtherDevice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let other = try TestGPU()
            let buffer = try other.device.makeBuffer(length: 256)
            buffer.label = "theirs"
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.useResource(buffer, usage: .read)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: useResource(_:usage:): the buffer 'theirs' of 256 bytes belongs to "
            + "another device than the command buffer's"))
    }

    @Test("useResource of a resource type the app defined")
    func useResourceForeignType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Handmade: Resource {}
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.useResource(Handmade(), usage: .read)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: useResource(_:usage:): Handmade is not a Buffer or a Texture; "
            + "SwiftGPU can track only the resources it made"))
    }

    @Test("a compute encoder called from inside its withUnsafeVulkanCommandBuffer")
    func computeCallInsideHostCommands() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let buffer = try gpu.device.makeBuffer(length: 64)
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.withUnsafeVulkanCommandBuffer { _ in encoder.setBuffer(buffer, offset: 0, index: 0) }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: setBuffer(_:offset:index:) called on a compute command encoder "
            + "inside its withUnsafeVulkanCommandBuffer(_:)"))
    }

    @Test("a render encoder ended from inside its withUnsafeVulkanCommandBuffer")
    func renderEndInsideHostCommands() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeRenderCommandEncoder(descriptor: gpu.clearingPass(gpu.renderTarget()))
            encoder.withUnsafeVulkanCommandBuffer { _ in encoder.endEncoding() }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: endEncoding() called on a render command encoder "
            + "inside its withUnsafeVulkanCommandBuffer(_:)"))
    }

    /// A kernel that reads texture index 0 as a storage image (Metal's `access::read`).
    static let imageLoadKernel = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 32, rgba8) uniform readonly image2D source;
        layout(std430, set = 0, binding = 0) buffer Out { vec4 texel; };
        void main() { texel = imageLoad(source, ivec2(0)); }
        """

    @Test("a kernel that reads a .shaderRead-only texture as a storage image (Metal's access::read)")
    func storageReadOfSampledTexture() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let texture = try gpu.renderTarget(width: 4, height: 4, usage: [.shaderRead])
            let options = CompileOptions()
            options.functionName = "load"
            let kernel = """
                #version 450
                #pragma shader_stage(compute)
                layout(local_size_x = 1) in;
                layout(set = 0, binding = 32, rgba8) uniform readonly image2D source;
                layout(std430, set = 0, binding = 0) buffer Out { vec4 texel; };
                void main() { texel = imageLoad(source, ivec2(0)); }
                """
            let pipeline = try gpu.device.makeComputePipelineState(
                function: gpu.device.makeLibrary(source: kernel, options: options).makeFunction(name: "load"))
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            encoder.setComputePipelineState(pipeline)
            encoder.setTexture(texture, index: 0)
            encoder.setBuffer(try gpu.device.makeBuffer(length: 16), offset: 0, index: 0)
            encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): 'load' uses compute "
            + "texture index 0 as a storage image (imageLoad/imageStore, Metal's access::read or access::write), which needs a "
            + "texture made with .shaderWrite usage"))
    }

    @Test("the same kernel reads a texture made with .shaderWrite usage")
    func storageReadOfWritableTexture() throws {
        let gpu = try TestGPU()
        let texture = try gpu.renderTarget(width: 4, height: 4, usage: [.shaderRead, .shaderWrite])
        let texel: [UInt8] = [10, 20, 30, 40]
        texture.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: texel, bytesPerRow: 4)
        let pipeline = try gpu.device.makeComputePipelineState(
            function: gpu.device.makeLibrary(source: Self.imageLoadKernel).makeFunction(name: "main"))
        let output = try gpu.device.makeBuffer(length: 16)
        let cb = try gpu.queue.makeCommandBuffer()
        let encoder = try cb.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setTexture(texture, index: 0)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
        encoder.endEncoding()
        cb.commit()
        cb.waitUntilCompleted()
        let read = UnsafeBufferPointer(start: output.contents().bindMemory(to: Float.self, capacity: 4), count: 4)
        #expect(read.map { ($0 * 255).rounded() } == [10, 20, 30, 40])
    }
}
