/// Rewrites a uniform block of a SPIR-V module into a push-constant block, so that the
/// bytes an encoder's `setBytes` call gives the block reach the shader through
/// `vkCmdPushConstants` instead of a descriptor (one Vulkan call per draw fewer, and no
/// upload-ring descriptor).
///
/// The variable's storage class becomes `PushConstant`; the pointer types of the variable
/// and of every access chain into it get `PushConstant` twins; its `DescriptorSet` and
/// `Binding` decorations go; and its members' `Offset`s move by the block's place in the
/// pipeline's push-constant range. Anything else that touches the block (a pointer passed
/// to a function, copied, or selected) makes the rewrite decline: nil, and the block stays
/// a descriptor.
extension SPIRVModule {
    /// The module `words` with the uniform block at set 0, `binding` moved into push
    /// constants at byte `offset`; nil when the block cannot be moved.
    package static func movingUniformBlock(in words: [UInt32], atBinding binding: UInt32,
                                   toPushConstantOffset offset: UInt32) -> [UInt32]? {
        SPIRVPushConstantRewrite(words: words)?.moving(binding: binding, offset: offset)
    }
}

/// One pass of the rewrite over a module's instructions.
private struct SPIRVPushConstantRewrite {
    package let words: [UInt32]
    /// Where each instruction starts, after the 5-word header.
    private let starts: [Int]

    package init?(words: [UInt32]) {
        guard words.count >= 5 else { return nil }
        var starts: [Int] = []
        var index = 5
        while index < words.count {
            let count = Int(words[index] >> 16)
            guard count > 0, index + count <= words.count else { return nil }
            starts.append(index)
            index += count
        }
        self.words = words
        self.starts = starts
    }

    private func opcode(_ start: Int) -> UInt32 { words[start] & 0xFFFF }

    /// Whether instructions with opcode `op` take only literals, types, constants, names
    /// and entry points as operands, never a pointer: there a word equal to the block's id
    /// is a literal (`LocalSize 17`, say), not a use. Debug, extension, memory-model,
    /// entry-point, mode and capability instructions (1–8, 10, 11, 14–17), types (19–39),
    /// constants and specialisation constants (41–52), `OpMemberDecorate` (72),
    /// `OpNoLine` (317), `OpModuleProcessed` (330), `OpExecutionModeId` (331).
    private static func cannotUsePointers(_ op: UInt32) -> Bool {
        switch op {
        case 1...8, 10, 11, 14...17, 19...39, 41...52, SPIRVOp.memberDecorate, 317, 330, 331: true
        default: false
        }
    }
    private func operands(_ start: Int) -> ArraySlice<UInt32> { words[(start + 1)..<(start + Int(words[start] >> 16))] }

    package func moving(binding: UInt32, offset: UInt32) -> [UInt32]? {
        // The variable: decorated set 0 and `binding`, declared in the Uniform storage class.
        var sets: [UInt32: UInt32] = [:]
        var bindings: [UInt32: UInt32] = [:]
        var pointers: [UInt32: (storageClass: UInt32, pointee: UInt32)] = [:]
        var variableTypes: [UInt32: UInt32] = [:]
        for start in starts {
            let o = operands(start)
            switch opcode(start) {
            case SPIRVOp.decorate where o.count >= 3 && o[o.startIndex + 1] == SPIRVDecoration.descriptorSet:
                sets[o[o.startIndex]] = o[o.startIndex + 2]
            case SPIRVOp.decorate where o.count >= 3 && o[o.startIndex + 1] == SPIRVDecoration.binding:
                bindings[o[o.startIndex]] = o[o.startIndex + 2]
            case SPIRVOp.typePointer where o.count == 3:
                pointers[o[o.startIndex]] = (o[o.startIndex + 1], o[o.startIndex + 2])
            case SPIRVOp.variable where o.count >= 3:
                variableTypes[o[o.startIndex + 1]] = o[o.startIndex]
            default: break
            }
        }
        guard let variable = bindings.first(where: { $0.value == binding && sets[$0.key] == 0 })?.key,
              let variableType = variableTypes[variable], let pointer = pointers[variableType],
              pointer.storageClass == SPIRVStorageClass.uniform
        else { return nil }
        let block = pointer.pointee
        // Moving the members' offsets would move those of another variable of the same type.
        if offset != 0, variableTypes.contains(where: { $0.key != variable && pointers[$0.value]?.pointee == block }) {
            return nil
        }

        // Every pointer into the block, and the uniform pointer types they have.
        var derived: Set<UInt32> = [variable]
        var retyped: [UInt32: UInt32] = [variableType: 0]
        for start in starts {
            let o = operands(start)
            let op = opcode(start)
            let mentions = o.contains { derived.contains($0) }
            guard mentions else { continue }
            switch op {
            case SPIRVOp.accessChain, SPIRVOp.inBoundsAccessChain:
                guard o.count >= 3, derived.contains(o[o.startIndex + 2]),
                      !o.dropFirst(3).contains(where: { derived.contains($0) }),
                      pointers[o[o.startIndex]]?.storageClass == SPIRVStorageClass.uniform
                else { return nil }
                derived.insert(o[o.startIndex + 1])
                retyped[o[o.startIndex], default: 0] = 0
            case SPIRVOp.load:
                guard o.count >= 3, !o.prefix(2).contains(where: { derived.contains($0) }),
                      !o.dropFirst(3).contains(where: { derived.contains($0) })
                else { return nil }
            case SPIRVOp.variable, SPIRVOp.decorate:
                continue
            default:
                guard Self.cannotUsePointers(op) else { return nil }
            }
        }

        // New PushConstant pointer types, one per uniform pointer type in use.
        var bound = words[3]
        var newTypes: [UInt32] = []
        for uniformType in retyped.keys.sorted() {
            guard let pointee = pointers[uniformType]?.pointee, bound < UInt32.max else { return nil }
            retyped[uniformType] = bound
            newTypes += [4 << 16 | SPIRVOp.typePointer, bound, SPIRVStorageClass.pushConstant, pointee]
            bound += 1
        }

        var result = Array(words.prefix(5))
        result[3] = bound
        result.reserveCapacity(words.count + newTypes.count)
        for start in starts {
            let end = start + Int(words[start] >> 16)
            var instruction = Array(words[start..<end])
            // Instructions of any length reach here (the module is not yet validated): each
            // case checks that the words it reads exist.
            let count = instruction.count
            switch opcode(start) {
            case SPIRVOp.decorate where count >= 3 && instruction[1] == variable
                && (instruction[2] == SPIRVDecoration.descriptorSet || instruction[2] == SPIRVDecoration.binding):
                continue
            case SPIRVOp.memberDecorate where count >= 5 && instruction[1] == block && instruction[3] == SPIRVDecoration.offset:
                let (moved, overflow) = instruction[4].addingReportingOverflow(offset)
                guard !overflow else { return nil }
                instruction[4] = moved
            case SPIRVOp.variable where count >= 4 && instruction[2] == variable:
                guard let type = retyped[variableType] else { return nil }
                result += newTypes
                instruction[1] = type
                instruction[3] = SPIRVStorageClass.pushConstant
            case SPIRVOp.accessChain where count >= 4 && derived.contains(instruction[2]),
                 SPIRVOp.inBoundsAccessChain where count >= 4 && derived.contains(instruction[2]):
                // An access chain before the pointer it derives from (a forward reference)
                // was not retyped: no rewrite.
                guard let type = retyped[instruction[1]] else { return nil }
                instruction[1] = type
            default:
                break
            }
            result += instruction
        }
        return result
    }
}
