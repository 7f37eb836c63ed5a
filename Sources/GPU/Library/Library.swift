import FoundationEssentials
import SPIRVValidation
import SwiftGPUSPIRV
import SwiftGPUSupport

/// A collection of shader functions, Metal's `MTLLibrary`, made from SPIR-V.
public final class Library: Sendable {
    /// The device that made the library.
    public let device: Device
    private let functions: [String: Function]

    /// The functions' names, sorted. A module loaded from a bundle file `add.comp.spv`
    /// with one entry point contributes `add.comp`; modules with several entry points, and
    /// modules given to ``Device/makeLibrary(spirv:)``, contribute their entry point names.
    public let functionNames: [String]
    /// Names without the stage extension (`add` for `add.comp`), as a Metal user writes
    /// them: each with every function it fits.
    private let shortNames: [String: [String]]
    /// Entry points SwiftGPU cannot run (geometry, tessellation, ...), by name, with their
    /// execution model: asking for one says why instead of "not found".
    private let unsupported: [String: String]
    /// Names that several bundles of a default library hold, none of them the
    /// executable's own, with those bundles: asking for one throws.
    private let conflicts: [String: [String]]

    /// The stage extensions the SPIRVCompiler plugin's file names carry.
    static let stageExtensions: Set<String> = ["vert", "frag", "comp"]

    init(device: Device, functions: [Function], unsupported: [String: String] = [:],
         conflicts: [String: [String]] = [:]) {
        self.device = device
        self.unsupported = unsupported
        self.conflicts = conflicts
        self.functions = Dictionary(functions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        functionNames = self.functions.keys.sorted()
        var shortNames: [String: [String]] = [:]
        for name in functionNames + conflicts.keys.sorted() {
            guard let dot = name.lastIndex(of: "."), Self.stageExtensions.contains(String(name[name.index(after: dot)...]))
            else { continue }
            shortNames[String(name[..<dot]), default: []].append(name)
        }
        self.shortNames = shortNames
    }

    /// The function named `name`: its full name (`add.comp`), or the name without its
    /// stage extension (`add`) when that fits one function. Throws
    /// ``LibraryError/functionNotFound(name:available:)`` listing the names there are,
    /// ``LibraryError/ambiguousFunctionName(name:candidates:)``, or
    /// ``LibraryError/unsupportedFunction(name:reason:)`` for an entry point of a stage
    /// SwiftGPU does not run (geometry, tessellation, ...).
    /// A bundle library's module is validated here, the first time one of its functions is
    /// asked for: ``LibraryError/invalidSPIRV(name:reason:)`` and
    /// ``LibraryError/unsupportedModule(name:reason:)`` come from this call for it.
    /// A function compiled from Metal Shading Language, at run time or by the build, gets
    /// here what its module notes beyond the SPIR-V: its `constexpr` samplers are made,
    /// and its arguments under `[[function_constant]]` and its grid-size block set up.
    public func makeFunction(name: String) throws(LibraryError) -> Function {
        let function = try lookUp(name)
        try function.pendingValidation?.check()
        return try function.applyingMetalNotes(device: device)
    }

    private func lookUp(_ name: String) throws(LibraryError) -> Function {
        if let function = functions[name] { return function }
        if let bundles = conflicts[name] { throw .functionInSeveralBundles(name: name, bundles: bundles) }
        if let model = unsupported[name] {
            throw .unsupportedFunction(name: name, reason: unsupportedStageReason(model))
        }
        switch shortNames[name] {
        case let candidates? where candidates.count == 1: return try lookUp(candidates[0])
        case let candidates?: throw .ambiguousFunctionName(name: name, candidates: candidates)
        case nil: throw .functionNotFound(name: name, available: functionNames)
        }
    }
}

/// One shader entry point, Metal's `MTLFunction`.
public struct Function: Sendable {
    /// The name the library knows it by.
    public let name: String
    let module: SPIRVModule
    let entryPoint: SPIRVEntryPoint
    /// For a bundle library's function, its module's validation, done on first use.
    var pendingValidation: DeferredValidation?
    /// Samplers fixed in the function, Metal's `constexpr sampler`, by sampler index of its
    /// stage (see ``Library/makeFunction(name:constantSamplers:)``).
    var constantSamplers: [Int: SamplerState] = [:]
    /// The values of its function constants (``Library/makeFunction(name:constantValues:)``),
    /// by `SpecId`: those without one keep the shader's default.
    var specialization: [SpecializationConstant] = []
    /// Metal's arguments under `[[function_constant(c)]]`: constant c's index, by the
    /// argument's binding. Where c is false (or unset), the argument is left out and need
    /// not be bound.
    var conditionalBindings: [UInt32: UInt32] = [:]
    /// Metal's texture arguments the function asks `is_null_texture` of, by binding: the
    /// app may leave them unbound.
    var nullableBindings: Set<UInt32> = []
    /// For an MSL kernel that reads `[[threads_per_grid]]` or `[[threadgroups_per_grid]]`,
    /// the buffer index each dispatch binds the grid's size at.
    var gridSizeIndex: Int?
    /// For an MSL kernel, its `[[threadgroup(n)]]` arguments, sorted by index.
    var threadgroupArguments: [ThreadgroupMemoryArgument] = []
    /// The shader stage.
    var stage: ShaderStage { entryPoint.stage }
    /// The function's kind: vertex, fragment or kernel.
    public var functionType: FunctionType {
        switch entryPoint.stage {
        case .vertex: .vertex
        case .fragment: .fragment
        case .compute: .kernel
        }
    }
}

extension Device {
    /// Makes a library from one SPIR-V module; its functions are named by entry point.
    /// Throws ``LibraryError/notSPIRV(name:reason:)`` for bytes that are not a module and
    /// ``LibraryError/invalidSPIRV(name:reason:)`` for one that breaks SPIR-V's rules for
    /// Vulkan: no driver sees a module before the SPIRV-Tools validator has passed it.
    public func makeLibrary(spirv: Data) throws(LibraryError) -> Library {
        let module = try Self.parse(spirv, name: "SPIR-V data")
        return Library(device: self, functions: module.entryPoints.map {
            Function(name: $0.name, module: module, entryPoint: $0)
        }, unsupported: Dictionary(module.otherEntryPoints.map { ($0.name, $0.executionModel) },
                                   uniquingKeysWith: { first, _ in first }))
    }

