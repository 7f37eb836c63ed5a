import SwiftGPUSupport

/// A value shared between a test and handlers on other threads.
typealias Locked = LockedValue

extension LockedValue {
    /// A test's value, a leaf in the lock order: tests read and write it, calling nothing.
    convenience init(_ value: Value) { self.init(value, rank: .leaf("test value")) }

    /// The value now.
    var current: Value { withLock { $0 } }
}
