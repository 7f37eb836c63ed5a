import SwiftGPUSupport

/// QuartzCore's `CACurrentMediaTime()`: the host's monotonic time in seconds
/// (`CLOCK_MONOTONIC`), which, as on Apple platforms, counts from no particular moment:
/// only differences between two readings mean anything.
public func CACurrentMediaTime() -> Double {
    HostClock.seconds()
}
