/// Frame pacing on absolute deadlines: the code behind `present(_:atTime:)`,
/// `present(_:afterMinimumDuration:)`, `PacingSimulation` and its swap intervals.
///
/// - Never early: a frame's target is a vblank at or after the time it asks for.
/// - No drift: each target is the previous target plus the interval on the clock's
///   vblank grid, not the previous display time plus a duration; a frame shown late by
///   less than half a refresh (a real clock's jitter) does not move the cadence, one
///   shown later re-anchors it at the vblank it was shown at.
/// - Automatic swap interval and pipelining (Swappy's rules for raising, hysteresis for
///   lowering): per-frame CPU and GPU times in a 2 s window; pipelined frame time is
///   max(cpu, gpu) + 1 ms, non-pipelined cpu + gpu + 1 ms. More than 10% misses:
///   pipelining on first, then (automatic interval only) a longer interval. Lower only
///   when no frame in the window missed, at least `lowerHold` (10 s) has passed since the
///   interval last changed, and 99% of the frames of that span had a pipelined time under
///   period × (shorter interval) − 1 ms: the shortest such interval, never faster than the
///   preferred rate. A raise within 10 s of a lowering doubles `lowerHold` (up to 320 s);
///   a later raise sets it back to 10 s. With no misses, pipelining goes off when
///   1.5 × the mean non-pipelined time fits the interval and 99% of the window's frames
///   fit it without pipelining (any swap interval). Every change clears the window.
/// - Buffer stuffing: frames whose start-to-display latency exceeds the interval (twice
///   that when pipelined) plus half a refresh, 3 in a row, are stuffing; the pacer then
///   holds frame starts (`framesAhead`) and asks for one vblank of wait to drain the queue.
public struct Pacer: Sendable {
    /// The clock whose vblank grid targets fall on.
    public let clock: any DisplayClock
    /// Whether targets fall on the clock's vblanks (true) or at the exact times asked
    /// (false: for window surfaces whose vblanks the library cannot see).
    public let snapsToVblanks: Bool
    /// The cadence asked for; setting it restarts the automatic interval's measurements.
    public var swapInterval: SwapInterval {
        didSet { reset() }
    }
    /// The interval in use now, in refreshes.
    public private(set) var refreshes = 1
    /// Whether a frame may start before the previous one is shown (CPU of one frame
    /// overlapping GPU of the one before). Starts off; missed frames turn it on.
    public private(set) var isPipelined = false
    /// Whether the pacer holds frame starts (`framesAhead`): from the start when made so,
    /// otherwise once it detects buffer stuffing.
    public private(set) var holdsFrameStarts: Bool
    /// How many times buffer stuffing was detected.
    public private(set) var stuffingEpisodes = 0
    /// The last `changeWindow` changes of the automatic interval, oldest first: when, and
    /// to how many refreshes.
    public var intervalChanges: [(at: Duration, refreshes: Int)] { Array(changes) }
    /// How many times the automatic interval changed in all.
    public var intervalChangeCount: Int { changes.totalAppended }
    /// How many interval changes `intervalChanges` keeps.
    public static let changeWindow = 64
    /// How long the frames must have fitted a shorter interval, and the interval stayed
    /// as it is, before the automatic interval lowers: 10 s, doubled by each raise that
    /// follows a lowering within 10 s (an oscillation), back to 10 s after a raise that does
    /// not.
    public private(set) var lowerHold = Pacer.lowerHoldBase
    private var changes = RingBuffer<(at: Duration, refreshes: Int)>(capacity: changeWindow)

    private var lastTarget: Duration?
    private var lastDisplayed: Duration?
    private var window: [Sample] = []
    /// When the window began filling: it is full 2 s later.
    private var windowStart: Duration?
    private var stuffedRun = 0
    private var pendingWait = false
    private var recentFrameTimes: [Duration] = []
    /// The refreshes each frame's pipelined time needed, with the margin lowering asks for,
    /// over the longest hold.
    private var history = FrameTimeHistory()
    /// When the automatic interval last changed (or measuring began).
    private var lastIntervalChange: Duration?
    /// When the automatic interval was last lowered.
    private var lastLowering: Duration?

    private struct Sample {
        var displayed: Duration
        var cpu: Duration
        var gpu: Duration
        var missed: Bool
    }

    /// The window the automatic interval measures over.
    static let window: Duration = .seconds(2)
    /// Share of missed frames in the window that raises the interval.
    static let missThreshold = 0.10
    /// Share of frames that may not fit a shorter interval (or fit the interval only when
    /// pipelined) for the pacer still to lower it (or stop pipelining): the other edge of
    /// the hysteresis band that `missThreshold` starts.
    static let fitTolerance = 0.01
    /// The shortest `lowerHold`, and how soon after a lowering a raise counts as an
    /// oscillation.
    static let lowerHoldBase: Duration = .seconds(10)
    /// The longest `lowerHold`.
    static let lowerHoldLimit: Duration = .seconds(320)
    /// Added to frame times, as Swappy does.
    static let frameTimeMargin: Duration = .milliseconds(1)
    /// How long before its vblank a low-latency frame starts, beyond its predicted time.
    public static let lowLatencyMargin: Duration = .milliseconds(2)
    /// Stuffed frames in a row that count as buffer stuffing.
    static let stuffingRun = 3

