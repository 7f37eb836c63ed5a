import AppLifecycle
import Foundation
import Glibc
import GPUTestSupport
import GPUWayland
import Testing
@testable import GPU

/// The Wayland lifecycle adapter: its state table, and a real Weston (headless backend,
/// kiosk shell) activating and deactivating a toplevel that a `Layer` presents to.
@Suite("Wayland: lifecycle adapter and layers on Weston", .validated)
struct WaylandLifecycleTests {
    static let activated = WaylandLifecycleAdapter.activated
    static let suspended = WaylandLifecycleAdapter.suspended

    /// The transitions `lifecycle` makes while `body` runs.
    static func transitions(of lifecycle: AppLifecycle, _ body: () -> Void) -> [String] {
        let made = Locked<[String]>([])
        let token = lifecycle.observe { transition in made.withLock { $0.append(transition.event.rawValue) } }
        body()
        token.cancel()
        return made.current
    }

    @Test("desktop rule: deactivation is heard by focus observers and leaves the app active; suspended enters the background")
    func desktopStateTable() {
        let lifecycle = AppLifecycle(clock: ManualClock())
        let focus = Locked<[Bool]>([])
        let token = lifecycle.observeWindowFocus { focused in focus.withLock { $0.append(focused) } }
        let adapter = WaylandLifecycleAdapter(lifecycle: lifecycle, drainDeadline: .zero)
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated]) } == [])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: []) } == [])
        #expect(lifecycle.state == .active)
        #expect(focus.current == [false])   // heard once focus counts, from the first activation
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.suspended]) }
                == ["willResignActive", "didEnterBackground"])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: []) }
                == ["willEnterForeground", "didBecomeActive"])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated]) } == [])
        #expect(focus.current == [false, true])
        token.cancel()
    }

    @Test("pauseOnFocusLoss: activated and suspended map onto the lifecycle in iOS's order; focus counts from the first activation")
    func stateTable() {
        let lifecycle = AppLifecycle(clock: ManualClock())
        lifecycle.windowFocusPolicy = .pauseOnFocusLoss
        let adapter = WaylandLifecycleAdapter(lifecycle: lifecycle, drainDeadline: .zero)
        let fullscreen: UInt32 = 2
        // Configures before the first activation (the surface is not mapped yet) keep it active.
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [fullscreen]) } == [])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated, fullscreen]) } == [])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [fullscreen]) } == ["willResignActive"])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated]) } == ["didBecomeActive"])
        // Suspended (xdg-shell 6) while activated: through inactive into the background.
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated, Self.suspended]) }
                == ["willResignActive", "didEnterBackground"])
        #expect(lifecycle.state == .background)
        // Shown again but not focused: inactive; focused: active.
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: []) } == ["willEnterForeground"])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated]) } == ["didBecomeActive"])
        // Suspended, then restored straight to activated: willEnterForeground, didBecomeActive.
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.suspended]) }
                == ["willResignActive", "didEnterBackground"])
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated]) }
                == ["willEnterForeground", "didBecomeActive"])
        // A configure that changes neither state makes no calls.
        #expect(Self.transitions(of: lifecycle) { adapter.toplevelConfigured(states: [Self.activated, fullscreen]) } == [])
    }

    @Test("Weston headless: a Layer on a host's xdg_toplevel presents in fifo and mailbox, every presented handler fires")
    func westonPresents() throws {
        let weston = try WestonServer()
        let gpu = try TestGPU()
        let window = try WaylandToplevel(socketPath: weston.socketPath,
                                         adapter: WaylandLifecycleAdapter(lifecycle: gpu.device.lifecycle))
        let surface = try #require(window.surface)
        var layer = try Layer(device: gpu.device, surface: .wayland(display: window.display, surface: surface))
        layer.drawableSize = Size2D(width: 64, height: 48)
        for mode in [PresentMode.fifo, .mailbox] {
            layer.presentMode = mode
            let waiter = PresentWaiter()
            var ids: [Int] = []
            for frame in 0..<4 {
                let drawable = try #require(layer.nextDrawable(), "\(mode) frame \(frame)")
                ids.append(drawable.drawableID)
                try gpu.present(drawable, red: 1, green: Double(frame) / 4, waiter: waiter)
                window.roundtrip()
            }
            #expect(waiter.wait(for: ids.count))
            let times = ids.map { waiter.presentedTimes[$0] ?? 0 }
            #expect(times.allSatisfy { $0 > 0 }, "\(mode): every frame presented: \(times)")
            #expect(times == times.sorted(), "\(mode): in order")
            #expect(layer.presenter?.activeMode == mode, "lavapipe offers \(mode) on Wayland surfaces")
        }
        // Weston's headless backend has no seat, so it never activates a toplevel: the
        // configures carry no `activated`, and the adapter leaves the app active.
        #expect(!window.configures.isEmpty)
        #expect(window.configures.allSatisfy { !$0.contains(Self.activated) })
        #expect(gpu.device.lifecycle.state == .active)
        #expect(!window.isClosed)
        // The host keeps its connection while the layer lives: the present thread lets go of
        // the last drawable just after its handler runs, so wait for that, and let the layer
        // go here, before the connection closes.
        #expect(Self.waitUntilUnique(&layer))
        withExtendedLifetime(layer) {}
    }

    @Test("Weston on X11 (a seat): activation follows the toplevel that maps last; an unfocused window keeps drawing, or pauses under pauseOnFocusLoss",
          arguments: [WindowFocusPolicy.keepDrawingWhileVisible, .pauseOnFocusLoss])
    func westonActivation(policy: WindowFocusPolicy) throws {
        let server = try XvfbServer(width: 800, height: 600)
        let weston = try WestonServer(xDisplay: server.display)
        let gpu = try TestGPU()
        let lifecycle = gpu.device.lifecycle
        lifecycle.windowFocusPolicy = policy
        let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: WaylandLifecycleAdapter(lifecycle: lifecycle))
        var layer = try Layer(device: gpu.device, surface: .wayland(display: window.display, surface: try #require(window.surface)))
        layer.drawableSize = Size2D(width: 64, height: 48)

        // The first frame maps the toplevel; the shell then activates it.
        let waiter = PresentWaiter()
        try gpu.present(try #require(layer.nextDrawable()), red: 1, waiter: waiter)
        #expect(waiter.wait(for: 1))
        #expect(window.dispatch { window.configures.last?.contains(Self.activated) == true })
        #expect(lifecycle.state == .active)

        // A second toplevel maps and takes the activation. Under the desktop rule the first,
        // still visible, keeps drawing; under pauseOnFocusLoss it resigns, and its layer hands
        // out nothing while the app is inactive.
        try Self.showSecondToplevel(gpu, weston) {
            #expect(window.dispatch { window.configures.last?.contains(Self.activated) == false })
            #expect(!lifecycle.isWindowFocused)
            if policy == .pauseOnFocusLoss {
                #expect(lifecycle.state == .inactive)
                #expect(layer.nextDrawable() == nil, "no drawables while inactive")
            } else {
                #expect(lifecycle.state == .active)
                let waiter = PresentWaiter()
                try gpu.present(try #require(layer.nextDrawable(), "an unfocused, visible window draws"), red: 0.5, waiter: waiter)
                #expect(waiter.wait(for: 1))
            }
        }
        // It goes away; the shell activates the first again.
        #expect(window.dispatch { window.configures.last?.contains(Self.activated) == true })
        #expect(lifecycle.state == .active)
        #expect(lifecycle.isWindowFocused)
        #expect(layer.nextDrawable() != nil)
        #expect(Self.waitUntilUnique(&layer))
        withExtendedLifetime(layer) {}
    }

    /// Maps a second toplevel (a layer's first frame), runs `body`, then closes it: its layer
    /// first, then its connection.
    static func showSecondToplevel(_ gpu: TestGPU, _ weston: WestonServer, _ body: () throws -> Void) throws {
        let other = try WaylandToplevel(socketPath: weston.socketPath, adapter: nil)
        try withExtendedLifetime(other) {
            var layer = try Layer(device: gpu.device, surface: .wayland(display: other.display, surface: try #require(other.surface)))
            layer.drawableSize = Size2D(width: 32, height: 32)
            let waiter = PresentWaiter()
            try gpu.present(try #require(layer.nextDrawable()), red: 0, green: 1, waiter: waiter)
            #expect(waiter.wait(for: 1))
            other.roundtrip()
            try body()
            #expect(waitUntilUnique(&layer))
        }
    }

    /// Waits (5 s at most, yielding the processor) until nothing but the caller holds `object`.
    static func waitUntilUnique<T: AnyObject>(_ object: inout T) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !isKnownUniquelyReferenced(&object) {
            guard ContinuousClock.now < deadline else { return false }
            sched_yield()
        }
        return true
    }
}
