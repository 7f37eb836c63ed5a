/// Where Metal places a type's bytes in `device` and `constant` memory, and whether GLSL's
/// std430, std140 or scalar rules place them the same. A buffer whose layouts differ is
/// refused as unsupported rather than read at the wrong offsets.
struct MemoryLayouts {
    /// GLSL's block layout rules.
    enum Rules: String {
        /// Storage buffers' rules.
        case std430
        /// Uniform blocks' rules (arrays and structs aligned to 16 bytes).
        case std140
        /// `GL_EXT_scalar_block_layout`'s rules: everything aligned to its scalars, vectors
        /// of three 12 bytes, no rounding of sizes (the device feature `scalarBlockLayout`).
        case scalar

        /// The rules' name in messages.
        var name: String { self == .scalar ? "scalar layout" : rawValue }
    }

    /// A type's size and alignment in bytes.
    struct Extent: Equatable {
        /// The size.
        var size: Int
        /// The alignment.
        var alignment: Int
    }

    let structs: [String: Program.StructInfo]
    /// The structs GLSL declares padded for the scalar rules rather than for std430: those
    /// in a buffer only the scalar rules lay out as Metal does, and the structs they hold.
    /// A block that holds one of them is laid out by the scalar rules.
    var scalarStructs: Set<String> = []

    static func roundUp(_ value: Int, _ alignment: Int) -> Int { (value + alignment - 1) / alignment * alignment }

    /// The offset after `count` 4-byte padding members that follow a member ending at `offset`.
    static func padded(_ offset: Int, _ count: Int) -> Int { count > 0 ? roundUp(offset, 4) + 4 * count : offset }

    /// Metal's size and alignment of `type` (its vectors of three take four components'
    /// room).
    func metal(_ type: MSLType) -> Extent {
        switch type {
        case .scalar(let scalar): return Extent(size: scalar.size, alignment: scalar.size)
        case .vector(let scalar, let count):
            let size = scalar.size * (count == 3 ? 4 : count)
            return Extent(size: size, alignment: size)
        case .matrix(let scalar, let columns, let rows):
            let column = metal(.vector(scalar, rows))
            return Extent(size: column.size * columns, alignment: column.alignment)
        case .array(let element, let count):
            let extent = metal(element)
            return Extent(size: extent.size * count, alignment: extent.alignment)
        case .structure(let name):
            var offset = 0, alignment = 1
            for member in structs[name]?.members ?? [] {
                let extent = metal(member, in: name)
                offset = Self.roundUp(offset, extent.alignment) + extent.size
                alignment = max(alignment, extent.alignment)
            }
            alignment = max(alignment, structs[name]?.alignment ?? 1)
            return Extent(size: Self.roundUp(offset, alignment), alignment: alignment)
        case .atomic: return Extent(size: 4, alignment: 4)
        case .void, .texture, .sampler: return Extent(size: 0, alignment: 1)
        }
    }

    /// The 4-byte padding members GLSL's struct `name` declares before each of its members
    /// (by member index), so that std430 (scalar, for `scalarStructs`) places each member at
    /// Metal's offset: Metal's `float3` takes 16 bytes where GLSL's `vec3` takes 12, and a
    /// scalar after it moves up. One more count follows the members': the padding at the
    /// end that gives the struct Metal's size under the scalar rules (0 under std430, which
    /// rounds sizes up as Metal does).
    func pads(_ name: String) -> [Int] {
        var pads: [Int] = []
        var metalOffset = 0, glslOffset = 0, metalAlignment = 1
        let scalar = scalarStructs.contains(name)
        let rules: Rules = scalar ? .scalar : .std430
        for member in structs[name]?.members ?? [] {
            let metalExtent = metal(member, in: name), glslExtent = glsl(member.type, rules)
            metalOffset = Self.roundUp(metalOffset, metalExtent.alignment)
            glslOffset = Self.roundUp(glslOffset, glslExtent.alignment)
            let gap = metalOffset - glslOffset
            let count = gap > 0 && gap % 4 == 0 && metalOffset % glslExtent.alignment == 0 ? gap / 4 : 0
            pads.append(count)
            metalOffset += metalExtent.size
            glslOffset += 4 * count + glslExtent.size
            metalAlignment = max(metalAlignment, metalExtent.alignment)
        }
        let tail = Self.roundUp(metalOffset, max(metalAlignment, structs[name]?.alignment ?? 1)) - glslOffset
        pads.append(scalar && tail > 0 && tail % 4 == 0 ? tail / 4 : 0)
        return pads
    }

