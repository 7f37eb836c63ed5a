/// A three-dimensional extent: threadgroup counts, threads per threadgroup, texture sizes.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Extent along x.
    public var width: Int
    /// Extent along y.
    public var height: Int
    /// Extent along z.
    public var depth: Int

    /// Makes a size; height and depth default to 1.
    public init(width: Int, height: Int = 1, depth: Int = 1) {
        self.width = width
        self.height = height
        self.depth = depth
    }

    /// A size of 0 × 0 × 0, as Metal's `MTLSize()`.
    public init() {
        self.init(width: 0, height: 0, depth: 0)
    }

    /// `"64×1×1"`.
    public var description: String { "\(width)×\(height)×\(depth)" }
}
