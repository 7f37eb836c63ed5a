import GPUXCB
import PointerInput
import PredictionCorpus
import SwiftGPUSupport

/// Records strokes: injects each with a `StrokeInjector` while the main thread pumps the
/// window's events into the `XInputSource`, then keeps the motion samples from path time 0 on.
struct TraceSession {
    let window: TraceWindow
    let input: XInputSource
    /// Where the source's sink puts every sample.
    let received: LockedValue<[InputSample]>

    /// The samples of `path` over 0...`duration` injected at `rate`, and the injector (what it sent).
    func record(path: @escaping @Sendable (Double) -> SIMD2<Double>, duration: Double,
                rate: Double) -> (samples: [RecordedSample], injector: StrokeInjector) {
        let start = HostClock.nanoseconds() + 300_000_000
        let injector = StrokeInjector(path: path, duration: duration, rate: rate, start: start)
        injector.begin()
        let end = start + UInt64(duration * 1e9) + 150_000_000
        while HostClock.nanoseconds() < end {
            window.pump(timeout: 5) { _ = input.handle($0) }
        }
        injector.wait()
        window.pump(timeout: 20) { _ = input.handle($0) }
        let samples = received.withLock { samples -> [InputSample] in defer { samples.removeAll() }; return samples }
        let origin = Duration.nanoseconds(Int64(start))
        let recorded = samples.filter { ($0.phase == .hovering || $0.phase == .moved) && $0.timestamp >= origin }.map {
            RecordedSample(time: seconds($0.timestamp - origin), position: $0.position)
        }
        return (recorded, injector)
    }

    /// The whole-pixel offset that puts `stroke`'s path (checked every millisecond) at least
    /// `margin` px inside a screen of `size`; zero where it already is.
    static func offset(fitting stroke: CorpusStroke, in size: SIMD2<Double>, margin: Double) -> SIMD2<Double> {
        var low = stroke.path(0), high = low
        var time = 0.0
        while time <= stroke.duration {
            let position = stroke.path(time)
            low = pointwiseMin(low, position)
            high = pointwiseMax(high, position)
            time += 0.001
        }
        var offset = SIMD2<Double>.zero
        for axis in 0..<2 {
            if low[axis] < margin {
                offset[axis] = (margin - low[axis]).rounded(.up)
            } else if high[axis] > size[axis] - margin {
                offset[axis] = (size[axis] - margin - high[axis]).rounded(.down)
            }
            if low[axis] + offset[axis] < margin || high[axis] + offset[axis] > size[axis] - margin {
                fail("\(stroke.name) spans \(low[axis])...\(high[axis]) px, more than a \(Int(size[axis])) px screen")
            }
        }
        return offset
    }
}
