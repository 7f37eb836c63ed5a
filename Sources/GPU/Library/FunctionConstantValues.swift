/// Values for a function's constants, Metal's `MTLFunctionConstantValues`: given to
/// ``Library/makeFunction(name:constantValues:)``, which specialises the function with them
/// (Vulkan's specialization constants; GLSL's `layout(constant_id = N)` is index `N`).
///
/// Each value is copied from the pointer when it is set, `type.size` bytes of it (a
/// `Bool` for ``DataType/bool``, as Metal reads a C `bool`). A value set again replaces the
/// one before; values for constants the function does not declare are ignored, as Metal
/// ignores them.
public final class FunctionConstantValues {
    /// A value as set: its type and its bytes.
    struct Value: Equatable {
        var type: DataType
        var bytes: [UInt8]
    }

    /// The values set by index.
    private(set) var byIndex: [Int: Value] = [:]
    /// The values set by name.
    private(set) var byName: [String: Value] = [:]

    /// An empty set of values.
    public init() {}

    /// Sets the value of the constant at `index` (GLSL's `constant_id`) to the `type` at
    /// `value`. A negative index stops with a misuse message.
    public func setConstantValue(_ value: UnsafeRawPointer, type: DataType, index: Int) {
        guard index >= 0, index <= Int(UInt32.max) else {
            misuse("\(#function): index \(index) is outside 0...\(UInt32.max)")
        }
        byIndex[index] = Self.read(value, type: type)
    }

    /// Sets the value of the constant named `name` to the `type` at `value`.
    public func setConstantValue(_ value: UnsafeRawPointer, type: DataType, withName name: String) {
        byName[name] = Self.read(value, type: type)
    }

    /// Sets the constants at the indices of `range` to consecutive values of `type` at
    /// `values` (an array of `range.count` of them). A range outside 0...UInt32.max stops with
    /// a misuse message.
    public func setConstantValues(_ values: UnsafeRawPointer, type: DataType, range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= Int(UInt32.max) + 1 else {
            misuse("\(#function): range \(range) is outside 0...\(UInt32.max)")
        }
        for (offset, index) in range.enumerated() {
            byIndex[index] = Self.read(values + offset * type.size, type: type)
        }
    }

    /// Removes every value set.
    public func reset() {
        byIndex = [:]
        byName = [:]
    }

    /// The value for the constant at `index` named `name`: set by index, else by name.
    func value(index: Int, name: String) -> Value? {
        byIndex[index] ?? (name.isEmpty ? nil : byName[name])
    }

    private static func read(_ pointer: UnsafeRawPointer, type: DataType) -> Value {
        Value(type: type, bytes: Array(UnsafeRawBufferPointer(start: pointer, count: type.size)))
    }
}
