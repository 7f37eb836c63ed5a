extension Translator {
    /// Metal's atomic functions on `atomic_int` and `atomic_uint`, with GLSL's function for
    /// each read-modify-write.
    static let atomicFunctions: [String: String] = [
        "atomic_fetch_add_explicit": "atomicAdd", "atomic_fetch_sub_explicit": "atomicAdd",
        "atomic_fetch_and_explicit": "atomicAnd", "atomic_fetch_or_explicit": "atomicOr",
        "atomic_fetch_xor_explicit": "atomicXor", "atomic_fetch_min_explicit": "atomicMin",
        "atomic_fetch_max_explicit": "atomicMax", "atomic_exchange_explicit": "atomicExchange",
        "atomic_store_explicit": "atomicExchange", "atomic_load_explicit": "",
    ]

    /// `atomic_<op>_explicit(object, [operand,] memory_order_relaxed)`: the object is `&x`
    /// or a pointer to an atomic in `device` or `threadgroup` memory.
    mutating func atomicCall(_ name: String, _ arguments: [Expression], at location: SourceLocation) throws(Diagnostic) -> Value {
        let isLoad = name == "atomic_load_explicit"
        let count = isLoad ? 2 : 3
        guard arguments.count == count else {
            throw Diagnostic(location, "'\(name)' takes \(count) arguments, given \(arguments.count)")
        }
        guard case .name(let order) = arguments[count - 1].kind, order.hasPrefix("memory_order") else {
            throw Diagnostic(arguments[count - 1].location, "'\(name)' takes a memory_order as its last argument")
        }
        guard order == "memory_order_relaxed" else { throw .unsupported(arguments[count - 1].location, "the memory order '\(order)'") }
        let object = try atomicObject(arguments[0])
        guard case .atomic(let scalar) = object.type else {
            throw Diagnostic(arguments[0].location, "'\(name)' takes a pointer to an atomic_int or atomic_uint, not '\(object.type)'")
        }
        guard let space = object.lvalue?.space, space == .device || space == .threadgroup else {
            throw Diagnostic(arguments[0].location, "atomics are in device or threadgroup memory")
        }
        if isLoad {
            // A read-modify-write that changes nothing, unless the buffer is read-only.
            if object.lvalue?.readOnly != nil { return Value(code: object.code, type: .scalar(scalar)) }
            try checkWritable(object, at: location)
            return Value(code: "atomicAdd(\(object.code), \(scalar == .uint ? "0u" : "0"))", type: .scalar(scalar))
        }
        try checkWritable(object, at: location)
        var operand = try convert(try rvalue(arguments[1]), to: .scalar(scalar), at: arguments[1].location)
        if name == "atomic_fetch_sub_explicit" { operand = scalar == .uint ? "(0u - \(operand))" : "(-\(operand))" }
        let result: MSLType = name == "atomic_store_explicit" ? .void : .scalar(scalar)
        return Value(code: "\(Self.atomicFunctions[name]!)(\(object.code), \(operand))", type: result)
    }

    /// The atomic an atomic function's first argument points to.
    mutating func atomicObject(_ argument: Expression) throws(Diagnostic) -> Value {
        if case .prefix("&", let operand) = argument.kind { return try expression(operand) }
        let pointer = try expression(argument)
        guard pointer.pointer else {
            throw Diagnostic(argument.location, "an atomic function takes a pointer ('&x' or a pointer argument), not '\(pointer.type)'")
        }
        return element(of: pointer, "0")
    }
}
