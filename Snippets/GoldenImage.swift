// A golden-image check as SwiftGPU's render tests make it: render, read back, compare with a
// reference PNG within a tolerance, write the actual image and a diff on a mismatch, and
// fail on any validation message.
import Foundation
import GPU
import PNG

// snippet.hide
func render(device: Device, size: Int) throws -> [UInt8] {
    let queue = try device.makeCommandQueue()
    let target = try device.makeTexture(descriptor: TextureDescriptor(
        pixelFormat: .rgba8Unorm, width: size, height: size, usage: [.renderTarget, .shaderRead]))
    let pass = RenderPassDescriptor()
    pass.colorAttachments[0].texture = target
    pass.colorAttachments[0].loadAction = .clear
    pass.colorAttachments[0].clearColor = ClearColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
    let commandBuffer = try queue.makeCommandBuffer()
    try commandBuffer.makeRenderCommandEncoder(descriptor: pass).endEncoding()
    commandBuffer.commit()
    commandBuffer.waitUntilCompleted()
    var pixels = [UInt8](repeating: 0, count: size * size * 4)
    target.getBytes(&pixels, bytesPerRow: size * 4, from: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0)
    return pixels
}

func run() throws {
let device = try Device.makeDefault()
let size = 32
let pixels = try render(device: device, size: size)
let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("swiftgpu-golden-snippet")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let reference = directory.appendingPathComponent("clear.png")
try Image(width: size, height: size, fill: (r: 51, g: 102, b: 153, a: 255)).writePNG(to: reference)
// snippet.show
// snippet.compare
let channelTolerance = 4            // rasterisation and filtering rounding across drivers
let maxDifferingShare = 0.005       // edge coverage: at most 0.5% of the pixels beyond it

let actual = Image(width: size, height: size, pixels: pixels)
let expected = try Image(contentsOfPNG: reference)
guard let difference = actual.difference(from: expected, tolerance: channelTolerance) else {
    fatalError("the render is \(size)×\(size), the reference \(expected.width)×\(expected.height)")
}
if difference.differingShare > maxDifferingShare {
    try actual.writePNG(to: directory.appendingPathComponent("clear-actual.png"))
    try difference.diffImage.writePNG(to: directory.appendingPathComponent("clear-diff.png"))   // differing pixels red
    fatalError("\(difference.differingPixels) pixels differ; largest difference \(difference.largestChannelDifference)")
}
// snippet.end

// snippet.validation
// With GPU_VALIDATION=1 the Khronos validation layer is on, and every message is counted.
let before = Validation.messageCount
// … the test's GPU work …
precondition(Validation.messageCount == before, "validation: \(Validation.messages.suffix(Validation.messageCount - before))")
// snippet.end
print("matches its reference within ±\(channelTolerance); validation messages:", Validation.messageCount)
// snippet.hide
}
try run()
