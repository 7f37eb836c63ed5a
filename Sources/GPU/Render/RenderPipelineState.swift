import SwiftGPUSPIRV

/// A compiled render pipeline, Metal's `MTLRenderPipelineState`, with its layout derived
/// from the functions' SPIR-V.
///
/// `@unchecked Sendable`: every stored property is immutable.
public final class RenderPipelineState: @unchecked Sendable {
    let backend: PipelineObject
    /// The device that made it.
    public let device: Device
    /// The label from the descriptor.
    public let label: String?
    /// Colour attachment formats by index (nil: none).
    public let colorPixelFormats: [PixelFormat?]
    /// The depth attachment format.
    public let depthPixelFormat: PixelFormat?
    /// Samples per pixel.
    public let sampleCount: Int
    /// The class of primitives it draws.
    public let topologyClass: PrimitiveTopologyClass
    /// Which way y points in the vertex function's clip space.
    public let clipSpace: ClipSpaceConvention
    /// Resources both functions declare.
    let slots: [ResourceSlot]
    /// Buffer indices that feed vertex attributes.
    let vertexBufferIndices: [Int]
    /// How the vertex attributes read each of those buffers, for the ranges an indirect
    /// draw may reach (`RenderCommandEncoder+Indirect.swift`).
    let vertexFetches: [VertexFetch]
    /// Names for messages.
    let functionNames: String
    /// The twin whose small uniform blocks are push constants, when it has any.
    let pushConstants: PushConstantPipeline?
    /// The same twin, unretained (`pushConstants` keeps it alive as long as the pipeline):
    /// a draw reads it without reference counting, whose atomic operations stall a
    /// recording thread's stores more than their instruction count says.
    let unretainedPushConstants: Unmanaged<PushConstantPipeline>?

    /// Throws when a vertex output or fragment input lies at a location past the device's
    /// limit, or the stage's interface holds more components than the device passes
    /// between stages: drivers do not check either.
    private static func checkLocations(of vertex: Function, fragment: Function?, limits: DeviceLimits) throws(LibraryError) {
        let checks = [(vertex, vertex.entryPoint.outputs, vertex.entryPoint.outputComponentCount,
                       limits.maxVertexOutputComponents, "output")]
            + (fragment.map { [($0, $0.entryPoint.inputs, $0.entryPoint.inputComponentCount,
                                limits.maxFragmentInputComponents, "input")] } ?? [])
        for (function, variables, components, limit, role) in checks {
            if let variable = variables.first(where: { Int($0.location) >= limit / 4 }) {
                throw .unsupportedFunction(name: function.name, reason:
                    "its \(role) at location \(variable.location) is past this device's \(limit / 4) locations")
            }
            guard components <= limit else {
                throw .unsupportedFunction(name: function.name, reason:
                    "its \(role)s hold \(components) components, over this device's maximum of \(limit)")
            }
        }
    }

    /// Throws unless `vertex` writes every input `fragment` reads, at the same location with
    /// as many components of the same type, as Metal refuses a pipeline whose stages do not
    /// match (Vulkan leaves it undefined).
    private static func checkInterface(from vertex: Function, to fragment: Function) throws(LibraryError) {
        for input in fragment.entryPoint.inputs {
            guard let output = vertex.entryPoint.outputs.first(where: { $0.location == input.location }),
                  output.componentType == input.componentType, output.componentCount >= input.componentCount
            else {
                throw .unsupportedFunction(name: fragment.name, reason:
                    "it reads input location \(input.location) (\(input.componentCount) × \(input.componentType)), which "
                    + "vertex function '\(vertex.name)' does not write as such")
            }
        }
    }

