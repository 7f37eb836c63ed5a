/// What a translated entry point needs beyond its SPIR-V module: its `constexpr`
/// samplers, its arguments under function constants, the textures it may find unbound and
/// the grid-size block it reads. The compilers keep them in the module as the text of an
/// `OpSourceExtension` (``text``), so a library made from the module, at run time or from
/// a build's bundle, sets the function up as the source says.
///
/// The text is a first line ``header``, then a line per item, fields separated by spaces:
///
///     sampler <index> <min> <mag> <mip> <s> <t> <r> <border> <compare or -> <normalized|pixel> <anisotropy> <lod min> <lod max>
///     conditional <binding> <constant index>
///     nullable <binding>
///     grid <buffer index>
///     threadgroup <index> <count constant id> <stride>
///
/// Filters, address modes, border colours and comparisons are MSL's names
/// (`clamp_to_edge`); the LOD bounds are the bits of their `Float` in hexadecimal, so they
/// read back exactly.
package struct FunctionNotes: Sendable, Hashable {
    /// The `constexpr sampler`s, by the sampler index the module declares each at.
    package var constantSamplers: [Int: ConstantSampler] = [:]
    /// Arguments present only where a function constant is true: the constant's index, by
    /// the argument's binding.
    package var conditionalBindings: [Int: Int] = [:]
    /// Texture arguments the function asks `is_null_texture` of, by binding.
    package var nullableBindings: Set<Int> = []
    /// The buffer index each dispatch binds the grid's size at, for a kernel that reads it.
    package var gridSizeIndex: Int?
    /// A kernel's `[[threadgroup(n)]]` arguments, by index n.
    package var threadgroupArguments: [Int: ThreadgroupArgument] = [:]

    /// The first line of the text: what marks an `OpSourceExtension` as these notes, and
    /// the format's version.
    package static let header = "SwiftGPU MSL notes 1"

    /// Notes with nothing in them.
    package init() {}

    /// Whether there is nothing to note.
    package var isEmpty: Bool {
        constantSamplers.isEmpty && conditionalBindings.isEmpty && nullableBindings.isEmpty && gridSizeIndex == nil
            && threadgroupArguments.isEmpty
    }

    /// The notes as the text an `OpSourceExtension` keeps, items sorted so that the same
    /// notes give the same module.
    package var text: String {
        var lines = [Self.header]
        for (index, sampler) in constantSamplers.sorted(by: { $0.key < $1.key }) {
            let fields: [String] = [
                "sampler", "\(index)", sampler.minFilter.rawValue, sampler.magFilter.rawValue, sampler.mipFilter.rawValue,
                sampler.sAddress.rawValue, sampler.tAddress.rawValue, sampler.rAddress.rawValue, sampler.borderColor.rawValue,
                sampler.compareFunction?.rawValue ?? "-", sampler.normalizedCoordinates ? "normalized" : "pixel",
                "\(sampler.maxAnisotropy)", String(sampler.lodClamp.lowerBound.bitPattern, radix: 16),
                String(sampler.lodClamp.upperBound.bitPattern, radix: 16),
            ]
            lines.append(fields.joined(separator: " "))
        }
        for (binding, constant) in conditionalBindings.sorted(by: { $0.key < $1.key }) {
            lines.append("conditional \(binding) \(constant)")
        }
        for binding in nullableBindings.sorted() { lines.append("nullable \(binding)") }
        if let gridSizeIndex { lines.append("grid \(gridSizeIndex)") }
        for (index, argument) in threadgroupArguments.sorted(by: { $0.key < $1.key }) {
            lines.append("threadgroup \(index) \(argument.countId) \(argument.stride)")
        }
        return lines.joined(separator: "\n")
    }

    /// The notes `text` holds; throws the first line that is not as ``text`` writes it,
    /// or a sampler no device can make (an anisotropy outside 1...16, LOD bounds that are
    /// not numbers with 0 ≤ minimum ≤ maximum).
    package init(text: String) throws(FunctionNotesError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header) else {
            throw FunctionNotesError(reason: "the first line is not '\(Self.header)'")
        }
        for (lineNumber, line) in zip(2..., lines.dropFirst()) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            func invalid(_ why: String) -> FunctionNotesError {
                FunctionNotesError(reason: "line \(lineNumber) ('\(line.prefix(200))'): \(why)")
            }
            func number(_ position: Int) throws(FunctionNotesError) -> Int {
                guard let value = Int(fields[position]), value >= 0 else {
                    throw invalid("field \(position + 1) is not a whole number")
                }
                return value
            }
            switch (fields.first, fields.count) {
            case ("sampler", 14):
                let index = try number(1)
                guard constantSamplers[index] == nil else { throw invalid("a second sampler at index \(index)") }
                constantSamplers[index] = try Self.sampler(Array(fields[2...]), invalid: invalid)
            case ("conditional", 3):
                let binding = try number(1)
                guard conditionalBindings[binding] == nil else { throw invalid("a second condition for binding \(binding)") }
                conditionalBindings[binding] = try number(2)
            case ("nullable", 2):
                nullableBindings.insert(try number(1))
            case ("threadgroup", 4):
                let index = try number(1)
                guard threadgroupArguments[index] == nil else { throw invalid("a second argument at threadgroup index \(index)") }
                threadgroupArguments[index] = ThreadgroupArgument(countId: try number(2), stride: try number(3))
            case ("grid", 2):
                guard gridSizeIndex == nil else { throw invalid("a second grid index") }
                gridSizeIndex = try number(1)
            default:
                throw invalid("not a line of the notes")
            }
        }
    }

    /// The sampler of a `sampler` line's fields after its index.
    private static func sampler(_ fields: [String], invalid: (String) -> FunctionNotesError)
        throws(FunctionNotesError) -> ConstantSampler {
        func value<T: RawRepresentable<String>>(_ position: Int, _: T.Type) throws(FunctionNotesError) -> T {
            guard let value = T(rawValue: fields[position]) else {
                throw invalid("'\(fields[position])' is not a \(T.self) of a sampler")
            }
            return value
        }
        var sampler = ConstantSampler()
        sampler.minFilter = try value(0, ConstantSampler.Filter.self)
        sampler.magFilter = try value(1, ConstantSampler.Filter.self)
        sampler.mipFilter = try value(2, ConstantSampler.MipFilter.self)
        sampler.sAddress = try value(3, ConstantSampler.Address.self)
        sampler.tAddress = try value(4, ConstantSampler.Address.self)
        sampler.rAddress = try value(5, ConstantSampler.Address.self)
        sampler.borderColor = try value(6, ConstantSampler.BorderColor.self)
        sampler.compareFunction = fields[7] == "-" ? nil : try value(7, ConstantSampler.CompareFunction.self)
        guard fields[8] == "normalized" || fields[8] == "pixel" else {
            throw invalid("'\(fields[8])' is neither 'normalized' nor 'pixel'")
        }
        sampler.normalizedCoordinates = fields[8] == "normalized"
        guard let anisotropy = Int(fields[9]), (1...16).contains(anisotropy) else {
            throw invalid("the anisotropy '\(fields[9])' is not a number in 1...16")
        }
        sampler.maxAnisotropy = anisotropy
        guard let low = UInt32(fields[10], radix: 16).map(Float.init(bitPattern:)),
              let high = UInt32(fields[11], radix: 16).map(Float.init(bitPattern:)),
              !low.isNaN, !high.isNaN, low >= 0, low <= high else {
            throw invalid("the LOD bounds are not the bits of two numbers with 0 ≤ minimum ≤ maximum")
        }
        sampler.lodClamp = low...high
        return sampler
    }
}

/// Why a text is not a function's notes.
package struct FunctionNotesError: Error, Sendable, Hashable {
    /// What is wrong, naming the line.
    package var reason: String
}
