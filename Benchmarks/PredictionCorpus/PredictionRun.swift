import FramePacing
import PointerInput
import SwiftGPUSupport

/// One stroke played at one input rate into an `InputCollector` with a 60 Hz display link on
/// a `VirtualDisplay`, in virtual time, predicting `lead` after each vblank: what the app
/// drew at each frame and where the contact truly was at the frame's prediction time.
public struct PredictionRun: Sendable {
    /// One measured frame.
    public struct Frame: Sendable, Hashable {
        /// The frame's vblank.
        public var timestamp: Duration
        /// The predicted sample's position, or the latest sample's when there is none.
        public var drawn: SIMD2<Double>
        /// The true position at the frame's prediction time.
        public var truth: SIMD2<Double>
        /// The unit direction of the true motion over the 20 ms before the prediction time
        /// (the last one seen while the contact is still).
        public var direction: SIMD2<Double>
        /// |drawn − truth|.
        public var error: Double
        /// Whether the contact had been still for 50 ms at the frame's vblank, and stays
        /// still to its prediction time.
        public var settledStill: Bool
        /// How far past the latest sample the predicted sample reaches (zero without one).
        public var reach: Duration
    }

    /// The frames measured: from 50 ms after the first sample while the prediction time
    /// is no later than the last sample.
    public var frames: [Frame]

    /// The run of `stroke` sampled at `rate`, `lead` ahead of each vblank, drawn by
    /// `contender`.
    public init(stroke: CorpusStroke, rate: Double, lead: Duration, contender: Contender) {
        let display = VirtualDisplay(refreshRate: 60)
        let samples = stroke.samples(rate: rate)
        let source = ScriptedInputSource(clock: display, samples: samples)
        let collector = InputCollector(prediction: contender.prediction)
        collector.predictionLead = lead
        let recorded = LockedValue<[InputFrame]>([], rank: .leaf("PredictionRun.frames"))
        let link = collector.makeDisplayLink(clock: display) { frame, _ in recorded.withLock { $0.append(frame) } }
        source.start(collector.sink)
        display.advance(by: CorpusStroke.start + .seconds(stroke.duration) + .milliseconds(100))
        link.invalidate()

        let first = samples[0].timestamp, last = samples[samples.count - 1].timestamp
        var frames: [Frame] = []
        var latest: InputSample?
        var direction: SIMD2<Double> = [1, 0]
        for frame in recorded.withLock({ $0 }) {
            latest = frame.coalescedSamples.last ?? latest
            guard let latest, frame.timestamp >= first + .milliseconds(50), frame.predictionTimestamp <= last else { continue }
            let predicted = frame.predictedSamples.first
            let target = frame.predictionTimestamp
            let truth = stroke.truth(at: target)
            let motion = truth - stroke.truth(at: target - .milliseconds(20))
            let length = (motion * motion).sum().squareRoot()
            if length > 0.05 { direction = motion / length }
            let drawn = predicted?.position ?? latest.position
            let d = drawn - truth
            frames.append(Frame(timestamp: frame.timestamp, drawn: drawn, truth: truth, direction: direction,
                                error: (d * d).sum().squareRoot(),
                                settledStill: stroke.isStill(from: frame.timestamp - .milliseconds(50), to: target),
                                reach: predicted.map { $0.timestamp - latest.timestamp } ?? .zero))
        }
        self.frames = frames
    }

    /// The run's measures.
    public var metrics: PredictionMetrics { PredictionMetrics(self) }
}
