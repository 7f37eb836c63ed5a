import CVulkan
import Glibc

/// The host memory a command pool's recorded commands live in: allocation callbacks
/// (`VkAllocationCallbacks`) that hand out blocks from 16 KiB chunks in order, and take a
/// chunk back for reuse when its last block is freed.
///
/// A driver that records commands in host memory allocates for every command and frees
/// every one when the pool is reset; lavapipe does, through the pool's allocator. With
/// glibc's `malloc` those calls were most of a recording thread's time (they walk free
/// lists across the heap); here an allocation is a few instructions and the next block
/// follows the last in memory. Each `CommandRecorder` has its own, for its pools, used
/// by one thread at a time: Vulkan calls a command pool's allocator only from calls on that
/// pool or its command buffers, on the calling thread, and those are made by the context's
/// one owner at a time.
///
/// A chunk starts with a 32-byte header: its count of live blocks, the next chunk in its
/// list (the pool's shared chunks, or its large ones), the next in the list of empty
/// ones, and, for a chunk that holds one large block alone, its size (0 for a shared one).
/// Every block is preceded by its size (16 bytes, keeping 16-byte alignment). Chunks are
/// aligned to the chunk size, so a block's chunk is its address with the low bits cleared. A block too large for a chunk's share gets a chunk of its own; freed,
/// the chunk is kept (up to `spareLargeLimit` of them) for the next large block it holds,
/// since a driver tends to allocate the same large block for every command buffer.
final class VulkanCommandMemory {
    static let chunkSize = 16 * 1024
    static let chunkHeader = 32
    static let blockHeader = 16
    /// Blocks above this (with their header and alignment) get a chunk of their own.
    static let largeBlock = chunkSize / 4
    /// How many chunks of freed large blocks are kept for reuse.
    static let spareLargeLimit = 8

    /// The callbacks to pass with the pool; `pUserData` is this object's state, valid
    /// while this object lives (destroy the pool first).
    private(set) var callbacks = VkAllocationCallbacks()
    private let state: UnsafeMutablePointer<State>

    /// The allocator's state, reached from the C callbacks without reference counting.
    struct State {
        /// The chunk being filled and the offset of its next free byte.
        var current: UnsafeMutableRawPointer?
        var next = 0
        /// Chunks with no live block, ready to be filled again.
        var empty: UnsafeMutableRawPointer?
        /// Every shared chunk, and every chunk of a large block: destruction frees them all.
        var all: UnsafeMutableRawPointer?
        var large: UnsafeMutableRawPointer?
        /// Chunks of freed large blocks, kept for the next ones (linked by word 2).
        var spareLarge: UnsafeMutableRawPointer?
        var spareLargeCount = 0
        /// Shared chunks and large blocks' chunks taken from the system, for tests.
        var chunksMade = 0
        var largeChunksMade = 0
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        callbacks.pUserData = UnsafeMutableRawPointer(state)
        callbacks.pfnAllocation = { userData, size, alignment, _ in
            VulkanCommandMemory.allocate(userData!.assumingMemoryBound(to: State.self), size: size, alignment: alignment)
        }
        callbacks.pfnReallocation = { userData, original, size, alignment, _ in
            VulkanCommandMemory.reallocate(userData!.assumingMemoryBound(to: State.self), original, size: size, alignment: alignment)
        }
        callbacks.pfnFree = { userData, memory in
            VulkanCommandMemory.free(userData!.assumingMemoryBound(to: State.self), memory)
        }
    }

    deinit {
        for list in [state.pointee.all, state.pointee.large] {
            var chunk = list
            while let current = chunk {
                chunk = Self.link(current, 1)
                Glibc.free(current)
            }
        }
        state.deallocate()
    }

    /// How many shared chunks, and large blocks' chunks, were taken from the system so far.
    var chunksMade: Int { state.pointee.chunksMade }
    var largeChunksMade: Int { state.pointee.largeChunksMade }

