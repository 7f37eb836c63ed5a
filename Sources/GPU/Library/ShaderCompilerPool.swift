import Glibc
import SwiftGPUSupport

/// The shader compiler processes kept for the next compile: starting one loads the whole
/// executable again, so a process that answered is kept, up to `maximumIdle` of them, and
/// compiles at once on several threads each take their own. An idle process waits in a
/// blocking read and costs no CPU.
final class ShaderCompilerPool: Sendable {
    /// The pool every device's run-time compiles use.
    static let shared = ShaderCompilerPool()
    /// The most idle processes kept.
    static let maximumIdle = 2

    private let idle = LockedValue<[ShaderCompilerProcess]>([], rank: .leaf("ShaderCompilerPool.idle"))

    /// An idle process (`pooled` true), or a new one; a new one whenever `fresh`.
    func take(fresh: Bool = false) -> Result<(process: ShaderCompilerProcess, pooled: Bool), LibraryError> {
        if !fresh, let process = idle.withLock({ $0.popLast() }) { return .success((process, true)) }
        return ShaderCompilerProcess.start().map { ($0, false) }
    }

    /// Keeps `process` for the next compile, or ends it when enough are kept.
    func giveBack(_ process: ShaderCompilerProcess) {
        let kept = idle.withLock { processes -> Bool in
            guard processes.count < Self.maximumIdle else { return false }
            processes.append(process)
            return true
        }
        if !kept { process.closeAndReap() }
    }

    /// How many idle processes are kept now.
    var idleCount: Int { idle.withLock { $0.count } }

    /// The process IDs of the idle processes.
    var idleProcessIDs: [pid_t] { idle.withLock { $0.map(\.pid) } }
}
