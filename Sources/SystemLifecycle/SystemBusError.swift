import Glibc

/// Why a system-bus source could not start.
public enum SystemBusError: Error, Sendable, CustomStringConvertible {
    /// The bus could not be reached (a negative errno).
    case unreachable(errno: Int32)
    /// logind refused the inhibitor lock (a negative errno).
    case inhibitRefused(errno: Int32)
    /// The wake pipe could not be made.
    case resources

    /// A readable message.
    public var description: String {
        switch self {
        case .unreachable(let errno): "the D-Bus system bus could not be reached: \(String(cString: strerror(-errno)))"
        case .inhibitRefused(let errno): "logind refused a sleep inhibitor: \(String(cString: strerror(-errno)))"
        case .resources: "the bus thread's wake pipe could not be made"
        }
    }
}
