import SwiftGPUSupport

/// Mutations of a SPIR-V module of the kinds that crashed drivers: header fields, ids past
/// the bound, deleted, duplicated and swapped instructions, changed opcodes and operands,
/// flipped bits, truncation.
enum ShaderMutator {
    /// The word offsets where the module's instructions start (after the 5-word header).
    static func instructionStarts(_ words: [UInt32]) -> [Int] {
        var starts: [Int] = [], at = 5
        while at < words.count {
            starts.append(at)
            at += max(Int(words[at] >> 16), 1)
        }
        return starts
    }

    /// One to three mutations of `words`.
    static func mutate(_ words: [UInt32], using random: inout SplitMix64) -> [UInt32] {
        var mutant = words
        for _ in 0..<Int.random(in: 1...3, using: &random) { mutateOnce(&mutant, using: &random) }
        return mutant
    }

    private static func mutateOnce(_ words: inout [UInt32], using random: inout SplitMix64) {
        let starts = instructionStarts(words)
        guard words.count > 5, !starts.isEmpty else { return }
        let start = starts.randomElement(using: &random)!
        let length = min(max(Int(words[start] >> 16), 1), words.count - start)
        let bound = words[3]
        switch Int.random(in: 0..<9, using: &random) {
        case 0: // a header word: version, generator, bound, schema
            words[Int.random(in: 1...4, using: &random)] = [0, 1, 0xFFFF_FFFF, bound &+ 1000, 0x0001_0600].randomElement(using: &random)!
        case 1: // an operand becomes an id past the bound, or a boundary value
            guard length > 1 else { return }
            words[start + Int.random(in: 1..<length, using: &random)] =
                [bound, bound &+ 7, 0, 0xFFFF_FFFF, 1024, 1 << 20].randomElement(using: &random)!
        case 2: // an instruction is deleted
            words.removeSubrange(start..<start + length)
        case 3: // an instruction is duplicated
            words.insert(contentsOf: words[start..<start + length], at: start)
        case 4: // two instructions are swapped
            let other = starts.randomElement(using: &random)!
            let otherLength = min(max(Int(words[other] >> 16), 1), words.count - other)
            guard other != start, other + otherLength <= start || start + length <= other else { return }
            let (first, second) = other < start ? ((other, otherLength), (start, length)) : ((start, length), (other, otherLength))
            let a = Array(words[first.0..<first.0 + first.1]), b = Array(words[second.0..<second.0 + second.1])
            words.replaceSubrange(second.0..<second.0 + second.1, with: a)
            words.replaceSubrange(first.0..<first.0 + first.1, with: b)
        case 5: // the opcode changes, the word count stays
            words[start] = words[start] & 0xFFFF_0000 | UInt32.random(in: 1...400, using: &random)
        case 6: // the word count changes
            words[start] = words[start] & 0xFFFF | UInt32.random(in: 0...12, using: &random) << 16
        case 7: // a bit flips anywhere after the magic number
            let index = Int.random(in: 1..<words.count, using: &random)
            words[index] ^= 1 << UInt32.random(in: 0..<32, using: &random)
        default: // the module is cut short
            words.removeSubrange(Int.random(in: 5..<words.count, using: &random)...)
        }
    }
}
