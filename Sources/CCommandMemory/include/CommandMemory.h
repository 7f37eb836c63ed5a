#ifndef SWIFTGPU_COMMAND_MEMORY_H
#define SWIFTGPU_COMMAND_MEMORY_H
// The host memory a command pool's recorded commands live in (see command_memory.c):
// Vulkan allocation callbacks over 16 KiB chunks. Written in C because the driver calls
// it for every command it records: here a call is the allocation itself, with no
// conversion thunk around it.
#include <stddef.h>

/// One allocator's state, used by one thread at a time.
typedef struct SwiftGPUCommandMemory SwiftGPUCommandMemory;

/// How many chunks of freed large blocks an allocator keeps for reuse.
#define SWIFTGPU_COMMAND_MEMORY_SPARE_LARGE_LIMIT 8

/// A new allocator, or NULL when the system has no memory for it.
SwiftGPUCommandMemory *swiftgpu_command_memory_create(void);
/// Frees every chunk; destroy the pools that use the allocator first.
void swiftgpu_command_memory_destroy(SwiftGPUCommandMemory *memory);
/// Fills the `VkAllocationCallbacks` at `callbacks` with this allocator's functions, its
/// `pUserData` being `memory`.
void swiftgpu_command_memory_callbacks(SwiftGPUCommandMemory *memory, void *callbacks);
/// Shared chunks, and large blocks' chunks, taken from the system so far.
size_t swiftgpu_command_memory_chunks_made(const SwiftGPUCommandMemory *memory);
size_t swiftgpu_command_memory_large_chunks_made(const SwiftGPUCommandMemory *memory);

#endif