    /// A pacer on `clock`'s vblanks with `swapInterval` (every refresh by default). With
    /// `holdsFrameStarts`, the app's frame starts follow `framesAhead` from the start (a
    /// frame loop driven by the pacer); without, only once buffer stuffing is detected.
    public init(clock: any DisplayClock, swapInterval: SwapInterval = .fixed(refreshes: 1), holdsFrameStarts: Bool = true,
                snapsToVblanks: Bool = true) {
        self.clock = clock
        self.snapsToVblanks = snapsToVblanks
        self.swapInterval = swapInterval
        self.holdsFrameStarts = holdsFrameStarts
        reset()
    }

    /// The fewest refreshes per frame the swap interval allows.
    public var minimumRefreshes: Int {
        switch swapInterval {
        case .fixed(let refreshes): return max(refreshes, 1)
        case .minimumDuration(let seconds): return refreshes(for: .wholeNanoseconds(seconds))
        case .automatic(let rate): return refreshes(for: .wholeNanoseconds(1 / max(rate, 1e-9)))
        }
    }

    /// Whether the interval is chosen from measured frame times.
    private var isAutomatic: Bool { if case .automatic = swapInterval { true } else { false } }

    /// How many frames may be started ahead of the oldest one not yet shown; nil while
    /// the pacer does not hold frame starts.
    public var framesAhead: Int? { holdsFrameStarts ? (isPipelined ? 2 : 1) : nil }

    /// Whether the next frame should start one vblank later than it could (the drain
    /// after buffer stuffing was detected); asking clears the request.
    public mutating func takeStuffingWait() -> Bool {
        defer { pendingWait = false }
        return pendingWait
    }

    /// When a low-latency frame starting no earlier than `now` should start: its predicted
    /// time (the longest of the last 8 frames) plus `lowLatencyMargin` before the first
    /// vblank that leaves room for both.
    public func lowLatencyStart(notBefore now: Duration) -> Duration {
        let lead = (recentFrameTimes.max() ?? .zero) + Self.lowLatencyMargin
        return clock.vblank(atOrAfter: now + lead) - lead
    }

    /// The target for a frame handed over for display at `arrival` with `timing`.
    public mutating func target(for timing: PresentTiming = .asSoonAsPossible, arrival: Duration) -> PacedPresent {
        let earliest = snapsToVblanks ? clock.vblank(atOrAfter: arrival) : arrival
        let step: Int
        var ideal: Duration?
        switch timing {
        case .atTime(let time):
            step = refreshes
            ideal = align(time)
        case .afterMinimumDuration(let duration):
            step = refreshes(for: duration)
            ideal = anchor.map { alignCadence($0 + duration) }
        case .asSoonAsPossible:
            step = refreshes
            ideal = anchor.map { alignCadence($0 + clock.refreshPeriod * step) }
        }
        let paced = PacedPresent(target: max(ideal ?? earliest, earliest), ideal: ideal, refreshes: step)
        lastTarget = paced.target
        return paced
    }

    /// Feeds back a frame: started at `start`, paced as `paced`, shown at `displayed`
    /// (nil: dropped), with its CPU and GPU times when known.
    public mutating func frameDisplayed(_ paced: PacedPresent, start: Duration, displayed: Duration?,
                                        cpu: Duration? = nil, gpu: Duration? = nil) {
        guard let displayed else { return }
        lastDisplayed = displayed
        if let cpu, let gpu {
            recentFrameTimes.append(cpu + gpu)
            if recentFrameTimes.count > 8 { recentFrameTimes.removeFirst() }
        }
        detectStuffing(latency: displayed - start, refreshes: paced.refreshes)
        guard let cpu, let gpu else { return }
        if windowStart == nil { windowStart = displayed }
        if lastIntervalChange == nil { lastIntervalChange = displayed }
        window.append(Sample(displayed: displayed, cpu: cpu, gpu: gpu, missed: paced.missed))
        if isAutomatic {
            // Pipelined time plus the 1 ms lowering asks to spare.
            history.record(needs: refreshes(for: max(cpu, gpu) + Self.frameTimeMargin * 2), at: displayed, keeping: Self.lowerHoldLimit)
        }
        window.removeAll { displayed - $0.displayed > Self.window }
        adjustInterval(now: displayed)
    }

    /// Records a frame shown at `time` without pacing (`present(_:)`): the cadence of the
    /// next paced frame continues from it.
    public mutating func unpacedFrameShown(at time: Duration) {
        lastTarget = time
        lastDisplayed = time
    }

    /// Where the cadence continues from: the last target, or the vblank a frame shown
    /// more than half a refresh after its target was shown at.
    private var anchor: Duration? {
        guard let lastTarget else { return nil }
        guard let lastDisplayed, lastDisplayed - lastTarget > clock.refreshPeriod / 2 else { return lastTarget }
        return snapsToVblanks ? clock.vblank(atOrAfter: lastDisplayed - clock.refreshPeriod / 2) : lastDisplayed
    }

