import GPUTestSupport
import SwiftGPUSupport
import Foundation
import Testing
@testable import GPU

/// Local sizes chosen at dispatch through specialization constants, and `dispatchThreads`
/// covering the grid exactly as Metal's non-uniform threadgroups do.
@Suite("Threadgroup sizes chosen at dispatch", .validated)
struct ThreadgroupSizeTests {
    /// Writes each thread's global id + 1 and counts the threads, with no bounds check: a
    /// thread outside the grid writes past the end, where a canary is checked.
    static let stamp = """
        #version 450
        #pragma shader_stage(compute)
        layout(local_size_x_id = 0, local_size_y_id = 1) in;
        layout(std430, binding = 0) buffer Out { uint cells[]; };
        layout(std430, binding = 1) buffer Count { uint threads; };
        layout(std140, binding = 2) uniform Grid { uint width; };
        void main() {
            uvec2 id = gl_GlobalInvocationID.xy;
            cells[id.y * width + id.x] = id.y * width + id.x + 1u;
            atomicAdd(threads, 1u);
        }
        """

    static func pipeline(_ gpu: TestGPU) throws -> ComputePipelineState {
        let library = try gpu.device.makeLibrary(source: stamp)
        return try gpu.device.makeComputePipelineState(function: library.makeFunction(name: "main"))
    }

    /// Runs `stamp` over `width`×`height` with groups of `group` and checks every cell was
    /// written once, by the right thread, and nothing past the grid.
    func runStamp(_ gpu: TestGPU, pipeline: ComputePipelineState, width: Int, height: Int, group: Size,
                  threadgroups: Bool = false) throws {
        let cells = width * height, canary: UInt32 = 0xDEAD_BEEF, slack = 4096
        let output = try gpu.buffer([UInt32](repeating: canary, count: cells + slack))
        let counter = try gpu.buffer([UInt32(0)])
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let encoder = try commandBuffer.makeComputeCommandEncoder()
        encoder.setComputePipelineState(pipeline)
        encoder.setBuffer(output, offset: 0, index: 0)
        encoder.setBuffer(counter, offset: 0, index: 1)
        var gridWidth = UInt32(width)
        encoder.setBytes(&gridWidth, length: 4, index: 2)
        if threadgroups {
            encoder.dispatchThreadgroups(Size(width: width / group.width, height: height / group.height),
                                         threadsPerThreadgroup: group)
        } else {
            encoder.dispatchThreads(Size(width: width, height: height), threadsPerThreadgroup: group)
        }
        encoder.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        let values = output.contents().bindMemory(to: UInt32.self, capacity: cells + slack)
        let wrong = (0..<cells).first { values[$0] != UInt32($0 + 1) }
        #expect(wrong == nil, "\(width)×\(height) in \(group): cell \(wrong ?? 0) holds \(wrong.map { values[$0] } ?? 0)")
        #expect((cells..<(cells + slack)).allSatisfy { values[$0] == canary }, "\(width)×\(height) in \(group): a thread ran outside the grid")
        #expect(counter.contents().load(as: UInt32.self) == UInt32(cells), "\(width)×\(height) in \(group)")
    }

