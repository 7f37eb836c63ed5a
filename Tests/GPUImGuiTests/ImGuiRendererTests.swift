import Foundation
import GPU
import GPUImGui
import GPUTestSupport
import Testing
@testable import GPUImGui

/// Dear ImGui drawn by SwiftGPU: a window with a slider rendered into an offscreen target on
/// lavapipe, its pixels checked; pointer input moves the slider and changes the picture;
/// the frames' buffers are reused.
@Suite("Dear ImGui drawn through SwiftGPU", .validated, .serialized)
struct ImGuiRendererTests {
    /// ImGui's context is process-wide state: one per test, made current as it is used.
    final class Tool {
        let gpu: TestGPU
        let context = ImGuiContext()
        let renderer: ImGuiRenderer
        let target: Texture
        var value: Float = 0.25

        init() throws {
            gpu = try TestGPU()
            renderer = try ImGuiRenderer(device: gpu.device, colorPixelFormat: .rgba8Unorm)
            try renderer.uploadFontAtlas()
            target = try gpu.device.makeTexture(descriptor: TextureDescriptor(
                pixelFormat: .rgba8Unorm, width: 256, height: 160, usage: [.renderTarget, .shaderRead]))
        }

        /// One frame with the pointer at `pointer`, pressed or not: a window at (10, 10) of
        /// 200 × 120 points with a slider for `value`; returns the target's pixels.
        func frame(pointer: (x: Float, y: Float)? = nil, pressed: Bool = false) throws -> [UInt8] {
            context.newFrame(size: (256, 160), delta: 1 / 60, pointer: pointer, pressed: pressed)
            context.window("Tools", origin: (10, 10), size: (200, 120)) {
                context.slider("value", &value, in: 0...1)
                context.text("SwiftGPU")
            }
            let drawData = context.render()
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let pass = RenderPassDescriptor()
            pass.colorAttachments[0].texture = target
            pass.colorAttachments[0].loadAction = .clear
            pass.colorAttachments[0].clearColor = ClearColor(red: 0, green: 0, blue: 0, alpha: 1)
            let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
            try renderer.encode(drawData, into: encoder, of: commandBuffer, targetSize: Size(width: 256, height: 160))
            encoder.endEncoding()
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            #expect(commandBuffer.status == .completed)
            var pixels = [UInt8](repeating: 0, count: 256 * 160 * 4)
            target.getBytes(&pixels, bytesPerRow: 256 * 4, from: Region(x: 0, y: 0, width: 256, height: 160), mipmapLevel: 0)
            return pixels
        }
    }

    static func texel(_ pixels: [UInt8], _ x: Int, _ y: Int) -> [UInt8] {
        Array(pixels[(y * 256 + x) * 4..<(y * 256 + x) * 4 + 4])
    }

    @Test("the shaders' words are glslc's output for their sources")
    func shaderWordsMatchTheSources() throws {
        for (source, stage, words) in [(ImGuiShaders.vertexSource, "vert", ImGuiShaders.vertexWords),
                                       (ImGuiShaders.fragmentSource, "frag", ImGuiShaders.fragmentWords)] {
            let compiled = try GLSLC.compile(source, stage: stage, options: ["--target-env=vulkan1.2", "-O"])
            #expect(compiled.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) } == words)
        }
    }

    @Test("a window with a title bar, a slider and text: ImGui's colours where it is, the clear colour around it")
    func window() throws {
        let tool = try Tool()
        let pixels = try tool.frame()
        // Outside the window: the clear colour.
        #expect(Self.texel(pixels, 240, 150) == [0, 0, 0, 255])
        // The title bar: ImGui's TitleBgActive (0.16, 0.29, 0.48), the only window being focused.
        let title = Self.texel(pixels, 150, 15)
        #expect(zip(title, [41, 74, 122, 255] as [UInt8]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "title bar \(title)")
        // The body (WindowBg 0.06 at 0.94 alpha over black), below the widgets.
        let body = Self.texel(pixels, 100, 120)
        #expect(body[0] == body[1] && body[1] == body[2] && body[0] >= 10 && body[0] <= 20, "body \(body)")
        // The slider's frame (FrameBg: 0.16, 0.29, 0.48 at 0.54 over the body): blue more than red.
        let frame = Self.texel(pixels, 30, 46)
        #expect(frame[2] > frame[0] + 30, "slider frame \(frame)")
        // Text: some glyph pixels near white on the text line ("SwiftGPU", about y 58-71).
        let bright = (58...72).flatMap { y in (18...90).map { x in Self.texel(pixels, x, y) } }.filter { $0[0] > 200 }
        #expect(bright.count > 20, "text pixels: \(bright.count)")
    }

    @Test("pressing the pointer on the slider's right end sets its value there and moves its grab")
    func sliderInput() throws {
        let tool = try Tool()
        let before = try tool.frame()
        #expect(tool.value == 0.25)
        _ = try tool.frame(pointer: (128, 46))
        #expect(tool.context.wantsPointer)
        _ = try tool.frame(pointer: (128, 46), pressed: true)
        let after = try tool.frame(pointer: (128, 46))
        #expect(tool.value > 0.85, "value \(tool.value)")
        // The slider row changed (the grab moved right; the value's text changed).
        let row = { (pixels: [UInt8]) in (20...140).map { Self.texel(pixels, $0, 46) } }
        #expect(row(before) != row(after))
    }

    @Test("frames reuse their vertex and index buffers")
    func buffersReused() throws {
        let tool = try Tool()
        var seen: [ObjectIdentifier] = []
        for _ in 0..<6 {
            _ = try tool.frame()
            seen.append(contentsOf: tool.renderer.bufferIdentities)
        }
        #expect(Set(seen).count == 2 * ImGuiRenderer.framesInFlight)
    }

    @Test("a draw command naming a texture id the renderer did not give throws unknownTexture")
    func unknownTexture() throws {
        let tool = try Tool()
        tool.renderer.unregister(tool.renderer.fontTextureID!)
        #expect(throws: ImGuiError.unknownTexture(1)) { _ = try tool.frame() }
    }
}
