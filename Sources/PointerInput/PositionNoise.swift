/// The noise of a contact's positions, estimated so that motion does not count as noise.
enum PositionNoise {
    /// The standard deviation of the positions' noise, in pixels, over the samples of the
    /// last `span`, or of as many as it takes to judge `minimumSamples` where that span holds
    /// fewer: each sample's distance, per axis, from the parabola through its
    /// neighbours (one before, two after), divided by that distance's spread for noise of
    /// 1 px; the median of those, over 0.6745 (a normal distribution's median absolute
    /// value). A parabola through neighbours misses motion only by its jerk over a few
    /// intervals, and the median passes over the few samples at a corner or a start that
    /// it misses by more. 0 with fewer than two such samples.
    static func estimate(_ history: [InputSample], span: Duration, minimumSamples: Int) -> Double {
        guard history.count >= 4 else { return 0 }
        let latest = history[history.count - 1].timestamp
        var residuals: [Double] = []
        for index in stride(from: history.count - 3, through: 1, by: -1) {
            guard latest - history[index - 1].timestamp <= span || residuals.count < 2 * minimumSamples else { break }
            let neighbours = [history[index - 1], history[index + 1], history[index + 2]]
            let t = neighbours.map { ($0.timestamp - history[index].timestamp).seconds }
            guard t[0] < 0, t[1] > 0, t[2] > t[1] else { continue }
            // Lagrange's weights for the parabola through the neighbours, at the sample's time.
            let weights = [t[1] * t[2] / ((t[0] - t[1]) * (t[0] - t[2])),
                           t[0] * t[2] / ((t[1] - t[0]) * (t[1] - t[2])),
                           t[0] * t[1] / ((t[2] - t[0]) * (t[2] - t[1]))]
            let spread = (1 + weights.reduce(0) { $0 + $1 * $1 }).squareRoot()
            for axis in 0..<2 {
                let guess = zip(weights, neighbours).reduce(0) { $0 + $1.0 * $1.1.position[axis] }
                residuals.append(abs(history[index].position[axis] - guess) / spread)
            }
        }
        guard residuals.count >= 4 else { return 0 }
        let sorted = residuals.sorted(), middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return median / 0.6745
    }
}
