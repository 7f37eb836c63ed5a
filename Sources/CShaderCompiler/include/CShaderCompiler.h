#ifndef SWIFTGPU_CSHADERCOMPILER_H
#define SWIFTGPU_CSHADERCOMPILER_H
// The shader compiler process: run-time GLSL is compiled by glslang in a child process
// that SwiftGPU starts from its own executable, with a bounded address space, a bounded
// stack and a deadline, so that hostile source can cost a compile, never the app.
//
// The child is the app's executable run again with SWIFTGPU_SHADER_COMPILER_ENVIRONMENT
// set: a constructor in this target sees it before the app's `main`, serves compiles on
// descriptor SWIFTGPU_SHADER_COMPILER_DESCRIPTOR (a stream socket) until the other end
// closes, and exits. Every message is a header then its bytes, in the host's byte order.
#include <stdint.h>

/// The environment variable that makes an executable that links SwiftGPU a compiler.
#define SWIFTGPU_SHADER_COMPILER_ENVIRONMENT "SWIFTGPU_SHADER_COMPILER"
/// The descriptor of the socket the compiler serves on.
#define SWIFTGPU_SHADER_COMPILER_DESCRIPTOR 3
/// The first word of every request and reply, and of the greeting the compiler sends when
/// it starts: tells a compiler from an executable that does not link this target.
#define SWIFTGPU_SHADER_COMPILER_MAGIC 0x53504356u

/// One compile: followed by `preambleLength` bytes of preamble (the `#define` lines) and
/// `codeLength` bytes of GLSL.
typedef struct {
    uint32_t magic;
    /// glslang's `glslang_stage_t`.
    uint32_t stage;
    /// Nonzero: run the SPIR-V optimizer.
    uint32_t optimize;
    uint32_t preambleLength;
    uint64_t codeLength;
    /// Bytes of address space the compile may add to the process.
    uint64_t memoryLimit;
    /// Bytes of stack the compile runs on.
    uint64_t stackSize;
    /// The most SPIR-V words the output may have.
    uint64_t maximumWords;
    /// The app stops a compile at its deadline; a compiler whose app has gone meanwhile
    /// stops itself after this many seconds.
    uint64_t secondsLimit;
} swiftgpu_compile_request;

/// What a compile ended in.
typedef enum {
    /// The payload is the module's words.
    SWIFTGPU_COMPILE_SUCCEEDED = 0,
    /// The payload is glslang's log.
    SWIFTGPU_COMPILE_FAILED = 1,
    /// The compile needed more memory than `memoryLimit`; no payload.
    SWIFTGPU_COMPILE_OUT_OF_MEMORY = 2,
    /// The compile overflowed its stack (the source nests too deeply); no payload.
    SWIFTGPU_COMPILE_STACK_OVERFLOW = 3,
    /// The output has more than `maximumWords` words; `detail` is the count, no payload.
    SWIFTGPU_COMPILE_TOO_LARGE = 4,
    /// The compiler stopped on signal `detail`; no payload.
    SWIFTGPU_COMPILE_CRASHED = 5,
} swiftgpu_compile_status;

/// The answer to one request (and, with status SUCCEEDED and no payload, the greeting).
typedef struct {
    uint32_t magic;
    uint32_t status;
    uint64_t detail;
    uint64_t payloadLength;
} swiftgpu_compile_reply;

#include <sys/types.h>
#include <stddef.h>

/// Starts a compiler: this executable again, with the environment variable set and one end
/// of a new close-on-exec socket pair as its descriptor 3 (and no other descriptor of this
/// process), a clean signal mask and default signal actions. Returns 0 with `*pid` and
/// `*socket` (this process's end) set, or the error number.
int swiftgpu_shader_compiler_start(pid_t *pid, int *socket);

/// Writes all `length` bytes to `socket` (no SIGPIPE). Returns 0, or the error number
/// (EPIPE when the compiler has gone).
int swiftgpu_shader_compiler_send(int socket, const void *bytes, size_t length);

/// Reads exactly `length` bytes from `socket`, waiting until the CLOCK_MONOTONIC time
/// `deadline` (nanoseconds) at the latest. Returns 0, ETIMEDOUT at the deadline, EPIPE at
/// end of file, or the error number.
int swiftgpu_shader_compiler_receive(int socket, void *bytes, size_t length, int64_t deadline);

#endif