    @Test("Apple's sizing, min(maxTotalThreadsPerThreadgroup, length), covers 1-D grids exactly")
    func appleSizing() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.pipeline(gpu)
        #expect(pipeline.specializesLocalSize)
        #expect(pipeline.maxTotalThreadsPerThreadgroup == gpu.device.limits.maxTotalThreadsPerThreadgroup)
        for length in [1, 7, 63, 64, 1000, 1001, 4097, (1 << 20) + 7] {
            let width = min(pipeline.maxTotalThreadsPerThreadgroup, length)
            try runStamp(gpu, pipeline: pipeline, width: length, height: 1, group: Size(width: width, height: 1))
        }
        // A group smaller than the grid and not dividing it.
        try runStamp(gpu, pipeline: pipeline, width: 1000, height: 1, group: Size(width: 96, height: 1))
    }

    @Test("2-D grids with partial groups along both axes; threadgroup dispatches at a chosen size")
    func twoDimensions() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.pipeline(gpu)
        try runStamp(gpu, pipeline: pipeline, width: 37, height: 23, group: Size(width: 16, height: 16))
        try runStamp(gpu, pipeline: pipeline, width: 300, height: 7, group: Size(width: 32, height: 8))
        try runStamp(gpu, pipeline: pipeline, width: 64, height: 64, group: Size(width: 8, height: 4), threadgroups: true)
        // Apple's 2-D sizing: the execution width across, the rest of the limit down.
        let width = pipeline.threadExecutionWidth, height = pipeline.maxTotalThreadsPerThreadgroup / width
        #expect(width >= 1 && width <= pipeline.maxTotalThreadsPerThreadgroup)
        try runStamp(gpu, pipeline: pipeline, width: 100, height: 75, group: Size(width: width, height: height))
    }

    @Test("each size's variant is made once and kept")
    func variantsAreCached() throws {
        let gpu = try TestGPU()
        let pipeline = try Self.pipeline(gpu)
        let first = try pipeline.variant(for: Size(width: 32, height: 2))
        #expect(try pipeline.variant(for: Size(width: 32, height: 2)) === first)
        #expect(try pipeline.variant(for: pipeline.threadsPerThreadgroup) === pipeline.base)
        #expect(try pipeline.variant(for: Size(width: 16, height: 2)) !== first)
        // Threads asking for a new size at once all get the one variant stored first.
        let made = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let variant = try? pipeline.variant(for: Size(width: 8, height: 8)) {
                made.withLock { $0.append(ObjectIdentifier(variant)) }
            }
        }
        let identities = made.withLock { $0 }
        #expect(identities.count == 8 && Set(identities).count == 1)
        #expect(try ObjectIdentifier(pipeline.variant(for: Size(width: 8, height: 8))) == identities[0])
    }

    @Test("a fixed local size keeps its rule and reports its own size")
    func fixedSize() throws {
        let gpu = try TestGPU()
        let pipeline = try gpu.pipeline("add.comp")
        #expect(!pipeline.specializesLocalSize)
        #expect(pipeline.maxTotalThreadsPerThreadgroup == 64)
    }

    @Test("the split covers each grid once, with whole groups first and bases that line up")
    func regions() {
        func split(_ threads: Size, _ group: Size, _ specialized: [Bool] = [true, true, true]) -> [DispatchRegions.Region] {
            DispatchRegions(threads: threads, groupSize: group, specialized: specialized).regions
        }
        typealias Region = DispatchRegions.Region
        #expect(split(Size(width: 1000), Size(width: 64)) == [
            Region(localSize: Size(width: 64), base: (0, 0, 0), counts: (15, 1, 1)),
            Region(localSize: Size(width: 40), base: (24, 0, 0), counts: (1, 1, 1)),
        ])
        #expect(split(Size(width: 1001), Size(width: 64)) == [
            Region(localSize: Size(width: 64), base: (0, 0, 0), counts: (15, 1, 1)),
            Region(localSize: Size(width: 1), base: (960, 0, 0), counts: (41, 1, 1)),
        ])
        #expect(split(Size(width: 30), Size(width: 64)) == [Region(localSize: Size(width: 30), base: (0, 0, 0), counts: (1, 1, 1))])
        #expect(split(Size(width: 0, height: 5), Size(width: 64)).isEmpty)
        // A fixed axis runs whole groups.
        #expect(split(Size(width: 10, height: 10), Size(width: 4, height: 4), [true, false, false]) == [
            Region(localSize: Size(width: 4, height: 4), base: (0, 0, 0), counts: (2, 3, 1)),
            Region(localSize: Size(width: 2, height: 4), base: (4, 0, 0), counts: (1, 3, 1)),
        ])
        // Every thread of seeded random grids is covered exactly once.
        var random = SplitMix64(state: 7)
        for _ in 0..<300 {
            let grid = Size(width: Int.random(in: 0...70, using: &random), height: Int.random(in: 0...20, using: &random),
                            depth: Int.random(in: 0...5, using: &random))
            let group = Size(width: Int.random(in: 1...32, using: &random), height: Int.random(in: 1...8, using: &random),
                             depth: Int.random(in: 1...4, using: &random))
            var hits = [Int](repeating: 0, count: grid.width * grid.height * grid.depth)
            let parts = split(grid, group)
            #expect(parts.count <= 8)
            for part in parts {
                for (x, y, z) in Self.threads(of: part) {
                    guard x < grid.width, y < grid.height, z < grid.depth else {
                        Issue.record("\(grid) in \(group): thread \(x),\(y),\(z) is outside the grid")
                        continue
                    }
                    hits[(z * grid.height + y) * grid.width + x] += 1
                }
            }
            #expect(hits.allSatisfy { $0 == 1 }, "\(grid) in \(group)")
        }
    }

    /// The global ids of the threads `region` runs.
    static func threads(of region: DispatchRegions.Region) -> [(Int, Int, Int)] {
        func axis(_ base: UInt32, _ count: UInt32, _ size: Int) -> [Int] {
            let first = Int(base) * size
            return Array(first..<(first + Int(count) * size))
        }
        let xs = axis(region.base.x, region.counts.x, region.localSize.width)
        let ys = axis(region.base.y, region.counts.y, region.localSize.height)
        let zs = axis(region.base.z, region.counts.z, region.localSize.depth)
        return zs.flatMap { z in ys.flatMap { y in xs.map { x in (x, y, z) } } }
    }

    /// A misuse case, run in its own child process.
    enum Misuse: String, Codable, Sendable, CaseIterable {
        case fixedAxis, overLimit, zeroSize

        var message: String {
            switch self {
            case .fixedAxis: "dispatchThreads(_:threadsPerThreadgroup:): threadsPerThreadgroup 8×2×1 differs from 'main' in y, where its local size is fixed at 1"
            case .overLimit: "dispatchThreads(_:threadsPerThreadgroup:): threadsPerThreadgroup 1024×2×1 has more than maxTotalThreadsPerThreadgroup"
            case .zeroSize: "dispatchThreadgroups(_:threadsPerThreadgroup:): threadsPerThreadgroup 0×1×1 is outside 1..."
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let source = self == .fixedAxis ? stamp.replacingOccurrences(of: ", local_size_y_id = 1", with: "") : stamp
            let pipeline = try gpu.device.makeComputePipelineState(
                function: gpu.device.makeLibrary(source: source).makeFunction(name: "main"))
            let commandBuffer = try gpu.queue.makeCommandBuffer()
            let encoder = try commandBuffer.makeComputeCommandEncoder()
            encoder.setComputePipelineState(pipeline)
            switch self {
            case .fixedAxis: encoder.dispatchThreads(Size(width: 64, height: 2), threadsPerThreadgroup: Size(width: 8, height: 2))
            case .overLimit: encoder.dispatchThreads(Size(width: 64, height: 2), threadsPerThreadgroup: Size(width: 1024, height: 2))
            case .zeroSize: encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 0))
            }
        }
    }

    @Test("sizes a specialized shader cannot take stop with the call and the size", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: " + misuse.message), "\(stderr(result))")
    }
}
