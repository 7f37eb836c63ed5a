/// How late frames were, and how late they would have been at other swap intervals, per
/// second of display time over a bounded span: the evidence the automatic swap interval
/// reads. Counted per second rather than per frame, so its size depends on the span, not
/// on the frame rate; a query covers whole seconds, the oldest one in full.
struct HitchHistory: Sendable {
    /// One second: the lateness, in seconds, each model predicted in it.
    private struct Second: Sendable {
        var index: Int64
        var late: [Double]
    }

    /// The models, one per (interval, pipelining) the pacer may move to.
    private(set) var models: [CadenceModel]
    private var seconds: [Second] = []
    /// When the first frame was recorded.
    private(set) var start: Duration?

    /// Models for `refreshes` (each pipelined and not) on a display of `period` seconds.
    init(refreshes: ClosedRange<Int>, period: Double) {
        models = refreshes.flatMap { [CadenceModel(refreshes: $0, isPipelined: true, period: period),
                                      CadenceModel(refreshes: $0, isPipelined: false, period: period)] }
    }

    /// Replays a frame shown at `time` through every model, forgetting seconds that ended
    /// more than `span` before `time`.
    mutating func record(cpu: Duration, gpu: Duration, margin: Duration, at time: Duration, keeping span: Duration) {
        if start == nil { start = time }
        let index = Self.second(of: time)
        if seconds.last?.index != index { seconds.append(Second(index: index, late: Array(repeating: 0, count: models.count))) }
        for model in models.indices {
            seconds[seconds.count - 1].late[model] += models[model].frame(cpu: cpu.inSeconds, gpu: gpu.inSeconds, margin: margin.inSeconds)
        }
        let oldest = Self.second(of: time - span)
        if let keep = seconds.firstIndex(where: { $0.index >= oldest }), keep > 0 { seconds.removeFirst(keep) }
    }

    /// The milliseconds late per second the model of `refreshes` (pipelined or not) predicts
    /// over the seconds since `since` up to `now`; nil when that model is not kept or the
    /// history does not reach back to `since`.
    func hitchRatio(refreshes: Int, pipelined: Bool, since: Duration, now: Duration) -> Double? {
        guard let start, start <= since, now > since,
              let model = models.firstIndex(where: { $0.refreshes == refreshes && $0.isPipelined == pipelined }) else { return nil }
        let first = Self.second(of: since)
        let late = seconds.filter { $0.index >= first }.reduce(0) { $0 + $1.late[model] }
        return late * 1000 / (now - since).inSeconds
    }

    private static func second(of time: Duration) -> Int64 { time.components.seconds - (time < .zero && time.components.attoseconds != 0 ? 1 : 0) }
}
