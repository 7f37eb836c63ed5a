import FramePacing
import Testing

@Suite("Frame statistics")
struct FrameStatisticsTests {
    /// Frames presented right after each vblank on a 60 Hz fifo display, with `gaps`
    /// (frame index → extra refreshes skipped before it), displayed at the next vblank.
    static func steady(frames: Int, gaps: [Int: Int] = [:]) -> FrameStatistics {
        let display = VirtualDisplay(refreshRate: 60)
        var statistics = FrameStatistics(refreshPeriod: 1.0 / 60)
        var vblank = 0
        for frame in 0..<frames {
            vblank += 1 + (gaps[frame] ?? 0)
            let start = Double(display.vblankTime(vblank - 1).nanoseconds) / 1e9
            statistics.record(frameID: frame, frameStart: start, presentTime: start + 0.004,
                              displayedTime: Double(display.vblankTime(vblank).nanoseconds) / 1e9)
        }
        return statistics
    }

    @Test("steady 60 fps: every display interval 16.667 ms, no hitches, no stutter, all in bucket 1")
    func steady() {
        let statistics = Self.steady(frames: 61)
        #expect(statistics.displayIntervals.count == 60)
        #expect(statistics.displayIntervals.allSatisfy { abs($0 - 1000.0 / 60) < 0.001 })
        #expect(abs(statistics.p50 - 16.667) < 0.001 && abs(statistics.p99 - 16.667) < 0.001)
        #expect(statistics.hitchRatio == 0)
        #expect(statistics.stutterCount == 0)
        #expect(statistics.histograms["betweenDisplayChanges"] == [0, 60, 0, 0, 0, 0])
        #expect(statistics.histograms["frameStartToDisplay"] == [0, 61, 0, 0, 0, 0])
        #expect(statistics.records[1].msUntilDisplayed.map { abs($0 - 12.667) < 0.001 } == true)
    }

    @Test("a 50 ms stall: one 3-refresh interval, 33.3 ms of hitch in about a second, one stutter")
    func stall() {
        let statistics = Self.steady(frames: 61, gaps: [30: 2])
        #expect(statistics.displayIntervals.filter { $0 > 17 }.map { ($0 * 1000).rounded() / 1000 } == [50])
        #expect(abs(statistics.hitchRatio - 33.333 / 1.0333) < 0.1)
        #expect(statistics.stutterCount == 1)
        #expect(statistics.histograms["betweenDisplayChanges"] == [0, 59, 0, 1, 0, 0])
        #expect(abs(statistics.max - 50) < 0.001)
    }

    @Test("dropped frames are recorded with no display measures and counted")
    func dropped() {
        var statistics = FrameStatistics(refreshPeriod: 1.0 / 60)
        statistics.record(frameID: 1, frameStart: 0, presentTime: 0.001, displayedTime: nil)
        statistics.record(frameID: 2, frameStart: 0.002, presentTime: 0.003, displayedTime: 1.0 / 60)
        #expect(statistics.droppedFrames == 1)
        #expect(statistics.records[0].msUntilDisplayed == nil && statistics.records[0].isDropped)
        #expect(statistics.records[1].msBetweenPresents.map { abs($0 - 2) < 1e-9 } == true)
        #expect(statistics.displayIntervals.isEmpty)
    }

    @Test("json, csv and svg carry the records and the summary")
    func exports() {
        let statistics = Self.steady(frames: 5, gaps: [3: 1])
        let json = statistics.json()
        #expect(json.hasPrefix("{\"refreshPeriodMs\":16.667,"))
        #expect(json.contains("\"frames\":5,\"dropped\":0,"))
        #expect(json.contains("\"betweenDisplayChanges\":[0,3,1,0,0,0]"))
        let csv = statistics.csv().split(separator: "\n")
        #expect(csv.count == 6)
        #expect(csv[0] == "FrameID,FrameStart,PresentTime,DisplayedTime,Dropped,MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed,DisplayLatency")
        #expect(csv[1] == "0,0,0.004,0.017,0,,,12.667,16.667")
        let svg = statistics.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<polyline") && svg.contains("stroke-dasharray"))
        #expect(svg.contains("1 stutters") == false && svg.contains("max 33.333"))
    }

    @Test("a window keeps the newest records and summarises exactly those")
    func window() {
        var all = FrameStatistics(refreshPeriod: 1.0 / 60, window: 1_000)
        var windowed = FrameStatistics(refreshPeriod: 1.0 / 60, window: 10)
        var shown = 0.0
        for frame in 0..<25 {
            shown += frame % 4 == 3 ? 2.0 / 60 : 1.0 / 60
            let displayed: Double? = frame % 9 == 5 ? nil : shown
            for index in [0, 1] {
                if index == 0 {
                    all.record(frameID: frame, frameStart: shown - 0.02, presentTime: shown - 0.01, displayedTime: displayed)
                } else {
                    windowed.record(frameID: frame, frameStart: shown - 0.02, presentTime: shown - 0.01, displayedTime: displayed)
                }
            }
        }
        let last = Array(all.records.suffix(10))
        #expect(windowed.records == last)
        #expect(windowed.recordedCount == 25 && windowed.window == 10)
        let intervals = last.compactMap(\.msBetweenDisplayChange)
        #expect(windowed.displayIntervals == intervals)
        #expect(windowed.p50 == FrameStatistics.quantile(0.5, of: intervals))
        #expect(windowed.p99 == FrameStatistics.quantile(0.99, of: intervals))
        #expect(windowed.droppedFrames == last.filter(\.isDropped).count)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

@Suite("Frame statistics: hitches against the expected vblank")
struct ExpectedDisplayTimeTests {
    @Test("frames recorded with their expected display time: a steady 30 fps cadence on 60 Hz has no hitches; one frame a refresh late counts that refresh")
    func hitchesAgainstExpected() {
        let period = 1.0 / 60
        var statistics = FrameStatistics(refreshPeriod: period)
        for frame in 0..<60 {
            let expected = Double(frame) * 2 * period
            let displayed = frame == 30 ? expected + period : expected
            statistics.record(frameID: frame, frameStart: expected - period, presentTime: expected - period / 2,
                              displayedTime: displayed, expectedDisplayTime: frame == 0 ? nil : expected)
        }
        let seconds = statistics.displayIntervals.reduce(0, +) / 1000
        #expect(abs(statistics.hitchRatio - period * 1000 / seconds) < 1e-6, "\(statistics.hitchRatio) ms/s")
        #expect(statistics.records[30].expectedDisplayTime == 60 * period)
        #expect(statistics.json().contains("\"expectedDisplayTime\":1"))
    }
}
