import AppLifecycle
import GPUWayland
import Testing

@Suite("Wayland lifecycle adapter")
struct WaylandLifecycleTests {
    @Test("probe")
    func probe() throws {
        for shell in ["kiosk-shell.so", "desktop-shell.so"] {
            let weston = try WestonServer(shell: shell)
            let lifecycle = AppLifecycle(clock: ManualClock())
            let window = try WaylandToplevel(socketPath: weston.socketPath, adapter: WaylandLifecycleAdapter(lifecycle: lifecycle))
            window.roundtrip()
            print(shell, window.wmBaseVersion, window.configures, lifecycle.state)
        }
    }
}
