import MetalShadingLanguage
import SwiftGPUSPIRV

/// A kernel's `[[threadgroup(n)]]` argument: threadgroup memory of the length
/// `setThreadgroupMemoryLength(_:index:)` gives at index n, an array whose element count is
/// the specialization constant `countId`.
struct ThreadgroupMemoryArgument: Sendable, Hashable {
    /// Its index n.
    var index: Int
    /// The specialization constant that holds its element count.
    var countId: UInt32
    /// The bytes of one element in Metal's layout.
    var stride: Int
}

/// The notes Metal Shading Language's compilers keep in a function's module (the text of
/// an `OpSourceExtension`, ``FunctionNotes``): what a library made from the module sets up
/// for the function, whether the module was compiled at run time or by the build.
extension Function {
    /// The function as its module's notes make it: its `constexpr` samplers made, its
    /// arguments under function constants, the textures it may find unbound, its grid-size
    /// block and its threadgroup memory arguments set. The function itself where the
    /// module has no notes.
    ///
    /// Throws ``LibraryError/invalidSPIRV(name:reason:)`` for notes that are not as the
    /// compilers write them or name a place outside SwiftGPU's binding convention, and
    /// ``LibraryError/unsupportedFunction(name:reason:)`` when a sampler cannot be made.
    func applyingMetalNotes(device: Device) throws(LibraryError) -> Function {
        let texts = module.sourceExtensions.filter { $0.hasPrefix(FunctionNotes.header) }
        guard let text = texts.first else { return self }
        func invalid(_ reason: String) -> LibraryError {
            .invalidSPIRV(name: name, reason: "its Metal Shading Language notes (an OpSourceExtension): \(reason)")
        }
        guard texts.count == 1 else { throw invalid("the module holds \(texts.count) of them") }
        guard module.entryPoints.count == 1 else {
            throw invalid("they belong to a module of one entry point, and this one has \(module.entryPoints.count)")
        }
        let notes: FunctionNotes
        do {
            notes = try FunctionNotes(text: text)
        } catch {
            throw invalid(error.reason)
        }
        let bindings = 2 * BindingConvention.fragmentBase
        for binding in Array(notes.conditionalBindings.keys) + notes.nullableBindings where binding >= bindings {
            throw invalid("binding \(binding) is outside SwiftGPU's bindings 0..<\(bindings)")
        }
        for constant in notes.conditionalBindings.values where UInt32(exactly: constant) == nil {
            throw invalid("function constant index \(constant) is not a 32-bit index")
        }
        if let index = notes.gridSizeIndex {
            guard stage == .compute, (0...BindingConvention.maxBufferIndex).contains(index) else {
                throw invalid("a grid-size block at buffer index \(index) of a \(stage) function; only a kernel has one, "
                    + "at an index in 0...\(BindingConvention.maxBufferIndex)")
            }
        }
        var threadgroupArguments: [ThreadgroupMemoryArgument] = []
        for (index, argument) in notes.threadgroupArguments.sorted(by: { $0.key < $1.key }) {
            guard stage == .compute, (0...BindingConvention.maxThreadgroupIndex).contains(index) else {
                throw invalid("threadgroup memory at index \(index) of a \(stage) function; only a kernel has it, at an index "
                    + "in 0...\(BindingConvention.maxThreadgroupIndex)")
            }
            guard module.specializationConstants.contains(where: { Int($0.specId) == argument.countId && $0.type == .int(width: 32, signed: false) })
            else {
                throw invalid("threadgroup index \(index)'s count is constant \(argument.countId), which is not a uint "
                    + "specialization constant of the module")
            }
            guard (1...device.limits.maxThreadgroupMemoryLength).contains(argument.stride) else {
                throw invalid("threadgroup index \(index)'s element of \(argument.stride) bytes is outside "
                    + "1...\(device.limits.maxThreadgroupMemoryLength)")
            }
            threadgroupArguments.append(ThreadgroupMemoryArgument(index: index, countId: UInt32(argument.countId), stride: argument.stride))
        }
        var function = self
        function.threadgroupArguments = threadgroupArguments
        function.conditionalBindings = Dictionary(uniqueKeysWithValues: notes.conditionalBindings.map {
            (UInt32($0), UInt32($1))
        })
        function.nullableBindings = Set(notes.nullableBindings.map { UInt32($0) })
        function.gridSizeIndex = notes.gridSizeIndex
        for (index, sampler) in notes.constantSamplers.sorted(by: { $0.key < $1.key }) {
            guard index <= BindingConvention.maxSamplerIndex else {
                throw invalid("sampler index \(index) is outside 0...\(BindingConvention.maxSamplerIndex)")
            }
            do {
                function.constantSamplers[index] = try device.makeSamplerState(descriptor: Self.descriptor(of: sampler))
            } catch {
                throw .unsupportedFunction(name: name, reason: "its constexpr sampler could not be made: \(error)")
            }
        }
        return function
    }

    /// The sampler a `constexpr sampler` describes.
    static func descriptor(of sampler: ConstantSampler) -> SamplerDescriptor {
        let descriptor = SamplerDescriptor()
        func filter(_ filter: ConstantSampler.Filter) -> SamplerMinMagFilter { filter == .linear ? .linear : .nearest }
        func address(_ address: ConstantSampler.Address) -> SamplerAddressMode {
            switch address {
            case .clampToEdge: .clampToEdge
            case .mirrorClampToEdge: .mirrorClampToEdge
            case .repeat: .repeat
            case .mirroredRepeat: .mirrorRepeat
            case .clampToZero, .clampToBorder: .clampToBorderColor
            }
        }
        descriptor.minFilter = filter(sampler.minFilter)
        descriptor.magFilter = filter(sampler.magFilter)
        descriptor.mipFilter = switch sampler.mipFilter {
        case .none: .notMipmapped
        case .nearest: .nearest
        case .linear: .linear
        }
        descriptor.sAddressMode = address(sampler.sAddress)
        descriptor.tAddressMode = address(sampler.tAddress)
        descriptor.rAddressMode = address(sampler.rAddress)
        // clamp_to_zero reads transparent black, the border colour clamp_to_border defaults to.
        descriptor.borderColor = switch sampler.borderColor {
        case .transparentBlack: .transparentBlack
        case .opaqueBlack: .opaqueBlack
        case .opaqueWhite: .opaqueWhite
        }
        descriptor.compareFunction = sampler.compareFunction.map { function -> CompareFunction in
            switch function {
            case .never: .never
            case .less: .less
            case .lessEqual: .lessEqual
            case .greater: .greater
            case .greaterEqual: .greaterEqual
            case .equal: .equal
            case .notEqual: .notEqual
            case .always: .always
            }
        }
        descriptor.normalizedCoordinates = sampler.normalizedCoordinates
        descriptor.maxAnisotropy = sampler.maxAnisotropy
        descriptor.lodMinClamp = sampler.lodClamp.lowerBound
        descriptor.lodMaxClamp = sampler.lodClamp.upperBound
        return descriptor
    }
}
