import Foundation
import Glibc
import GPUTestSupport
import Testing
@testable import GPU
import SwiftGPUSupport

/// A process that exits while its queues wait in the driver: the waits are ended before the
/// driver's own exit-time teardown, which crashed NVIDIA's driver under a waiting thread.
@Suite("Process exit")
struct ProcessExitTests {
    @Test("exit wakes each queue's completion thread out of its wait in the driver before the driver's teardown")
    func exitEndsWaitsInTheDriver() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            // Registered before the driver loads, so it runs after SwiftGPU's handler, where
            // the driver's destructors run.
            atexit {
                FileHandle.standardOutput.write(Data("blocked at the driver's teardown: \(ServiceActivity.blockedCount)\n".utf8))
            }
            let gpu = try TestGPU()
            let buffer = try gpu.queue.makeCommandBuffer()
            buffer.commit()
            buffer.waitUntilCompleted()
            // The completion thread goes back to waiting for the next value once it has
            // finished the buffer; a child that never sees it fails rather than hangs.
            let limit = ContinuousClock.now + .seconds(10)
            while ServiceActivity.blockedCount == 0 {
                guard ContinuousClock.now < limit else { exit(2) }
                sched_yield()
            }
            FileHandle.standardOutput.write(Data("blocked before exit: \(ServiceActivity.blockedCount)\n".utf8))
            withExtendedLifetime(gpu) { exit(0) }
        }
        let output = String(decoding: try #require(result).standardOutputContent, as: UTF8.self)
        let before = try #require(output.split(separator: "\n").first { $0.hasPrefix("blocked before exit: ") })
        #expect(try #require(Int(before.dropFirst("blocked before exit: ".count))) >= 1)
        #expect(output.contains("blocked at the driver's teardown: 0\n"), "\(output)")
    }
}
