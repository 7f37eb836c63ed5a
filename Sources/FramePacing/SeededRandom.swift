/// A repeatable pseudo-random sequence (xorshift64*): the same seed gives the same
/// numbers on every run and platform, so simulated workloads are deterministic.
struct SeededRandom: Sendable {
    private var state: UInt64

    /// A sequence starting from `seed` (0 is replaced, as xorshift never leaves it).
    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }

    /// A number in [0, 1), from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A duration in [-`spread`, `spread`], in whole microseconds.
    mutating func offset(within spread: Duration) -> Duration {
        let span = spread / .microseconds(1)
        guard span >= 1 else { return .zero }
        let micros = Int64(span.rounded(.down))
        return .microseconds(Int64(next() % UInt64(2 * micros + 1)) - micros)
    }
}
