#ifndef SWIFTGPU_CFUTEX_H
#define SWIFTGPU_CFUTEX_H

#include <stdint.h>

/// Blocks while the 32-bit word at `word` (4-byte aligned) holds `expected`, until woken by
/// `swiftgpu_futex_wake` or, when `deadline_ns` is not 0, until CLOCK_MONOTONIC reaches it
/// (nanoseconds). May return early (a signal, a spurious wake-up): callers re-check their
/// condition. A private futex: the word is shared by the threads of this process only.
void swiftgpu_futex_wait(const void *word, uint32_t expected, uint64_t deadline_ns);

/// Wakes up to `count` threads blocked in `swiftgpu_futex_wait` on `word`.
void swiftgpu_futex_wake(const void *word, int32_t count);

/// The locks the calling thread holds, for the lock-order check of debug builds: a
/// thread-local stack of (lock, level, name). Pushes `lock` when the thread may take it now:
/// when it holds nothing of a level at or above `level`, or already holds `lock` itself (a
/// recursive lock re-entered). Otherwise pushes nothing and returns the name and level of
/// the held lock it conflicts with through `held_name` and `held_level`, and 0.
int swiftgpu_lock_order_push(const void *lock, uint32_t level, const char *name,
                             const char **held_name, uint32_t *held_level);

/// Pushes `lock` without checking the order: a lock taken with a try, which cannot wait.
void swiftgpu_lock_order_push_unchecked(const void *lock, uint32_t level, const char *name);

/// Removes the most recent entry for `lock` from the calling thread's stack.
void swiftgpu_lock_order_pop(const void *lock);

#endif
