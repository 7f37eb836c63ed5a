import FramePacing
import CVulkan
import SwiftGPUSupport
import Synchronization

/// Faults a test has asked for: the next `count` calls at a call site return `result`
/// instead of reaching Vulkan; or the next call at a site on a chosen thread waits, before
/// it is made, until the test lets it go (to hold that thread at a chosen point while the
/// service threads that make the same call pass by).
///
/// `@unchecked Sendable`: the tables are guarded by `lock`; `armed` is atomic.
final class FaultInjector: @unchecked Sendable {
    private struct Fault { var code: VulkanError.Code; var remaining: Int }
    private enum Stage { case armed, reached, released }
    private struct Pause { var stage: Stage; let holds: @Sendable () -> Bool }
    private let lock = ConditionLock(rank: .leaf("FaultInjector.lock"))
    private var faults: [VulkanCallSite: Fault] = [:]
    private var pauses: [VulkanCallSite: Pause] = [:]
    /// Whether any fault or pause is armed: read without the lock on every Vulkan call (a
    /// relaxed atomic load, a plain load on x86-64), so an unarmed injector costs nothing.
    private let armed = Atomic(false)

    /// Makes the next `count` calls at `site` fail with `code`.
    func inject(_ code: VulkanError.Code, at site: VulkanCallSite, count: Int = 1) {
        lock.withLock {
            faults[site] = Fault(code: code, remaining: count)
            armed.store(true, ordering: .relaxed)
        }
    }

    /// Makes the next call at `site` for which `holds` is true on the calling thread wait,
    /// before it is made, until `resume(_:)`; calls for which it is false pass.
    func pause(at site: VulkanCallSite, when holds: @escaping @Sendable () -> Bool = { true }) {
        lock.withLock {
            pauses[site] = Pause(stage: .armed, holds: holds)
            armed.store(true, ordering: .relaxed)
        }
    }

    /// Blocks until a call has reached the pause at `site`.
    func waitUntilPaused(at site: VulkanCallSite) {
        lock.withLock { lock.wait { pauses[site]?.stage == .reached } }
    }

    /// Lets the call held at `site` go on.
    func resume(_ site: VulkanCallSite) {
        lock.withLock {
            pauses[site]?.stage = .released
            lock.broadcast()
        }
    }

    /// Removes every armed fault.
    func clear() { lock.withLock { faults.removeAll(); pauses.removeAll(); armed.store(false, ordering: .relaxed) } }

    /// The injected result for this call, consuming one use, or nil to make the real call
    /// (after waiting out a pause armed at `site` that holds this thread). The unarmed
    /// check is inlined into every call site; the rest is a call.
    @inline(__always)
    func take(_ site: VulkanCallSite) -> VkResult? {
        guard armed.load(ordering: .relaxed) else { return nil }
        return takeArmed(site)
    }

    @inline(never)
    private func takeArmed(_ site: VulkanCallSite) -> VkResult? {
        // The test's condition runs with no lock held.
        let condition = lock.withLock { pauses[site].flatMap { $0.stage == .armed ? $0.holds : nil } }
        let held = condition?() ?? false
        return lock.withLock {
            if held, pauses[site]?.stage == .armed {
                pauses[site]?.stage = .reached
                lock.broadcast()
                lock.wait { pauses[site]?.stage == .released }
                pauses[site] = nil
                armed.store(!faults.isEmpty || !pauses.isEmpty, ordering: .relaxed)
            }
            guard var fault = faults[site] else { return nil }
            fault.remaining -= 1
            faults[site] = fault.remaining > 0 ? fault : nil
            armed.store(!faults.isEmpty || !pauses.isEmpty, ordering: .relaxed)
            return fault.code.vkResult
        }
    }
}

/// The one funnel every fallible `vk*` call passes through: it applies injected faults
/// and turns an error result into a thrown ``VulkanError``. Non-error results
/// (`VK_SUCCESS`, `VK_TIMEOUT`, `VK_SUBOPTIMAL_KHR`, ...) are returned to the caller.
///
/// The injector comes unretained: whoever makes the call holds what owns it (the device
/// backend, for its life) until the call returns, so a call counts no references (a
/// retain and a release at each of the half-dozen calls every command buffer makes).
@inline(__always)
@discardableResult
func vkCall(
    _ site: VulkanCallSite, _ faults: Unmanaged<FaultInjector>?, _ body: () -> VkResult
) throws(VulkanError) -> VkResult {
    let result = faults?._withUnsafeGuaranteedRef { $0.take(site) } ?? body()
    if result.rawValue < 0 { throw VulkanError(code: .init(result), callSite: site.rawValue) }
    return result
}
