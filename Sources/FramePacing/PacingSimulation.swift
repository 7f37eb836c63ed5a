import SwiftGPUSupport

/// A deterministic frame loop with no GPU and no sleeps: an app rendering frames of
/// scripted cost into a `VirtualDisplay` through the same `Pacer` a layer uses.
///
/// The modelled app starts a frame when its CPU is free and a drawable is (at most
/// `maximumDrawableCount` are in use), and while the pacer holds frame starts (from the
/// start when `followsPacer`), once the frame `framesAhead` back has been shown. Each frame's CPU work is followed by its GPU
/// work (GPU frames run one at a time, so CPU of one frame overlaps GPU of the previous);
/// when the GPU is done the frame is presented: the pacer picks its target vblank and the
/// display latches it by the present mode's rules. In low-latency mode at most one frame is
/// in flight, it presents with mailbox, and each frame starts just in time for a vblank
/// (`Pacer.lowLatencyStart`).
public struct PacingSimulation: Sendable {
    /// The display's vblanks per second.
    public var refreshRate: Double
    /// How presented frames replace each other.
    public var presentMode: PresentMode
    /// How many drawables the app rotates through.
    public var maximumDrawableCount: Int
    /// The cadence the pacer keeps.
    public var swapInterval: SwapInterval = .fixed(refreshes: 1)
    /// Low-latency mode, as `Layer.isLowLatency`.
    public var isLowLatency = false
    /// Whether the app's frame loop follows the pacer from the start (as one driven by a
    /// display link does); false models an app that renders as fast as drawables allow
    /// until the pacer detects buffer stuffing and starts holding it.
    public var followsPacer = true

    /// A simulation of a display at `refreshRate` showing frames in `presentMode` from
    /// `maximumDrawableCount` drawables.
    public init(refreshRate: Double = 60, presentMode: PresentMode = .fifo, maximumDrawableCount: Int = 3) {
        precondition(maximumDrawableCount >= 1, "PacingSimulation: maximumDrawableCount must be at least 1, got \(maximumDrawableCount)")
        self.refreshRate = refreshRate
        self.presentMode = presentMode
        self.maximumDrawableCount = maximumDrawableCount
    }

    /// Runs `frames` frames, frame i costing `cost(i)`, until every one is shown or
    /// dropped.
    public func run(frames count: Int, cost: (Int) -> FrameCost) -> PacingResult {
        simulate(frames: count, until: nil) { index, _ in cost(index) }
    }

    /// Runs every frame that starts before `duration` of display time, frame i starting at
    /// `start` costing `cost(i, start)`, until every one is shown or dropped. A workload
    /// that depends on time (a `FrameCostMix` with bursts) reads the start.
    public func run(for duration: Duration, cost: (_ frame: Int, _ start: Duration) -> FrameCost) -> PacingResult {
        simulate(frames: nil, until: duration, cost: cost)
    }

    /// The frame loop: frames until `count` of them or until one would start at or after
    /// `end`.
    private func simulate(frames count: Int?, until end: Duration?, cost: (Int, Duration) -> FrameCost) -> PacingResult {
        let display = VirtualDisplay(refreshRate: refreshRate)
        let loop = FrameLoop(display: display, pacer: Pacer(clock: display, swapInterval: swapInterval, holdsFrameStarts: followsPacer),
                             drawables: maximumDrawableCount)
        var cpuFree = Duration.zero
        var gpuFree = Duration.zero
        for index in 0... {
            if let count, index >= count { break }
            loop.advance(to: cpuFree)
            loop.wait { $0.freeDrawables > 0 }
            if isLowLatency { loop.wait { $0.frames.allSatisfy(\.isFinished) } }
            loop.wait { state in
                guard let ahead = state.pacer.framesAhead, index - ahead >= 0 else { return true }
                return state.frames[index - ahead].isFinished
            }
            var start = display.now
            if loop.state.withLock({ $0.pacer.takeStuffingWait() }) { start = display.vblank(after: start) }
            if isLowLatency { start = loop.state.withLock { $0.pacer.lowLatencyStart(notBefore: start) } }
            if let end, start >= end { break }
            loop.advance(to: start)
            let frameCost = cost(index, start)
            cpuFree = start + frameCost.cpu
            gpuFree = max(cpuFree, gpuFree) + frameCost.gpu
            loop.begin(index: index, cost: frameCost, start: start, presentAt: gpuFree,
                       mode: isLowLatency ? .mailbox : presentMode)
        }
        loop.wait { $0.frames.allSatisfy(\.isFinished) }
        return loop.state.withLock { state in
            var statistics = FrameStatistics(refreshPeriod: display.refreshPeriod.inSeconds,
                                             targetInterval: (display.refreshPeriod * state.pacer.minimumRefreshes).inSeconds)
            for frame in state.frames.sorted(by: { ($0.finishedAt ?? .zero, $0.index) < ($1.finishedAt ?? .zero, $1.index) }) {
                statistics.record(frameID: frame.index, frameStart: frame.start.inSeconds,
                                  presentTime: frame.presented.inSeconds, displayedTime: frame.displayed?.inSeconds,
                                  expectedDisplayTime: frame.paced.ideal?.inSeconds)
            }
            return PacingResult(frames: state.frames.map(\.result), statistics: statistics,
                                stuffingEpisodes: state.pacer.stuffingEpisodes,
                                intervalChanges: state.pacer.intervalChanges,
                                intervalChangeCount: state.pacer.intervalChangeCount, finalRefreshes: state.pacer.refreshes)
        }
    }
}

