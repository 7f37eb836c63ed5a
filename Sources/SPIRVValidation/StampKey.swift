/// The 128-bit key of a build's shader stamps, and SipHash-2-4 with 128-bit output keyed
/// by it (Aumasson and Bernstein's pseudorandom function): without the key, a stamp for a
/// module cannot be computed.
package struct StampKey: Sendable, Equatable {
    /// The key's two halves, SipHash's k0 and k1: its bytes 0–7 and 8–15, little-endian.
    package let k0, k1: UInt64

    /// The key of these two halves.
    package init(k0: UInt64, k1: UInt64) { (self.k0, self.k1) = (k0, k1) }

    /// A new random key, from the system's secure source (`getrandom`).
    package static func random() -> StampKey {
        var generator = SystemRandomNumberGenerator()
        return StampKey(k0: generator.next(), k1: generator.next())
    }

    /// The key written as 32 lowercase hexadecimal digits (its 16 bytes in order), as key
    /// files hold it; nil for anything else.
    package init?(hex text: some StringProtocol) {
        guard text.utf8.count == 32, let high = UInt64(text.prefix(16), radix: 16),
              let low = UInt64(text.dropFirst(16), radix: 16) else { return nil }
        k0 = high.byteSwapped
        k1 = low.byteSwapped
    }

    /// The key as 32 lowercase hexadecimal digits, its 16 bytes in order.
    package var hex: String { Self.hex(k0.byteSwapped) + Self.hex(k1.byteSwapped) }

    /// SipHash-2-4 of `bytes` with 128-bit output, as its 16 bytes in order.
    package func mac(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var state = SipState(k0: k0, k1: k1)
        let whole = bytes.count & ~7
        var offset = 0
        while offset < whole {
            state.absorb(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in 0..<(bytes.count - whole) {
            last |= UInt64(bytes[whole + index]) << (8 * index)
        }
        state.absorb(last)
        return state.finish()
    }

    /// The 16 bytes of a `mac` result as 32 lowercase hexadecimal digits.
    package static func hex(_ tag: (UInt64, UInt64)) -> String {
        hex(tag.0.byteSwapped) + hex(tag.1.byteSwapped)
    }

    /// `value` as 16 lowercase hexadecimal digits, most significant first.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// SipHash's four words of state.
private struct SipState {
    var v0, v1, v2, v3: UInt64

    init(k0: UInt64, k1: UInt64) {
        v0 = k0 ^ 0x736F_6D65_7073_6575
        v1 = k1 ^ 0x646F_7261_6E64_6F6D ^ 0xEE   // 0xEE: the 128-bit output variant
        v2 = k0 ^ 0x6C79_6765_6E65_7261
        v3 = k1 ^ 0x7465_6462_7974_6573
    }

    /// Two compression rounds over one message word.
    mutating func absorb(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    /// The four finalization rounds for each half of the output.
    mutating func finish() -> (UInt64, UInt64) {
        v2 ^= 0xEE
        for _ in 0..<4 { round() }
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xDD
        for _ in 0..<4 { round() }
        return (first, v0 ^ v1 ^ v2 ^ v3)
    }

    private mutating func round() {
        v0 &+= v1; v1 = v1.rotated(13); v1 ^= v0; v0 = v0.rotated(32)
        v2 &+= v3; v3 = v3.rotated(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotated(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotated(17); v1 ^= v2; v2 = v2.rotated(32)
    }
}

private extension UInt64 {
    func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
