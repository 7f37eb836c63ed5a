#include <string.h>

#include "vkbench.h"

enum { SIZE = 256 };

/// The B3 scene (as SwiftGPUBench's FrameScene): texel (x, y) is (x, y, x ^ y, 255), drawn
/// by one full-target triangle with a nearest sampler, so every pixel equals its texel.
static void checkFrame(const uint8_t *pixels, int frame, int full) {
    for (int i = 0; i < (full ? SIZE * SIZE : 2 * SIZE); i++) {
        int x = i % SIZE, y = full ? i / SIZE : (i < SIZE ? i : (frame * 7) % SIZE);
        const uint8_t *p = pixels + (y * SIZE + x) * 4;
        if (p[0] != (uint8_t)x || p[1] != (uint8_t)y || p[2] != (uint8_t)(x ^ y) || p[3] != 255)
            wrongResult("B3 frame %d pixel %d,%d", frame, x, y);
    }
}

static void recordUpload(VkCommandBuffer commandBuffer, HostBuffer *staging, Image *image) {
    imageBarrier(commandBuffer, image->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {SIZE, SIZE, 1}};
    vkCmdCopyBufferToImage(commandBuffer, staging->buffer, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    imageBarrier(commandBuffer, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

/// B3's scene: N frames of a 256×256 textured quad rendered and read back, each frame
/// waiting for its pixels; one command buffer re-recorded per frame, push descriptors.
/// With `processStart` (B7) one frame and no warm-up, reported as the time from
/// `processStart` to that frame's completion; else (B3) ten warm-up frames, then N.
static void renderFrames(Context *context, int frames, uint64_t processStart) {
    VkDescriptorSetLayoutBinding bindings[2] = {
        {96, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {112, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    VkDescriptorSetLayout setLayout;
    VkPipelineLayout layout = pushLayoutCreate(context, bindings, 2, &setLayout);
    VkPipeline pipeline = renderPipelineCreate(context, layout, "textured.vert", "textured.frag", 16, 2);

    float triangle[12] = {-1, -1, 0, 0, 3, -1, 2, 0, -1, 3, 0, 2};
    HostBuffer vertices = hostBufferCreate(context, sizeof triangle, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    memcpy(vertices.mapped, triangle, sizeof triangle);
    HostBuffer staging = hostBufferCreate(context, SIZE * SIZE * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    uint8_t *texels = staging.mapped;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            uint8_t *t = texels + (y * SIZE + x) * 4;
            t[0] = (uint8_t)x, t[1] = (uint8_t)y, t[2] = (uint8_t)(x ^ y), t[3] = 255;
        }
    Image image = imageCreate(context, SIZE, SIZE, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    Image target = imageCreate(context, SIZE, SIZE, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    HostBuffer readback = hostBufferCreate(context, SIZE * SIZE * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkSamplerCreateInfo samplerInfo = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                       .magFilter = VK_FILTER_NEAREST,
                                       .minFilter = VK_FILTER_NEAREST,
                                       .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                       .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                       .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                       .maxLod = 0.25f};
    VkSampler sampler;
    CHECK(vkCreateSampler(context->device, &samplerInfo, NULL, &sampler));

    VkCommandBuffer commandBuffer = commandBufferAllocate(context);
    VkSemaphore timeline = timelineCreate(context);
    uint64_t value = 0;
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
    recordUpload(commandBuffer, &staging, &image);
    CHECK(vkEndCommandBuffer(commandBuffer));
    submit(context, commandBuffer, timeline, ++value);
    timelineWait(context, timeline, value);

    VkDescriptorImageInfo imageInfo = {.imageView = image.view, .imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorImageInfo samplerDescriptor = {.sampler = sampler};
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 96, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &imageInfo},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 112, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER, .pImageInfo = &samplerDescriptor}};
    VkDeviceSize zero = 0;

    uint64_t start = 0;
    for (int frame = processStart ? 0 : -10; frame < frames; frame++) {
        if (frame == 0) start = nowNanoseconds();
        CHECK(vkResetCommandBuffer(commandBuffer, 0));
        CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
        renderBegin(commandBuffer, &target, SIZE, pipeline);
        vkCmdBindVertexBuffers(commandBuffer, 0, 1, &vertices.buffer, &zero);
        context->pushDescriptorSet(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, writes);
        vkCmdDraw(commandBuffer, 3, 1, 0, 0);
        renderEndAndRead(commandBuffer, &target, SIZE, &readback);
        CHECK(vkEndCommandBuffer(commandBuffer));
        submit(context, commandBuffer, timeline, ++value);
        timelineWait(context, timeline, value);
        checkFrame(readback.mapped, frame < 0 ? 0 : frame, frame == -10 || frame == frames - 1);
    }
    if (processStart) {
        printf("{\"impl\":\"%s\",\"bench\":\"B7\",\"variant\":\"\",\"ok\":true,\"first_frame_ms\":%.6g}\n", context->impl,
               (double)(nowNanoseconds() - processStart) / 1e6);
    } else {
        double seconds = (double)(nowNanoseconds() - start) / 1e9;
        printf("{\"impl\":\"%s\",\"bench\":\"B3\",\"variant\":\"\",\"ok\":true,\"fps\":%.6g,\"peak_rss_mib\":%.6g}\n", context->impl,
               frames / seconds, peakResidentMiB());
    }

    vkDestroySemaphore(context->device, timeline, NULL);
    vkFreeCommandBuffers(context->device, context->pool, 1, &commandBuffer);
    vkDestroySampler(context->device, sampler, NULL);
    hostBufferDestroy(context, &readback);
    imageDestroy(context, &target);
    imageDestroy(context, &image);
    hostBufferDestroy(context, &staging);
    hostBufferDestroy(context, &vertices);
    vkDestroyPipeline(context->device, pipeline, NULL);
    vkDestroyPipelineLayout(context->device, layout, NULL);
    vkDestroyDescriptorSetLayout(context->device, setLayout, NULL);
}

void benchFrameLoop(Context *context, int frames) { renderFrames(context, frames, 0); }

/// B7: from `processStart` (the parent's clock reading just before it started this
/// process) to the first completed frame of B3's scene, the pipeline made through a
/// pipeline cache read from and saved to `cacheDirectory`, as an app keeps one.
void benchFirstFrame(Context *context, uint64_t processStart, const char *cacheDirectory) {
    char path[1024];
    snprintf(path, sizeof path, "%s/vulkan-bench.pipeline-cache", cacheDirectory);
    void *data = NULL;
    size_t size = 0;
    FILE *file = fopen(path, "rb");
    if (file) {
        fseek(file, 0, SEEK_END);
        size = (size_t)ftell(file);
        fseek(file, 0, SEEK_SET);
        data = malloc(size);
        if (fread(data, 1, size, file) != size) size = 0;
        fclose(file);
    }
    VkPipelineCacheCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, .initialDataSize = size, .pInitialData = data};
    CHECK(vkCreatePipelineCache(context->device, &info, NULL, &context->pipelineCache));
    free(data);
    renderFrames(context, 1, processStart);
    CHECK(vkGetPipelineCacheData(context->device, context->pipelineCache, &size, NULL));
    data = malloc(size);
    CHECK(vkGetPipelineCacheData(context->device, context->pipelineCache, &size, data));
    file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size) {
        fprintf(stderr, "vulkan-bench: cannot write %s\n", path);
        exit(1);
    }
    fclose(file);
    free(data);
    vkDestroyPipelineCache(context->device, context->pipelineCache, NULL);
    context->pipelineCache = VK_NULL_HANDLE;
}
