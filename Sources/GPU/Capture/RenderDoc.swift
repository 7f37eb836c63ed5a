import CRenderDoc

/// RenderDoc's in-application API, through `CRenderDoc`. Called only with the capture
/// manager's lock held, which serializes the lookup and every capture's start and end.
enum RenderDoc {
    /// Whether RenderDoc is loaded in the process and answered for its API.
    static func find() -> Bool { swiftgpu_renderdoc_find() == 1 }

    /// The template RenderDoc names the next capture's file after.
    static var pathTemplate: String {
        get { text { swiftgpu_renderdoc_path_template($0, $1) } ?? "" }
        set { swiftgpu_renderdoc_set_path_template(newValue) }
    }

    /// How many captures RenderDoc has written in this process.
    static var captureCount: UInt32 { swiftgpu_renderdoc_capture_count() }

    /// The file capture `index` was written to.
    static func capturePath(_ index: UInt32) -> String? {
        text { swiftgpu_renderdoc_capture_path(index, $0, $1) }
    }

    /// Starts capturing the instance `device` points to.
    static func start(_ device: UnsafeMutableRawPointer) { swiftgpu_renderdoc_start(device) }

    /// Whether a capture is in progress.
    static var isCapturing: Bool { swiftgpu_renderdoc_is_capturing() != 0 }

    /// Ends the capture and writes it; false when RenderDoc wrote nothing.
    static func end(_ device: UnsafeMutableRawPointer) -> Bool { swiftgpu_renderdoc_end(device) != 0 }

    /// A string a C call copies into a buffer of its own (`PATH_MAX` bytes), or nil when
    /// the call reports it has none that fits.
    private static func text(_ copy: (UnsafeMutablePointer<CChar>, UInt32) -> Int32) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
            guard let base = buffer.baseAddress, copy(base, UInt32(buffer.count)) >= 0 else { return nil }
            return String(cString: base)
        }
    }
}
