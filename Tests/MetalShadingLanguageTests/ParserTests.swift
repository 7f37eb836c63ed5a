@testable import MetalShadingLanguage
import Testing

@Suite("MSL parser")
struct ParserTests {
    func parse(_ source: String) throws -> [TopLevelDeclaration] {
        var parser = Parser(tokens: try Lexer.tokens(of: source, file: "t.metal"))
        return try parser.parse()
    }

    @Test("structs, typedef'd structs and enums, aliases, constants and entry points with attributes")
    func declarations() throws {
        let declarations = try parse("""
            using namespace metal;
            typedef struct { float2 position; float4 color; } Vertex;
            typedef enum Index : uint { IndexVertices = 0, IndexUniforms } Index;
            using Scale = float;
            struct Out { float4 position [[position]]; Scale size [[point_size]]; };
            constant float weights[3] = { 0.25, 0.5, 0.25 };
            vertex Out main0(const device Vertex* vertices [[buffer(IndexVertices)]], uint id [[vertex_id]]) { return Out(); }
            """)
        #expect(declarations.count == 6)
        guard case .structure(let vertex) = declarations[0], case .enumeration(let index) = declarations[1],
              case .alias("Scale", _, _) = declarations[2], case .structure(let out) = declarations[3],
              case .variable(let weights) = declarations[4], case .function(let main) = declarations[5] else {
            Issue.record("unexpected declarations \(declarations)")
            return
        }
        #expect(vertex.name == "Vertex" && vertex.members.map(\.declarator.name) == ["position", "color"])
        #expect(index.name == "Index" && index.enumerators.map(\.name) == ["IndexVertices", "IndexUniforms"])
        #expect(out.members[0].declarator.attributes.map(\.name) == ["position"])
        #expect(weights.type.addressSpace == .constant && weights.declarators[0].arraySizes.count == 1)
        #expect(main.stage == .vertex && main.name == "main0" && main.parameters.count == 2)
        #expect(main.parameters[0].type.isConst && main.parameters[0].type.addressSpace == .device
            && main.parameters[0].type.indirection == .pointer)
        #expect(main.parameters[1].declarator.attributes == [Attribute(name: "vertex_id", arguments: [],
                                                                        location: Location(file: "t.metal", line: 7, column: 85))])
    }

    @Test("expressions keep C++'s precedence and associativity")
    func precedence() throws {
        let declarations = try parse("void f() { x = a + b * c - d << 1 == e && !g || h ? i : j; }")
        guard case .function(let function) = declarations[0], case .block(let statements)? = function.body?.kind,
              case .expression(let expression) = statements[0].kind else {
            Issue.record("unexpected \(declarations)")
            return
        }
        func text(_ e: Expression) -> String {
            switch e.kind {
            case .name(let name): return name
            case .integer(let value): return value
            case .binary(let op, let l, let r): return "(\(text(l)) \(op) \(text(r)))"
            case .prefix(let op, let v): return "\(op)\(text(v))"
            case .assignment(let op, let l, let r): return "(\(text(l)) \(op) \(text(r)))"
            case .conditional(let c, let t, let o): return "(\(text(c)) ? \(text(t)) : \(text(o)))"
            default: return "?"
            }
        }
        #expect(text(expression) == "(x = (((((((a + (b * c)) - d) << 1) == e) && !g) || h) ? i : j))")
    }

    @Test("syntax errors say what was expected and what was found, where")
    func syntaxErrors() {
        #expect(error(kernel("    float x = 1\n    out[i] = x;")) == "test.metal:6:5: error: expected ';' after the declaration, found 'out'")
        #expect(error(kernel("    out[i] = (1 + ;")) == "test.metal:5:19: error: expected an expression, found ';'")
        #expect(error("struct S { float x; }") == "test.metal:1:22: error: expected ';', found end of file")
        #expect(error("kernel void k(device float* out [[buffer(0)]) {}") == "test.metal:1:45: error: expected ']]', found ')'")
        #expect(error("kernel void k() { Unknown u; }") == "test.metal:1:19: error: unknown type name 'Unknown'")
    }

    @Test("constructs outside the subset are named as unsupported")
    func unsupported() {
        #expect(error("template <typename T> struct Pair { T a; T b; };") == "test.metal:1:1: error: unsupported: class templates")
        #expect(error("template <int N> float f() { return N; }") == "test.metal:1:11: error: unsupported: template parameters other than types")
        #expect(error("namespace detail { float f(float x) { return x; }") == "test.metal:1:50: error: expected '}', found end of file")
        #expect(error("using namespace raytracing;") == "test.metal:1:17: error: unsupported: namespace 'raytracing'")
        #expect(error("typedef struct { float f() { return 1; } } S;") == "test.metal:1:24: error: unsupported: member functions of an unnamed struct")
        #expect(error(kernel("    goto end;")) == "test.metal:5:5: error: unsupported: goto")
        #expect(error(kernel("    out[i] = 1, out[i + 1] = 2;")) == "test.metal:5:15: error: unsupported: the comma operator")
    }

    @Test("nesting deeper than the parser's limit is refused, not a stack overflow")
    func deepNesting() {
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        #expect(error(kernel("    out[i] = \(deep);")).hasSuffix("error: unsupported: nesting deeper than 128 levels"))
        let blocks = String(repeating: "{", count: 3000) + String(repeating: "}", count: 3000)
        #expect(error(kernel(blocks)).hasSuffix("error: unsupported: nesting deeper than 128 levels"))
    }
}
