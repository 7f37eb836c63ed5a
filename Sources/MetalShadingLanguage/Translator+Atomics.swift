extension Translator {
    /// Metal's atomic functions on `atomic_int` and `atomic_uint`, with GLSL's function for
    /// each read-modify-write.
    static let atomicFunctions: [String: String] = [
        "atomic_fetch_add_explicit": "atomicAdd", "atomic_fetch_sub_explicit": "atomicAdd",
        "atomic_fetch_and_explicit": "atomicAnd", "atomic_fetch_or_explicit": "atomicOr",
        "atomic_fetch_xor_explicit": "atomicXor", "atomic_fetch_min_explicit": "atomicMin",
        "atomic_fetch_max_explicit": "atomicMax", "atomic_exchange_explicit": "atomicExchange",
        "atomic_store_explicit": "atomicExchange", "atomic_load_explicit": "",
        "atomic_compare_exchange_weak_explicit": "atomicCompSwap",
    ]

    /// `atomic_<op>_explicit(object, [operand,] memory_order_relaxed)`: the object is `&x`
    /// or a pointer to an atomic in `device` or `threadgroup` memory.
    mutating func atomicCall(_ name: String, _ arguments: [Expression], at location: SourceLocation) throws(Diagnostic) -> Value {
        let isLoad = name == "atomic_load_explicit"
        let isCompareExchange = name == "atomic_compare_exchange_weak_explicit"
        let count = isLoad ? 2 : isCompareExchange ? 5 : 3
        guard arguments.count == count else {
            throw Diagnostic(location, "'\(name)' takes \(count) arguments, given \(arguments.count)")
        }
        for orderArgument in arguments[(isCompareExchange ? 3 : count - 1)...] {
            guard case .name(let order) = orderArgument.kind, order.hasPrefix("memory_order") else {
                throw Diagnostic(orderArgument.location, "'\(name)' takes a memory_order as its last argument")
            }
            guard order == "memory_order_relaxed" else { throw .unsupported(orderArgument.location, "the memory order '\(order)'") }
        }
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
        if isCompareExchange { return try compareExchange(object, scalar, arguments, at: location) }
        var operand = try convert(try rvalue(arguments[1]), to: .scalar(scalar), at: arguments[1].location)
        if name == "atomic_fetch_sub_explicit" { operand = scalar == .uint ? "(0u - \(operand))" : "(-\(operand))" }
        let result: MSLType = name == "atomic_store_explicit" ? .void : .scalar(scalar)
        return Value(code: "\(Self.atomicFunctions[name]!)(\(object.code), \(operand))", type: result)
    }

    /// `atomic_compare_exchange_weak_explicit(object, &expected, desired, …)`: true when the
    /// object held `expected` and now holds `desired`; else false, with the value it held
    /// written to `expected`. GLSL's `atomicCompSwap` returns the value the object held; a
    /// sequence expression compares it and writes it back, through two private variables
    /// of the module (a sequence expression declares none), so that the call stays an
    /// expression, as a loop's condition needs.
    mutating func compareExchange(_ object: Value, _ scalar: ScalarType, _ arguments: [Expression],
                                  at location: SourceLocation) throws(Diagnostic) -> Value {
        guard case .prefix("&", let operand) = arguments[1].kind else {
            throw .unsupported(arguments[1].location, "an expected value of a compare-exchange other than '&variable'")
        }
        let expected = try expression(operand)
        guard expected.type == .scalar(scalar) else {
            throw Diagnostic(arguments[1].location, "the expected value of a compare-exchange of 'atomic_\(scalar)' has type '\(scalar)', not '\(expected.type)'")
        }
        try checkWritable(expected, at: arguments[1].location)
        let desired = try convert(try rvalue(arguments[2]), to: .scalar(scalar), at: arguments[2].location)
        let held = unique("held"), exchanged = unique("exchanged")
        globalSection.append("\(scalar.glsl) \(held);")
        globalSection.append("bool \(exchanged);")
        let code = "(\(held) = atomicCompSwap(\(object.code), \(expected.code), \(desired)), \(exchanged) = \(held) == \(expected.code), "
            + "\(expected.code) = \(held), \(exchanged))"
        return Value(code: code, type: .scalar(.bool))
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
