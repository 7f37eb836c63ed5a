import GPU

/// Stops the program for a violation of the API contract, naming the call, as the GPU
/// module's own misuse stops do.
func misuse(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("SwiftGPU API misuse: \(message)", file: file, line: line)
}

/// `value` as SwiftGPU's own type `T`. Metal's protocols are SwiftGPU's classes' to conform
/// to: an argument of another conforming type has no SwiftGPU object behind it, which is
/// misuse of `call`.
func own<T>(_ value: Any, as type: T.Type, in call: String) -> T {
    guard let own = value as? T else {
        misuse("\(call): \(Swift.type(of: value)) is not a SwiftGPU \(T.self); pass an object SwiftGPU made")
    }
    return own
}

/// A Metal buffer argument as SwiftGPU's `Buffer`: `nil` (SwiftGPU binds, it does not
/// unbind) and a buffer of another type are misuse of `call`.
func ownBuffer(_ buffer: (any MTLBuffer)?, index: Int, in call: String) -> Buffer {
    guard let buffer else { misuse("\(call): nil buffer at index \(index); SwiftGPU does not unbind") }
    return own(buffer, as: Buffer.self, in: call)
}

/// A Metal texture argument as SwiftGPU's `Texture`: `nil` and a texture of another type
/// are misuse of `call`.
func ownTexture(_ texture: (any MTLTexture)?, index: Int, in call: String) -> Texture {
    guard let texture else { misuse("\(call): nil texture at index \(index); SwiftGPU does not unbind") }
    return own(texture, as: Texture.self, in: call)
}
