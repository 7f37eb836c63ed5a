/// The life every encoder kind shares: awaiting its first call (a parallel pass's
/// sub-encoder) or recording, then ended by `endEncoding()`; its debug groups; and whether a
/// resource failure stopped it recording. Each encoder's public calls check it once, at
/// their entry, with the call's `#function`.
///
/// A value in its encoder, used by the encoder's one recording thread.
struct EncoderLifecycle {
    /// Where the encoder is in its life: one comparison per call covers both the end and a
    /// sub-encoder's first call.
    enum Phase: UInt8 {
        case awaitingFirstCall, recording, ended
        /// Inside `withUnsafeVulkanCommandBuffer(_:)`: the host records, the encoder may not.
        case lentToHost
    }

    /// The encoder's kind, which misuse messages name.
    let kind: EncoderKind
    /// Where the encoder is now.
    private(set) var phase: Phase
    /// A resource failure was recorded on the command buffer: nothing more is recorded.
    private(set) var hasFailed = false
    /// The debug groups pushed and not yet popped.
    var debugGroups = DebugGroups()

    /// A new encoder's life: recording at once, or awaiting its first call.
    init(_ kind: EncoderKind, awaitingFirstCall: Bool = false) {
        self.kind = kind
        phase = awaitingFirstCall ? .awaitingFirstCall : .recording
    }

    /// Whether `call` may record now without a first-call step: the common case, inlined.
    @inline(__always)
    var isRecording: Bool { phase == .recording }

    /// Stops when the encoder has ended; otherwise it records from now on. Returns whether
    /// this was the encoder's first call.
    @inline(never)
    mutating func leaveFirstCall(_ call: StaticString) -> Bool {
        if phase == .ended { misuse("\(call) called on a \(kind.rawValue) command encoder after endEncoding()") }
        if phase == .lentToHost {
            misuse("\(call) called on a \(kind.rawValue) command encoder inside its withUnsafeVulkanCommandBuffer(_:); "
                + "record the encoder's own commands before or after the body")
        }
        let first = phase == .awaitingFirstCall
        phase = .recording
        return first
    }

    /// Stops unless the encoder is recording (a call after `endEncoding()`).
    @inline(__always)
    mutating func check(_ call: StaticString) {
        if phase != .recording { _ = leaveFirstCall(call) }
    }

    /// A host records into the encoder's command buffer (`withUnsafeVulkanCommandBuffer`):
    /// any call on the encoder stops until `takeBackFromHost()`.
    mutating func lendToHost() { phase = .lentToHost }

    /// The host's recording is done: the encoder records again.
    mutating func takeBackFromHost() { phase = .recording }

    /// `endEncoding()`: stops when the encoder has ended already or a debug group is still
    /// pushed; the encoder records nothing more.
    mutating func end(_ call: StaticString) {
        check(call)
        debugGroups.checkClosed(call)
        phase = .ended
    }

    /// A resource failure was recorded: nothing more is recorded into this encoder.
    mutating func noteFailure() { hasFailed = true }
}
