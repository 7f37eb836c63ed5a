/// Pointers into one array: a pointer is the array it points into (a buffer argument's
/// runtime array, threadgroup memory, a local array) and an element offset, an `int`.
/// Pointer variables hold the offset in an `int` of their own; arithmetic, comparisons and
/// differences work on offsets into the same array. GLSL has no pointers, so a pointer
/// stays within the function that made it: passing one to another function, or making one
/// point into two arrays, is refused by name.
extension Translator {
    /// `&operand`: the address of an element of a pointer's array or of an array.
    mutating func address(of operand: Expression, at location: SourceLocation) throws(Diagnostic) -> Value {
        guard case .index(let baseExpression, let indexExpression) = operand.kind else {
            throw .unsupported(location, "taking the address of anything but an array element ('&a[i]')")
        }
        let base = try expression(baseExpression)
        let index = try rvalue(indexExpression)
        guard case .scalar(let scalar) = index.type, scalar.isInteger else {
            throw Diagnostic(indexExpression.location, "array subscript is not an integer")
        }
        if base.pointer {
            return pointer(base, offset: sum(base.offset, index.code, "+"))
        }
        guard case .array(let element, _) = base.type, !base.storage, !base.block, base.lvalue != nil else {
            throw .unsupported(location, "taking the address of an element of '\(base.type)' (an array variable's are taken)")
        }
        return Value(code: base.code, type: element, lvalue: base.lvalue, pointer: true, offset: "int(\(index.code))")
    }

    /// `pointer` moved to `offset`: no longer a variable's own value.
    func pointer(_ pointer: Value, offset: String) -> Value {
        var moved = pointer
        moved.offset = offset
        moved.offsetVariable = nil
        moved.changesPointer = false
        return moved
    }

    /// `offset op count` as GLSL `int` arithmetic (a nil offset is 0).
    func sum(_ offset: String?, _ count: String, _ op: String) -> String {
        guard let offset else { return op == "+" ? "int(\(count))" : "(-int(\(count)))" }
        return "(\(offset) \(op) int(\(count)))"
    }

    /// `left op right` where either is a pointer: a pointer and an integer added or
    /// subtracted, two pointers into the same array subtracted or compared.
    mutating func pointerArithmetic(_ op: String, _ left: Value, _ right: Value, at location: SourceLocation) throws(Diagnostic) -> Value {
        if left.pointer && right.pointer {
            guard left.code == right.code else {
                throw .unsupported(location, "'\(op)' on pointers into two different arrays")
            }
            let a = left.offset ?? "0", b = right.offset ?? "0"
            switch op {
            case "-": return Value(code: "(\(a) - \(b))", type: .scalar(.int))
            case "==", "!=", "<", ">", "<=", ">=": return Value(code: "(\(a) \(op) \(b))", type: .scalar(.bool))
            default: throw Diagnostic(location, "invalid operands to binary expression ('\(op)' on two pointers)")
            }
        }
        let (pointer, integer, integerFirst) = left.pointer ? (left, right, false) : (right, left, true)
        let count = try materialize(integer, at: location)
        guard case .scalar(let scalar) = count.type, scalar.isInteger, op == "+" || (op == "-" && !integerFirst) else {
            throw Diagnostic(location, "invalid operands to binary expression ('\(op)' on a pointer and '\(count.type)')")
        }
        return self.pointer(pointer, offset: sum(pointer.offset, count.code, op))
    }

    /// `++p`, `p--` and their kin on a pointer variable.
    mutating func stepPointer(_ value: Value, _ op: String, prefix: Bool, at location: SourceLocation) throws(Diagnostic) -> Value {
        guard let variable = value.offsetVariable else {
            throw .unsupported(location, "changing a pointer argument (copy it into a pointer variable: 'device T* p = argument;')")
        }
        var stepped = value
        stepped.offset = prefix ? "(\(op)\(variable))" : "(\(variable)\(op))"
        stepped.offsetVariable = nil
        stepped.changesPointer = true
        return stepped
    }

    /// `p = q`, `p += n`, `p -= n` on a pointer variable `target`.
    mutating func assignPointer(_ op: String, _ target: Value, _ valueExpression: Expression,
                                at location: SourceLocation) throws(Diagnostic) -> Value {
        guard let variable = target.offsetVariable else {
            throw .unsupported(location, "assigning a pointer argument (copy it into a pointer variable: 'device T* p = argument;')")
        }
        let value = try expression(valueExpression)
        var assigned = target
        assigned.offsetVariable = nil
        assigned.changesPointer = true
        switch op {
        case "=":
            guard value.pointer, value.type == target.type else {
                throw Diagnostic(location, "assigning to a pointer to '\(target.type)' from '\(value.type)'\(value.pointer ? " pointer" : "")")
            }
            guard value.code == target.code else {
                throw .unsupported(location, "a pointer variable that points into two arrays (it first pointed into another)")
            }
            assigned.offset = "(\(variable) = \(value.offset ?? "0"))"
        case "+=", "-=":
            let count = try materialize(value, at: valueExpression.location)
            guard case .scalar(let scalar) = count.type, scalar.isInteger else {
                throw Diagnostic(location, "invalid operands to '\(op)' (a pointer and '\(count.type)')")
            }
            assigned.offset = "(\(variable) \(op) int(\(count.code)))"
        default:
            throw Diagnostic(location, "invalid operands to '\(op)' on a pointer")
        }
        return assigned
    }

    /// `device T* p = q;` and its kin: an `int` offset of its own into the array `q` points
    /// into, which the variable keeps for its life.
    mutating func pointerVariables(_ declaration: VariableDeclaration) throws(Diagnostic) {
        let declared = declaration.type
        for declarator in declaration.declarators {
            let location = declarator.location
            let type = try program.resolve(declared.base)
            guard declarator.arraySizes.isEmpty else { throw .unsupported(location, "arrays of pointers") }
            guard let initializer = declarator.initializer else {
                throw .unsupported(location, "a pointer variable without an initializer (it is given the array it points into)")
            }
            let value = try expression(initializer)
            guard value.pointer, value.type == type else {
                throw Diagnostic(initializer.location, "cannot initialize a pointer to '\(type)' with '\(value.type)'\(value.pointer ? " pointer" : "")")
            }
            let space = declared.addressSpace ?? .thread
            guard value.lvalue?.space ?? .thread == space else {
                throw Diagnostic(initializer.location, "cannot initialize a '\(space.rawValue)' pointer with a pointer into "
                    + "'\((value.lvalue?.space ?? .thread).rawValue)' memory")
            }
            let offset = unique(GLSLNames.identifier(declarator.name) + "_offset")
            emit("int \(offset) = \(value.offset ?? "0");")
            var lvalue = value.lvalue
            if declared.isConst { lvalue?.readOnly = "'\(declarator.name)' points to const" }
            try declare(declarator.name, Variable(kind: .bufferArray, type: type, code: value.code, mutable: lvalue?.readOnly == nil,
                                                  space: space, buffer: lvalue?.buffer, offset: offset), at: location)
        }
    }
}
