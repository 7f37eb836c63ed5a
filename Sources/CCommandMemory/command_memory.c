// The allocation callbacks command pools record into.
//
// A driver that records commands in host memory allocates for every command and frees
// every one when the pool is reset; lavapipe does, through the pool's allocator. Here an
// allocation is a few instructions and the next block follows the last in memory.
//
// A chunk (16 KiB, aligned to its size, so a block's chunk is its address with the low
// bits cleared) starts with a 32-byte header: its count of live blocks, the next chunk in
// its list (the shared chunks, or the large ones), the next in a free list, and, for a
// chunk that holds one large block alone, its size (0 for a shared chunk). Every block is
// preceded by its size (16 bytes, keeping 16-byte alignment). Blocks are handed out in
// order from the current chunk; a chunk whose last block is freed is filled again. A block
// too large for a chunk's share gets a chunk of its own, kept when freed (up to
// SWIFTGPU_COMMAND_MEMORY_SPARE_LARGE_LIMIT of them) for the next large block it holds,
// since a driver tends to allocate the same large block for every command buffer.
//
// Vulkan calls a pool's allocator only from calls on that pool or its command buffers, on
// the calling thread; SwiftGPU makes those from one thread at a time, so there is no lock.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "CommandMemory.h"

enum { CHUNK = 16 * 1024, CHUNK_HEADER = 32, BLOCK_HEADER = 16, LARGE = CHUNK / 4 };

typedef struct Chunk {
    size_t live;
    struct Chunk *next;       // in the list of shared or of large chunks
    struct Chunk *nextFree;   // in the list of empty chunks, or of spare large ones
    size_t largeSize;         // bytes of a large block's chunk; 0 for a shared chunk
} Chunk;

struct SwiftGPUCommandMemory {
    Chunk *current;           // the chunk being filled
    size_t next;              // the offset of its next free byte
    Chunk *empty;             // shared chunks with no live block
    Chunk *shared, *large;    // every chunk, for destruction
    Chunk *spareLarge;        // chunks of freed large blocks, kept for the next ones
    size_t spareLargeCount;
    size_t chunksMade, largeChunksMade;
};

