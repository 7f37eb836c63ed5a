/// Frame pacing on absolute deadlines: the code behind `present(_:atTime:)`,
/// `present(_:afterMinimumDuration:)`, `PacingSimulation` and its swap intervals.
///
/// - Never early: a frame's target is a vblank at or after the time it asks for.
/// - No drift: each target is the previous target plus the interval on the clock's
///   vblank grid, not the previous display time plus a duration; a frame shown late by
///   less than half a refresh (a real clock's jitter) does not move the cadence, one
///   shown later re-anchors it at the vblank it was shown at.
/// - Automatic swap interval, judged by Apple's hitch ratio (milliseconds frames are shown
///   after the vblank their cadence asked for, per second): the highest rate whose hitch
///   ratio stays under `hitchLimit` (5 ms/s). Frames shown late by more than
///   `hitchLimit` × `hitchWindow` (100 ms in 20 s) since the last change turn pipelining on
///   first, then raise the interval (to fit the 2 s window's mean pipelined frame time, at
///   least one refresh more). Every frame's CPU and GPU times are also replayed through a
///   model of the frame loop at the other intervals (`CadenceModel`); the interval lowers
///   only when no frame in the 2 s window missed, it has held for `lowerHold` (10 s), and
///   the model says frames at the shorter interval would have been late by at most a fifth
///   of the limit over that hold: the shortest such interval, never faster than the preferred
///   rate. A raise within 10 s of a lowering doubles `lowerHold` (up to 320 s); a later
///   raise sets it back to 10 s. Pipelining (any swap interval) comes on when more than
///   10% of a 2 s window's frames miss, and goes off when 1.5 × the mean non-pipelined
///   time fits the interval, 99% of the window's frames fit it without pipelining, and the
///   model says frames without pipelining would have been late by at most a fifth of the limit
///   over the last `lowerHold`. Every change clears the window.
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
    /// How long the frames must have fitted a shorter interval (by the frame-loop model),
    /// and the interval stayed as it is, before the automatic interval lowers: 10 s, doubled by each raise that
    /// follows a lowering within 10 s (an oscillation), back to 10 s after a raise that does
    /// not.
    public private(set) var lowerHold = Pacer.lowerHoldBase
    private var changes = RingBuffer<(at: Duration, refreshes: Int)>(capacity: changeWindow)
    /// Apple's hitch ratio of the frames shown since the interval or pipelining last changed,
    /// over at most the last `hitchWindow`, in milliseconds per second of that window:
    /// what the automatic interval keeps under `hitchLimit`.
    public var hitchRatio: Double {
        lateness.reduce(0.0) { $0 + $1.late.inSeconds } * 1000 / Self.hitchWindow.inSeconds
    }

    private var lastTarget: Duration?
    private var lastDisplayed: Duration?
    private var window: [Sample] = []
    /// When the window began filling: it is full 2 s later.
    private var windowStart: Duration?
    private var stuffedRun = 0
    private var pendingWait = false
    private var recentFrameTimes: [Duration] = []
    /// Each frame replayed at the other intervals, over the longest hold.
    private var history: HitchHistory
    /// Frames shown after their cadence's vblank since the last change, within `hitchWindow`.
    private var lateness: [(at: Duration, late: Duration)] = []
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
    /// Share of missed frames in the window that turns pipelining on.
    static let missThreshold = 0.10
    /// Apple's limit for a good hitch ratio, in milliseconds late per second: the automatic
    /// interval keeps its frames under it.
    public static let hitchLimit = 5.0
    /// The hitch ratio the frame-loop model must predict at a shorter interval (or without
    /// pipelining), over the whole hold, for the pacer to move there: a fifth of the limit,
    /// no doubled frame in 10 s at 60 Hz, so that a load near the limit, whose 10 s
    /// stretches fall either side of it by chance, is not taken back and forth.
    static let lowerHitchLimit = hitchLimit / 5
    /// The span the hitch ratio is measured over, whatever part of it has passed since the
    /// last change.
    public static let hitchWindow: Duration = .seconds(20)
    /// Lateness under this does not count (a real clock's jitter, vblanks rounded to the
    /// nanosecond), as in `FrameStatistics.hitchRatio`.
    static let latenessSlack: Duration = .microseconds(500)
    /// How many intervals past the shortest the frame-loop model replays.
    static let modelledIntervals = 4
    /// Share of a window's frames that may fit the interval only when pipelined for the
    /// pacer still to stop pipelining: the other edge of the hysteresis band that
    /// `missThreshold` starts.
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
        history = HitchHistory(refreshes: 1...1, period: clock.refreshPeriod.inSeconds)
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
        history.record(cpu: cpu, gpu: gpu, margin: Self.frameTimeMargin, at: displayed, keeping: Self.lowerHoldLimit)
        if let ideal = paced.ideal, displayed - ideal > Self.latenessSlack { lateness.append((displayed, displayed - ideal)) }
        lateness.removeAll { displayed - $0.at > Self.hitchWindow }
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
        history = HitchHistory(refreshes: minimumRefreshes...(minimumRefreshes + Self.modelledIntervals - 1),
                               period: clock.refreshPeriod.inSeconds)
        lateness = []
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

    /// Raise when the hitch ratio passes its limit (pipelining first); on a full window,
    /// pipelining on with misses, and lower (or stop pipelining) once the frames of the
    /// whole hold would have fitted with room to spare.
    private mutating func adjustInterval(now: Duration) {
        let period = clock.refreshPeriod
        var next = refreshes
        var pipelining = isPipelined
        if isAutomatic, hitchRatio > Self.hitchLimit {
            if !isPipelined {
                pipelining = true
            } else {
                let pipelined = window.isEmpty ? Duration.zero
                    : window.reduce(Duration.zero) { $0 + max($1.cpu, $1.gpu) } / Double(window.count) + Self.frameTimeMargin
                next = max(refreshes + 1, refreshes(for: pipelined))
            }
        } else {
            guard let windowStart, now - windowStart >= Self.window, !window.isEmpty else { return }
            let count = Double(window.count)
            let cpu = window.reduce(Duration.zero) { $0 + $1.cpu } / count
            let gpu = window.reduce(Duration.zero) { $0 + $1.gpu } / count
            let sequential = cpu + gpu + Self.frameTimeMargin
            let misses = Double(window.filter(\.missed).count) / count
            if misses > Self.missThreshold {
                pipelining = true
            } else if misses == 0 {
                if isAutomatic, let shorter = shorterInterval(now: now) {
                    next = shorter
                } else if isPipelined, sequential * 1.5 < period * refreshes,
                          Double(window.filter { $0.cpu + $0.gpu + Self.frameTimeMargin > period * refreshes }.count) <= Self.fitTolerance * count,
                          let ratio = history.hitchRatio(refreshes: refreshes, pipelined: false, since: now - lowerHold, now: now),
                          ratio <= Self.lowerHitchLimit {
                    pipelining = false
                }
            }
        }
        guard next != refreshes || pipelining != isPipelined else { return }
        if next != refreshes { intervalChanged(to: next, at: now) }
        refreshes = next
        isPipelined = pipelining
        window = []
        lateness = []
        self.windowStart = nil
    }

    /// The shortest interval below the current one at which the frame-loop model says the
    /// last `lowerHold` of frames would have been late by at most `lowerHitchLimit`, once
    /// the interval has held that long; nil while it should stay.
    private func shorterInterval(now: Duration) -> Int? {
        guard refreshes > minimumRefreshes, let lastIntervalChange, now - lastIntervalChange >= lowerHold else { return nil }
        return (minimumRefreshes..<refreshes).first { candidate in
            (history.hitchRatio(refreshes: candidate, pipelined: true, since: now - lowerHold, now: now) ?? .infinity) <= Self.lowerHitchLimit
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
