import SwiftGPUSPIRV

extension Function {
    /// Throws when the function declares more private memory per invocation than
    /// `device.maxPrivateMemoryLength`.
    func checkPrivateMemory(on device: Device) throws(LibraryError) {
        let size = entryPoint.privateMemorySize
        guard size <= device.maxPrivateMemoryLength else {
            throw .unsupportedModule(name: name, reason: "it declares \(size) bytes of private (thread) memory per invocation, "
                + "over SwiftGPU's bound of \(device.maxPrivateMemoryLength) (maxPrivateMemoryLength)")
        }
    }
}
