/// Turns the parsed tables into `SPIRVEntryPoint`s.
struct SPIRVReflector {
    /// The parsed tables.
    package let module: SPIRVParser
    /// Memoised type sizes (keeps malicious type graphs linear).
    package var sizeCache: [UInt32: Int] = [:]
    /// Types whose size is being computed (breaks cycles in invalid modules).
    package var sizing: Set<UInt32> = []

    /// Deepest chain of nested arrays followed before giving up.
    package static let maximumArrayDepth = 64
    /// Deepest type nesting sized before giving up (bounds the recursion, so
    /// a hostile chain of thousands of nested types cannot exhaust the stack).
    package static let maximumTypeDepth = 128

    /// A reflector over a parsed module.
    package init(_ module: SPIRVParser) {
        self.module = module
    }

    /// The entry points whose execution model is not vertex, fragment or compute, with the
    /// model's name.
    package func otherEntryPoints() -> [(name: String, executionModel: String)] {
        module.entryPoints.compactMap { raw in
            let model: String
            switch raw.model {
            case SPIRVExecutionModel.vertex, SPIRVExecutionModel.fragment, SPIRVExecutionModel.glCompute: return nil
            case 1: model = "tessellation control"
            case 2: model = "tessellation evaluation"
            case 3: model = "geometry"
            case 6: model = "OpenCL kernel"
            case 5267, 5364: model = "task"
            case 5268, 5365: model = "mesh"
            case 5313...5318: model = "ray tracing"
            default: model = "execution model \(raw.model)"
            }
            return (raw.name, model)
        }
    }

