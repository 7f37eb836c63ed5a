#include <pthread.h>
#include <string.h>

#include "vkbench.h"

enum { MAX_THREADS = 16 };

/// One recording thread's share of B5: a command pool of its own (pools are externally
/// synchronised), a secondary command buffer continuing the primary's rendering, and the
/// range of draws it records.
typedef struct {
    Context *context;
    DrawScene *scene;
    VkPipelineLayout layout;
    VkCommandPool pool;
    SwiftGPUCommandMemory *memory;
    VkAllocationCallbacks allocator;
    VkCommandBuffer commandBuffer;
    int first, count;
} Share;

/// Records a share's draws as B2 records them (push-constant variant) into its secondary
/// command buffer.
static void *recordShare(void *argument) {
    Share *share = argument;
    CHECK(vkResetCommandPool(share->context->device, share->pool, 0));
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkCommandBufferInheritanceRenderingInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
        .colorAttachmentCount = 1,
        .pColorAttachmentFormats = &format,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkCommandBufferInheritanceInfo inheritance = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, .pNext = &rendering};
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT | VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
        .pInheritanceInfo = &inheritance};
    VkCommandBuffer commandBuffer = share->commandBuffer;
    CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, share->scene->pipeline);
    VkViewport viewport = {0, 0, SCENE_SIZE, SCENE_SIZE, 0, 1};
    VkRect2D scissor = {{0, 0}, {SCENE_SIZE, SCENE_SIZE}};
    vkCmdSetViewport(commandBuffer, 0, 1, &viewport);
    vkCmdSetScissor(commandBuffer, 0, 1, &scissor);
    for (int i = share->first; i < share->first + share->count; i++) {
        float color[4];
        drawColor(i, color);
        VkDeviceSize vertexOffset = (VkDeviceSize)(i % SCENE_CELLS) * 24;
        vkCmdBindVertexBuffers(commandBuffer, 0, 1, &share->scene->vertices.buffer, &vertexOffset);
        vkCmdPushConstants(commandBuffer, share->layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, color);
        vkCmdDraw(commandBuffer, 3, 1, 0, 0);
    }
    CHECK(vkEndCommandBuffer(commandBuffer));
    return NULL;
}

/// B5: B2's N draws (push-constant variant) in one render pass, split into `threads`
/// consecutive shares recorded at once into secondary command buffers, one per thread
/// (the calling thread records the first), executed in order by the primary. Reports the
/// wall time of encoding + submission, and the total with the GPU.
void benchParallelEncoding(Context *context, int draws, int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "vulkan-bench: --threads must be 1...%d\n", MAX_THREADS);
        exit(64);
    }
    VkPipelineLayout layout = pushConstantLayoutCreate(context);
    DrawScene scene = drawSceneCreate(context, layout, "bench_push.frag");
    Share shares[MAX_THREADS];
    VkCommandBuffer secondaries[MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        Share *share = &shares[t];
        *share = (Share){.context = context, .scene = &scene, .layout = layout,
                         .first = (int)((long)draws * t / threads)};
        share->count = (int)((long)draws * (t + 1) / threads) - share->first;
        VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT};
        share->memory = poolMemoryCreate();
        CHECK(vkCreateCommandPool(context->device, &pool, poolCallbacks(context, share->memory, &share->allocator), &share->pool));
        VkCommandBufferAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                .commandPool = share->pool,
                                                .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                                .commandBufferCount = 1};
        CHECK(vkAllocateCommandBuffers(context->device, &allocate, &share->commandBuffer));
        secondaries[t] = share->commandBuffer;
    }
    VkCommandBuffer primary = commandBufferAllocate(context);
    VkSemaphore timeline = timelineCreate(context);
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkRenderingAttachmentInfo attachment = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                            .imageView = scene.target.view,
                                            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                            .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo rendering = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                                 .flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT,
                                 .renderArea = {{0, 0}, {SCENE_SIZE, SCENE_SIZE}},
                                 .layerCount = 1,
                                 .colorAttachmentCount = 1,
                                 .pColorAttachments = &attachment};

    uint64_t cpu = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up
        uint64_t start = nowNanoseconds();
        CHECK(vkResetCommandBuffer(primary, 0));
        CHECK(vkBeginCommandBuffer(primary, &begin));
        imageBarrier(primary, scene.target.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        vkCmdBeginRendering(primary, &rendering);
        pthread_t workers[MAX_THREADS];
        for (int t = 1; t < threads; t++) {
            if (pthread_create(&workers[t], NULL, recordShare, &shares[t]) != 0) {
                fprintf(stderr, "vulkan-bench: pthread_create failed\n");
                exit(1);
            }
        }
        recordShare(&shares[0]);
        for (int t = 1; t < threads; t++) pthread_join(workers[t], NULL);
        vkCmdExecuteCommands(primary, (uint32_t)threads, secondaries);
        drawSceneFinish(context, &scene, primary, timeline, (uint64_t)pass + 1, draws, start, &cpu, &total);
    }
    printf("{\"impl\":\"%s\",\"bench\":\"B5\",\"variant\":\"%d\",\"ok\":true,\"cpu_ms\":%.6g,\"cpu_ns_per_draw\":%.6g,"
           "\"total_ms\":%.6g}\n", context->impl, threads, (double)cpu / 1e6, (double)cpu / draws, (double)total / 1e6);

    vkDestroySemaphore(context->device, timeline, NULL);
    vkFreeCommandBuffers(context->device, context->pool, 1, &primary);
    for (int t = 0; t < threads; t++) {
        vkDestroyCommandPool(context->device, shares[t].pool, poolCallbacks(context, shares[t].memory, &shares[t].allocator));
        swiftgpu_command_memory_destroy(shares[t].memory);
    }
    drawSceneDestroy(context, &scene);
    vkDestroyPipelineLayout(context->device, layout, NULL);
}
