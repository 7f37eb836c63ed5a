/// The triangle that Thirty Days of Metal's days 8 and 9 draw (their `makeResources()`'s
/// vertex data: clip-space positions and RGBA colours), and the checks of a frame of it.
public enum ColoredTriangle {
    /// The vertices' positions, in clip space.
    static let positions: [SIMD2<Double>] = [[-0.8, 0.4], [0.4, -0.8], [0.8, 0.8]]
    /// The vertices' colours.
    static let colors: [SIMD4<Double>] = [[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1]]
    /// The views' clear colour, `MTLClearColor(red: 0.95, green: 0.95, blue: 0.95, alpha: 1.0)`.
    public static let clearColor = [0.95, 0.95, 0.95, 1.0]
    /// Points by their barycentric weights: near each vertex, and the centroid.
    static let inside: [(name: String, weights: SIMD3<Double>)] = [
        ("near the magenta vertex", [0.8, 0.1, 0.1]), ("near the cyan vertex", [0.1, 0.8, 0.1]),
        ("near the yellow vertex", [0.1, 0.1, 0.8]), ("at the centroid", [1, 1, 1] / 3),
    ]
    /// Points outside the triangle, in clip space, and in the frame when it moves by up to
    /// 0.1: near two corners, and a point past the edge
    /// from the magenta to the cyan vertex.
    static let outside: [(name: String, position: SIMD2<Double>)] = [
        ("near the top-left corner", [-0.85, 0.85]), ("near the bottom-right corner", [0.85, -0.85]),
        ("below the magenta-cyan edge", [-0.5, -0.5]),
    ]

    /// Checks `pixels`: the triangle moved by `offset` (clip space), its colours
    /// interpolated between the vertices', and the clear colour around it.
    @MainActor
    public static func check(_ pixels: Pixels, offset: SIMD2<Double> = .zero, frame: String, with checks: Checks) {
        for point in inside {
            let w = point.weights
            let position = positions[0] * w.x + positions[1] * w.y + positions[2] * w.z + offset
            let color = colors[0] * w.x + colors[1] * w.y + colors[2] * w.z
            checks.color("\(frame): \(point.name)", pixels[clip: position.x, position.y], [color.x, color.y, color.z, color.w])
        }
        for point in outside {
            let position = point.position + offset
            checks.color("\(frame): \(point.name)", pixels[clip: position.x, position.y], clearColor)
        }
    }

    /// Where `pixels` show the triangle, as its displacement from where the vertex data
    /// puts it: the centre of the drawn pixels' bounds (the data's bounds are centred on the
    /// origin).
    public static func offset(in pixels: Pixels) -> SIMD2<Double>? {
        let background = clearColor.map { Int(($0 * 255).rounded()) }
        guard let bounds = pixels.drawnBounds(background: background) else { return nil }
        return [(bounds.minX + bounds.maxX) / 2, (bounds.minY + bounds.maxY) / 2]
    }
}
