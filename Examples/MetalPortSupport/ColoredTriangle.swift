/// The triangle that Thirty Days of Metal's days 8 to 10 draw (their `makeResources()`'s
/// vertex colours: magenta, cyan, yellow) at the clip-space positions a frame puts its
/// vertices at, and the checks of a frame of it.
public struct ColoredTriangle: Sendable {
    /// The vertices' colours.
    static let colors: [SIMD4<Double>] = [[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1]]
    /// The views' clear colour, `MTLClearColor(red: 0.95, green: 0.95, blue: 0.95, alpha: 1.0)`.
    public static let clearColor = [0.95, 0.95, 0.95, 1.0]
    /// Days 8 and 9: the vertex data's positions, in clip space.
    public static let clipSpace = ColoredTriangle(positions: [[-0.8, 0.4], [0.4, -0.8], [0.8, 0.8]])
    /// Points by their barycentric weights: near each vertex, and the centroid.
    static let inside: [(name: String, weights: SIMD3<Double>)] = [
        ("near the magenta vertex", [0.8, 0.1, 0.1]), ("near the cyan vertex", [0.1, 0.8, 0.1]),
        ("near the yellow vertex", [0.1, 0.1, 0.8]), ("at the centroid", [1, 1, 1] / 3),
    ]

    /// Points outside days 8 and 9's triangle moved by `offset` (up to 0.1 long): near two
    /// corners, and past the edge from the magenta to the cyan vertex.
    public static func outside(movedBy offset: SIMD2<Double> = .zero) -> [(name: String, position: SIMD2<Double>)] {
        [("near the top-left corner", [-0.85, 0.85]), ("near the bottom-right corner", [0.85, -0.85]),
         ("below the magenta-cyan edge", SIMD2(-0.5, -0.5) + offset)]
    }

    /// The vertices' positions in clip space, in the vertex data's order.
    public let positions: [SIMD2<Double>]

    /// The triangle with its vertices at `positions` (clip space).
    public init(positions: [SIMD2<Double>]) {
        self.positions = positions
    }

    /// The triangle moved by `offset` (clip space).
    public func moved(by offset: SIMD2<Double>) -> ColoredTriangle {
        ColoredTriangle(positions: positions.map { $0 + offset })
    }

    /// Checks `pixels`: inside the triangle its colours interpolated between the vertices',
    /// at each of `outside` (named points in clip space) the clear colour.
    @MainActor
    public func check(_ pixels: Pixels, outside: [(name: String, position: SIMD2<Double>)], frame: String,
                      with checks: Checks) {
        for point in Self.inside {
            let w = point.weights
            let position = positions[0] * w.x + positions[1] * w.y + positions[2] * w.z
            let color = Self.colors[0] * w.x + Self.colors[1] * w.y + Self.colors[2] * w.z
            checks.color("\(frame): \(point.name)", pixels[clip: position.x, position.y], [color.x, color.y, color.z, color.w])
        }
        for point in outside {
            checks.color("\(frame): \(point.name)", pixels[clip: point.position.x, point.position.y], Self.clearColor)
        }
    }

    /// Where `pixels` show days 8 and 9's triangle, as its displacement from where the
    /// vertex data puts it: the centre of the drawn pixels' bounds (the data's bounds are
    /// centred on the origin).
    public static func offset(in pixels: Pixels) -> SIMD2<Double>? {
        let background = clearColor.map { Int(($0 * 255).rounded()) }
        guard let bounds = pixels.drawnBounds(background: background) else { return nil }
        return [(bounds.minX + bounds.maxX) / 2, (bounds.minY + bounds.maxY) / 2]
    }
}