    /// Metal's `makeLibrary(URL:)`: a library of the SPIR-V at `url`, one `.spv` file or a
    /// folder of them, as ``makeLibrary(filePath:trustingBuildStamps:)`` reads a path (build
    /// stamps beside the modules count only when `trustingBuildStamps`). Throws
    /// ``LibraryError/unreadable(path:reason:)`` for a URL that is not a file URL.
    public func makeLibrary(URL url: URL, trustingBuildStamps: Bool = false) throws(LibraryError) -> Library {
        guard url.isFileURL else { throw .unreadable(path: url.absoluteString, reason: "not a file URL") }
        return try makeLibrary(filePath: url.path(percentEncoded: false), trustingBuildStamps: trustingBuildStamps)
    }

    /// A library of the SPIR-V at `path`: one `.spv` file, or a folder of them (a resource
    /// bundle, or the folder an installed app keeps its shaders in). Functions are named as
    /// in ``makeDefaultLibrary()``: a module with one entry point by its file
    /// (`add.comp.spv` → `add.comp`, also found as `add`), one with several by its entry
    /// points.
    ///
    /// Every module is validated by SPIRV-Tools when a function of it is first asked for.
    /// A stamp file beside a module (`add.comp.spv.valid`, which the SPIRVCompiler plugin
    /// and `spirv-stamp` write) spares the validation only with `trustingBuildStamps`,
    /// which an app passes for a folder its own build installed (the default library and
    /// `makeDefaultLibrary(bundle:)` do), and only when it matches the module under a stamp
    /// key the executable holds; any other stamp costs the full validation.
    ///
    /// The same as ``makeLibrary(URL:trustingBuildStamps:)``, for an app that has no other use for `URL`: its
    /// first use costs about half a MiB of resident memory in a static build.
    ///
    /// Throws ``LibraryError/unreadable(path:reason:)`` for a file that cannot be read,
    /// ``LibraryError/noShaders(bundlePath:)`` for a folder without `*.spv` files, and the
    /// errors of ``makeLibrary(spirv:)`` for a module that is not valid.
    public func makeLibrary(filePath path: String, trustingBuildStamps: Bool = false) throws(LibraryError) -> Library {
        guard folderEntries(atPath: path) != nil else {
            return try makeLibrary(files: [path], trustingStamps: trustingBuildStamps)
        }
        let paths = ShaderFiles.paths(in: path, endingWith: ".spv")
        guard !paths.isEmpty else { throw .noShaders(bundlePath: path) }
        return try makeLibrary(files: paths, trustingStamps: trustingBuildStamps)
    }

