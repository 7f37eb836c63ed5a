import FramePacing
import Testing

private let ms = Duration.milliseconds
private let refresh60: Duration = .nanoseconds(16_666_667)

/// Whether `interval` is `refreshes` refreshes of a 60 Hz display, to the nanosecond
/// rounding of its vblank grid.
private func isRefreshes(_ interval: Duration, _ refreshes: Int) -> Bool {
    abs((interval - refresh60 * refreshes) / .nanoseconds(1)) <= 1
}

/// A repeatable pseudo-random sequence (xorshift64*), so scripted costs vary the same way
/// on every run.
struct ScriptedRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
    /// A duration between `low` and `high`, in whole microseconds.
    mutating func duration(_ low: Duration, _ high: Duration) -> Duration {
        let span = UInt64((high - low) / .microseconds(1))
        return low + .microseconds(Int64(next() % (span + 1)))
    }
}

@Suite("Pacing simulation")
struct PacingSimulationTests {
    @Test("steady 60 fps: every display interval is 16.667 ms, nothing early or dropped")
    func steady60() {
        let result = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
            .run(frames: 600) { _ in FrameCost(cpu: ms(5), gpu: ms(5)) }
        #expect(result.displayIntervals.count == 599)
        #expect(result.displayIntervals.allSatisfy { isRefreshes($0, 1) })
        #expect(result.earlyPresents == 0)
        #expect(result.droppedFrames == 0)
        #expect(result.hitchRatio == 0)
    }

    @Test("a 30 fps target with CPU+GPU between 10 and 30 ms: every interval 33.3 ms, none 16.7, none early")
    func thirtyFromVaryingWork() {
        var random = ScriptedRandom(state: 30)
        var costs: [FrameCost] = []
        for _ in 0..<600 {
            let total = random.duration(ms(10), ms(30))
            let cpu = random.duration(.zero, total)
            costs.append(FrameCost(cpu: cpu, gpu: total - cpu))
        }
        for interval in [SwapInterval.minimumDuration(1.0 / 30), .fixed(refreshes: 2)] {
            var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
            simulation.swapInterval = interval
            let result = simulation.run(frames: costs.count) { costs[$0] }
            #expect(result.displayIntervals.count == 599, "\(interval)")
            #expect(result.displayIntervals.allSatisfy { isRefreshes($0, 2) }, "\(interval)")
            #expect(!result.displayIntervals.contains { isRefreshes($0, 1) }, "\(interval)")
            #expect(result.earlyPresents == 0, "\(interval)")
            #expect(result.frames.allSatisfy { frame in frame.displayed.map { $0 >= frame.paced.target } ?? false })
            #expect(result.statistics.histograms["betweenDisplayChanges"] == [0, 0, 599, 0, 0, 0], "\(interval)")
        }
    }

    /// Frames per second after the automatic interval settles (the first 4 s).
    static func automatic(cpu: Duration, gpu: Duration) -> (fps: Double, result: PacingResult) {
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = .automatic(preferredFrameRate: 60)
        let result = simulation.run(frames: 600) { _ in FrameCost(cpu: cpu, gpu: gpu) }
        let settled = result.frames.firstIndex { $0.start >= .seconds(4) } ?? 0
        return (result.frameRate(from: settled), result)
    }

    @Test("automatic interval: 10/10 ms per frame → 60 fps")
    func automaticLight() {
        let (fps, result) = Self.automatic(cpu: ms(10), gpu: ms(10))
        print("pacing simulation: automatic 10/10 ms → \(fps) fps, interval \(result.finalRefreshes)")
        #expect(abs(fps - 60) < 0.5, "\(fps) fps")
        #expect(result.finalRefreshes == 1)
    }

    @Test("automatic interval: 30/10 ms per frame → 30 fps")
    func automaticCPUBound() {
        let (fps, result) = Self.automatic(cpu: ms(30), gpu: ms(10))
        print("pacing simulation: automatic 30/10 ms → \(fps) fps, interval \(result.finalRefreshes), changed at \(result.intervalChanges.map(\.at))")
        #expect(abs(fps - 30) < 0.5, "\(fps) fps")
        #expect(result.finalRefreshes == 2)
        #expect(result.intervalChanges.count == 1)
    }

    @Test("automatic interval: 40/40 ms per frame → about 20 fps")
    func automaticHeavy() {
        let (fps, result) = Self.automatic(cpu: ms(40), gpu: ms(40))
        print("pacing simulation: automatic 40/40 ms → \(fps) fps, interval \(result.finalRefreshes), changed at \(result.intervalChanges.map(\.at))")
        #expect(abs(fps - 20) < 0.5, "\(fps) fps")
        #expect(result.finalRefreshes == 3)
    }

    @Test("a 50 ms stall shows in the hitch ratio and the cadence recovers within 2 frames")
    func stall() {
        let stalled = 300
        let result = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
            .run(frames: 600) { $0 == stalled ? FrameCost(cpu: ms(50), gpu: ms(5)) : FrameCost(cpu: ms(5), gpu: ms(5)) }
        // The stalled frame (55 ms from start to present, one refresh asked) is shown 3
        // refreshes after its cadence asked: 50 ms late over the run's 10 s of display,
        // where a steady run has none.
        let shown = result.frames.compactMap(\.displayed)
        let lateMs = result.hitchRatio * (shown.last! - shown.first!).inSecondsForTest
        print("pacing simulation: 50 ms stall: hitch ratio \(result.hitchRatio) ms/s over \((shown.last! - shown.first!)), \(lateMs) ms late")
        #expect(abs(lateMs - 50) < 0.01, "\(lateMs) ms late, hitch ratio \(result.hitchRatio) ms/s")
        let intervals = result.displayIntervals
        let irregular = intervals.indices.filter { !isRefreshes(intervals[$0], 1) }
        // Interval i ends at displayed frame i + 1: the first irregular one is the stall's.
        let stallInterval = try! #require(irregular.first)
        #expect(irregular.allSatisfy { $0 <= stallInterval + 2 }, "irregular intervals at \(irregular)")
        #expect(result.earlyPresents == 0)
    }

