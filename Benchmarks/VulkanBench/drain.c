#include "vkbench.h"

#include <stdlib.h>

/// Passes measured per size (an odd count: the median is one of them).
#define DRAIN_REPETITIONS 15

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// The median of `count` values (an odd count), which it sorts.
static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(double), compareDoubles);
    return values[count / 2];
}

/// Submits `count` recorded command buffers in one VkSubmitInfo2 that signals `value`.
static void submitTogether(Context *context, const VkCommandBuffer *buffers, int count, VkSemaphore timeline,
                           uint64_t value) {
    VkCommandBufferSubmitInfo infos[256];
    for (int i = 0; i < count; i++)
        infos[i] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                               .commandBuffer = buffers[i]};
    VkSemaphoreSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                    .semaphore = timeline,
                                    .value = value,
                                    .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    VkSubmitInfo2 info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                          .commandBufferInfoCount = (uint32_t)count,
                          .pCommandBufferInfos = infos,
                          .signalSemaphoreInfoCount = 1,
                          .pSignalSemaphoreInfos = &signal};
    CHECK(vkQueueSubmit2(context->queue, 1, &info, VK_NULL_HANDLE));
}

/// B4's floor: what any drain must at least do, hand N already-recorded command buffers
/// (one-thread dispatches) to the queue, one vkQueueSubmit2 each, ordered by a timeline
/// semaphore; measured from the first submit to the last one's return. Raw Vulkan has no
/// lifecycle gate, so this is the cost a gate adds nothing to. Reported: the median of
/// DRAIN_REPETITIONS passes after one warm-up pass, as SwiftGPU's. Reported beside it
/// (variant "N together"): the same N command buffers in one VkSubmitInfo2, as SwiftGPU
/// submits a run released by one event value, the floor for a drain that groups them.
void benchDrain(Context *context) {
    Increment increment = incrementCreate(context);
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VkSemaphore timeline = timelineCreate(context);
    uint64_t value = 0;
    const int sizes[3] = {1, 16, 256};
    VkCommandBuffer buffers[256];

    for (int s = 0; s < 3; s++) {
        int count = sizes[s];
        VkCommandBufferAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                .commandPool = context->pool,
                                                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                                .commandBufferCount = (uint32_t)count};
        CHECK(vkAllocateCommandBuffers(context->device, &allocate, buffers));
        for (int i = 0; i < count; i++) {
            CHECK(vkBeginCommandBuffer(buffers[i], &begin));
            incrementRecord(context, &increment, buffers[i]);
            CHECK(vkEndCommandBuffer(buffers[i]));
        }
        double measured[DRAIN_REPETITIONS];
        *(uint32_t *)increment.counter.mapped = 0;
        for (int pass = 0; pass <= DRAIN_REPETITIONS; pass++) {   // pass 0 warms up
            uint64_t start = nowNanoseconds();
            for (int i = 0; i < count; i++) submit(context, buffers[i], timeline, ++value);
            if (pass > 0) measured[pass - 1] = (double)(nowNanoseconds() - start) / 1e6;
            timelineWait(context, timeline, value);
        }
        double together[DRAIN_REPETITIONS];
        for (int pass = 0; pass <= DRAIN_REPETITIONS; pass++) {   // pass 0 warms up
            uint64_t start = nowNanoseconds();
            submitTogether(context, buffers, count, timeline, ++value);
            if (pass > 0) together[pass - 1] = (double)(nowNanoseconds() - start) / 1e6;
            timelineWait(context, timeline, value);
        }
        uint32_t result = *(uint32_t *)increment.counter.mapped;
        uint32_t expected = 2u * (DRAIN_REPETITIONS + 1u) * (uint32_t)count;
        if (result != expected) wrongResult("B4 counter %u, expected %u", result, expected);
        printf("{\"impl\":\"%s\",\"bench\":\"B4\",\"variant\":\"%d\",\"ok\":true,\"drain_ms\":%.6g}\n", context->impl, count,
               median(measured, DRAIN_REPETITIONS));
        printf("{\"impl\":\"%s\",\"bench\":\"B4\",\"variant\":\"%d together\",\"ok\":true,\"drain_ms\":%.6g}\n", context->impl,
               count, median(together, DRAIN_REPETITIONS));
        vkFreeCommandBuffers(context->device, context->pool, (uint32_t)count, buffers);
    }

    vkDestroySemaphore(context->device, timeline, NULL);
    incrementDestroy(context, &increment);
}
