/// SplitMix64: a small seeded generator, for tests and simulations whose random runs must
/// repeat (a failing run replayed, a noisy stroke the same on every run).
package struct SplitMix64: RandomNumberGenerator {
    /// The generator's state; the seed to start from.
    package var state: UInt64

    /// A generator starting from `state`.
    package init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