    @Test("low-latency mode: at least 95% of frames shown within one refresh plus their own time")
    func lowLatency() {
        var random = ScriptedRandom(state: 7)
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.isLowLatency = true
        let result = simulation.run(frames: 600) { _ in
            FrameCost(cpu: random.duration(ms(2), ms(6)), gpu: random.duration(ms(2), ms(6)))
        }
        let shown = result.frames.filter { $0.displayed != nil }
        let within = shown.filter { $0.displayed! - $0.start <= refresh60 + $0.cost.cpu + $0.cost.gpu }
        #expect(Double(within.count) >= 0.95 * Double(shown.count), "\(within.count) of \(shown.count)")
        let latencies = result.latencies.map { $0.inSecondsForTest * 1000 }.sorted()
        print("pacing simulation: low latency: \(within.count) of \(shown.count) frames within one refresh plus their time; latency p50 \(latencies[latencies.count / 2]) ms, max \(latencies.last!) ms")
        #expect(result.frameRate(from: 60) > 59)
    }

    @Test("no drift: 36,000 frames at 60 Hz end within 0.1 ms of 600 s after the first")
    func noDrift() {
        for (rate, interval) in [(60.0, SwapInterval.fixed(refreshes: 1)), (59.94, .fixed(refreshes: 1)), (60, .minimumDuration(1.0 / 30))] {
            var simulation = PacingSimulation(refreshRate: rate, presentMode: .fifo, maximumDrawableCount: 3)
            simulation.swapInterval = interval
            let result = simulation.run(frames: 36_001) { _ in FrameCost(cpu: ms(4), gpu: ms(4)) }
            let shown = result.frames.compactMap(\.displayed)
            let refreshes: Double = interval == .fixed(refreshes: 1) ? 1 : 2
            let expected = 36_000 * refreshes / rate
            let drift = abs((shown[36_000] - shown[0]).inSecondsForTest - expected)
            #expect(drift < 0.0001, "\(rate) Hz \(interval): drift \(drift * 1000) ms")
            print("pacing simulation: drift over 36,000 frames at \(rate) Hz, \(interval): \(drift * 1000) ms")
        }
    }

    @Test("buffer stuffing (an app running ahead into a 3-deep FIFO) is detected and drained within 3 frames")
    func bufferStuffing() {
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.followsPacer = false
        let result = simulation.run(frames: 300) { _ in FrameCost(cpu: ms(2), gpu: ms(2)) }
        let latencies = result.frames.map { $0.displayed! - $0.start }
        // An app that does not follow the pacer fills the queue: 2 refreshes from start to
        // display where its 4 ms frames need one. After 3 such frames the pacer holds
        // frame starts, waits one vblank, and the latency drops to one refresh.
        #expect(result.stuffingEpisodes == 1)
        let stuffed = latencies.indices.filter { latencies[$0] > refresh60 + refresh60 / 2 }
        let last = try! #require(stuffed.last)
        #expect(stuffed == Array(1...last), "stuffed frames \(stuffed)")
        #expect(last <= 4)
        #expect(latencies[(last + 1)...].allSatisfy { isRefreshes($0, 1) })
        // Draining one queued frame from a FIFO costs one repeated vblank, once.
        let intervals = result.displayIntervals
        #expect(intervals.filter { isRefreshes($0, 2) }.count == 1)
        #expect(intervals.filter { isRefreshes($0, 1) }.count == intervals.count - 1)
    }

    @Test("a long run that keeps changing its interval keeps only the last changes, and counts them all")
    func intervalChangesAreBounded() {
        var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
        simulation.swapInterval = .automatic(preferredFrameRate: 60)
        // A heavy scene (30/10 ms) for 10 s of every 35 s, light (10/10 ms) otherwise: each
        // quiet stretch outlasts the hold before lowering (10 s) by more than 10 s, so every
        // scene change is followed: raised in each heavy scene, lowered in each light one
        // but the last (the run ends in a heavy scene).
        var mix = FrameCostMix(fast: FrameCost(cpu: ms(10), gpu: ms(10)), slow: FrameCost(cpu: ms(30), gpu: ms(10)),
                               pattern: .bursts(every: .seconds(35), lasting: .seconds(10)))
        let result = simulation.run(for: .seconds(35 * 36)) { _, start in mix.cost(startingAt: start) }
        print("pacing simulation: \(result.intervalChangeCount) interval changes over 36 heavy scenes")
        #expect(result.intervalChangeCount == 2 * 36 - 1)
        #expect(result.intervalChanges.count == Pacer.changeWindow)
        #expect(zip(result.intervalChanges, result.intervalChanges.dropFirst()).allSatisfy { $0.at < $1.at })
        #expect(zip(result.intervalChanges, result.intervalChanges.dropFirst()).allSatisfy { $1.at - $0.at >= .seconds(10) })
        #expect(result.statistics.records.count == FrameStatistics.defaultWindow)
        #expect(result.statistics.recordedCount == result.frames.count)
    }
}

extension Duration {
    var inSecondsForTest: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
