/// Descriptors by index, as Metal's descriptor arrays hold them: reading an index gives its
/// descriptor; setting one stores a copy of the descriptor given, and nil puts back a new
/// one. An index outside stops with a misuse message naming the array.
struct IndexedDescriptors<Element: AnyObject> {
    private var elements: [Element]
    private let make: () -> Element
    private let copy: (Element) -> Element
    /// The array's name in misuse messages ("colorAttachments").
    private let name: String

    init(count: Int, name: String, make: @escaping () -> Element, copy: @escaping (Element) -> Element) {
        self.make = make
        self.copy = copy
        self.name = name
        elements = (0..<count).map { _ in make() }
    }

    /// The descriptor at `index`; setting stores a copy (nil: a new one).
    subscript(index: Int) -> Element? {
        get { elements[check(index)] }
        set { elements[check(index)] = newValue.map(copy) ?? make() }
    }

    /// Every descriptor, in index order.
    var all: [Element] { elements }

    private func check(_ index: Int) -> Int {
        guard elements.indices.contains(index) else {
            misuse("\(name)[\(index)]: index is outside 0..<\(elements.count)")
        }
        return index
    }
}
