/// Metal's preprocessor, the part shaders use: `#include` of Metal's own headers (which the
/// front end knows without reading) and of the app's headers (read through the caller),
/// `#import` (an `#include` read once), object-like `#define` and `#undef`, `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`,
/// `#endif` with `defined`, `#pragma once` (other pragmas are ignored) and `#error`.
/// Function-like macros are refused as unsupported.
package struct Preprocessor {
    /// Reads an `#include "name"` header: its text, or nil when it is found nowhere. The
    /// caller decides where headers may come from.
    package typealias HeaderReader = (String) -> HeaderLookup

    /// What reading a header found.
    package enum HeaderLookup {
        /// The header's text, and the name its diagnostics give it.
        case found(text: String, file: String)
        /// No header of that name.
        case notFound
        /// A header that may not be read, with the reason.
        case refused(String)
    }

    /// The deepest nesting of includes.
    package static let maximumIncludeDepth = 16
    /// The most tokens a source may expand to, with its headers and macros: macros that
    /// double at each level would otherwise grow without bound.
    package static let maximumTokens = 1 << 20
    /// The deepest nesting of macros in macros.
    package static let maximumMacroDepth = 256
    /// `__METAL_VERSION__`: the language version the subset follows, Metal 2.4.
    package static let metalVersion = "240"

    private var macros: [String: [Token]] = [:]
    private let readHeader: HeaderReader
    private var onceFiles: Set<String> = []
    private var output: [Token] = []

    /// A preprocessor with `macros` defined (each value is lexed as the replacement; an
    /// empty value defines the name alone) and `__METAL_VERSION__`.
    package init(macros: [String: String], readHeader: @escaping HeaderReader) throws(Diagnostic) {
        self.readHeader = readHeader
        self.macros["__METAL_VERSION__"] = [Token(.integer, Self.metalVersion, at: SourceLocation(file: "<built-in>", line: 1, column: 1))]
        for (name, value) in macros.sorted(by: { $0.key < $1.key }) {
            var replacement = try Lexer.tokens(of: value, file: "<macro \(name)>")
            replacement.removeLast()
            self.macros[name] = replacement
        }
    }

    /// The tokens of `source` after preprocessing, ending with `.end`.
    package mutating func run(_ source: String, file: String) throws(Diagnostic) -> [Token] {
        output = []
        try process(Lexer.tokens(of: source, file: file), depth: 0)
        // The end is just after the last token, where a missing `;` or `}` belongs.
        let end = output.last.map { last in
            SourceLocation(file: last.location.file, line: last.location.line, column: last.location.column + last.text.utf8.count)
        } ?? SourceLocation(file: file, line: 1, column: 1)
        output.append(Token(.end, "", at: end))
        return output
    }

    /// One open `#if` group.
    private struct Conditional {
        /// Whether the text before the group was kept.
        var outerActive: Bool
        /// Whether the current branch is kept.
        var active: Bool
        /// Whether some branch was kept already.
        var taken: Bool
        /// Whether `#else` was seen.
        var sawElse: Bool
        /// The `#if`, for an unterminated group's error.
        var start: SourceLocation
    }

    private mutating func process(_ tokens: [Token], depth: Int) throws(Diagnostic) {
        var conditionals: [Conditional] = []
        var index = 0
        var active: Bool { conditionals.last?.active ?? true }
        while tokens[index].kind != .end {
            let token = tokens[index]
            guard token.startsLine, token.isa("#") else {
                var end = index + 1
                while !tokens[end].startsLine { end += 1 }
                if active { try expand(tokens[index..<end], into: &output, hidden: []) }
                index = end
                continue
            }
            var end = index + 1
            while !tokens[end].startsLine { end += 1 }
            let line = Array(tokens[(index + 1)..<end])
            index = end
            guard let directive = line.first else { continue } // `#` alone is a null directive
            let arguments = Array(line.dropFirst())
            switch directive.text {
            case "if", "ifdef", "ifndef":
                var condition = false
                if active {
                    if directive.text == "if" {
                        condition = try evaluate(arguments, at: directive.location)
                    } else {
                        let name = try macroName(arguments, directive)
                        condition = (macros[name] != nil) == (directive.text == "ifdef")
                    }
                }
                conditionals.append(Conditional(outerActive: active, active: active && condition, taken: condition,
                                                sawElse: false, start: directive.location))
            case "elif":
                guard var group = conditionals.popLast(), !group.sawElse else {
                    throw Diagnostic(directive.location, "#elif without #if")
                }
                let condition = group.outerActive && !group.taken ? try evaluate(arguments, at: directive.location) : false
                group.active = group.outerActive && !group.taken && condition
                group.taken = group.taken || condition
                conditionals.append(group)
            case "else":
                guard var group = conditionals.popLast(), !group.sawElse else {
                    throw Diagnostic(directive.location, "#else without #if")
                }
                group.active = group.outerActive && !group.taken
                group.taken = true
                group.sawElse = true
                conditionals.append(group)
            case "endif":
                guard conditionals.popLast() != nil else { throw Diagnostic(directive.location, "#endif without #if") }
            default:
                guard active else { continue }
                try perform(directive, arguments, depth: depth)
            }
        }
        if let open = conditionals.last {
            throw Diagnostic(open.start, "unterminated conditional directive")
        }
    }

    private func macroName(_ arguments: [Token], _ directive: Token) throws(Diagnostic) -> String {
        guard let name = arguments.first, name.kind == .identifier else {
            throw Diagnostic(arguments.first?.location ?? directive.location, "macro name missing after #\(directive.text)")
        }
        return name.text
    }

    /// Runs a directive of a kept line.
    private mutating func perform(_ directive: Token, _ arguments: [Token], depth: Int) throws(Diagnostic) {
        switch directive.text {
        case "define":
            let name = try macroName(arguments, directive)
            if arguments.count > 1, arguments[1].isa("("), !arguments[1].followsSpace {
                throw .unsupported(directive.location, "function-like macro '\(name)'")
            }
            macros[name] = Array(arguments.dropFirst())
        case "undef":
            macros[try macroName(arguments, directive)] = nil
        case "include":
            try include(arguments, directive, depth: depth)
        case "import":
            // Objective-C's #import, which Apple's samples use: an #include read once.
            try include(arguments, directive, depth: depth, once: true)
        case "pragma":
            if arguments.first?.text == "once" { onceFiles.insert(directive.location.file) }
        case "error":
            throw Diagnostic(directive.location, "#error " + arguments.map(\.text).joined(separator: " "))
        case "warning", "line":
            break
        default:
            throw Diagnostic(directive.location, "invalid preprocessing directive '#\(directive.text)'")
        }
    }

    /// Whether `name` is one of Metal's or simd's own headers, which declare nothing the
    /// front end does not know already.
    static func isSystemHeader(_ name: String) -> Bool {
        name.hasPrefix("metal_") || name == "simd/simd.h" || name.hasPrefix("simd/")
    }

    private mutating func include(_ arguments: [Token], _ directive: Token, depth: Int, once: Bool = false) throws(Diagnostic) {
        let name: String
        if let first = arguments.first, first.kind == .string, arguments.count == 1 {
            name = String(first.text.dropFirst().dropLast())
        } else if let first = arguments.first, first.isa("<"), arguments.last?.isa(">") == true, arguments.count > 2 {
            name = arguments.dropFirst().dropLast().map(\.text).joined()
            if Self.isSystemHeader(name) { return }
        } else {
            throw Diagnostic(directive.location, "expected \"FILENAME\" or <FILENAME> after #\(directive.text)")
        }
        guard depth < Self.maximumIncludeDepth else {
            throw Diagnostic(directive.location, "#include nested deeper than \(Self.maximumIncludeDepth) headers")
        }
        switch readHeader(name) {
        case .found(let text, let file):
            guard !onceFiles.contains(file) else { return }
            if once { onceFiles.insert(file) }
            try process(Lexer.tokens(of: text, file: file), depth: depth + 1)
        case .notFound:
            throw Diagnostic(directive.location, "'\(name)' file not found")
        case .refused(let reason):
            throw Diagnostic(directive.location, "#include \"\(name)\": \(reason)")
        }
    }

    /// Appends `tokens` with their macros replaced, at the use's location; `hidden` are the
    /// macros being replaced already, which stay as they are (as in C).
    private func expand(_ tokens: ArraySlice<Token>, into result: inout [Token], hidden: Set<String>) throws(Diagnostic) {
        for token in tokens {
            guard result.count < Self.maximumTokens else {
                throw .unsupported(token.location, "sources that expand to more than \(Self.maximumTokens) tokens")
            }
            guard token.kind == .identifier, !hidden.contains(token.text), let replacement = macros[token.text] else {
                result.append(token)
                continue
            }
            guard hidden.count < Self.maximumMacroDepth else {
                throw .unsupported(token.location, "macros nested more than \(Self.maximumMacroDepth) deep")
            }
            let placed = replacement.map { tokenOfMacro in
                var copy = tokenOfMacro
                copy.location = token.location
                copy.startsLine = false
                copy.followsSpace = true
                return copy
            }
            try expand(placed[...], into: &result, hidden: hidden.union([token.text]))
        }
    }

    /// The value of an `#if` condition: `defined` is replaced first, then macros, and
    /// names left are 0, as in C.
    private func evaluate(_ tokens: [Token], at location: SourceLocation) throws(Diagnostic) -> Bool {
        var resolved: [Token] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            guard token.isa("defined") else {
                resolved.append(token)
                index += 1
                continue
            }
            let parenthesised = index + 1 < tokens.count && tokens[index + 1].isa("(")
            let nameIndex = index + (parenthesised ? 2 : 1)
            guard nameIndex < tokens.count, tokens[nameIndex].kind == .identifier,
                  !parenthesised || (nameIndex + 1 < tokens.count && tokens[nameIndex + 1].isa(")")) else {
                throw Diagnostic(token.location, "expected a macro name after 'defined'")
            }
            resolved.append(Token(.integer, macros[tokens[nameIndex].text] != nil ? "1" : "0", at: token.location))
            index = nameIndex + (parenthesised ? 2 : 1)
        }
        var expanded: [Token] = []
        try expand(resolved[...], into: &expanded, hidden: [])
        var evaluator = ConditionEvaluator(tokens: expanded, location: location)
        return try evaluator.evaluate() != 0
    }
}
