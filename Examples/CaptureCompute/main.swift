// CaptureCompute: captures compute work with no window and no present, bracketed in code,
// into a RenderDoc capture file. Run it under RenderDoc:
//
//     renderdoccmd capture -w .build/debug/CaptureCompute --output /tmp/compute.rdc [--scope]
//     renderdoccmd capture -w -c /tmp/compute .build/debug/CaptureCompute --developer-tools
//
// Three command buffers each add to a counter; only the middle one ("captured work") is
// inside the capture: between startCapture(with:) and stopCapture(), or, with --scope,
// between a capture scope's begin() and end(). With --output the capture goes to that
// file (.gpuTraceDocument); with --developer-tools, where RenderDoc keeps its captures.
import Foundation
import GPU
import GPUFoundationCompat
import Shaders

let arguments = CommandLine.arguments
let output = arguments.firstIndex(of: "--output").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    .map { URL(fileURLWithPath: $0) }
guard output != nil || arguments.contains("--developer-tools") else {
    print("usage: CaptureCompute (--output FILE.rdc | --developer-tools) [--scope]")
    exit(2)
}
let usesScope = arguments.contains("--scope")

do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
    let pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "increment.comp"))
    let counter = try device.makeBuffer(length: 4)
    counter.contents().storeBytes(of: UInt32(0), as: UInt32.self)

    /// Commits one dispatch of `groups` threads, each adding `amount` to the counter, in a
    /// debug group named `name`, and waits for it.
    func run(_ name: String, groups: Int, amount: UInt32) throws {
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.pushDebugGroup(name)
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(counter, offset: 0, index: 0)
        var value = amount
        encoder.setBytes(&value, length: 4, index: 3)
        encoder.dispatchThreadgroups(Size(width: groups), threadsPerThreadgroup: Size(width: 1))
        encoder.popDebugGroup()
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        guard commandBuffer.status == .completed else {
            throw commandBuffer.error ?? CommandBufferError(.internal, "\(name) did not complete")
        }
    }

    let manager = CaptureManager.shared()
    print("supportsDestination(.gpuTraceDocument): \(manager.supportsDestination(.gpuTraceDocument))")
    print("supportsGPUAddresses: \(device.supportsGPUAddresses)")
    let descriptor = CaptureDescriptor()
    descriptor.destination = output == nil ? .developerTools : .gpuTraceDocument
    descriptor.outputURL = output
    if usesScope {
        let scope = manager.makeCaptureScope(commandQueue: queue)
        scope.label = "CaptureCompute"
        descriptor.captureObject = scope
        try manager.startCapture(with: descriptor)
        print("isCapturing, armed: \(manager.isCapturing)")
        try run("before work", groups: 3, amount: 1)
        scope.begin()
        try run("captured work", groups: 5, amount: 10)
        scope.end()
    } else {
        descriptor.captureObject = device
        try run("before work", groups: 3, amount: 1)
        try manager.startCapture(with: descriptor)
        try run("captured work", groups: 5, amount: 10)
        print("isCapturing: \(manager.isCapturing)")
        // One capture at a time, as in Metal.
        do {
            try manager.startCapture(with: descriptor)
        } catch {
            print("second startCapture: \(error.code)")
        }
        manager.stopCapture()
    }
    print("isCapturing after: \(manager.isCapturing)")
    try run("after work", groups: 7, amount: 100)
    print("counter: \(counter.contents().load(as: UInt32.self))")
    print("validation messages: \(Validation.messageCount)")
    if let output {
        guard FileManager.default.fileExists(atPath: output.path) else {
            print("no capture at \(output.path)")
            exit(1)
        }
        print("wrote \(output.path)")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
