// Raw Vulkan baseline for Benchmarks B1–B7: the most direct C code for each workload,
// on the same driver and shaders as SwiftGPUBench. See BENCHMARKS.md.
#ifndef VKBENCH_H
#define VKBENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

#include "CommandMemory.h"

/// Everything the workloads share: one device, its one queue, a command pool.
typedef struct {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkCommandPool pool;
    /// Whether command pools record into SwiftGPU's command-pool allocator (CCommandMemory,
    /// the default: both sides pay the same for the driver's per-command allocations) or
    /// into the driver's default one, glibc's malloc (`--allocator glibc`).
    int useCommandMemory;
    /// The allocator of `pool`, and its callbacks.
    SwiftGPUCommandMemory *poolMemory;
    VkAllocationCallbacks poolAllocator;
    /// The implementation's name in the JSON lines: "vulkan-c", or "vulkan-c-glibc" without SwiftGPU's allocator.
    const char *impl;
    VkPhysicalDeviceMemoryProperties memory;
    VkPhysicalDeviceLimits limits;
    PFN_vkCmdPushDescriptorSetKHR pushDescriptorSet;
    const char *spirvDirectory;
    /// The pipeline cache pipelines are made with (VK_NULL_HANDLE: none).
    VkPipelineCache pipelineCache;
} Context;

/// A buffer in host-visible, host-coherent memory, mapped for its lifetime.
typedef struct {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
} HostBuffer;

/// A 2D rgba8 image with its memory and view.
typedef struct {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
} Image;

/// B1 and B4's compute work: a pipeline adding `params` (1) to `counter` with one thread,
/// bound through push descriptors.
typedef struct {
    VkDescriptorSetLayout setLayout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    HostBuffer counter, params;
    VkDescriptorBufferInfo counterInfo, paramsInfo;
} Increment;

/// Stops with the failing call and its result.
#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult result_ = (call);                                                  \
        if (result_ != VK_SUCCESS) {                                                \
            fprintf(stderr, "vulkan-bench: %s failed: %d\n", #call, (int)result_);  \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/// Makes the device and `pool`, whose commands go to `poolMemory` when `useCommandMemory`.
void contextCreate(Context *context, int validate, int useCommandMemory);
/// A command-pool allocator, for one pool (stops when the system has no memory).
SwiftGPUCommandMemory *poolMemoryCreate(void);
/// The allocation callbacks of `memory` in `callbacks`, or NULL (the driver's default) without `useCommandMemory`.
const VkAllocationCallbacks *poolCallbacks(Context *context, SwiftGPUCommandMemory *memory, VkAllocationCallbacks *callbacks);
void contextDestroy(Context *context);
HostBuffer hostBufferCreate(Context *context, VkDeviceSize size, VkBufferUsageFlags usage);
void hostBufferDestroy(Context *context, HostBuffer *buffer);
Image imageCreate(Context *context, uint32_t width, uint32_t height, VkImageUsageFlags usage);
void imageDestroy(Context *context, Image *image);
VkShaderModule shaderLoad(Context *context, const char *name);
VkSemaphore timelineCreate(Context *context);
void timelineWait(Context *context, VkSemaphore timeline, uint64_t value);
void submit(Context *context, VkCommandBuffer commandBuffer, VkSemaphore timeline, uint64_t value);
void imageBarrier(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout from, VkImageLayout to,
                  VkPipelineStageFlags2 sourceStage, VkAccessFlags2 sourceAccess,
                  VkPipelineStageFlags2 destinationStage, VkAccessFlags2 destinationAccess);
/// A pipeline layout over one push-descriptor set of `bindings`.
VkPipelineLayout pushLayoutCreate(Context *context, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                                  VkDescriptorSetLayout *setLayout);
Increment incrementCreate(Context *context);
/// Records a barrier after earlier adds, then one one-thread dispatch.
void incrementRecord(Context *context, Increment *increment, VkCommandBuffer commandBuffer);
void incrementDestroy(Context *context, Increment *increment);
/// Moves `target` to attachment layout, begins clearing rendering into it, binds
/// `pipeline` and sets the viewport and scissor to the whole target.
void renderBegin(VkCommandBuffer commandBuffer, Image *target, uint32_t size, VkPipeline pipeline);
/// Ends rendering and copies `target` into `readback`.
void renderEndAndRead(VkCommandBuffer commandBuffer, Image *target, uint32_t size, HostBuffer *readback);
VkCommandBuffer commandBufferAllocate(Context *context);
VkPipeline renderPipelineCreate(Context *context, VkPipelineLayout layout, const char *vertex, const char *fragment,
                                uint32_t stride, uint32_t attributes);

/// B2's scene, which B5 and B6 draw too: a 64×64 target cut into 32×32 cells of 2×2
/// pixels, and 1,024 triangles of three float2 vertices (24 bytes each), triangle i
/// covering the top-left pixel of cell i; draw i draws triangle i % 1,024 with
/// `drawColor(i)`, so the final image tells whether every last draw of a cell landed.
enum { SCENE_SIZE = 64, SCENE_CELLS = 1024 };
typedef struct {
    VkPipeline pipeline;
    HostBuffer vertices, readback;
    Image target;
} DrawScene;
/// The scene with a pipeline of `bench.vert` and `fragment` over `layout`.
DrawScene drawSceneCreate(Context *context, VkPipelineLayout layout, const char *fragment);
void drawSceneDestroy(Context *context, DrawScene *scene);
/// Draw i's colour: its index in the low three bytes, exact in unorm8.
void drawColor(int i, float color[4]);
/// Checks the top-left pixel of every cell drawn against the last of `draws` draws that covered it.
void drawSceneCheck(const uint8_t *pixels, int draws);
/// Ends the rendering, reads the target back, ends and submits `commandBuffer` (signalling
/// `value`), waits and checks `draws` draws; `cpu` and `total` get the nanoseconds from
/// `start` to the submission and to the completion.
void drawSceneFinish(Context *context, DrawScene *scene, VkCommandBuffer commandBuffer, VkSemaphore timeline, uint64_t value,
                     int draws, uint64_t start, uint64_t *cpu, uint64_t *total);
/// A pipeline layout with 16 bytes of fragment push constants (`bench_push.frag`'s colour).
VkPipelineLayout pushConstantLayoutCreate(Context *context);

/// Monotonic nanoseconds.
uint64_t nowNanoseconds(void);
/// Malloc-family calls so far when the malloc-counting shim is preloaded, else 0.
uint64_t mallocCount(void);
/// Peak resident set size in MiB (VmHWM).
double peakResidentMiB(void);
/// Stops with status 2: a wrong result must never be timed.
void wrongResult(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));

void benchSubmission(Context *context, int buffers);
void benchEncoding(Context *context, int draws, const char *variant);
void benchFrameLoop(Context *context, int frames);
void benchDrain(Context *context);
void benchParallelEncoding(Context *context, int draws, int threads);
void benchIndirect(Context *context, int draws);
void benchFirstFrame(Context *context, uint64_t processStart, const char *cacheDirectory);

#endif
