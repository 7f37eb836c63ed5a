/// A GPU time, Metal's `MTLTimestamp`: nanoseconds on the host's monotonic clock
/// (CLOCK_MONOTONIC, the clock of `CommandBuffer.gpuStartTime`, in seconds there).
public typealias Timestamp = UInt64

/// The name of a counter set every device may offer, Metal's `MTLCommonCounterSet`.
public struct CommonCounterSet: RawRepresentable, Sendable, Hashable {
    /// The name.
    public let rawValue: String
    /// A set named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// GPU timestamps: one ``CounterResultTimestamp`` a sample.
    public static let timestamp = CommonCounterSet(rawValue: "timestamp")
    /// Work counted by the pipeline's stages: one ``CounterResultStatistic`` a sample.
    public static let statistic = CommonCounterSet(rawValue: "statistic")
    /// Cycles each stage was busy. Vulkan counts no cycles: no device offers it here.
    public static let stageUtilization = CommonCounterSet(rawValue: "stageutilization")
}

/// The name of a counter, Metal's `MTLCommonCounter`.
public struct CommonCounter: RawRepresentable, Sendable, Hashable {
    /// The name.
    public let rawValue: String
    /// A counter named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The GPU time.
    public static let timestamp = CommonCounter(rawValue: "GPUTimestamp")
    /// Tessellation patches read. SwiftGPU has no tessellation: always 0.
    public static let tessellationInputPatches = CommonCounter(rawValue: "TessellationInputPatches")
    /// Vertex shader invocations.
    public static let vertexInvocations = CommonCounter(rawValue: "VertexInvocations")
    /// Tessellation evaluation invocations. SwiftGPU has no tessellation: always 0.
    public static let postTessellationVertexInvocations = CommonCounter(rawValue: "PostTessellationVertexInvocations")
    /// Primitives that reached the clipper.
    public static let clipperInvocations = CommonCounter(rawValue: "ClipperInvocations")
    /// Primitives the clipper passed on.
    public static let clipperPrimitivesOut = CommonCounter(rawValue: "ClipperPrimitivesOut")
    /// Fragment shader invocations.
    public static let fragmentInvocations = CommonCounter(rawValue: "FragmentInvocations")
    /// Fragments that passed the depth and stencil tests. Not among Vulkan's pipeline
    /// statistics (visibility results count them): not offered.
    public static let fragmentsPassed = CommonCounter(rawValue: "FragmentsPassed")
    /// Compute kernel invocations (threads).
    public static let computeKernelInvocations = CommonCounter(rawValue: "KernelInvocations")
}

/// One counter of a set, Metal's `MTLCounter`.
public final class Counter: Sendable {
    /// Its name, a ``CommonCounter``'s raw value.
    public let name: String
    init(_ counter: CommonCounter) { name = counter.rawValue }
}

/// A set of counters sampled together into a ``CounterSampleBuffer``, Metal's
/// `MTLCounterSet`.
public final class CounterSet: Sendable {
    /// Its name, a ``CommonCounterSet``'s raw value.
    public let name: String
    /// Its counters.
    public let counters: [Counter]
    /// Which set it is.
    let common: CommonCounterSet

    init(_ common: CommonCounterSet, counters: [CommonCounter]) {
        self.common = common
        name = common.rawValue
        self.counters = counters.map(Counter.init)
    }
}

/// Where a device samples counters, Metal's `MTLCounterSamplingPoint`.
public enum CounterSamplingPoint: Sendable, Hashable {
    /// At the start and end of a pass (a pass descriptor's `sampleBufferAttachments`).
    case atStageBoundary
    /// Between draws (`sampleCounters` on a render encoder), where the device resets
    /// queries from the host.
    case atDrawBoundary
    /// Between dispatches (`sampleCounters` on a compute encoder).
    case atDispatchBoundary
    /// Between tile dispatches. Vulkan has no tile shaders: never offered.
    case atTileDispatchBoundary
    /// Between blits (`sampleCounters` on a blit encoder).
    case atBlitBoundary
}

/// A sample with no result, Metal's `MTLCounterErrorValue`: every field of a sample the GPU
/// has not written (yet) holds it.
public let counterErrorValue: UInt64 = .max

/// A pass attachment's sample index that takes no sample, Metal's `MTLCounterDontSample`.
public let counterDontSample = Int.max

/// A resolved timestamp sample, Metal's `MTLCounterResultTimestamp`.
public struct CounterResultTimestamp: Sendable, Hashable {
    /// Nanoseconds on the host's monotonic clock, or ``counterErrorValue``.
    public var timestamp: Timestamp
    /// A sample of `timestamp`.
    public init(timestamp: Timestamp) { self.timestamp = timestamp }
}

/// A resolved statistic sample, Metal's `MTLCounterResultStatistic`: what the pipeline
/// counted since the pass's start sample (a start sample holds zeros), or
/// ``counterErrorValue`` in every field.
public struct CounterResultStatistic: Sendable, Hashable {
    /// Always 0: SwiftGPU has no tessellation.
    public var tessellationInputPatches: UInt64
    /// Vertex shader invocations.
    public var vertexInvocations: UInt64
    /// Always 0: SwiftGPU has no tessellation.
    public var postTessellationVertexInvocations: UInt64
    /// Primitives that reached the clipper.
    public var clipperInvocations: UInt64
    /// Primitives the clipper passed on.
    public var clipperPrimitivesOut: UInt64
    /// Fragment shader invocations.
    public var fragmentInvocations: UInt64
    /// Not counted: ``counterErrorValue`` (visibility results count passed fragments).
    public var fragmentsPassed: UInt64
    /// Compute kernel invocations (threads).
    public var computeKernelInvocations: UInt64

    /// A sample with these counts.
    public init(tessellationInputPatches: UInt64 = 0, vertexInvocations: UInt64 = 0,
                postTessellationVertexInvocations: UInt64 = 0, clipperInvocations: UInt64 = 0,
                clipperPrimitivesOut: UInt64 = 0, fragmentInvocations: UInt64 = 0, fragmentsPassed: UInt64 = 0,
                computeKernelInvocations: UInt64 = 0) {
        self.tessellationInputPatches = tessellationInputPatches
        self.vertexInvocations = vertexInvocations
        self.postTessellationVertexInvocations = postTessellationVertexInvocations
        self.clipperInvocations = clipperInvocations
        self.clipperPrimitivesOut = clipperPrimitivesOut
        self.fragmentInvocations = fragmentInvocations
        self.fragmentsPassed = fragmentsPassed
        self.computeKernelInvocations = computeKernelInvocations
    }
}
