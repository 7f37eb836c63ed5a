import Testing
@testable import GPU

/// Timestamp ticks to nanoseconds in integers, the steps the CPU's and the GPU's resolves
/// share.
@Suite("Timestamp scale")
struct CounterQueryPoolTests {
    @Test("a period's multiplier and shift are exact: ticks × period, rounded down, for the periods drivers report",
          arguments: [Float(1), 52.083332, 10, 40, 0.5, 0.833333, 83.333336])
    func exactScale(period: Float) {
        let scale = DeviceBackend.timestampScale(of: period)
        #expect(Double(scale.multiplier) / Double(sign: .plus, exponent: Int(scale.shift), significand: 1) == Double(period))
        for ticks: UInt64 in [0, 1, 3, 1_000_003, 123_456_789, 1 << 29 - 1] {
            // ticks < 2^29 and a 24-bit significand: the Double product is exact.
            let exact = UInt64((Double(ticks) * Double(period)).rounded(.down))
            #expect(DeviceBackend.nanoseconds(ofTicks: ticks, scale: scale) == exact, "ticks \(ticks)")
        }
    }

    @Test("ticks of a day's uptime differ from the Double product by its rounding alone")
    func largeTicks() {
        let period: Float = 52.083332
        let scale = DeviceBackend.timestampScale(of: period)
        let ticks: UInt64 = 86_400_000_000_000 / 52
        let double = Double(ticks) * Double(period)
        let integer = Double(DeviceBackend.nanoseconds(ofTicks: ticks, scale: scale))
        #expect(abs(integer - double) <= 1 + double * 0x1p-52)
    }

    @Test("a period of 0 (a device without timestamps) gives 0 nanoseconds")
    func zeroPeriod() {
        #expect(DeviceBackend.nanoseconds(ofTicks: 12_345, scale: DeviceBackend.timestampScale(of: 0)) == 0)
    }
}
