import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's texture views: another format, type, levels or slices of a texture's image,
/// sharing its hazard tracking.
@Suite("Texture views", .validated)
struct TextureViewTests {
    /// The texels of `level` and `slice` of `texture`, RGBA8-sized.
    static func texels(_ texture: Texture, level: Int = 0, slice: Int = 0) -> [UInt8] {
        let size = texture.size(ofLevel: level)
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        texture.getBytes(&bytes, bytesPerRow: size.width * 4, from: Region(x: 0, y: 0, width: size.width, height: size.height),
                         mipmapLevel: level, slice: slice)
        return bytes
    }

    /// Clears `level` and `slice` of `texture` (a view or not) to `color` in a render pass,
    /// and commits without waiting.
    static func clear(_ gpu: TestGPU, _ texture: Texture, to color: ClearColor, slice: Int = 0) throws -> CommandBuffer {
        let pass = gpu.clearingPass(texture, clear: color)
        pass.colorAttachments[0].slice = slice
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        try commandBuffer.makeRenderCommandEncoder(descriptor: pass).endEncoding()
        commandBuffer.commit()
        return commandBuffer
    }

    @Test("a view of another format of the size class reinterprets the texels, and getBytes on the texture waits for a write through the view")
    func pixelFormatView() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            pixelFormat: .rgba8Unorm, width: 4, height: 4, usage: [.shaderRead, .renderTarget, .pixelFormatView]))
        let view = try texture.makeTextureView(pixelFormat: .bgra8Unorm)
        #expect(view.parent === texture && view.pixelFormat == .bgra8Unorm && view.width == 4 && view.usage == texture.usage)
        // Red, written as BGRA, is blue read as RGBA.
        _ = try Self.clear(gpu, view, to: ClearColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(Self.texels(texture) == Array(repeating: [0, 0, 255, 255], count: 16).flatMap { $0 })
        #expect(Self.texels(view) == Self.texels(texture), "the same bytes")
        // A 32-bit float view of the same texels: 0xFFFF0000 little-endian is a NaN's pattern.
        let float = try texture.makeTextureView(pixelFormat: .r32Float)
        var word: UInt32 = 0
        float.getBytes(&word, bytesPerRow: 4, from: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0)
        #expect(word == 0xFF_FF_00_00)
    }

    @Test("a 2D view of one level and slice of an array: rendering, replace and getBytes through it reach that level and slice of the texture alone, and a kernel samples it")
    func levelAndSlice() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            textureType: .type2DArray, pixelFormat: .rgba8Unorm, width: 8, height: 8, arrayLength: 4, mipmapLevelCount: 3,
            usage: [.shaderRead, .renderTarget]))
        let pattern = TextureTests.pattern(width: 4, height: 4)
        for slice in 0..<4 {
            texture.replace(region: Region(x: 0, y: 0, width: 4, height: 4), mipmapLevel: 1, slice: slice, withBytes: pattern,
                            bytesPerRow: 16)
        }
        let view = try texture.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2D, levels: 1..<2, slices: 2..<3)
        #expect(view.width == 4 && view.height == 4 && view.mipmapLevelCount == 1 && view.arrayLength == 1
            && view.textureType == .type2D && view.parentRelativeLevel == 1 && view.parentRelativeSlice == 2)
        _ = try Self.clear(gpu, view, to: ClearColor(red: 0, green: 1, blue: 0, alpha: 1))
        #expect(Self.texels(texture, level: 1, slice: 2) == Array(repeating: [0, 255, 0, 255], count: 16).flatMap { $0 })
        #expect(Self.texels(texture, level: 1, slice: 1) == pattern)
        #expect(Self.texels(texture, level: 1, slice: 3) == pattern)

        let other = TextureTests.pattern(width: 4, height: 4, seed: 9)
        view.replace(region: Region(x: 0, y: 0, width: 4, height: 4), mipmapLevel: 0, withBytes: other, bytesPerRow: 16)
        #expect(Self.texels(texture, level: 1, slice: 2) == other)
        #expect(Self.texels(view) == other)

        // A view of the view: its level and slice count from the view's.
        let inner = try view.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2DArray, levels: 0..<1, slices: 0..<1)
        #expect(inner.parent === view)
        #expect(Self.texels(inner) == other)

        // A kernel reads the view's texels through a combined image sampler.
        let library = try gpu.device.makeLibrary(source: """
            #version 450
            #pragma shader_stage(compute)
            layout(local_size_x = 4, local_size_y = 4) in;
            layout(binding = 32) uniform sampler2D image;
            layout(std430, binding = 0) writeonly buffer Out { uint result[]; };
            void main() {
                ivec2 p = ivec2(gl_GlobalInvocationID.xy);
                result[p.y * 4 + p.x] = packUnorm4x8(texelFetch(image, p, 0));
            }
            """)
        let output = try gpu.device.makeBuffer(length: 64)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.device.makeComputePipelineState(
            function: try library.makeFunction(name: library.functionNames[0])))
        encoder.setTexture(view, index: 0)
        encoder.setSamplerState(try gpu.device.makeSamplerState(descriptor: SamplerDescriptor()), index: 0)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.dispatchThreadgroups(Size(width: 1, height: 1), threadsPerThreadgroup: Size(width: 4, height: 4))
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        #expect(Array(UnsafeRawBufferPointer(start: output.contents(), count: 64)) == other)
    }

    @Test("generateMipmaps on a view of some levels fills those below its first from it, and leaves the texture's other levels")
    func mipmapsOfAView() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: .texture2D(pixelFormat: .rgba8Unorm, width: 8, height: 8, mipmapped: true))
        let top = TextureTests.pattern(width: 8, height: 8)
        texture.replace(region: Region(x: 0, y: 0, width: 8, height: 8), mipmapLevel: 0, withBytes: top, bytesPerRow: 32)
        let view = try texture.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2D, levels: 1..<3, slices: 0..<1)
        // Level 1 of the texture (the view's level 0): red 0, 16, ..., 240; the rest constant.
        let source: [UInt8] = (0..<16).flatMap { i -> [UInt8] in [UInt8(i * 16), 100, 200, 255] }
        view.replace(region: Region(x: 0, y: 0, width: 4, height: 4), mipmapLevel: 0, withBytes: source, bytesPerRow: 16)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.generateMipmaps(for: view)
        blit.endEncoding()
        commandBuffer.commit()
        let level2 = Self.texels(texture, level: 2)
        for (i, corner) in [0, 2, 8, 10].enumerated() {
            let expected = [corner, corner + 1, corner + 4, corner + 5].map { $0 * 16 }.reduce(0, +) / 4
            #expect(abs(Int(level2[i * 4]) - expected) <= 1, "level 2 texel \(i): \(level2[i * 4]) vs \(expected)")
            #expect(level2[i * 4 + 1] == 100 && level2[i * 4 + 2] == 200)
        }
        #expect(Self.texels(texture, level: 0) == top, "level 0 is outside the view")
        #expect(Self.texels(texture, level: 1) == source)
    }

    @Test("a cube's face as a 2D view, and a square array of six slices as a cube")
    func cubeViews() throws {
        let gpu = try TestGPU()
        let cube = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            textureType: .typeCube, pixelFormat: .rgba8Unorm, width: 4, height: 4, usage: [.shaderRead, .renderTarget]))
        let face = try cube.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2D, levels: 0..<1, slices: 3..<4)
        _ = try Self.clear(gpu, face, to: ClearColor(red: 0, green: 0, blue: 1, alpha: 1))
        _ = try Self.clear(gpu, cube, to: ClearColor(red: 1, green: 0, blue: 0, alpha: 1), slice: 2)
        #expect(Self.texels(cube, slice: 3) == Array(repeating: [0, 0, 255, 255], count: 16).flatMap { $0 })
        #expect(Self.texels(cube, slice: 2) == Array(repeating: [255, 0, 0, 255], count: 16).flatMap { $0 })

        let array = try gpu.device.makeTexture(descriptor: TextureDescriptor(
            textureType: .type2DArray, pixelFormat: .rgba8Unorm, width: 4, height: 4, arrayLength: 6, usage: .shaderRead))
        let asCube = try array.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .typeCube, levels: 0..<1, slices: 0..<6)
        #expect(asCube.textureType == .typeCube && asCube.arrayLength == 1)
    }

    @Test("a view shares its texture's hazards: a dispatch on the texture after one that wrote the view waits for it")
    func sharedHazards() throws {
        let gpu = try TestGPU()
        let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 16, height: 16,
                                                                               usage: [.shaderRead, .shaderWrite]))
        let input = TextureTests.pattern(width: 16, height: 16)
        texture.replace(region: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0, withBytes: input, bytesPerRow: 64)
        let view = try texture.makeTextureView(pixelFormat: .rgba8Unorm)
        let event = try gpu.device.makeSharedEvent()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        commandBuffer.encodeWaitForEvent(event, value: 1)
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(try gpu.pipeline("invert.comp"))
        for target in [view, texture] {
            encoder.setTexture(target, index: 0)
            encoder.dispatchThreadgroups(Size(width: 2, height: 2), threadsPerThreadgroup: Size(width: 8, height: 8))
        }
        encoder.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "the inversion of the texture waits for the view's")
        commandBuffer.commit()
        #expect(texture.committedWriter === commandBuffer)
        #expect(view.committedWriter === commandBuffer)
        event.signaledValue = 1
        #expect(Self.texels(view) == input, "inverted twice")
        #expect(commandBuffer.status == .completed)
    }

    /// Views Metal's rules refuse, each with the message it stops with.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case otherSizeClass, noPixelFormatViewUsage, levelsOutside, twoSlicesAs2D, cubeOfFiveSlices, volatileView

        var message: String {
            switch self {
            case .otherSizeClass: "makeTextureView(pixelFormat:): rgba16Float is not in the size class of the texture (4×4 rgba8Unorm)"
            case .noPixelFormatViewUsage: "was made without .pixelFormatView usage, which a view of another format (bgra8Unorm) needs"
            case .levelsOutside: "levels 1..<3 are empty or outside the texture (4×4 rgba8Unorm)'s 0..<2"
            case .twoSlicesAs2D: "a .type2D view shows one slice; slices 0..<2 hold 2"
            case .cubeOfFiveSlices: "a .typeCube view needs whole cubes (slices in sixes; 0..<5 holds 5)"
            case .volatileView: "setPurgeableState(.volatile) on a texture view, the texture (4×4 bgra8Unorm): it shows its parent's memory"
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let usage: TextureUsage = self == .noPixelFormatViewUsage ? .shaderRead : [.shaderRead, .pixelFormatView]
            let texture = try gpu.device.makeTexture(descriptor: TextureDescriptor(
                textureType: .type2DArray, pixelFormat: .rgba8Unorm, width: 4, height: 4, arrayLength: 6, mipmapLevelCount: 2,
                usage: usage))
            switch self {
            case .otherSizeClass: _ = try texture.makeTextureView(pixelFormat: .rgba16Float)
            case .noPixelFormatViewUsage: _ = try texture.makeTextureView(pixelFormat: .bgra8Unorm)
            case .levelsOutside:
                _ = try texture.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2DArray, levels: 1..<3, slices: 0..<1)
            case .twoSlicesAs2D:
                _ = try texture.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .type2D, levels: 0..<1, slices: 0..<2)
            case .cubeOfFiveSlices:
                _ = try texture.makeTextureView(pixelFormat: .rgba8Unorm, textureType: .typeCube, levels: 0..<1, slices: 0..<5)
            case .volatileView: try texture.makeTextureView(pixelFormat: .bgra8Unorm).setPurgeableState(.volatile)
            }
        }
    }

    @Test("misuse: views Metal's rules refuse stop with the call and the reason", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }
}