    init(device: Device, descriptor d: RenderPipelineDescriptor) throws(LibraryError) {
        guard let vertex = d.vertexFunction else {
            throw .unsupportedFunction(name: "(none)", reason: "a render pipeline needs a vertexFunction")
        }
        guard vertex.stage == .vertex else {
            throw .unsupportedFunction(name: vertex.name, reason: "it is a \(vertex.stage) function, not a vertex function")
        }
        if let fragment = d.fragmentFunction, fragment.stage != .fragment {
            throw .unsupportedFunction(name: fragment.name, reason: "it is a \(fragment.stage) function, not a fragment function")
        }
        guard d.rasterSampleCount == 1 || d.rasterSampleCount == 4 else {
            throw .unsupportedFunction(name: vertex.name, reason: "rasterSampleCount must be 1 or 4")
        }
        let fragment = d.fragmentFunction
        slots = ResourceSlot.ordered(try ResourceSlot.slots(of: vertex, stage: .vertex)
            + (fragment.map { fragment throws(LibraryError) in try ResourceSlot.slots(of: fragment, stage: .fragment) } ?? []))
        functionNames = [vertex.name, fragment?.name].compactMap { $0 }.joined(separator: " + ")

        // Vertex inputs come from the vertex descriptor, by location.
        var inputs: [VertexInput] = []
        var usedLayouts: Set<Int> = []
        for input in vertex.entryPoint.inputs {
            let location = Int(input.location)
            guard let vertexDescriptor = d.vertexDescriptor, location < 16,
                  let format = vertexDescriptor.attributes[location].format
            else {
                throw .unsupportedFunction(name: vertex.name, reason:
                    "its input at location \(location) has no attribute in the pipeline's vertexDescriptor")
            }
            let attribute = vertexDescriptor.attributes[location]
            guard attribute.offset >= 0, (0..<31).contains(attribute.bufferIndex),
                  vertexDescriptor.layouts[attribute.bufferIndex].stride >= 0 else {
                misuse("makeRenderPipelineState(descriptor:): vertexDescriptor attribute \(location) has offset "
                    + "\(attribute.offset) and bufferIndex \(attribute.bufferIndex), which must be at least 0 (buffer "
                    + "indices below 31), with a stride of at least 0")
            }
            let limits = device.limits
            guard attribute.offset <= limits.maxVertexAttributeOffset,
                  vertexDescriptor.layouts[attribute.bufferIndex].stride <= limits.maxVertexBufferStride else {
                throw .unsupportedFunction(name: vertex.name, reason:
                    "attribute \(location)'s offset \(attribute.offset) or its buffer's stride "
                    + "\(vertexDescriptor.layouts[attribute.bufferIndex].stride) is over this device's maximum "
                    + "(\(limits.maxVertexAttributeOffset) and \(limits.maxVertexBufferStride))")
            }
            guard vertexDescriptor.layouts[attribute.bufferIndex].stride > 0 else {
                throw .unsupportedFunction(name: vertex.name, reason:
                    "attribute \(location) reads buffer index \(attribute.bufferIndex), whose layout has no stride")
            }
            usedLayouts.insert(attribute.bufferIndex)
            inputs.append(VertexInput(location: input.location, bufferIndex: attribute.bufferIndex, format: format,
                                      offset: attribute.offset))
        }
        vertexBufferIndices = usedLayouts.sorted()
        vertexFetches = vertexBufferIndices.map { index in
            let layout = d.vertexDescriptor!.layouts[index]
            let extent = inputs.filter { $0.bufferIndex == index }.map { $0.offset + $0.format.size }.max() ?? 0
            return VertexFetch(bufferIndex: index, stride: layout.stride, extent: extent,
                               perInstance: layout.stepFunction == .perInstance)
        }
        let layouts = vertexBufferIndices.map { index in
            let layout = d.vertexDescriptor!.layouts[index]
            return VertexLayout(bufferIndex: index, stride: layout.stride, stepFunction: layout.stepFunction)
        }

        // Colour attachments, up to the last one with a format.
        let lastColor = d.colorAttachments.all.lastIndex { $0.pixelFormat != nil } ?? -1
        colorPixelFormats = d.colorAttachments.all.prefix(lastColor + 1).map(\.pixelFormat)
        for output in fragment?.entryPoint.outputs ?? [] where Int(output.location) >= colorPixelFormats.count
            || colorPixelFormats[Int(output.location)] == nil {
            throw .unsupportedFunction(name: fragment!.name, reason:
                "it writes colour output \(output.location), but colorAttachments[\(output.location)] has no pixelFormat")
        }
        try Self.checkLocations(of: vertex, fragment: fragment, limits: device.limits)
        try vertex.checkDeviceSupport(on: device)
        try fragment?.checkDeviceSupport(on: device)
        if let fragment { try Self.checkInterface(from: vertex, to: fragment) }
        depthPixelFormat = d.depthAttachmentPixelFormat
        sampleCount = d.rasterSampleCount
        topologyClass = d.inputPrimitiveTopology
        clipSpace = d.clipSpace
        label = d.label
        self.device = device

        let configuration = RenderPipelineConfiguration(
            vertex: vertex, fragment: fragment, slots: slots, inputs: inputs, layouts: layouts,
            colorAttachments: d.colorAttachments.all.prefix(lastColor + 1).map(ColorAttachmentState.init),
            depthFormat: d.depthAttachmentPixelFormat,
            stencilFormat: d.stencilAttachmentPixelFormat ?? (d.depthAttachmentPixelFormat?.hasStencil == true
                ? d.depthAttachmentPixelFormat : nil),
            samples: d.rasterSampleCount, topology: d.inputPrimitiveTopology)
        do {
            backend = try PipelineObject.render(device: device.backend, configuration: configuration,
                                                cache: device.pipelineCache.cache)
        } catch {
            throw .unsupportedFunction(name: functionNames, reason: "\(error)")
        }
        pushConstants = PushConstantPipeline.render(device: device, configuration: configuration, slots: slots,
                                                  vertex: vertex, fragment: fragment, label: functionNames)
        unretainedPushConstants = pushConstants.map { Unmanaged.passUnretained($0) }
        device.pipelineCache.saveIfGrown()
    }
}

extension Device {
    /// Makes a render pipeline. Throws when a function is of the wrong stage, declares
    /// resources outside the binding convention, has inputs the vertex descriptor does not
    /// feed, or writes colour outputs with no attachment format.
    public func makeRenderPipelineState(descriptor: RenderPipelineDescriptor) throws(LibraryError) -> RenderPipelineState {
        try RenderPipelineState(device: self, descriptor: descriptor)
    }
}
