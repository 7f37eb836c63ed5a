import AppLifecycle
import CXDGShell
import SwiftGPUSupport

/// Drives an `AppLifecycle` from the states of an xdg-shell toplevel, for a host that owns
/// the Wayland connection, the `xdg_toplevel` and its listener (a Wayland object has one
/// listener) and passes each `configure` event's states on with `toplevelConfigured(states:)`:
///
/// | xdg_toplevel state | lifecycle |
/// |---|---|
/// | `suspended` gained | `didEnterBackground` (drained) |
/// | `suspended` lost | `willEnterForeground`, `didBecomeActive` (under `WindowFocusPolicy.pauseOnFocusLoss`, `didBecomeActive` only if activated) |
/// | `activated` gained, lost | the lifecycle's `observeWindowFocus` observers; under `.pauseOnFocusLoss` also `didBecomeActive`, `willResignActive` |
///
/// The lifecycle orders the calls as iOS does (see `AppLifecycle.hostWindowDidChange`).
///
/// Focus counts only once the toplevel has been activated: a Wayland surface is mapped by
/// its first buffer, and compositors activate it only then, so the configures before it
/// (never `activated`) leave the app active to draw that first frame. A compositor that
/// never activates (one without a seat, such as Weston's headless backend) leaves focus
/// alone; `suspended` applies from the first configure. `suspended` is xdg-shell version 6
/// (wayland-protocols 1.32); the adapter reads it by the protocol's published value, so a
/// host that binds `xdg_wm_base` at version 6 gets it from compositors that send it.
///
/// `Sendable` through its `LockedValue`; the other properties are immutable.
public final class WaylandLifecycleAdapter: Sendable {
    /// `xdg_toplevel.state.activated`: the window has the focus.
    public static let activated: UInt32 = 4
    /// `xdg_toplevel.state.suspended` (since version 6): the window is not visible, e.g.
    /// minimised or fully covered.
    public static let suspended: UInt32 = 9

    /// The lifecycle the adapter drives.
    public let lifecycle: AppLifecycle
    private let drainDeadline: Duration
    private let tracked = LockedValue(Tracked(), rank: .leaf("WaylandLifecycleAdapter.tracked"))

    private struct Tracked {
        var last: (isFocused: Bool, isVisible: Bool)?
        var wasActivated = false
    }

    /// An adapter for `lifecycle`; `drainDeadline` bounds the drain when the toplevel is
    /// suspended.
    public init(lifecycle: AppLifecycle = .shared, drainDeadline: Duration = .seconds(5)) {
        self.lifecycle = lifecycle
        self.drainDeadline = drainDeadline
    }

    /// Applies the states of an `xdg_toplevel.configure` event: its `wl_array` of 32-bit
    /// state values.
    public func toplevelConfigured(states: UnsafePointer<wl_array>) {
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        let values = states.pointee.data.map {
            Array(UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt32.self), count: count))
        } ?? []
        toplevelConfigured(states: values)
    }

    /// Applies the states of an `xdg_toplevel.configure` event.
    public func toplevelConfigured(states: [UInt32]) {
        let activated = states.contains(Self.activated)
        let visible = !states.contains(Self.suspended)
        let change = tracked.withLock { tracked -> (isFocused: Bool, isVisible: Bool)? in
            tracked.wasActivated = tracked.wasActivated || activated
            let now = (isFocused: activated || !tracked.wasActivated, isVisible: visible)
            let changed = tracked.last.map { $0 != now } ?? true
            tracked.last = now
            return changed ? now : nil
        }
        guard let change else { return }
        lifecycle.hostWindowDidChange(isFocused: change.isFocused, isVisible: change.isVisible,
                                      drainDeadline: drainDeadline)
    }
}
