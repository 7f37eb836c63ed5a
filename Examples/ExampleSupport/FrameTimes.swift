import Foundation

/// Milliseconds on the monotonic clock, for the examples' per-frame costs.
public func milliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
}

/// "mean M p95 P ms" of `times` (milliseconds), or "none".
public func summary(_ times: [Double]) -> String {
    let sorted = times.sorted()
    guard !sorted.isEmpty else { return "none" }
    return String(format: "mean %.2f p95 %.2f ms", sorted.reduce(0, +) / Double(sorted.count),
                  sorted[min(sorted.count - 1, sorted.count * 95 / 100)])
}
