// WGPUBench: the wgpu-native baseline of Benchmarks B1–B7, through webgpu.h / wgpu.h (see
// BENCHMARKS.md). Built and run by scripts/bench.py against the libwgpu_native and headers
// that the `wgpu` Python wheel ships, extracted under Benchmarks/.deps/.
//
//     WGPUBench --bench B1|B2|B3|B4|B5|B6|B7 [--count N] [--variant dynamic-offset|one-bind-group|first-vertex|immediates]
//               [--threads T] [--start NS] [--validate]
//
// The same workloads and result checks as SwiftGPUBench and VulkanBench, written the way
// wgpu is meant to be used: bind groups with dynamic offsets, queue.writeBuffer, one
// submit per command buffer. Each invocation makes one measured run after a warm-up and
// prints one JSON line; a wrong result exits 2, a validation message with --validate 3.
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webgpu.h"
#include "wgpu.h"

static WGPUInstance instance;
static WGPUAdapter adapter;
static WGPUDevice device;
static WGPUQueue queue;
static unsigned messages;

static WGPUStringView text(const char *string) { return (WGPUStringView){string, WGPU_STRLEN}; }

static uint64_t nowNanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

static void wrongResult(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "wgpu-bench: wrong result: ");
    vfprintf(stderr, format, arguments);
    fprintf(stderr, "\n");
    va_end(arguments);
    exit(2);
}

static double peakResidentMiB(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    double kib = 0;
    while (status && fgets(line, sizeof line, status))
        if (strncmp(line, "VmHWM:", 6) == 0) kib = atof(line + 6);
    if (status) fclose(status);
    return kib / 1024;
}

static void onAdapter(WGPURequestAdapterStatus status, WGPUAdapter result, WGPUStringView message, void *a, void *b) {
    (void)a, (void)b;
    if (status != WGPURequestAdapterStatus_Success) {
        fprintf(stderr, "wgpu-bench: no adapter: %.*s\n", (int)message.length, message.data);
        exit(1);
    }
    adapter = result;
}

static void onDevice(WGPURequestDeviceStatus status, WGPUDevice result, WGPUStringView message, void *a, void *b) {
    (void)a, (void)b;
    if (status != WGPURequestDeviceStatus_Success) {
        fprintf(stderr, "wgpu-bench: no device: %.*s\n", (int)message.length, message.data);
        exit(1);
    }
    device = result;
}

static void onError(WGPUDevice const *d, WGPUErrorType type, WGPUStringView message, void *a, void *b) {
    (void)d, (void)a, (void)b;
    fprintf(stderr, "wgpu-bench: error %d: %.*s\n", (int)type, (int)message.length, message.data);
    exit(1);
}

static void onLog(WGPULogLevel level, WGPUStringView message, void *user) {
    (void)user;
    if (level > WGPULogLevel_Warn) return;
    messages += 1;
    fprintf(stderr, "wgpu-bench: log %d: %.*s\n", (int)level, (int)message.length, message.data);
}

static void setUp(int validate) {
    WGPUInstanceExtras extras = {.chain = {.sType = (WGPUSType)WGPUSType_InstanceExtras},
                                 .backends = WGPUInstanceBackend_Vulkan,
                                 .flags = validate ? WGPUInstanceFlag_Validation : 0};
    WGPUInstanceDescriptor descriptor = {.nextInChain = &extras.chain};
    instance = wgpuCreateInstance(&descriptor);
    if (validate) {
        wgpuSetLogCallback(onLog, NULL);
        wgpuSetLogLevel(WGPULogLevel_Warn);
    }
    WGPURequestAdapterCallbackInfo adapterCallback = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = onAdapter};
    wgpuInstanceRequestAdapter(instance, NULL, adapterCallback);
    wgpuInstanceProcessEvents(instance);
    WGPUDeviceDescriptor deviceDescriptor = WGPU_DEVICE_DESCRIPTOR_INIT;
    deviceDescriptor.uncapturedErrorCallbackInfo.callback = onError;
    // Immediates (push constants), for B2's "immediates" variant: 16 bytes a draw.
    WGPUFeatureName immediates = (WGPUFeatureName)WGPUNativeFeature_Immediates;
    WGPULimits limits = WGPU_LIMITS_INIT;
    limits.maxImmediateSize = 16;
    deviceDescriptor.requiredFeatureCount = 1;
    deviceDescriptor.requiredFeatures = &immediates;
    deviceDescriptor.requiredLimits = &limits;
    WGPURequestDeviceCallbackInfo deviceCallback = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = onDevice};
    wgpuAdapterRequestDevice(adapter, &deviceDescriptor, deviceCallback);
    wgpuInstanceProcessEvents(instance);
    if (!adapter || !device) {
        fprintf(stderr, "wgpu-bench: adapter or device request did not complete\n");
        exit(1);
    }
    queue = wgpuDeviceGetQueue(device);
}

static WGPUShaderModule shader(const char *source) {
    WGPUShaderSourceWGSL wgsl = {.chain = {.sType = WGPUSType_ShaderSourceWGSL}, .code = text(source)};
    WGPUShaderModuleDescriptor descriptor = {.nextInChain = &wgsl.chain};
    return wgpuDeviceCreateShaderModule(device, &descriptor);
}

static WGPUBuffer buffer(uint64_t size, WGPUBufferUsage usage) {
    WGPUBufferDescriptor descriptor = {.size = size, .usage = usage};
    return wgpuDeviceCreateBuffer(device, &descriptor);
}

static void onMapped(WGPUMapAsyncStatus status, WGPUStringView message, void *done, void *b) {
    (void)b;
    if (status != WGPUMapAsyncStatus_Success) {
        fprintf(stderr, "wgpu-bench: map failed: %.*s\n", (int)message.length, message.data);
        exit(1);
    }
    *(int *)done = 1;
}

