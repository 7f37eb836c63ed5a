/// Evaluates an `#if` condition after macro replacement: integers, names (0), parentheses,
/// unary `! ~ - +`, the binary operators of C and `?:`, in 64-bit signed arithmetic.
struct ConditionEvaluator {
    private let tokens: [Token]
    private let location: SourceLocation
    private var at = 0

    /// An evaluator of `tokens`; errors without a token of their own name `location`.
    init(tokens: [Token], location: SourceLocation) {
        self.tokens = tokens
        self.location = location
    }

    /// Binary operators by precedence, lowest first.
    private static let levels: [[String]] = [
        ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"], ["*", "/", "%"],
    ]

    /// The condition's value.
    mutating func evaluate() throws(Diagnostic) -> Int64 {
        guard !tokens.isEmpty else { throw Diagnostic(location, "#if with no expression") }
        let value = try conditional()
        if at < tokens.count { throw Diagnostic(tokens[at].location, "unexpected '\(tokens[at].text)' in #if") }
        return value
    }

    private var here: SourceLocation { at < tokens.count ? tokens[at].location : location }

    private mutating func accept(_ text: String) -> Bool {
        guard at < tokens.count, tokens[at].isa(text) else { return false }
        at += 1
        return true
    }

    private mutating func conditional() throws(Diagnostic) -> Int64 {
        let condition = try binary(0)
        guard accept("?") else { return condition }
        let yes = try conditional()
        guard accept(":") else { throw Diagnostic(here, "expected ':' in #if") }
        let no = try conditional()
        return condition != 0 ? yes : no
    }

    private mutating func binary(_ level: Int) throws(Diagnostic) -> Int64 {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level + 1)
        while at < tokens.count, tokens[at].kind == .punctuation, Self.levels[level].contains(tokens[at].text) {
            let op = tokens[at]
            at += 1
            let right = try binary(level + 1)
            left = try Self.apply(op, left, right)
        }
        return left
    }

    private static func apply(_ op: Token, _ left: Int64, _ right: Int64) throws(Diagnostic) -> Int64 {
        func bool(_ value: Bool) -> Int64 { value ? 1 : 0 }
        switch op.text {
        case "||": return bool(left != 0 || right != 0)
        case "&&": return bool(left != 0 && right != 0)
        case "|": return left | right
        case "^": return left ^ right
        case "&": return left & right
        case "==": return bool(left == right)
        case "!=": return bool(left != right)
        case "<": return bool(left < right)
        case ">": return bool(left > right)
        case "<=": return bool(left <= right)
        case ">=": return bool(left >= right)
        case "<<": return right >= 0 && right < 64 ? left << right : 0
        case ">>": return right >= 0 && right < 64 ? left >> right : 0
        case "+": return left &+ right
        case "-": return left &- right
        case "*": return left &* right
        default:
            guard right != 0 else { throw Diagnostic(op.location, "division by zero in #if") }
            guard !(left == .min && right == -1) else { return op.text == "/" ? .min : 0 }
            return op.text == "/" ? left / right : left % right
        }
    }

    private mutating func unary() throws(Diagnostic) -> Int64 {
        if accept("!") { return try unary() == 0 ? 1 : 0 }
        if accept("~") { return ~(try unary()) }
        if accept("-") { return 0 &- (try unary()) }
        if accept("+") { return try unary() }
        if accept("(") {
            let value = try conditional()
            guard accept(")") else { throw Diagnostic(here, "expected ')' in #if") }
            return value
        }
        guard at < tokens.count else { throw Diagnostic(location, "#if expression ends too soon") }
        let token = tokens[at]
        at += 1
        switch token.kind {
        case .identifier: return token.text == "true" ? 1 : 0
        case .integer:
            guard let value = IntegerLiteral(token.text)?.value, value <= UInt64(Int64.max) else {
                throw Diagnostic(token.location, "invalid integer '\(token.text)' in #if")
            }
            return Int64(value)
        default: throw Diagnostic(token.location, "unexpected '\(token.text)' in #if")
        }
    }
}

/// An integer literal's value and whether its suffix makes it unsigned (`u`, `U`); `l`
/// suffixes are accepted and change nothing.
struct IntegerLiteral {
    /// The value.
    var value: UInt64
    /// Whether it is unsigned.
    var unsigned: Bool

    /// The literal written as `text`, or nil when it is no integer or too large.
    init?(_ text: String) {
        var digits = Substring(text)
        var unsigned = false
        while let last = digits.last, "uUlL".contains(last) {
            if last == "u" || last == "U" { unsigned = true }
            digits = digits.dropLast()
        }
        let radix: Int
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0b") || digits.hasPrefix("0B") {
            radix = 2
            digits = digits.dropFirst(2)
        } else if digits.count > 1, digits.hasPrefix("0") {
            radix = 8
        } else {
            radix = 10
        }
        guard !digits.isEmpty, let value = UInt64(digits, radix: radix) else { return nil }
        self.value = value
        self.unsigned = unsigned
    }
}