    /// Metal's size and alignment of a member of struct `structName`: a packed vector's
    /// alignment is its scalar's, and its size has no fourth component's room; in a packed
    /// struct every member's alignment is 1.
    func metal(_ member: Program.StructInfo.Member, in structName: String) -> Extent {
        if structs[structName]?.packed == true {
            return Extent(size: metal(member, in: "").size, alignment: 1)
        }
        guard member.packed else { return metal(member.type) }
        func packed(_ type: MSLType) -> Extent {
            switch type {
            case .vector(let scalar, let count): return Extent(size: scalar.size * count, alignment: scalar.size)
            case .array(let element, let count):
                let extent = packed(element)
                return Extent(size: extent.size * count, alignment: extent.alignment)
            default: return metal(type)
            }
        }
        return packed(member.type)
    }

    /// GLSL's size and alignment of `type` under `rules`.
    func glsl(_ type: MSLType, _ rules: Rules) -> Extent {
        switch type {
        case .scalar(let scalar) where scalar.isStoredNarrow: return Extent(size: scalar.size, alignment: scalar.size)
        case .vector(let scalar, let count) where scalar.isStoredNarrow:
            // GLSL's 8- and 16-bit storage types: a vector of three aligned as one of four.
            return Extent(size: scalar.size * count, alignment: rules == .scalar ? scalar.size : scalar.size * (count == 2 ? 2 : 4))
        case .scalar, .atomic: return Extent(size: 4, alignment: 4)
        case .vector(_, let count): return Extent(size: 4 * count, alignment: rules == .scalar ? 4 : count == 2 ? 8 : 16)
        case .matrix(let scalar, let columns, let rows):
            let stride = arrayStride(.vector(scalar, rows), rules)
            return Extent(size: stride * columns, alignment: rules == .std140 ? 16 : glsl(.vector(scalar, rows), rules).alignment)
        case .array(let element, let count):
            let alignment = glsl(element, rules).alignment
            return Extent(size: arrayStride(element, rules) * count, alignment: rules == .std140 ? max(alignment, 16) : alignment)
        case .structure(let name):
            var offset = 0, alignment = 1
            let pads = pads(name)
            for (member, pad) in zip(structs[name]?.members ?? [], pads) {
                let extent = glsl(member.type, rules)
                offset = Self.roundUp(Self.padded(offset, pad), extent.alignment) + extent.size
                alignment = max(alignment, extent.alignment)
            }
            offset = Self.padded(offset, pads.last ?? 0)
            if rules == .std140 { alignment = max(alignment, 16) }
            return Extent(size: Self.roundUp(offset, alignment), alignment: alignment)
        case .void, .texture, .sampler: return Extent(size: 0, alignment: 1)
        }
    }

    /// The distance between elements of an array of `element` under `rules`.
    func arrayStride(_ element: MSLType, _ rules: Rules) -> Int {
        let extent = glsl(element, rules)
        return Self.roundUp(extent.size, rules == .std140 ? max(extent.alignment, 16) : extent.alignment)
    }

    /// Why `type` cannot be laid out in GLSL as Metal lays it out inside itself (its members'
    /// offsets, its arrays' strides, its size where `sized`), or nil when it can.
    func difference(_ type: MSLType, _ rules: Rules, sized: Bool) -> String? {
        switch type {
        case .scalar, .vector:
            // 32-bit scalars as GLSL's; the narrower in its 8- and 16-bit storage types.
            return nil
        case .matrix(let scalar, _, let rows):
            if scalar == .half { return "half matrices" }
            return metal(.vector(scalar, rows)).size == arrayStride(.vector(scalar, rows), rules) ? nil
                : "\(type) in a \(rules == .std140 ? "uniform" : "storage") block (its columns are \(metal(.vector(scalar, rows)).size) bytes apart in Metal, \(arrayStride(.vector(scalar, rows), rules)) in GLSL's \(rules.name))"
        case .array(let element, _):
            if let reason = difference(element, rules, sized: true) { return reason }
            let metalStride = metal(element).size, glslStride = arrayStride(element, rules)
            return metalStride == glslStride ? nil
                : "an array of \(element) (its elements are \(metalStride) bytes apart in Metal, \(glslStride) in GLSL's \(rules.name))"
        case .structure(let name):
            var metalOffset = 0, glslOffset = 0
            for (member, pad) in zip(structs[name]?.members ?? [], pads(name)) {
                if let reason = difference(member.type, rules, sized: true) { return reason }
                let metalExtent = metal(member, in: name), glslExtent = glsl(member.type, rules)
                metalOffset = Self.roundUp(metalOffset, metalExtent.alignment)
                glslOffset = Self.roundUp(Self.padded(glslOffset, pad), glslExtent.alignment)
                if metalOffset != glslOffset {
                    return "struct '\(name)' (member '\(member.name)' is at offset \(metalOffset) in Metal, \(glslOffset) in GLSL's \(rules.name))"
                }
                metalOffset += metalExtent.size
                glslOffset += glslExtent.size
            }
            if sized, metal(type).size != glsl(type, rules).size {
                return "struct '\(name)' (\(metal(type).size) bytes in Metal, \(glsl(type, rules).size) in GLSL's \(rules.name))"
            }
            return nil
        case .atomic:
            return nil
        case .void, .texture, .sampler:
            return "\(type) in a buffer"
        }
    }

