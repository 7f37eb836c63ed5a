import GPU
import GPUTestSupport
import Testing

extension TestGPU {
    /// What compiling the Metal Shading Language `source` at run time says: its messages,
    /// joined, or "compiled" when it compiles.
    func metalMessages(_ source: String) -> String {
        do {
            _ = try device.makeLibrary(source: source, options: nil)
        } catch .compilationFailed(_, let messages) {
            return messages.joined(separator: "\n")
        } catch {
            return "\(error)"
        }
        return "compiled"
    }

    /// What compiling `source` after `#include <metal_stdlib>` and `using namespace metal;`
    /// says, on the lines from 3 on.
    func metalMessages(usingMetal source: String) -> String {
        metalMessages("#include <metal_stdlib>\nusing namespace metal;\n" + source)
    }

    /// Encodes `body` in one compute encoder of one command buffer, commits it, waits, and
    /// expects it to complete.
    func compute(sourceLocation: Testing.SourceLocation = #_sourceLocation,
                 _ body: (ComputeCommandEncoder) throws -> Void) throws {
        let commandBuffer = try queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        try body(encoder)
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))", sourceLocation: sourceLocation)
    }
}
