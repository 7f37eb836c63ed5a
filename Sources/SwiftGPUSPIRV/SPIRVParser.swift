/// A view of one instruction with bounds-checked operand access.
private struct SPIRVInstruction {
    /// All words of the module.
    package let words: [UInt32]
    /// Index of the instruction's first word.
    package let start: Int
    /// Word count of the instruction, at least 1.
    package let count: Int
    /// Opcode.
    package let opcode: UInt32

    /// The error for an instruction too short for its opcode.
    package var tooShort: SPIRVParseError {
        SPIRVParseError(reason: "instruction at word \(start) (opcode \(opcode)) is too short")
    }

    /// Word `index` of the instruction (1 is the first operand); throws when
    /// the instruction is too short.
    package func operand(_ index: Int) throws(SPIRVParseError) -> UInt32 {
        guard let value = optionalOperand(index) else { throw tooShort }
        return value
    }

    /// Word `index` of the instruction, or `nil` when the instruction is too short.
    package func optionalOperand(_ index: Int) -> UInt32? {
        guard index >= 1, index < count else { return nil }
        return words[start + index]
    }

    /// Words from `index` to the end of the instruction (empty when none).
    package func operands(from index: Int) -> [UInt32] {
        guard index >= 1, index < count else { return [] }
        return Array(words[(start + index)..<(start + count)])
    }

    /// Decodes the literal string starting at word `index`; returns it with
    /// the index of the word after it.
    package func string(at index: Int) throws(SPIRVParseError) -> (String, next: Int) {
        var bytes: [UInt8] = []
        var wordIndex = index
        while let word = optionalOperand(wordIndex) {
            wordIndex += 1
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                if byte == 0 {
                    return (String(decoding: bytes, as: UTF8.self), wordIndex)
                }
                bytes.append(byte)
            }
        }
        throw SPIRVParseError(reason: "instruction at word \(start) has an unterminated string")
    }
}

/// Walks the instruction stream once and records the tables reflection needs.
struct SPIRVParser {
    /// The module, host endianness, at least 5 words.
    package let words: [UInt32]
    /// SPIR-V version from the header (0x00MMmm00).
    package var version: UInt32 = 0
    /// The text of each `OpSourceExtension`, in order.
    package var sourceExtensions: [String] = []
    /// `OpName` of ids.
    package var names: [UInt32: String] = [:]
    /// `OpDecorate` of ids.
    package var decorations: [UInt32: SPIRVDecorations] = [:]
    /// `OpMemberDecorate` of struct members, by struct id then member index.
    package var memberDecorations: [UInt32: [UInt32: SPIRVDecorations]] = [:]
    /// Types by result id.
    package var types: [UInt32: SPIRVType] = [:]
    /// Scalar `OpConstant` / `OpSpecConstant` values (default values for the
    /// latter), by result id; up to 64 bits.
    package var constants: [UInt32: UInt64] = [:]
    /// Ids of `OpSpecConstant`s (scalar specialization constants).
    package var specConstants: Set<UInt32> = []
    /// Result type ids of scalar specialization constants (`OpSpecConstant`,
    /// `OpSpecConstantTrue`, `OpSpecConstantFalse`), by result id, in declaration order.
    package var specConstantTypes: [(id: UInt32, type: UInt32)] = []
    /// Constituents of `OpConstantComposite` / `OpSpecConstantComposite`.
    package var composites: [UInt32: [UInt32]] = [:]
    /// Module-scope variables in declaration order.
    package var variables: [SPIRVVariable] = []
    /// Variables declared inside functions (`Function` storage: GLSL locals, Metal's
    /// `thread` address space), for the bound on each invocation's private memory.
    package var functionVariables: [SPIRVVariable] = []
    /// Entry points in declaration order.
    package var entryPoints: [SPIRVRawEntryPoint] = []
    /// `LocalSize` literals by entry point function id.
    package var localSizes: [UInt32: SPIRVTriple] = [:]
    /// `LocalSizeId` ids by entry point function id.
    package var localSizeIds: [UInt32: SPIRVTriple] = [:]
    /// Ids of all `OpFunction`s.
    package var functions: Set<UInt32> = []
    /// `OpGroupDecorate`: group id and targets.
    package var groupDecorates: [(group: UInt32, targets: [UInt32])] = []
    /// `OpGroupMemberDecorate`: group id and (struct, member) pairs.
    package var groupMemberDecorates: [(group: UInt32, targets: [(UInt32, UInt32)])] = []
    /// Whether an `OpMemoryModel` was seen (every valid module has one).
    package var hasMemoryModel = false
    /// Whether the module declares the `Linkage` capability.
    package var hasLinkage = false