    // MARK: Chunk header fields (words 0–3)

    private static func live(_ chunk: UnsafeMutableRawPointer) -> Int { chunk.load(as: Int.self) }
    private static func setLive(_ chunk: UnsafeMutableRawPointer, _ value: Int) { chunk.storeBytes(of: value, as: Int.self) }
    /// Word 1: the next chunk of `all` or `large`; word 2: the next chunk of `empty`.
    private static func link(_ chunk: UnsafeMutableRawPointer, _ word: Int) -> UnsafeMutableRawPointer? {
        chunk.load(fromByteOffset: word * 8, as: UnsafeMutableRawPointer?.self)
    }
    private static func setLink(_ chunk: UnsafeMutableRawPointer, _ word: Int, _ value: UnsafeMutableRawPointer?) {
        chunk.storeBytes(of: value, toByteOffset: word * 8, as: UnsafeMutableRawPointer?.self)
    }
    /// Word 3: a large block's chunk's size in bytes; 0 for a shared chunk.
    private static func largeSize(_ chunk: UnsafeMutableRawPointer) -> Int { chunk.load(fromByteOffset: 24, as: Int.self) }

    /// `value` rounded up to `alignment`, a power of two.
    @inline(__always)
    private static func roundUp(_ value: Int, _ alignment: Int) -> Int { (value + alignment - 1) & ~(alignment - 1) }

    // MARK: The callbacks

    static func allocate(_ state: UnsafeMutablePointer<State>, size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        // Blocks that fit a chunk's share take the path below, where every value stays far
        // from overflowing (sizes and alignments under `largeBlock`, offsets under
        // `chunkSize`), so its arithmetic wraps unchecked: this runs for every command the
        // driver records.
        guard size <= largeBlock, alignment <= largeBlock else {
            return allocateLarge(state, size: size, alignment: max(alignment, blockHeader))
        }
        let alignment = max(alignment, blockHeader)
        if blockHeader &+ alignment &+ size > largeBlock { return allocateLarge(state, size: size, alignment: alignment) }
        var offset = (state.pointee.next &+ blockHeader &+ alignment &- 1) & ~(alignment &- 1)
        if state.pointee.current == nil || offset &+ size > chunkSize {
            guard takeChunk(state) else { return nil }
            offset = (chunkHeader &+ blockHeader &+ alignment &- 1) & ~(alignment &- 1)
        }
        let chunk = state.pointee.current.unsafelyUnwrapped
        setLive(chunk, live(chunk) &+ 1)
        state.pointee.next = offset &+ size
        let block = chunk + offset
        (block - blockHeader).storeBytes(of: size, as: Int.self)
        return block
    }

    static func reallocate(_ state: UnsafeMutablePointer<State>, _ original: UnsafeMutableRawPointer?, size: Int,
                           alignment: Int) -> UnsafeMutableRawPointer? {
        guard let original else { return allocate(state, size: size, alignment: alignment) }
        if size == 0 {
            free(state, original)
            return nil
        }
        let oldSize = (original - blockHeader).load(as: Int.self)
        if size <= oldSize && Int(bitPattern: original) & (max(alignment, blockHeader) - 1) == 0 { return original }
        guard let moved = allocate(state, size: size, alignment: alignment) else { return nil }
        moved.copyMemory(from: original, byteCount: min(oldSize, size))
        free(state, original)
        return moved
    }

