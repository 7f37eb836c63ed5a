/// A deterministic workload for `PacingSimulation`: fast frames with slow ones mixed in,
/// at random or in bursts, each cost varied by up to `jitter` from a seeded sequence, so a
/// run gives the same frames every time.
///
/// ```swift
/// var mix = FrameCostMix(fast: FrameCost(cpu: .milliseconds(4), gpu: .milliseconds(4)),
///                        slow: FrameCost(cpu: .milliseconds(18), gpu: .milliseconds(6)),
///                        pattern: .random(slowShare: 0.2), seed: 7)
/// let result = simulation.run(for: .seconds(60)) { _, start in mix.cost(startingAt: start) }
/// ```
public struct FrameCostMix: Sendable {
    /// Which frames are slow.
    public enum Pattern: Sendable, Hashable {
        /// None: every frame is fast.
        case steady
        /// Each frame independently, with probability `slowShare` (0 to 1).
        case random(slowShare: Double)
        /// Frames starting in the last `lasting` of every `every` (time from the run's
        /// start): a scene that turns heavy for a while, regularly.
        case bursts(every: Duration, lasting: Duration)
    }

    /// What a fast frame costs, before jitter.
    public var fast: FrameCost
    /// What a slow frame costs, before jitter.
    public var slow: FrameCost
    /// Which frames are slow.
    public var pattern: Pattern
    /// The most each of a frame's CPU and GPU times is moved, either way (never below 0).
    public var jitter: Duration
    private var random: SeededRandom

    /// A mix of `fast` and `slow` frames chosen by `pattern`, each time moved by up to
    /// `jitter`, drawn from the sequence `seed` starts.
    public init(fast: FrameCost, slow: FrameCost, pattern: Pattern, jitter: Duration = .zero, seed: UInt64 = 1) {
        if case .random(let share) = pattern {
            precondition((0...1).contains(share), "FrameCostMix: slowShare must be between 0 and 1, got \(share)")
        }
        if case .bursts(let every, let lasting) = pattern {
            precondition(every > .zero && lasting >= .zero && lasting <= every,
                         "FrameCostMix: bursts need 0 ≤ lasting ≤ every and every > 0, got \(lasting) every \(every)")
        }
        self.fast = fast
        self.slow = slow
        self.pattern = pattern
        self.jitter = jitter
        random = SeededRandom(seed: seed)
    }

    /// Whether a frame starting at `start` is slow; draws from the sequence for `.random`.
    public mutating func isSlow(startingAt start: Duration) -> Bool {
        switch pattern {
        case .steady:
            return false
        case .random(let share):
            return random.unit() < share
        case .bursts(let every, let lasting):
            let phase = start - every * Int64((start / every).rounded(.down))
            return phase >= every - lasting
        }
    }

    /// The cost of the next frame, which starts at `start`.
    public mutating func cost(startingAt start: Duration) -> FrameCost {
        let base = isSlow(startingAt: start) ? slow : fast
        return FrameCost(cpu: max(base.cpu + random.offset(within: jitter), .zero),
                         gpu: max(base.gpu + random.offset(within: jitter), .zero))
    }
}
