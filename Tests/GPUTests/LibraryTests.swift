import Testing
@testable import GPU

@Suite("Libraries", .validated)
struct LibraryTests {
    @Test("a function is found by its full name or by its file name without the stage extension, as a Metal user names it")
    func shortNames() throws {
        let gpu = try TestGPU()
        #expect(try gpu.library.makeFunction(name: "add").name == "add.comp")
        #expect(try gpu.library.makeFunction(name: "add.comp").name == "add.comp")
        #expect(throws: LibraryError.ambiguousFunctionName(name: "textured", candidates: ["textured.frag", "textured.vert"])) {
            try gpu.library.makeFunction(name: "textured")
        }
        #expect(throws: LibraryError.functionNotFound(name: "nothing", available: gpu.library.functionNames)) {
            try gpu.library.makeFunction(name: "nothing")
        }
        #expect("\(LibraryError.ambiguousFunctionName(name: "textured", candidates: ["textured.frag", "textured.vert"]))"
            == "'textured' names several functions (textured.frag, textured.vert); use the full name")
    }

    @Test("makeDefaultLibrary() finds the app's shaders in the resource bundles beside the executable")
    func defaultLibrary() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeDefaultLibrary()
        #expect(Set(gpu.library.functionNames).isSubset(of: Set(library.functionNames)))
        let pipeline = try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "increment"))
        #expect(pipeline.threadsPerThreadgroup == Size(width: 1))
    }
}
