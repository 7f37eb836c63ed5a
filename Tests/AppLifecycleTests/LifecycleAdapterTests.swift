import Foundation
import Glibc
import SwiftGPUSupport
import Testing
@testable import AppLifecycle

@Suite("Lifecycle adapters")
struct LifecycleAdapterTests {
    @Test("signal table: SIGTSTP backgrounds then stops, SIGCONT reactivates, SIGTERM terminates")
    func signalTable() {
        let life = AppLifecycle(clock: ManualClock())
        let actions = Locked<[String]>([])
        let adapter = SignalAdapter(lifecycle: life, drainDeadline: .seconds(1),
                                    stop: { actions.withLock { $0.append("stop in \(life.state)") } },
                                    terminate: { number in actions.withLock { $0.append("default action for \(number)") } })
        adapter.handle(SIGTSTP)
        #expect(life.state == .background)
        adapter.handle(SIGCONT)
        #expect(life.state == .active)
        adapter.handle(SIGTERM)
        #expect(life.isTerminating)
        #expect(actions.current == ["stop in background", "default action for \(SIGTERM)"])
    }

    @Test("a real SIGCONT reaches the lifecycle through a dispatch source")
    func realSignal() {
        let life = AppLifecycle(clock: ManualClock())
        life.didEnterBackground()
        let active = DispatchSemaphore(value: 0)
        let token = life.observe { if $0.event == .didBecomeActive { active.signal() } }
        let adapter = life.handleSignals()
        kill(getpid(), SIGCONT)
        active.wait()
        #expect(life.state == .active)
        adapter.cancel()
        _ = token
    }

    @Test("SIGTERM: willTerminate, then the default action ends the process")
    func sigterm() async {
        let result = await #expect(processExitsWith: .signal(SIGTERM), observing: [\.standardErrorContent]) {
            let life = AppLifecycle()
            let token = life.observe { transition in
                FileHandle.standardError.write(Data("observed \(transition.event)\n".utf8))
            }
            let adapter = life.handleSignals()
            kill(getpid(), SIGTERM)
            while true { pause() }
            _ = (token, adapter)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("observed willTerminate"))
    }

    @Test("host window visibility maps onto the lifecycle; focus is heard by observers and leaves a visible window active")
    func hostWindowDesktop() {
        let life = AppLifecycle(clock: ManualClock())
        let focus = Locked<[Bool]>([])
        let token = life.observeWindowFocus { focused in focus.withLock { $0.append(focused) } }
        life.hostWindowDidChange(isFocused: false, isVisible: true)
        #expect(life.state == .active)
        #expect(!life.isWindowFocused)
        #expect(life.hostWindowDidChange(isFocused: false, isVisible: false) != nil)
        #expect(life.state == .background)
        life.hostWindowDidChange(isFocused: false, isVisible: true)
        #expect(life.state == .active)
        life.hostWindowDidChange(isFocused: true, isVisible: true)
        life.hostWindowDidChange(isFocused: true, isVisible: true)
        #expect(life.state == .active)
        #expect(focus.current == [false, true])
        token.cancel()
    }

    @Test("pauseOnFocusLoss: host window focus and visibility map onto the lifecycle as on iOS")
    func hostWindow() {
        let life = AppLifecycle(clock: ManualClock())
        life.windowFocusPolicy = .pauseOnFocusLoss
        life.hostWindowDidChange(isFocused: false, isVisible: true)
        #expect(life.state == .inactive)
        let report = life.hostWindowDidChange(isFocused: false, isVisible: false)
        #expect(life.state == .background)
        #expect(report != nil)
        life.hostWindowDidChange(isFocused: false, isVisible: true)
        #expect(life.state == .inactive)
        life.hostWindowDidChange(isFocused: true, isVisible: true)
        #expect(life.state == .active)
    }

    @Test("low power mode: set, observed, and read from the power supplies")
    func lowPower() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("power-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let supply = root + "/sys/class/power_supply/AC"
        try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
        try "Mains\n".write(toFile: supply + "/type", atomically: true, encoding: .utf8)
        try "1\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)

        let life = AppLifecycle(clock: ManualClock())
        let changes = Locked<[Bool]>([])
        let token = life.observeLowPowerMode { value in changes.withLock { $0.append(value) } }
        let monitor = life.monitorSystemPower(root: root)
        #expect(!life.isLowPowerModeEnabled, "on mains")
        monitor.cancel()

        try "0\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        let unplugged = life.monitorSystemPower(root: root)
        #expect(unplugged.isOnBattery)
        #expect(unplugged.isLowPower)
        #expect(life.isLowPowerModeEnabled, "the monitor reports what it reads when it starts")
        unplugged.cancel()

        life.setLowPowerModeEnabled(false)
        life.setLowPowerModeEnabled(false)
        #expect(changes.current == [true, false])
        _ = token
    }
}
