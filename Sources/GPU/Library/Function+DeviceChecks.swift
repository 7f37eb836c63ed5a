import SPIRVValidation
import SwiftGPUSPIRV

extension Function {
    /// Throws when the function needs more of `device` than it offers: more private memory
    /// per invocation than `device.maxPrivateMemoryLength`, buffer device addresses, the
    /// scalar block layout or 8- and 16-bit storage the device does not offer.
    func checkDeviceSupport(on device: Device) throws(LibraryError) {
        let size = entryPoint.privateMemorySize
        guard size <= device.maxPrivateMemoryLength else {
            throw .unsupportedModule(name: name, reason: "it declares \(size) bytes of private (thread) memory per invocation, "
                + "over SwiftGPU's bound of \(device.maxPrivateMemoryLength) (maxPrivateMemoryLength)")
        }
        guard device.supportsGPUAddresses || !ShaderCapabilities.declaresPhysicalStorageBuffers(module.words) else {
            throw .unsupportedModule(name: name, reason: "it reaches buffers through device addresses "
                + "(PhysicalStorageBufferAddresses), which this device does not offer (Device.supportsGPUAddresses)")
        }
        if let problem = ShaderCapabilities.scalarBlockLayoutProblem(in: module.words, deviceOffers: device.backend.scalarBlockLayout) {
            throw .unsupportedModule(name: name, reason: problem)
        }
        if let problem = ShaderCapabilities.featureProblem(in: module.words, enabled: device.backend.narrowStorageFeatures) {
            throw .unsupportedModule(name: name, reason: problem)
        }
    }
}
