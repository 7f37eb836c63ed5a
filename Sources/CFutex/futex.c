// The futex system calls behind SwiftGPUSupport's locks. `syscall` is variadic, which Swift
// cannot call; these two wrappers are the slow paths only (a lock's contended case, a
// condition's wait and wake-up), so they are plain functions.
#define _GNU_SOURCE
#include "CFutex.h"

#include <linux/futex.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void swiftgpu_futex_wait(const void *word, uint32_t expected, uint64_t deadline_ns) {
    // FUTEX_WAIT_BITSET takes an absolute time on CLOCK_MONOTONIC (FUTEX_WAIT a relative one).
    struct timespec deadline = {
        .tv_sec = (time_t)(deadline_ns / 1000000000u),
        .tv_nsec = (long)(deadline_ns % 1000000000u),
    };
    syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, expected, deadline_ns == 0 ? NULL : &deadline, NULL,
            FUTEX_BITSET_MATCH_ANY);
}

void swiftgpu_futex_wake(const void *word, int32_t count) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count);
}
