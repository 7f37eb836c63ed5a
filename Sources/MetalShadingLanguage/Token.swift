/// One token of Metal Shading Language source.
package struct Token: Sendable, Hashable {
    /// What kind of token it is.
    package enum Kind: Sendable, Hashable {
        /// A name or keyword (`float4`, `kernel`, `gid`).
        case identifier
        /// An integer literal as written (`42`, `0x1Fu`).
        case integer
        /// A floating-point literal as written (`1.5f`, `2e3`, `.5h`).
        case floating
        /// A string literal with its quotes (`"Shared.h"`), read by `#include`.
        case string
        /// An operator or punctuation (`+=`, `::`, `[`).
        case punctuation
        /// The end of the tokens.
        case end
    }

    /// What kind of token it is.
    package var kind: Kind
    /// The token's text as written.
    package var text: String
    /// Where it starts.
    package var location: SourceLocation
    /// Whether it is the first token of its line (a `#` there starts a directive).
    package var startsLine: Bool
    /// Whether white space or a comment comes before it (`#define F(x)` against `#define F (x)`).
    package var followsSpace: Bool

    /// A token.
    package init(_ kind: Kind, _ text: String, at location: SourceLocation, startsLine: Bool = false,
                 followsSpace: Bool = false) {
        self.kind = kind
        self.text = text
        self.location = location
        self.startsLine = startsLine
        self.followsSpace = followsSpace
    }

    /// Whether this is the punctuation or identifier `text`.
    package func isa(_ text: String) -> Bool {
        (kind == .punctuation || kind == .identifier) && self.text == text
    }
}
