import Glibc
import SwiftGPUSupport

/// Maps POSIX job-control and termination signals onto a lifecycle:
///
/// | signal | lifecycle | then |
/// |---|---|---|
/// | SIGTSTP (Ctrl-Z) | `willResignActive`, `didEnterBackground` (drained) | the process stops (SIGSTOP) |
/// | SIGCONT (`fg`) | `willEnterForeground`, `didBecomeActive` | |
/// | SIGTERM, SIGINT | `willTerminate` | the signal's default action (exit) |
///
/// The signal handler only writes the signal's number to a pipe (async-signal-safe); a
/// thread blocked in `read` on the pipe applies the table. `cancel()` restores the default
/// dispositions.
///
/// `Sendable`: its state is in a `LockedValue`; the other properties are immutable.
public final class SignalAdapter: Sendable {
    /// The signals the adapter handles.
    public static let signals: [Int32] = [SIGTSTP, SIGCONT, SIGTERM, SIGINT]

    private let lifecycle: AppLifecycle
    private let drainDeadline: Duration
    private let stop: @Sendable () -> Void
    private let terminate: @Sendable (Int32) -> Void
    private let isRunning = LockedValue(false, rank: .leaf("SignalAdapter.isRunning"))

    init(lifecycle: AppLifecycle, drainDeadline: Duration,
         stop: @escaping @Sendable () -> Void, terminate: @escaping @Sendable (Int32) -> Void) {
        self.lifecycle = lifecycle
        self.drainDeadline = drainDeadline
        self.stop = stop
        self.terminate = terminate
    }

    /// Installs the handlers and starts the thread that applies them.
    func start() {
        guard let fds = closeOnExecPipe() else { return }
        signalPipeWrite = fds.write
        isRunning.withLock { $0 = true }
        for number in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let readEnd = fds.read
        startThread { [self] in
            nameCurrentThread("SwiftGPU.signals")
            // At least this thread takes the signals, whatever mask the process inherited.
            var set = sigset_t()
            sigemptyset(&set)
            for number in Self.signals { sigaddset(&set, number) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                guard isRunning.withLock({ $0 }) else { break }
                handle(Int32(byte))
            }
            close(readEnd)
        }
    }

    /// Applies the table's row for `number`.
    func handle(_ number: Int32) {
        switch number {
        case SIGTSTP:
            lifecycle.willResignActive()
            lifecycle.didEnterBackground(deadline: drainDeadline)
            stop()
        case SIGCONT:
            lifecycle.willEnterForeground()
            lifecycle.didBecomeActive()
        case SIGTERM, SIGINT:
            lifecycle.willTerminate()
            terminate(number)
        default:
            break
        }
    }

    /// Stops handling the signals and restores their default actions.
    public func cancel() {
        let wasRunning = isRunning.withLock { running -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
        let writeEnd = signalPipeWrite
        signalPipeWrite = -1
        close(writeEnd)
    }
}

/// The write end of the signal pipe; read by the C handler, so a plain global.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// The C signal handler: forwards the signal's number down the pipe.
private func forwardSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWrite, &byte, 1)
}

extension AppLifecycle {
    /// Drives this lifecycle from POSIX signals (see `SignalAdapter`). Keep the returned
    /// adapter; releasing it restores the default signal actions.
    public func handleSignals(drainDeadline: Duration = .seconds(5)) -> SignalAdapter {
        let adapter = SignalAdapter(
            lifecycle: self, drainDeadline: drainDeadline,
            stop: { kill(getpid(), SIGSTOP) },
            terminate: { number in
                Glibc.signal(number, SIG_DFL)
                kill(getpid(), number)
            })
        adapter.start()
        return adapter
    }

    /// Reports the host window's state, for toolkits that embed SwiftGPU: hiding
    /// (unmapped, minimised, fully covered, suspended) enters the background, showing again
    /// enters the foreground and makes the app active. Focus changes reach the observers of
    /// `observeWindowFocus(_:)`; under ``WindowFocusPolicy/pauseOnFocusLoss`` losing the
    /// focus also resigns active, and the focus makes the app active again.
    @discardableResult
    public func hostWindowDidChange(isFocused: Bool, isVisible: Bool, drainDeadline: Duration = .seconds(5)) -> DrainReport? {
        let policy = noteWindowFocus(isFocused)
        let counts = isFocused || policy == .keepDrawingWhileVisible
        switch (isVisible, counts) {
        case (false, _):
            willResignActive()
            return didEnterBackground(deadline: drainDeadline)
        case (true, false):
            if state == .background { willEnterForeground() } else { willResignActive() }
        case (true, true):
            didBecomeActive()
        }
        return nil
    }
}