static size_t roundUp(size_t value, size_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

static Chunk *newChunk(SwiftGPUCommandMemory *memory, size_t bytes, size_t largeSize) {
    void *address;
    if (posix_memalign(&address, CHUNK, bytes) != 0) return NULL;
    Chunk *chunk = address;
    *chunk = (Chunk){.largeSize = largeSize};
    if (largeSize) {
        chunk->next = memory->large;
        memory->large = chunk;
        memory->largeChunksMade++;
    } else {
        chunk->next = memory->shared;
        memory->shared = chunk;
        memory->chunksMade++;
    }
    return chunk;
}

static void *allocateLarge(SwiftGPUCommandMemory *memory, size_t size, size_t alignment) {
    if (alignment > CHUNK / 2 || size > SIZE_MAX / 2) return NULL;
    size_t offset = roundUp(CHUNK_HEADER + BLOCK_HEADER, alignment), bytes = roundUp(offset + size, 4096);
    Chunk *chunk = NULL;
    for (Chunk **link = &memory->spareLarge; *link; link = &(*link)->nextFree) {
        if ((*link)->largeSize >= bytes) {
            chunk = *link;
            *link = chunk->nextFree;
            memory->spareLargeCount--;
            break;
        }
    }
    if (!chunk && !(chunk = newChunk(memory, bytes, bytes))) return NULL;
    chunk->live = 1;
    char *block = (char *)chunk + offset;
    *(size_t *)(block - BLOCK_HEADER) = size;
    return block;
}

static void *VKAPI_PTR allocate(void *userData, size_t size, size_t alignment, VkSystemAllocationScope scope) {
    (void)scope;
    SwiftGPUCommandMemory *memory = userData;
    if (alignment < BLOCK_HEADER) alignment = BLOCK_HEADER;
    if (size > LARGE || alignment > LARGE || BLOCK_HEADER + alignment + size > LARGE)
        return allocateLarge(memory, size, alignment);
    size_t offset = roundUp(memory->next + BLOCK_HEADER, alignment);
    if (!memory->current || offset + size > CHUNK) {
        if (memory->empty) {
            memory->current = memory->empty;
            memory->empty = memory->empty->nextFree;
        } else if (!(memory->current = newChunk(memory, CHUNK, 0))) {
            return NULL;
        }
        offset = roundUp(CHUNK_HEADER + BLOCK_HEADER, alignment);
    }
    memory->current->live++;
    memory->next = offset + size;
    char *block = (char *)memory->current + offset;
    *(size_t *)(block - BLOCK_HEADER) = size;
    return block;
}

/// Takes a large block's chunk out of the list of large ones (few live at a time).
static void unlinkLarge(SwiftGPUCommandMemory *memory, Chunk *chunk) {
    for (Chunk **link = &memory->large; *link; link = &(*link)->next) {
        if (*link == chunk) {
            *link = chunk->next;
            return;
        }
    }
}

static void VKAPI_PTR release(void *userData, void *block) {
    SwiftGPUCommandMemory *memory = userData;
    if (!block) return;
    Chunk *chunk = (Chunk *)((uintptr_t)block & ~(uintptr_t)(CHUNK - 1));
    if (chunk->largeSize) {
        if (memory->spareLargeCount < SWIFTGPU_COMMAND_MEMORY_SPARE_LARGE_LIMIT) {
            chunk->nextFree = memory->spareLarge;
            memory->spareLarge = chunk;
            memory->spareLargeCount++;
        } else {
            unlinkLarge(memory, chunk);
            free(chunk);
        }
        return;
    }
    if (--chunk->live) return;
    if (chunk == memory->current) {
        memory->next = CHUNK_HEADER;   // fill it again from its start
    } else {
        chunk->nextFree = memory->empty;
        memory->empty = chunk;
    }
}

static void *VKAPI_PTR reallocate(void *userData, void *original, size_t size, size_t alignment,
                                  VkSystemAllocationScope scope) {
    if (!original) return allocate(userData, size, alignment, scope);
    if (size == 0) {
        release(userData, original);
        return NULL;
    }
    size_t oldSize = *(size_t *)((char *)original - BLOCK_HEADER);
    size_t aligned = alignment < BLOCK_HEADER ? BLOCK_HEADER : alignment;
    if (size <= oldSize && ((uintptr_t)original & (aligned - 1)) == 0) return original;
    void *moved = allocate(userData, size, alignment, scope);
    if (!moved) return NULL;
    memcpy(moved, original, oldSize < size ? oldSize : size);
    release(userData, original);
    return moved;
}

SwiftGPUCommandMemory *swiftgpu_command_memory_create(void) {
    SwiftGPUCommandMemory *memory = calloc(1, sizeof *memory);
    if (memory) memory->next = CHUNK_HEADER;
    return memory;
}

void swiftgpu_command_memory_destroy(SwiftGPUCommandMemory *memory) {
    if (!memory) return;
    for (Chunk *lists[2] = {memory->shared, memory->large}, **list = lists; list < lists + 2; list++) {
        for (Chunk *chunk = *list, *next; chunk; chunk = next) {
            next = chunk->next;
            free(chunk);
        }
    }
    free(memory);
}

void swiftgpu_command_memory_callbacks(SwiftGPUCommandMemory *memory, void *callbacks) {
    *(VkAllocationCallbacks *)callbacks = (VkAllocationCallbacks){
        .pUserData = memory, .pfnAllocation = allocate, .pfnReallocation = reallocate, .pfnFree = release};
}

size_t swiftgpu_command_memory_chunks_made(const SwiftGPUCommandMemory *memory) { return memory->chunksMade; }

size_t swiftgpu_command_memory_large_chunks_made(const SwiftGPUCommandMemory *memory) { return memory->largeChunksMade; }
