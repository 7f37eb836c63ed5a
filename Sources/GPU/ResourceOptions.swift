/// How a resource's memory is placed and tracked, as Metal's `MTLResourceOptions` (the same
/// bits).
public struct ResourceOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: UInt
    /// Wraps raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Host-visible, coherent memory the CPU reads and writes through `contents()`. The default.
    public static let storageModeShared = ResourceOptions([])
    /// Device-local memory only the GPU touches; filled through a staging copy.
    public static let storageModePrivate = ResourceOptions(rawValue: 1 << 5)
    /// The hazard tracking of what makes the resource: tracked for a device's buffers and
    /// textures, the heap's for a heap's resources (``HazardTrackingMode/default``).
    public static let hazardTrackingModeDefault = ResourceOptions([])
    /// The app orders the resource's accesses (``HazardTrackingMode/untracked``).
    public static let hazardTrackingModeUntracked = ResourceOptions(rawValue: 1 << 8)
    /// SwiftGPU orders the resource's accesses (``HazardTrackingMode/tracked``).
    public static let hazardTrackingModeTracked = ResourceOptions(rawValue: 2 << 8)

    /// The storage mode the options ask for.
    var storageMode: StorageMode { contains(.storageModePrivate) ? .private : .shared }
}

/// Where a resource lives.
public enum StorageMode: Sendable, Hashable {
    /// Visible to both CPU and GPU.
    case shared
    /// GPU only.
    case `private`
}
