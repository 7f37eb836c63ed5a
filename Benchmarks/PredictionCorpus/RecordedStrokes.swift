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
    /// timestamps mapped to the host's clock, motion only when the position changes) and its
    /// delivery timing; the truth is the injected path itself (moved by the trace's offset).
    /// A stroke with no recorded trace is left out.
    public static let recorded: [CorpusStroke] = injected.compactMap { stroke in
        let traces = RecordedTrace.all.filter { $0.stroke == stroke.name }
        guard let offset = traces.first?.offset else { return nil }
        let path = stroke.path
        var recorded = CorpusStroke(name: "\(stroke.name), recorded (X)", device: .pointer, duration: stroke.duration,
                                    reportsWhileStill: false) { path($0) + offset }
        recorded.recordings = Dictionary(traces.map { ($0.rate, $0.samples) }, uniquingKeysWith: { first, _ in first })
        return recorded
    }
}
