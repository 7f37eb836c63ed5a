#include <string.h>

#include "vkbench.h"

/// B6: a compute pass writes N draws' indirect arguments (triangle i % 1,024 of B2's scene)
/// into a buffer the host zeroed, a barrier makes them visible to indirect reads, and one
/// render pass makes N indirect draws, each with 16 bytes of fragment push constants. Reports
/// the CPU time of encoding + submission per draw, and the total with the GPU.
void benchIndirect(Context *context, int draws) {
    VkPipelineLayout layout = pushConstantLayoutCreate(context);
    DrawScene scene = drawSceneCreate(context, layout, "bench_push.frag");
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayout setLayout;
    VkPipelineLayout computeLayout = pushLayoutCreate(context, &binding, 1, &setLayout);
    VkShaderModule module = shaderLoad(context, "indirect_args.comp");
    VkComputePipelineCreateInfo pipelineInfo = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = computeLayout};
    VkPipeline compute;
    CHECK(vkCreateComputePipelines(context->device, VK_NULL_HANDLE, 1, &pipelineInfo, NULL, &compute));
    vkDestroyShaderModule(context->device, module, NULL);
    VkDeviceSize size = (VkDeviceSize)draws * sizeof(VkDrawIndirectCommand);
    HostBuffer arguments = hostBufferCreate(context, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    VkDescriptorBufferInfo argumentsInfo = {arguments.buffer, 0, size};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &argumentsInfo};
    VkMemoryBarrier2 written = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                .dstStageMask = VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                                .dstAccessMask = VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &written};

    VkCommandBuffer commandBuffer = commandBufferAllocate(context);
    VkSemaphore timeline = timelineCreate(context);
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkDeviceSize zero = 0;
    uint64_t cpu = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up
        memset(arguments.mapped, 0, size);
        uint64_t start = nowNanoseconds();
        CHECK(vkResetCommandBuffer(commandBuffer, 0));
        CHECK(vkBeginCommandBuffer(commandBuffer, &begin));
        vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, compute);
        context->pushDescriptorSet(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, computeLayout, 0, 1, &write);
        vkCmdDispatch(commandBuffer, ((uint32_t)draws + 63) / 64, 1, 1);
        vkCmdPipelineBarrier2(commandBuffer, &dependency);
        renderBegin(commandBuffer, &scene.target, SCENE_SIZE, scene.pipeline);
        vkCmdBindVertexBuffers(commandBuffer, 0, 1, &scene.vertices.buffer, &zero);
        for (int i = 0; i < draws; i++) {
            float color[4];
            drawColor(i, color);
            vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, color);
            vkCmdDrawIndirect(commandBuffer, arguments.buffer, (VkDeviceSize)i * sizeof(VkDrawIndirectCommand), 1, 0);
        }
        drawSceneFinish(context, &scene, commandBuffer, timeline, (uint64_t)pass + 1, draws, start, &cpu, &total);
    }
    printf("{\"impl\":\"%s\",\"bench\":\"B6\",\"variant\":\"\",\"ok\":true,\"cpu_ns_per_draw\":%.6g,\"total_ms\":%.6g}\n", context->impl,
           (double)cpu / draws, (double)total / 1e6);

    vkDestroySemaphore(context->device, timeline, NULL);
    vkFreeCommandBuffers(context->device, context->pool, 1, &commandBuffer);
    hostBufferDestroy(context, &arguments);
    vkDestroyPipeline(context->device, compute, NULL);
    vkDestroyPipelineLayout(context->device, computeLayout, NULL);
    vkDestroyDescriptorSetLayout(context->device, setLayout, NULL);
    drawSceneDestroy(context, &scene);
    vkDestroyPipelineLayout(context->device, layout, NULL);
}