    /// Metal's `makeDefaultLibrary()`: the app's shaders, those of the running executable
    /// only. Those are the `*.spv` files in the main bundle and in the executable's
    /// resource bundles beside it (`<package>_<target>.resources`, one per target whose
    /// shaders the SPIRVCompiler plugin compiled), all in one library: the bundle of the
    /// executable's own target and those of the targets it links. SwiftPM puts the bundles
    /// of every executable of a package in one folder; another executable's bundle is left
    /// out, known by its build stamps, which the plugin makes under a key that only the
    /// executables linking that target carry (where the build placed no keys, every bundle
    /// beside the executable is read). The main bundle is the executable's folder, as
    /// `Bundle.main.bundlePath` gives it on Linux; where that cannot be found (no `/proc`,
    /// and a process started by a bare name), the current directory.
    ///
    /// Where several of these bundles hold a function of the same name, the executable's
    /// own bundle (`<package>_<executable>.resources`, or the main bundle) wins; when none
    /// of them is its own, asking for that name throws
    /// ``LibraryError/functionInSeveralBundles(name:bundles:)`` naming them, rather than
    /// picking one.
    public func makeDefaultLibrary() throws(LibraryError) -> Library {
        try makeDefaultLibrary(in: ExecutableFolder.path ?? ".", executable: ExecutableFolder.executableName)
    }

    /// The default library of an executable named `executable`, built with the stamp keys
    /// `keys`, in the folder `main`.
    func makeDefaultLibrary(in main: String, executable: String?,
                            keys: [StampKey] = ValidationStamp.buildKeys) throws(LibraryError) -> Library {
        let bundles = LinkedBundles.select(ShaderFiles.paths(in: main, endingWith: ".resources"),
                                           executable: executable, keys: keys)
        let folders = [main] + bundles
        let paths = folders.flatMap { ShaderFiles.paths(in: $0, endingWith: ".spv") }
        guard !paths.isEmpty else { throw .noShaders(bundlePath: main) }
        let ownBundle = executable.map { "_\($0).resources" }
        return try makeLibrary(files: paths, trustingStamps: true) { folder in
            folder == main || ownBundle.map { folder.hasSuffix($0) } ?? false
        }
    }

    /// A library of the SPIR-V files at `paths`: a module with one entry point is named by
    /// its file (`add.comp.spv` → `add.comp`), one with several by its entry points. A name
    /// that files of several folders hold goes to the one folder `isOwn` accepts; with none
    /// or several, asking for it throws.
    private func makeLibrary(files paths: [String], trustingStamps: Bool,
                             isOwn: (String) -> Bool = { _ in false }) throws(LibraryError) -> Library {
        let files = paths.map { path -> (path: String, name: String) in
            (path, path.split(separator: "/").last.map(String.init) ?? path)
        }.sorted { $0.name < $1.name }
        var functions: [Function] = []
        var folders: [String] = []
        var unsupported: [String: String] = [:]
        for (path, name) in files {
            let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            defer { folders += repeatElement(folder, count: functions.count - folders.count) }
            let bytes: [UInt8]
            do {
                bytes = try regularFileContents(atPath: path, limit: ShaderFiles.maximumModuleSize)
            } catch {
                throw .unreadable(path: path, reason: error.isMissing ? "no such file" : error.reason ?? "\(error)")
            }
            let fileName = name.hasSuffix(".spv") ? String(name.dropLast(".spv".count)) : name
            let module = try Self.read(bytes, name: name)
            // The SPIRVCompiler plugin validated the modules it compiled and left a stamp.
            let validation = DeferredValidation(module: module, name: name,
                                                stampPath: trustingStamps ? path + ValidationStamp.fileExtension : nil)
            switch (module.entryPoints.count, module.otherEntryPoints.count) {
            case (1, 0):
                functions.append(Function(name: fileName, module: module, entryPoint: module.entryPoints[0],
                                          pendingValidation: validation))
            case (0, 1): unsupported[fileName] = module.otherEntryPoints[0].executionModel
            default:
                functions += module.entryPoints.map {
                    Function(name: $0.name, module: module, entryPoint: $0, pendingValidation: validation)
                }
                for other in module.otherEntryPoints { unsupported[other.name] = other.executionModel }
            }
        }
        return Self.resolvingBundles(of: functions, folders: folders, isOwn: isOwn, device: self, unsupported: unsupported)
    }

