@testable import MetalShadingLanguage
import Testing

@Suite("MSL preprocessor")
struct PreprocessorTests {
    func texts(_ source: String, macros: [String: String] = [:], headers: [String: String] = [:]) throws -> [String] {
        var preprocessor = try Preprocessor(macros: macros) { name in
            headers[name].map { .found(text: $0, file: name) } ?? .notFound
        }
        return try preprocessor.run(source, file: "p.metal").dropLast().map(\.text)
    }

    @Test("Metal's headers are known without reading; object-like macros expand, recursively but not into themselves")
    func macros() throws {
        let source = """
            #include <metal_stdlib>
            #include <simd/simd.h>
            #define SIZE (COUNT * 2)
            #define COUNT 4
            #define SELF SELF + 1
            int a[SIZE] = SELF;
            """
        #expect(try texts(source) == ["int", "a", "[", "(", "4", "*", "2", ")", "]", "=", "SELF", "+", "1", ";"])
        #expect(try texts("float x = SCALE;", macros: ["SCALE": "2.5"]) == ["float", "x", "=", "2.5", ";"])
        #expect(try texts("#if __METAL_VERSION__ >= 200\nyes\n#endif") == ["yes"])
    }

    @Test("#if, #ifdef, #ifndef, #elif, #else and #endif nest; defined works with and without parentheses")
    func conditionals() throws {
        let source = """
            #define A 1
            #ifdef A
              #if defined(B) || A == 2
                wrong1
              #elif !defined B && (A + 1) * 2 == 4
                right1
              #else
                wrong2
              #endif
            #else
              wrong3
            #endif
            #ifndef A
            wrong4
            #elif 1
            right2
            #endif
            #undef A
            #ifdef A
            wrong5
            #endif
            """
        #expect(try texts(source) == ["right1", "right2"])
    }

    @Test("headers come from the reader, #pragma once keeps a second include out, a missing header is an error at its #include")
    func includes() throws {
        let headers = ["Shared.h": "#pragma once\nstruct S { float x; };", "Other.h": "#include \"Shared.h\"\nint y;"]
        #expect(try texts("#include \"Shared.h\"\n#include \"Other.h\"", headers: headers)
            == ["struct", "S", "{", "float", "x", ";", "}", ";", "int", "y", ";"])
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 2, column: 2), "'Missing.h' file not found")) {
            try texts("int a;\n#include \"Missing.h\"")
        }
        #expect(throws: Diagnostic(Location(file: "Loop.h", line: 1, column: 2),
                                   "#include nested deeper than 16 headers")) {
            try texts("#include \"Loop.h\"", headers: ["Loop.h": "#include \"Loop.h\""])
        }
    }

    @Test("#import, as Apple's samples write it, reads a header once; #include reads it again")
    func imports() throws {
        let headers = ["Types.h": "int y;"]
        #expect(try texts("#import \"Types.h\"\n#import \"Types.h\"\n#include <metal_stdlib>", headers: headers) == ["int", "y", ";"])
        #expect(try texts("#include \"Types.h\"\n#include \"Types.h\"", headers: headers) == ["int", "y", ";", "int", "y", ";"])
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 1, column: 2), "expected \"FILENAME\" or <FILENAME> after #import")) {
            try texts("#import Types.h")
        }
    }

    @Test("function-like macros are unsupported; #error, an unterminated #if and a stray #endif are errors")
    func errors() {
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 1, column: 2), "unsupported: function-like macro 'SQUARE'")) {
            try texts("#define SQUARE(x) ((x) * (x))")
        }
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 4, column: 2), "#error not for Metal")) {
            try texts("#ifndef __METAL_VERSION__\n#error not for Metal\n#endif\n#error not for Metal")
        }
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 1, column: 2), "unterminated conditional directive")) {
            try texts("#if 1\nint a;")
        }
        #expect(throws: Diagnostic(Location(file: "p.metal", line: 1, column: 2), "#endif without #if")) {
            try texts("#endif")
        }
    }
}
