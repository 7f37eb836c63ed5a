import FramePacing
import Testing

private let ms = Duration.milliseconds
private let refresh60: Duration = .nanoseconds(16_666_667)

/// A workload the automatic swap interval is run on: fast frames of 4 ms CPU + 4 ms GPU
/// with slow ones mixed in, each time moved by up to 1 ms, at 60 Hz.
struct IntervalMix: Sendable, CustomTestStringConvertible {
    /// 24 ms (18 ms CPU + 6 ms GPU): misses at interval 1 unless pipelined; pipelined, the
    /// frame queue absorbs it.
    static let slowFitsPipelined = FrameCost(cpu: ms(18), gpu: ms(6))
    /// 40 ms (30 ms CPU + 10 ms GPU): over two refreshes, so it misses at interval 1 even
    /// pipelined.
    static let slowMissesPipelined = FrameCost(cpu: ms(30), gpu: ms(10))
    /// 8 ms (4 ms CPU + 4 ms GPU): fits interval 1 either way.
    static let fast = FrameCost(cpu: ms(4), gpu: ms(4))
    /// 25 ms (24 ms CPU + 1 ms GPU) among 6 ms frames: pipelined, the frame queue absorbs
    /// most of them at interval 1, but runs of them double about one frame a second.
    static let slowSometimesDoubles = FrameCost(cpu: ms(24), gpu: ms(1))
    /// 6 ms (3 ms CPU + 3 ms GPU).
    static let light = FrameCost(cpu: ms(3), gpu: ms(3))

    var name: String
    var fast = IntervalMix.fast
    var slow: FrameCost
    var pattern: FrameCostMix.Pattern
    /// The interval the run must end at.
    var finalRefreshes: Int
    var testDescription: String { name }

    /// Whether the slow frames miss at interval 1 even when pipelined.
    var missesPipelined: Bool { slow == Self.slowMissesPipelined && pattern != .steady }

    /// The mixes, each with the interval it must end at: the highest rate whose hitch ratio
    /// stays under 5 ms/s. A second of 24 ms frames every 5 s doubles about one frame in
    /// seven during the burst at interval 1 (330 late frames in 110 s, about 50 ms/s), so it
    /// ends at 2, where none is late.
    static let all: [IntervalMix] = [
        IntervalMix(name: "steady", slow: slowFitsPipelined, pattern: .steady, finalRefreshes: 1),
    ] + [(slowFitsPipelined, "24 ms", 1, 2), (slowMissesPipelined, "40 ms", 2, 2)].flatMap { slow, label, final, bursts in
        [0.1, 0.2, 0.4].map { share in
            IntervalMix(name: "\(Int(share * 100))% slow \(label)", slow: slow, pattern: .random(slowShare: share), finalRefreshes: final)
        } + [IntervalMix(name: "1 s of slow \(label) every 5 s", slow: slow, pattern: .bursts(every: .seconds(5), lasting: .seconds(1)),
                         finalRefreshes: bursts)]
    } + [
        IntervalMix(name: "20% slow 25 ms among 6 ms", fast: light, slow: slowSometimesDoubles, pattern: .random(slowShare: 0.2),
                    finalRefreshes: 2),
        IntervalMix(name: "5% slow 12 ms among 6 ms", fast: light, slow: FrameCost(cpu: ms(8), gpu: ms(4)),
                    pattern: .random(slowShare: 0.05), finalRefreshes: 1),
    ]

    /// The run: `seconds` of this mix from a fixed seed, automatic interval, 60 Hz FIFO.
    func run(seconds: Int64 = AutomaticIntervalTests.runSeconds, swapInterval: SwapInterval = .automatic(preferredFrameRate: 60)) -> PacingResult {
        var mix = FrameCostMix(fast: fast, slow: slow, pattern: pattern, jitter: ms(1), seed: 2_024)
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = swapInterval
        return simulation.run(for: .seconds(seconds)) { _, start in mix.cost(startingAt: start) }
    }
}

extension PacingResult {
    /// Apple's hitch ratio over the frames from `index` on: milliseconds they were shown after
    /// their cadence's vblank, per second of their display time.
    func hitchRatio(fromFrame index: Int) -> Double {
        let frames = self.frames.dropFirst(index)
        let shown = frames.compactMap(\.displayed)
        guard let first = shown.first, let last = shown.last, last > first else { return 0 }
        let late = frames.reduce(Duration.zero) { total, frame in
            guard let displayed = frame.displayed, let ideal = frame.paced.ideal, displayed > ideal else { return total }
            return total + (displayed - ideal)
        }
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        return seconds(late) * 1000 / seconds(last - first)
    }

