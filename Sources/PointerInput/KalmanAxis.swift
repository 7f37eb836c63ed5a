/// One axis of a linear Kalman filter over position, velocity and, for order 3,
/// acceleration, measuring position only. Matrices are row-major arrays.
struct KalmanAxis {
    /// Position, velocity (and acceleration).
    private(set) var state: [Double]
    /// The state's covariance.
    private(set) var covariance: [Double]
    private let order: Int

    /// What is known before the first correction besides the position: nothing useful.
    /// A velocity's standard deviation of 5,000 px/s and an acceleration's of 10^5 px/s²
    /// leave the first samples to set them.
    private static let initialSpread: [Double] = [0, 5_000, 100_000]

    /// A filter at `position` (measured with `variance`), moving at an unknown velocity.
    init(order: Int, position: Double, variance: Double) {
        precondition(order == 2 || order == 3, "KalmanAxis: order must be 2 or 3, got \(order)")
        self.order = order
        state = [position] + [Double](repeating: 0, count: order - 1)
        covariance = [Double](repeating: 0, count: order * order)
        covariance[0] = variance
        for i in 1..<order { covariance[i * order + i] = KalmanAxis.initialSpread[i] * KalmanAxis.initialSpread[i] }
    }

    /// Moves the state `step` seconds along the model, adding the process noise of
    /// white-noise acceleration (order 2) or jerk (order 3) with spectral density `processNoise`.
    mutating func advance(by step: Double, processNoise: Double) {
        guard step > 0 else { return }
        let transition = self.transition(step)
        state = multiply(transition, state)
        var next = multiply(multiply(transition, covariance, inner: order), transposed(transition), inner: order)
        let noise = processCovariance(step)
        for i in 0..<next.count { next[i] += processNoise * noise[i] }
        covariance = next
    }

    /// Corrects the state with a measured position of `variance`.
    mutating func correct(measured: Double, variance: Double) {
        let innovation = measured - state[0]
        let spread = covariance[0] + variance
        let gain = (0..<order).map { covariance[$0 * order] / spread }
        for i in 0..<order { state[i] += gain[i] * innovation }
        let firstRow = Array(covariance[0..<order])
        for i in 0..<order {
            for j in 0..<order { covariance[i * order + j] -= gain[i] * firstRow[j] }
        }
    }

    /// The position `ahead` seconds on, along the model.
    func extrapolated(by ahead: Double) -> Double {
        order == 2 ? state[0] + state[1] * ahead : state[0] + state[1] * ahead + state[2] * ahead * ahead / 2
    }

    private func transition(_ dt: Double) -> [Double] {
        order == 2 ? [1, dt, 0, 1] : [1, dt, dt * dt / 2, 0, 1, dt, 0, 0, 1]
    }

    /// The process covariance per unit of spectral density (Bar-Shalom's continuous
    /// white-noise models).
    private func processCovariance(_ dt: Double) -> [Double] {
        let dt2 = dt * dt, dt3 = dt2 * dt
        if order == 2 { return [dt3 / 3, dt2 / 2, dt2 / 2, dt] }
        let dt4 = dt3 * dt, dt5 = dt4 * dt
        return [dt5 / 20, dt4 / 8, dt3 / 6,
                dt4 / 8, dt3 / 3, dt2 / 2,
                dt3 / 6, dt2 / 2, dt]
    }

    private func transposed(_ m: [Double]) -> [Double] {
        (0..<m.count).map { m[($0 % order) * order + $0 / order] }
    }

    /// A square matrix times a vector.
    private func multiply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<order).map { i in (0..<order).reduce(0) { $0 + m[i * order + $1] * v[$1] } }
    }

    /// Two square matrices multiplied.
    private func multiply(_ a: [Double], _ b: [Double], inner: Int) -> [Double] {
        (0..<(inner * inner)).map { index in
            let i = index / inner, j = index % inner
            return (0..<inner).reduce(0) { $0 + a[i * inner + $1] * b[$1 * inner + j] }
        }
    }
}
