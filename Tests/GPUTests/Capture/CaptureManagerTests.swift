import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// The capture manager in a process RenderDoc does not hook (the suite's own): captures are
/// refused with a clear error, descriptors are checked, and scopes do nothing. Serialized:
/// the manager is the process's one.
@Suite("Capture manager without RenderDoc", .validated, .serialized)
struct CaptureManagerTests {
    /// A descriptor of `object` for `destination`, writing to `url`.
    static func descriptor(_ object: Any?, _ destination: CaptureDestination = .developerTools, url: URL? = nil)
        -> CaptureDescriptor {
        let descriptor = CaptureDescriptor()
        descriptor.captureObject = object
        descriptor.destination = destination
        descriptor.outputURL = url
        return descriptor
    }

    /// The error `startCapture(with:)` throws for `descriptor`.
    static func refusal(_ descriptor: CaptureDescriptor) -> CaptureError? {
        do {
            try CaptureManager.shared().startCapture(with: descriptor)
            return nil
        } catch {
            return error
        }
    }

    @Test("Without RenderDoc no destination is supported and every capture object is refused with notSupported")
    func notSupported() throws {
        let gpu = try TestGPU()
        let manager = CaptureManager.shared()
        #expect(!manager.supportsDestination(.developerTools))
        #expect(!manager.supportsDestination(.gpuTraceDocument))
        let folder = try TemporaryFolder("capture")
        let output = folder.url.appendingPathComponent("refused.rdc")
        let scope = manager.makeCaptureScope(device: gpu.device)
        for object in [gpu.device, gpu.queue, scope] as [Any] {
            for destination in [CaptureDestination.developerTools, .gpuTraceDocument] {
                let error = try #require(Self.refusal(Self.descriptor(object, destination, url: output)))
                #expect(error.code == .notSupported)
                #expect(error.message.hasPrefix("startCapture(with:): GPU capture needs RenderDoc in the process"), "\(error)")
                #expect(error.message.contains("renderdoccmd capture"), "\(error)")
                #expect(!manager.isCapturing)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("stopCapture() with no capture in progress does nothing, as in Metal")
    func stopWithoutStart() throws {
        let gpu = try TestGPU()
        let manager = CaptureManager.shared()
        manager.stopCapture()
        manager.stopCapture()
        #expect(!manager.isCapturing)
        #expect(Self.refusal(Self.descriptor(gpu.device))?.code == .notSupported)
    }

    @Test("Outside a capture a scope's begin() and end() do nothing; the scope keeps its device, queue and label")
    func scopesAreNoOps() throws {
        let gpu = try TestGPU()
        let manager = CaptureManager.shared()
        let deviceScope = manager.makeCaptureScope(device: gpu.device)
        #expect(deviceScope.device === gpu.device)
        #expect(deviceScope.commandQueue == nil)
        #expect(deviceScope.label == nil)
        let queueScope = manager.makeCaptureScope(commandQueue: gpu.queue)
        #expect(queueScope.device === gpu.device)
        #expect(queueScope.commandQueue === gpu.queue)
        queueScope.label = "frame"
        #expect(queueScope.label == "frame")

        let counter = try gpu.device.makeBuffer(length: 4)
        counter.contents().storeBytes(of: UInt32(0), as: UInt32.self)
        queueScope.begin()
        #expect(!manager.isCapturing)
        let commandBuffer = try gpu.incrementBuffer(counter, by: 5)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        queueScope.end()
        queueScope.end()
        #expect(commandBuffer.status == .completed)
        #expect(counter.contents().load(as: UInt32.self) == 5)
        #expect(!manager.isCapturing)

        manager.defaultCaptureScope = deviceScope
        #expect(manager.defaultCaptureScope === deviceScope)
        manager.defaultCaptureScope = nil
        #expect(manager.defaultCaptureScope == nil)
    }

    @Test("A descriptor without a usable object or output file is refused with invalidDescriptor, before RenderDoc is looked for")
    func invalidDescriptors() throws {
        let gpu = try TestGPU()
        let folder = try TemporaryFolder("capture")
        let existing = folder.url.appendingPathComponent("existing.rdc")
        try folder.write([1, 2, 3], to: "existing.rdc")
        let cases: [(CaptureDescriptor, String)] = [
            (Self.descriptor(nil), "has no captureObject"),
            (Self.descriptor("a string"), "captureObject is a String"),
            (Self.descriptor(gpu.device, .gpuTraceDocument), "needs an outputURL"),
            (Self.descriptor(gpu.device, .gpuTraceDocument, url: URL(string: "https://example.com/a.rdc")),
             "is not a file URL"),
            (Self.descriptor(gpu.queue, .gpuTraceDocument, url: existing), "a file already exists at outputURL \(existing.path)"),
            (Self.descriptor(gpu.device, .gpuTraceDocument, url: folder.url.appendingPathComponent("missing/a.rdc")),
             "does not exist"),
        ]
        for (descriptor, expected) in cases {
            let error = try #require(Self.refusal(descriptor))
            #expect(error.code == .invalidDescriptor, "\(error)")
            #expect(error.message.hasPrefix("startCapture(with:): ") && error.message.contains(expected), "\(error)")
        }
        #expect(try Data(contentsOf: existing) == Data([1, 2, 3]))
        #expect(!CaptureManager.shared().isCapturing)
    }

    @Test("CaptureError carries Metal's MTLCaptureError codes")
    func errorCodes() {
        #expect(CaptureError.Code.notSupported.rawValue == 1)
        #expect(CaptureError.Code.alreadyCapturing.rawValue == 2)
        #expect(CaptureError.Code.invalidDescriptor.rawValue == 3)
        #expect(CaptureDestination.developerTools.rawValue == 1)
        #expect(CaptureDestination.gpuTraceDocument.rawValue == 2)
        let error = CaptureError(.alreadyCapturing, "busy")
        #expect("\(error)" == "alreadyCapturing: busy")
        #expect(error.localizedDescription == "busy")
    }
}
