import Foundation
import PointerInput

extension StrokeCorpus {
    /// The strokes Benchmarks/TraceRecorder injects into an X server: ones that fit its
    /// screen, from smooth reaches to reversals and dead stops. The X pointer is a mouse,
    /// so the recordings hold no sample while it is still.
    public static let injected: [CorpusStroke] = [reaches, lissajous, zigzag, stopAndGoSilent]

    /// `injected` as an X server delivered it (`RecordedTrace.all`): each stroke's samples
    /// at 60, 120 and 240 Hz are the XInput 2 events of its path injected with XTest at that
    /// rate, so they have X's quantisation (whole pixels, the server's millisecond
    /// timestamps mapped to the host's clock) and its delivery timing; as a mouse does, the
    /// recorder sends a position only when its whole pixel changes (X reports a motion event
    /// for every request, moved or not). The truth is the injected path itself (moved by
    /// the trace's offset).
    /// Path time 0 is `recordingPhase` into each recorded stroke. A stroke with no recorded
    /// trace is left out.
    public static let recorded: [CorpusStroke] = injected.compactMap { stroke in
        let traces = RecordedTrace.all.filter { $0.stroke == stroke.name }
        guard let offset = traces.first?.offset else { return nil }
        let path = stroke.path, phase = recordingPhase
        var recorded = CorpusStroke(name: "\(stroke.name), recorded (X)", device: .pointer, duration: stroke.duration + phase,
                                    reportsWhileStill: false) { path(max($0 - phase, 0)) + offset }
        recorded.recordings = Dictionary(traces.map { trace in
            (trace.rate, trace.samples.map { RecordedSample(time: $0.time + phase, position: $0.position) })
        }, uniquingKeysWith: { first, _ in first })
        return recorded
    }

    /// Where a recorded stroke's path time 0 is, in seconds from its start: half a 240 Hz
    /// interval. The recordings send path time k / rate, and X stamps each sample within a
    /// few milliseconds after it; with path time 0 on a 60 Hz vblank (the stroke's start is
    /// one), samples at 60 and 120 Hz would straddle vblanks. As the synthetic strokes' first
    /// sample comes half an interval in, this keeps every rate's samples off them.
    public static let recordingPhase = 1.0 / 480
}