    /// A parser for `words`, which must hold at least the 5-word header.
    package init(words: [UInt32]) {
        self.words = words
    }

    /// Parses the instruction stream after the header.
    package mutating func parse() throws(SPIRVParseError) {
        version = words[1]
        var index = 5
        var insideFunction = false
        while index < words.count {
            let wordCount = Int(words[index] >> 16)
            let opcode = words[index] & 0xFFFF
            guard wordCount > 0 else {
                throw SPIRVParseError(reason: "instruction at word \(index) has word count 0")
            }
            guard wordCount <= words.count - index else {
                throw SPIRVParseError(
                    reason: "instruction at word \(index) runs past the end of the module")
            }
            let instruction = SPIRVInstruction(words: words, start: index, count: wordCount, opcode: opcode)
            switch opcode {
            case SPIRVOp.function:
                guard !insideFunction else {
                    throw SPIRVParseError(reason: "OpFunction at word \(index) inside another function")
                }
                insideFunction = true
                functions.insert(try instruction.operand(2))
            case SPIRVOp.functionEnd:
                guard insideFunction else {
                    throw SPIRVParseError(reason: "OpFunctionEnd at word \(index) outside a function")
                }
                insideFunction = false
            case SPIRVOp.variable where insideFunction:
                functionVariables.append(SPIRVVariable(
                    id: try instruction.operand(2), type: try instruction.operand(1), storageClass: try instruction.operand(3)))
            default:
                try record(instruction)
            }
            index += wordCount
        }
        guard !insideFunction else {
            throw SPIRVParseError(reason: "module ends inside a function (missing OpFunctionEnd)")
        }
        guard hasMemoryModel else {
            throw SPIRVParseError(reason: "missing OpMemoryModel")
        }
        guard !entryPoints.isEmpty || hasLinkage else {
            throw SPIRVParseError(reason: "no OpEntryPoint (and no Linkage capability)")
        }
        for entryPoint in entryPoints where !functions.contains(entryPoint.function) {
            throw SPIRVParseError(
                reason: "entry point \"\(entryPoint.name)\" names undefined function %\(entryPoint.function)")
        }
        applyDecorationGroups()
    }

