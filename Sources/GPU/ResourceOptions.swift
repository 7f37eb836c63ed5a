/// How a resource's memory is placed, as Metal's `MTLResourceOptions`.
public struct ResourceOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Host-visible, coherent memory the CPU reads and writes through `contents()`. The default.
    public static let storageModeShared = ResourceOptions([])
    /// Device-local memory only the GPU touches; filled through a staging copy.
    public static let storageModePrivate = ResourceOptions(rawValue: 1 << 5)
}

/// Where a resource lives.
public enum StorageMode: Sendable, Hashable {
    /// Visible to both CPU and GPU.
    case shared
    /// GPU only.
    case `private`
}
