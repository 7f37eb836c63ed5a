import Foundation
import SwiftGPUSPIRV

/// A collection of shader functions, Metal's `MTLLibrary`, made from SPIR-V.
public final class Library: Sendable {
    /// The device that made the library.
    public let device: Device
    private let functions: [String: Function]

    /// The functions' names, sorted. A module loaded from a bundle file `add.comp.spv`
    /// with one entry point contributes `add.comp`; modules with several entry points, and
    /// modules given to ``Device/makeLibrary(spirv:)``, contribute their entry point names.
    public let functionNames: [String]

    init(device: Device, functions: [Function]) {
        self.device = device
        self.functions = Dictionary(functions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        functionNames = self.functions.keys.sorted()
    }

    /// The function named `name`; throws ``LibraryError/functionNotFound(name:available:)``
    /// listing the names there are.
    public func makeFunction(name: String) throws(LibraryError) -> Function {
        guard let function = functions[name] else {
            throw .functionNotFound(name: name, available: functionNames)
        }
        return function
    }
}

/// One shader entry point, Metal's `MTLFunction`.
public struct Function: Sendable {
    /// The name the library knows it by.
    public let name: String
    let module: SPIRVModule
    let entryPoint: SPIRVEntryPoint
    /// The shader stage.
    var stage: ShaderStage { entryPoint.stage }
}

extension Device {
    /// Makes a library from one SPIR-V module; its functions are named by entry point.
    public func makeLibrary(spirv: Data) throws(LibraryError) -> Library {
        let module = try Self.parse(spirv, name: "SPIR-V data")
        return Library(device: self, functions: module.entryPoints.map {
            Function(name: $0.name, module: module, entryPoint: $0)
        })
    }

    /// Makes a library of every `*.spv` file in `bundle`'s resources, as the SPIRVCompiler
    /// plugin puts them there (`add.comp` → `add.comp.spv` → function `add.comp`).
    public func makeDefaultLibrary(bundle: Bundle) throws(LibraryError) -> Library {
        let urls = bundle.paths(forResourcesOfType: "spv", inDirectory: nil)
            .map { URL(fileURLWithPath: $0) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !urls.isEmpty else { throw .noShaders(bundlePath: bundle.bundlePath) }
        var functions: [Function] = []
        for url in urls {
            guard let data = try? Data(contentsOf: url) else { throw .unreadable(path: url.path) }
            let fileName = url.deletingPathExtension().lastPathComponent
            let module = try Self.parse(data, name: url.lastPathComponent)
            if module.entryPoints.count == 1 {
                functions.append(Function(name: fileName, module: module, entryPoint: module.entryPoints[0]))
            } else {
                functions += module.entryPoints.map { Function(name: $0.name, module: module, entryPoint: $0) }
            }
        }
        return Library(device: self, functions: functions)
    }

    private static func parse(_ data: Data, name: String) throws(LibraryError) -> SPIRVModule {
        do {
            return try SPIRVModule(bytes: data)
        } catch {
            throw .notSPIRV(name: name, reason: error.reason)
        }
    }
}
