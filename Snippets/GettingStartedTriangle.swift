// Renders a triangle off screen, headless, and reads the pixels back.
import GPU

// snippet.hide
func run() throws {
// snippet.show
let device = try Device.makeDefault()
let queue = try device.makeCommandQueue()

// snippet.shaders
let vertexSource = """
    #version 450
    #pragma shader_stage(vertex)
    layout(location = 0) in vec2 position;     // attribute 0
    layout(location = 1) in vec4 color;        // attribute 1
    layout(location = 0) out vec4 vColor;
    void main() {
        gl_Position = vec4(position, 0.0, 1.0); // y up, as in Metal
        vColor = color;
    }
    """
let fragmentSource = """
    #version 450
    #pragma shader_stage(fragment)
    layout(location = 0) in vec4 vColor;
    layout(location = 0) out vec4 outColor;
    void main() { outColor = vColor; }
    """
let vertexOptions = CompileOptions()
vertexOptions.functionName = "triangleVertex"
let fragmentOptions = CompileOptions()
fragmentOptions.functionName = "triangleFragment"
let vertexLibrary = try device.makeLibrary(source: vertexSource, options: vertexOptions)
let fragmentLibrary = try device.makeLibrary(source: fragmentSource, options: fragmentOptions)
// snippet.end

// snippet.pipeline
let descriptor = RenderPipelineDescriptor()
descriptor.vertexFunction = try vertexLibrary.makeFunction(name: "triangleVertex")
descriptor.fragmentFunction = try fragmentLibrary.makeFunction(name: "triangleFragment")
let layout = VertexDescriptor()
layout.attributes[0].format = .float2           // position
layout.attributes[1].format = .float4           // colour
layout.attributes[1].offset = 8
layout.layouts[0].stride = 24
descriptor.vertexDescriptor = layout
descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
let pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
// snippet.end

// snippet.pass
let vertices: [Float] = [0, 0.8, 1, 0, 0, 1,   0.8, -0.8, 0, 1, 0, 1,   -0.8, -0.8, 0, 0, 1, 1]
let vertexBuffer = try vertices.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
let size = 64
let target = try device.makeTexture(descriptor: TextureDescriptor(
    pixelFormat: .rgba8Unorm, width: size, height: size, usage: [.renderTarget, .shaderRead]))

let pass = RenderPassDescriptor()              // Metal's defaults: colour load .dontCare, store .store
pass.colorAttachments[0].texture = target
pass.colorAttachments[0].loadAction = .clear
pass.colorAttachments[0].clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)

let commandBuffer = try queue.makeCommandBuffer()
let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
encoder.setRenderPipelineState(pipeline)
encoder.setVertexBuffer(vertexBuffer, offset: 0, index: 0)
encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
encoder.endEncoding()
commandBuffer.commit()
commandBuffer.waitUntilCompleted()
// snippet.end

// snippet.readback
var pixels = [UInt8](repeating: 0, count: size * size * 4)
target.getBytes(&pixels, bytesPerRow: size * 4, from: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0)
let centre = (size / 2 * size + size / 2) * 4
print("centre pixel RGBA:", pixels[centre..<centre + 4])
// snippet.end
// snippet.hide
}
try run()
