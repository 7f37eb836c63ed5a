// libFuzzer entry for the path a trusted folder's module and its build stamp take before
// the validator is skipped: both files are read with SwiftGPU's file reader (regular files
// only, with the library's size limits), the module with SwiftGPU's SPIR-V reader, and the
// stamp matched against it under a key. Built with the SPIRVValidation, SwiftGPUSPIRV and
// file-reading sources as one module by `scripts/fuzz.sh --stamps`.
//
// An input is a pair: two bytes (little-endian) giving the stamp's length, the stamp, then
// the module's bytes. A thrown error is the expected answer to bad input; a trap, an
// out-of-bounds access, a leak, or a stamp that matches a module it was not made for is a
// finding.
import Glibc

/// The fuzzer's stamp key (any fixed key: what is tested is that only the stamp made with
/// it for these very bytes matches).
let fuzzKey = StampKey(k0: 0x0123_4567_89AB_CDEF, k1: 0xFEDC_BA98_7654_3210)
/// The library's limits (`ShaderFiles`): modules 64 MiB, stamps 4 KiB.
let moduleLimit = 64 << 20, stampLimit = 4096
/// This process's scratch folder for the two files, removed when it exits.
let folder: String = {
    var template = Array("/tmp/swiftgpu-stamp-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    atexit {
        unlink(folder + "/module.spv")
        unlink(folder + "/module.spv.valid")
        rmdir(folder)
    }
    return String(cString: made)
}()

/// Writes `bytes` to `path`, replacing it.
func store(_ bytes: UnsafeBufferPointer<UInt8>, at path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "open \(path)")
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
        let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
        precondition(count > 0, "write \(path)")
        written += count
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let stampLength = min(Int(data[0]) | Int(data[1]) << 8, size - 2)
    let stampPath = folder + "/module.spv.valid", modulePath = folder + "/module.spv"
    store(UnsafeBufferPointer(start: data + 2, count: stampLength), at: stampPath)
    store(UnsafeBufferPointer(start: data + 2 + stampLength, count: size - 2 - stampLength), at: modulePath)

    guard let moduleBytes = try? regularFileContents(atPath: modulePath, limit: moduleLimit) else { return 0 }
    precondition(moduleBytes.count == size - 2 - stampLength, "the reader lost bytes of the module")
    guard let module = try? SPIRVModule(bytes: moduleBytes) else { return 0 }
    // A stamp over the limit is refused (and the module then validated): none to match.
    let stamp: [UInt8]
    if let read = try? regularFileContents(atPath: stampPath, limit: stampLimit) {
        precondition(read.elementsEqual(UnsafeBufferPointer(start: data + 2, count: stampLength)), "the reader changed the stamp")
        stamp = read
    } else {
        precondition(stampLength > stampLimit, "a stamp within the limit was refused")
        stamp = []
    }

    module.words.withUnsafeBytes { words in
        let genuine = Array(ValidationStamp.make(for: words, key: fuzzKey).utf8)
        // The genuine stamp matches; the input's only if it is that stamp; no stamp matches
        // under no key, or under another key.
        precondition(ValidationStamp.matches(genuine, module: words, keys: [fuzzKey]), "a genuine stamp did not match")
        precondition(ValidationStamp.matches(stamp, module: words, keys: [fuzzKey]) == (stamp == genuine),
                     "a stamp matched a module it was not made for")
        precondition(!ValidationStamp.matches(stamp, module: words, keys: []), "a stamp matched under no key")
        precondition(!ValidationStamp.matches(genuine, module: words, keys: [StampKey(k0: fuzzKey.k1, k1: fuzzKey.k0)]),
                     "a stamp matched under another key")
    }
    return 0
}
