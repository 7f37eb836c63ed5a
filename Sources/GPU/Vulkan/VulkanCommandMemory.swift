import CCommandMemory
import CVulkan

/// The host memory a command pool's recorded commands live in: allocation callbacks
/// (`VkAllocationCallbacks`) that hand out blocks from 16 KiB chunks in order, and take a
/// chunk back for reuse when its last block is freed (`CCommandMemory`, in C: the driver
/// calls it for every command it records, and a C function pointer is called with no
/// conversion thunk around it).
///
/// A driver that records commands in host memory allocates for every command and frees
/// every one when the pool is reset; lavapipe does, through the pool's allocator. With
/// glibc's `malloc` those calls were most of a recording thread's time (they walk free
/// lists across the heap); here an allocation is a few instructions and the next block
/// follows the last in memory. Each `CommandRecorder` has its own, for its pools, used
/// by one thread at a time: Vulkan calls a command pool's allocator only from calls on that
/// pool or its command buffers, on the calling thread, and those are made by the context's
/// one owner at a time.
final class VulkanCommandMemory {
    /// How many chunks of freed large blocks are kept for reuse.
    static let spareLargeLimit = Int(SWIFTGPU_COMMAND_MEMORY_SPARE_LARGE_LIMIT)

    /// The callbacks to pass with the pool; `pUserData` is this object's state, valid
    /// while this object lives (destroy the pool first).
    private(set) var callbacks = VkAllocationCallbacks()
    private let state: OpaquePointer

    init() {
        guard let state = swiftgpu_command_memory_create() else {
            fatalError("SwiftGPU: no host memory for a command pool's allocator state (\(MemoryLayout<Int>.size * 10) bytes)")
        }
        self.state = state
        swiftgpu_command_memory_callbacks(state, &callbacks)
    }

    deinit { swiftgpu_command_memory_destroy(state) }

    /// How many shared chunks, and large blocks' chunks, were taken from the system so far.
    var chunksMade: Int { swiftgpu_command_memory_chunks_made(state) }
    var largeChunksMade: Int { swiftgpu_command_memory_large_chunks_made(state) }
}
