import SwiftGPUSPIRV

extension Library {
    /// The function named `name` with samplers fixed in it: Metal's `constexpr sampler`,
    /// which MSL declares in the shader and GLSL cannot.
    ///
    /// The keys are sampler indices of the function's stage: each names a sampler the
    /// shader declares at that index (`layout(binding = 112) uniform sampler s;` is fragment
    /// sampler 0), or a combined image sampler (`sampler2D`) at the texture index of the
    /// same number, whose texture is still set with `setFragmentTexture(_:index:)`. Pipelines
    /// made from the function carry the samplers in their layout (Vulkan's immutable
    /// samplers): nothing is set at those indices, and a sampler set there anyway is not
    /// used, as the shader has no sampler argument there in Metal either.
    ///
    /// Throws ``LibraryError/unsupportedFunction(name:reason:)`` when an index is outside
    /// 0...15 or the function samples nothing there, or when a sampler cannot be made; the
    /// other errors of ``makeFunction(name:)``.
    public func makeFunction(name: String, constantSamplers: [Int: SamplerDescriptor]) throws(LibraryError) -> Function {
        var function = try makeFunction(name: name)
        let stage = function.stage
        for (index, descriptor) in constantSamplers.sorted(by: { $0.key < $1.key }) {
            guard (0...BindingConvention.maxSamplerIndex).contains(index) else {
                throw .unsupportedFunction(name: function.name, reason:
                    "constant sampler index \(index) is outside 0...\(BindingConvention.maxSamplerIndex)")
            }
            let sampler = MetalIndex(stage: stage, kind: .sampler, value: index).vulkanBinding.value
            let combined = MetalIndex(stage: stage, kind: .texture, value: index).vulkanBinding.value
            guard function.entryPoint.bindings.contains(where: {
                $0.set == 0 && (($0.binding == sampler && $0.kind == .sampler)
                    || ($0.binding == combined && $0.kind == .combinedImageSampler))
            }) else {
                throw .unsupportedFunction(name: function.name, reason:
                    "it has no sampler at \(stage) sampler index \(index) (binding \(sampler)) and no combined image "
                    + "sampler at texture index \(index) (binding \(combined)) to fix a constant sampler in")
            }
            do {
                function.constantSamplers[index] = try device.makeSamplerState(descriptor: descriptor)
            } catch {
                throw .unsupportedFunction(name: function.name, reason: "its constant sampler \(index) could not be made: \(error)")
            }
        }
        return function
    }
}