    /// The offsets of a struct's members in Metal, for a block whose members are the
    /// struct's, each placed with `layout(offset = …)`; or why GLSL cannot place them so.
    func blockOffsets(of name: String, _ rules: Rules) -> Result<[Int], BlockLayoutProblem> {
        var offsets: [Int] = []
        var metalOffset = 0, glslEnd = 0
        for member in structs[name]?.members ?? [] {
            if let reason = difference(member.type, rules, sized: false) { return .failure(BlockLayoutProblem(reason: reason)) }
            let metalExtent = metal(member, in: name), glslExtent = glsl(member.type, rules)
            metalOffset = Self.roundUp(metalOffset, metalExtent.alignment)
            guard metalOffset % glslExtent.alignment == 0, metalOffset >= glslEnd else {
                return .failure(BlockLayoutProblem(reason:
                    "struct '\(name)' (member '\(member.name)' is at offset \(metalOffset) in Metal, which GLSL's \(rules.name) cannot place it at)"))
            }
            offsets.append(metalOffset)
            glslEnd = metalOffset + glslExtent.size
            metalOffset += metalExtent.size
        }
        return .success(offsets)
    }

    /// The rules a buffer argument's block is laid out by (the scalar rules where it holds
    /// one of `scalarStructs`; otherwise std430, or std140 first for a `constant`
    /// reference), or why they cannot place
    /// the argument's bytes where Metal does: the elements of a pointer's runtime array, a
    /// reference's struct members each at its own offset, another reference's value.
    func bufferRules(_ type: MSLType, indirection: Indirection, constant: Bool) -> Result<BufferLayout, BlockLayoutProblem> {
        let candidates: [Rules] = !structs(in: type).isDisjoint(with: scalarStructs) ? [.scalar]
            : constant && indirection != .pointer ? [.std140, .std430] : [.std430]
        var problem = BlockLayoutProblem(reason: "\(type)")
        for rules in candidates {
            if indirection == .pointer {
                // The runtime array's stride too: the scalar rules give a float3 12 bytes.
                guard let reason = difference(.array(type, 1), rules, sized: true) else { return .success(BufferLayout(rules: rules)) }
                problem.reason = reason
            } else if case .structure(let name) = type {
                switch blockOffsets(of: name, rules) {
                case .success(let offsets): return .success(BufferLayout(rules: rules, offsets: offsets))
                case .failure(let found): problem = found
                }
            } else {
                guard let reason = difference(type, rules, sized: false) else { return .success(BufferLayout(rules: rules)) }
                problem.reason = reason
            }
        }
        return .failure(problem)
    }

    /// The structs `type` is or holds, at any depth.
    func structs(in type: MSLType) -> Set<String> {
        switch type {
        case .array(let element, _): return structs(in: element)
        case .structure(let name):
            return (structs[name]?.members ?? []).reduce(into: [name]) { $0.formUnion(structs(in: $1.type)) }
        default: return []
        }
    }

    /// The structs to pad for the scalar rules (`scalarStructs`) so that each of `buffers`
    /// (a buffer argument's type, indirection and address space) that std430 and std140
    /// cannot lay out as Metal does is laid out by the scalar rules, when they can: those
    /// buffers' structs, and the structs they hold. Other buffers keep std430 or std140,
    /// unless they hold one of those structs too.
    func scalarStructs(for buffers: [(type: MSLType, indirection: Indirection, constant: Bool)]) -> Set<String> {
        var chosen = self
        var grew = true
        while grew {
            grew = false
            for buffer in buffers {
                guard case .failure = chosen.bufferRules(buffer.type, indirection: buffer.indirection, constant: buffer.constant) else {
                    continue
                }
                var widened = chosen
                widened.scalarStructs.formUnion(structs(in: buffer.type))
                if widened.scalarStructs != chosen.scalarStructs,
                   case .success = widened.bufferRules(buffer.type, indirection: buffer.indirection, constant: buffer.constant) {
                    chosen = widened
                    grew = true
                }
            }
        }
        return chosen.scalarStructs
    }

    /// How a buffer argument's block is laid out.
    struct BufferLayout {
        /// The block's rules.
        var rules: Rules
        /// For a reference to a struct, its members' offsets in the block.
        var offsets: [Int] = []
    }

    /// Why a block cannot hold a struct as Metal lays it out.
    struct BlockLayoutProblem: Error {
        /// The construct and the offsets.
        var reason: String
    }
}
