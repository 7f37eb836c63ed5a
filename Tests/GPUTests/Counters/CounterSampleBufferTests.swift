import Foundation
import GPUTestSupport
import SwiftGPUSupport
import Testing
@testable import GPU

/// Metal's counters: the device's counter sets, sample buffers, timestamps sampled by
/// encoders and at passes' starts and ends, statistics counted over passes, and the
/// CPU/GPU clock pair, all in nanoseconds on the host's monotonic clock.
@Suite("Counter sample buffers", .validated)
struct CounterSampleBufferTests {
    /// A sample buffer of `count` samples of the device's set named `set`.
    static func sampleBuffer(_ gpu: TestGPU, _ set: CommonCounterSet, count: Int, label: String = "samples") throws
        -> CounterSampleBuffer {
        let descriptor = CounterSampleBufferDescriptor()
        descriptor.counterSet = gpu.device.counterSets.first { $0.name == set.rawValue }
        descriptor.sampleCount = count
        descriptor.label = label
        return try gpu.device.makeCounterSampleBuffer(descriptor: descriptor)
    }

    /// The timestamps of `range`.
    static func timestamps(_ buffer: CounterSampleBuffer, _ range: Range<Int>) throws -> [Timestamp] {
        let data = try #require(buffer.resolveCounterRange(range))
        #expect(data.count == range.count * MemoryLayout<CounterResultTimestamp>.stride)
        return data.withUnsafeBytes { Array($0.bindMemory(to: CounterResultTimestamp.self)) }.map(\.timestamp)
    }

    /// A compute pass descriptor that samples `samples` at `start` and `end`.
    static func computePass(sampling samples: CounterSampleBuffer, start: Int, end: Int) -> ComputePassDescriptor {
        let pass = ComputePassDescriptor()
        pass.sampleBufferAttachments[0].sampleBuffer = samples
        pass.sampleBufferAttachments[0].startOfEncoderSampleIndex = start
        pass.sampleBufferAttachments[0].endOfEncoderSampleIndex = end
        return pass
    }

    /// Encodes `pass` drawing a quad of two triangles covering -half...half.
    static func drawQuad(_ gpu: TestGPU, half: Float, pass: RenderPassDescriptor, in commandBuffer: CommandBuffer) throws {
        try drawQuad(gpu, half: half, with: commandBuffer.makeRenderCommandEncoder(descriptor: pass))
    }

    /// Draws the quad of `drawQuad(_:half:pass:in:)` with `encoder` and ends it.
    static func drawQuad(_ gpu: TestGPU, half: Float, with encoder: RenderCommandEncoder) throws {
        encoder.setRenderPipelineState(try VisibilityResultTests.pipeline(gpu))
        encoder.setVertexBuffer(try gpu.buffer(VisibilityResultTests.quad(half: half, z: 0.5)), offset: 0, index: 0)
        encoder.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        encoder.endEncoding()
    }

    /// The statistics of `range`.
    static func statistics(_ buffer: CounterSampleBuffer, _ range: Range<Int>) throws -> [CounterResultStatistic] {
        let data = try #require(buffer.resolveCounterRange(range))
        #expect(data.count == range.count * MemoryLayout<CounterResultStatistic>.stride)
        return data.withUnsafeBytes { Array($0.bindMemory(to: CounterResultStatistic.self)) }
    }

