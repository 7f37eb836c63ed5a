#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "vkbench.h"

static unsigned validationMessages;

static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                          VkDebugUtilsMessageTypeFlagsEXT types,
                                                          const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                          void *user) {
    (void)severity, (void)types, (void)user;
    validationMessages += 1;
    fprintf(stderr, "vulkan-bench: validation: %s\n", data->pMessage);
    return VK_FALSE;
}

void contextCreate(Context *context, int validate, int useCommandMemory) {
    memset(context, 0, sizeof *context);
    context->useCommandMemory = useCommandMemory;
    context->impl = useCommandMemory ? "vulkan-c" : "vulkan-c-glibc";
    VkApplicationInfo application = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vulkan-bench", .apiVersion = VK_API_VERSION_1_3};
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = onValidationMessage};
    VkInstanceCreateInfo instance = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = validate ? &messenger : NULL,
        .pApplicationInfo = &application,
        .enabledLayerCount = validate ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = validate ? 1 : 0,
        .ppEnabledExtensionNames = extensions};
    CHECK(vkCreateInstance(&instance, NULL, &context->instance));
    if (validate) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(context->instance, "vkCreateDebugUtilsMessengerEXT");
        CHECK(create(context->instance, &messenger, NULL, &context->messenger));
    }

    uint32_t count = 1;
    VkResult enumerated = vkEnumeratePhysicalDevices(context->instance, &count, &context->physical);
    if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "vulkan-bench: no Vulkan device\n");
        exit(1);
    }
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context->physical, &properties);
    context->limits = properties.limits;
    vkGetPhysicalDeviceMemoryProperties(context->physical, &context->memory);

    float priority = 1;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0, .queueCount = 1, .pQueuePriorities = &priority};
    VkPhysicalDeviceVulkan13Features features13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .synchronization2 = VK_TRUE, .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceVulkan12Features features12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &features13, .timelineSemaphore = VK_TRUE};
    const char *deviceExtensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo device = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features12,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = deviceExtensions};
    CHECK(vkCreateDevice(context->physical, &device, NULL, &context->device));
    vkGetDeviceQueue(context->device, 0, 0, &context->queue);
    context->pushDescriptorSet =
        (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(context->device, "vkCmdPushDescriptorSetKHR");
    VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT};
    context->poolMemory = poolMemoryCreate();
    CHECK(vkCreateCommandPool(context->device, &pool, poolCallbacks(context, context->poolMemory, &context->poolAllocator),
                              &context->pool));
}

SwiftGPUCommandMemory *poolMemoryCreate(void) {
    SwiftGPUCommandMemory *memory = swiftgpu_command_memory_create();
    if (!memory) {
        fprintf(stderr, "vulkan-bench: no memory for a command-pool allocator\n");
        exit(1);
    }
    return memory;
}

const VkAllocationCallbacks *poolCallbacks(Context *context, SwiftGPUCommandMemory *memory, VkAllocationCallbacks *callbacks) {
    if (!context->useCommandMemory) return NULL;
    swiftgpu_command_memory_callbacks(memory, callbacks);
    return callbacks;
}

void contextDestroy(Context *context) {
    vkDestroyCommandPool(context->device, context->pool, poolCallbacks(context, context->poolMemory, &context->poolAllocator));
    swiftgpu_command_memory_destroy(context->poolMemory);
    vkDestroyDevice(context->device, NULL);
    if (context->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(context->instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy(context->instance, context->messenger, NULL);
        if (validationMessages > 0) {
            fprintf(stderr, "vulkan-bench: %u validation messages\n", validationMessages);
            exit(3);
        }
        fprintf(stderr, "vulkan-bench: validation layer on, 0 messages\n");
    }
    vkDestroyInstance(context->instance, NULL);
}

static uint32_t memoryType(Context *context, uint32_t bits, VkMemoryPropertyFlags flags) {
    for (uint32_t i = 0; i < context->memory.memoryTypeCount; i++) {
        if ((bits & (1u << i)) && (context->memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    }
    fprintf(stderr, "vulkan-bench: no memory type for flags %x\n", flags);
    exit(1);
}

HostBuffer hostBufferCreate(Context *context, VkDeviceSize size, VkBufferUsageFlags usage) {
    HostBuffer result = {.size = size};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(context->device, &info, NULL, &result.buffer));
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(context->device, result.buffer, &requirements);
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = memoryType(context, requirements.memoryTypeBits,
                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
    CHECK(vkAllocateMemory(context->device, &allocate, NULL, &result.memory));
    CHECK(vkBindBufferMemory(context->device, result.buffer, result.memory, 0));
    CHECK(vkMapMemory(context->device, result.memory, 0, VK_WHOLE_SIZE, 0, &result.mapped));
    return result;
}

void hostBufferDestroy(Context *context, HostBuffer *buffer) {
    vkDestroyBuffer(context->device, buffer->buffer, NULL);
    vkFreeMemory(context->device, buffer->memory, NULL);
}

Image imageCreate(Context *context, uint32_t width, uint32_t height, VkImageUsageFlags usage) {
    Image result;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .extent = {width, height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage};
    CHECK(vkCreateImage(context->device, &info, NULL, &result.image));
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(context->device, result.image, &requirements);
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = memoryType(context, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
    CHECK(vkAllocateMemory(context->device, &allocate, NULL, &result.memory));
    CHECK(vkBindImageMemory(context->device, result.image, result.memory, 0));
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = result.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    CHECK(vkCreateImageView(context->device, &view, NULL, &result.view));
    return result;
}

void imageDestroy(Context *context, Image *image) {
    vkDestroyImageView(context->device, image->view, NULL);
    vkDestroyImage(context->device, image->image, NULL);
    vkFreeMemory(context->device, image->memory, NULL);
}

VkShaderModule shaderLoad(Context *context, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.spv", context->spirvDirectory, name);
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "vulkan-bench: cannot open %s (pass --spirv DIR)\n", path);
        exit(1);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint32_t *code = malloc((size_t)size);
    if (fread(code, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "vulkan-bench: short read of %s\n", path);
        exit(1);
    }
    fclose(file);
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)size, .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(context->device, &info, NULL, &module));
    free(code);
    return module;
}

VkSemaphore timelineCreate(Context *context) {
    VkSemaphoreTypeCreateInfo type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkSemaphore semaphore;
    CHECK(vkCreateSemaphore(context->device, &info, NULL, &semaphore));
    return semaphore;
}

void timelineWait(Context *context, VkSemaphore timeline, uint64_t value) {
    VkSemaphoreWaitInfo wait = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1, .pSemaphores = &timeline, .pValues = &value};
    CHECK(vkWaitSemaphores(context->device, &wait, UINT64_MAX));
}

