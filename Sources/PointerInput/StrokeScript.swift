extension ScriptedInputSource {
    /// The samples of one contact following `path` (position at a time on the clock):
    /// `rate` samples per second from `start` for `duration`, the first `.began`, the last
    /// `.ended`, `.moved` between; with `hovering`, all `.hovering` (a pointer moving with
    /// no button down). Times are rounded to the nanosecond.
    public static func stroke(device: InputDeviceKind = .touch, contact: Int = 0, from start: Duration,
                              duration: Duration, rate: Double, hovering: Bool = false,
                              path: (Duration) -> SIMD2<Double>) -> [InputSample] {
        precondition(rate > 0 && rate.isFinite, "ScriptedInputSource.stroke: rate must be positive, got \(rate)")
        let count = Int((duration.seconds * rate).rounded(.down)) + 1
        return (0..<count).map { index in
            let time = start + .seconds(rounding: Double(index) / rate)
            let phase: InputPhase = hovering ? .hovering : index == 0 ? .began : index == count - 1 ? .ended : .moved
            return InputSample(device: device, contact: contact, phase: phase, position: path(time), timestamp: time)
        }
    }
}
