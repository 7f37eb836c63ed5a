import CImGui
import FoundationEssentials
import GPU

/// Draws Dear ImGui's draw data with SwiftGPU, as ImGui's own Metal backend
/// (`imgui_impl_metal`) draws it with Metal: one pipeline (ImGui's vertex layout, alpha
/// blending, no depth), the font atlas as a texture, the frame's vertices and indices in
/// buffers the renderer recycles, a scissor rectangle per draw command and textures by id.
///
/// ```swift
/// let renderer = try ImGuiRenderer(device: device, colorPixelFormat: .bgra8Unorm)
/// try renderer.uploadFontAtlas()                    // once, with the ImGui context current
/// // each frame: build the interface, then
/// let drawData = context.render()
/// let encoder = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
/// // … the app's own draws …
/// try renderer.encode(drawData, into: encoder, of: commandBuffer, targetSize: size)
/// encoder.endEncoding()
/// ```
///
/// A renderer is used from one thread at a time. Its buffers are reused three frames later:
/// each frame's command buffer must be committed before the frame three after it is
/// encoded, as a frame loop does (the renderer waits for it then, usually not at all).
public final class ImGuiRenderer {
    /// The device it draws with.
    public let device: Device
    private let pipeline: RenderPipelineState
    private let sampler: SamplerState
    private var textures: [UInt: Texture] = [:]
    private var nextTextureID: UInt = 1
    private var frames: [ImGuiFrameBuffers]
    private var frameIndex = 0

    /// The texture id of the font atlas once ``uploadFontAtlas()`` made it.
    public private(set) var fontTextureID: UInt?

    /// How many frames' buffers it keeps: one per frame in flight.
    static let framesInFlight = 3

    /// A renderer drawing into `colorPixelFormat` attachments of `sampleCount` samples.
    public init(device: Device, colorPixelFormat: PixelFormat, sampleCount: Int = 1) throws {
        self.device = device
        let vertexLibrary = try device.makeLibrary(spirv: Self.data(ImGuiShaders.vertexWords))
        let fragmentLibrary = try device.makeLibrary(spirv: Self.data(ImGuiShaders.fragmentWords))
        let descriptor = RenderPipelineDescriptor()
        descriptor.label = "ImGui"
        descriptor.vertexFunction = try vertexLibrary.makeFunction(name: "main")
        descriptor.fragmentFunction = try fragmentLibrary.makeFunction(name: "main")
        let vertices = VertexDescriptor()
        vertices.attributes[0].format = .float2
        vertices.attributes[1].format = .float2
        vertices.attributes[1].offset = 8
        vertices.attributes[2].format = .uchar4Normalized
        vertices.attributes[2].offset = 16
        vertices.layouts[0].stride = 20
        descriptor.vertexDescriptor = vertices
        let color = descriptor.colorAttachments[0]!
        color.pixelFormat = colorPixelFormat
        color.isBlendingEnabled = true
        color.sourceRGBBlendFactor = .sourceAlpha
        color.destinationRGBBlendFactor = .oneMinusSourceAlpha
        color.sourceAlphaBlendFactor = .one
        color.destinationAlphaBlendFactor = .oneMinusSourceAlpha
        descriptor.rasterSampleCount = sampleCount
        pipeline = try device.makeRenderPipelineState(descriptor: descriptor)
        let samplerDescriptor = SamplerDescriptor()
        samplerDescriptor.minFilter = .linear
        samplerDescriptor.magFilter = .linear
        sampler = try device.makeSamplerState(descriptor: samplerDescriptor)
        frames = (0..<Self.framesInFlight).map { _ in ImGuiFrameBuffers() }
    }

    private static func data(_ words: [UInt32]) -> Data {
        words.withUnsafeBytes { Data($0) }
    }

    /// Makes the current ImGui context's font atlas a texture and gives ImGui its id.
    public func uploadFontAtlas() throws {
        var pixels: UnsafePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        cimgui_font_atlas_rgba(&pixels, &width, &height)
        guard let pixels, width > 0, height > 0 else {
            throw ImGuiError.noFontAtlas
        }
        let descriptor = TextureDescriptor(pixelFormat: .rgba8Unorm, width: Int(width), height: Int(height))
        let texture = try device.makeTexture(descriptor: descriptor)
        texture.label = "ImGui font atlas"
        texture.replace(region: Region(x: 0, y: 0, width: Int(width), height: Int(height)), mipmapLevel: 0,
                        withBytes: pixels, bytesPerRow: Int(width) * 4)
        let id = register(texture)
        cimgui_set_font_texture(UInt(id))
        fontTextureID = id
    }

    /// Gives `texture` an id that `ImGui::Image` (an `ImTextureID`) draws it by.
    public func register(_ texture: Texture) -> UInt {
        let id = nextTextureID
        nextTextureID += 1
        textures[id] = texture
        return id
    }

    /// Forgets the texture of `id`.
    public func unregister(_ id: UInt) {
        textures[id] = nil
    }