/// Maps `readback` for reading, waiting for the GPU with wgpuDevicePoll.
static const void *mapRead(WGPUBuffer readback, size_t size) {
    int done = 0;
    WGPUBufferMapCallbackInfo callback = {.mode = WGPUCallbackMode_AllowProcessEvents, .callback = onMapped, .userdata1 = &done};
    wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, size, callback);
    while (!done) {
        wgpuDevicePoll(device, 1, NULL);
        wgpuInstanceProcessEvents(instance);
    }
    return wgpuBufferGetConstMappedRange(readback, 0, size);
}

static WGPUBindGroupLayoutEntry bufferEntry(uint32_t binding, WGPUShaderStage stage, WGPUBufferBindingType type,
                                            int dynamic, uint64_t minimum) {
    WGPUBindGroupLayoutEntry entry = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    entry.binding = binding;
    entry.visibility = stage;
    entry.buffer.type = type;
    entry.buffer.hasDynamicOffset = dynamic;
    entry.buffer.minBindingSize = minimum;
    return entry;
}

static WGPUPipelineLayout pipelineLayout(WGPUBindGroupLayout group) {
    WGPUPipelineLayoutDescriptor descriptor = {.bindGroupLayoutCount = 1, .bindGroupLayouts = &group};
    return wgpuDeviceCreatePipelineLayout(device, &descriptor);
}

static const char *incrementSource =
    "@group(0) @binding(0) var<storage, read_write> counter: array<atomic<u32>>;\n"
    "@group(0) @binding(3) var<uniform> amount: u32;\n"
    "@compute @workgroup_size(1) fn main() { atomicAdd(&counter[0], amount); }\n";

/// The compute pipeline and bind group of B1 and B4: one-thread dispatches adding 1.
typedef struct {
    WGPUComputePipeline pipeline;
    WGPUBindGroup group;
    WGPUBuffer counter, readback;
} Increment;

