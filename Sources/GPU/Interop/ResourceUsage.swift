/// How commands a host records itself use a resource, Metal's `MTLResourceUsage`: told to
/// an encoder with `useResource(_:usage:)`.
public struct ResourceUsage: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt
    /// A raw value's usage.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The commands read the resource.
    public static let read = ResourceUsage(rawValue: 1)
    /// The commands write the resource.
    public static let write = ResourceUsage(rawValue: 2)
}
