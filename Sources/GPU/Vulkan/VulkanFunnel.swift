import FramePacing
import CVulkan

/// Faults a test has asked for: the next `count` calls at a call site return `result`
/// instead of reaching Vulkan.
///
/// `@unchecked Sendable`: the table is guarded by `lock`.
final class FaultInjector: @unchecked Sendable {
    private struct Fault { var code: VulkanError.Code; var remaining: Int }
    private let lock = ConditionLock()
    private var faults: [VulkanCallSite: Fault] = [:]
    // Read without the lock on the fast path: a stale `false` only delays a fault that a
    // test armed concurrently with the call, which tests never do.
    private nonisolated(unsafe) var armed = false

    /// Makes the next `count` calls at `site` fail with `code`.
    func inject(_ code: VulkanError.Code, at site: VulkanCallSite, count: Int = 1) {
        lock.withLock {
            faults[site] = Fault(code: code, remaining: count)
            armed = true
        }
    }

    /// Removes every armed fault.
    func clear() { lock.withLock { faults.removeAll(); armed = false } }

    /// The injected result for this call, consuming one use, or nil to make the real call.
    func take(_ site: VulkanCallSite) -> VkResult? {
        guard armed else { return nil }
        return lock.withLock {
            guard var fault = faults[site] else { return nil }
            fault.remaining -= 1
            faults[site] = fault.remaining > 0 ? fault : nil
            armed = !faults.isEmpty
            return fault.code.vkResult
        }
    }
}

/// The one funnel every fallible `vk*` call passes through: it applies injected faults
/// and turns an error result into a thrown ``VulkanError``. Non-error results
/// (`VK_SUCCESS`, `VK_TIMEOUT`, `VK_SUBOPTIMAL_KHR`, ...) are returned to the caller.
@inline(__always)
@discardableResult
func vkCall(
    _ site: VulkanCallSite, _ faults: FaultInjector?, _ body: () -> VkResult
) throws(VulkanError) -> VkResult {
    let result = faults?.take(site) ?? body()
    if result.rawValue < 0 { throw VulkanError(code: .init(result), callSite: site.rawValue) }
    return result
}
