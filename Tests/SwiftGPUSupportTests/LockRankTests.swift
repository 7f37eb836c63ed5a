import Testing
import SwiftGPUSupport

/// The lock-order check of debug builds: locks taken in rank order pass, a recursive lock
/// may be re-entered, and an inversion stops the process naming both locks, before the
/// thread could block on the second one.
@Suite struct LockRankTests {
    @Test func locksInRankOrderPass() {
        let engine = ConditionLock(rank: .queueEngine)
        let gate = ConditionLock(rank: .lifecycleGate)
        let leaf = LockedValue(0, rank: .leaf("LockRankTests.leaf"))
        let submit = RecursiveLock(rank: .queueSubmit)
        let taken = submit.withLock {
            submit.withLock {
                engine.withLock { gate.withLock { leaf.withLock { value -> Int in value += 1; return value } } }
            }
        }
        #expect(taken == 1)
        // Released in order: taking them again the other way round, one at a time, passes.
        #expect(leaf.withLock { $0 } == 1)
        gate.withLock {}
        engine.withLock {}
    }

    @Test func aWaitKeepsTheLockHeld() {
        let engine = ConditionLock(rank: .queueEngine)
        let gate = ConditionLock(rank: .lifecycleGate)
        engine.withLock {
            #expect(engine.wait(until: { false }, deadline: 0) == false)
            gate.withLock {}
        }
    }

    #if DEBUG
    @Test("an inversion stops, naming both locks")
    func inversionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let engine = ConditionLock(rank: .queueEngine)
            let gate = ConditionLock(rank: .lifecycleGate)
            gate.withLock { engine.withLock {} }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("SwiftGPU lock order: took QueueEngine.lock (level 50) while holding LifecycleGate.lock (level 60)"))
    }

    @Test("a leaf taken under a leaf stops")
    func leafUnderLeafStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = LockedValue(0, rank: .leaf("Outer.leaf"))
            let inner = LockedValue(0, rank: .leaf("Inner.leaf"))
            outer.withLock { _ in inner.withLock { _ in } }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("took Inner.leaf (level 100) while holding Outer.leaf (level 100)"))
    }

    @Test("a recursive lock taken under a higher lock stops")
    func recursiveLockInversionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let submit = RecursiveLock(rank: .queueSubmit)
            let layer = ConditionLock(rank: .layer)
            layer.withLock { submit.withLock {} }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("took QueueEngine.submitLock (level 20) while holding Layer.lock (level 40)"))
    }
    #endif
}
