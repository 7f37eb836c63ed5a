import CVulkan
import Foundation
import GPUTestSupport
import Testing
@testable import GPU

/// `Validation`'s exit check: the way a test that runs a program as a child process fails
/// on any validation message by its exit status alone.
@Suite("Validation messages in a child process's exit status")
struct ValidationTests {
    @Test("with GPU_VALIDATION_EXIT_STATUS set, a process that received a validation message exits with that status, saying why")
    func messageSetsExitStatus() async {
        let result = await #expect(processExitsWith: .exitCode(70), observing: [\.standardErrorContent]) {
            setenv("GPU_VALIDATION_EXIT_STATUS", "70", 1)
            let gpu = try TestGPU()
            let encoder = try gpu.queue.makeCommandBuffer().makeComputeCommandEncoder()
            // A dispatch with no pipeline bound: the layer reports it as it is recorded.
            encoder.withUnsafeVulkanCommandBuffer { vkCmdDispatch($0, 1, 1, 1) }
            #expect(Validation.messageCount > 0)
            exit(0)
        }
        #expect(stderr(result).contains("validation message(s) in this process; exiting with status 70 (GPU_VALIDATION_EXIT_STATUS)"),
                "\(stderr(result))")
    }

    @Test("with no message, the process exits with its own status")
    func noMessageKeepsExitStatus() async {
        await #expect(processExitsWith: .exitCode(0)) {
            setenv("GPU_VALIDATION_EXIT_STATUS", "70", 1)
            let gpu = try TestGPU()
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            exit(0)
        }
    }
}
