import GPU

/// Metal's `MTLBuffer`; SwiftGPU's `Buffer` conforms.
public protocol MTLBuffer: AnyObject, Sendable {
    /// The buffer's size in bytes.
    var length: Int { get }
    /// The buffer's label, for debugging tools.
    var label: String? { get set }
    /// The buffer's memory, for a shared buffer.
    func contents() -> UnsafeMutableRawPointer
}

/// SwiftGPU's `Buffer` as Metal's `MTLBuffer`.
extension Buffer: MTLBuffer {}
