import Foundation
import GPUTestSupport
import Testing

/// SwiftGPU's libraries link no Foundation: an app that names no Foundation type ships
/// without Foundation, CoreFoundation and ICU's data. Each Swift object file lists the
/// libraries its module imports for the linker (its autolink entries); one `-lFoundation`
/// there puts Foundation on every app's link line, where the static linker takes even code
/// the app's other libraries define too from it.
@Suite("Foundation stays out of SwiftGPU's libraries")
struct FoundationLinkTests {
    /// Every library module of the package but `GPUFoundationCompat`, which exists to name
    /// Foundation's types.
    static let modules = ["GPU", "AppLifecycle", "FramePacing", "SwiftGPUSupport", "SwiftGPUSPIRV", "SPIRVValidation",
                          "PointerInput", "SystemLifecycle", "GPUXCB", "GPUWayland", "GPUGTK", "PNG"]

    /// The libraries the object files of `module`'s sources, built beside the tests, ask the
    /// linker for. (An incremental build keeps the entries a file was compiled with until the
    /// file itself is compiled again.)
    static func autolinkedLibraries(of module: String) throws -> Set<String> {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/\(module)").standardized
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        let objects = files.filter { $0.hasSuffix(".swift") }.map { ($0 as NSString).lastPathComponent + ".o" }
        let folder = try ExampleProgram.executable("spirv-stamp").deletingLastPathComponent()
            .appendingPathComponent("\(module).build")
        #expect(!objects.isEmpty, "no Swift sources in \(sources.path)")
        var libraries: Set<String> = []
        for object in objects {
            let (status, text) = try ExampleTests.run(URL(fileURLWithPath: "/usr/bin/readelf"),
                                                      ["-p", ".swift1_autolink_entries", folder.path + "/" + object])
            #expect(status == 0, "readelf failed on \(folder.path)/\(object)")
            // "  [    2e]  -lswift_Concurrency"
            for line in text.split(separator: "\n") {
                if let entry = line.split(separator: "]", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces),
                   entry.hasPrefix("-l") {
                    libraries.insert(entry)
                }
            }
        }
        return libraries
    }

    @Test("no library module asks for Foundation, CoreFoundation or ICU", arguments: modules)
    func noFoundation(module: String) throws {
        let libraries = try Self.autolinkedLibraries(of: module)
        #expect(libraries.contains("-lswiftCore"), "\(module): \(libraries.sorted())")
        for foundation in ["-lFoundation", "-lCoreFoundation", "-l_FoundationICU", "-lFoundationInternationalization"] {
            #expect(!libraries.contains(foundation), "\(module) links \(foundation)")
        }
    }

    @Test("GPUFoundationCompat, which names Bundle, is where Foundation is asked for")
    func compatLinksFoundation() throws {
        #expect(try Self.autolinkedLibraries(of: "GPUFoundationCompat").contains("-lFoundation"))
    }
}
