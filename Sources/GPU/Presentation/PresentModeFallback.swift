import FramePacing

extension PresentMode {
    /// The modes tried, in order, when a surface does not offer this one. FIFO ends every
    /// chain: Vulkan requires every surface to offer it.
    ///
    /// | asked | tried |
    /// |---|---|
    /// | fifo | fifo |
    /// | fifoRelaxed | fifoRelaxed, fifo |
    /// | mailbox | mailbox, immediate, fifo |
    /// | immediate | immediate, mailbox, fifo |
    var fallbackChain: [PresentMode] {
        switch self {
        case .fifo: [.fifo]
        case .fifoRelaxed: [.fifoRelaxed, .fifo]
        case .mailbox: [.mailbox, .immediate, .fifo]
        case .immediate: [.immediate, .mailbox, .fifo]
        }
    }

    /// This mode if `offered` has it, else the first of its fallback chain that is offered.
    func fallback(offered: Set<PresentMode>) -> PresentMode {
        fallbackChain.first(where: offered.contains) ?? .fifo
    }
}