    /// When the interval changed: every change while there are no more than
    /// `Pacer.changeWindow`.
    var changeTimes: [Duration] { intervalChanges.map(\.at) }

    /// The most interval changes in any 10 s from `start` on.
    func mostChangesIn10Seconds(after start: Duration) -> Int {
        let times = changeTimes.filter { $0 >= start }
        return times.indices.map { first in times[first...].prefix { $0 - times[first] < .seconds(10) }.count }.max() ?? 0
    }
}

@Suite("Automatic swap interval")
struct AutomaticIntervalTests {
    /// How long each mix runs.
    static let runSeconds: Int64 = 120
    /// The first settling period: changes before it are not held to the rate limit.
    static let settling: Duration = .seconds(10)

    @Test("each mix changes the interval at most once in any 10 s after the first 10 s, and ends where it should",
          arguments: IntervalMix.all)
    func settles(mix: IntervalMix) {
        let result = mix.run()
        let after = result.changeTimes.filter { $0 >= Self.settling }.count
        let settled = result.frames.firstIndex { $0.start >= Self.settling } ?? 0
        let atOne = mix.run(swapInterval: .fixed(refreshes: 1))
        print("pacing simulation: automatic, \(mix.name): \(result.intervalChangeCount) changes, \(after) after 10 s, final interval \(result.finalRefreshes), \(result.frameRate(from: settled)) fps and \(result.frames[settled...].filter(\.paced.missed).count) of \(result.frames.count - settled) frames late after 10 s, hitch ratio after 10 s \(result.hitchRatio(fromFrame: settled)) ms/s (at interval 1: \(atOne.hitchRatio(fromFrame: settled)) ms/s), changes at \(result.intervalChanges.map { "\($0.at): \($0.refreshes)" })")
        #expect(result.intervalChangeCount == result.intervalChanges.count, "every change kept")
        #expect(result.mostChangesIn10Seconds(after: Self.settling) <= 1, "changes at \(result.changeTimes)")
        #expect(result.finalRefreshes == mix.finalRefreshes)
        // The rule itself: after settling, the hitch ratio is under Apple's 5 ms/s.
        #expect(result.hitchRatio(fromFrame: settled) < 5, "hitch ratio \(result.hitchRatio(fromFrame: settled)) ms/s after 10 s")
    }

