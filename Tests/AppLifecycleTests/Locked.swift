import SwiftGPUSupport

/// A value shared between a test and handlers on other threads.
typealias Locked = LockedValue

extension LockedValue {
    /// The value now.
    var current: Value { withLock { $0 } }
}
