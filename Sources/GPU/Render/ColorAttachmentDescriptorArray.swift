/// The colour attachments of a pass or a pipeline descriptor, by index, as Metal's
/// `MTLRenderPassColorAttachmentDescriptorArray` and
/// `MTLRenderPipelineColorAttachmentDescriptorArray` hold them: reading an index gives its
/// descriptor (Metal's implicitly unwrapped optional, so `colorAttachments[0].texture = …`
/// and `colorAttachments[0]!` both compile); setting one stores a copy of the descriptor
/// given, and setting nil puts back one with Metal's defaults. Indices are 0–3; another
/// stops with a misuse message.
public final class ColorAttachmentDescriptorArray<Element: AnyObject> {
    private var elements: IndexedDescriptors<Element>

    init(make: @escaping () -> Element, copy: @escaping (Element) -> Element) {
        elements = IndexedDescriptors(count: Self.count, name: "colorAttachments", make: make, copy: copy)
    }

    /// How many colour attachments a pass or pipeline has.
    static var count: Int { 4 }

    /// The descriptor at `index`; setting stores a copy (nil: Metal's defaults).
    public subscript(index: Int) -> Element! {
        get { elements[index] }
        set { elements[index] = newValue }
    }

    /// Every descriptor, in index order.
    var all: [Element] { elements.all }
}

/// Metal's name for a pass's colour attachments.
public typealias RenderPassColorAttachmentDescriptorArray = ColorAttachmentDescriptorArray<RenderPassColorAttachmentDescriptor>
/// Metal's name for a pipeline's colour attachments.
public typealias RenderPipelineColorAttachmentDescriptorArray =
    ColorAttachmentDescriptorArray<RenderPipelineColorAttachmentDescriptor>
