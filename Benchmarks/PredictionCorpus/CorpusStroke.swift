import Foundation
import PointerInput
import SwiftGPUSupport

/// One stroke of the corpus: a true path with a known position at every time, and how a
/// device samples it (rate, position noise, timestamp jitter, whether it reports while the
/// contact is still).
public struct CorpusStroke: Sendable {
    /// The class name the tables use.
    public var name: String
    /// The device the samples claim to come from.
    public var device: InputDeviceKind
    /// How long the stroke lasts, in seconds.
    public var duration: Double
    /// The standard deviation of each sample's position noise, in pixels.
    public var noise: Double
    /// The most a sample's timestamp is off from when it was measured, either way, in
    /// seconds (a uniform spread; samples stay in order).
    public var timestampJitter: Double
    /// Whether the device reports samples while the contact does not move (pens and touch
    /// screens do; a mouse reports nothing until it moves again).
    public var reportsWhileStill: Bool
    /// The true position at a time in seconds since the stroke's start.
    public var path: @Sendable (Double) -> SIMD2<Double>
    /// Samples a real input path delivered, by input rate (see `RecordedTrace`): when
    /// present, `samples(rate:)` gives these instead of sampling `path`, which stays the
    /// truth they are judged against.
    public var recordings: [Double: [RecordedSample]]?

    /// A stroke of `name` following `path` for `duration` seconds.
    public init(name: String, device: InputDeviceKind = .pen, duration: Double, noise: Double = 0, timestampJitter: Double = 0,
                reportsWhileStill: Bool = true, path: @escaping @Sendable (Double) -> SIMD2<Double>) {
        self.name = name
        self.device = device
        self.duration = duration
        self.noise = noise
        self.timestampJitter = timestampJitter
        self.reportsWhileStill = reportsWhileStill
        self.path = path
    }

    /// When every stroke starts on the display's clock: a few frames in, so the display
    /// link runs before the first sample.
    public static let start: Duration = .milliseconds(100)

    /// The true position at `time` on the clock (the first or last position outside the
    /// stroke).
    public func truth(at time: Duration) -> SIMD2<Double> {
        path(min(max(seconds(time - Self.start), 0), duration))
    }

    /// Whether the true position stays within 0.05 px over `from...to`, checked every
    /// millisecond.
    public func isStill(from: Duration, to: Duration) -> Bool {
        let origin = truth(at: from)
        var time = from
        while time <= to {
            let d = truth(at: time) - origin
            if (d * d).sum() > 0.05 * 0.05 { return false }
            time += .milliseconds(1)
        }
        return true
    }

    /// The samples at `rate` per second, the first half an interval after the start (so
    /// none falls on a 60 Hz vblank), with seeded noise and jitter: the first `.began`,
    /// the last `.ended`. A device that does not report while still skips every sample
    /// whose true position equals the previous sample's. A recorded stroke gives its
    /// recording at `rate` instead (`start` plus each sample's time), and stops with a
    /// precondition failure for a rate it was not recorded at.
    public func samples(rate: Double) -> [InputSample] {
        if let recordings {
            guard let recording = recordings[rate] else {
                preconditionFailure("CorpusStroke.samples(rate:): \(name) was recorded at \(recordings.keys.sorted()) Hz, not \(rate)")
            }
            return recording.enumerated().map { index, sample in
                let phase: InputPhase = index == 0 ? .began : index == recording.count - 1 ? .ended : .moved
                return InputSample(device: device, contact: 0, phase: phase, position: sample.position,
                                   timestamp: Self.start + .nanoseconds(Int64((sample.time * 1e9).rounded())))
            }
        }
        var random = SplitMix64(state: UInt64(rate) &* 7_919 &+ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let interval = 1 / rate
        var measured: [(time: Double, position: SIMD2<Double>)] = []
        var time = interval / 2
        var previousTruth: SIMD2<Double>?
        while time <= duration {
            let truth = path(time)
            defer { time += interval }
            if !reportsWhileStill, let previousTruth, ((truth - previousTruth) * (truth - previousTruth)).sum() < 1e-6 { continue }
            previousTruth = truth
            let stamp = time + (timestampJitter > 0 ? (unit(&random) * 2 - 1) * timestampJitter : 0)
            let offset = noise > 0 ? SIMD2(gaussian(&random) * noise, gaussian(&random) * noise) : .zero
            measured.append((stamp, truth + offset))
        }
        return measured.enumerated().map { index, entry in
            let phase: InputPhase = index == 0 ? .began : index == measured.count - 1 ? .ended : .moved
            return InputSample(device: device, contact: 0, phase: phase, position: entry.position,
                               timestamp: Self.start + .nanoseconds(Int64((entry.time * 1e9).rounded())))
        }
    }

    private func unit(_ random: inout SplitMix64) -> Double { (Double(random.next() >> 11) + 0.5) / Double(1 << 53) }

    /// A normally distributed number with standard deviation 1 (Box–Muller).
    private func gaussian(_ random: inout SplitMix64) -> Double {
        let u = unit(&random), v = unit(&random)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

/// `duration` in seconds (for the corpus and the tools that record it).
package func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
