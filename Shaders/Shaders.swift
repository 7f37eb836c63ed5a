import Foundation

/// SwiftGPU's bundled shaders, compiled from GLSL and Metal Shading Language to SPIR-V by the
/// SPIRVCompiler plugin.
public enum Shaders {
    /// The resource bundle holding the compiled `*.spv` files (`add.comp.spv`, ...).
    public static var bundle: Bundle { Bundle.module }
}
