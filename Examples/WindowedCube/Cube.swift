import Foundation
import GPU
import GPUFoundationCompat
import Shaders

/// The cube's geometry and pipeline, and the matrix that spins it.
struct Cube {
    let pipeline: RenderPipelineState
    let depthState: DepthStencilState
    let vertices: Buffer
    static let vertexCount = 36

    init(device: Device, colorFormat: PixelFormat) throws {
        let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
        let descriptor = RenderPipelineDescriptor()
        descriptor.vertexFunction = try library.makeFunction(name: "cube.vert")
        descriptor.fragmentFunction = try library.makeFunction(name: "color.frag")
        let layout = VertexDescriptor()
        layout.attributes[0].format = .float3             // position
        layout.attributes[1].format = .float3             // colour
        layout.attributes[1].offset = 12
        layout.layouts[0].stride = 24
        descriptor.vertexDescriptor = layout
        descriptor.colorAttachments[0].pixelFormat = colorFormat
        descriptor.depthAttachmentPixelFormat = .depth32Float
        pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
        let depth = DepthStencilDescriptor()
        depth.depthCompareFunction = .less
        depth.isDepthWriteEnabled = true
        depthState = device.makeDepthStencilState(descriptor: depth)
        let data = Self.triangles()
        vertices = try data.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
    }

    /// 12 triangles, two per face, each face one colour: x y z r g b per vertex.
    static func triangles() -> [Float] {
        // Each face: its normal axis, its side and its colour (no culling: the depth test hides the back).
        let faces: [(axis: Int, sign: Float, color: (Float, Float, Float))] = [
            (0, 1, (0.9, 0.2, 0.2)), (0, -1, (0.2, 0.8, 0.8)),
            (1, 1, (0.2, 0.9, 0.2)), (1, -1, (0.8, 0.2, 0.8)),
            (2, 1, (0.2, 0.3, 0.9)), (2, -1, (0.9, 0.8, 0.2)),
        ]
        var data: [Float] = []
        for face in faces {
            let u = (face.axis + 1) % 3, v = (face.axis + 2) % 3
            let corners: [(Float, Float)] = [(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)]
            for (a, b) in corners {
                var p: [Float] = [0, 0, 0]
                p[face.axis] = face.sign * 0.5
                p[u] = a * 0.5
                p[v] = b * 0.5
                data += p + [face.color.0, face.color.1, face.color.2]
            }
        }
        return data
    }

    /// Column-major model-view-projection for Metal's clip space (y up, depth 0…1), as a
    /// Metal app writes it: the cube turned by `angle` radians about two axes, 3 units in
    /// front of the camera.
    static func transform(angle: Float, aspect: Float) -> [Float] {
        let (s, c) = (sinf(angle), cosf(angle))
        let (s2, c2) = (sinf(angle * 0.7), cosf(angle * 0.7))
        // Rotation about y, then about x, as a column-major 3×3.
        let rotation: [Float] = [c, s2 * s, -c2 * s, 0, c2, s2, s, -s2 * c, c2 * c]
        let f = 1 / tanf(0.5 * 1.0), near: Float = 0.1, far: Float = 10, distance: Float = 3
        var m = [Float](repeating: 0, count: 16)
        for column in 0..<3 {
            let (x, y, z) = (rotation[column * 3], rotation[column * 3 + 1], rotation[column * 3 + 2])
            m[column * 4 + 0] = f / aspect * x
            m[column * 4 + 1] = f * y
            m[column * 4 + 2] = far / (near - far) * z
            m[column * 4 + 3] = -z
        }
        // Translation: the cube's centre at z = -distance.
        m[12] = 0
        m[13] = 0
        m[14] = far / (near - far) * -distance + near * far / (near - far)
        m[15] = distance
        return m
    }

    /// Draws the cube into `encoder` turned by `angle`.
    func draw(_ encoder: RenderCommandEncoder, angle: Float, aspect: Float) throws {
        encoder.setRenderPipelineState(pipeline)
        encoder.setDepthStencilState(depthState)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        var matrix = Self.transform(angle: angle, aspect: aspect)
        encoder.setVertexBytes(&matrix, length: matrix.count * 4, index: 1)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: Self.vertexCount)
    }
}
