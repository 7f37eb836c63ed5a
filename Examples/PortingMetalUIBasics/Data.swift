// A port of MetalUI/Common/Data.swift from github.com/metal-by-example/metal-ui-basics at
// commit 5b527efa32730dacf0f4b088d08cc6cd9152df34 (MIT; see LICENSE). Unchanged.

import Foundation

// Copies a value into the specified buffer at the specified offset. The value must
// be of trivial type, and the computed destination address must conform to the
// alignment requirements of the type.
func write<T: Any>(data: T, to buffer: UnsafeMutableRawPointer, at byteOffset: Int) {
    let ptr = buffer.advanced(by: byteOffset).assumingMemoryBound(to: T.self)
    ptr.initialize(to: data)
}

struct BindIndex {
    static let vertices = 0
    static let instances = 8
    static let constants = 9
}