static Increment incrementCreate(void) {
    Increment result;
    WGPUBindGroupLayoutEntry entries[2] = {
        bufferEntry(0, WGPUShaderStage_Compute, WGPUBufferBindingType_Storage, 0, 4),
        bufferEntry(3, WGPUShaderStage_Compute, WGPUBufferBindingType_Uniform, 0, 4)};
    WGPUBindGroupLayoutDescriptor layoutDescriptor = {.entryCount = 2, .entries = entries};
    WGPUBindGroupLayout layout = wgpuDeviceCreateBindGroupLayout(device, &layoutDescriptor);
    WGPUShaderModule module = shader(incrementSource);
    WGPUComputePipelineDescriptor descriptor = {.layout = pipelineLayout(layout),
                                                .compute = {.module = module, .entryPoint = text("main")}};
    result.pipeline = wgpuDeviceCreateComputePipeline(device, &descriptor);
    result.counter = buffer(4, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst);
    result.readback = buffer(4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    WGPUBuffer params = buffer(16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst);
    uint32_t one[4] = {1, 0, 0, 0};
    wgpuQueueWriteBuffer(queue, params, 0, one, sizeof one);
    WGPUBindGroupEntry groupEntries[2] = {{.binding = 0, .buffer = result.counter, .size = 4},
                                          {.binding = 3, .buffer = params, .size = 4}};
    WGPUBindGroupDescriptor groupDescriptor = {.layout = layout, .entryCount = 2, .entries = groupEntries};
    result.group = wgpuDeviceCreateBindGroup(device, &groupDescriptor);
    return result;
}

static WGPUCommandBuffer incrementCommands(Increment *increment) {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, NULL);
    wgpuComputePassEncoderSetPipeline(pass, increment->pipeline);
    wgpuComputePassEncoderSetBindGroup(pass, 0, increment->group, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
    wgpuCommandEncoderRelease(encoder);
    return commands;
}

static uint32_t counterValue(Increment *increment) {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(encoder, increment->counter, 0, increment->readback, 0, 4);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
    wgpuQueueSubmit(queue, 1, &commands);
    wgpuCommandBufferRelease(commands);
    wgpuCommandEncoderRelease(encoder);
    uint32_t value = *(const uint32_t *)mapRead(increment->readback, 4);
    wgpuBufferUnmap(increment->readback);
    return value;
}

static void counterReset(Increment *increment) {
    uint32_t zero = 0;
    wgpuQueueWriteBuffer(queue, increment->counter, 0, &zero, 4);
}

enum { RING = 64 };

/// B1: N command buffers of one dispatch each, one submit each; at most 64 in flight
/// (like SwiftGPU's default queue and the C baseline's ring).
static void benchSubmission(int buffers) {
    Increment increment = incrementCreate();
    static WGPUSubmissionIndex submitted[RING];
    uint64_t nanoseconds = 0;
    for (int pass = 0; pass < 2; pass++) {
        int count = pass == 0 ? 1000 : buffers;
        counterReset(&increment);
        uint64_t start = nowNanoseconds();
        for (int i = 0; i < count; i++) {
            if (i >= RING) wgpuDevicePoll(device, 1, &submitted[i % RING]);
            WGPUCommandBuffer commands = incrementCommands(&increment);
            submitted[i % RING] = wgpuQueueSubmitForIndex(queue, 1, &commands);
            wgpuCommandBufferRelease(commands);
        }
        wgpuDevicePoll(device, 1, NULL);
        nanoseconds = nowNanoseconds() - start;
        uint32_t value = counterValue(&increment);
        if (value != (uint32_t)count) wrongResult("B1 counter %u, expected %d", value, count);
    }
    printf("{\"impl\":\"wgpu-native\",\"bench\":\"B1\",\"variant\":\"\",\"ok\":true,\"us_per_buffer\":%.6g}\n",
           (double)nanoseconds / 1e3 / buffers);
}

/// Passes measured per size in B4 (an odd count: the median is one of them).
#define DRAIN_REPETITIONS 15

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// B4's floor, as in the C baseline: submitting N already-finished command buffers; the
/// median of DRAIN_REPETITIONS passes after one warm-up pass.
static void benchDrain(void) {
    Increment increment = incrementCreate();
    const int sizes[3] = {1, 16, 256};
    WGPUCommandBuffer commands[256];
    for (int s = 0; s < 3; s++) {
        int count = sizes[s];
        double measured[DRAIN_REPETITIONS];
        counterReset(&increment);
        for (int pass = 0; pass <= DRAIN_REPETITIONS; pass++) {   // pass 0 warms up
            for (int i = 0; i < count; i++) commands[i] = incrementCommands(&increment);
            uint64_t start = nowNanoseconds();
            for (int i = 0; i < count; i++) wgpuQueueSubmit(queue, 1, &commands[i]);
            if (pass > 0) measured[pass - 1] = (double)(nowNanoseconds() - start) / 1e6;
            for (int i = 0; i < count; i++) wgpuCommandBufferRelease(commands[i]);
            wgpuDevicePoll(device, 1, NULL);
        }
        uint32_t value = counterValue(&increment);
        uint32_t expected = (DRAIN_REPETITIONS + 1u) * (uint32_t)count;
        if (value != expected) wrongResult("B4 counter %u, expected %u", value, expected);
        qsort(measured, DRAIN_REPETITIONS, sizeof(double), compareDoubles);
        printf("{\"impl\":\"wgpu-native\",\"bench\":\"B4\",\"variant\":\"%d\",\"ok\":true,\"drain_ms\":%.6g}\n", count,
               measured[DRAIN_REPETITIONS / 2]);
    }
}

static WGPURenderPipeline renderPipeline(WGPUPipelineLayout layout, const char *source, uint32_t stride,
                                         const WGPUVertexAttribute *attributes, size_t attributeCount) {
    WGPUShaderModule module = shader(source);
    WGPUVertexBufferLayout vertexLayout = {
        .stepMode = WGPUVertexStepMode_Vertex, .arrayStride = stride, .attributeCount = attributeCount, .attributes = attributes};
    WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
    target.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fragment = WGPU_FRAGMENT_STATE_INIT;
    fragment.module = module;
    fragment.entryPoint = text("fs");
    fragment.targetCount = 1;
    fragment.targets = &target;
    WGPURenderPipelineDescriptor descriptor = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    descriptor.layout = layout;
    descriptor.vertex.module = module;
    descriptor.vertex.entryPoint = text("vs");
    descriptor.vertex.bufferCount = stride ? 1 : 0;   // stride 0: the shader pulls its vertices
    descriptor.vertex.buffers = &vertexLayout;
    descriptor.fragment = &fragment;
    return wgpuDeviceCreateRenderPipeline(device, &descriptor);
}

static WGPUTexture texture(uint32_t size, WGPUTextureUsage usage) {
    WGPUTextureDescriptor descriptor = WGPU_TEXTURE_DESCRIPTOR_INIT;
    descriptor.usage = usage;
    descriptor.size = (WGPUExtent3D){size, size, 1};
    descriptor.format = WGPUTextureFormat_RGBA8Unorm;
    return wgpuDeviceCreateTexture(device, &descriptor);
}

static void copyToReadback(WGPUCommandEncoder encoder, WGPUTexture source, WGPUBuffer readback, uint32_t size) {
    WGPUTexelCopyTextureInfo from = {.texture = source};
    WGPUTexelCopyBufferInfo to = {.layout = {.bytesPerRow = size * 4, .rowsPerImage = size}, .buffer = readback};
    WGPUExtent3D extent = {size, size, 1};
    wgpuCommandEncoderCopyTextureToBuffer(encoder, &from, &to, &extent);
}

static WGPURenderPassEncoder beginPass(WGPUCommandEncoder encoder, WGPUTextureView view) {
    WGPURenderPassColorAttachment attachment = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    attachment.view = view;
    attachment.loadOp = WGPULoadOp_Clear;
    attachment.storeOp = WGPUStoreOp_Store;
    attachment.clearValue = (WGPUColor){0, 0, 0, 0};
    WGPURenderPassDescriptor descriptor = {.colorAttachmentCount = 1, .colorAttachments = &attachment};
    return wgpuCommandEncoderBeginRenderPass(encoder, &descriptor);
}

// WebGPU's clip space has y up; the shaders flip y so that the images match Vulkan's.
static const char *encodingSource =
    "@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p.x, -p.y, 0.0, 1.0); }\n"
    "@group(0) @binding(64) var<uniform> color: vec4f;\n"
    "@fragment fn fs() -> @location(0) vec4f { return color; }\n";

// B2's "immediates" variant: the colour is 16 bytes of immediates (push constants).
static const char *immediatesSource =
    "@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p.x, -p.y, 0.0, 1.0); }\n"
    "struct Immediates { color: vec4f, }\n"
    "var<immediate> immediates: Immediates;\n"
    "@fragment fn fs() -> @location(0) vec4f { return immediates.color; }\n";

// B2's "one-bind-group" variant: the vertex shader pulls its triangle from a storage
// buffer, so one bind group with two dynamic offsets carries both per-draw changes.
static const char *pullingSource =
    "@group(0) @binding(0) var<storage, read> triangle: array<vec2f, 3>;\n"
    "@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {\n"
    "    let p = triangle[v];\n"
    "    return vec4f(p.x, -p.y, 0.0, 1.0);\n"
    "}\n"
    "@group(0) @binding(64) var<uniform> color: vec4f;\n"
    "@fragment fn fs() -> @location(0) vec4f { return color; }\n";

enum { SIZE2 = 64, CELLS = 1024, ALIGN = 256 };

/// Draw i's colour, as the other implementations give it: its index in the low three bytes.
static void drawColor(int i, float color[4]) {
    color[0] = (float)(i & 255) / 255, color[1] = (float)((i >> 8) & 255) / 255;
    color[2] = (float)((i >> 16) & 255) / 255, color[3] = 1;
}

/// B2's check (B5's and B6's too): the top-left pixel of every cell has the colour of the
/// last of `draws` draws that covered it, or the clear colour (0, 0, 0, 0) where no draw
/// did. Every cell is read whatever the count, so that the check costs the same at every
/// size (the cost curves subtract one size's instructions from another's).
static void checkCells(const uint8_t *pixels, int draws, const char *bench) {
    for (int cell = 0; cell < CELLS; cell++) {
        int last = cell + (draws - 1 - cell) / CELLS * CELLS;
        const uint8_t *p = pixels + ((cell / 32) * 2 * SIZE2 + (cell % 32) * 2) * 4;
        // The colour is worked out for every cell and scaled by 0 for the cells not drawn
        // (a branch would let the compiler skip it for those), so each costs the same.
        int drawn = cell < draws;
        uint8_t expected[4] = {(uint8_t)((last & 255) * drawn), (uint8_t)(((last >> 8) & 255) * drawn),
                               (uint8_t)(((last >> 16) & 255) * drawn), (uint8_t)(255 * drawn)};
        if (memcmp(p, expected, 4) != 0)
            wrongResult("%s cell %d: expected %s", bench, cell, cell < draws ? "its last draw" : "the clear colour");
    }
}

/// B2: one render pass of N draws, each with a dynamic offset into a uniform buffer
/// holding the draw's 16 bytes (written with one queue.writeBuffer before the submit) and
/// its triangle: "dynamic-offset" sets a vertex-buffer offset; "one-bind-group" gives the
/// triangle's place in a storage buffer as the bind group's second dynamic offset, one
/// setBindGroup per draw; "first-vertex" binds the vertex buffer once and starts each draw
/// at its triangle's first vertex; "immediates" does too, and gives the colour as 16 bytes
/// of immediates (push constants) instead of a dynamic offset, wgpu's cheapest formulation.
/// The last three record two commands per draw.
static void benchEncoding(int draws, const char *variant) {
    int oneGroup = strcmp(variant, "one-bind-group") == 0, immediates = strcmp(variant, "immediates") == 0;
    int firstVertex = strcmp(variant, "first-vertex") == 0 || immediates;
    if (!oneGroup && !firstVertex && strcmp(variant, "dynamic-offset") != 0) {
        fprintf(stderr, "wgpu-bench: unknown B2 variant %s\n", variant);
        exit(64);
    }
    // In binding order, as the dynamic offsets are; "dynamic-offset" uses the second alone.
    WGPUBindGroupLayoutEntry entries[2] = {
        bufferEntry(0, WGPUShaderStage_Vertex, WGPUBufferBindingType_ReadOnlyStorage, 1, 24),
        bufferEntry(64, WGPUShaderStage_Fragment, WGPUBufferBindingType_Uniform, 1, 16)};
    WGPUBindGroupLayoutDescriptor layoutDescriptor = {.entryCount = oneGroup ? 2 : 1, .entries = entries + !oneGroup};
    WGPUBindGroupLayout groupLayout = wgpuDeviceCreateBindGroupLayout(device, &layoutDescriptor);
    WGPUVertexAttribute attribute = {.format = WGPUVertexFormat_Float32x2, .offset = 0, .shaderLocation = 0};
    WGPUPipelineLayoutDescriptor immediatesLayout = {.immediateSize = 16};
    WGPURenderPipeline pipeline =
        oneGroup ? renderPipeline(pipelineLayout(groupLayout), pullingSource, 0, NULL, 0)
        : immediates ? renderPipeline(wgpuDeviceCreatePipelineLayout(device, &immediatesLayout), immediatesSource, 8, &attribute, 1)
        : renderPipeline(pipelineLayout(groupLayout), encodingSource, 8, &attribute, 1);
    size_t stride = oneGroup ? ALIGN : 24;   // a storage buffer's dynamic offsets are multiples of 256
    float *vertexData = calloc(CELLS, stride);
    for (int cell = 0; cell < CELLS; cell++) {
        float x = (float)(2 * (cell % 32)) / 32 - 1, y = (float)(2 * (cell / 32)) / 32 - 1;
        float triangle[6] = {x, y, x + 2.0f / 32, y, x, y + 2.0f / 32};
        memcpy((uint8_t *)vertexData + cell * stride, triangle, sizeof triangle);
    }
    WGPUBuffer vertices = buffer(CELLS * stride, (oneGroup ? WGPUBufferUsage_Storage : WGPUBufferUsage_Vertex) | WGPUBufferUsage_CopyDst);
    wgpuQueueWriteBuffer(queue, vertices, 0, vertexData, CELLS * stride);
    WGPUBuffer uniforms = buffer((uint64_t)draws * ALIGN, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst);
    uint8_t *staging = calloc((size_t)draws, ALIGN);
    WGPUBindGroupEntry groupEntries[2] = {{.binding = 0, .buffer = vertices, .size = 24},
                                          {.binding = 64, .buffer = uniforms, .size = 16}};
    WGPUBindGroupDescriptor groupDescriptor = {
        .layout = groupLayout, .entryCount = oneGroup ? 2 : 1, .entries = groupEntries + !oneGroup};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &groupDescriptor);
    WGPUTexture target = texture(SIZE2, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(target, NULL);
    WGPUBuffer readback = buffer(SIZE2 * SIZE2 * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);

    uint64_t cpu = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t start = nowNanoseconds();
        WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
        WGPURenderPassEncoder render = beginPass(encoder, view);
        wgpuRenderPassEncoderSetPipeline(render, pipeline);
        if (firstVertex) wgpuRenderPassEncoderSetVertexBuffer(render, 0, vertices, 0, CELLS * stride);
        for (int i = 0; i < draws; i++) {
            float color[4];
            drawColor(i, color);
            if (immediates) {
                wgpuRenderPassEncoderSetImmediates(render, 0, color, 16);
                wgpuRenderPassEncoderDraw(render, 3, 1, (uint32_t)(i % CELLS) * 3, 0);
                continue;
            }
            memcpy(staging + (size_t)i * ALIGN, color, 16);
            if (firstVertex) {
                uint32_t offset = (uint32_t)i * ALIGN;
                wgpuRenderPassEncoderSetBindGroup(render, 0, group, 1, &offset);
                wgpuRenderPassEncoderDraw(render, 3, 1, (uint32_t)(i % CELLS) * 3, 0);
                continue;
            }
            if (oneGroup) {   // dynamic offsets in binding order: the triangle (0), then the colour (64)
                uint32_t offsets[2] = {(uint32_t)(i % CELLS) * ALIGN, (uint32_t)i * ALIGN};
                wgpuRenderPassEncoderSetBindGroup(render, 0, group, 2, offsets);
            } else {
                uint32_t offset = (uint32_t)i * ALIGN;
                wgpuRenderPassEncoderSetVertexBuffer(render, 0, vertices, (uint64_t)(i % CELLS) * 24, 24);
                wgpuRenderPassEncoderSetBindGroup(render, 0, group, 1, &offset);
            }
            wgpuRenderPassEncoderDraw(render, 3, 1, 0, 0);
        }
        wgpuRenderPassEncoderEnd(render);
        wgpuRenderPassEncoderRelease(render);
        copyToReadback(encoder, target, readback, SIZE2);
        WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
        wgpuQueueWriteBuffer(queue, uniforms, 0, staging, (size_t)draws * ALIGN);
        wgpuQueueSubmit(queue, 1, &commands);
        cpu = nowNanoseconds() - start;
        const uint8_t *pixels = mapRead(readback, SIZE2 * SIZE2 * 4);
        total = nowNanoseconds() - start;
        checkCells(pixels, draws, "B2");
        wgpuBufferUnmap(readback);
        wgpuCommandBufferRelease(commands);
        wgpuCommandEncoderRelease(encoder);
    }
    printf("{\"impl\":\"wgpu-native\",\"bench\":\"B2\",\"variant\":\"%s\",\"ok\":true,"
           "\"cpu_ns_per_draw\":%.6g,\"total_ms\":%.6g}\n", variant, (double)cpu / draws, (double)total / 1e6);
}

