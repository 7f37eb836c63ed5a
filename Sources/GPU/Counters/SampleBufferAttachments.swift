/// Where a render pass samples a ``CounterSampleBuffer``, Metal's
/// `MTLRenderPassSampleBufferAttachmentDescriptor`: each index is a sample of the buffer,
/// or ``counterDontSample``. Timestamps: the starts as the pass begins, the end of vertex
/// work once its vertex shading is done, the end of fragment work once the whole pass is.
/// Statistics: each start a sample of zeros, and the pass's counts at one end.
public final class RenderPassSampleBufferAttachmentDescriptor {
    /// The buffer sampled; nil samples nothing.
    public var sampleBuffer: CounterSampleBuffer?
    /// The sample taken as the pass's vertex work starts.
    public var startOfVertexSampleIndex = counterDontSample
    /// The sample taken as the pass's vertex work ends.
    public var endOfVertexSampleIndex = counterDontSample
    /// The sample taken as the pass's fragment work starts.
    public var startOfFragmentSampleIndex = counterDontSample
    /// The sample taken as the pass's fragment work ends.
    public var endOfFragmentSampleIndex = counterDontSample
    /// A descriptor that samples nothing.
    public init() {}

    private init(_ buffer: CounterSampleBuffer?, vertex: (Int, Int), fragment: (Int, Int)) {
        sampleBuffer = buffer
        (startOfVertexSampleIndex, endOfVertexSampleIndex) = vertex
        (startOfFragmentSampleIndex, endOfFragmentSampleIndex) = fragment
    }

    /// A copy, as the pass descriptor's array stores one.
    func copied() -> RenderPassSampleBufferAttachmentDescriptor {
        RenderPassSampleBufferAttachmentDescriptor(sampleBuffer, vertex: (startOfVertexSampleIndex, endOfVertexSampleIndex),
                                                   fragment: (startOfFragmentSampleIndex, endOfFragmentSampleIndex))
    }
}

/// Where a compute or blit pass samples a ``CounterSampleBuffer``, Metal's
/// `MTLComputePassSampleBufferAttachmentDescriptor` and
/// `MTLBlitPassSampleBufferAttachmentDescriptor`: the start as the encoder's work begins,
/// the end once it is done (for statistics, a sample of zeros and the encoder's counts).
public final class EncoderSampleBufferAttachmentDescriptor {
    /// The buffer sampled; nil samples nothing.
    public var sampleBuffer: CounterSampleBuffer?
    /// The sample taken as the encoder's work starts, or ``counterDontSample``.
    public var startOfEncoderSampleIndex = counterDontSample
    /// The sample taken as the encoder's work ends, or ``counterDontSample``.
    public var endOfEncoderSampleIndex = counterDontSample
    /// A descriptor that samples nothing.
    public init() {}

    /// A copy, as the pass descriptor's array stores one.
    func copied() -> EncoderSampleBufferAttachmentDescriptor {
        let copy = EncoderSampleBufferAttachmentDescriptor()
        (copy.sampleBuffer, copy.startOfEncoderSampleIndex, copy.endOfEncoderSampleIndex) =
            (sampleBuffer, startOfEncoderSampleIndex, endOfEncoderSampleIndex)
        return copy
    }
}

/// Metal's name for a compute pass's sample buffer attachment.
public typealias ComputePassSampleBufferAttachmentDescriptor = EncoderSampleBufferAttachmentDescriptor
/// Metal's name for a blit pass's sample buffer attachment.
public typealias BlitPassSampleBufferAttachmentDescriptor = EncoderSampleBufferAttachmentDescriptor

/// A pass's sample buffer attachments by index (0–3, Metal's `MTLMaxRenderPassSampleBuffers`),
/// as Metal's `…SampleBufferAttachmentDescriptorArray`s hold them: reading an index gives
/// its descriptor; setting one stores a copy (nil: one that samples nothing). Another index
/// stops with a misuse message.
public final class SampleBufferAttachmentDescriptorArray<Element: AnyObject> {
    private var elements: IndexedDescriptors<Element>

    init(make: @escaping () -> Element, copy: @escaping (Element) -> Element) {
        elements = IndexedDescriptors(count: 4, name: "sampleBufferAttachments", make: make, copy: copy)
    }

    /// The descriptor at `index`; setting stores a copy (nil: one that samples nothing).
    public subscript(index: Int) -> Element! {
        get { elements[index] }
        set { elements[index] = newValue }
    }

    /// Every descriptor, in index order.
    var all: [Element] { elements.all }
}

/// Metal's name for a render pass's sample buffer attachments.
public typealias RenderPassSampleBufferAttachmentDescriptorArray =
    SampleBufferAttachmentDescriptorArray<RenderPassSampleBufferAttachmentDescriptor>
/// Metal's name for a compute or blit pass's sample buffer attachments.
public typealias EncoderSampleBufferAttachmentDescriptorArray =
    SampleBufferAttachmentDescriptorArray<EncoderSampleBufferAttachmentDescriptor>

/// What a compute pass samples, Metal's `MTLComputePassDescriptor`; make its encoder with
/// ``CommandBuffer/makeComputeCommandEncoder(descriptor:)``.
public final class ComputePassDescriptor {
    /// Where the pass samples counters (its start and end).
    public let sampleBufferAttachments = EncoderSampleBufferAttachmentDescriptorArray(
        make: EncoderSampleBufferAttachmentDescriptor.init, copy: { $0.copied() })
    /// A descriptor that samples nothing.
    public init() {}
}

/// What a blit pass samples, Metal's `MTLBlitPassDescriptor`; make its encoder with
/// ``CommandBuffer/makeBlitCommandEncoder(descriptor:)``.
public final class BlitPassDescriptor {
    /// Where the pass samples counters (its start and end).
    public let sampleBufferAttachments = EncoderSampleBufferAttachmentDescriptorArray(
        make: EncoderSampleBufferAttachmentDescriptor.init, copy: { $0.copied() })
    /// A descriptor that samples nothing.
    public init() {}
}
