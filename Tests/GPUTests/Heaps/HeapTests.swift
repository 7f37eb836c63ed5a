import AppLifecycle
import GPUTestSupport
import Testing
@testable import GPU

/// Metal's heaps: one allocation, resources bound at offsets in it, aliasing ordered by
/// heap-wide tracking or by fences, purgeable as a whole.
@Suite("heaps", .validated)
struct HeapTests {
    static let count = FenceTests.count

    @Test("sizes and alignments: a power-of-two alignment and a size that holds the resource, in whole alignments")
    func sizesAndAlignments() throws {
        let gpu = try TestGPU()
        let buffer = gpu.device.heapBufferSizeAndAlign(length: 100, options: .storageModePrivate)
        #expect(buffer.size >= 100 && buffer.size % buffer.align == 0)
        #expect(buffer.align > 0 && buffer.align & (buffer.align - 1) == 0)
        let texture = try gpu.device.heapTextureSizeAndAlign(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 64, height: 64))
        #expect(texture.size >= 64 * 64 * 4 && texture.size % texture.align == 0)
        #expect(texture.align > 0 && texture.align & (texture.align - 1) == 0)
        #expect(SizeAndAlign(size: 256, align: 64) == SizeAndAlign(size: 256, align: 64))
    }

    @Test("an automatic heap places buffers until full, returns nil beyond (as Metal), and takes back what goes")
    func automaticHeap() throws {
        let gpu = try TestGPU()
        let needs = gpu.device.heapBufferSizeAndAlign(length: 1000, options: .storageModeShared)
        let descriptor = HeapDescriptor()
        #expect(descriptor.storageMode == .private && descriptor.type == .automatic && descriptor.hazardTrackingMode == .default)
        descriptor.size = 4 * needs.size
        descriptor.storageMode = .shared
        let heap = try gpu.device.makeHeap(descriptor: descriptor)
        heap.label = "four buffers"
        #expect(heap.size == 4 * needs.size && heap.storageMode == .shared && heap.type == .automatic)
        #expect(heap.hazardTrackingMode == .untracked, "a heap is untracked by default, as in Metal")
        #expect(heap.currentAllocatedSize == heap.size)
        #expect(heap.usedSize == 0)
        #expect(heap.maxAvailableSize(alignment: needs.align) == heap.size)
        var buffers = try (0..<4).map { _ in try #require(heap.makeBuffer(length: 1000, options: .storageModeShared)) }
        #expect(Set(buffers.map(\.heapOffset)) == Set((0..<4).map { $0 * needs.size }))
        #expect(buffers.allSatisfy { $0.heap === heap && $0.hazardTrackingMode == .untracked && $0.allocatedSize == needs.size })
        #expect(heap.usedSize == heap.size)
        #expect(heap.maxAvailableSize(alignment: needs.align) == 0)
        #expect(heap.makeBuffer(length: 1000, options: .storageModeShared) == nil, "full")
        #expect(heap.makeBuffer(length: 1, options: .storageModeShared) == nil, "full")

        // Each buffer's contents are its own bytes of the heap's memory.
        for (index, buffer) in buffers.enumerated() { buffer.contents().storeBytes(of: UInt32(index + 1), as: UInt32.self) }
        #expect(buffers.enumerated().allSatisfy { $1.contents().load(as: UInt32.self) == UInt32($0 + 1) })

        let freed = buffers.remove(at: 1).heapOffset
        #expect(heap.usedSize == 3 * needs.size, "a buffer that goes gives its bytes back")
        #expect(heap.maxAvailableSize(alignment: needs.align) == needs.size)
        let again = try #require(heap.makeBuffer(length: 1000, options: .storageModeShared))
        #expect(again.heapOffset == freed)
        #expect(again.contents().load(as: UInt32.self) == 2, "the memory is the heap's: the bytes the last buffer left")
        #expect(!again.isAliasable())
        again.makeAliasable()
        #expect(again.isAliasable())
        #expect(heap.usedSize == 3 * needs.size, "an aliasable buffer no longer counts")
        let alias = try #require(heap.makeBuffer(length: 1000, options: .storageModeShared))
        #expect(alias.heapOffset == again.heapOffset)
        alias.contents().storeBytes(of: 99, as: UInt32.self)
        #expect(again.contents().load(as: UInt32.self) == 99, "the two alias")
        #expect(try gpu.device.makeBuffer(length: 16).heap == nil)
    }

    @Test("buffers of a tracked heap on the GPU: tracked as one, a barrier between encoders")
    func trackedHeapOnGPU() throws {
        let gpu = try TestGPU()
        let (a, b) = try FenceTests.inputs(gpu)
        let heap = try Self.heap(gpu, size: 4 * Self.count * 4 + 4096, storage: .shared, tracking: .tracked)
        #expect(heap.hazardTrackingMode == .tracked)
        let sum = try #require(heap.makeBuffer(length: Self.count * 4))
        let doubled = try #require(heap.makeBuffer(length: Self.count * 4, options: .hazardTrackingModeTracked))
        #expect(sum.hazardTrackingMode == .tracked)
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        for (x, y, result) in [(a, b, sum), (sum, sum, doubled)] {
            let encoder = try commandBuffer.makeComputeCommandEncoder()
            try FenceTests.add(x, y, into: result, gpu, encoder)
            encoder.endEncoding()
        }
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1)
        FenceTests.commit(commandBuffer, expecting: doubled) { 2 * (Float($0) + 1) }
    }

    @Test("a buffer made aliasable and a new one over its bytes, in one command buffer: ordered by the tracked heap, or by fences",
          arguments: [HazardTrackingMode.tracked, .untracked])
    func aliasesAreOrdered(mode: HazardTrackingMode) throws {
        let gpu = try TestGPU()
        let (a, b) = try FenceTests.inputs(gpu)
        let needs = gpu.device.heapBufferSizeAndAlign(length: Self.count * 4, options: .storageModePrivate)
        let heap = try Self.heap(gpu, size: needs.size, storage: .private, tracking: mode)
        let readBack = try gpu.device.makeBuffer(length: Self.count * 4)
        let first = try #require(heap.makeBuffer(length: Self.count * 4, options: .storageModePrivate))
        let fence = gpu.device.makeFence(), written = gpu.device.makeFence()
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let sum = try commandBuffer.makeComputeCommandEncoder()
        try FenceTests.add(a, b, into: first, gpu, sum)
        if mode == .untracked { sum.updateFence(fence) }
        sum.endEncoding()
        first.makeAliasable()
        #expect(heap.makeBuffer(length: Self.count * 4 * 2, options: .storageModePrivate) == nil)
        let second = try #require(heap.makeBuffer(length: Self.count * 4, options: .storageModePrivate))
        #expect(second.heapOffset == first.heapOffset, "the same bytes")
        let double = try commandBuffer.makeComputeCommandEncoder()
        if mode == .untracked { double.waitForFence(fence) }
        try FenceTests.add(a, a, into: second, gpu, double)
        if mode == .untracked { double.updateFence(written) }
        double.endEncoding()
        let blit = try commandBuffer.makeBlitCommandEncoder()
        if mode == .untracked { blit.waitForFence(written) }
        blit.copy(from: second, sourceOffset: 0, to: readBack, destinationOffset: 0, size: Self.count * 4)
        blit.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 2, "the alias's write after the first's, the copy after the alias's write")
        FenceTests.commit(commandBuffer, expecting: readBack) { 2 * Float($0) }
    }

    @Test("a placement heap puts buffers where the app says; buffers placed over each other alias")
    func placementHeap() throws {
        let gpu = try TestGPU()
        let needs = gpu.device.heapBufferSizeAndAlign(length: 256, options: .storageModeShared)
        let descriptor = HeapDescriptor()
        descriptor.size = 4 * needs.size
        descriptor.storageMode = .shared
        descriptor.type = .placement
        let heap = try gpu.device.makeHeap(descriptor: descriptor)
        #expect(heap.type == .placement)
        let first = try #require(heap.makeBuffer(length: 256, options: .storageModeShared, offset: 0))
        var over = Optional(try #require(heap.makeBuffer(length: 128, options: .storageModeShared, offset: 0)))
        let last = try #require(heap.makeBuffer(length: 256, options: .storageModeShared, offset: 3 * needs.size))
        #expect(first.heapOffset == 0 && last.heapOffset == 3 * needs.size)
        first.contents().storeBytes(of: 0x1234_5678, toByteOffset: 64, as: UInt32.self)
        #expect(over?.contents().load(fromByteOffset: 64, as: UInt32.self) == 0x1234_5678)
        #expect(heap.usedSize == 2 * needs.size + gpu.device.heapBufferSizeAndAlign(length: 128).size)
        #expect(heap.maxAvailableSize(alignment: needs.align) == heap.size)
        over?.makeAliasable()
        #expect(over?.isAliasable() == false, "a placement heap's resources alias where the app places them")
        over = nil
        #expect(heap.usedSize == 2 * needs.size)
    }

    @Test("textures in automatic and placement heaps hold their texels", arguments: [HeapType.automatic, .placement])
    func textures(type: HeapType) throws {
        let gpu = try TestGPU()
        let descriptor = TextureDescriptor(pixelFormat: .rgba8Unorm, width: 16, height: 16)
        let needs = try gpu.device.heapTextureSizeAndAlign(descriptor: descriptor)
        let heapDescriptor = HeapDescriptor()
        heapDescriptor.size = 2 * needs.size
        heapDescriptor.type = type
        let heap = try gpu.device.makeHeap(descriptor: heapDescriptor)
        let texture = try #require(type == .automatic ? heap.makeTexture(descriptor: descriptor)
            : heap.makeTexture(descriptor: descriptor, offset: needs.size))
        #expect(texture.heap === heap && texture.hazardTrackingMode == .untracked)
        #expect(texture.heapOffset == (type == .automatic ? 0 : needs.size))
        #expect(heap.usedSize == needs.size)
        #expect(texture.allocatedSize == needs.size)
        #expect(try gpu.device.makeTexture(descriptor: descriptor).allocatedSize >= 16 * 16 * 4)
        let input = (0..<(16 * 16 * 4)).map { UInt8(truncatingIfNeeded: $0 * 3) }
        texture.replace(region: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0, withBytes: input, bytesPerRow: 64)
        var output = [UInt8](repeating: 0, count: input.count)
        texture.getBytes(&output, bytesPerRow: 64, from: Region(x: 0, y: 0, width: 16, height: 16), mipmapLevel: 0)
        #expect(output == input)
        if type == .automatic {
            let second = try #require(heap.makeTexture(descriptor: descriptor))
            #expect(second.heapOffset == needs.size)
            #expect(heap.makeTexture(descriptor: descriptor) == nil, "full")
        }
    }

    @Test("useHeap: a tracked heap's read waits for an earlier write to one of its resources; the render encoder's keeps the heap")
    func useHeap() throws {
        let gpu = try TestGPU()
        let (a, b) = try FenceTests.inputs(gpu)
        let heap = try Self.heap(gpu, size: Self.count * 4 + 4096, storage: .shared, tracking: .tracked)
        let sum = try #require(heap.makeBuffer(length: Self.count * 4))
        let commandBuffer = try gpu.queue.makeCommandBuffer()
        let write = try commandBuffer.makeComputeCommandEncoder()
        try FenceTests.add(a, b, into: sum, gpu, write)
        write.endEncoding()
        let read = try commandBuffer.makeComputeCommandEncoder()
        read.useHeap(heap)
        read.useHeap(heap)
        read.endEncoding()
        let context = try #require(commandBuffer.record.context)
        #expect(context.encoding.hazards.barriers == 1, "once: the second declaration adds nothing")
        let target = try gpu.device.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 4, height: 4,
                                                                              usage: .renderTarget))
        let pass = RenderPassDescriptor()
        pass.colorAttachments[0].texture = target
        pass.colorAttachments[0].loadAction = .clear
        let render = try commandBuffer.makeRenderCommandEncoder(descriptor: pass)
        render.useHeap(heap)
        render.endEncoding()
        commandBuffer.commit()
        commandBuffer.waitUntilCompleted()
        #expect(commandBuffer.status == .completed)
        #expect(sum.contents().load(fromByteOffset: 8, as: Float.self) == 3)
    }

    @Test("a heap's purgeable state is its resources': emptied, they are discarded and the heap holds no memory")
    func purgeable() throws {
        let gpu = try TestGPU(lifecycle: AppLifecycle(clock: ManualClock()))
        let heap = try Self.heap(gpu, size: 65536, storage: .shared, tracking: .default)
        let buffer = try #require(heap.makeBuffer(length: 256))
        #expect(heap.setPurgeableState(.keepCurrent) == .nonVolatile)
        #expect(heap.setPurgeableState(.volatile) == .nonVolatile)
        #expect(buffer.setPurgeableState(.keepCurrent) == .nonVolatile, "a resource's own state is not changed by the heap's")
        gpu.device.lifecycle.didReceiveMemoryWarning()
        #expect(heap.setPurgeableState(.keepCurrent) == .empty, "emptied by the warning")
        #expect(buffer.setPurgeableState(.keepCurrent) == .empty, "and its resources with it")
        #expect(heap.currentAllocatedSize == 0)
        #expect(heap.maxAvailableSize(alignment: 16) == 0)
        #expect(heap.makeBuffer(length: 256) == nil, "no memory to place it in")
        #expect(heap.setPurgeableState(.nonVolatile) == .empty)
        #expect(heap.currentAllocatedSize == 65536)
        let fresh = try #require(heap.makeBuffer(length: 256))
        fresh.contents().storeBytes(of: 5, as: UInt32.self)
        let increment = try gpu.incrementBuffer(fresh)
        increment.commit()
        increment.waitUntilCompleted()
        #expect(increment.status == .completed)
        #expect(fresh.contents().load(as: UInt32.self) == 6)
        #expect(heap.setPurgeableState(.empty) == .nonVolatile)
        #expect(fresh.setPurgeableState(.keepCurrent) == .empty)
    }

    /// A heap of `size` bytes.
    static func heap(_ gpu: TestGPU, size: Int, storage: StorageMode, tracking: HazardTrackingMode,
                     type: HeapType = .automatic) throws -> Heap {
        let descriptor = HeapDescriptor()
        descriptor.size = size
        descriptor.storageMode = storage
        descriptor.hazardTrackingMode = tracking
        descriptor.type = type
        return try gpu.device.makeHeap(descriptor: descriptor)
    }

    /// Heap calls Metal's rules refuse, each with the message it stops with.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case emptyHeap, misalignedOffset, offsetOutside, placementWithoutOffset, automaticWithOffset, otherStorageMode,
             otherTrackingMode, resourcePurgeable, usedAfterHeapEmptied

        var message: String {
            switch self {
            case .emptyHeap: "makeHeap(descriptor:) needs a size above 0, got 0"
            case .misalignedOffset: "makeBuffer(length:options:offset:): offset 1 is not a multiple of the "
            case .offsetOutside: "bytes, which at offset 65536 do not fit the heap 'placed' of 65536 bytes"
            case .placementWithoutOffset:
                "makeBuffer(length:options:): the heap 'placed' of 65536 bytes is a placement heap; place the buffer with "
                    + "makeBuffer(length:options:offset:)"
            case .automaticWithOffset: "makeTexture(descriptor:offset:): the heap 'automatic' of 65536 bytes is an automatic heap"
            case .otherStorageMode: "makeBuffer(length:options:): storage mode private is not the heap's shared (the heap 'automatic'"
            case .otherTrackingMode: "makeBuffer(length:options:): hazard tracking mode tracked is not the heap's untracked"
            case .resourcePurgeable:
                "setPurgeableState(_:): the buffer of 256 bytes was made from the heap 'automatic' of 65536 bytes, whose purgeable "
                    + "state is its resources'; set the heap's"
            case .usedAfterHeapEmptied: "contents(): the buffer of 256 bytes was used after its contents were discarded"
            }
        }

        func run() throws {
            let gpu = try TestGPU()
            let descriptor = HeapDescriptor()
            descriptor.size = self == .emptyHeap ? 0 : 65536
            descriptor.storageMode = .shared
            descriptor.type = [.misalignedOffset, .offsetOutside, .placementWithoutOffset].contains(self) ? .placement : .automatic
            let heap = try gpu.device.makeHeap(descriptor: descriptor)
            heap.label = descriptor.type == .placement ? "placed" : "automatic"
            switch self {
            case .emptyHeap: break
            case .misalignedOffset: _ = heap.makeBuffer(length: 256, options: .storageModeShared, offset: 1)
            case .offsetOutside: _ = heap.makeBuffer(length: 256, options: .storageModeShared, offset: 65536)
            case .placementWithoutOffset: _ = heap.makeBuffer(length: 256, options: .storageModeShared)
            case .automaticWithOffset:
                _ = heap.makeTexture(descriptor: TextureDescriptor(pixelFormat: .rgba8Unorm, width: 4, height: 4, storageMode: .shared),
                                     offset: 0)
            case .otherStorageMode: _ = heap.makeBuffer(length: 256, options: .storageModePrivate)
            case .otherTrackingMode: _ = heap.makeBuffer(length: 256, options: .hazardTrackingModeTracked)
            case .resourcePurgeable: _ = heap.makeBuffer(length: 256)?.setPurgeableState(.volatile)
            case .usedAfterHeapEmptied:
                let buffer = heap.makeBuffer(length: 256)
                heap.setPurgeableState(.empty)
                _ = buffer?.contents()
            }
        }
    }

    @Test("misuse: heap calls Metal's rules refuse stop with the call and the values", arguments: Misuse.allCases)
    func misuse(_ misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            try misuse.run()
        }
        #expect(stderr(result).contains("SwiftGPU API misuse: "))
        #expect(stderr(result).contains(misuse.message))
    }
}