/// What B5 and B6 draw with: B2's pipeline and triangles (a vertex buffer), each draw's
/// colour at a dynamic offset of one uniform buffer written once before the submit, the
/// 64×64 target and its readback.
typedef struct {
    WGPURenderPipeline pipeline;
    WGPUBindGroup group;
    WGPUBuffer vertices, uniforms, readback;
    WGPUTexture target;
    WGPUTextureView view;
    uint8_t *staging;
} ColorScene;

static ColorScene colorSceneCreate(int draws) {
    ColorScene scene;
    WGPUBindGroupLayoutEntry entry = bufferEntry(64, WGPUShaderStage_Fragment, WGPUBufferBindingType_Uniform, 1, 16);
    WGPUBindGroupLayoutDescriptor layoutDescriptor = {.entryCount = 1, .entries = &entry};
    WGPUBindGroupLayout groupLayout = wgpuDeviceCreateBindGroupLayout(device, &layoutDescriptor);
    WGPUVertexAttribute attribute = {.format = WGPUVertexFormat_Float32x2, .offset = 0, .shaderLocation = 0};
    scene.pipeline = renderPipeline(pipelineLayout(groupLayout), encodingSource, 8, &attribute, 1);
    float triangles[CELLS * 6];
    for (int cell = 0; cell < CELLS; cell++) {
        float x = (float)(2 * (cell % 32)) / 32 - 1, y = (float)(2 * (cell / 32)) / 32 - 1;
        float triangle[6] = {x, y, x + 2.0f / 32, y, x, y + 2.0f / 32};
        memcpy(triangles + cell * 6, triangle, sizeof triangle);
    }
    scene.vertices = buffer(sizeof triangles, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst);
    wgpuQueueWriteBuffer(queue, scene.vertices, 0, triangles, sizeof triangles);
    scene.uniforms = buffer((uint64_t)draws * ALIGN, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst);
    scene.staging = calloc((size_t)draws, ALIGN);
    WGPUBindGroupEntry groupEntry = {.binding = 64, .buffer = scene.uniforms, .size = 16};
    WGPUBindGroupDescriptor groupDescriptor = {.layout = groupLayout, .entryCount = 1, .entries = &groupEntry};
    scene.group = wgpuDeviceCreateBindGroup(device, &groupDescriptor);
    scene.target = texture(SIZE2, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    scene.view = wgpuTextureCreateView(scene.target, NULL);
    scene.readback = buffer(SIZE2 * SIZE2 * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    return scene;
}

/// Draw i's colour into the staging copy of the uniform buffer.
static void colorSceneStage(ColorScene *scene, int i) {
    float color[4];
    drawColor(i, color);
    memcpy(scene->staging + (size_t)i * ALIGN, color, 16);
}

/// Ends `encoder` as B2 does (the target copied to the readback), writes the colours and
/// submits; `cpu` is the time from `start` to the submit, `total` to the pixels; checks them.
static void colorSceneFinish(ColorScene *scene, WGPUCommandEncoder encoder, int draws, const char *bench, uint64_t start,
                             uint64_t *cpu, uint64_t *total) {
    copyToReadback(encoder, scene->target, scene->readback, SIZE2);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
    wgpuQueueWriteBuffer(queue, scene->uniforms, 0, scene->staging, (size_t)draws * ALIGN);
    wgpuQueueSubmit(queue, 1, &commands);
    *cpu = nowNanoseconds() - start;
    const uint8_t *pixels = mapRead(scene->readback, SIZE2 * SIZE2 * 4);
    *total = nowNanoseconds() - start;
    checkCells(pixels, draws, bench);
    wgpuBufferUnmap(scene->readback);
    wgpuCommandBufferRelease(commands);
    wgpuCommandEncoderRelease(encoder);
}

enum { MAX_THREADS = 16 };

/// One recording thread's share of B5: a render bundle of draws [first, first + count).
typedef struct {
    ColorScene *scene;
    int first, count;
    WGPURenderBundle bundle;
} Share;

/// Records a share into a render bundle of its own as B2's "dynamic-offset" variant records
/// its draws: the vertex buffer at the triangle's offset, the colour's dynamic offset, the
/// draw (SwiftGPU's and the C baseline's B5 rebind the vertex buffer per draw too).
static void *recordShare(void *argument) {
    Share *share = argument;
    WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
    WGPURenderBundleEncoderDescriptor descriptor = {.colorFormatCount = 1, .colorFormats = &format, .sampleCount = 1};
    WGPURenderBundleEncoder encoder = wgpuDeviceCreateRenderBundleEncoder(device, &descriptor);
    wgpuRenderBundleEncoderSetPipeline(encoder, share->scene->pipeline);
    for (int i = share->first; i < share->first + share->count; i++) {
        colorSceneStage(share->scene, i);
        uint32_t offset = (uint32_t)i * ALIGN;
        wgpuRenderBundleEncoderSetVertexBuffer(encoder, 0, share->scene->vertices, (uint64_t)(i % CELLS) * 24, 24);
        wgpuRenderBundleEncoderSetBindGroup(encoder, 0, share->scene->group, 1, &offset);
        wgpuRenderBundleEncoderDraw(encoder, 3, 1, 0, 0);
    }
    share->bundle = wgpuRenderBundleEncoderFinish(encoder, NULL);
    wgpuRenderBundleEncoderRelease(encoder);
    return NULL;
}

/// B5: B2's N draws in one render pass, split into `threads` consecutive shares recorded at
/// once into render bundles, one per thread (the calling thread records the first), which
/// the pass executes in order. Reports the wall time of encoding + submission, and the
/// total with the GPU.
static void benchParallelEncoding(int draws, int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "wgpu-bench: --threads must be 1...%d\n", MAX_THREADS);
        exit(64);
    }
    ColorScene scene = colorSceneCreate(draws);
    Share shares[MAX_THREADS];
    WGPURenderBundle bundles[MAX_THREADS];
    uint64_t cpu = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up
        uint64_t start = nowNanoseconds();
        pthread_t workers[MAX_THREADS];
        for (int t = 0; t < threads; t++) {
            int first = (int)((long)draws * t / threads);
            shares[t] = (Share){.scene = &scene, .first = first, .count = (int)((long)draws * (t + 1) / threads) - first};
            if (t > 0 && pthread_create(&workers[t], NULL, recordShare, &shares[t]) != 0) {
                fprintf(stderr, "wgpu-bench: pthread_create failed\n");
                exit(1);
            }
        }
        recordShare(&shares[0]);
        for (int t = 1; t < threads; t++) pthread_join(workers[t], NULL);
        for (int t = 0; t < threads; t++) bundles[t] = shares[t].bundle;
        WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
        WGPURenderPassEncoder render = beginPass(encoder, scene.view);
        wgpuRenderPassEncoderExecuteBundles(render, (size_t)threads, bundles);
        wgpuRenderPassEncoderEnd(render);
        wgpuRenderPassEncoderRelease(render);
        colorSceneFinish(&scene, encoder, draws, "B5", start, &cpu, &total);
        for (int t = 0; t < threads; t++) wgpuRenderBundleRelease(bundles[t]);
    }
    printf("{\"impl\":\"wgpu-native\",\"bench\":\"B5\",\"variant\":\"%d\",\"ok\":true,\"cpu_ms\":%.6g,\"cpu_ns_per_draw\":%.6g,"
           "\"total_ms\":%.6g}\n", threads, (double)cpu / 1e6, (double)cpu / draws, (double)total / 1e6);
}