    /// Encodes `drawData` (an `ImDrawData *`, from ``ImGuiContext/render()`` or
    /// `ImGui::GetDrawData()`) into `encoder`, a pass of `commandBuffer` over attachments of
    /// `targetSize` pixels. Leaves the encoder's pipeline, buffers, scissor and textures
    /// changed. Throws ``ImGuiError/unknownTexture(_:)`` for a texture id it did not give.
    public func encode(_ drawData: UnsafeRawPointer, into encoder: RenderCommandEncoder, of commandBuffer: CommandBuffer,
                       targetSize: Size) throws {
        var display = (x: Float(0), y: Float(0), width: Float(0), height: Float(0), scaleX: Float(1), scaleY: Float(1))
        cimgui_draw_data_display(drawData, &display.x, &display.y, &display.width, &display.height, &display.scaleX,
                                 &display.scaleY)
        let listCount = Int(cimgui_draw_list_count(drawData))
        guard listCount > 0, display.width > 0, display.height > 0 else { return }
        let lists = (0..<listCount).map { cimgui_draw_list(drawData, Int32($0)) }
        let frame = frames[frameIndex]
        frameIndex = (frameIndex + 1) % frames.count
        let (vertices, indices) = try frame.take(for: commandBuffer, device: device,
                                                 vertexBytes: lists.reduce(0) { $0 + Int($1.vertexCount) * 20 },
                                                 indexBytes: lists.reduce(0) { $0 + Int($1.indexCount) * 2 })
        // Points to Metal's clip space (y up): x' = x × 2/w − 1 − 2·x₀/w, y' = 1 + 2·y₀/h − y × 2/h.
        var transform: (Float, Float, Float, Float) = (
            2 / display.width, -2 / display.height,
            -1 - 2 * display.x / display.width, 1 + 2 * display.y / display.height)
        encoder.setRenderPipelineState(pipeline)
        encoder.setVertexBytes(&transform, length: MemoryLayout.size(ofValue: transform), index: 1)
        encoder.setVertexBuffer(vertices, offset: 0, index: 0)
        encoder.setFragmentSamplerState(sampler, index: 0)
        var vertexBase = 0
        var indexBase = 0
        var boundTexture: UInt?
        for (listIndex, list) in lists.enumerated() {
            vertices.contents().advanced(by: vertexBase * 20).copyMemory(from: list.vertices, byteCount: Int(list.vertexCount) * 20)
            indices.contents().advanced(by: indexBase * 2).copyMemory(from: list.indices, byteCount: Int(list.indexCount) * 2)
            for commandIndex in 0..<Int(list.commandCount) {
                let command = cimgui_draw_command(drawData, Int32(listIndex), Int32(commandIndex))
                guard !command.hasCallback, command.elementCount > 0,
                      let scissor = Self.scissor(command.clipRect, display: display, targetSize: targetSize) else { continue }
                let id = UInt(command.texture)
                if boundTexture != id {
                    guard let texture = textures[id] else { throw ImGuiError.unknownTexture(id) }
                    encoder.setFragmentTexture(texture, index: 0)
                    boundTexture = id
                }
                encoder.setScissorRect(scissor)
                encoder.drawIndexedPrimitives(type: .triangle, indexCount: Int(command.elementCount), indexType: .uint16,
                                              indexBuffer: indices, indexBufferOffset: (indexBase + Int(command.indexOffset)) * 2,
                                              instanceCount: 1, baseVertex: vertexBase + Int(command.vertexOffset))
            }
            vertexBase += Int(list.vertexCount)
            indexBase += Int(list.indexCount)
        }
        encoder.setScissorRect(ScissorRect(x: 0, y: 0, width: targetSize.width, height: targetSize.height))
    }

    /// The buffers of every frame slot made so far, for the tests of their reuse.
    var bufferIdentities: [ObjectIdentifier] { frames.flatMap(\.bufferIdentities) }

    /// A draw command's clip rectangle (points) in the target's pixels, clamped to it; nil
    /// when nothing of it is left.
    static func scissor(_ clip: (Float, Float, Float, Float),
                        display: (x: Float, y: Float, width: Float, height: Float, scaleX: Float, scaleY: Float),
                        targetSize: Size) -> ScissorRect? {
        func pixels(_ value: Float, _ origin: Float, _ scale: Float, limit: Int) -> Int {
            let scaled = ((value - origin) * scale).rounded()
            return scaled.isNaN ? 0 : Int(min(max(scaled, 0), Float(limit)))
        }
        let x1 = pixels(clip.0, display.x, display.scaleX, limit: targetSize.width)
        let y1 = pixels(clip.1, display.y, display.scaleY, limit: targetSize.height)
        let x2 = pixels(clip.2, display.x, display.scaleX, limit: targetSize.width)
        let y2 = pixels(clip.3, display.y, display.scaleY, limit: targetSize.height)
        guard x2 > x1, y2 > y1 else { return nil }
        return ScissorRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }
}

/// Why an ImGui renderer could not draw.
public enum ImGuiError: Error, Equatable, Sendable {
    /// The current ImGui context has no font atlas (no context is current).
    case noFontAtlas
    /// A draw command names a texture id the renderer did not give.
    case unknownTexture(UInt)
}
