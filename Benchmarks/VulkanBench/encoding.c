#include <string.h>

#include "vkbench.h"

void drawColor(int i, float color[4]) {
    color[0] = (float)(i & 255) / 255, color[1] = (float)((i >> 8) & 255) / 255;
    color[2] = (float)((i >> 16) & 255) / 255, color[3] = 1;
}

/// The top-left pixel of every cell has the colour of the last draw that covered it, or the
/// clear colour (0, 0, 0, 0) where no draw did. Every cell is read whatever the count, so
/// that the check costs the same at every size (the cost curves subtract one size's
/// instructions from another's).
void drawSceneCheck(const uint8_t *pixels, int draws) {
    for (int cell = 0; cell < SCENE_CELLS; cell++) {
        int last = cell + (draws - 1 - cell) / SCENE_CELLS * SCENE_CELLS;
        const uint8_t *p = pixels + ((cell / 32) * 2 * SCENE_SIZE + (cell % 32) * 2) * 4;
        // The colour is worked out for every cell and scaled by 0 for the cells not drawn
        // (a branch would let the compiler skip it for those), so each costs the same.
        int drawn = cell < draws;
        uint8_t expected[4] = {(uint8_t)((last & 255) * drawn), (uint8_t)(((last >> 8) & 255) * drawn),
                               (uint8_t)(((last >> 16) & 255) * drawn), (uint8_t)(255 * drawn)};
        if (memcmp(p, expected, 4) != 0) wrongResult("cell %d: expected %s", cell, cell < draws ? "its last draw" : "the clear colour");
    }
}

