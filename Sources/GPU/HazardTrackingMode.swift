/// Whether SwiftGPU orders the GPU's accesses to a resource, Metal's `MTLHazardTrackingMode`.
///
/// A tracked resource gets the barriers its accesses need between commands of a command
/// buffer. An untracked one gets none, and costs its encoders no hazard record: the app
/// orders its accesses itself with ``Fence``s (between encoders) or barriers of its own.
/// Command buffers on one queue are ordered either way.
public enum HazardTrackingMode: Sendable, Hashable {
    /// The default of what makes the resource: tracked for a buffer or texture made by a
    /// device, untracked for a heap (and so for the resources made from it), as in Metal.
    case `default`
    /// SwiftGPU orders the resource's accesses.
    case tracked
    /// The app orders the resource's accesses.
    case untracked

    /// The mode `options` ask for, `.default` when they name none. Stops, naming `call`,
    /// when they ask for both tracked and untracked.
    init(checking options: ResourceOptions, call: StaticString) {
        if options.isSuperset(of: [.hazardTrackingModeUntracked, .hazardTrackingModeTracked]) {
            misuse("\(call): the options ask for both .hazardTrackingModeTracked and .hazardTrackingModeUntracked")
        }
        if options.contains(.hazardTrackingModeUntracked) {
            self = .untracked
        } else if options.contains(.hazardTrackingModeTracked) {
            self = .tracked
        } else {
            self = .default
        }
    }

    /// The mode itself, or `defaultMode` for `.default`.
    func resolved(default defaultMode: HazardTrackingMode) -> HazardTrackingMode {
        self == .default ? defaultMode : self
    }
}
