import SwiftGPUSupport
import SwiftGPUSPIRV

/// The validation of one module of a bundle library, made when a function of it is first
/// asked for rather than when the library is made: an app's default library holds every
/// shader of its targets, and a launch uses few of them. No module reaches a driver
/// unchecked, since a pipeline is made only from a function that `makeFunction` returned.
///
/// SPIRV-Tools does not run for a module the build validated (its stamp matched); SwiftGPU's
/// own checks run for every module.
///
/// `@unchecked Sendable`: `module`, `name` and `validatedByBuild` are immutable; the outcome
/// is guarded by its `LockedValue`.
final class DeferredValidation: @unchecked Sendable {
    private let module: SPIRVModule
    private let name: String
    /// Whether the build validated the module (its stamp matched), so SPIRV-Tools need not.
    let validatedByBuild: Bool
    /// nil until checked; then the problem found, or `.passed`.
    private let outcome = LockedValue<Outcome?>(nil)

    private enum Outcome {
        case passed
        case failed(LibraryError)
    }

    init(module: SPIRVModule, name: String, validatedByBuild: Bool) {
        self.module = module
        self.name = name
        self.validatedByBuild = validatedByBuild
    }

    /// Validates the module the first time, with no lock held while SPIRV-Tools runs
    /// (two threads asking at once may both validate; the first outcome stored is kept),
    /// and throws what it found every time.
    func check() throws(LibraryError) {
        let known = outcome.withLock { $0 }
        let result: Outcome
        if let known {
            result = known
        } else {
            let found: Outcome
            do {
                try Device.validate(module, name: name, validatedByBuild: validatedByBuild)
                found = .passed
            } catch {
                found = .failed(error)
            }
            result = outcome.withLock { stored in
                if stored == nil { stored = found }
                return stored!
            }
        }
        if case .failed(let error) = result { throw error }
    }
}