// B6's compute pass: draw i's indirect arguments (vertex count, instance count, first
// vertex, first instance), 3 vertices of triangle i % 1024, as Benchmarks/Shaders/indirect_args.comp.
static const char *argumentsSource =
    "@group(0) @binding(0) var<storage, read_write> draws: array<vec4u>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {\n"
    "    if (id.x < arrayLength(&draws)) { draws[id.x] = vec4u(3u, 1u, (id.x % 1024u) * 3u, 0u); }\n"
    "}\n";

/// B6: a compute pass writes N draws' indirect arguments into a buffer the host zeroed,
/// and one render pass makes N indirect draws from them, each with its colour's dynamic
/// offset (wgpu orders the indirect reads after the compute writes itself). Reports the
/// CPU time of encoding + submission per draw, and the total with the GPU.
static void benchIndirect(int draws) {
    ColorScene scene = colorSceneCreate(draws);
    WGPUBindGroupLayoutEntry entry = bufferEntry(0, WGPUShaderStage_Compute, WGPUBufferBindingType_Storage, 0, 16);
    WGPUBindGroupLayoutDescriptor layoutDescriptor = {.entryCount = 1, .entries = &entry};
    WGPUBindGroupLayout layout = wgpuDeviceCreateBindGroupLayout(device, &layoutDescriptor);
    WGPUComputePipelineDescriptor descriptor = {.layout = pipelineLayout(layout),
                                                .compute = {.module = shader(argumentsSource), .entryPoint = text("main")}};
    WGPUComputePipeline compute = wgpuDeviceCreateComputePipeline(device, &descriptor);
    uint64_t size = (uint64_t)draws * 16;
    WGPUBuffer arguments = buffer(size, WGPUBufferUsage_Storage | WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst);
    WGPUBindGroupEntry groupEntry = {.binding = 0, .buffer = arguments, .size = size};
    WGPUBindGroupDescriptor groupDescriptor = {.layout = layout, .entryCount = 1, .entries = &groupEntry};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &groupDescriptor);
    void *zeros = calloc((size_t)draws, 16);
    uint64_t cpu = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) {   // pass 0 warms up
        wgpuQueueWriteBuffer(queue, arguments, 0, zeros, size);
        uint64_t start = nowNanoseconds();
        WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
        WGPUComputePassEncoder computePass = wgpuCommandEncoderBeginComputePass(encoder, NULL);
        wgpuComputePassEncoderSetPipeline(computePass, compute);
        wgpuComputePassEncoderSetBindGroup(computePass, 0, group, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(computePass, ((uint32_t)draws + 63) / 64, 1, 1);
        wgpuComputePassEncoderEnd(computePass);
        wgpuComputePassEncoderRelease(computePass);
        WGPURenderPassEncoder render = beginPass(encoder, scene.view);
        wgpuRenderPassEncoderSetPipeline(render, scene.pipeline);
        wgpuRenderPassEncoderSetVertexBuffer(render, 0, scene.vertices, 0, CELLS * 24);
        for (int i = 0; i < draws; i++) {
            colorSceneStage(&scene, i);
            uint32_t offset = (uint32_t)i * ALIGN;
            wgpuRenderPassEncoderSetBindGroup(render, 0, scene.group, 1, &offset);
            wgpuRenderPassEncoderDrawIndirect(render, arguments, (uint64_t)i * 16);
        }
        wgpuRenderPassEncoderEnd(render);
        wgpuRenderPassEncoderRelease(render);
        colorSceneFinish(&scene, encoder, draws, "B6", start, &cpu, &total);
    }
    printf("{\"impl\":\"wgpu-native\",\"bench\":\"B6\",\"variant\":\"\",\"ok\":true,\"cpu_ns_per_draw\":%.6g,\"total_ms\":%.6g}\n",
           (double)cpu / draws, (double)total / 1e6);
}