    @Test("lavapipe offers the timestamp and statistic sets, samples at stage, draw, dispatch and blit boundaries, not at tile dispatches")
    func counterSets() throws {
        let gpu = try TestGPU()
        let sets = gpu.device.counterSets
        #expect(sets.map(\.name) == [CommonCounterSet.timestamp.rawValue, CommonCounterSet.statistic.rawValue])
        #expect(sets[0].counters.map(\.name) == [CommonCounter.timestamp.rawValue])
        #expect(sets[1].counters.map(\.name).contains(CommonCounter.computeKernelInvocations.rawValue))
        #expect(!sets[1].counters.map(\.name).contains(CommonCounter.fragmentsPassed.rawValue))
        #expect(gpu.device.supportsCounterSampling(.atStageBoundary))
        #expect(gpu.device.supportsCounterSampling(.atDispatchBoundary))
        #expect(gpu.device.supportsCounterSampling(.atBlitBoundary))
        #expect(gpu.device.supportsCounterSampling(.atDrawBoundary))
        #expect(!gpu.device.supportsCounterSampling(.atTileDispatchBoundary))
        let buffer = try Self.sampleBuffer(gpu, .timestamp, count: 8, label: "frame")
        #expect(buffer.sampleCount == 8 && buffer.label == "frame" && buffer.device === gpu.device)
    }