    @Test("20% of 25 ms frames among 6 ms ones: critical hitching at 60 fps (about one doubled frame a second), so it settles on 30 fps with no doubled frame after it settles")
    func consistentRateBeatsHigherUnevenOne() throws {
        let mix = try #require(IntervalMix.all.first { $0.name == "20% slow 25 ms among 6 ms" })
        let result = mix.run()
        let atOne = mix.run(swapInterval: .fixed(refreshes: 1))
        let settledAtOne = atOne.frames.firstIndex { $0.start >= Self.settling }!
        let doubledAtOne = atOne.displayIntervals.filter { $0 > refresh60 * 3 / 2 }.count
        // Without the raise the load hitches past Apple's "critical" 10 ms/s.
        #expect(atOne.hitchRatio(fromFrame: settledAtOne) > 10, "at interval 1: \(atOne.hitchRatio(fromFrame: settledAtOne)) ms/s")
        #expect(doubledAtOne > 100, "\(doubledAtOne) doubled frames in 120 s at interval 1")
        #expect(result.intervalChangeCount == 1 && result.finalRefreshes == 2, "changes \(result.intervalChanges)")
        let raise = try #require(result.changeTimes.first)
        #expect(raise < .seconds(15), "raised at \(raise)")
        let shown = result.frames.filter { $0.start > raise + .seconds(1) }.compactMap(\.displayed)
        let intervals = zip(shown.dropFirst(), shown).map { $0 - $1 }
        #expect(!intervals.isEmpty && intervals.allSatisfy { $0 == refresh60 * 2 || $0 == refresh60 * 2 - .nanoseconds(1) || $0 == refresh60 * 2 + .nanoseconds(1) },
                "every interval two refreshes after settling: \(Set(intervals))")
        let settled = result.frames.firstIndex { $0.start >= Self.settling }!
        #expect(result.hitchRatio(fromFrame: settled) == 0)
        #expect(result.statistics.hitchRatio < 0.5, "FrameStatistics against each frame's expected vblank: \(result.statistics.hitchRatio) ms/s")
    }

    @Test("a light load (5% of 12 ms frames among 6 ms ones) stays at 60 fps, hitch-free")
    func lightLoadStays() throws {
        let mix = try #require(IntervalMix.all.first { $0.name == "5% slow 12 ms among 6 ms" })
        let result = mix.run()
        #expect(result.intervalChangeCount == 0 && result.finalRefreshes == 1)
        #expect(result.hitchRatio == 0 && result.statistics.hitchRatio == 0)
        #expect(abs(result.frameRate() - 60) < 0.01)
    }

    @Test("slow frames that miss even pipelined: raised once to 2 and kept there, never back to 1",
          arguments: IntervalMix.all.filter(\.missesPipelined))
    func staysLonger(mix: IntervalMix) throws {
        let result = mix.run()
        #expect(result.intervalChangeCount == 1, "changes \(result.intervalChanges)")
        let raise = try #require(result.intervalChanges.first)
        #expect(raise.refreshes == 2)
        let after = result.frames.filter { $0.start > raise.at }
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0.paced.refreshes == 2 }, "every frame after the raise asks for 2 refreshes")
        // The raise comes with the first misses, not at the end of the run.
        #expect(raise.at < .seconds(30), "raised at \(raise.at)")
    }

    @Test("20% slow 40 ms frames stay at interval 2 although their mean pipelined time fits interval 1, Swappy's test for lowering")
    func meanFitsButStays() {
        let mix = IntervalMix.all.first { $0.name == "20% slow 40 ms" }!
        let result = mix.run()
        let settled = result.frames.filter { $0.start > .seconds(10) }
        let meanPipelined = settled.reduce(Duration.zero) { $0 + max($1.cost.cpu, $1.cost.gpu) } / settled.count + ms(1)
        #expect(meanPipelined < refresh60 - ms(1), "mean pipelined time \(meanPipelined) fits one refresh with 1 ms to spare")
        #expect(result.finalRefreshes == 2)
        #expect(result.frameRate(from: settled[0].index) > 29.9)
    }

    @Test("a load that drops for good is followed down once, a hold (10 s) after the drop")
    func lowersAfterHold() throws {
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = .automatic(preferredFrameRate: 60)
        let result = simulation.run(for: .seconds(60)) { _, start in
            start < .seconds(15) ? FrameCost(cpu: ms(30), gpu: ms(10)) : FrameCost(cpu: ms(10), gpu: ms(10))
        }
        print("pacing simulation: automatic, 30/10 ms for 15 s then 10/10 ms: changes \(result.intervalChanges.map { "\($0.at): \($0.refreshes)" })")
        #expect(result.intervalChanges.map(\.refreshes) == [2, 1])
        let lowered = try #require(result.intervalChanges.last?.at)
        #expect(lowered >= .seconds(25) && lowered <= .seconds(27), "lowered at \(lowered)")
        #expect(result.finalRefreshes == 1)
        #expect(abs(result.frameRate(from: result.frames.firstIndex { $0.start > .seconds(30) }!) - 60) < 0.1)
    }

    @Test("bursts just past the hold (1 s every 15 s): one lowering and quick re-raise double the hold, then it stays at 2")
    func holdDoubles() {
        var mix = FrameCostMix(fast: IntervalMix.fast, slow: IntervalMix.slowMissesPipelined,
                               pattern: .bursts(every: .seconds(15), lasting: .seconds(1)), jitter: ms(1), seed: 2_024)
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = .automatic(preferredFrameRate: 60)
        let result = simulation.run(for: .seconds(120)) { _, start in mix.cost(startingAt: start) }
        print("pacing simulation: automatic, 1 s of 40 ms frames every 15 s: changes \(result.intervalChanges.map { "\($0.at): \($0.refreshes)" })")
        // Raised after the first burst (14–15 s), lowered 10 s later, raised again after the
        // next burst, within 10 s of the lowering: the hold becomes 20 s, longer than any
        // quiet stretch, and nothing changes from the third burst on.
        #expect(result.intervalChanges.map(\.refreshes) == [2, 1, 2])
        #expect(result.changeTimes.allSatisfy { $0 < .seconds(35) }, "changes at \(result.changeTimes)")
        #expect(result.finalRefreshes == 2)
    }
}
