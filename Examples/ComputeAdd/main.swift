// ComputeAdd: adds two vectors of 1M floats on the GPU and checks the result.
//
//     swift run -c release ComputeAdd [--count N]
import Foundation
import GPU
import GPUFoundationCompat
import Shaders

let arguments = CommandLine.arguments
let count = arguments.firstIndex(of: "--count").flatMap { Int(arguments[$0 + 1]) } ?? 1 << 20

do {
    let device = try Device.makeDefault()
    print("device: \(device.name)\(device.isSoftware ? " (software)" : "")")
    let queue = try device.makeCommandQueue()
    let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
    let pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "add.comp"))

    let length = count * MemoryLayout<Float>.stride
    let a = try device.makeBuffer(length: length)
    let b = try device.makeBuffer(length: length)
    let result = try device.makeBuffer(length: length)
    let aValues = a.contents().bindMemory(to: Float.self, capacity: count)
    let bValues = b.contents().bindMemory(to: Float.self, capacity: count)
    for i in 0..<count {
        aValues[i] = Float(i)
        bValues[i] = Float(2 * i) + 0.5
    }

    let commandBuffer = try queue.makeCommandBuffer()
    commandBuffer.label = "vector add"
    let encoder = try commandBuffer.makeComputeCommandEncoder()
    encoder.setComputePipelineState(pipeline)
    encoder.setBuffer(a, offset: 0, index: 0)
    encoder.setBuffer(b, offset: 0, index: 1)
    encoder.setBuffer(result, offset: 0, index: 2)
    var elementCount = UInt32(count)
    encoder.setBytes(&elementCount, length: 4, index: 3)
    encoder.dispatchThreads(Size(width: count), threadsPerThreadgroup: pipeline.threadsPerThreadgroup)
    encoder.endEncoding()
    let start = Date()
    commandBuffer.commit()
    commandBuffer.waitUntilCompleted()
    let wall = Date().timeIntervalSince(start)
    guard commandBuffer.status == .completed else {
        print("command buffer failed: \(commandBuffer.error.map(String.init(describing:)) ?? "unknown")")
        exit(1)
    }

    let output = result.contents().bindMemory(to: Float.self, capacity: count)
    let mismatches = (0..<count).filter { output[$0] != Float(3 * $0) + 0.5 }.count
    print("result: \(count) elements, \(mismatches == 0 ? "all correct" : "\(mismatches) WRONG")")
    print(String(format: "timings: commit→completed %.2f ms, GPU %.2f ms (gpuStartTime→gpuEndTime)",
                 wall * 1000, (commandBuffer.gpuEndTime - commandBuffer.gpuStartTime) * 1000))
    exit(mismatches == 0 ? 0 : 1)
} catch {
    print("error: \(error)")
    exit(1)
}
