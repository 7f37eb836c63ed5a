import FoundationEssentials
import Glibc
import Logging
import SwiftGPUSupport

/// Starts and stops GPU captures from the app's code, as Metal's `MTLCaptureManager`, through
/// RenderDoc's in-application API: a capture brackets the work committed between
/// `startCapture(with:)` and `stopCapture()` (or a scope's `begin()` and `end()`), so
/// compute-only and headless work is captured as well as frames.
///
/// RenderDoc must be in the process before SwiftGPU makes its Vulkan instance, so that its
/// layer hooks the instance: run the app under `renderdoccmd capture` (or RenderDoc's UI's
/// "Launch Application"). SwiftGPU never loads RenderDoc itself; without it,
/// `supportsDestination(_:)` is false and `startCapture(with:)` throws `.notSupported`.
///
/// `@unchecked Sendable`: the capture's state is behind the manager's lock, which is held
/// around RenderDoc's start and end of a capture so that two threads cannot interleave them.
public final class CaptureManager: @unchecked Sendable {
    private static let instance = CaptureManager()

    /// The process's one capture manager.
    public static func shared() -> CaptureManager { instance }

    /// A capture: the device whose instance RenderDoc captures, the scope that bounds it,
    /// the file it goes to.
    private struct Capture {
        let device: Device
        let scope: CaptureScope?
        let outputPath: String?
    }

    /// Started: the path template to put back afterwards, and RenderDoc's capture count
    /// before it.
    private struct Running {
        let capture: Capture
        let previousTemplate: String?
        let capturesBefore: UInt32
    }

    private enum Phase {
        case idle
        /// Waiting for its scope's `begin()`.
        case armed(Capture)
        case capturing(Running)
    }

    private let lock = ConditionLock(rank: .captureManager)
    private var phase = Phase.idle
    private var storedDefaultScope: CaptureScope?
    private let logger = Logger(label: "SwiftGPU.capture")

    private init() {}

    /// Makes a scope that bounds captures of `device`'s work.
    public func makeCaptureScope(device: Device) -> CaptureScope {
        CaptureScope(device: device, commandQueue: nil, manager: self)
    }

    /// Makes a scope that bounds captures of `commandQueue`'s work (RenderDoc captures all
    /// of its device's queues).
    public func makeCaptureScope(commandQueue: CommandQueue) -> CaptureScope {
        CaptureScope(device: commandQueue.device, commandQueue: commandQueue, manager: self)
    }

    /// The scope Metal's developer tools capture by default. Kept for code written for
    /// Metal: RenderDoc's own capture key and UI capture frames (present to present), and
    /// do not read it.
    public var defaultCaptureScope: CaptureScope? {
        get { lock.withLock { storedDefaultScope } }
        set { lock.withLock { storedDefaultScope = newValue } }
    }

    /// Whether a capture is in progress: from `startCapture(with:)` until `stopCapture()`,
    /// or, for a scope, until its `end()`.
    public var isCapturing: Bool {
        lock.withLock {
            if case .idle = phase { return false }
            return true
        }
    }

    /// Whether captures can go to `destination`: true for both when RenderDoc is in the
    /// process.
    public func supportsDestination(_ destination: CaptureDestination) -> Bool {
        lock.withLock { RenderDoc.find() }
    }

    /// Starts a capture of `descriptor`'s object. A device or queue is captured from now
    /// until `stopCapture()`; a scope from its next `begin()` to its `end()`.
    ///
    /// Throws `.invalidDescriptor` for an object that is none of those, a
    /// `.gpuTraceDocument` without a file URL, or one whose file exists or whose folder
    /// does not; `.notSupported` when RenderDoc is not in the process or does not hook the
    /// device's instance; `.alreadyCapturing` while another capture runs or is armed.
    public func startCapture(with descriptor: CaptureDescriptor) throws(CaptureError) {
        let call = #function
        let (device, scope) = try Self.target(of: descriptor.captureObject, call)
        let outputPath = try Self.outputPath(of: descriptor, call)
        try lock.withLock { () throws(CaptureError) in
            guard case .idle = phase else {
                throw CaptureError(.alreadyCapturing, "\(call): a capture is already in progress; stopCapture() ends it")
            }
            guard RenderDoc.find() else { throw Self.renderDocMissing(call) }
            let capture = Capture(device: device, scope: scope, outputPath: outputPath)
            phase = scope == nil ? .capturing(try start(capture, call)) : .armed(capture)
        }
    }

