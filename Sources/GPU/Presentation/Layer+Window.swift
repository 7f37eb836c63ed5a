import FramePacing
import SwiftGPUSupport

extension Layer {
    /// `nextDrawable()` on a window surface: waits (within `deadline`) for a free place among
    /// `maximumDrawableCount` drawables in flight (one in low-latency mode), then acquires a
    /// swapchain image, remaking the swapchain first when needed.
    func nextWindowDrawable(_ presenter: WindowPresenter, deadline: UInt64?) -> Drawable? {
        let settings = lock.withLock { () -> WindowPresenter.Settings? in
            let ready = lock.wait(until: {
                guard device.lifecycle.state == .active else { return true }
                return presenter.outstanding < (lowLatency ? 1 : count)
            }, deadline: deadline)
            guard ready, device.lifecycle.state == .active, size.width > 0, size.height > 0 else { return nil }
            presenter.outstanding += 1
            presenter.acquiring += 1
            return WindowPresenter.Settings(format: format, size: size, count: count, mode: lowLatency ? .mailbox : mode)
        }
        guard let settings else { return nil }
        let lifecycle = device.lifecycle
        let acquired = presenter.acquire(settings, deadline: deadline, isActive: { lifecycle.state == .active }) { size in
            lock.withLock { self.size = size }
        }
        return lock.withLock { () -> Drawable? in
            presenter.acquiring -= 1
            guard let (index, texture, generation, swapchain) = acquired else {
                presenter.outstanding = max(presenter.outstanding - 1, 0)
                lock.broadcast()
                return nil
            }
            defer { nextID += 1 }
            return Drawable(texture: texture, drawableID: nextID, layer: self, slot: index, generation: generation,
                            frameStart: .nanoseconds(Int64(HostClock.nanoseconds())), swapchain: swapchain)
        }
    }

    /// The command buffer presenting `drawable` was submitted (`submitted`), or ended
    /// without reaching the GPU: queue the present, or give the image back unshown.
    func windowPresentScheduled(_ drawable: Drawable, timing: PresentTiming, submitted: Bool) {
        guard let presenter, let swapchain = drawable.swapchain else { return }
        guard submitted else {
            lock.withLock { presenter.giveBack(index: drawable.slot, generation: drawable.generation) }
            finish(drawable, at: nil)
            releaseSwapchainInBackground()
            return
        }
        lock.withLock { drawable.handedToDisplay = .nanoseconds(Int64(HostClock.nanoseconds())) }
        presenter.enqueue(WindowPresenter.PresentRequest(drawable: drawable, swapchain: swapchain, timing: timing))
    }

    /// `drawable`'s present call returned, at host time `time` (nanoseconds), or failed
    /// (nil), and the present thread has freed its place among those in flight: the
    /// drawable is finished.
    func windowPresentReturned(_ drawable: Drawable, at time: UInt64?) {
        finish(drawable, at: time.map { .nanoseconds(Int64($0)) })
        releaseSwapchainInBackground()
    }
}
