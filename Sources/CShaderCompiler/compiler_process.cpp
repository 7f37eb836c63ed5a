// The compiler's side: when this executable was started as SwiftGPU's shader compiler,
// serve compiles before the app's own `main` runs, then exit. Each compile runs on a
// thread of its own stack under a bounded address space; a compile that overflows the
// stack, runs out of memory or crashes answers with what happened and ends the process,
// which the app then replaces.
#include "CShaderCompiler.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include <errno.h>
#include <malloc.h>
#include <new>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int channel = SWIFTGPU_SHADER_COMPILER_DESCRIPTOR;
// Below the compile thread's stack: a fault there is the stack running out.
constexpr size_t guardSize = 1 << 20;
constexpr size_t alternateStackSize = 64 << 10;
// What a request may ask for, whatever the app's options say.
constexpr uint64_t largestSource = 256ull << 20;
constexpr uint64_t smallestStack = 256 << 10;
constexpr uint64_t largestStack = 1ull << 30;

// The compile thread's guard region, for the fault handler.
volatile uintptr_t guardLow = 0;
volatile uintptr_t guardHigh = 0;

bool writeAll(const void *bytes, size_t length) {
    const char *next = static_cast<const char *>(bytes);
    while (length > 0) {
        ssize_t written = write(channel, next, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        next += written;
        length -= size_t(written);
    }
    return true;
}

bool readAll(void *bytes, size_t length) {
    char *next = static_cast<char *>(bytes);
    while (length > 0) {
        ssize_t got = read(channel, next, length);
        if (got < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (got == 0) return false;
        next += got;
        length -= size_t(got);
    }
    return true;
}

bool reply(uint32_t status, uint64_t detail, const void *payload, uint64_t length) {
    swiftgpu_compile_reply header = {SWIFTGPU_SHADER_COMPILER_MAGIC, status, detail, length};
    return writeAll(&header, sizeof header) && (length == 0 || writeAll(payload, length));
}

// Async-signal-safe: answers and ends the process.
[[noreturn]] void replyAndExit(uint32_t status, uint64_t detail) {
    swiftgpu_compile_reply header = {SWIFTGPU_SHADER_COMPILER_MAGIC, status, detail, 0};
    writeAll(&header, sizeof header);
    _exit(1);
}

void onFault(int signal, siginfo_t *info, void *) {
    uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    bool stack = (signal == SIGSEGV || signal == SIGBUS) && address >= guardLow && address < guardHigh;
    replyAndExit(stack ? SWIFTGPU_COMPILE_STACK_OVERFLOW : SWIFTGPU_COMPILE_CRASHED, stack ? 0 : uint64_t(signal));
}

void onOutOfMemory() { replyAndExit(SWIFTGPU_COMPILE_OUT_OF_MEMORY, 0); }

struct Job {
    const swiftgpu_compile_request *request;
    const char *preamble;
    const char *code;
    void *alternateStack;
    uint32_t status = SWIFTGPU_COMPILE_FAILED;
    uint64_t detail = 0;
    std::vector<uint32_t> words;
    std::string log;
};

void fail(Job &job, const char *message) {
    job.status = SWIFTGPU_COMPILE_FAILED;
    if (message) job.log = message;
}

void compile(Job &job) {
    const glslang_messages_t messages = glslang_messages_t(GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT);
    glslang_input_t input = {};
    input.language = GLSLANG_SOURCE_GLSL;
    input.stage = glslang_stage_t(job.request->stage);
    input.client = GLSLANG_CLIENT_VULKAN;
    input.client_version = GLSLANG_TARGET_VULKAN_1_2;
    input.target_language = GLSLANG_TARGET_SPV;
    input.target_language_version = GLSLANG_TARGET_SPV_1_5;
    input.code = job.code;
    input.default_version = 450;
    input.default_profile = GLSLANG_NO_PROFILE;
    input.messages = messages;
    input.resource = glslang_default_resource();

    glslang_shader_t *shader = glslang_shader_create(&input);
    if (!shader) return fail(job, "glslang could not make a shader object");
    glslang_shader_set_preamble(shader, job.preamble);
    if (!glslang_shader_preprocess(shader, &input) || !glslang_shader_parse(shader, &input)) {
        fail(job, glslang_shader_get_info_log(shader));
        glslang_shader_delete(shader);
        return;
    }
    glslang_program_t *program = glslang_program_create();
    if (!program) {
        glslang_shader_delete(shader);
        return fail(job, "glslang could not make a program object");
    }
    glslang_program_add_shader(program, shader);
    if (!glslang_program_link(program, int(messages))) {
        fail(job, glslang_program_get_info_log(program));
    } else {
        glslang_spv_options_t options = {};
        options.disable_optimizer = job.request->optimize == 0;
        glslang_program_SPIRV_generate_with_options(program, input.stage, &options);
        size_t count = glslang_program_SPIRV_get_size(program);
        const unsigned int *words = glslang_program_SPIRV_get_ptr(program);
        if (count == 0 || !words) {
            const char *log = glslang_program_SPIRV_get_messages(program);
            fail(job, log && *log ? log : "glslang produced no SPIR-V");
        } else if (count > job.request->maximumWords) {
            job.status = SWIFTGPU_COMPILE_TOO_LARGE;
            job.detail = count;
        } else {
            job.words.assign(words, words + count);
            job.status = SWIFTGPU_COMPILE_SUCCEEDED;
        }
    }
    glslang_program_delete(program);
    glslang_shader_delete(shader);
}

void *compileThread(void *context) {
    Job &job = *static_cast<Job *>(context);
    stack_t alternate = {};
    alternate.ss_sp = job.alternateStack;
    alternate.ss_size = alternateStackSize;
    sigaltstack(&alternate, nullptr);
    compile(job);
    return nullptr;
}

// The address space the process has mapped now, in bytes.
uint64_t mappedBytes() {
    FILE *statm = fopen("/proc/self/statm", "re");
    if (!statm) return 0;
    unsigned long pages = 0;
    int found = fscanf(statm, "%lu", &pages);
    fclose(statm);
    return found == 1 ? uint64_t(pages) * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

// Runs one request's compile and answers it.
bool serve(const swiftgpu_compile_request &request, const char *preamble, const char *code) {
    uint64_t stackSize = request.stackSize < smallestStack ? smallestStack : request.stackSize;
    if (stackSize > largestStack) stackSize = largestStack;
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    stackSize = (stackSize + page - 1) / page * page;
    void *region = mmap(nullptr, guardSize + stackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *alternateStack = mmap(nullptr, alternateStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED || alternateStack == MAP_FAILED) {
        static const char message[] = "the compiler could not map its stack";
        return reply(SWIFTGPU_COMPILE_FAILED, 0, message, sizeof message - 1);
    }
    mprotect(region, guardSize, PROT_NONE);
    guardLow = reinterpret_cast<uintptr_t>(region);
    guardHigh = guardLow + guardSize;

    Job job;
    job.request = &request;
    job.preamble = preamble;
    job.code = code;
    job.alternateStack = alternateStack;

    // The compile's address space: what is mapped now, and the request's allowance.
    rlimit previous = {};
    getrlimit(RLIMIT_AS, &previous);
    rlimit bounded = previous;
    uint64_t allowed = mappedBytes() + request.memoryLimit;
    if (previous.rlim_max == RLIM_INFINITY || allowed < previous.rlim_max) bounded.rlim_cur = allowed;
    alarm(unsigned(request.secondsLimit > 86400 ? 86400 : request.secondsLimit + 1));
    setrlimit(RLIMIT_AS, &bounded);

    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstack(&attributes, static_cast<char *>(region) + guardSize, stackSize);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, compileThread, &job);
    pthread_attr_destroy(&attributes);
    if (started == 0) pthread_join(thread, nullptr);

    setrlimit(RLIMIT_AS, &previous);
    alarm(0);
    munmap(region, guardSize + stackSize);
    munmap(alternateStack, alternateStackSize);
    if (started != 0) {
        static const char message[] = "the compiler could not start its thread";
        return reply(SWIFTGPU_COMPILE_FAILED, 0, message, sizeof message - 1);
    }
    if (job.status == SWIFTGPU_COMPILE_SUCCEEDED) {
        return reply(job.status, 0, job.words.data(), job.words.size() * sizeof(uint32_t));
    }
    return reply(job.status, job.detail, job.log.data(), job.log.size());
}

[[noreturn]] void serveUntilClosed() {
    struct sigaction action = {};
    action.sa_sigaction = onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(signal, &action, nullptr);
    std::set_new_handler(onOutOfMemory);
    // One compile thread at a time: one heap arena, rather than a new thread's reserving
    // 64 MiB of address space the memory limit would count.
    mallopt(M_ARENA_MAX, 1);
    if (!glslang_initialize_process()) _exit(2);
    if (!reply(SWIFTGPU_COMPILE_SUCCEEDED, 0, nullptr, 0)) _exit(0);

    std::string preamble;
    std::string code;
    for (;;) {
        swiftgpu_compile_request request;
        if (!readAll(&request, sizeof request)) _exit(0);
        if (request.magic != SWIFTGPU_SHADER_COMPILER_MAGIC || request.codeLength > largestSource
            || request.preambleLength > largestSource) {
            _exit(3);
        }
        preamble.assign(request.preambleLength, '\0');
        code.assign(size_t(request.codeLength), '\0');
        if (!readAll(preamble.data(), preamble.size()) || !readAll(code.data(), code.size())) _exit(0);
        if (!serve(request, preamble.c_str(), code.c_str())) _exit(0);
    }
}

__attribute__((constructor)) void becomeCompilerWhenAsked() {
    const char *value = getenv(SWIFTGPU_SHADER_COMPILER_ENVIRONMENT);
    if (!value || strcmp(value, "1") != 0) return;
    serveUntilClosed();
}

} // namespace
