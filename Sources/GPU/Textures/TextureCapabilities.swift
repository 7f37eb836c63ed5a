/// The largest texture of one format, type and usage that the device makes.
struct TextureCapabilities: Sendable {
    /// Largest width of level 0.
    var maxWidth: Int
    /// Largest height of level 0.
    var maxHeight: Int
    /// Most mipmap levels.
    var maxMipmapLevelCount: Int
    /// Most image layers (slices, or 6 per cube).
    var maxLayerCount: Int
    /// Sample counts it supports.
    var sampleCounts: Set<Int>
}
