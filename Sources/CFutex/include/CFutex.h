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

#endif
