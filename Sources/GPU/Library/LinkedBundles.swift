import SPIRVValidation
import SwiftGPUSupport

/// Which of the resource bundles beside an executable hold its shaders. SwiftPM puts the
/// bundles of every executable of a package in one folder (`<package>_<target>.resources`),
/// and a bundle's name says which target made it but not which executables link that
/// target. The build says so instead: the SPIRVCompiler plugin stamps each module under a
/// key of its target, and that key is compiled into exactly the executables that link the
/// target (`ValidationStamp.buildKeys`). So a bundle is the executable's when one of its
/// stamps matches its module under one of the executable's keys: the executable's own
/// target's bundle and those of the targets it depends on, never another executable's.
enum LinkedBundles {
    /// The bundles of `bundles` that belong to the executable named `executable` with the
    /// build keys `keys`: the one named for it, and those with a stamp made under one of
    /// the keys. With no keys (a compiler that places none, or SwiftGPU linked as a shared
    /// library), nothing tells them apart, and every bundle is kept.
    static func select(_ bundles: [String], executable: String?, keys: [StampKey]) -> [String] {
        guard !keys.isEmpty else { return bundles }
        let ownName = executable.map { "_\($0).resources" }
        return bundles.filter { bundle in
            ownName.map { bundle.hasSuffix($0) } ?? false || isStamped(bundle, underOneOf: keys)
        }
    }

    /// Whether the first module of `bundle` with a stamp has one made under one of `keys`.
    /// One module answers for its bundle: the plugin stamps all of a target's modules
    /// under the same key.
    private static func isStamped(_ bundle: String, underOneOf keys: [StampKey]) -> Bool {
        let stamps = ShaderFiles.paths(in: bundle, endingWith: ".spv" + ValidationStamp.fileExtension)
        guard let stampPath = stamps.first else { return false }
        let modulePath = String(stampPath.dropLast(ValidationStamp.fileExtension.count))
        guard let stamp = try? regularFileContents(atPath: stampPath, limit: ShaderFiles.maximumStampSize),
              let module = try? regularFileContents(atPath: modulePath, limit: ShaderFiles.maximumModuleSize)
        else { return false }
        return module.withUnsafeBytes { ValidationStamp.matches(stamp, module: $0, keys: keys) }
    }
}
