import Glibc

/// Adds a spawn action that closes every descriptor from `first` up, so that a child
/// inherits only what the actions before it set up. glibc has had
/// `posix_spawn_file_actions_addclosefrom_np` since 2.34, but Swift's Glibc module leaves
/// it out, so it is looked up by name; a glibc without it stops the test with a message.
package func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("posix_spawn_file_actions_addclosefrom_np is missing: glibc 2.34 or later is needed")
    }
    let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
    let result = closeFrom(&actions, first)
    precondition(result == 0, "posix_spawn_file_actions_addclosefrom_np failed: \(String(cString: strerror(result)))")
}
