/// What a `PacingSimulation` run did, frame by frame, with its summaries.
public struct PacingResult: Sendable {
    /// One simulated frame.
    public struct Frame: Sendable, Hashable {
        /// The frame's index.
        public var index: Int
        /// Its cost.
        public var cost: FrameCost
        /// When the app started it.
        public var start: Duration
        /// When its GPU work finished and it was handed to the display.
        public var presented: Duration
        /// The pacer's decision for it.
        public var paced: PacedPresent
        /// When it was shown; nil when it was dropped.
        public var displayed: Duration?
    }

    /// Every frame, in order.
    public var frames: [Frame]
    /// PresentMon-style records of the run, judged against the swap interval asked for.
    public var statistics: FrameStatistics
    /// Buffer stuffing episodes the pacer detected.
    public var stuffingEpisodes: Int
    /// The last `Pacer.changeWindow` changes of the automatic swap interval: when, and to
    /// how many refreshes.
    public var intervalChanges: [(at: Duration, refreshes: Int)]
    /// How many times the automatic swap interval changed in all.
    public var intervalChangeCount: Int
    /// The swap interval in use at the end, in refreshes.
    public var finalRefreshes: Int

    /// Time between one displayed frame and the next, one per displayed frame after the
    /// first.
    public var displayIntervals: [Duration] {
        let shown = frames.compactMap(\.displayed)
        return zip(shown.dropFirst(), shown).map { $0 - $1 }
    }

    /// Frames shown before their target: 0 is the promise.
    public var earlyPresents: Int { frames.filter { frame in frame.displayed.map { $0 < frame.paced.target } ?? false }.count }

    /// Frames replaced before they were shown.
    public var droppedFrames: Int { frames.filter { $0.displayed == nil }.count }

    /// Frame start to display, for every displayed frame.
    public var latencies: [Duration] { frames.compactMap { frame in frame.displayed.map { $0 - frame.start } } }

    /// Apple's hitch ratio against the pacer's cadence: milliseconds frames were shown
    /// after the vblank their cadence asked for, per second of display time.
    public var hitchRatio: Double {
        let shown = frames.compactMap(\.displayed)
        guard let first = shown.first, let last = shown.last, last > first else { return 0 }
        let late = frames.reduce(Duration.zero) { total, frame in
            guard let displayed = frame.displayed, let ideal = frame.paced.ideal, displayed > ideal else { return total }
            return total + (displayed - ideal)
        }
        return late.inSeconds * 1000 / (last - first).inSeconds
    }

    /// Displayed frames per second over the frames from `from` on.
    public func frameRate(from: Int = 0) -> Double {
        let shown = frames.dropFirst(from).compactMap(\.displayed)
        guard let first = shown.first, let last = shown.last, last > first else { return 0 }
        return Double(shown.count - 1) / (last - first).inSeconds
    }
}