static const char *texturedSource =
    "struct Out { @builtin(position) position: vec4f, @location(0) uv: vec2f }\n"
    "@vertex fn vs(@location(0) p: vec2f, @location(1) uv: vec2f) -> Out { return Out(vec4f(p.x, -p.y, 0.0, 1.0), uv); }\n"
    "@group(0) @binding(96) var image: texture_2d<f32>;\n"
    "@group(0) @binding(112) var imageSampler: sampler;\n"
    "@fragment fn fs(in: Out) -> @location(0) vec4f { return textureSample(image, imageSampler, in.uv); }\n";

enum { SIZE3 = 256 };

/// B3: N frames of a 256×256 textured triangle covering the target, each read back and
/// checked (a diagonal and a row; every pixel of the last frame).
/// B3 (`processStart` 0): ten warm-up frames, then N. B7: one frame, reported as the time
/// from `processStart` (the parent's CLOCK_MONOTONIC reading just before it started this
/// process) to its completion; wgpu-native keeps no pipeline cache across processes here.
static void benchFrameLoop(int frames, uint64_t processStart) {
    WGPUBindGroupLayoutEntry entries[2] = {WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT};
    entries[0].binding = 96;
    entries[0].visibility = WGPUShaderStage_Fragment;
    entries[0].texture.sampleType = WGPUTextureSampleType_Float;
    entries[0].texture.viewDimension = WGPUTextureViewDimension_2D;
    entries[1].binding = 112;
    entries[1].visibility = WGPUShaderStage_Fragment;
    entries[1].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPUBindGroupLayoutDescriptor layoutDescriptor = {.entryCount = 2, .entries = entries};
    WGPUBindGroupLayout groupLayout = wgpuDeviceCreateBindGroupLayout(device, &layoutDescriptor);
    WGPUVertexAttribute attributes[2] = {{.format = WGPUVertexFormat_Float32x2, .offset = 0, .shaderLocation = 0},
                                         {.format = WGPUVertexFormat_Float32x2, .offset = 8, .shaderLocation = 1}};
    WGPURenderPipeline pipeline = renderPipeline(pipelineLayout(groupLayout), texturedSource, 16, attributes, 2);
    float triangle[12] = {-1, -1, 0, 0, 3, -1, 2, 0, -1, 3, 0, 2};
    WGPUBuffer vertices = buffer(sizeof triangle, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst);
    wgpuQueueWriteBuffer(queue, vertices, 0, triangle, sizeof triangle);
    uint8_t *texels = malloc(SIZE3 * SIZE3 * 4);
    for (int y = 0; y < SIZE3; y++)
        for (int x = 0; x < SIZE3; x++) {
            uint8_t *t = texels + (y * SIZE3 + x) * 4;
            t[0] = (uint8_t)x, t[1] = (uint8_t)y, t[2] = (uint8_t)(x ^ y), t[3] = 255;
        }
    WGPUTexture image = texture(SIZE3, WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    WGPUTexelCopyTextureInfo destination = {.texture = image};
    WGPUTexelCopyBufferLayout layout = {.bytesPerRow = SIZE3 * 4, .rowsPerImage = SIZE3};
    WGPUExtent3D extent = {SIZE3, SIZE3, 1};
    wgpuQueueWriteTexture(queue, &destination, texels, SIZE3 * SIZE3 * 4, &layout, &extent);
    WGPUSamplerDescriptor samplerDescriptor = WGPU_SAMPLER_DESCRIPTOR_INIT;
    WGPUSampler sampler = wgpuDeviceCreateSampler(device, &samplerDescriptor);
    WGPUBindGroupEntry groupEntries[2] = {{.binding = 96, .textureView = wgpuTextureCreateView(image, NULL)},
                                          {.binding = 112, .sampler = sampler}};
    WGPUBindGroupDescriptor groupDescriptor = {.layout = groupLayout, .entryCount = 2, .entries = groupEntries};
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(device, &groupDescriptor);
    WGPUTexture target = texture(SIZE3, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(target, NULL);
    WGPUBuffer readback = buffer(SIZE3 * SIZE3 * 4, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);

    uint64_t start = 0;
    for (int frame = processStart ? 0 : -10; frame < frames; frame++) {
        if (frame == 0) start = nowNanoseconds();
        WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
        WGPURenderPassEncoder render = beginPass(encoder, view);
        wgpuRenderPassEncoderSetPipeline(render, pipeline);
        wgpuRenderPassEncoderSetVertexBuffer(render, 0, vertices, 0, sizeof triangle);
        wgpuRenderPassEncoderSetBindGroup(render, 0, group, 0, NULL);
        wgpuRenderPassEncoderDraw(render, 3, 1, 0, 0);
        wgpuRenderPassEncoderEnd(render);
        wgpuRenderPassEncoderRelease(render);
        copyToReadback(encoder, target, readback, SIZE3);
        WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
        wgpuQueueSubmit(queue, 1, &commands);
        wgpuCommandBufferRelease(commands);
        wgpuCommandEncoderRelease(encoder);
        const uint8_t *pixels = mapRead(readback, SIZE3 * SIZE3 * 4);
        int full = frame == -10 || frame == frames - 1, checked = full ? SIZE3 * SIZE3 : 2 * SIZE3;
        for (int i = 0; i < checked; i++) {
            int x = i % SIZE3, y = full ? i / SIZE3 : (i < SIZE3 ? i : ((frame < 0 ? 0 : frame) * 7) % SIZE3);
            const uint8_t *p = pixels + (y * SIZE3 + x) * 4;
            if (p[0] != (uint8_t)x || p[1] != (uint8_t)y || p[2] != (uint8_t)(x ^ y) || p[3] != 255)
                wrongResult("B3 frame %d pixel %d,%d is %u,%u,%u,%u", frame, x, y, p[0], p[1], p[2], p[3]);
        }
        wgpuBufferUnmap(readback);
    }
    if (processStart) {
        printf("{\"impl\":\"wgpu-native\",\"bench\":\"B7\",\"variant\":\"\",\"ok\":true,\"first_frame_ms\":%.6g}\n",
               (double)(nowNanoseconds() - processStart) / 1e6);
        return;
    }
    double seconds = (double)(nowNanoseconds() - start) / 1e9;
    printf("{\"impl\":\"wgpu-native\",\"bench\":\"B3\",\"variant\":\"\",\"ok\":true,\"fps\":%.6g,\"peak_rss_mib\":%.6g}\n",
           frames / seconds, peakResidentMiB());
}

int main(int argc, char **argv) {
    const char *bench = "";
    const char *variant = "dynamic-offset";
    int validate = 0, count = 0, threads = 1;
    uint64_t processStart = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc) bench = argv[i + 1];
        if (strcmp(argv[i], "--start") == 0 && i + 1 < argc) processStart = strtoull(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) count = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) variant = argv[i + 1];
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[i + 1]);
        validate |= strcmp(argv[i], "--validate") == 0;
    }
    setUp(validate);
    if (strcmp(bench, "B1") == 0) benchSubmission(count > 0 ? count : 10000);
    else if (strcmp(bench, "B2") == 0) benchEncoding(count > 0 ? count : 100000, variant);
    else if (strcmp(bench, "B3") == 0) benchFrameLoop(1000, 0);
    else if (strcmp(bench, "B7") == 0) benchFrameLoop(1, processStart ? processStart : nowNanoseconds());
    else if (strcmp(bench, "B4") == 0) benchDrain();
    else if (strcmp(bench, "B5") == 0) benchParallelEncoding(count > 0 ? count : 100000, threads);
    else if (strcmp(bench, "B6") == 0) benchIndirect(count > 0 ? count : 10000);
    else {
        fprintf(stderr, "usage: WGPUBench --bench B1|B2|B3|B4|B5|B6|B7 [--count N] "
                        "[--variant dynamic-offset|one-bind-group|first-vertex|immediates] [--threads T] [--start NS] [--validate]\n");
        return 64;
    }
    wgpuDevicePoll(device, 1, NULL);
    if (validate) {
        if (messages > 0) {
            fprintf(stderr, "wgpu-bench: %u validation messages\n", messages);
            return 3;
        }
        fprintf(stderr, "wgpu-bench: validation on, 0 messages\n");
    }
    return 0;
}