    /// The library of `functions`, each from the file in `folders[i]`: a name that one
    /// folder holds is its own; one that several hold goes to the folder `isOwn` accepts if
    /// exactly one does, and is a conflict otherwise.
    private static func resolvingBundles(of functions: [Function], folders: [String], isOwn: (String) -> Bool,
                                         device: Device, unsupported: [String: String]) -> Library {
        var byName: [String: [Int]] = [:]
        for (index, function) in functions.enumerated() { byName[function.name, default: []].append(index) }
        var kept: [Function] = []
        var conflicts: [String: [String]] = [:]
        for (name, indices) in byName {
            let places = Set(indices.map { folders[$0] })
            guard places.count > 1 else {
                kept.append(functions[indices[0]])
                continue
            }
            let own = indices.filter { isOwn(folders[$0]) }
            if own.count == 1 {
                kept.append(functions[own[0]])
            } else {
                conflicts[name] = places.sorted()
            }
        }
        return Library(device: device, functions: kept, unsupported: unsupported, conflicts: conflicts)
    }

    /// Reads `data` with SwiftGPU's own reader, then has SPIRV-Tools validate it.
    static func parse(_ data: Data, name: String) throws(LibraryError) -> SPIRVModule {
        let module = try read(data, name: name)
        try validate(module, name: name)
        return module
    }

    /// Reads `data` with SwiftGPU's own reader (its entry points and reflection), without
    /// SPIRV-Tools' validation.
    static func read(_ data: some Collection<UInt8>, name: String) throws(LibraryError) -> SPIRVModule {
        let module: SPIRVModule
        do {
            module = try SPIRVModule(bytes: data)
        } catch {
            throw .notSPIRV(name: name, reason: error.reason)
        }
        // The validator leaves the header's reserved schema word unchecked; drivers refuse it.
        guard module.words[4] == 0 else {
            throw .invalidSPIRV(name: name, reason: "word 4: the header's schema word is \(module.words[4]); it must be 0")
        }
        return module
    }

    /// Has SPIRV-Tools validate `module` for Vulkan 1.3, unless the build did
    /// (`validatedByBuild`: its stamp matched), and checks that it asks for no capability
    /// SwiftGPU's device lacks.
    static func validate(_ module: SPIRVModule, name: String, validatedByBuild: Bool = false) throws(LibraryError) {
        if !validatedByBuild, let problem = SPIRVValidator.problem(in: module.words) {
            throw .invalidSPIRV(name: name, reason: problem)
        }
        // The validator lets a non-built-in compute input through, and a driver's compiler
        // can crash on one.
        for entry in module.entryPoints {
            guard let (id, isInput) = entry.nonBuiltInComputeVariable else { continue }
            throw .invalidSPIRV(name: name, reason: "\(entry.name): \(isInput ? "input" : "output") %\(id) is not a built-in; "
                + "compute functions have no other inputs or outputs")
        }
        if let problem = ShaderCapabilities.problem(in: module.words) {
            // A geometry or tessellation module declares its stage's capability: name the stage.
            if let other = module.otherEntryPoints.first {
                throw .unsupportedFunction(name: other.name, reason: unsupportedStageReason(other.executionModel))
            }
            throw .unsupportedModule(name: name, reason: problem)
        }
    }
}

/// Why an entry point of `executionModel` (geometry, tessellation, ...) cannot be used.
func unsupportedStageReason(_ executionModel: String) -> String {
    "it is a \(executionModel) shader; SwiftGPU runs vertex, fragment and compute functions"
}
