// VulkanBench: the raw-Vulkan C baseline of Benchmarks B1–B4 (see BENCHMARKS.md).
//
//     VulkanBench --spirv DIR --bench B1|B2|B3|B4 [--variant push-descriptor|dynamic-offset|push-constant] [--count N] [--validate]
//
// --count sets B1's number of buffers or B2's number of draws (for profiling).
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
    Context context;
    contextCreate(&context, validate);
    context.spirvDirectory = option(argc, argv, "--spirv", ".");
    if (strcmp(bench, "B1") == 0) benchSubmission(&context, atoi(option(argc, argv, "--count", "10000")));
    else if (strcmp(bench, "B2") == 0) benchEncoding(&context, atoi(option(argc, argv, "--count", "100000")),
                                                          option(argc, argv, "--variant", "push-constant"));
    else if (strcmp(bench, "B3") == 0) benchFrameLoop(&context, 1000);
    else if (strcmp(bench, "B4") == 0) benchDrain(&context);
    else {
        fprintf(stderr, "usage: VulkanBench --spirv DIR --bench B1|B2|B3|B4 [--variant V] [--count N] [--validate]\n");
        return 64;
    }
    contextDestroy(&context);
    return 0;
}
