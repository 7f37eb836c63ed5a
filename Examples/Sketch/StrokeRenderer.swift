import GPU
import PointerInput

/// Draws strokes: committed segments into a canvas texture that keeps them, and each
/// frame the canvas plus the predicted tail (the segment from a contact's latest sample to
/// its predicted one) into the drawable. The tail is provisional: the next frame draws the
/// canvas again, with the real samples that replaced it.
final class StrokeRenderer {
    static let ink = (red: Float(1), green: Float(1), blue: Float(1), alpha: Float(1))
    static let tail = (red: Float(1), green: Float(0.3), blue: Float(0.2), alpha: Float(1))
    /// Stroke width in pixels.
    static let width = 4.0

    let device: Device
    private let strokes: RenderPipelineState
    private let copy: RenderPipelineState
    private(set) var canvas: Texture?
    /// Each contact's latest sample while it is down: the start of its next segment.
    private var last: [InputContactID: InputSample] = [:]
    /// Segments taken from frames and not yet drawn into the canvas.
    private var pending: [(SIMD2<Double>, SIMD2<Double>)] = []
    /// The latest frame's predicted samples: the tails to draw.
    private var predicted: [InputSample] = []

    init(device: Device, pixelFormat: PixelFormat) throws {
        self.device = device
        let library = try device.makeDefaultLibrary()
        let nearest = SamplerDescriptor()
        let strokes = RenderPipelineDescriptor()
        strokes.vertexFunction = try library.makeFunction(name: "stroke.vert")
        strokes.fragmentFunction = try library.makeFunction(name: "stroke.frag")
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.layouts[0].stride = 8
        strokes.vertexDescriptor = vertices
        strokes.colorAttachments[0].pixelFormat = pixelFormat
        self.strokes = try device.makeRenderPipelineState(descriptor: strokes)
        let copy = RenderPipelineDescriptor()
        copy.vertexFunction = try library.makeFunction(name: "canvas.vert")
        copy.fragmentFunction = try library.makeFunction(name: "canvas.frag", constantSamplers: [0: nearest])
        copy.colorAttachments[0].pixelFormat = pixelFormat
        self.copy = try device.makeRenderPipelineState(descriptor: copy)
    }

    /// Takes a frame's samples: its coalesced samples become segments for the canvas, and
    /// its predicted samples the tails the next render draws.
    func take(_ frame: InputFrame) {
        for sample in frame.coalescedSamples {
            let contact = sample.contactID
            if let from = last[contact], sample.phase == .moved || sample.phase == .ended {
                pending.append((from.position, sample.position))
            }
            if sample.phase.isDown { last[contact] = sample } else { last[contact] = nil }
        }
        predicted = frame.predictedSamples
    }

    /// Renders into `drawable` with `commandBuffer`: the segments taken since the last
    /// render into the canvas, then the canvas and the predicted tails into the drawable.
    func render(into drawable: Drawable, commandBuffer: CommandBuffer) throws {
        let size = (drawable.texture.width, drawable.texture.height)
        var fresh = false
        if canvas?.width != size.0 || canvas?.height != size.1 {
            canvas = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: drawable.texture.pixelFormat,
                                                                          width: size.0, height: size.1,
                                                                          usage: [.renderTarget, .shaderRead]))
            fresh = true
        }
        let canvas = canvas!
        let segments = pending
        pending = []
        let toCanvas = RenderPassDescriptor()
        toCanvas.colorAttachments[0].texture = canvas
        toCanvas.colorAttachments[0].loadAction = fresh ? .clear : .load
        toCanvas.colorAttachments[0].clearColor = ClearColor(red: 0.08, green: 0.08, blue: 0.12, alpha: 1)
        let canvasEncoder = try commandBuffer.makeRenderCommandEncoder(descriptor: toCanvas)
        draw(segments, color: Self.ink, size: size, encoder: canvasEncoder)
        canvasEncoder.endEncoding()

        let toDrawable = RenderPassDescriptor()
        toDrawable.colorAttachments[0].texture = drawable.texture
        toDrawable.colorAttachments[0].loadAction = .dontCare
        let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: toDrawable)
        encoder.setRenderPipelineState(copy)
        encoder.setFragmentTexture(canvas, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        let tails = predicted.compactMap { predicted in
            last[predicted.contactID].map { ($0.position, predicted.position) }
        }
        draw(tails, color: Self.tail, size: size, encoder: encoder)
        encoder.endEncoding()
    }

    /// Draws `segments` as quads `width` pixels wide, in batches that fit `setVertexBytes`.
    private func draw(_ segments: [(SIMD2<Double>, SIMD2<Double>)], color: (red: Float, green: Float, blue: Float, alpha: Float),
                      size: (Int, Int), encoder: RenderCommandEncoder) {
        guard !segments.isEmpty else { return }
        encoder.setRenderPipelineState(strokes)
        var viewport = SIMD2<Float>(Float(size.0), Float(size.1))
        encoder.setVertexBytes(&viewport, length: 8, index: 1)
        var ink = SIMD4<Float>(color.red, color.green, color.blue, color.alpha)
        encoder.setFragmentBytes(&ink, length: 16, index: 0)
        let perDraw = 4096 / (6 * 8)
        for start in stride(from: 0, to: segments.count, by: perDraw) {
            var vertices: [SIMD2<Float>] = []
            for (a, b) in segments[start..<min(start + perDraw, segments.count)] {
                let along = b - a
                let length = (along * along).sum().squareRoot()
                let normal = length > 0 ? SIMD2(-along.y, along.x) / length * (Self.width / 2) : SIMD2(Self.width / 2, 0)
                // Each end reaches half a width past its sample, so that segments join.
                let extend = length > 0 ? along / length * (Self.width / 2) : .zero
                let (p, q) = (a - extend, b + extend)
                let corners = [p + normal, p - normal, q + normal, q - normal].map { SIMD2<Float>(Float($0.x), Float($0.y)) }
                vertices += [corners[0], corners[1], corners[2], corners[2], corners[1], corners[3]]
            }
            encoder.setVertexBytes(vertices, length: vertices.count * 8, index: 0)
            encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: vertices.count)
        }
    }
}
