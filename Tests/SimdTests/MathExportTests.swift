import simd
import Testing

// This file imports only simd (and Testing): the C library's math, with its Float
// overloads, comes with it, as with Apple's simd.
@Suite("simd brings the C library's math")
struct MathExportTests {
    @Test("sin and cos of a Float, and sqrt, are visible with `import simd` alone, as Metal code that imports only simd calls them")
    func mathVisible() {
        let angle: Float = 0.5
        #expect(abs(sin(angle) * sin(angle) + cos(angle) * cos(angle) - 1) < 1e-6)
        #expect(sqrt(Double(16)) == 4)
    }
}