    @Test("makeCounterSampleBuffer throws invalid for no set, a set the device does not offer, a sample count outside 1...32768 and private storage")
    func invalidDescriptors() throws {
        let gpu = try TestGPU()
        func message(_ configure: (CounterSampleBufferDescriptor) -> Void) -> String? {
            let descriptor = CounterSampleBufferDescriptor()
            descriptor.counterSet = gpu.device.counterSets[0]
            descriptor.sampleCount = 4
            configure(descriptor)
            do {
                _ = try gpu.device.makeCounterSampleBuffer(descriptor: descriptor)
                return nil
            } catch {
                guard case .invalid(let message) = error else { return "not invalid: \(error)" }
                return message
            }
        }
        #expect(message { $0.counterSet = nil }?.contains("no counterSet") == true)
        #expect(message { $0.counterSet = CounterSet(.stageUtilization, counters: []) }?
            .contains("does not sample the counter set 'stageutilization'") == true)
        #expect(message { $0.sampleCount = 0 }?.contains("sampleCount 0 is outside 1...32768") == true)
        #expect(message { $0.sampleCount = 32_769 }?.contains("sampleCount 32769 is outside 1...32768") == true)
        #expect(message { $0.storageMode = .private }?.contains("storageMode private is not offered") == true)
        #expect(message { _ in } == nil)
    }

    /// Records, in one command buffer, timestamps of every kind SwiftGPU samples: a
    /// compute pass's start and end with samples between its dispatches, a render pass's
    /// four stage boundaries with samples before and after its draw (11, 12), a blit pass's
    /// start and end with a sample between its blits. Sample 13 is never written.
    static func recordTimestamps(_ gpu: TestGPU, into samples: CounterSampleBuffer) throws -> CommandBuffer {
        let counter = try gpu.device.makeBuffer(length: 16)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let compute = try commandBuffer.makeComputeCommandEncoder(descriptor: computePass(sampling: samples, start: 0, end: 3))
        compute.sampleCounters(sampleBuffer: samples, sampleIndex: 1, barrier: false)
        try gpu.encodeIncrement(counter, by: 1, into: compute)
        compute.sampleCounters(sampleBuffer: samples, sampleIndex: 2, barrier: true)
        compute.endEncoding()

        let renderPass = try VisibilityResultTests.pass(gpu, visibility: nil)
        renderPass.sampleBufferAttachments[1].sampleBuffer = samples
        renderPass.sampleBufferAttachments[1].startOfVertexSampleIndex = 4
        renderPass.sampleBufferAttachments[1].startOfFragmentSampleIndex = 5
        renderPass.sampleBufferAttachments[1].endOfVertexSampleIndex = 6
        renderPass.sampleBufferAttachments[1].endOfFragmentSampleIndex = 7
        let render = try commandBuffer.makeRenderCommandEncoder(descriptor: renderPass)
        render.sampleCounters(sampleBuffer: samples, sampleIndex: 11, barrier: false)
        render.setRenderPipelineState(try VisibilityResultTests.pipeline(gpu))
        render.setVertexBuffer(try gpu.buffer(VisibilityResultTests.quad(half: 1, z: 0.5)), offset: 0, index: 0)
        render.drawPrimitives(type: .triangle, vertexStart: 0, vertexCount: 6)
        render.sampleCounters(sampleBuffer: samples, sampleIndex: 12, barrier: true)
        render.endEncoding()

        let blitPass = BlitPassDescriptor()
        blitPass.sampleBufferAttachments[3].sampleBuffer = samples
        blitPass.sampleBufferAttachments[3].startOfEncoderSampleIndex = 8
        blitPass.sampleBufferAttachments[3].endOfEncoderSampleIndex = 10
        let blit = try commandBuffer.makeBlitCommandEncoder(descriptor: blitPass)
        blit.fill(buffer: counter, range: 4..<8, value: 1)
        blit.sampleCounters(sampleBuffer: samples, sampleIndex: 9, barrier: true)
        blit.copy(from: counter, sourceOffset: 0, to: counter, destinationOffset: 8, size: 8)
        blit.endEncoding()
        return commandBuffer
    }

    /// Checks the samples of `recordTimestamps` lie in `window` (host nanoseconds) in the
    /// order the GPU must take them: each pass's end after its start and its samples, each
    /// barrier sample after the samples before it, each pass after the one before it.
    static func checkTimestamps(_ stamps: [Timestamp], within window: ClosedRange<UInt64>) {
        #expect(stamps[13] == counterErrorValue, "never written")
        for (index, stamp) in stamps.prefix(13).enumerated() {
            #expect(window.contains(stamp), "sample \(index) at \(stamp) is outside the command buffer's \(window)")
        }
        #expect(stamps[0] <= stamps[1] && stamps[1] <= stamps[2] && stamps[2] <= stamps[3], "compute pass \(stamps[0...3])")
        #expect(stamps[3] <= stamps[4] && stamps[4] <= stamps[6] && stamps[5] <= stamps[7] && stamps[6] <= stamps[7],
                "render pass \(stamps[3...7])")
        #expect(stamps[4] <= stamps[11] && stamps[11] <= stamps[12] && stamps[12] <= stamps[7], "between draws \(stamps)")
        #expect(stamps[7] <= stamps[8] && stamps[8] <= stamps[9] && stamps[9] <= stamps[10], "blit pass \(stamps[7...10])")
    }

    @Test("timestamps from encoders and pass boundaries, in host nanoseconds, lie between gpuStartTime and gpuEndTime in the order taken; a sample never written resolves as counterErrorValue; a sample buffer is written again by a later command buffer")
    func timestampsInOrder() throws {
        let gpu = try TestGPU()
        let samples = try Self.sampleBuffer(gpu, .timestamp, count: 14)
        #expect(try Self.timestamps(samples, 0..<14).allSatisfy { $0 == counterErrorValue }, "nothing written yet")
        var previousEnd: UInt64 = 0
        for _ in 0..<3 {
            let commandBuffer = try Self.recordTimestamps(gpu, into: samples)
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
            let window = UInt64(commandBuffer.gpuStartTime * 1e9)...UInt64(commandBuffer.gpuEndTime * 1e9)
            let stamps = try Self.timestamps(samples, 0..<14)
            Self.checkTimestamps(stamps, within: window)
            #expect(stamps[0] > previousEnd, "rewritten by the later command buffer")
            previousEnd = stamps[10]
        }
        #expect(try Self.timestamps(samples, 9..<11).count == 2)
    }

    @Test("with GPU timestamps on (GPU_TIMESTAMPS=1), gpuStartTime and gpuEndTime come from the GPU's own clock and bracket every sample")
    func timestampsWithinGPUTimes() async {
        await #expect(processExitsWith: .success) {
            setenv("GPU_TIMESTAMPS", "1", 1)
            let gpu = try TestGPU()
            guard gpu.device.recordsGPUTimestamps else { exit(2) }
            let samples = try CounterSampleBufferTests.sampleBuffer(gpu, .timestamp, count: 14)
            let commandBuffer = try CounterSampleBufferTests.recordTimestamps(gpu, into: samples)
            commandBuffer.commit()
            commandBuffer.waitUntilCompleted()
            guard commandBuffer.status == .completed else { exit(3) }
            let stamps = try CounterSampleBufferTests.timestamps(samples, 0..<14)
            let start = UInt64(commandBuffer.gpuStartTime * 1e9), end = UInt64(commandBuffer.gpuEndTime * 1e9)
            // The buffer's own timestamps are read in the same nanoseconds, rounded through
            // seconds as a Double: within a microsecond of them.
            guard stamps.prefix(13).allSatisfy({ $0 + 1_000 >= start && $0 <= end + 1_000 }) else { exit(4) }
            guard commandBuffer.gpuStartTime != commandBuffer.kernelStartTime else { exit(5) }
            guard Validation.messageCount == 0 else { exit(6) }
        }
    }

    @Test("a sample written twice in one command buffer, between draws and then between blits, holds the later time")
    func sampleWrittenTwice() throws {
        let gpu = try TestGPU()
        let samples = try Self.sampleBuffer(gpu, .timestamp, count: 2)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let render = try commandBuffer.makeRenderCommandEncoder(descriptor: VisibilityResultTests.pass(gpu, visibility: nil))
        render.sampleCounters(sampleBuffer: samples, sampleIndex: 0, barrier: false)
        render.sampleCounters(sampleBuffer: samples, sampleIndex: 1, barrier: true)
        try Self.drawQuad(gpu, half: 1, with: render)
        let blit = try commandBuffer.makeBlitCommandEncoder()
        blit.sampleCounters(sampleBuffer: samples, sampleIndex: 0, barrier: true)
        blit.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let stamps = try Self.timestamps(samples, 0..<2)
        #expect(stamps[1] != counterErrorValue && stamps[0] >= stamps[1], "\(stamps)")
    }

    @Test("a parallel render pass samples its start and end around its sub-encoders' draws")
    func parallelPassTimestamps() throws {
        let gpu = try TestGPU()
        let samples = try Self.sampleBuffer(gpu, .timestamp, count: 2)
        let pass = try VisibilityResultTests.pass(gpu, visibility: nil)
        pass.sampleBufferAttachments[0].sampleBuffer = samples
        pass.sampleBufferAttachments[0].startOfVertexSampleIndex = 0
        pass.sampleBufferAttachments[0].endOfFragmentSampleIndex = 1
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let parallel = try commandBuffer.makeParallelRenderCommandEncoder(descriptor: pass)
        for _ in 0..<2 { try Self.drawQuad(gpu, half: 1, with: parallel.makeRenderCommandEncoder()) }
        parallel.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let window = UInt64(commandBuffer.gpuStartTime * 1e9)...UInt64(commandBuffer.gpuEndTime * 1e9)
        let stamps = try Self.timestamps(samples, 0..<2)
        #expect(window.contains(stamps[0]) && window.contains(stamps[1]) && stamps[0] <= stamps[1], "\(stamps) in \(window)")
    }

    @Test("sampleTimestamps reads the CPU and GPU clocks together in host nanoseconds: the GPU samples of a command buffer lie between a pair taken before it and one taken after")
    func calibratedPairs() throws {
        let gpu = try TestGPU()
        var cpuBefore: Timestamp = 0, gpuBefore: Timestamp = 0, cpuAfter: Timestamp = 0, gpuAfter: Timestamp = 0
        let hostBefore = HostClock.nanoseconds()
        gpu.device.sampleTimestamps(&cpuBefore, gpuTimestamp: &gpuBefore)
        let hostAfter = HostClock.nanoseconds()
        #expect((hostBefore...hostAfter).contains(cpuBefore), "the CPU timestamp is the host's monotonic clock")
        // The GPU's time of the same moment: calibrated timestamps read both clocks together,
        // and the device's offset to the host's clock comes from such a reading too.
        #expect(gpuBefore.distance(to: cpuBefore).magnitude < 1_000_000, "GPU \(gpuBefore), CPU \(cpuBefore)")
        let samples = try Self.sampleBuffer(gpu, .timestamp, count: 14)
        let commandBuffer = try Self.recordTimestamps(gpu, into: samples)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        gpu.device.sampleTimestamps(&cpuAfter, gpuTimestamp: &gpuAfter)
        #expect(cpuAfter > cpuBefore && gpuAfter > gpuBefore)
        Self.checkTimestamps(try Self.timestamps(samples, 0..<14), within: gpuBefore...gpuAfter)
    }

    @Test("statistics over a compute pass count its kernel invocations; over a render pass, its vertices, primitives and fragments; start samples are zeros")
    func statistics() throws {
        let gpu = try TestGPU()
        let samples = try Self.sampleBuffer(gpu, .statistic, count: 5)
        let counter = try gpu.device.makeBuffer(length: 4)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let compute = try commandBuffer.makeComputeCommandEncoder(descriptor: Self.computePass(sampling: samples, start: 0, end: 1))
        for _ in 0..<3 { try gpu.encodeIncrement(counter, by: 1, into: compute) }
        compute.endEncoding()
        let renderPass = try VisibilityResultTests.pass(gpu, visibility: nil)
        renderPass.sampleBufferAttachments[0].sampleBuffer = samples
        renderPass.sampleBufferAttachments[0].startOfVertexSampleIndex = 2
        renderPass.sampleBufferAttachments[0].endOfFragmentSampleIndex = 3
        // A 32×32-pixel quad of two triangles in the 64×64 target.
        try Self.drawQuad(gpu, half: 0.5, pass: renderPass, in: commandBuffer)
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed, "\(String(describing: commandBuffer.error))")
        let stats = try Self.statistics(samples, 0..<5)
        let zero = CounterResultStatistic(fragmentsPassed: counterErrorValue)
        #expect(stats[0] == zero && stats[2] == zero, "start samples")
        #expect(stats[1] == CounterResultStatistic(fragmentsPassed: counterErrorValue, computeKernelInvocations: 3))
        #expect(stats[3].computeKernelInvocations == 0 && stats[3].tessellationInputPatches == 0)
        #expect(stats[3].vertexInvocations >= 4 && stats[3].vertexInvocations <= 6, "\(stats[3])")
        #expect(stats[3].clipperInvocations == 2 && stats[3].clipperPrimitivesOut == 2, "\(stats[3])")
        #expect(stats[3].fragmentInvocations >= 32 * 32, "\(stats[3])")
        #expect(stats[4] == CounterResultStatistic(tessellationInputPatches: counterErrorValue, vertexInvocations: counterErrorValue,
                                                   postTessellationVertexInvocations: counterErrorValue,
                                                   clipperInvocations: counterErrorValue, clipperPrimitivesOut: counterErrorValue,
                                                   fragmentInvocations: counterErrorValue, fragmentsPassed: counterErrorValue,
                                                   computeKernelInvocations: counterErrorValue), "never written")
    }

    /// Calls Metal's rules (or this device) refuse, each with the message it stops with.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case indexOutside, betweenParallelDraws, statisticsBetweenDispatches, attachmentOutside, resolveOutside,
             statisticsBothEnds, secondStatistics, statisticsInParallelPass, fifthAttachment

        var message: String {
            switch self {
            case .indexOutside:
                "sampleCounters(sampleBuffer:sampleIndex:barrier:): sampleIndex 4 is outside the sample buffer 'samples''s 0..<4"
            case .betweenParallelDraws:
                "sampleCounters(sampleBuffer:sampleIndex:barrier:): counters are not sampled between the draws of a parallel "
                    + "render pass"
            case .statisticsBetweenDispatches:
                "sampleCounters(sampleBuffer:sampleIndex:barrier:): the sample buffer 'samples' samples statistics"
            case .attachmentOutside:
                "makeRenderCommandEncoder(descriptor:): sampleBufferAttachments[2].endOfFragmentSampleIndex 7 is outside the "
                    + "sample buffer 'samples''s 0..<4"
            case .resolveOutside: "resolveCounterRange(_:): range 2..<5 is outside the sample buffer 'samples''s 0..<4"
            case .statisticsBothEnds: "gives a statistic sample buffer both an endOfVertexSampleIndex and an endOfFragmentSampleIndex"
            case .secondStatistics: "makeComputeCommandEncoder(descriptor:): sampleBufferAttachments[1] is a second statistic sample buffer"
            case .statisticsInParallelPass:
                "makeParallelRenderCommandEncoder(descriptor:): statistic counters are not sampled in a parallel render pass"
            case .fifthAttachment: "sampleBufferAttachments[4]: index is outside 0..<4"
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let statistics = [.statisticsBetweenDispatches, .statisticsBothEnds, .secondStatistics, .statisticsInParallelPass]
                .contains(self)
            let samples = try CounterSampleBufferTests.sampleBuffer(gpu, statistics ? .statistic : .timestamp, count: 4)
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let renderPass = try VisibilityResultTests.pass(gpu, visibility: nil)
            let computePass = ComputePassDescriptor()
            switch self {
            case .indexOutside:
                try commandBuffer.makeComputeCommandEncoder().sampleCounters(sampleBuffer: samples, sampleIndex: 4, barrier: false)
            case .betweenParallelDraws:
                try commandBuffer.makeParallelRenderCommandEncoder(descriptor: renderPass).makeRenderCommandEncoder()
                    .sampleCounters(sampleBuffer: samples, sampleIndex: 0, barrier: true)
            case .statisticsBetweenDispatches:
                try commandBuffer.makeComputeCommandEncoder().sampleCounters(sampleBuffer: samples, sampleIndex: 0, barrier: true)
            case .attachmentOutside:
                renderPass.sampleBufferAttachments[2].sampleBuffer = samples
                renderPass.sampleBufferAttachments[2].endOfFragmentSampleIndex = 7
                _ = try commandBuffer.makeRenderCommandEncoder(descriptor: renderPass)
            case .resolveOutside: _ = samples.resolveCounterRange(2..<5)
            case .statisticsBothEnds:
                renderPass.sampleBufferAttachments[0].sampleBuffer = samples
                renderPass.sampleBufferAttachments[0].endOfVertexSampleIndex = 1
                renderPass.sampleBufferAttachments[0].endOfFragmentSampleIndex = 2
                _ = try commandBuffer.makeRenderCommandEncoder(descriptor: renderPass)
            case .secondStatistics:
                for slot in 0..<2 {
                    computePass.sampleBufferAttachments[slot].sampleBuffer = samples
                    computePass.sampleBufferAttachments[slot].endOfEncoderSampleIndex = slot
                }
                _ = try commandBuffer.makeComputeCommandEncoder(descriptor: computePass)
            case .statisticsInParallelPass:
                renderPass.sampleBufferAttachments[0].sampleBuffer = samples
                renderPass.sampleBufferAttachments[0].endOfFragmentSampleIndex = 1
                _ = try commandBuffer.makeParallelRenderCommandEncoder(descriptor: renderPass)
            case .fifthAttachment: computePass.sampleBufferAttachments[4].sampleBuffer = samples
            }
        }
    }

    @Test("misuse: a sample index outside the buffer, sampling between a parallel pass's draws, statistics between dispatches, in a parallel pass, with two ends or twice in a pass, resolving outside the buffer, a fifth attachment",
          arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }
}
