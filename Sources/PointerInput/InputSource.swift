/// Where a source hands its samples: any thread may call it, at any time.
/// `InputCollector.sink` is the usual one.
public typealias InputSink = @Sendable (InputSample) -> Void

/// A producer of pointer, touch or pen samples: a window system's event stream, a device,
/// or a script. Every source follows the same contract:
///
/// - `start(_:)` begins delivery: each sample goes to the sink once, with its timestamp on
///   the host's `CLOCK_MONOTONIC` (a source reading a server's clock maps it with a
///   `ServerTimeMapping`), each contact's samples in time order. Starting a started source
///   replaces its sink.
/// - A refinement of an estimated sample is pushed as a sample with the same contact and
///   `updateSequence` (see `InputCollector.push(_:)`).
/// - `stop()` ends delivery: no delivery starts after it returns (one already under way on
///   the source's own thread may finish). Stopping a stopped source does nothing.
public protocol InputSource: AnyObject, Sendable {
    /// Begins delivering samples to `sink`.
    func start(_ sink: @escaping InputSink)
    /// Ends delivery: no delivery to the sink starts after this returns.
    func stop()
}
