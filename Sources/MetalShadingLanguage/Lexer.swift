/// Splits Metal Shading Language source into tokens: names, numbers, strings and C++'s
/// punctuation, with comments and line continuations (`\` at a line's end) removed.
package struct Lexer {
    private let bytes: [UInt8]
    private let file: String
    private var at = 0
    private var line = 1
    private var lineStart = 0

    /// Punctuation, longest first so that the longest match wins.
    private static let punctuation: [[UInt8]] = [
        "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "::", "##",
        "{", "}", "[", "]", "(", ")", ";", ":", ",", ".", "?", "+", "-", "*", "/", "%", "&", "|", "^", "~",
        "!", "=", "<", ">", "#",
    ].map { Array($0.utf8) }

    /// A lexer over `source`, whose locations name `file`.
    package init(_ source: String, file: String) {
        bytes = Array(source.utf8)
        self.file = file
    }

    /// Every token of the source, ending with an `.end` token, or the first error: an
    /// unterminated comment or string, or a character that starts no token.
    package static func tokens(of source: String, file: String) throws(Diagnostic) -> [Token] {
        var lexer = Lexer(source, file: file)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var location: SourceLocation { SourceLocation(file: file, line: line, column: at - lineStart + 1) }

    private func peek(_ offset: Int = 0) -> UInt8? {
        at + offset < bytes.count ? bytes[at + offset] : nil
    }

    private mutating func newLine() {
        line += 1
        lineStart = at
    }

    /// Skips spaces, comments and line continuations; says whether a line ended and
    /// whether anything was skipped.
    private mutating func skipSpace() throws(Diagnostic) -> (newLine: Bool, skipped: Bool) {
        var newLine = false, skipped = false
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                at += 1
            case UInt8(ascii: "\n"):
                at += 1
                self.newLine()
                newLine = true
            case UInt8(ascii: "\\") where peek(1) == UInt8(ascii: "\n") || (peek(1) == UInt8(ascii: "\r") && peek(2) == UInt8(ascii: "\n")):
                at += peek(1) == UInt8(ascii: "\n") ? 2 : 3
                self.newLine()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let next = peek(), next != UInt8(ascii: "\n") { at += 1 }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                let start = location
                at += 2
                while true {
                    guard let next = peek() else { throw Diagnostic(start, "unterminated comment") }
                    if next == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") { at += 2; break }
                    at += 1
                    if next == UInt8(ascii: "\n") { self.newLine(); newLine = true }
                }
            default:
                return (newLine, skipped)
            }
            skipped = true
        }
        return (newLine, skipped)
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isNamePart(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }

    /// The next token.
    package mutating func next() throws(Diagnostic) -> Token {
        let startOfFile = at == 0
        let space = try skipSpace()
        let startsLine = space.newLine || startOfFile
        let start = location, first = at
        func token(_ kind: Token.Kind) -> Token {
            Token(kind, String(decoding: bytes[first..<at], as: UTF8.self), at: start, startsLine: startsLine,
                  followsSpace: space.skipped)
        }
        guard let byte = peek() else { return Token(.end, "", at: start, startsLine: true, followsSpace: true) }
        if Self.isNameStart(byte) {
            while let next = peek(), Self.isNamePart(next) { at += 1 }
            return token(.identifier)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(Self.isDigit) == true) {
            return token(number())
        }
        if byte == UInt8(ascii: "\"") {
            at += 1
            while true {
                guard let next = peek(), next != UInt8(ascii: "\n") else { throw Diagnostic(start, "unterminated string") }
                at += 1
                if next == UInt8(ascii: "\\") { at += 1 } else if next == UInt8(ascii: "\"") { break }
            }
            return token(.string)
        }
        if byte == UInt8(ascii: "'") {
            throw Diagnostic.unsupported(start, "character literals")
        }
        for candidate in Self.punctuation where bytes[at...].starts(with: candidate) {
            at += candidate.count
            return token(.punctuation)
        }
        let character = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        throw Diagnostic(start, "unexpected character \(character)")
    }

    /// Reads a number (C's pp-number: digits, letters, dots and exponent signs) and says
    /// whether it is an integer or a floating-point literal.
    private mutating func number() -> Token.Kind {
        let hex = peek() == UInt8(ascii: "0") && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
        var floating = false
        while let next = peek() {
            if Self.isNamePart(next) {
                let exponent = hex ? (next == UInt8(ascii: "p") || next == UInt8(ascii: "P"))
                    : (next == UInt8(ascii: "e") || next == UInt8(ascii: "E"))
                at += 1
                if exponent {
                    floating = true
                    if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { at += 1 }
                }
            } else if next == UInt8(ascii: ".") {
                floating = true
                at += 1
            } else {
                break
            }
        }
        if !hex, let last = bytes[..<at].last, last == UInt8(ascii: "f") || last == UInt8(ascii: "F")
            || last == UInt8(ascii: "h") || last == UInt8(ascii: "H") {
            floating = true
        }
        return floating ? .floating : .integer
    }
}
