// Adds two vectors on the GPU: a device, a queue, a command buffer and a compute kernel.
// The kernel is GLSL compiled while the program runs, so the snippet needs no build plugin.
import GPU

// snippet.hide
func run() throws {
// snippet.show
let device = try Device.makeDefault()            // GPU_DEVICE=<index|name> picks another
let queue = try device.makeCommandQueue()

// snippet.kernel
// `local_size_x_id` lets the host choose the threadgroup size at dispatch, as Metal does.
let source = """
    #version 450
    #pragma shader_stage(compute)
    layout(local_size_x_id = 0) in;
    layout(set = 0, binding = 0) readonly buffer A { float a[]; };      // [[buffer(0)]]
    layout(set = 0, binding = 1) readonly buffer B { float b[]; };      // [[buffer(1)]]
    layout(set = 0, binding = 2) writeonly buffer Out { float sum[]; }; // [[buffer(2)]]
    void main() {
        uint i = gl_GlobalInvocationID.x;                               // thread_position_in_grid
        sum[i] = a[i] + b[i];
    }
    """
let options = CompileOptions()
options.functionName = "add"
let library = try device.makeLibrary(source: source, options: options)
let pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "add"))
// snippet.end

// snippet.buffers
let count = 1_000
let length = count * MemoryLayout<Float>.stride
let a = try device.makeBuffer(length: length)     // shared storage: contents() is CPU-visible
let b = try device.makeBuffer(length: length)
let sum = try device.makeBuffer(length: length)
let aValues = a.contents().bindMemory(to: Float.self, capacity: count)
let bValues = b.contents().bindMemory(to: Float.self, capacity: count)
for i in 0..<count {
    aValues[i] = Float(i)
    bValues[i] = 0.5
}
// snippet.end

// snippet.encode
let commandBuffer = try queue.makeCommandBuffer()
let encoder = try commandBuffer.makeComputeCommandEncoder()
encoder.setComputePipelineState(pipeline)
encoder.setBuffer(a, offset: 0, index: 0)
encoder.setBuffer(b, offset: 0, index: 1)
encoder.setBuffer(sum, offset: 0, index: 2)
// Exactly `count` threads run: no bounds check in the kernel, as with Metal's non-uniform grids.
let width = min(pipeline.maxTotalThreadsPerThreadgroup, count)
encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: width))
encoder.endEncoding()

commandBuffer.addCompletedHandler { buffer in
    print(buffer.status, "GPU time:", buffer.gpuEndTime - buffer.gpuStartTime, "s")
}
commandBuffer.commit()
commandBuffer.waitUntilCompleted()             // from async code: await commandBuffer.completed()
// snippet.end

let results = sum.contents().bindMemory(to: Float.self, capacity: count)
print("sum[999] =", results[999])              // 999.5
// snippet.hide
}
try run()
