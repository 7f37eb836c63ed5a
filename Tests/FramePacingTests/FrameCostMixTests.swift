import FramePacing
import Testing

private let ms = Duration.milliseconds

@Suite("Frame cost mix")
struct FrameCostMixTests {
    private static let fast = FrameCost(cpu: ms(4), gpu: ms(4))
    private static let slow = FrameCost(cpu: ms(30), gpu: ms(10))

    /// The costs of frames starting every 1/60 s for `count` frames.
    private static func costs(_ mix: FrameCostMix, count: Int) -> [FrameCost] {
        var mix = mix
        return (0..<count).map { mix.cost(startingAt: .nanoseconds(16_666_667) * $0) }
    }

    @Test("the same seed gives the same frames; another seed, others")
    func deterministic() {
        let mix = FrameCostMix(fast: Self.fast, slow: Self.slow, pattern: .random(slowShare: 0.2), jitter: ms(1), seed: 11)
        #expect(Self.costs(mix, count: 1_000) == Self.costs(mix, count: 1_000))
        let other = FrameCostMix(fast: Self.fast, slow: Self.slow, pattern: .random(slowShare: 0.2), jitter: ms(1), seed: 12)
        #expect(Self.costs(mix, count: 1_000) != Self.costs(other, count: 1_000))
    }

    @Test("random: the slow share is as asked; jitter stays within its bound, in whole microseconds")
    func randomShare() {
        for share in [0.1, 0.2, 0.4] {
            let costs = Self.costs(FrameCostMix(fast: Self.fast, slow: Self.slow, pattern: .random(slowShare: share), jitter: ms(1), seed: 3),
                                   count: 10_000)
            let slow = costs.filter { $0.cpu > ms(20) }
            #expect(abs(Double(slow.count) / 10_000 - share) < 0.015, "\(slow.count) slow of 10,000 for \(share)")
            for cost in costs {
                let base = cost.cpu > ms(20) ? Self.slow : Self.fast
                #expect(abs((cost.cpu - base.cpu) / .microseconds(1)) <= 1_000 && abs((cost.gpu - base.gpu) / .microseconds(1)) <= 1_000)
                #expect(cost.cpu / .microseconds(1) == (cost.cpu / .microseconds(1)).rounded())
            }
        }
    }

    @Test("bursts: slow exactly in the last `lasting` of every period; steady: never slow")
    func bursts() {
        var mix = FrameCostMix(fast: Self.fast, slow: Self.slow, pattern: .bursts(every: .seconds(5), lasting: .seconds(1)))
        for tenth in 0..<200 {
            let start = Duration.milliseconds(100) * tenth
            #expect(mix.cost(startingAt: start) == (tenth % 50 >= 40 ? Self.slow : Self.fast), "at \(start)")
        }
        var steady = FrameCostMix(fast: Self.fast, slow: Self.slow, pattern: .steady, jitter: ms(2), seed: 5)
        #expect((0..<1_000).allSatisfy { steady.cost(startingAt: .milliseconds($0)).cpu <= ms(6) })
    }
}
