import GPU

/// Metal's `MTLBuffer`; SwiftGPU's ``GPU/Buffer`` conforms.
public protocol MTLBuffer: AnyObject, Sendable {
    /// The buffer's size in bytes.
    var length: Int { get }
    /// The buffer's label, for debugging tools.
    var label: String? { get set }
    /// The buffer's memory, for a shared buffer.
    func contents() -> UnsafeMutableRawPointer
}

extension Buffer: MTLBuffer {}
