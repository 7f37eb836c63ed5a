/// What a frame loop would show at another swap interval: the frames the app made, replayed
/// through the same loop `PacingSimulation` models (a frame starts when its CPU is free and
/// the frame `framesAhead` before it is shown; GPU work follows CPU work, one frame at a
/// time; a frame is shown at the vblank its cadence asks for, or at the first one after it
/// is ready, which moves the cadence there). The automatic interval reads how late frames
/// would have been at the intervals it is not using, in its hitch ratio's units.
///
/// Times are seconds on a grid of its own that starts at the first frame.
struct CadenceModel: Sendable {
    /// Refreshes per frame.
    let refreshes: Int
    /// Whether a frame may start before the previous one is shown.
    let isPipelined: Bool
    private let period: Double
    private var cpuFree = 0.0
    private var gpuFree = 0.0
    /// Display times of the last two frames, latest last.
    private var shown: [Double] = []
    private var anchor: Double?

    init(refreshes: Int, isPipelined: Bool, period: Double) {
        self.refreshes = refreshes
        self.isPipelined = isPipelined
        self.period = period
    }

    /// Replays one frame of `cpu` and `gpu` seconds (plus `margin`, the present's own cost);
    /// returns how many seconds after its cadence's vblank it would be shown.
    mutating func frame(cpu: Double, gpu: Double, margin: Double) -> Double {
        let ahead = isPipelined ? 2 : 1
        let held = shown.count >= ahead ? shown[shown.count - ahead] : 0
        let start = max(cpuFree, held)
        cpuFree = start + cpu
        gpuFree = max(cpuFree, gpuFree) + gpu
        let ready = gpuFree + margin
        let first = (ready / period - 1e-9).rounded(.up) * period
        var late = 0.0
        let display: Double
        if let anchor {
            let ideal = anchor + period * Double(refreshes)
            display = ready <= ideal ? ideal : max(first, ideal)
            late = display - ideal
        } else {
            display = first
        }
        anchor = display
        shown.append(display)
        if shown.count > 2 { shown.removeFirst() }
        return late
    }
}
