// The lock-order check of debug builds: each thread's stack of the locks it holds. Swift has
// no thread-local storage of its own, so the stack lives here; SwiftGPUSupport's locks call
// these functions only when compiled with DEBUG.
#include "CFutex.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { capacity = 64 };

struct held {
    const void *lock;
    uint32_t level;
    const char *name;
};

static _Thread_local struct held stack[capacity];
static _Thread_local int depth;

static void push(const void *lock, uint32_t level, const char *name) {
    if (depth == capacity) {
        fprintf(stderr, "SwiftGPU lock order: a thread holds more than %d locks (taking %s)\n", capacity, name);
        abort();
    }
    stack[depth++] = (struct held){lock, level, name};
}

int swiftgpu_lock_order_push(const void *lock, uint32_t level, const char *name,
                             const char **held_name, uint32_t *held_level) {
    const struct held *conflict = NULL;
    for (int i = depth - 1; i >= 0; i--) {
        if (stack[i].lock == lock) {
            push(lock, level, name);
            return 1;
        }
        if (conflict == NULL && stack[i].level >= level) {
            conflict = &stack[i];
        }
    }
    if (conflict != NULL) {
        *held_name = conflict->name;
        *held_level = conflict->level;
        return 0;
    }
    push(lock, level, name);
    return 1;
}

void swiftgpu_lock_order_push_unchecked(const void *lock, uint32_t level, const char *name) {
    push(lock, level, name);
}

void swiftgpu_lock_order_pop(const void *lock) {
    for (int i = depth - 1; i >= 0; i--) {
        if (stack[i].lock == lock) {
            for (int j = i; j < depth - 1; j++) {
                stack[j] = stack[j + 1];
            }
            depth--;
            return;
        }
    }
}
