import Foundation
import GPUTestSupport
import SwiftGPUSPIRV
import Testing
@testable import GPU

/// Storage images declared without a format (Metal's `access::write`, GLSL's image without a
/// format qualifier): Vulkan leaves their support to each format's features, so every
/// dispatch checks the bound texture's format, and a format the device cannot access that
/// way stops with a message instead of reaching the driver.
@Suite("Storage images without a format", .validated)
struct StorageWithoutFormatTests {
    /// Formats a kernel may bind as storage images, in the order the tests try them.
    static let candidates: [PixelFormat] = [.r32Float, .rgba8Unorm, .rgba32Float, .rgba16Float]

    /// The first candidate format whose formatless reads this device `supports` (or not).
    static func format(_ gpu: TestGPU, readable supports: Bool) -> PixelFormat? {
        candidates.first { format in
            gpu.device.backend.physical.storageAccessWithoutFormat(format.vkFormat).contains(.read) == supports
        }
    }

    /// The pipeline of `source`'s `main`.
    static func pipeline(_ gpu: TestGPU, _ source: String) throws -> ComputePipelineState {
        try gpu.device.makeComputePipelineState(function: gpu.device.makeLibrary(source: source).makeFunction(name: "main"))
    }

    /// A kernel that reads texel (0, 0) of texture index 0 without a format, into buffer 0.
    static let readingKernel = """
        #version 450
        #extension GL_EXT_shader_image_load_formatted : require
        #pragma shader_stage(compute)
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 32) uniform readonly image2D source;
        layout(std430, set = 0, binding = 0) buffer Out { vec4 texel; };
        void main() { texel = imageLoad(source, ivec2(0)); }
        """

    @Test("the reflection records which storage images the shader reads or writes without a format")
    func reflection() throws {
        let gpu = try TestGPU()
        let source = """
            #version 450
            #extension GL_EXT_shader_image_load_formatted : require
            #pragma shader_stage(compute)
            layout(local_size_x = 1) in;
            layout(set = 0, binding = 32) uniform readonly image2D readOnly;
            layout(set = 0, binding = 33) uniform writeonly image2D writeOnly;
            layout(set = 0, binding = 34) uniform image2D both;
            layout(set = 0, binding = 35, rgba8) uniform image2D declared;
            void main() {
                vec4 value = imageLoad(readOnly, ivec2(0)) + imageLoad(both, ivec2(0)) + imageLoad(declared, ivec2(0));
                imageStore(writeOnly, ivec2(0), value);
                imageStore(both, ivec2(0), value);
                imageStore(declared, ivec2(0), value);
            }
            """
        let function = try gpu.device.makeLibrary(source: source).makeFunction(name: "main")
        let access = Dictionary(uniqueKeysWithValues: function.entryPoint.bindings.map { ($0.binding, $0.accessWithoutFormat) })
        #expect(access == [32: [.read], 33: [.write], 34: [.read, .write], 35: []])
    }

    @Test("a formatless write of a format the device supports for it passes the check and writes the texel")
    func supportedWrite() throws {
        let gpu = try TestGPU()
        #expect(gpu.device.backend.physical.storageAccessWithoutFormat(PixelFormat.rgba8Unorm.vkFormat).contains(.write))
        let source = """
            #version 450
            #pragma shader_stage(compute)
            layout(local_size_x = 1) in;
            layout(set = 0, binding = 32) uniform writeonly image2D target;
            void main() { imageStore(target, ivec2(gl_GlobalInvocationID.xy), vec4(0.2, 0.4, 0.6, 1.0)); }
            """
        let texture = try gpu.renderTarget(width: 4, height: 1, usage: [.shaderRead, .shaderWrite])
        try gpu.dispatch(Self.pipeline(gpu, source), buffers: [], textures: [texture], groups: 4, width: 1)
        let pixels = try gpu.pixels(of: texture)
        #expect((0..<4).allSatisfy { texel(texel(pixels, width: 4, x: $0, y: 0), holds: [0.2, 0.4, 0.6, 1]) }, "\(pixels)")
    }

    @Test("a formatless read of a format the device does not support for it stops with a message naming the format")
    func unsupportedRead() async throws {
        let gpu = try TestGPU()
        // lavapipe has it for no format; a device with it for every candidate has nothing to
        // refuse, and there the read must pass the check and read the texel.
        guard let format = Self.format(gpu, readable: false) else {
            let texture = try gpu.renderTarget(width: 1, height: 1, format: .r32Float, usage: [.shaderRead, .shaderWrite])
            texture.replace(region: Region(x: 0, y: 0, width: 1, height: 1), mipmapLevel: 0, withBytes: [Float(2.5)], bytesPerRow: 4)
            let output = try gpu.device.makeBuffer(length: 16)
            try gpu.dispatch(Self.pipeline(gpu, Self.readingKernel), buffers: [output], textures: [texture], groups: 1, width: 1)
            #expect(output.contents().load(as: SIMD4<Float>.self) == [2.5, 0, 0, 1])
            return
        }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gpu = try TestGPU()
            let format = try #require(StorageWithoutFormatTests.format(gpu, readable: false))
            let texture = try gpu.renderTarget(width: 4, height: 4, format: format, usage: [.shaderRead, .shaderWrite])
            try gpu.dispatch(StorageWithoutFormatTests.pipeline(gpu, StorageWithoutFormatTests.readingKernel),
                             buffers: [gpu.device.makeBuffer(length: 16)], textures: [texture], groups: 1, width: 1)
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: dispatchThreadgroups(_:threadsPerThreadgroup:): 'main' uses compute "
            + "texture index 0 as a storage image declared without a format (Metal's access::write and access::read_write, "
            + "GLSL's image without a format qualifier), and this device cannot read a .\(format) texture that way (Vulkan's "
            + "STORAGE_READ_WITHOUT_FORMAT format feature)"), "\(stderr(result))")
    }
}
