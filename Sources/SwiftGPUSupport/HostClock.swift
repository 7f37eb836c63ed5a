import Glibc

/// Host monotonic time, the clock Metal's `CACurrentMediaTime` corresponds to.
package enum HostClock {
    /// Nanoseconds on CLOCK_MONOTONIC.
    package static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds on CLOCK_MONOTONIC.
    package static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