void submit(Context *context, VkCommandBuffer commandBuffer, VkSemaphore timeline, uint64_t value) {
    VkCommandBufferSubmitInfo buffer = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = commandBuffer};
    VkSemaphoreSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                    .semaphore = timeline,
                                    .value = value,
                                    .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    VkSubmitInfo2 info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                          .commandBufferInfoCount = 1,
                          .pCommandBufferInfos = &buffer,
                          .signalSemaphoreInfoCount = 1,
                          .pSignalSemaphoreInfos = &signal};
    CHECK(vkQueueSubmit2(context->queue, 1, &info, VK_NULL_HANDLE));
}

void imageBarrier(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout from, VkImageLayout to,
                  VkPipelineStageFlags2 sourceStage, VkAccessFlags2 sourceAccess,
                  VkPipelineStageFlags2 destinationStage, VkAccessFlags2 destinationAccess) {
    VkImageMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                                     .srcStageMask = sourceStage,
                                     .srcAccessMask = sourceAccess,
                                     .dstStageMask = destinationStage,
                                     .dstAccessMask = destinationAccess,
                                     .oldLayout = from,
                                     .newLayout = to,
                                     .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .image = image,
                                     .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(commandBuffer, &dependency);
}

VkPipeline renderPipelineCreate(Context *context, VkPipelineLayout layout, const char *vertex, const char *fragment,
                                uint32_t stride, uint32_t attributes) {
    VkShaderModule modules[2] = {shaderLoad(context, vertex), shaderLoad(context, fragment)};
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = modules[0], .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = modules[1], .pName = "main"}};
    VkVertexInputBindingDescription binding = {0, stride, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attribute[2] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                                                      {1, 0, VK_FORMAT_R32G32_SFLOAT, 8}};
    VkPipelineVertexInputStateCreateInfo input = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                  .vertexBindingDescriptionCount = 1,
                                                  .pVertexBindingDescriptions = &binding,
                                                  .vertexAttributeDescriptionCount = attributes,
                                                  .pVertexAttributeDescriptions = attribute};
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo viewport = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo raster = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                     .polygonMode = VK_POLYGON_MODE_FILL,
                                                     .cullMode = VK_CULL_MODE_NONE,
                                                     .lineWidth = 1};
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState blendAttachment = {.colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, .attachmentCount = 1, .pAttachments = &blendAttachment};
    VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamicState = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, .dynamicStateCount = 2, .pDynamicStates = dynamic};
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, .colorAttachmentCount = 1, .pColorAttachmentFormats = &format};
    VkGraphicsPipelineCreateInfo info = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                         .pNext = &rendering,
                                         .stageCount = 2,
                                         .pStages = stages,
                                         .pVertexInputState = &input,
                                         .pInputAssemblyState = &assembly,
                                         .pViewportState = &viewport,
                                         .pRasterizationState = &raster,
                                         .pMultisampleState = &multisample,
                                         .pColorBlendState = &blend,
                                         .pDynamicState = &dynamicState,
                                         .layout = layout};
    VkPipeline pipeline;
    CHECK(vkCreateGraphicsPipelines(context->device, context->pipelineCache, 1, &info, NULL, &pipeline));
    vkDestroyShaderModule(context->device, modules[0], NULL);
    vkDestroyShaderModule(context->device, modules[1], NULL);
    return pipeline;
}

uint64_t nowNanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

uint64_t mallocCount(void) {
    static uint64_t (*counter)(void);
    static int looked;
    if (!looked) {
        counter = (uint64_t(*)(void))dlsym(RTLD_DEFAULT, "bench_malloc_count");
        looked = 1;
    }
    return counter ? counter() : 0;
}

double peakResidentMiB(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    double kib = 0;
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) kib = atof(line + 6);
    }
    if (status) fclose(status);
    return kib / 1024;
}

void wrongResult(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "vulkan-bench: wrong result: ");
    vfprintf(stderr, format, arguments);
    fprintf(stderr, "\n");
    va_end(arguments);
    exit(2);
}
