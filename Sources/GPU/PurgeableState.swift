/// Whether the system may discard a resource's contents, Metal's `MTLPurgeableState`.
public enum PurgeableState: Sendable, Hashable, CustomStringConvertible {
    /// Asks for the state without changing it.
    case keepCurrent
    /// The contents are kept. A resource starts so.
    case nonVolatile
    /// The contents may be discarded: they are, on a memory warning and when the app
    /// enters the background.
    case volatile
    /// The contents are discarded (or are to be, when set); the memory is given back once
    /// GPU work still using it completes.
    case empty

    /// The case's name.
    public var description: String {
        switch self {
        case .keepCurrent: "keepCurrent"
        case .nonVolatile: "nonVolatile"
        case .volatile: "volatile"
        case .empty: "empty"
        }
    }
}
