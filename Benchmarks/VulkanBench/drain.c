#include "vkbench.h"

/// B4's floor: what any drain must at least do, hand N already-recorded command buffers
/// (one-thread dispatches) to the queue, one vkQueueSubmit2 each, ordered by a timeline
/// semaphore; measured from the first submit to the last one's return. Raw Vulkan has no
/// lifecycle gate, so this is the cost a gate adds nothing to.
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
        double milliseconds = 0;
        *(uint32_t *)increment.counter.mapped = 0;
        for (int pass = 0; pass < 2; pass++) {   // the first pass warms up; the second is reported
            uint64_t start = nowNanoseconds();
            for (int i = 0; i < count; i++) submit(context, buffers[i], timeline, ++value);
            milliseconds = (double)(nowNanoseconds() - start) / 1e6;
            timelineWait(context, timeline, value);
        }
        uint32_t result = *(uint32_t *)increment.counter.mapped;
        if (result != 2u * (uint32_t)count) wrongResult("B4 counter %u, expected %d", result, 2 * count);
        printf("{\"impl\":\"vulkan-c\",\"bench\":\"B4\",\"variant\":\"%d\",\"ok\":true,\"drain_ms\":%.6g}\n", count,
               milliseconds);
        vkFreeCommandBuffers(context->device, context->pool, (uint32_t)count, buffers);
    }

    vkDestroySemaphore(context->device, timeline, NULL);
    incrementDestroy(context, &increment);
}
