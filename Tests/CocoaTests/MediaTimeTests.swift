import Cocoa
import Glibc
import Testing

@Suite("Cocoa's media time (AppKit's, re-exported)")
struct MediaTimeTests {
    @Test("CACurrentMediaTime() reads CLOCK_MONOTONIC in seconds and never goes back")
    func monotonicSeconds() {
        let before = CACurrentMediaTime()
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let after = CACurrentMediaTime()
        let clock = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        #expect(before <= clock && clock <= after, "\(before) ≤ \(clock) ≤ \(after)")
        #expect(after - before < 1, "two readings a call apart are well under a second apart")
    }
}