/// The simulated app's side: frames waiting for their GPU work, drawables, and the pacer
/// the display's events feed back into. Used on one thread; the state is in a mutex only
/// because the display's handlers must be `Sendable`.
private final class FrameLoop: Sendable {
    struct SimulatedFrame {
        var index: Int
        var cost: FrameCost
        var start: Duration
        var presented: Duration
        var mode: PresentMode
        var paced = PacedPresent(target: .zero, ideal: nil, refreshes: 1)
        var displayed: Duration?
        var finishedAt: Duration?

        var isFinished: Bool { finishedAt != nil }
        var result: PacingResult.Frame {
            PacingResult.Frame(index: index, cost: cost, start: start, presented: presented, paced: paced, displayed: displayed)
        }
    }

    struct State {
        var pacer: Pacer
        var freeDrawables: Int
        var frames: [SimulatedFrame] = []
        /// Frames whose GPU work is under way, in completion order.
        var pending: [Int] = []
    }

    let display: VirtualDisplay
    let state: LockedValue<State>

    init(display: VirtualDisplay, pacer: Pacer, drawables: Int) {
        self.display = display
        state = LockedValue(State(pacer: pacer, freeDrawables: drawables), rank: .leaf("PacingSimulation.state"))
    }

    func begin(index: Int, cost: FrameCost, start: Duration, presentAt: Duration, mode: PresentMode) {
        state.withLock { state in
            state.freeDrawables -= 1
            state.frames.append(SimulatedFrame(index: index, cost: cost, start: start, presented: presentAt, mode: mode))
            state.pending.append(index)
        }
    }

    /// Moves time to `time`, presenting each frame whose GPU work ends on the way.
    func advance(to time: Duration) {
        while let (index, at) = state.withLock({ state in state.pending.first.map { ($0, state.frames[$0].presented) } }), at <= time {
            display.advance(by: max(at - display.now, .zero))
            state.withLock { _ = $0.pending.removeFirst() }
            present(index)
        }
        if time > display.now { display.advance(by: time - display.now) }
    }

    /// Moves time from event to event (presents and vblanks) until `condition` holds.
    func wait(until condition: (State) -> Bool) {
        while !state.withLock({ condition($0) }) {
            let presentAt = state.withLock { state in state.pending.first.map { state.frames[$0].presented } }
            let vblank = display.vblank(after: display.now)
            advance(to: min(presentAt ?? vblank, vblank))
        }
    }

    private func present(_ index: Int) {
        let now = display.now
        let (paced, frame) = state.withLock { state -> (PacedPresent, SimulatedFrame) in
            let paced = state.pacer.target(arrival: now)
            state.frames[index].paced = paced
            return (paced, state.frames[index])
        }
        display.present(DisplayPresentRequest(imageIndex: index, mode: frame.mode, notBefore: paced.target,
                                              frameStart: frame.start) { [self] event in
            state.withLock { state in
                switch event {
                case .displayed(let time):
                    state.frames[index].displayed = time
                    state.frames[index].finishedAt = time
                    state.pacer.frameDisplayed(paced, start: frame.start, displayed: time, cpu: frame.cost.cpu, gpu: frame.cost.gpu)
                case .dropped(let time):
                    state.frames[index].finishedAt = time
                case .released:
                    state.freeDrawables += 1
                }
            }
        })
    }
}
