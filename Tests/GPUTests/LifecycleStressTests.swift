import GPUTestSupport
import SwiftGPUSupport
import Foundation
import Testing
@testable import GPU

@Suite("Lifecycle gate under load", .validated)
struct LifecycleStressTests {
    /// What one committed buffer went through.
    final class Record: @unchecked Sendable {
        // @unchecked Sendable: the counters are only touched under `lock`.
        let lock = NSLock()
        var scheduledCalls = 0
        var completedCalls = 0
        let buffer: CommandBuffer
        init(_ buffer: CommandBuffer) { self.buffer = buffer }
    }

    @Test("four threads commit through 10,000 random transitions", .timeLimit(.minutes(2)))
    func randomTransitions() throws {
        let seed = ProcessInfo.processInfo.environment["GPU_STRESS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(state: seed)
        let life = AppLifecycle()
        let gpu = try TestGPU(lifecycle: life)
        let queues = [gpu.queue, try gpu.device.makeCommandQueue(label: "second")]
        let counter = try gpu.device.makeBuffer(length: 4)
        let records = Locked<[Record]>([])
        let stop = Locked(false)
        let finished = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)

        for worker in 0..<4 {
            Thread.detachNewThread {
                let queue = queues[worker % 2]
                while !stop.current {
                    guard let cb = try? gpu.incrementBuffer(counter, on: queue) else { break }
                    let record = Record(cb)
                    cb.addScheduledHandler { _ in record.lock.withLock { record.scheduledCalls += 1 } }
                    cb.addCompletedHandler { _ in record.lock.withLock { record.completedCalls += 1 } }
                    records.withLock { $0.append(record) }
                    cb.commit()
                    committed.signal()
                }
                finished.signal()
            }
        }

        var backgroundIntervals = 0
        var drained = 0
        for _ in 0..<10_000 {
            committed.wait()   // one commit between transitions: each one meets traffic
            switch Int.random(in: 0..<4, using: &random) {
            case 0: life.willResignActive()
            case 1:
                guard life.state != .background else { continue }
                let report = life.didEnterBackground(deadline: .seconds(10))
                drained += report.scheduled
                #expect(report.failedAtDeadline == 0, "seed \(seed)")
                // Work scheduled before the background may still finish; then nothing may run.
                for queue in queues { queue.engine.waitUntilIdle() }
                let atEntry = counter.contents().load(as: UInt32.self)
                for _ in 0..<Int.random(in: 0..<20, using: &random) { life.willResignActive() }
                let atExit = counter.contents().load(as: UInt32.self)
                #expect(atEntry == atExit, "GPU work ran in the background (seed \(seed))")
                backgroundIntervals += 1
            case 2: life.willEnterForeground()
            default: life.didBecomeActive()
            }
        }
        life.didBecomeActive()
        stop.withLock { $0 = true }
        for _ in 0..<4 { finished.wait() }

        let all = records.current
        for record in all { record.buffer.waitUntilCompleted() }
        var completed = 0
        for record in all {
            let status = record.buffer.status
            #expect(status.isTerminal, "seed \(seed)")
            if status == .completed { completed += 1 }
            if status == .error { #expect(record.buffer.error?.code == .notPermitted, "seed \(seed)") }
            record.lock.withLock {
                #expect(record.scheduledCalls == 1 && record.completedCalls == 1, "handlers must run once (seed \(seed))")
            }
        }
        for queue in queues { queue.engine.waitUntilIdle() }
        #expect(Int(counter.contents().load(as: UInt32.self)) == completed, "every completed buffer ran once (seed \(seed))")
        #expect(backgroundIntervals > 100)
        #expect(completed > 0 && completed < all.count, "both outcomes occurred (seed \(seed))")
        print("lifecycle stress: seed \(seed), \(all.count) buffers, \(completed) completed, "
            + "\(backgroundIntervals) background intervals, \(drained) drained")
    }
}
