/// Per-present records and the summaries frame-pacing work is judged by: percentiles of
/// the display interval, Apple's hitch ratio, CapFrameX's stutter count, and Swappy's
/// histograms in refresh periods.
///
/// It keeps the last `window` records (a minute at 60 Hz by default), so a long-running
/// app's statistics take bounded memory; every summary is over the records kept.
public struct FrameStatistics: Sendable, Equatable {
    /// The display's refresh period, in seconds.
    public let refreshPeriod: Double
    /// The interval frames should be shown at, in seconds (the refresh period times the swap
    /// interval); hitches are measured against it.
    public var targetInterval: Double
    /// The last `window` presents, oldest first.
    public var records: [PresentRecord] { Array(kept) }
    /// How many presents were recorded in all, including those no longer kept.
    public var recordedCount: Int { kept.totalAppended }
    /// How many records are kept.
    public var window: Int { kept.capacity }
    private var kept: RingBuffer<PresentRecord>
    private var lastDisplayed: Double?

    /// The default number of records kept: a minute at 60 Hz.
    public static let defaultWindow = 3_600

    /// Statistics for a display refreshing every `refreshPeriod` seconds, judged against
    /// `targetInterval` (the refresh period when nil), over the last `window` records.
    public init(refreshPeriod: Double, targetInterval: Double? = nil, window: Int = defaultWindow) {
        self.refreshPeriod = refreshPeriod
        self.targetInterval = targetInterval ?? refreshPeriod
        kept = RingBuffer(capacity: window)
    }

    /// Records a frame started at `frameStart`, presented at `presentTime` and shown at
    /// `displayedTime` (nil: dropped), all in seconds; `expectedDisplayTime` is when its
    /// cadence asked for it to be shown, where known (a pacer's ideal vblank). Record
    /// frames in the order they were displayed or dropped.
    public mutating func record(frameID: Int, frameStart: Double, presentTime: Double, displayedTime: Double?,
                                expectedDisplayTime: Double? = nil) {
        var record = PresentRecord(frameID: frameID, frameStart: frameStart, presentTime: presentTime,
                                   displayedTime: displayedTime, expectedDisplayTime: expectedDisplayTime)
        if let previous = kept.last { record.msBetweenPresents = (presentTime - previous.presentTime) * 1000 }
        if let displayedTime {
            if let lastDisplayed { record.msBetweenDisplayChange = (displayedTime - lastDisplayed) * 1000 }
            record.msUntilDisplayed = (displayedTime - presentTime) * 1000
            record.msFrameStartToDisplay = (displayedTime - frameStart) * 1000
            lastDisplayed = displayedTime
        }
        kept.append(record)
    }

    /// Milliseconds between display changes, one per displayed frame after the first.
    public var displayIntervals: [Double] { kept.compactMap(\.msBetweenDisplayChange) }

    /// How many frames were dropped.
    public var droppedFrames: Int { kept.filter(\.isDropped).count }

    /// The `fraction` quantile (0...1, nearest rank) of `values`; 0 when there are none.
    public static func quantile(_ fraction: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    /// Display-interval percentiles in milliseconds.
    public var p50: Double { Self.quantile(0.5, of: displayIntervals) }
    /// The 90th percentile of the display interval, in milliseconds.
    public var p90: Double { Self.quantile(0.9, of: displayIntervals) }
    /// The 99th percentile of the display interval, in milliseconds.
    public var p99: Double { Self.quantile(0.99, of: displayIntervals) }
    /// The longest display interval, in milliseconds.
    public var max: Double { displayIntervals.max() ?? 0 }

    /// Apple's hitch ratio: milliseconds frames were shown later than expected, per second
    /// of display time (under 5 ms/s is Apple's "good", over 10 "critical"). A frame
    /// recorded with its `expectedDisplayTime` is late by how much it was shown after it
    /// (so an automatic swap interval's steady cadence counts no hitch); any other by how
    /// much its display interval exceeds `targetInterval`. Lateness under 0.5 ms is not
    /// counted: vblank times are rounded to the nanosecond and real clocks jitter.
    public var hitchRatio: Double {
        let intervals = displayIntervals
        let seconds = intervals.reduce(0, +) / 1000
        guard seconds > 0 else { return 0 }
        var late = 0.0
        for record in kept {
            let lateness: Double
            if let expected = record.expectedDisplayTime, let displayed = record.displayedTime {
                lateness = (displayed - expected) * 1000
            } else if let interval = record.msBetweenDisplayChange {
                lateness = interval - targetInterval * 1000
            } else {
                continue
            }
            if lateness > 0.5 { late += lateness }
        }
        return late / seconds
    }

    /// CapFrameX's stutter count: display intervals over 2.5 times the mean.
    public var stutterCount: Int {
        let intervals = displayIntervals
        guard !intervals.isEmpty else { return 0 }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        return intervals.filter { $0 > 2.5 * mean }.count
    }

    /// Swappy's histograms: for each measure, how many frames took 0, 1, … 5 or more refresh
    /// periods (the bucket is the measure divided by the period, rounded to nearest).
    public var histograms: [String: [Int]] {
        func buckets(_ values: [Double]) -> [Int] {
            var counts = Array(repeating: 0, count: 6)
            for value in values { counts[Swift.min(Swift.max(Int((value / (refreshPeriod * 1000)).rounded()), 0), 5)] += 1 }
            return counts
        }
        return [
            "betweenDisplayChanges": buckets(displayIntervals),
            "untilDisplayed": buckets(kept.compactMap(\.msUntilDisplayed)),
            "frameStartToDisplay": buckets(kept.compactMap(\.msFrameStartToDisplay)),
        ]
    }
}
