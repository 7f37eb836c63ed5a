import Testing
@testable import SwiftGPUSPIRV

@Suite("SPIR-V source extensions")
struct SPIRVSourceExtensionTests {
    @Test("the reader returns each OpSourceExtension's text, in order")
    func read() throws {
        #expect(try SPIRVModule(words: SPIRVFixtures.computeBuffers).sourceExtensions
            == ["GL_GOOGLE_cpp_style_line_directive", "GL_GOOGLE_include_directive"])
    }

    @Test("an inserted text goes where the debug section begins, reads back exactly, and leaves the rest of the module as it was")
    func inserted() throws {
        let original = SPIRVFixtures.computeBuffers
        let before = try SPIRVModule(words: original)
        // Lengths around a word's end: the terminating zero byte takes a word of its own at 4 and 8.
        for text in ["a", "abc", "abcd", "line one\nline two: ünïcödé", String(repeating: "x", count: 8)] {
            let words = try #require(SPIRVSourceExtension.inserting(text, into: original))
            // Capabilities, extended instructions, memory model, entry point and execution mode end at word 31.
            #expect(Array(words[..<31]) == Array(original[..<31]))
            #expect(words[31] & 0xFFFF == 4 && Int(words[31] >> 16) == 1 + text.utf8.count / 4 + 1, "\(text)")
            #expect(Array(words[(31 + Int(words[31] >> 16))...]) == Array(original[31...]))
            let module = try SPIRVModule(words: words)
            #expect(module.sourceExtensions == [text] + before.sourceExtensions)
            #expect(module.entryPoints == before.entryPoints)
        }
    }

    @Test("a text with a zero byte, a text longer than one instruction holds, and words that are not a module are refused")
    func refused() {
        #expect(SPIRVSourceExtension.inserting("a\0b", into: SPIRVFixtures.computeBuffers) == nil)
        let longest = String(repeating: "x", count: SPIRVSourceExtension.maximumLength)
        #expect(SPIRVSourceExtension.inserting(longest, into: SPIRVFixtures.computeBuffers) != nil)
        #expect(SPIRVSourceExtension.inserting(longest + "x", into: SPIRVFixtures.computeBuffers) == nil)
        #expect(SPIRVSourceExtension.inserting("a", into: [0x07230203, 0x00010500]) == nil)
        // An instruction whose word count runs past the end.
        #expect(SPIRVSourceExtension.inserting("a", into: [0x07230203, 0x00010500, 0, 1, 0, 0x00090011]) == nil)
    }
}
