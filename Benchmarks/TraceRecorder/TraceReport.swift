import Foundation
import PredictionCorpus

/// What one recorded trace holds against what was sent: how many positions were sent, how
/// far samples are from the path at their time, and how late each sample is stamped after
/// the path time of the position it shows.
struct TraceReport {
    /// Positions sent after the first (each differs from the one before).
    var moves = 0
    /// The largest distance from a sample to the path at the sample's time, in px.
    var offPath = 0.0
    /// The mean and largest sample time minus the path time of the position it shows.
    var meanDelay = 0.0
    var maxDelay = 0.0

    init(samples: [RecordedSample], sent: [StrokeInjector.Sent], path: (Double) -> SIMD2<Double>, duration: Double) {
        moves = sent.count - 1
        var delays: [Double] = []
        for sample in samples {
            let d = sample.position - path(min(max(sample.time, 0), duration))
            offPath = max(offPath, (d * d).sum().squareRoot())
            // The latest sent position it shows, sent no later than 20 ms after it.
            if let shown = sent.dropFirst().last(where: { $0.position == sample.position && $0.pathTime <= sample.time + 0.02 }) {
                delays.append(sample.time - shown.pathTime)
            }
        }
        meanDelay = delays.isEmpty ? 0 : delays.reduce(0, +) / Double(delays.count)
        maxDelay = delays.max() ?? 0
    }

    func cell(_ value: Double) -> String { String(format: "%.2f", value) }
}
