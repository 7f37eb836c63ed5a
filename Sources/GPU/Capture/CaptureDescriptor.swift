import FoundationEssentials

/// Where a capture goes, as Metal's `MTLCaptureDestination`.
public enum CaptureDestination: Int, Sendable, Hashable {
    /// To the capture tool the app runs under: RenderDoc keeps the capture where its own
    /// path template says (`renderdoccmd capture -c`, or its default in the temporary
    /// folder) and lists it in a connected RenderDoc UI.
    case developerTools = 1
    /// To a file at the descriptor's `outputURL`: a RenderDoc capture (`.rdc`).
    case gpuTraceDocument = 2
}

/// What to capture and where it goes, as Metal's `MTLCaptureDescriptor`.
public final class CaptureDescriptor {
    /// The object whose work is captured: a `Device`, a `CommandQueue` (RenderDoc captures
    /// all of the device's queues), or a `CaptureScope` (the capture runs from the scope's
    /// next `begin()` to its `end()`). Anything else is an invalid descriptor.
    public var captureObject: Any?
    /// Where the capture goes; `.developerTools` by default, as in Metal.
    public var destination: CaptureDestination = .developerTools
    /// The file a `.gpuTraceDocument` capture is written to: a file URL whose folder exists
    /// and where no file exists yet. The file is a RenderDoc capture whatever its extension;
    /// `.rdc` lets RenderDoc's UI open it.
    public var outputURL: URL?

    /// An empty descriptor.
    public init() {}
}