    /// Ends the capture in progress and writes it (an armed scope's capture that has not
    /// begun is dropped). Does nothing when no capture is in progress, as in Metal.
    public func stopCapture() {
        lock.withLock {
            if case .capturing(let running) = phase { finish(running, #function) }
            phase = .idle
        }
    }

    /// `scope.begin()` (`call`): starts the capture armed on `scope`.
    func scopeBegan(_ scope: CaptureScope, _ call: String) {
        lock.withLock {
            guard case .armed(let capture) = phase, capture.scope === scope else { return }
            do throws(CaptureError) {
                phase = .capturing(try start(capture, call))
            } catch {
                logger.error("\(error.message)")
                phase = .idle
            }
        }
    }

    /// `scope.end()` (`call`): ends and writes the capture `scope` began.
    func scopeEnded(_ scope: CaptureScope, _ call: String) {
        lock.withLock {
            guard case .capturing(let running) = phase, running.capture.scope === scope else { return }
            finish(running, call)
            phase = .idle
        }
    }

    /// Starts RenderDoc's capture of `capture`'s device for `call`, its file named after the
    /// output path. Lock held.
    private func start(_ capture: Capture, _ call: String) throws(CaptureError) -> Running {
        let previousTemplate = capture.outputPath.map { _ in RenderDoc.pathTemplate }
        if let outputPath = capture.outputPath { RenderDoc.pathTemplate = Self.pathTemplate(for: outputPath) }
        let capturesBefore = RenderDoc.captureCount
        RenderDoc.start(capture.device.backend.physical.instance.captureDevicePointer)
        guard RenderDoc.isCapturing else {
            if let previousTemplate { RenderDoc.pathTemplate = previousTemplate }
            throw CaptureError(.notSupported, "\(call): RenderDoc is in the process but did not start capturing device \"\(capture.device.name)\": its Vulkan layer does not hook the device's instance (RenderDoc was loaded after the instance was made, its layer is disabled, or a host made the instance without it)")
        }
        return Running(capture: capture, previousTemplate: previousTemplate, capturesBefore: capturesBefore)
    }

    /// Ends RenderDoc's capture and moves its file to the output path. Lock held. A failure
    /// is logged: `stopCapture()` and `end()` do not throw, as in Metal.
    private func finish(_ running: Running, _ call: String) {
        let ended = RenderDoc.end(running.capture.device.backend.physical.instance.captureDevicePointer)
        defer { if let previous = running.previousTemplate { RenderDoc.pathTemplate = previous } }
        let count = RenderDoc.captureCount
        guard ended, count > running.capturesBefore, let written = RenderDoc.capturePath(count - 1) else {
            logger.error("\(call): RenderDoc wrote no capture file")
            return
        }
        guard let outputPath = running.capture.outputPath, outputPath != written else { return }
        if rename(written, outputPath) != 0 {
            logger.error("\(call): could not move RenderDoc's capture \(written) to \(outputPath): \(String(cString: strerror(errno)))")
        }
    }

    /// The device a capture object captures, and the scope that bounds it.
    private static func target(of object: Any?, _ call: String) throws(CaptureError) -> (Device, CaptureScope?) {
        switch object {
        case let device as Device: return (device, nil)
        case let queue as CommandQueue: return (queue.device, nil)
        case let scope as CaptureScope: return (scope.device, scope)
        case nil:
            throw CaptureError(.invalidDescriptor, "\(call): the descriptor has no captureObject (a Device, a CommandQueue or a CaptureScope)")
        case let other?:
            throw CaptureError(.invalidDescriptor, "\(call): captureObject is a \(type(of: other)); it must be a Device, a CommandQueue or a CaptureScope")
        }
    }

    /// The file a `.gpuTraceDocument` capture goes to, checked; nil for `.developerTools`.
    private static func outputPath(of descriptor: CaptureDescriptor, _ call: String) throws(CaptureError) -> String? {
        guard descriptor.destination == .gpuTraceDocument else { return nil }
        guard let url = descriptor.outputURL else {
            throw CaptureError(.invalidDescriptor, "\(call): a .gpuTraceDocument capture needs an outputURL")
        }
        guard url.isFileURL else {
            throw CaptureError(.invalidDescriptor, "\(call): outputURL \(url) is not a file URL")
        }
        let path = url.path
        if access(path, F_OK) == 0 {
            throw CaptureError(.invalidDescriptor, "\(call): a file already exists at outputURL \(path)")
        }
        var folder = stat()
        let parent = url.deletingLastPathComponent().path
        guard stat(parent, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR else {
            throw CaptureError(.invalidDescriptor, "\(call): the folder of outputURL \(path) does not exist")
        }
        return path
    }

    /// The template RenderDoc names a capture for `outputPath` after: the path without its
    /// extension, in the same folder, so that the file RenderDoc writes (the template with
    /// a frame suffix and `.rdc`) is renamed to `outputPath` without a copy.
    private static func pathTemplate(for outputPath: String) -> String {
        let url = URL(fileURLWithPath: outputPath)
        return url.pathExtension.isEmpty ? outputPath : url.deletingPathExtension().path
    }

    /// The refusal of `call` in a process without RenderDoc.
    private static func renderDocMissing(_ call: String) -> CaptureError {
        CaptureError(.notSupported, "\(call): GPU capture needs RenderDoc in the process, and it is not: launch the app under RenderDoc (`renderdoccmd capture <app>`, or its UI's Launch Application), which hooks Vulkan before SwiftGPU makes its instance. SwiftGPU does not load RenderDoc itself: loaded later, it could not capture the instance already made")
    }
}
