// VulkanBench: the raw-Vulkan C baseline of Benchmarks B1–B7 (see BENCHMARKS.md).
//
//     VulkanBench --spirv DIR --bench B1|B2|B3|B4|B5|B6|B7 [--variant push-descriptor|dynamic-offset|push-constant|first-vertex]
//                 [--count N] [--threads T] [--start NS --cache DIR] [--allocator command-memory|glibc] [--validate]
//
// --count sets the number of buffers (B1) or draws (B2, B5, B6); --threads B5's recording
// threads; --start the CLOCK_MONOTONIC nanoseconds at which B7's process was started and
// --cache the folder of B7's pipeline cache. --allocator says where command pools record:
// "command-memory" (the default: SwiftGPU's command-pool allocator, CCommandMemory, so that
// both sides pay the same for the driver's per-command allocations and the ratio is the
// API's own cost) or "glibc" (the driver's default, malloc; reported as implementation
// "vulkan-c-glibc").
//
// Each invocation makes one measured run after a warm-up, checks its result (exit 2 when
// wrong) and prints one JSON line. --validate turns on VK_LAYER_KHRONOS_validation and
// fails (exit 3) on any message.
#include <string.h>

#include "vkbench.h"

static const char *option(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

int main(int argc, char **argv) {
    const char *bench = option(argc, argv, "--bench", "");
    int validate = 0;
    for (int i = 1; i < argc; i++) validate |= strcmp(argv[i], "--validate") == 0;
    const char *allocator = option(argc, argv, "--allocator", "command-memory");
    if (strcmp(allocator, "command-memory") != 0 && strcmp(allocator, "glibc") != 0) {
        fprintf(stderr, "vulkan-bench: --allocator must be command-memory or glibc, not %s\n", allocator);
        return 64;
    }
    Context context;
    contextCreate(&context, validate, strcmp(allocator, "command-memory") == 0);
    context.spirvDirectory = option(argc, argv, "--spirv", ".");
    if (strcmp(bench, "B1") == 0) benchSubmission(&context, atoi(option(argc, argv, "--count", "10000")));
    else if (strcmp(bench, "B2") == 0) benchEncoding(&context, atoi(option(argc, argv, "--count", "100000")),
                                                          option(argc, argv, "--variant", "push-constant"));
    else if (strcmp(bench, "B3") == 0) benchFrameLoop(&context, 1000);
    else if (strcmp(bench, "B4") == 0) benchDrain(&context);
    else if (strcmp(bench, "B5") == 0) benchParallelEncoding(&context, atoi(option(argc, argv, "--count", "100000")),
                                                                atoi(option(argc, argv, "--threads", "1")));
    else if (strcmp(bench, "B6") == 0) benchIndirect(&context, atoi(option(argc, argv, "--count", "10000")));
    else if (strcmp(bench, "B7") == 0) benchFirstFrame(&context, option(argc, argv, "--start", NULL) ? strtoull(option(argc, argv, "--start", NULL), NULL, 10) : nowNanoseconds(),
                                                          option(argc, argv, "--cache", "."));
    else {
        fprintf(stderr, "usage: VulkanBench --spirv DIR --bench B1|...|B7 [--variant V] [--count N] [--threads T] [--start NS --cache DIR] [--allocator command-memory|glibc] [--validate]\n");
        return 64;
    }
    contextDestroy(&context);
    return 0;
}
