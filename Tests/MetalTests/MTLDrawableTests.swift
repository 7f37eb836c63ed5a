import GPU
import GPUTestSupport
import Metal
import Testing

/// A frame rendered and presented as Metal code does, into a headless layer's drawable on
/// SwiftGPU's virtual display (the time advanced by hand, no sleeps).
@Suite("Metal's drawables", .validated)
struct MTLDrawableTests {
    @Test("commandBuffer.present(drawable) shows the cleared drawable at the display's next vblank, and its presented handler runs")
    func presentOnVirtualDisplay() throws {
        let display = VirtualDisplay(refreshRate: 60)
        let metalDevice = MTLCreateSystemDefaultDevice()!
        let layer = try Layer(device: metalDevice as! Device, surface: .headless(width: 8, height: 8, display: display))
        let shown = Locked<[Double]>([])

        let commandQueue = metalDevice.makeCommandQueue()!
        let gpuDrawable = try #require(layer.nextDrawable())
        let drawable: MTLDrawable = gpuDrawable
        drawable.addPresentedHandler { presented in shown.withLock { $0.append(presented.presentedTime) } }
        let pass = MTLRenderPassDescriptor()
        pass.colorAttachments[0].texture = gpuDrawable.texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].clearColor = MTLClearColorMake(0, 1, 0, 1)
        let commandBuffer = commandQueue.makeCommandBuffer()!
        let encoder = commandBuffer.makeRenderCommandEncoder(descriptor: pass)!
        encoder.endEncoding()
        commandBuffer.present(drawable)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()

        #expect(shown.withLock { $0 }.isEmpty, "nothing shown before the first vblank")
        display.advance(by: .milliseconds(100))
        let (seconds, attoseconds) = display.vblankTime(1).components
        let firstVblank = Double(seconds) + Double(attoseconds / 1_000_000_000) / 1e9
        #expect(shown.withLock { $0 } == [firstVblank])
        #expect(drawable.presentedTime == firstVblank)
        let pixel = RenderTargets.pixels(of: gpuDrawable.texture)
        #expect(pixel(0, 0) == [0, 255, 0, 255], "bgra: green")
    }
}
