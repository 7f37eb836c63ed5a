// A Metal kernel and a Metal fragment function translated to GLSL, with the host code that
// binds them at Metal's indices.
import GPU

// snippet.hide
func run() throws {
let device = try Device.makeDefault()
let queue = try device.makeCommandQueue()
// snippet.show

// snippet.kernel
// MSL:
//   struct Params { float scale; uint count; };
//   kernel void scale(device const float *input  [[buffer(0)]],
//                     device float       *output [[buffer(1)]],
//                     constant Params    &params [[buffer(2)]],
//                     uint gid [[thread_position_in_grid]]) {
//       output[gid] = input[gid] * params.scale;
//   }
let kernelSource = """
    #version 450
    #pragma shader_stage(compute)
    layout(local_size_x_id = 0) in;   // the threadgroup size is chosen at dispatch, as in Metal
    layout(set = 0, binding = 0) readonly buffer Input { float inputs[]; };    // [[buffer(0)]]: 0
    layout(set = 0, binding = 1) writeonly buffer Output { float outputs[]; }; // [[buffer(1)]]: 1
    layout(set = 0, binding = 2) uniform Params { float scale; uint count; };  // [[buffer(2)]]: 2
    void main() {
        uint gid = gl_GlobalInvocationID.x;                                    // thread_position_in_grid
        outputs[gid] = inputs[gid] * scale;
    }
    """
let kernelOptions = CompileOptions()
kernelOptions.functionName = "scale"
let kernel = try device.makeLibrary(source: kernelSource, options: kernelOptions).makeFunction(name: "scale")
let scalePipeline = try device.makeComputePipelineState(function: kernel)
// snippet.end

// snippet.dispatch
let count = 100
let input = try device.makeBuffer(length: count * 4)
let output = try device.makeBuffer(length: count * 4)
let values = input.contents().bindMemory(to: Float.self, capacity: count)
for i in 0..<count { values[i] = Float(i) }

struct Params { var scale: Float; var count: UInt32 }
var params = Params(scale: 2, count: UInt32(count))

let commandBuffer = try queue.makeCommandBuffer()
let compute = try commandBuffer.makeComputeCommandEncoder()
compute.setComputePipelineState(scalePipeline)
compute.setBuffer(input, offset: 0, index: 0)
compute.setBuffer(output, offset: 0, index: 1)
compute.setBytes(&params, length: MemoryLayout<Params>.size, index: 2)   // becomes push constants
// Apple's sizing: one threadgroup as wide as the pipeline allows, the grid covered exactly.
let width = min(scalePipeline.maxTotalThreadsPerThreadgroup, count)
compute.dispatchThreads(Size(width: count), threadsPerThreadgroup: Size(width: width))
compute.endEncoding()
// snippet.end

// snippet.fragment
// MSL:
//   struct VertexOut { float4 position [[position]]; float2 uv; };
//   fragment float4 shade(VertexOut in [[stage_in]],
//                         texture2d<float> colorMap [[texture(0)]],
//                         sampler s [[sampler(0)]],
//                         constant float4 &tint [[buffer(1)]]) {
//       return colorMap.sample(s, in.uv) * tint;
//   }
let fragmentSource = """
    #version 450
    #pragma shader_stage(fragment)
    layout(location = 0) in vec2 uv;                                         // [[stage_in]]'s uv
    layout(set = 0, binding = 96) uniform texture2D colorMap;                 // [[texture(0)]]: 96 + 0
    layout(set = 0, binding = 112) uniform sampler s;                         // [[sampler(0)]]: 112 + 0
    layout(set = 0, binding = 65) uniform Tint { vec4 tint; };                // [[buffer(1)]]: 64 + 1
    layout(location = 0) out vec4 color;                                      // the float4 returned
    void main() {
        color = texture(sampler2D(colorMap, s), uv) * tint;
    }
    """
// A full-screen triangle whose uv runs 0…1 over the target; Metal's clip space, y up.
let vertexSource = """
    #version 450
    #pragma shader_stage(vertex)
    layout(location = 0) out vec2 uv;                                          // VertexOut.uv
    void main() {
        vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);          // vertex_id
        uv = vec2(p.x, 1.0 - p.y);
        gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
    }
    """
// snippet.end

// snippet.draw
let fragmentOptions = CompileOptions()
fragmentOptions.functionName = "shade"
let vertexOptions = CompileOptions()
vertexOptions.functionName = "fullScreen"
let descriptor = RenderPipelineDescriptor()
descriptor.vertexFunction = try device.makeLibrary(source: vertexSource, options: vertexOptions)
    .makeFunction(name: "fullScreen")
descriptor.fragmentFunction = try device.makeLibrary(source: fragmentSource, options: fragmentOptions)
    .makeFunction(name: "shade")
descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
let shadePipeline = try device.makeRenderPipelineState(descriptor: descriptor)

let colorMap = try device.makeTexture(descriptor: TextureDescriptor(
    pixelFormat: .rgba8Unorm, width: 2, height: 2, usage: .shaderRead))
let white = [UInt8](repeating: 255, count: 2 * 2 * 4)
colorMap.replace(region: Region(x: 0, y: 0, width: 2, height: 2), mipmapLevel: 0, withBytes: white, bytesPerRow: 8)
let sampler = try device.makeSamplerState(descriptor: SamplerDescriptor())
let target = try device.makeTexture(descriptor: TextureDescriptor(
    pixelFormat: .rgba8Unorm, width: 16, height: 16, usage: [.renderTarget, .shaderRead]))

let pass = RenderPassDescriptor()
pass.colorAttachments[0].texture = target
pass.colorAttachments[0].loadAction = .clear
var tint: SIMD4<Float> = [1, 0.5, 0, 1]
let render = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
render.setRenderPipelineState(shadePipeline)
render.setFragmentTexture(colorMap, index: 0)          // Metal's texture index, not the binding
render.setFragmentSamplerState(sampler, index: 0)
render.setFragmentBytes(&tint, length: 16, index: 1)
render.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
render.endEncoding()
commandBuffer.commit()
commandBuffer.waitUntilCompleted()
// snippet.end

// snippet.hide
let results = output.contents().bindMemory(to: Float.self, capacity: count)
var pixel = [UInt8](repeating: 0, count: 4)
target.getBytes(&pixel, bytesPerRow: 4, from: Region(x: 8, y: 8, width: 1, height: 1), mipmapLevel: 0)
print("status:", commandBuffer.status, "outputs[99] =", results[99], "pixel:", pixel)
guard commandBuffer.status == .completed, results[99] == 198, pixel == [255, 128, 0, 255] else {
    fatalError("the ported shaders gave the wrong result")
}
}
try run()