    /// The vertex, fragment and compute entry points.
    package mutating func entryPoints() -> [SPIRVEntryPoint] {
        let bindings = resourceBindings()
        let variablesById = Dictionary(
            module.variables.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pushConstants = module.variables.filter { $0.storageClass == SPIRVStorageClass.pushConstant }
        let workgroupSize = builtInWorkgroupSize()
        var result: [SPIRVEntryPoint] = []
        for raw in module.entryPoints {
            let stage: ShaderStage
            switch raw.model {
            case SPIRVExecutionModel.vertex: stage = .vertex
            case SPIRVExecutionModel.fragment: stage = .fragment
            case SPIRVExecutionModel.glCompute: stage = .compute
            default: continue
            }
            let interface = raw.interface.compactMap { variablesById[$0] }

            var localSize: SPIRVTriple?
            var localSizeSpecIds: [UInt32?] = []
            if stage == .compute {
                localSize = workgroupSize?.size
                    ?? module.localSizeIds[raw.function].flatMap(resolve)
                    ?? module.localSizes[raw.function]
                let ids = workgroupSize?.ids ?? module.localSizeIds[raw.function]
                localSizeSpecIds = ids.map { [specId(of: $0.x), specId(of: $0.y), specId(of: $0.z)] } ?? [nil, nil, nil]
            }

            // From SPIR-V 1.4 on, the interface lists every global the entry
            // point uses, so push constants can be attributed exactly.
            let usedPushConstants = module.version >= 0x0001_0400
                ? interface.filter { $0.storageClass == SPIRVStorageClass.pushConstant }
                : pushConstants
            var pushConstantSize = 0
            for variable in usedPushConstants {
                pushConstantSize = max(pushConstantSize, size(of: pointee(of: variable) ?? 0))
            }

            var entry = SPIRVEntryPoint(
                name: raw.name,
                stage: stage,
                localSize: localSize.map { (x: $0.x, y: $0.y, z: $0.z) },
                localSizeSpecIds: localSizeSpecIds,
                bindings: bindings,
                inputs: interfaceVariables(interface, storageClass: SPIRVStorageClass.input),
                outputs: interfaceVariables(interface, storageClass: SPIRVStorageClass.output),
                pushConstantSize: pushConstantSize)
            entry.inputComponentCount = componentCount(interface, storageClass: SPIRVStorageClass.input)
            entry.outputComponentCount = componentCount(interface, storageClass: SPIRVStorageClass.output)
            entry.privateMemorySize = (module.variables.filter { $0.storageClass == SPIRVStorageClass.privateStorage }
                + module.functionVariables).reduce(0) { total, variable in
                    spirvSaturatingAdd(total, pointee(of: variable).map { size(of: $0) } ?? 0)
                }
            if stage == .compute {
                entry.nonBuiltInComputeVariable = nonBuiltInVariable(interface)
                // From SPIR-V 1.4 on the interface lists the entry point's workgroup
                // variables; before it, every one of the module counts.
                let shared = module.version >= 0x0001_0400
                    ? interface.filter { $0.storageClass == SPIRVStorageClass.workgroup }
                    : module.variables.filter { $0.storageClass == SPIRVStorageClass.workgroup }
                entry.workgroupMemorySize = shared.reduce(0) { total, variable in
                    spirvSaturatingAdd(total, pointee(of: variable).map { size(of: $0) } ?? 0)
                }
            }
            result.append(entry)
        }
        return result
    }

    // MARK: Descriptors

    /// The byte size of each uniform block (not an array of them) in set 0, by binding.
    package mutating func uniformBlockSizes() -> [UInt32: Int] {
        var sizes: [UInt32: Int] = [:]
        for variable in module.variables {
            guard let binding = describe(variable), binding.set == 0, binding.kind == .uniformBuffer,
                  let pointee = pointee(of: variable), case .structure? = module.types[pointee]
            else { continue }
            sizes[binding.binding] = size(of: pointee)
        }
        return sizes
    }

    /// All resource variables with a descriptor set and binding, sorted.
    package func resourceBindings() -> [SPIRVBinding] {
        var found: [(order: Int, binding: SPIRVBinding)] = []
        for (order, variable) in module.variables.enumerated() {
            guard let binding = describe(variable) else { continue }
            found.append((order, binding))
        }
        found.sort {
            ($0.binding.set, $0.binding.binding, $0.order) < ($1.binding.set, $1.binding.binding, $1.order)
        }
        return found.map(\.binding)
    }

    /// The binding a variable needs, or `nil` when it is not a descriptor.
    package func describe(_ variable: SPIRVVariable) -> SPIRVBinding? {
        let storageClass = variable.storageClass
        guard storageClass == SPIRVStorageClass.uniform
            || storageClass == SPIRVStorageClass.storageBuffer
            || storageClass == SPIRVStorageClass.uniformConstant
        else { return nil }
        let decorations = module.decorations[variable.id] ?? SPIRVDecorations()
        guard let set = decorations.set, let bindingNumber = decorations.binding,
              let pointee = pointee(of: variable)
        else { return nil }

        // Peel arrays of resources, multiplying their lengths.
        var base = pointee
        var count: UInt32 = 1
        for _ in 0..<Self.maximumArrayDepth {
            if case .array(let element, let length) = module.types[base] {
                let resolved = module.constants[length].map { UInt32(clamping: $0) } ?? 0
                count = count.multipliedReportingOverflow(by: resolved).overflow
                    ? UInt32.max : count &* resolved
                base = element
            } else if case .runtimeArray(let element) = module.types[base] {
                count = 0
                base = element
            } else {
                break
            }
        }

        let kind: SPIRVDescriptorKind
        var isReadOnly = true
        var withoutFormat = SPIRVFormatlessAccess()
        switch (storageClass, module.types[base]) {
        case (SPIRVStorageClass.storageBuffer, _):
            kind = .storageBuffer
            isReadOnly = decorations.nonWritable || allMembersNonWritable(base)
        case (SPIRVStorageClass.uniform, _):
            if module.decorations[base]?.bufferBlock == true {
                kind = .storageBuffer
                isReadOnly = decorations.nonWritable || allMembersNonWritable(base)
            } else {
                kind = .uniformBuffer
            }
        case (_, .image(let dim, let sampled, let format)?):
            guard dim != spirvDimSubpassData else { return nil }
            if sampled == 2 {
                kind = .storageImage
                isReadOnly = decorations.nonWritable
                if format == spirvImageFormatUnknown {
                    if !decorations.nonReadable { withoutFormat.insert(.read) }
                    if !decorations.nonWritable { withoutFormat.insert(.write) }
                }
            } else {
                kind = .sampledImage
            }
        case (_, .sampler?):
            kind = .sampler
        case (_, .sampledImage?):
            kind = .combinedImageSampler
        default:
            return nil
        }

        var name = module.names[variable.id] ?? ""
        if name.isEmpty, kind == .uniformBuffer || kind == .storageBuffer {
            name = module.names[base] ?? ""
        }
        return SPIRVBinding(
            set: set, binding: bindingNumber, kind: kind, count: count,
            name: name, isReadOnly: isReadOnly, accessWithoutFormat: withoutFormat)
    }

    /// Whether `structure` is a struct with members, all `NonWritable`.
    package func allMembersNonWritable(_ structure: UInt32) -> Bool {
        guard case .structure(let members)? = module.types[structure], !members.isEmpty else {
            return false
        }
        let memberDecorations = module.memberDecorations[structure] ?? [:]
        return members.indices.allSatisfy { index in
            memberDecorations[UInt32(index)]?.nonWritable == true
        }
    }

    /// The pointee type of a variable's pointer type.
    package func pointee(of variable: SPIRVVariable) -> UInt32? {
        guard case .pointer(_, let pointee)? = module.types[variable.type] else { return nil }
        return pointee
    }

    // MARK: Stage interface

    /// The located, non-built-in variables of a storage class, sorted by location.
    package func interfaceVariables(_ interface: [SPIRVVariable], storageClass: UInt32) -> [SPIRVInterfaceVariable] {
        var result: [SPIRVInterfaceVariable] = []
        var seen: Set<UInt32> = []
        for variable in interface where variable.storageClass == storageClass {
            guard seen.insert(variable.id).inserted else { continue }
            let decorations = module.decorations[variable.id] ?? SPIRVDecorations()
            guard decorations.builtIn == nil, let location = decorations.location,
                  let type = pointee(of: variable), !isBuiltInBlock(type)
            else { continue }
            let (componentType, componentCount) = components(of: type)
            result.append(SPIRVInterfaceVariable(
                location: location, componentType: componentType, componentCount: componentCount))
        }
        return result.sorted { $0.location < $1.location }
    }

    /// The scalar components of the interface's variables of a storage class: each
    /// variable's size in 32-bit words (saturating), variables decorated `BuiltIn` excluded.
    package mutating func componentCount(_ interface: [SPIRVVariable], storageClass: UInt32) -> Int {
        var total = 0, seen: Set<UInt32> = []
        for variable in interface where variable.storageClass == storageClass && seen.insert(variable.id).inserted {
            guard module.decorations[variable.id]?.builtIn == nil, let type = pointee(of: variable) else { continue }
            let (sum, overflow) = total.addingReportingOverflow(max(size(of: type) / 4, 1))
            total = overflow ? Int.max : sum
        }
        return total
    }

    /// The first `Input` or `Output` variable of `interface` that is neither decorated
    /// `BuiltIn` nor a block of built-ins.
    package func nonBuiltInVariable(_ interface: [SPIRVVariable]) -> (id: UInt32, isInput: Bool)? {
        for variable in interface
        where variable.storageClass == SPIRVStorageClass.input || variable.storageClass == SPIRVStorageClass.output {
            if module.decorations[variable.id]?.builtIn != nil || pointee(of: variable).map(isBuiltInBlock) == true { continue }
            return (variable.id, variable.storageClass == SPIRVStorageClass.input)
        }
        return nil
    }

    /// Whether `type` is a struct with built-in members (like `gl_PerVertex`).
    package func isBuiltInBlock(_ type: UInt32) -> Bool {
        guard case .structure = module.types[type] else { return false }
        return module.memberDecorations[type]?.values.contains { $0.builtIn != nil } ?? false
    }

    /// Component scalar type and count of an interface variable's type.
    package func components(of type: UInt32) -> (ScalarType, UInt32) {
        var type = type
        for _ in 0..<Self.maximumArrayDepth {
            switch module.types[type] {
            case .array(let element, _)?, .runtimeArray(let element)?:
                type = element
            case .matrix(let column, _)?:
                type = column
            case .vector(let component, let count)?:
                return (scalarType(component), count)
            case .int?, .float?, .bool?:
                return (scalarType(type), 1)
            default:
                return (.other, 0)
            }
        }
        return (.other, 0)
    }

    /// The `ScalarType` of a scalar type id.
    package func scalarType(_ type: UInt32) -> ScalarType {
        switch module.types[type] {
        case .float(32)?: .float32
        case .float(16)?: .float16
        case .int(32, true)?: .int32
        case .int(32, false)?: .uint32
        default: .other
        }
    }

    // MARK: Workgroup size

    /// The workgroup size given by a constant decorated `BuiltIn WorkgroupSize`.
    package func builtInWorkgroupSize() -> (size: SPIRVTriple, ids: SPIRVTriple)? {
        for (id, decorations) in module.decorations.sorted(by: { $0.key < $1.key })
        where decorations.builtIn == spirvWorkgroupSizeBuiltIn {
            if let parts = module.composites[id], parts.count == 3,
               case let ids = SPIRVTriple(x: parts[0], y: parts[1], z: parts[2]), let size = resolve(ids) {
                return (size, ids)
            }
        }
        return nil
    }

    /// The `SpecId` of `id` when it is a specialization constant that has one.
    package func specId(of id: UInt32) -> UInt32? {
        module.specConstants.contains(id) ? module.decorations[id]?.specId : nil
    }

    /// Resolves three constant ids to their (default) values.
    package func resolve(_ ids: SPIRVTriple) -> SPIRVTriple? {
        guard let x = module.constants[ids.x], let y = module.constants[ids.y],
              let z = module.constants[ids.z]
        else { return nil }
        return SPIRVTriple(x: UInt32(clamping: x), y: UInt32(clamping: y), z: UInt32(clamping: z))
    }

    // MARK: Type sizes

    /// Byte size of a type as laid out in a block: scalars by width, vectors
    /// and matrices by component count, arrays by `ArrayStride` (or element
    /// size), structs to the end of their furthest member, runtime arrays 0.
    /// Saturates instead of overflowing; 0 for unknown or cyclic types and
    /// for types nested deeper than `maximumTypeDepth`.
    package mutating func size(of type: UInt32, depth: Int = 0) -> Int {
        if let cached = sizeCache[type] { return cached }
        guard depth < Self.maximumTypeDepth, sizing.insert(type).inserted else { return 0 }
        let result: Int
        switch module.types[type] {
        case .bool?:
            result = 4
        case .int(let width, _)?, .float(let width)?:
            result = Int(width / 8)
        case .vector(let component, let count)?:
            result = spirvSaturatingMultiply(Int(count), size(of: component, depth: depth + 1))
        case .matrix(let column, let columns)?:
            result = spirvSaturatingMultiply(Int(columns), size(of: column, depth: depth + 1))
        case .array(let element, let length)?:
            let count = module.constants[length].map { Int(clamping: $0) } ?? 0
            let stride = module.decorations[type]?.arrayStride.map { Int($0) } ?? size(of: element, depth: depth + 1)
            result = spirvSaturatingMultiply(count, stride)
        case .structure(let members)?:
            result = structureSize(type, members: members, depth: depth + 1)
        case .pointer?:
            result = 8  // physical storage buffer addresses
        default:
            result = 0
        }
        sizing.remove(type)
        sizeCache[type] = result
        return result
    }

    /// End of the furthest member of a struct; members without an `Offset`
    /// follow the previous member.
    private mutating func structureSize(_ structure: UInt32, members: [UInt32], depth: Int) -> Int {
        let memberDecorations = module.memberDecorations[structure] ?? [:]
        var end = 0
        var next = 0
        for (index, member) in members.enumerated() {
            let decorations = memberDecorations[UInt32(index)] ?? SPIRVDecorations()
            let offset = decorations.offset.map { Int($0) } ?? next
            var memberSize = size(of: member, depth: depth)
            if case .matrix(let column, let columns)? = module.types[member],
               let stride = decorations.matrixStride {
                var vectors = Int(columns)
                if decorations.rowMajor, case .vector(_, let rows)? = module.types[column] {
                    vectors = Int(rows)
                }
                memberSize = spirvSaturatingMultiply(vectors, Int(stride))
            }
            next = spirvSaturatingAdd(offset, memberSize)
            end = max(end, next)
        }
        return end
    }
}

/// `a * b` for non-negative values, `Int.max` on overflow.
private func spirvSaturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
}

/// `a + b` for non-negative values, `Int.max` on overflow.
private func spirvSaturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}
