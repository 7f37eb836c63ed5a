#include "vkbench.h"

enum { RING = 64 };   // command buffers in flight, as SwiftGPU's default maxCommandBufferCount

/// B1: N command buffers, each one one-thread dispatch adding 1 to a counter; one submit
/// per buffer, ordered only by a timeline semaphore; a ring of 64 recycled command buffers.
void benchSubmission(Context *context, int buffers) {
    Increment increment = incrementCreate(context);
    VkCommandBuffer ring[RING];
    VkCommandBufferAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                            .commandPool = context->pool,
                                            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                            .commandBufferCount = RING};
    CHECK(vkAllocateCommandBuffers(context->device, &allocate, ring));
    VkSemaphore timeline = timelineCreate(context);
    uint64_t value = 0;
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};

    uint64_t nanoseconds = 0, mallocs = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up with 1,000 buffers
        int count = pass == 0 ? 1000 : buffers;
        *(uint32_t *)increment.counter.mapped = 0;
        uint64_t mallocsBefore = mallocCount(), start = nowNanoseconds();
        for (int i = 0; i < count; i++) {
            VkCommandBuffer commandBuffer = ring[value % RING];
            if (value >= RING) timelineWait(context, timeline, value - RING + 1);
            CHECK(vkResetCommandBuffer(commandBuffer, 0));
            CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
            incrementRecord(context, &increment, commandBuffer);
            CHECK(vkEndCommandBuffer(commandBuffer));
            value += 1;
            submit(context, commandBuffer, timeline, value);
        }
        timelineWait(context, timeline, value);
        nanoseconds = nowNanoseconds() - start;
        mallocs = mallocCount() - mallocsBefore;
        uint32_t result = *(uint32_t *)increment.counter.mapped;
        if (result != (uint32_t)count) wrongResult("B1 counter %u, expected %d", result, count);
    }
    printf("{\"impl\":\"%s\",\"bench\":\"B1\",\"variant\":\"\",\"ok\":true,\"us_per_buffer\":%.6g", context->impl,
           (double)nanoseconds / 1e3 / buffers);
    if (mallocCount()) printf(",\"mallocs_per_buffer\":%.6g", (double)mallocs / buffers);
    printf("}\n");

    vkDestroySemaphore(context->device, timeline, NULL);
    vkFreeCommandBuffers(context->device, context->pool, RING, ring);
    incrementDestroy(context, &increment);
}
