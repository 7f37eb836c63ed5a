@testable import MetalShadingLanguage
import Testing

@Suite("MSL lexer")
struct LexerTests {
    @Test("names, numbers, punctuation and their locations; comments and line continuations vanish")
    func tokens() throws {
        let tokens = try Lexer.tokens(of: "float4 x = 1.5f + 0x1Fu; // note\n/* a\n b */ a<<=b->c \\\n .5h", file: "f.metal")
        #expect(tokens.map(\.text) == ["float4", "x", "=", "1.5f", "+", "0x1Fu", ";", "a", "<<=", "b", "->", "c", ".5h", ""])
        #expect(tokens.map(\.kind) == [.identifier, .identifier, .punctuation, .floating, .punctuation, .integer, .punctuation,
                                       .identifier, .punctuation, .identifier, .punctuation, .identifier, .floating, .end])
        #expect(tokens[3].location == Location(file: "f.metal", line: 1, column: 12))
        #expect(tokens[7].location == Location(file: "f.metal", line: 3, column: 7))
        #expect(tokens[7].startsLine && !tokens[8].startsLine)
        // After a line continuation the token belongs to the same logical line.
        #expect(tokens[12].location.line == 4 && !tokens[12].startsLine)
    }

    @Test("an unterminated comment, a stray character and a character literal are errors at their place")
    func errors() {
        #expect(throws: Diagnostic(Location(file: "f", line: 2, column: 3), "unterminated comment")) {
            try Lexer.tokens(of: "a\n  /* open", file: "f")
        }
        #expect(throws: Diagnostic(Location(file: "f", line: 1, column: 5), "unexpected character '@'")) {
            try Lexer.tokens(of: "int @", file: "f")
        }
        #expect(throws: Diagnostic(Location(file: "f", line: 1, column: 10), "unsupported: character literals")) {
            try Lexer.tokens(of: "char c = 'a';", file: "f")
        }
    }
}
