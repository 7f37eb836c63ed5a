import Foundation
import GPU

/// Metal's library calls that name Foundation's `Bundle`.
extension Device {
    /// Metal's `makeDefaultLibrary(bundle:)`: a library of every `*.spv` file in `bundle`'s
    /// resources, as the SPIRVCompiler plugin puts them there (`add.comp` → `add.comp.spv`
    /// → function `add.comp`, also found as `add`). Throws
    /// `LibraryError.noShaders(bundlePath:)` for a bundle without compiled shaders.
    ///
    /// It lives here rather than in `GPU` because naming `Bundle` links Foundation, which
    /// SwiftGPU itself does without.
    public func makeDefaultLibrary(bundle: Bundle) throws(LibraryError) -> Library {
        try makeLibrary(filePath: bundle.resourcePath ?? bundle.bundlePath, trustingBuildStamps: true)
    }
}
