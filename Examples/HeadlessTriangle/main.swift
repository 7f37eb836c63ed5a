// HeadlessTriangle: renders a per-vertex-colour triangle off screen and writes it as a PNG.
//
//     swift run HeadlessTriangle [--output triangle.png] [--width 512] [--height 512]
import Foundation
import GPU
import GPUFoundationCompat
import PNG
import Shaders

func option(_ name: String) -> String? {
    CommandLine.arguments.firstIndex(of: name).flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
}

let output = URL(fileURLWithPath: option("--output") ?? "triangle.png")
let width = option("--width").flatMap(Int.init) ?? 512
let height = option("--height").flatMap(Int.init) ?? 512
guard width > 0, height > 0 else {
    print("error: --width and --height must be positive")
    exit(2)
}

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)

    let descriptor = RenderPipelineDescriptor()
    descriptor.vertexFunction = try library.makeFunction(name: "triangle.vert")
    descriptor.fragmentFunction = try library.makeFunction(name: "color.frag")
    let layout = VertexDescriptor()
    layout.attributes[0].format = .float2             // position
    layout.attributes[1].format = .float4             // colour
    layout.attributes[1].offset = 8
    layout.layouts[0].stride = 24
    descriptor.vertexDescriptor = layout
    descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
    descriptor.rasterSampleCount = 4
    let pipeline = try device.makeRenderPipelineState(descriptor: descriptor)

    let vertices: [Float] = [0, 0.8, 1, 0, 0, 1, 0.8, -0.8, 0, 1, 0, 1, -0.8, -0.8, 0, 0, 1, 1]
    let vertexBuffer = try vertices.withUnsafeBytes { try device.makeBuffer(bytes: $0.baseAddress!, length: $0.count) }
    let samples = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: width, height: height,
                                                                       sampleCount: 4, usage: .renderTarget))
    let image = try device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: width, height: height,
                                                                     usage: [.renderTarget, .shaderRead]))

    let pass = RenderPassDescriptor()
    pass.colorAttachments[0].texture = samples
    pass.colorAttachments[0].loadAction = .clear
    pass.colorAttachments[0].clearColor = ClearColor(red: 0.05, green: 0.05, blue: 0.1, alpha: 1)
    pass.colorAttachments[0].storeAction = .multisampleResolve
    pass.colorAttachments[0].resolveTexture = image

    let commandBuffer = try queue.makeCommandBuffer()
    let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
    encoder.setRenderPipelineState(pipeline)
    encoder.setVertexBuffer(vertexBuffer, offset: 0, index: 0)
    var transform: [Float] = [0, 0, 1, 1, 0.5, 0, 0, 0]
    encoder.setVertexBytes(&transform, length: 32, index: 2)
    encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
    encoder.endEncoding()
    commandBuffer.commit()
    commandBuffer.waitUntilCompleted()
    guard commandBuffer.status == .completed else {
        print("error: \(commandBuffer.error.map(String.init(describing:)) ?? "the frame failed")")
        exit(1)
    }

    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    image.getBytes(&pixels, bytesPerRow: width * 4, from: Region(x: 0, y: 0, width: width, height: height), mipmapLevel: 0)
    try Image(width: width, height: height, pixels: pixels).writePNG(to: output)
    print("device: \(device.name)")
    print(String(format: "rendered %d×%d (4× MSAA) in %.2f ms of GPU time", width, height,
                 (commandBuffer.gpuEndTime - commandBuffer.gpuStartTime) * 1000))
    print("wrote \(output.path)")
} catch {
    print("error: \(error)")
    exit(1)
}
