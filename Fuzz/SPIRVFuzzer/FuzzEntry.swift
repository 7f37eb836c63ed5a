// libFuzzer entry for SwiftGPU's SPIR-V reader, reflection and push-constant rewrite: the
// code that reads every shader module before any validator or driver sees it. Built with
// the SwiftGPUSPIRV sources as one module by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address).
//
// Each input is treated as the bytes of a module, as `Device.makeLibrary(spirv:)` gets
// them. A thrown error is the expected answer to bad input; a trap, an out-of-bounds access
// or a leak is a finding.

/// Runs the library's path over one input: parse and reflect, then move each uniform block
/// the reflection found into push constants, as pipeline creation does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let module = try? SPIRVModule(bytes: bytes) else { return 0 }
    // Touch what reflection derived, so none of it is skipped as unused.
    var components = 0
    for entry in module.entryPoints {
        components &+= entry.inputComponentCount &+ entry.outputComponentCount &+ entry.bindings.count
        components &+= entry.localSizeSpecIds.count &+ entry.pushConstantSize
    }
    for (binding, _) in module.uniformBlockSizes.sorted(by: { $0.key < $1.key }) {
        for offset: UInt32 in [0, 16, 112] {
            if let moved = SPIRVModule.movingUniformBlock(in: module.words, atBinding: binding, toPushConstantOffset: offset) {
                // The rewrite's output goes through the reader again, as the twin pipeline's does.
                components &+= (try? SPIRVModule(words: moved))?.entryPoints.count ?? 0
            }
        }
    }
    return components == Int.min ? 1 : 0
}