    /// `time` on the vblank grid (the first vblank at or after it, where a time within
    /// `slack` after a vblank counts as that vblank), or itself when the pacer does not
    /// snap.
    private func align(_ time: Duration) -> Duration { snapsToVblanks ? clock.vblank(atOrAfter: time - Self.slack) : time }

    /// A cadence's next time (a vblank plus whole refreshes) on the vblank grid: the nearest
    /// vblank within a quarter refresh before it counts. A measured grid (a server's vblanks)
    /// moves by its measurement's noise between two frames, and a target one refresh after
    /// the last must not land a refresh later for that.
    private func alignCadence(_ time: Duration) -> Duration {
        snapsToVblanks ? clock.vblank(atOrAfter: time - clock.refreshPeriod / 4) : time
    }

    /// Room for a vblank grid rounded to the nanosecond, and for times converted from
    /// seconds: a time within this after a vblank counts as that vblank.
    private static let slack: Duration = .microseconds(1)

    /// The refreshes that cover `duration`: a duration within 1% over a whole number of
    /// refreshes counts as that number, since a measured refresh (a server's vblanks, a
    /// compositor's frames) wanders by that much around its nominal value.
    private func refreshes(for duration: Duration) -> Int {
        max(Int((duration / clock.refreshPeriod - 1e-2).rounded(.up)), 1)
    }

    private mutating func reset() {
        refreshes = minimumRefreshes
        window = []
        windowStart = nil
        stuffedRun = 0
        history.removeAll()
        lastIntervalChange = nil
        lastLowering = nil
        lowerHold = Self.lowerHoldBase
    }

    private mutating func detectStuffing(latency: Duration, refreshes: Int) {
        let allowed = clock.refreshPeriod * (refreshes * (isPipelined ? 2 : 1)) + clock.refreshPeriod / 2
        stuffedRun = latency > allowed ? stuffedRun + 1 : 0
        guard stuffedRun >= Self.stuffingRun else { return }
        stuffedRun = 0
        stuffingEpisodes += 1
        holdsFrameStarts = true
        pendingWait = true
    }

    /// On a full window: raise on misses (Swappy's rule); lower once the frames of the
    /// whole hold fit a shorter interval with room to spare.
    private mutating func adjustInterval(now: Duration) {
        guard let windowStart, now - windowStart >= Self.window, !window.isEmpty else { return }
        let count = Double(window.count)
        let cpu = window.reduce(Duration.zero) { $0 + $1.cpu } / count
        let gpu = window.reduce(Duration.zero) { $0 + $1.gpu } / count
        let pipelined = max(cpu, gpu) + Self.frameTimeMargin
        let sequential = cpu + gpu + Self.frameTimeMargin
        let misses = Double(window.filter(\.missed).count) / count
        let period = clock.refreshPeriod
        var next = refreshes
        var pipelining = isPipelined
        if misses > Self.missThreshold {
            // Pipelining first; a longer interval too when even pipelined frames do not fit.
            pipelining = true
            if isAutomatic, isPipelined || pipelined > period * refreshes {
                next = max(isPipelined ? refreshes + 1 : refreshes, self.refreshes(for: pipelined))
            }
        } else if misses == 0 {
            if isAutomatic, let shorter = shorterInterval(now: now) {
                next = shorter
            } else if isPipelined, sequential * 1.5 < period * refreshes,
                      Double(window.filter { $0.cpu + $0.gpu + Self.frameTimeMargin > period * refreshes }.count) <= Self.fitTolerance * count {
                pipelining = false
            }
        }
        guard next != refreshes || pipelining != isPipelined else { return }
        if next != refreshes { intervalChanged(to: next, at: now) }
        refreshes = next
        isPipelined = pipelining
        window = []
        self.windowStart = nil
    }

    /// The shortest interval below the current one that the last `lowerHold` of frames fit
    /// (all but `fitTolerance` of them, pipelined, 1 ms to spare), once the interval has
    /// held that long; nil while it should stay.
    private func shorterInterval(now: Duration) -> Int? {
        guard refreshes > minimumRefreshes, let lastIntervalChange, now - lastIntervalChange >= lowerHold else { return nil }
        let since = now - lowerHold
        return (minimumRefreshes..<refreshes).first { candidate in
            (history.share(needingMoreThan: candidate, since: since) ?? 1) <= Self.fitTolerance
        }
    }

    /// Records a change of the automatic interval, and stretches the hold before the next
    /// lowering when a raise follows a lowering within `lowerHoldBase`.
    private mutating func intervalChanged(to next: Int, at now: Duration) {
        changes.append((now, next))
        if next > refreshes {
            let oscillated = lastLowering.map { now - $0 < Self.lowerHoldBase } ?? false
            lowerHold = oscillated ? min(lowerHold * 2, Self.lowerHoldLimit) : Self.lowerHoldBase
        } else {
            lastLowering = now
        }
        lastIntervalChange = now
    }
}
