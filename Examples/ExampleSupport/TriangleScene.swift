import Dispatch
import GPU
import GPUFoundationCompat
import Shaders
import Synchronization

/// The picture the embedding examples draw: a triangle with a red, a green and a blue
/// corner over a clear colour, for a texture or a layer's drawables of one pixel format.
public final class TriangleScene: Sendable {
    private let queue: CommandQueue
    private let pipeline: RenderPipelineState
    private let vertices: Buffer
    private let presented = DispatchGroup()
    private let shownCount = Mutex(0)

    /// A scene drawing into textures of `pixelFormat` with `device`'s bundled shaders,
    /// committing on `queue`.
    public init(device: Device, queue: CommandQueue, pixelFormat: PixelFormat) throws {
        self.queue = queue
        let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "triangle.vert")
        descriptor.fragmentFunction = try library.makeFunction(name: "color.frag")
        let layout = VertexDescriptor()
        layout.attributes[0].format = .float2             // position
        layout.attributes[1].format = .float4             // colour
        layout.attributes[1].offset = 8
        layout.layouts[0].stride = 24
        descriptor.vertexDescriptor = layout
        descriptor.colorAttachments[0].pixelFormat = pixelFormat
        pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
        let corners: [Float] = [0, 0.8, 1, 0, 0, 1, 0.8, -0.8, 0, 1, 0, 1, -0.8, -0.8, 0, 0, 1, 1]
        vertices = try corners.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
    }

    /// A command buffer that clears `texture` to `clear` and draws the triangle into it,
    /// `scale` times its full size; not yet committed.
    public func draw(into texture: Texture, clear: ClearColor, scale: Float = 1) throws -> CommandBuffer {
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = texture
        pass.colorAttachments[0].loadAction = .clear
        pass.colorAttachments[0].storeAction = .store
        pass.colorAttachments[0].clearColor = clear
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        var transform: [Float] = [0, 0, scale, scale, 0.5, 0, 0, 0]
        encoder.setVertexBytes(&transform, length: 32, index: 2)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        return commandBuffer
    }

    /// Draws a frame into `drawable`, presents and commits it; counted in `shown` once the
    /// display shows it.
    public func present(_ drawable: Drawable, clear: ClearColor) throws {
        let commandBuffer = try draw(into: drawable.texture, clear: clear)
        presented.enter()
        drawable.addPresentedHandler { [self] drawable in
            if drawable.presentedTime > 0 { shownCount.withLock { $0 += 1 } }
            presented.leave()
        }
        commandBuffer.present(drawable)
        commandBuffer.commit()
    }

    /// How many presented frames the display has shown.
    public var shown: Int { shownCount.withLock { $0 } }

    /// Waits until every presented frame was shown or dropped; false after 5 s.
    public func waitForPresentedFrames() -> Bool { presented.wait(timeout: .now() + 5) == .success }
}