DrawScene drawSceneCreate(Context *context, VkPipelineLayout layout, const char *fragment) {
    DrawScene scene = {.pipeline = renderPipelineCreate(context, layout, "bench.vert", fragment, 8, 1)};
    scene.vertices = hostBufferCreate(context, SCENE_CELLS * 24, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    float *v = scene.vertices.mapped;
    for (int cell = 0; cell < SCENE_CELLS; cell++) {
        float x = (float)(2 * (cell % 32)) / 32 - 1, y = (float)(2 * (cell / 32)) / 32 - 1;
        float triangle[6] = {x, y, x + 2.0f / 32, y, x, y + 2.0f / 32};
        memcpy(v + cell * 6, triangle, sizeof triangle);
    }
    scene.readback = hostBufferCreate(context, SCENE_SIZE * SCENE_SIZE * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    scene.target = imageCreate(context, SCENE_SIZE, SCENE_SIZE, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    return scene;
}

void drawSceneDestroy(Context *context, DrawScene *scene) {
    imageDestroy(context, &scene->target);
    hostBufferDestroy(context, &scene->readback);
    hostBufferDestroy(context, &scene->vertices);
    vkDestroyPipeline(context->device, scene->pipeline, NULL);
}

void drawSceneFinish(Context *context, DrawScene *scene, VkCommandBuffer commandBuffer, VkSemaphore timeline, uint64_t value,
                     int draws, uint64_t start, uint64_t *cpu, uint64_t *total) {
    renderEndAndRead(commandBuffer, &scene->target, SCENE_SIZE, &scene->readback);
    CHECK(vkEndCommandBuffer(commandBuffer));
    submit(context, commandBuffer, timeline, value);
    *cpu = nowNanoseconds() - start;
    timelineWait(context, timeline, value);
    *total = nowNanoseconds() - start;
    drawSceneCheck(scene->readback.mapped, draws);
}

VkPipelineLayout pushConstantLayoutCreate(Context *context) {
    VkPushConstantRange range = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .pushConstantRangeCount = 1, .pPushConstantRanges = &range};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(context->device, &info, NULL, &layout));
    return layout;
}

typedef enum { PUSH_DESCRIPTOR, DYNAMIC_OFFSET, PUSH_CONSTANT, FIRST_VERTEX } Variant;

/// B2: one render pass of N three-vertex draws, each changing the vertex-buffer offset and
/// 16 bytes of fragment data, given by `variant`: "push-descriptor" (16 bytes written to a
/// mapped ring, bound with vkCmdPushDescriptorSetKHR), "dynamic-offset" (one set with a
/// dynamic uniform buffer, rebound with a new offset), "push-constant", or "first-vertex"
/// (push constants, and the vertex buffer bound once: each draw starts at its triangle's
/// first vertex instead of rebinding the buffer at the triangle's offset).
void benchEncoding(Context *context, int draws, const char *name) {
    Variant variant = strcmp(name, "push-descriptor") == 0 ? PUSH_DESCRIPTOR
                      : strcmp(name, "dynamic-offset") == 0 ? DYNAMIC_OFFSET
                      : strcmp(name, "push-constant") == 0 ? PUSH_CONSTANT
                      : strcmp(name, "first-vertex") == 0 ? FIRST_VERTEX
                      : (fprintf(stderr, "vulkan-bench: unknown B2 variant %s\n", name), exit(64), PUSH_CONSTANT);
    VkDescriptorSetLayoutBinding binding = {
        64, variant == DYNAMIC_OFFSET ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
        VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo setInfo = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = variant == PUSH_DESCRIPTOR ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0,
        .bindingCount = 1,
        .pBindings = &binding};
    VkDescriptorSetLayout setLayout;
    CHECK(vkCreateDescriptorSetLayout(context->device, &setInfo, NULL, &setLayout));
    VkPushConstantRange range = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
    int pushes = variant == PUSH_CONSTANT || variant == FIRST_VERTEX;
    VkPipelineLayoutCreateInfo layoutInfo = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                             .setLayoutCount = pushes ? 0 : 1,
                                             .pSetLayouts = &setLayout,
                                             .pushConstantRangeCount = pushes ? 1 : 0,
                                             .pPushConstantRanges = &range};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(context->device, &layoutInfo, NULL, &layout));
    DrawScene scene = drawSceneCreate(context, layout, pushes ? "bench_push.frag" : "bench.frag");
    VkDeviceSize stride = context->limits.minUniformBufferOffsetAlignment > 16 ? context->limits.minUniformBufferOffsetAlignment : 16;
    HostBuffer uniforms = hostBufferCreate(context, stride * (VkDeviceSize)draws, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);

    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (variant == DYNAMIC_OFFSET) {
        VkDescriptorPoolSize poolSize = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1};
        VkDescriptorPoolCreateInfo poolInfo = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &poolSize};
        CHECK(vkCreateDescriptorPool(context->device, &poolInfo, NULL, &descriptorPool));
        VkDescriptorSetAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                                .descriptorPool = descriptorPool,
                                                .descriptorSetCount = 1,
                                                .pSetLayouts = &setLayout};
        CHECK(vkAllocateDescriptorSets(context->device, &allocate, &set));
        VkDescriptorBufferInfo info = {uniforms.buffer, 0, 16};
        VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 64,
                                      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                      .pBufferInfo = &info};
        vkUpdateDescriptorSets(context->device, 1, &write, 0, NULL);
    }

    VkCommandBuffer commandBuffer = commandBufferAllocate(context);
    VkSemaphore timeline = timelineCreate(context);
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};

    uint64_t cpu = 0, total = 0, mallocs = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up
        uint64_t mallocsBefore = mallocCount(), start = nowNanoseconds();
        CHECK(vkResetCommandBuffer(commandBuffer, 0));
        CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
        renderBegin(commandBuffer, &scene.target, SCENE_SIZE, scene.pipeline);
        if (variant == FIRST_VERTEX) {
            VkDeviceSize zero = 0;
            vkCmdBindVertexBuffers(commandBuffer, 0, 1, &scene.vertices.buffer, &zero);
        }
        for (int i = 0; i < draws; i++) {
            float color[4];
            drawColor(i, color);
            if (variant == FIRST_VERTEX) {
                vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, color);
                vkCmdDraw(commandBuffer, 3, 1, (uint32_t)(i % SCENE_CELLS) * 3, 0);
                continue;
            }
            VkDeviceSize vertexOffset = (VkDeviceSize)(i % SCENE_CELLS) * 24;
            vkCmdBindVertexBuffers(commandBuffer, 0, 1, &scene.vertices.buffer, &vertexOffset);
            if (variant == PUSH_CONSTANT) {
                vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, color);
            } else {
                VkDeviceSize offset = stride * (VkDeviceSize)i;
                memcpy((char *)uniforms.mapped + offset, color, 16);
                if (variant == PUSH_DESCRIPTOR) {
                    VkDescriptorBufferInfo info = {uniforms.buffer, offset, 16};
                    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 64,
                                                  .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                  .pBufferInfo = &info};
                    context->pushDescriptorSet(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &write);
                } else {
                    uint32_t dynamicOffset = (uint32_t)offset;
                    vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 1, &dynamicOffset);
                }
            }
            vkCmdDraw(commandBuffer, 3, 1, 0, 0);
        }
        renderEndAndRead(commandBuffer, &scene.target, SCENE_SIZE, &scene.readback);
        CHECK(vkEndCommandBuffer(commandBuffer));
        submit(context, commandBuffer, timeline, (uint64_t)pass + 1);
        cpu = nowNanoseconds() - start;
        mallocs = mallocCount() - mallocsBefore;
        timelineWait(context, timeline, (uint64_t)pass + 1);
        total = nowNanoseconds() - start;
        drawSceneCheck(scene.readback.mapped, draws);
    }
    printf("{\"impl\":\"%s\",\"bench\":\"B2\",\"variant\":\"%s\",\"ok\":true,\"cpu_ns_per_draw\":%.6g,\"total_ms\":%.6g", context->impl,
           name, (double)cpu / draws, (double)total / 1e6);
    if (mallocCount()) printf(",\"mallocs_per_draw\":%.6g", (double)mallocs / draws);
    printf("}\n");

    vkDestroySemaphore(context->device, timeline, NULL);
    vkFreeCommandBuffers(context->device, context->pool, 1, &commandBuffer);
    if (descriptorPool) vkDestroyDescriptorPool(context->device, descriptorPool, NULL);
    hostBufferDestroy(context, &uniforms);
    drawSceneDestroy(context, &scene);
    vkDestroyPipelineLayout(context->device, layout, NULL);
    vkDestroyDescriptorSetLayout(context->device, setLayout, NULL);
}
