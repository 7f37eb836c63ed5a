import Testing

/// The published Metal samples ported with their Swift files byte for byte (each example's
/// README names the original), run as a user would.
extension ExampleTests {
    @Test("PortMetalPipelines: Thirty Days of Metal's day 6, unchanged, adds 256 pairs on the GPU; every sum is 256")
    func portedMetalPipelines() throws {
        let (status, text) = try Self.run("PortMetalPipelines")
        #expect(status == 0, "\(text)")
        // The sample prints each output in its completed handler: inputsA[i] = i and
        // inputsB[i] = 256 - i, so every sum is 256, in the order of the elements.
        let expected = (0..<256).map { "Output element \($0) is 256.0" }
        #expect(text.split(separator: "\n").map(String.init) == expected, "\(text.prefix(500))")
    }

    @Test("PortMetalBuffers: Thirty Days of Metal's day 2 playground page, unchanged, writes two points into a shared buffer and reads one back")
    func portedMetalBuffers() throws {
        let (status, text) = try Self.run("PortMetalBuffers")
        #expect(status == 0, "\(text)")
        #expect(text == "Buffer is 16 bytes in length\np1 is SIMD2<Float>(100.0, 100.0)\n", "\(text)")
    }

    @Test("PortMetalVertexAttributes: Thirty Days of Metal's day 8 renderer, unchanged, draws its triangle with interpolated vertex colours")
    func portedMetalVertexAttributes() throws {
        let (status, text) = try Self.run("PortMetalVertexAttributes")
        #expect(status == 0, "\(text)")
        // The vertices are magenta, cyan and yellow: the centroid is their mean, 2/3 grey;
        // around the triangle is the view's clear colour, 0.95 grey.
        Self.expectPixel(in: text, "frame 3: at the centroid", [170, 170, 170, 255])
        Self.expectPixel(in: text, "frame 3: near the magenta vertex", [230, 51, 230, 255])
        Self.expectPixel(in: text, "frame 3: below the magenta-cyan edge", [242, 242, 242, 255])
        #expect(!text.contains("NOT as expected"), "\(text)")
        #expect(text.hasSuffix("8 of 8 checks as expected\n"), "\(text)")
    }

    @Test("PortMetalConstantBuffers: Thirty Days of Metal's day 9 renderer, unchanged, keeps three frames in flight under its semaphore and moves its triangle by a per-frame constant")
    func portedMetalConstantBuffers() throws {
        let (status, text) = try Self.run("PortMetalConstantBuffers")
        #expect(status == 0, "\(text)")
        // Its default library is its own two functions, though five other ports' bundles,
        // each with a vertex_main, lie beside it.
        #expect(text.contains("default library: [\"fragment_main.frag\", \"vertex_main.vert\"] as expected"), "\(text)")
        // Six frames, one a refresh, none waited for, the first three held on the GPU: three
        // in flight as the fourth began (the semaphore's count), never more, and each frame
        // had a drawable of its own while earlier ones were in flight.
        #expect(text.contains(try Regex("frames in flight as each frame began: \\[0, 1, 2, 3, [0-3], [0-3]\\]")), "\(text)")
        #expect(text.contains("drawables: 6 distinct as expected"), "\(text)")
        // The last two frames each show the triangle moved by 0.1 (the constant of the
        // frame's own slot), its colours interpolated where it moved to.
        for frame in [5, 6] {
            let offset = try Regex("frame \(frame): offset: \\(.*\\), length 0\\.\\d+, expected 0\\.1 as expected")
            #expect(text.contains(offset), "\(text)")
            Self.expectPixel(in: text, "frame \(frame): at the centroid", [170, 170, 170, 255])
        }
        #expect(!text.contains("NOT as expected"), "\(text)")
        #expect(text.hasSuffix("19 of 19 checks as expected\n"), "\(text)")
    }

    @Test("PortMetalMath2D: Thirty Days of Metal's day 10 renderer and simd math, unchanged, animate the triangle by matrices frame by frame")
    func portedMetalMath2D() throws {
        let (status, text) = try Self.run("PortMetalMath2D")
        #expect(status == 0, "\(text)")
        // Frames 1 and 3 each put the triangle where the sample's scale, turn, orbit and
        // projection (worked out without its matrices) put it: the centroid is the vertex
        // colours' mean, 2/3 grey; the half of the view it does not reach is clear.
        for frame in [1, 3] {
            Self.expectPixel(in: text, "frame \(frame): at the centroid", [170, 170, 170, 255])
            Self.expectPixel(in: text, "frame \(frame): left of the centre", [242, 242, 242, 255])
        }
        #expect(!text.contains("NOT as expected"), "\(text)")
        #expect(text.hasSuffix("14 of 14 checks as expected\n"), "\(text)")
    }

    @Test("PortMetalMeshes: Thirty Days of Metal's day 11 renderer and mesh, unchanged, draw an 11-sided polygon from two vertex buffers")
    func portedMetalMeshes() throws {
        let (status, text) = try Self.run("PortMetalMeshes")
        #expect(status == 0, "\(text)")
        // The polygon reaches 250 units towards its vertices and 239.9 towards the middles
        // of its edges: 245 units out is inside towards a vertex, outside between two.
        Self.expectPixel(in: text, "centre", [0, 128, 204, 255])
        Self.expectPixel(in: text, "towards vertex 3, 245 units out", [0, 128, 204, 255])
        Self.expectPixel(in: text, "towards the middle of edge 3, 245 units out", [242, 242, 242, 255])
        #expect(!text.contains("NOT as expected"), "\(text)")
        #expect(text.hasSuffix("10 of 10 checks as expected\n"), "\(text)")
    }

    /// Expects the port's line for the pixel `what` to report it as `expected` (RGBA bytes),
    /// within the port's own tolerance of 2 in 255.
    static func expectPixel(in text: String, _ what: String, _ expected: [Int],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let line = text.split(separator: "\n").first { $0.hasPrefix("\(what): RGBA [") }
        #expect(line?.hasSuffix("expected \(expected) as expected") == true, "\(text)", sourceLocation: sourceLocation)
    }
}
