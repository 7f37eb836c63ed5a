import CShaderCompiler
import Glibc
import SwiftGPUSupport

/// One shader compiler process: this executable started again as glslang's host (see
/// `CShaderCompiler.h`), which compiles one request at a time under the limits it is sent.
/// Its owner is the thread that took it from `ShaderCompilerPool`; a process that timed
/// out, crashed or broke the protocol is stopped and never given back.
final class ShaderCompilerProcess: Sendable {
    /// How long a new process may take to greet: it loads the whole executable.
    static let startTimeLimit: Duration = .seconds(30)
    /// The longest log a failed compile may send.
    static let maximumLogLength = 1 << 20

    let pid: pid_t
    let socket: Int32

    /// What a request ended in.
    enum Outcome {
        /// The compiler answered: a `swiftgpu_compile_status`, its detail and payload.
        case answered(status: UInt32, detail: UInt64, payload: [UInt8])
        /// No answer by the deadline.
        case timedOut
        /// The process broke off: the reason.
        case broken(String)
    }

    private init(pid: pid_t, socket: Int32) {
        self.pid = pid
        self.socket = socket
    }

    /// Starts a process and waits for its greeting.
    static func start() -> Result<ShaderCompilerProcess, LibraryError> {
        var pid: pid_t = 0
        var socket: Int32 = -1
        let result = swiftgpu_shader_compiler_start(&pid, &socket)
        guard result == 0 else {
            return .failure(.compilerUnavailable(reason: "starting /proc/self/exe as the shader compiler failed: "
                + String(cString: strerror(result))))
        }
        let process = ShaderCompilerProcess(pid: pid, socket: socket)
        var greeting = swiftgpu_compile_reply()
        let received = withUnsafeMutableBytes(of: &greeting) { bytes in
            swiftgpu_shader_compiler_receive(socket, bytes.baseAddress, bytes.count, deadline(after: startTimeLimit))
        }
        guard received == 0, greeting.magic == SWIFTGPU_SHADER_COMPILER_MAGIC else {
            let why = received == ETIMEDOUT ? "did not greet within \(startTimeLimit)" : process.stop()
            return .failure(.compilerUnavailable(reason: "this executable, started again as the shader compiler, \(why); "
                + "run-time GLSL needs SwiftGPU linked into the executable itself"))
        }
        return .success(process)
    }

    /// Sends one request and waits for its answer until `deadline` (CLOCK_MONOTONIC
    /// nanoseconds).
    func compile(_ request: swiftgpu_compile_request, preamble: String, code: String, deadline: Int64) -> Outcome {
        var header = request
        var sent = withUnsafeBytes(of: &header) { swiftgpu_shader_compiler_send(socket, $0.baseAddress, $0.count) }
        for text in [preamble, code] where sent == 0 {
            var text = text
            sent = text.withUTF8 { swiftgpu_shader_compiler_send(socket, $0.baseAddress, $0.count) }
        }
        guard sent == 0 else { return .broken("sending the source failed: \(String(cString: strerror(sent)))") }

        var reply = swiftgpu_compile_reply()
        let received = withUnsafeMutableBytes(of: &reply) {
            swiftgpu_shader_compiler_receive(socket, $0.baseAddress, $0.count, deadline)
        }
        if received == ETIMEDOUT { return .timedOut }
        guard received == 0 else { return .broken(received == EPIPE ? "it ended without answering" : String(cString: strerror(received))) }
        let largest = reply.status == SWIFTGPU_COMPILE_SUCCEEDED.rawValue
            ? request.maximumWords * 4 : UInt64(Self.maximumLogLength)
        guard reply.magic == SWIFTGPU_SHADER_COMPILER_MAGIC, reply.payloadLength <= largest else {
            return .broken("it answered out of protocol")
        }
        var payload = [UInt8](repeating: 0, count: Int(reply.payloadLength))
        let rest = payload.withUnsafeMutableBytes {
            swiftgpu_shader_compiler_receive(socket, $0.baseAddress, $0.count, deadline)
        }
        if rest == ETIMEDOUT { return .timedOut }
        guard rest == 0 else { return .broken("its answer broke off") }
        return .answered(status: reply.status, detail: reply.detail, payload: payload)
    }

    /// Kills the process and reaps it; returns how it had ended, for messages.
    @discardableResult
    func stop() -> String {
        kill(pid, SIGKILL)
        return closeAndReap()
    }

    /// Closes the socket, which ends an idle process, and reaps it; returns how it ended.
    @discardableResult
    func closeAndReap() -> String {
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return "ended (its exit was reaped elsewhere)" }
        }
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "ended on signal \(signal)"
    }

    /// The CLOCK_MONOTONIC time `duration` from now, in nanoseconds (the host clock's).
    static func deadline(after duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .max }
        let ahead = nanoseconds.partialValue + attoseconds / 1_000_000_000
        let (sum, overflow) = Int64(HostClock.nanoseconds()).addingReportingOverflow(ahead)
        return overflow ? .max : sum
    }
}
