import GPU
import GPUTestSupport
import MetalKit
import Testing

/// A renderer written as for Apple's MetalKit, driving a headless `MTKView` on the virtual
/// display (its time advanced by hand, no sleeps).
@MainActor
final class ClearingRenderer: NSObject, MTKViewDelegate {
    let commandQueue: MTLCommandQueue
    var sizes: [CGSize] = []
    var presented: [MTLDrawable] = []
    /// Whether each frame waits for its command buffer (false: frames stay in flight).
    var waitsForCompletion = true

    init(device: MTLDevice) {
        commandQueue = device.makeCommandQueue()!
    }

    func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize) {
        sizes.append(size)
    }

    func draw(in view: MTKView) {
        guard let renderPassDescriptor = view.currentRenderPassDescriptor,
              let drawable = view.currentDrawable else { return }
        let commandBuffer = commandQueue.makeCommandBuffer()!
        let renderEncoder = commandBuffer.makeRenderCommandEncoder(descriptor: renderPassDescriptor)!
        renderEncoder.endEncoding()
        commandBuffer.present(drawable)
        commandBuffer.commit()
        if waitsForCompletion { commandBuffer.waitUntilCompleted() }
        presented.append(drawable)
    }
}

@Suite("MetalKit's view, headless", .validated)
@MainActor
struct MTKViewTests {
    @Test("draw() runs the delegate, whose frame cleared to the view's clearColor is shown at the next vblank")
    func drawOneFrame() throws {
        let display = VirtualDisplay(refreshRate: 60)
        let device = MTLCreateSystemDefaultDevice()!
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 16, height: 8), device: device, display: display)
        view.isPaused = true
        view.clearColor = MTLClearColorMake(1, 0, 0, 1)
        let renderer = ClearingRenderer(device: device)
        view.delegate = renderer

        view.draw()
        #expect(renderer.presented.count == 1)
        let drawable = try #require(renderer.presented.first as? Drawable)
        #expect(drawable.texture.width == 16 && drawable.texture.height == 8)
        #expect(drawable.presentedTime == 0, "not shown before the vblank")
        display.advance(by: .milliseconds(20))
        #expect(drawable.presentedTime > 0)
        var pixels = [UInt8](repeating: 0, count: 16 * 8 * 4)
        drawable.texture.getBytes(&pixels, bytesPerRow: 16 * 4, from: MTLRegionMake2D(0, 0, 16, 8), mipmapLevel: 0)
        #expect(Array(pixels[0..<4]) == [0, 0, 255, 255], "bgra: red")

        #expect(view.preferredFramesPerSecond == 60, "MetalKit's default rate")
        view.preferredFramesPerSecond = 120
        #expect(view.preferredFramesPerSecond == 120)

        view.drawableSize = CGSize(width: 32, height: 32)
        #expect(renderer.sizes == [CGSize(width: 32, height: 32)])
        view.draw()
        let second = try #require(renderer.presented.last as? Drawable)
        #expect(second.texture.width == 32)
    }

    @Test("draw() without waiting: each frame gets a drawable of its own while three earlier ones are in flight, the display's vblanks passing while the view waits")
    func framesInFlight() throws {
        let display = VirtualDisplay(refreshRate: 60)
        let device = MTLCreateSystemDefaultDevice()!
        let view = MTKView(frame: CGRect(x: 0, y: 0, width: 16, height: 8), device: device, display: display)
        view.isPaused = true
        let renderer = ClearingRenderer(device: device)
        renderer.waitsForCompletion = false
        view.delegate = renderer
        // The renderer's queue is held, as a busy GPU holds it.
        let queue = try #require(renderer.commandQueue as? CommandQueue)
        let event = try (device as! Device).makeSharedEvent()
        let gate: CommandBuffer = try queue.makeCommandBuffer()
        gate.encodeWaitForEvent(event, value: 1)
        gate.commit()
        for _ in 0..<3 {
            view.draw()
            display.advance(by: .seconds(1 / display.refreshRate))
        }
        #expect(renderer.presented.count == 3)
        #expect(renderer.presented.allSatisfy { $0.presentedTime == 0 }, "three frames in flight, none shown")
        event.signaledValue = 1
        for _ in 0..<3 {
            view.draw()
            display.advance(by: .seconds(1 / display.refreshRate))
        }
        #expect(Set(renderer.presented.map(\.drawableID)).count == 6)
        #expect(renderer.presented[0].presentedTime > 0)
    }
}

@Suite("MetalKit's view: misuse")
struct MTKViewMisuseTests {
    @Test("misuse: a device that is not SwiftGPU's stops MTKView.device, naming the type")
    func foreignDevice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class ForeignDevice: MTLDevice, @unchecked Sendable {
                var name: String { "foreign" }
                func makeCommandQueue() -> MTLCommandQueue? { nil }
                func makeCommandQueue(maxCommandBufferCount: Int) -> MTLCommandQueue? { nil }
                func makeBuffer(length: Int, options: MTLResourceOptions) -> MTLBuffer? { nil }
                func makeBuffer(bytes pointer: UnsafeRawPointer, length: Int, options: MTLResourceOptions) -> MTLBuffer? { nil }
                func makeDefaultLibrary() -> MTLLibrary? { nil }
                func makeLibrary(source: String, options: MTLCompileOptions?) throws -> MTLLibrary { fatalError("unused") }
                func makeComputePipelineState(function: MTLFunction) throws -> MTLComputePipelineState { fatalError("unused") }
                func makeRenderPipelineState(descriptor: MTLRenderPipelineDescriptor) throws -> MTLRenderPipelineState {
                    fatalError("unused")
                }
                func makeTexture(descriptor: MTLTextureDescriptor) -> MTLTexture? { nil }
                func makeSamplerState(descriptor: MTLSamplerDescriptor) -> MTLSamplerState? { nil }
                func makeDepthStencilState(descriptor: MTLDepthStencilDescriptor) -> MTLDepthStencilState? { nil }
            }
            await MainActor.run {
                _ = MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: ForeignDevice())
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: MTKView.device: ForeignDevice is not a SwiftGPU Device"))
    }

    @Test("misuse: a preferred frame rate below 1 stops, naming the property and the rate")
    func frameRateBelowOne() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let view = MTKView(frame: CGRect(x: 0, y: 0, width: 4, height: 4), device: nil)
                view.preferredFramesPerSecond = 0
            }
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: MTKView.preferredFramesPerSecond: 0 is below 1 frame per second"))
    }
}

