/// A place in Metal Shading Language source: the file as the caller or an `#include`
/// named it, and the line and column, both counted from 1 (columns in bytes).
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's name.
    package var file: String
    /// The line, from 1.
    package var line: Int
    /// The column, from 1, in bytes of the line.
    package var column: Int

    /// A location in `file`.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, as compilers write it.
    package var description: String { "\(file):\(line):\(column)" }
}

/// Why Metal Shading Language source did not compile: a syntax or type error, or a
/// construct outside the subset the front end compiles (its message begins
/// "unsupported: " and names the construct).
package struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    package var location: SourceLocation
    /// What it is, without the location.
    package var message: String

    /// A diagnostic at `location`.
    package init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    /// A construct outside the subset: "unsupported: <construct>".
    package static func unsupported(_ location: SourceLocation, _ construct: String) -> Diagnostic {
        Diagnostic(location, "unsupported: \(construct)")
    }

    /// Whether the source is valid as far as the front end can tell, but uses a construct
    /// it does not compile.
    package var isUnsupported: Bool { message.hasPrefix("unsupported: ") }

    /// `file:line:column: error: message`, as clang writes Metal's errors.
    package var description: String { "\(location): error: \(message)" }
}