    static func free(_ state: UnsafeMutablePointer<State>, _ memory: UnsafeMutableRawPointer?) {
        guard let memory else { return }
        let chunk = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: memory) & ~(chunkSize - 1)).unsafelyUnwrapped
        if largeSize(chunk) != 0 {
            if state.pointee.spareLargeCount < spareLargeLimit {
                setLink(chunk, 2, state.pointee.spareLarge)
                state.pointee.spareLarge = chunk
                state.pointee.spareLargeCount += 1
            } else {
                unlink(state, chunk)
                Glibc.free(chunk)
            }
            return
        }
        let remaining = live(chunk) - 1
        setLive(chunk, remaining)
        guard remaining == 0 else { return }
        if chunk == state.pointee.current {
            state.pointee.next = chunkHeader   // fill it again from its start
        } else {
            setLink(chunk, 2, state.pointee.empty)
            state.pointee.empty = chunk
        }
    }

    // MARK: Chunks

    /// Makes an empty chunk current: one freed earlier, else a new one.
    private static func takeChunk(_ state: UnsafeMutablePointer<State>) -> Bool {
        if let empty = state.pointee.empty {
            state.pointee.empty = link(empty, 2)
            state.pointee.current = empty
        } else {
            guard let chunk = newChunk(state, bytes: chunkSize, largeSize: 0) else { return false }
            state.pointee.current = chunk
        }
        state.pointee.next = chunkHeader
        return true
    }

    /// A chunk of its own for one block: aligned to the chunk size, so that the block's
    /// address, which lies in its first `chunkSize` bytes, leads back to it.
    private static func allocateLarge(_ state: UnsafeMutablePointer<State>, size: Int,
                                      alignment: Int) -> UnsafeMutableRawPointer? {
        guard alignment <= chunkSize / 2 else { return nil }
        let offset = roundUp(chunkHeader + blockHeader, alignment)
        let bytes = roundUp(offset + size, 4096)
        guard let chunk = takeSpareLarge(state, bytes: bytes) ?? newChunk(state, bytes: bytes, largeSize: bytes) else { return nil }
        setLive(chunk, 1)
        let block = chunk + offset
        (block - blockHeader).storeBytes(of: size, as: Int.self)
        return block
    }

    /// A kept chunk of a freed large block that holds `bytes`, taken out of the spares.
    private static func takeSpareLarge(_ state: UnsafeMutablePointer<State>, bytes: Int) -> UnsafeMutableRawPointer? {
        var previous: UnsafeMutableRawPointer?
        var candidate = state.pointee.spareLarge
        while let chunk = candidate {
            let following = link(chunk, 2)
            if largeSize(chunk) >= bytes {
                if let previous { setLink(previous, 2, following) } else { state.pointee.spareLarge = following }
                state.pointee.spareLargeCount -= 1
                return chunk
            }
            previous = chunk
            candidate = following
        }
        return nil
    }

    /// A new chunk of `bytes`, aligned to the chunk size; `largeSize` is `bytes` for a large
    /// block's chunk, 0 for a shared one.
    private static func newChunk(_ state: UnsafeMutablePointer<State>, bytes: Int, largeSize: Int) -> UnsafeMutableRawPointer? {
        let large = largeSize != 0
        var chunk: UnsafeMutableRawPointer?
        guard posix_memalign(&chunk, chunkSize, bytes) == 0, let chunk else { return nil }
        setLive(chunk, 0)
        setLink(chunk, 1, large ? state.pointee.large : state.pointee.all)
        setLink(chunk, 2, nil)
        chunk.storeBytes(of: largeSize, toByteOffset: 24, as: Int.self)
        if large { state.pointee.large = chunk } else { state.pointee.all = chunk }
        if large { state.pointee.largeChunksMade += 1 } else { state.pointee.chunksMade += 1 }
        return chunk
    }

    /// Takes a large block's chunk out of the list of large ones (few live at a time).
    private static func unlink(_ state: UnsafeMutablePointer<State>, _ chunk: UnsafeMutableRawPointer) {
        if state.pointee.large == chunk {
            state.pointee.large = link(chunk, 1)
            return
        }
        var previous = state.pointee.large
        while let candidate = previous {
            let following = link(candidate, 1)
            if following == chunk {
                setLink(candidate, 1, link(chunk, 1))
                return
            }
            previous = following
        }
    }
}
