import GPU

/// Metal's `MTLLibrary`; SwiftGPU's `Library` conforms.
public protocol MTLLibrary: AnyObject, Sendable {
    /// The names of the library's functions.
    var functionNames: [String] { get }
    /// The function called `name`, or `nil` (the reason logged).
    func makeFunction(name: String) -> (any MTLFunction)?
}

/// Metal's `MTLFunction`; SwiftGPU's `Function` conforms.
public protocol MTLFunction: Sendable {
    /// The function's name.
    var name: String { get }
}

/// SwiftGPU's `Library` as Metal's `MTLLibrary`.
extension Library: MTLLibrary {
    /// Metal's `makeFunction(name:)`: the function, or `nil` with the reason logged.
    public func makeFunction(name: String) -> (any MTLFunction)? {
        madeOrNil("makeFunction(name:)") { () throws(LibraryError) -> Function in try makeFunction(name: name) }
    }
}

/// SwiftGPU's `Function` as Metal's `MTLFunction`.
extension Function: MTLFunction {}
