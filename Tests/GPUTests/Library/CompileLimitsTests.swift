import Glibc
import GPUTestSupport
import Testing
@testable import GPU

/// Run-time GLSL from an untrusted place: each compile runs in the shader compiler process
/// under `CompileOptions`' bounds, and whatever a source does there ends in a thrown
/// `LibraryError` while the app, and the compiles beside it, go on.
@Suite("Run-time compilation within bounds", .validated)
struct CompileLimitsTests {
    static let header = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x = 1) in;
        layout(std430, binding = 0) buffer Values { uint v[]; };

        """

    /// `v[0] = 1u + v[1] + v[2] + …` with `terms` terms: a left-leaning tree that deep.
    static func longSum(_ terms: Int) -> String {
        header + "void main() { v[0] = 1u" + (0..<terms).map { " + v[\($0 % 7 + 1)]" }.joined() + "; }\n"
    }

    /// A few hundred bytes whose macros double the expression `times` times.
    static func doubling(_ times: Int) -> String {
        header + "#define A0 v[1]\n" + (1...times).map { "#define A\($0) (A\($0 - 1) + A\($0 - 1))\n" }.joined()
            + "void main() { v[0] = A\(times); }\n"
    }

    /// A constant array of `count` elements, indexed at run time.
    static func constantTable(_ count: Int) -> String {
        header + "const uint table[\(count)] = uint[](" + (0..<count).map { "\($0)u" }.joined(separator: ",")
            + ");\nvoid main() { v[0] = table[v[1]]; }\n"
    }

    static let ordinary = header + "void main() { v[0] = v[1] * 3u + v[2]; }\n"

    /// Options with a short time limit, so that a compile that would never end is stopped
    /// quickly.
    static func quick(_ seconds: Int = 1) -> CompileOptions {
        let options = CompileOptions()
        options.compilationTimeLimit = .seconds(seconds)
        return options
    }

    func error(_ source: String, _ options: CompileOptions? = nil, gpu: TestGPU) -> LibraryError? {
        do {
            _ = try gpu.device.makeLibrary(source: source, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test("an expression nested 100,000 deep overflows the compiler's stack, not the app's; 2,000 deep compiles")
    func deepNesting() throws {
        let gpu = try TestGPU()
        guard case .compilationNestedTooDeeply(let name, let reason) = error(Self.longSum(100_000), gpu: gpu) else {
            Issue.record("expected compilationNestedTooDeeply, got \(String(describing: error(Self.longSum(100_000), gpu: gpu)))")
            return
        }
        #expect(name == "main")
        #expect(reason.contains("\(16 << 20) bytes"))
        _ = try gpu.device.makeLibrary(source: Self.longSum(2_000))
    }

    @Test("macros that double 16 times make a module over the size limit, refused before any driver sees it")
    func doublingMacros() throws {
        let gpu = try TestGPU()
        let found = error(Self.doubling(16), gpu: gpu)
        guard case .compilationTooLarge(_, let reason) = found else {
            Issue.record("expected compilationTooLarge, got \(String(describing: found))")
            return
        }
        #expect(reason.contains("over CompileOptions.maximumModuleLength (1048576)"), "\(reason)")
    }

    @Test("a compile that runs past its time limit is stopped and throws compilationTimedOut; the next compile works")
    func timeLimit() throws {
        let gpu = try TestGPU()
        let options = Self.quick()
        let clock = ContinuousClock()
        let start = clock.now
        let found = error(Self.doubling(30), options, gpu: gpu)
        #expect(found == .compilationTimedOut(name: "main", limit: .seconds(1)), "\(String(describing: found))")
        #expect(clock.now - start < .seconds(5))
        _ = try gpu.device.makeLibrary(source: Self.ordinary, options: options)
    }

    @Test("a source over maximumSourceLength is refused before it is compiled, with its includes counted")
    func sourceLength() throws {
        let gpu = try TestGPU()
        let long = Self.ordinary + String(repeating: "// padding\n", count: 1_000_000)
        guard case .compilationTooLarge(_, let reason) = error(long, gpu: gpu) else {
            Issue.record("expected compilationTooLarge")
            return
        }
        #expect(reason.contains("over CompileOptions.maximumSourceLength (1048576)"), "\(reason)")
        let options = CompileOptions()
        options.maximumSourceLength = 64
        guard case .compilationTooLarge = error(Self.ordinary, options, gpu: gpu) else {
            Issue.record("expected compilationTooLarge for a 64-byte limit")
            return
        }
        // A 100 KB header included twenty times: refused at the eleventh, before the rest is read.
        let folder = try TemporaryFolder("swiftgpu-limits")
        try folder.write(Array(String(repeating: "// header\n", count: 10_000).utf8), to: "big.glsl")
        let includes = CompileOptions()
        includes.includeFolders = [folder.path]
        let many = Self.header + String(repeating: "#include \"big.glsl\"\n", count: 20) + "void main() {}\n"
        guard case .compilationTooLarge(_, let includeReason) = error(many, includes, gpu: gpu) else {
            Issue.record("expected compilationTooLarge for the includes")
            return
        }
        #expect(includeReason.contains("with #include \"big.glsl\" the source passes CompileOptions.maximumSourceLength"))
    }

    @Test("compiler processes that ended while idle, every one kept, are replaced without the compile noticing")
    func idleProcessEnded() throws {
        let gpu = try TestGPU()
        _ = try gpu.device.makeLibrary(source: Self.ordinary)
        // As many idle processes as the pool keeps, all of them ended below.
        let pool = ShaderCompilerPool.shared
        let taken = try (0..<ShaderCompilerPool.maximumIdle).map { _ in try pool.take().get().process }
        for process in taken { pool.giveBack(process) }
        let idle = pool.idleProcessIDs
        #expect(!idle.isEmpty)
        #expect(!idle.isEmpty)
        for pid in idle { kill(pid, SIGKILL) }
        _ = try gpu.device.makeLibrary(source: Self.ordinary)
        #expect(Set(ShaderCompilerPool.shared.idleProcessIDs).isDisjoint(with: idle))
    }

    @Test("misuse: a limit that is not positive")
    func nonPositiveLimit() async {
        let memory = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let options = CompileOptions()
            options.compilationMemoryLimit = 0
            _ = try? TestGPU().device.makeLibrary(source: "", options: options)
        }
        #expect(stderr(memory).contains(
            "SwiftGPU API misuse: makeLibrary(source:options:): CompileOptions.compilationMemoryLimit is 0; a limit must be positive"))
        let time = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let options = CompileOptions()
            options.compilationTimeLimit = .zero
            _ = try? TestGPU().device.makeLibrary(source: "", options: options)
        }
        #expect(stderr(time).contains(
            "SwiftGPU API misuse: makeLibrary(source:options:): CompileOptions.compilationTimeLimit is 0.0 seconds; a limit must be positive"))
    }

    @Test("a compile that needs more memory than compilationMemoryLimit throws compilationTooLarge")
    func memoryLimit() throws {
        let gpu = try TestGPU()
        let options = Self.quick(20)
        options.compilationMemoryLimit = 32 << 20
        let found = error(Self.constantTable(100_000), options, gpu: gpu)
        guard case .compilationTooLarge(_, let reason) = found else {
            Issue.record("expected compilationTooLarge, got \(String(describing: found))")
            return
        }
        #expect(reason.contains("CompileOptions.compilationMemoryLimit (\(32 << 20) bytes)"), "\(reason)")
        _ = try gpu.device.makeLibrary(source: Self.ordinary, options: options)
    }

    @Test("a 100,000-element constant table runs into the time limit; a 1 GiB local array compiles and is refused before the driver")
    func hostileTables() throws {
        let gpu = try TestGPU()
        let table = error(Self.constantTable(100_000), Self.quick(), gpu: gpu)
        #expect(table == .compilationTimedOut(name: "main", limit: .seconds(1)), "\(String(describing: table))")
        let local = Self.header + "void main() { uint big[268435456]; big[v[1]] = 1u; v[0] = big[v[2]]; }\n"
        let function = try gpu.device.makeLibrary(source: local).makeFunction(name: "main")
        #expect(throws: LibraryError.unsupportedModule(name: "main", reason: "it declares 1073741824 bytes of private (thread) "
            + "memory per invocation, over SwiftGPU's bound of 65536 (maxPrivateMemoryLength)")) {
            try gpu.device.makeComputePipelineState(function: function)
        }
    }

    @Test("eight threads compiling hostile and ordinary sources at once: the ordinary ones compile, the hostile ones fail alone")
    func underLoad() async throws {
        let gpu = try TestGPU()
        let device = gpu.device
        let results = await withTaskGroup(of: (Int, LibraryError?).self) { group in
            for index in 0..<8 {
                group.addTask {
                    // The time limit is the doubling's end; the others end on their own, so
                    // their limit only has to outlast eight compiles sharing the cores.
                    let (source, options) = switch index % 4 {
                    case 0: (Self.doubling(30), Self.quick(2))
                    case 1: (Self.longSum(100_000), Self.quick(120))
                    default: (Self.ordinary, Self.quick(120))
                    }
                    do throws(LibraryError) {
                        _ = try await device.makeLibrary(source: source, options: options)
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            var all: [Int: LibraryError?] = [:]
            for await (index, error) in group { all[index] = error }
            return all
        }
        for index in 0..<8 {
            let found: LibraryError? = results[index].flatMap { $0 }
            switch index % 4 {
            case 0: #expect(found == .compilationTimedOut(name: "main", limit: .seconds(2)), "\(index): \(String(describing: found))")
            case 1:
                guard case .compilationNestedTooDeeply = found else {
                    Issue.record("\(index): \(String(describing: found))")
                    continue
                }
            default: #expect(found == nil, "\(index): \(String(describing: found))")
            }
        }
        #expect(ShaderCompilerPool.shared.idleCount <= ShaderCompilerPool.maximumIdle)
    }
}