    /// Records what one instruction declares.
    private mutating func record(_ inst: SPIRVInstruction) throws(SPIRVParseError) {
        switch inst.opcode {
        case SPIRVOp.name:
            names[try inst.operand(1)] = try inst.string(at: 2).0
        case SPIRVOp.sourceExtension:
            sourceExtensions.append(try inst.string(at: 1).0)
        case SPIRVOp.memoryModel:
            hasMemoryModel = true
        case SPIRVOp.capability:
            if try inst.operand(1) == spirvLinkageCapability { hasLinkage = true }
        case SPIRVOp.entryPoint:
            let model = try inst.operand(1)
            let function = try inst.operand(2)
            let (name, next) = try inst.string(at: 3)
            entryPoints.append(SPIRVRawEntryPoint(
                model: model, function: function, name: name,
                interface: inst.operands(from: next)))
        case SPIRVOp.executionMode, SPIRVOp.executionModeId:
            let target = try inst.operand(1)
            let mode = try inst.operand(2)
            if mode == SPIRVExecutionMode.localSize || mode == SPIRVExecutionMode.localSizeId {
                let size = SPIRVTriple(x: try inst.operand(3), y: try inst.operand(4), z: try inst.operand(5))
                if mode == SPIRVExecutionMode.localSize {
                    localSizes[target] = size
                } else {
                    localSizeIds[target] = size
                }
            }
        case SPIRVOp.typeBool:
            types[try inst.operand(1)] = .bool
        case SPIRVOp.typeInt:
            types[try inst.operand(1)] = .int(width: try inst.operand(2), signed: try inst.operand(3) != 0)
        case SPIRVOp.typeFloat:
            types[try inst.operand(1)] = .float(width: try inst.operand(2))
        case SPIRVOp.typeVector:
            types[try inst.operand(1)] = .vector(component: try inst.operand(2), count: try inst.operand(3))
        case SPIRVOp.typeMatrix:
            types[try inst.operand(1)] = .matrix(column: try inst.operand(2), columns: try inst.operand(3))
        case SPIRVOp.typeImage:
            types[try inst.operand(1)] = .image(dim: try inst.operand(3), sampled: try inst.operand(7), format: try inst.operand(8))
        case SPIRVOp.typeSampler:
            types[try inst.operand(1)] = .sampler
        case SPIRVOp.typeSampledImage:
            types[try inst.operand(1)] = .sampledImage
        case SPIRVOp.typeArray:
            types[try inst.operand(1)] = .array(element: try inst.operand(2), length: try inst.operand(3))
        case SPIRVOp.typeRuntimeArray:
            types[try inst.operand(1)] = .runtimeArray(element: try inst.operand(2))
        case SPIRVOp.typeStruct:
            types[try inst.operand(1)] = .structure(members: inst.operands(from: 2))
        case SPIRVOp.typePointer:
            types[try inst.operand(1)] = .pointer(storageClass: try inst.operand(2), pointee: try inst.operand(3))
        case SPIRVOp.constant, SPIRVOp.specConstant:
            let low = UInt64(try inst.operand(3))
            let high = UInt64(inst.optionalOperand(4) ?? 0)
            constants[try inst.operand(2)] = low | high << 32
            if inst.opcode == SPIRVOp.specConstant {
                specConstants.insert(try inst.operand(2))
                specConstantTypes.append((try inst.operand(2), try inst.operand(1)))
            }
        case SPIRVOp.specConstantTrue, SPIRVOp.specConstantFalse:
            specConstantTypes.append((try inst.operand(2), try inst.operand(1)))
        case SPIRVOp.constantComposite, SPIRVOp.specConstantComposite:
            composites[try inst.operand(2)] = inst.operands(from: 3)
        case SPIRVOp.variable:
            variables.append(SPIRVVariable(
                id: try inst.operand(2), type: try inst.operand(1), storageClass: try inst.operand(3)))
        case SPIRVOp.decorate:
            decorations[try inst.operand(1), default: SPIRVDecorations()]
                .apply(try inst.operand(2), value: inst.optionalOperand(3))
        case SPIRVOp.memberDecorate:
            memberDecorations[try inst.operand(1), default: [:]][try inst.operand(2), default: SPIRVDecorations()]
                .apply(try inst.operand(3), value: inst.optionalOperand(4))
        case SPIRVOp.groupDecorate:
            groupDecorates.append((try inst.operand(1), inst.operands(from: 2)))
        case SPIRVOp.groupMemberDecorate:
            let flat = inst.operands(from: 2)
            let pairs = stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
            groupMemberDecorates.append((try inst.operand(1), pairs))
        default:
            break
        }
    }

    /// Copies the decorations of decoration groups onto their targets.
    private mutating func applyDecorationGroups() {
        for (group, targets) in groupDecorates {
            guard let groupDecorations = decorations[group] else { continue }
            for target in targets {
                decorations[target, default: SPIRVDecorations()].merge(groupDecorations)
            }
        }
        for (group, targets) in groupMemberDecorates {
            guard let groupDecorations = decorations[group] else { continue }
            for (structure, member) in targets {
                memberDecorations[structure, default: [:]][member, default: SPIRVDecorations()]
                    .merge(groupDecorations)
            }
        }
    }
}
