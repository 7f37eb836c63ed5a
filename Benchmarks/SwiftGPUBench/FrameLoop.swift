import GPU

/// The B3 scene, shared with the baselines: a 256×256 texture whose texel (x, y) is
/// (x, y, x ^ y, 255), drawn as a full-target quad with a nearest sampler, so every read-back
/// pixel must equal its texel.
enum FrameScene {
    static let size = 256

    static func texel(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        (UInt8(x), UInt8(y), UInt8(x ^ y), 255)
    }

    /// Written in place, as the C baseline fills its staging memory: the texels are the
    /// benchmark's input, not the library's work.
    static func image() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size * size * 4) { bytes, count in
            for y in 0..<size {
                for x in 0..<size {
                    let t = texel(x: x, y: y), o = (y * size + x) * 4
                    (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]) = (t.0, t.1, t.2, t.3)
                }
            }
            count = size * size * 4
        }
    }

    /// Checks a diagonal and a row of pixels every frame; `full` checks all of them.
    static func check(_ pixels: UnsafeRawPointer, frame: Int, full: Bool) {
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        for i in 0..<(full ? size * size : 2 * size) {
            let x = i % size, y = full ? i / size : (i < size ? i : (frame * 7) % size)
            let t = texel(x: x, y: y), o = (y * size + x) * 4
            let p = (bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3])
            if p != t { fail("B3 frame \(frame) pixel \(x),\(y) is \(p), expected \(t)") }
        }
    }
}

/// B3: 1,000 frames of a 256×256 textured quad rendered and read back (each frame waits
/// for its pixels); reports frames per second and the peak resident memory. With
/// `processStart` (B7), one frame and no warm-up, reported as the time from
/// `processStart` (the parent's CLOCK_MONOTONIC reading just before it started this
/// process) to that frame's completion; the pipeline cache is wherever
/// GPU_PIPELINE_CACHE_DIR says.
func frameLoop(frames: Int = 1_000, processStart: UInt64? = nil) throws -> RunReport {
    let queue = try device.makeCommandQueue()
    let size = FrameScene.size
    let image = try device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: size, height: size, mipmapped: false))
    image.replace(region: Region(x: 0, y: 0, width: size, height: size), mipmapLevel: 0,
                      withBytes: FrameScene.image(), bytesPerRow: size * 4)
    let sampler = try device.makeSamplerState(descriptor: SamplerDescriptor())
    let descriptor = RenderPipelineDescriptor()
    descriptor.vertexFunction = try library.makeFunction(name: "textured.vert")
    descriptor.fragmentFunction = try library.makeFunction(name: "textured.frag")
    let layout = VertexDescriptor()
    layout.attributes[0].format = .float2
    layout.attributes[1].format = .float2
    layout.attributes[1].offset = 8
    layout.layouts[0].stride = 16
    descriptor.vertexDescriptor = layout
    descriptor.colorAttachments[0].pixelFormat = .rgba8Unorm
    // The shaders are shared with the C and wgpu baselines, so they use Vulkan's clip space.
    descriptor.clipSpace = .vulkan
    let pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
    var quad: [Float] = [-1, -1, 0, 0, 3, -1, 2, 0, -1, 3, 0, 2]   // one triangle covering the target
    let vertices = try device.makeBuffer(bytes: &quad, length: quad.count * 4)
    let target = try ReadbackTarget(device: device, size: size)

    func frame(_ index: Int, full: Bool) throws {
        let cb = try queue.makeCommandBuffer()
        let encoder = try cb.makeRenderCommandEncoder(descriptor: target.pass)
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        encoder.setFragmentTexture(image, index: 0)
        encoder.setFragmentSamplerState(sampler, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 3)
        encoder.endEncoding()
        try target.encodeReadback(cb)
        cb.commit()
        cb.waitUntilCompleted()
        guard cb.status == .completed else { fail("B3 frame \(index): \(String(describing: cb.error))") }
        FrameScene.check(target.readback.contents(), frame: index, full: full)
    }

    if let processStart {
        try frame(0, full: true)
        var report = RunReport(bench: "B7")
        report.metrics["first_frame_ms"] = Double(monotonicNanoseconds() - processStart) / 1e6
        return report
    }
    for index in 0..<10 { try frame(index, full: index == 0) }   // warm-up
    let start = now()
    for index in 0..<frames { try frame(index, full: index == frames - 1) }
    let elapsed = Double(now() - start) / 1e9
    var report = RunReport(bench: "B3")
    report.metrics["fps"] = Double(frames) / elapsed
    report.metrics["peak_rss_mib"] = peakResidentKiB() / 1024
    return report
}
