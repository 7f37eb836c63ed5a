import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// Published Metal shader files (Apple's sample code, Metal by Example's book and tutorials),
/// unchanged, compiled at run time as Metal compiles them: each compiles to modules that pass
/// validation (and its kernels make pipelines), or fails with exactly the "unsupported: …"
/// message its manifest line names. `MetalCorpus/manifest.tsv` says where each file comes
/// from; `MetalCorpus/NOTICE.md` gives the licences.
@Suite("Metal Shading Language corpus", .validated)
struct MetalCorpusTests {
    /// One manifest line.
    struct Entry {
        /// The file, relative to the corpus folder.
        var file: String
        /// "compiles", or the message after "error: " the file fails with.
        var expected: String
        /// Where it was published: repository, commit and path there.
        var origin: [String]
        /// The licence it is redistributed under.
        var licence: String
    }

    static let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "MetalCorpus")

    /// The manifest's entries: tab-separated file, result, repository, commit, path and
    /// licence; `#` starts a comment line.
    static func manifest() throws -> [Entry] {
        let text = try String(contentsOf: folder.appending(path: "manifest.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Entry(file: fields[0], expected: fields.count > 1 ? fields[1] : "",
                         origin: Array(fields.dropFirst(2).prefix(3)), licence: fields.count > 5 ? fields[5] : "")
        }
    }

    @Test("every corpus file compiles to validated modules, or fails only with the unsupported construct its manifest names")
    func corpus() throws {
        let gpu = try TestGPU()
        let entries = try Self.manifest()
        var compiled = 0, functions = 0, unsupported = 0
        for entry in entries {
            #expect(entry.origin.count == 3 && entry.origin.allSatisfy { !$0.isEmpty } && entry.origin[1].count == 40,
                    "\(entry.file): the manifest names no repository, commit and path")
            #expect(!entry.licence.isEmpty, "\(entry.file): the manifest names no licence")
            let url = Self.folder.appending(path: entry.file)
            let options = CompileOptions()
            options.language = .metal
            options.includeFolders = [url.deletingLastPathComponent().path]
            let source = try String(contentsOf: url, encoding: .utf8)
            let library: Library?, messages: [String]
            switch Result(catching: { () throws(LibraryError) in try gpu.device.makeLibrary(source: source, options: options) }) {
            case .success(let made): (library, messages) = (made, [])
            case .failure(.compilationFailed(_, let failed)): (library, messages) = (nil, failed)
            case .failure(let error): throw error
            }
            if library == nil {
                let message = messages.joined(separator: "\n")
                let text = message.split(separator: "error: ", maxSplits: 1).last.map(String.init) ?? message
                #expect(text == entry.expected, "\(entry.file): \(message)")
                #expect(text.hasPrefix("unsupported: "), "\(entry.file) fails with an error that is not an unsupported construct")
                unsupported += 1
            }
            if let library {
                #expect(entry.expected == "compiles", "\(entry.file) compiled, but the manifest says \(entry.expected)")
                #expect(!library.functionNames.isEmpty)
                functions += try makeKernelPipelines(gpu, library)
                compiled += 1
            }
        }
        let listed = Set(entries.map(\.file))
        #expect(listed.count == entries.count, "a file is listed twice")
        let files = FileManager.default.enumerator(atPath: Self.folder.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".metal") } ?? []
        #expect(Set(files) == listed, "the corpus folder's .metal files and the manifest's differ")
        #expect(entries.count >= 25)
        #expect(compiled == entries.filter { $0.expected == "compiles" }.count)
        print("Metal corpus: \(entries.count) files, \(compiled) compiled (\(functions) functions), \(unsupported) unsupported")
    }

    /// Makes a compute pipeline of each kernel of `library`; returns its function count.
    func makeKernelPipelines(_ gpu: TestGPU, _ library: Library) throws -> Int {
        for name in library.functionNames {
            let function = try library.makeFunction(name: name)
            if function.functionType == .kernel { _ = try gpu.device.makeComputePipelineState(function: function) }
        }
        return library.functionNames.count
    }
}
