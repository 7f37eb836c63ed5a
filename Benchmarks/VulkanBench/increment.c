#include "vkbench.h"

VkPipelineLayout pushLayoutCreate(Context *context, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                                  VkDescriptorSetLayout *setLayout) {
    VkDescriptorSetLayoutCreateInfo setInfo = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                               .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                               .bindingCount = count,
                                               .pBindings = bindings};
    CHECK(vkCreateDescriptorSetLayout(context->device, &setInfo, NULL, setLayout));
    VkPipelineLayoutCreateInfo layoutInfo = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = setLayout};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(context->device, &layoutInfo, NULL, &layout));
    return layout;
}

Increment incrementCreate(Context *context) {
    Increment result;
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    result.layout = pushLayoutCreate(context, bindings, 2, &result.setLayout);
    VkShaderModule module = shaderLoad(context, "increment.comp");
    VkComputePipelineCreateInfo pipelineInfo = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = result.layout};
    CHECK(vkCreateComputePipelines(context->device, VK_NULL_HANDLE, 1, &pipelineInfo, NULL, &result.pipeline));
    vkDestroyShaderModule(context->device, module, NULL);
    result.counter = hostBufferCreate(context, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    result.params = hostBufferCreate(context, 4, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    *(uint32_t *)result.params.mapped = 1;
    result.counterInfo = (VkDescriptorBufferInfo){result.counter.buffer, 0, 4};
    result.paramsInfo = (VkDescriptorBufferInfo){result.params.buffer, 0, 4};
    return result;
}

void incrementRecord(Context *context, Increment *increment, VkCommandBuffer commandBuffer) {
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &increment->counterInfo},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 3, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &increment->paramsInfo}};
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, increment->pipeline);
    context->pushDescriptorSet(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, increment->layout, 0, 2, writes);
    vkCmdDispatch(commandBuffer, 1, 1, 1);
    // Orders this buffer's atomic add before the next buffers' and makes it visible to the
    // host once the buffer completes (the one barrier SwiftGPU records at each buffer's end).
    VkMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                                .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                                 VK_ACCESS_2_HOST_READ_BIT};
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(commandBuffer, &dependency);
}

void incrementDestroy(Context *context, Increment *increment) {
    hostBufferDestroy(context, &increment->counter);
    hostBufferDestroy(context, &increment->params);
    vkDestroyPipeline(context->device, increment->pipeline, NULL);
    vkDestroyPipelineLayout(context->device, increment->layout, NULL);
    vkDestroyDescriptorSetLayout(context->device, increment->setLayout, NULL);
}
