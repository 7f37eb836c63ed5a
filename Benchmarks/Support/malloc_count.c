// A malloc-counting shim for the benchmarks: LD_PRELOAD it and call bench_malloc_count()
// (found with dlsym) for the number of malloc, calloc, realloc and memalign-family calls so
// far. Built by scripts/bench.py; counts every caller in the process, driver included.
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic uint64_t calls;

uint64_t bench_malloc_count(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }

void *malloc(size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12;   // ENOMEM
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return __libc_memalign(alignment, size);
}
