/// Checks on numeric arguments, made before any arithmetic on them: a value out of range
/// stops with a misuse message naming the call and the value, never a Swift overflow trap
/// without one or a wrong number handed to the driver.

/// `a × b`, stopping with a message naming `call` and `what` when it overflows.
func checkedProduct(_ a: Int, _ b: Int, call: String, what: String) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    if overflow { misuse("\(call): \(what) (\(a) × \(b)) overflows") }
    return product
}

/// Stops unless `offset..<offset + size` is a range of `length` bytes; the subtraction
/// form cannot overflow, however large the values.
func checkByteRange(offset: Int, size: Int, within length: Int, call: String, role: String) {
    guard offset >= 0, size >= 0, offset <= length, size <= length - offset else {
        misuse("\(call): \(role) range of \(size) bytes at offset \(offset) is outside the buffer's \(length) bytes")
    }
}

/// Stops unless `value` fits Vulkan's 32-bit unsigned count (and is not negative). Static
/// strings: draws check every count, and build no message unless one is out of range.
@inline(__always)
func checkUInt32(_ value: Int, call: StaticString, name: StaticString) {
    guard value >= 0, value <= Int(UInt32.max) else {
        misuse("\(call): \(name) \(value) is outside 0...\(UInt32.max)")
    }
}

/// Stops unless `value` fits Vulkan's 32-bit signed offset.
@inline(__always)
func checkInt32(_ value: Int, call: StaticString, name: StaticString) {
    guard value >= Int(Int32.min), value <= Int(Int32.max) else {
        misuse("\(call): \(name) \(value) is outside \(Int32.min)...\(Int32.max)")
    }
}
