/// Debug groups and signposts, Metal's `pushDebugGroup(_:)`, `popDebugGroup()` and
/// `insertDebugSignpost(_:)`: recorded as `VK_EXT_debug_utils` labels where the device has
/// them (RenderDoc and the validation layer show them), and counted so that an unbalanced
/// pop, or a group left open at the end, stops with a message. One per encoder or command
/// buffer, used by its one recording thread.
struct DebugGroups {
    /// Groups pushed and not yet popped.
    private(set) var depth = 0

    /// Opens a group named `name`.
    mutating func push(_ name: String, into context: CommandRecorder) {
        context.debugLabel(.begin, name)
        depth += 1
    }

    /// Closes the innermost group; stops when none is open.
    mutating func pop(into context: CommandRecorder, call: String) {
        guard depth > 0 else { misuse("\(call) called with no debug group pushed") }
        context.debugLabel(.end, "")
        depth -= 1
    }

    /// Stops unless every group pushed was popped, before `call` ends the recording.
    func checkClosed(_ call: StaticString) {
        guard depth == 0 else {
            misuse("\(call) called with \(depth) debug group\(depth == 1 ? "" : "s") still pushed; call popDebugGroup() first")
        }
    }
}
