import SPIRVValidation
import SwiftGPUSupport
import SwiftGPUSPIRV

/// The validation of one module of a bundle library, made when a function of it is first
/// asked for rather than when the library is made: an app's default library holds every
/// shader of its targets, and a launch uses few of them. No module reaches a driver
/// unchecked, since a pipeline is made only from a function that `makeFunction` returned.
///
/// SPIRV-Tools does not run for a module the app's build validated: the stamp file beside
/// it (see `ValidationStamp`) is read then, and must match the module as it was loaded
/// under a key of the executable's build (`ValidationStamp.buildKeys`); a stamp that does
/// not (forged, another build's, damaged) costs only the full validation. SwiftGPU's own
/// checks run for every module.
///
/// `@unchecked Sendable`: `module`, `name` and `stampPath` are immutable; the outcome is
/// guarded by its `LockedValue`.
final class DeferredValidation: @unchecked Sendable {
    private let module: SPIRVModule
    private let name: String
    /// Where the build's stamp for the module would be; nil where stamps are not trusted
    /// (a library read from a path the app did not vouch for).
    private let stampPath: String?
    /// nil until checked; then the problem found, or `.passed`.
    private let outcome = LockedValue<Outcome?>(nil, rank: .leaf("DeferredValidation.outcome"))

    private struct Outcome {
        var problem: LibraryError?
        var validatedByBuild: Bool
    }

    init(module: SPIRVModule, name: String, stampPath: String?) {
        self.module = module
        self.name = name
        self.stampPath = stampPath
    }

    /// Whether the build's stamp matched the module, so SPIRV-Tools did not run; nil until
    /// the module was checked.
    var validatedByBuild: Bool? { outcome.withLock { $0?.validatedByBuild } }

    /// Validates the module the first time, with no lock held while the stamp is read and
    /// SPIRV-Tools runs (two threads asking at once may both validate; the first outcome
    /// stored is kept), and throws what it found every time.
    func check() throws(LibraryError) {
        let known = outcome.withLock { $0 }
        let result: Outcome
        if let known {
            result = known
        } else {
            let stamp = stampPath.flatMap { try? regularFileContents(atPath: $0, limit: ShaderFiles.maximumStampSize) }
            let stamped = stamp.map { stamp in
                module.words.withUnsafeBytes { ValidationStamp.matches(stamp, module: $0, keys: ValidationStamp.buildKeys) }
            } ?? false
            var found = Outcome(problem: nil, validatedByBuild: stamped)
            do {
                try Device.validate(module, name: name, validatedByBuild: stamped)
            } catch {
                found.problem = error
            }
            result = outcome.withLock { stored in
                if stored == nil { stored = found }
                return stored!
            }
        }
        if let problem = result.problem { throw problem }
    }
}
