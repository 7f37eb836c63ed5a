import Foundation
import FramePacing
import PointerInput
import SwiftGPUSupport

/// Values appended from any thread and read back in order.
///
/// `@unchecked Sendable`: `values` is only touched with `lock` held.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
    var count: Int { lock.withLock { values.count } }
}

/// A repeatable pseudo-random sequence (splitmix64), so noisy strokes are the same on
/// every run.
struct SeededNoise {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(state: seed) }

    mutating func next() -> UInt64 { random.next() }

    /// A number in (0, 1].
    mutating func unit() -> Double { (Double(next() >> 11) + 1) / Double(1 << 53) }

    /// A normally distributed number with standard deviation `sigma` (Box–Muller).
    mutating func gaussian(sigma: Double) -> Double {
        sigma * (-2 * log(unit())).squareRoot() * cos(2 * Double.pi * unit())
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }

    /// The duration in milliseconds.
    var milliseconds: Double { Double(components.seconds) * 1e3 + Double(components.attoseconds) * 1e-15 }
}

/// The distance between two positions.
func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
}

/// A touch sample of contact `contact` at `time` milliseconds.
func touch(_ contact: Int = 0, _ phase: InputPhase = .moved, at time: Double, _ position: SIMD2<Double>) -> InputSample {
    InputSample(device: .touch, contact: contact, phase: phase, position: position,
                timestamp: .nanoseconds(Int64((time * 1e6).rounded())))
}
