import CVulkan.XCB

/// A connection to the X server held while the benchmark runs. An X server started
/// without `-noreset` resets when its last client leaves and refuses connections until it
/// is done: with nothing held, the window of one run could meet the reset that the end of
/// the run before began, and the run would fail to connect.
final class ServerHold {
    private let connection: OpaquePointer

    /// Connects to `$DISPLAY`; nil when the server cannot be reached.
    init?() {
        guard let connection = xcb_connect(nil, nil) else { return nil }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            return nil
        }
        self.connection = connection
    }

    deinit { xcb_disconnect(connection) }
}
