#!/usr/bin/env python3
"""Splits a benchmark's instructions per unit into who spent them, from two callgrind runs.

    callgrind_split.py SMALL LARGE PER [--top N] [--json]

SMALL and LARGE are callgrind output files of one benchmark at two sizes (the files
scripts/bench.py keeps under Benchmarks/.deps/callgrind/); PER is the number of units
(command buffers, draws) the larger run did beyond the smaller. Each function's own
(exclusive) instructions in LARGE less those in SMALL, divided by PER, are its cost per
unit, so set-up and warm-up cancel out. Every function falls in one part:

- driver: the Vulkan driver (lavapipe: libvulkan_lvp, and the LLVM/gallium code it runs);
- loader: the Vulkan loader's trampolines (libvulkan.so);
- allocator: host memory for recorded commands — the command pools' allocator
  (SwiftGPU's CCommandMemory, which the raw-C baseline links too) and the C library's
  malloc family;
- kernel and libc: system calls' user side and the rest of the C library;
- own: everything else — the API's own code (SwiftGPU and the Swift runtime it calls, or
  the benchmark's C code): the cost the API adds above the driver.

Prints the parts and the top functions of "own"; --json prints one JSON object instead.
"""

import argparse
import collections
import json
import re
import sys

# SwiftGPU's command-pool allocator (CCommandMemory: allocate, reallocate, release,
# allocateLarge, newChunk, unlinkLarge), which the raw-C baseline links too, and the C
# library's malloc family.
ALLOCATOR_FUNCTIONS = re.compile(
    r"^(allocate|reallocate|release|allocateLarge|newChunk|unlinkLarge)$|"
    r"^(__libc_)?(malloc|free|calloc|realloc|posix_memalign|aligned_alloc|memalign)$|"
    r"^_int_(malloc|free|realloc|memalign)|^malloc_consolidate|^tcache_|^_mid_memalign|^unlink_chunk|"
    r"^cfree|^__GI___libc_(malloc|free)")
DRIVER_OBJECTS = re.compile(r"libvulkan_lvp|libLLVM|libgallium|swrast|lavapipe|libdrm|libz|libzstd|libexpat")
LOADER_OBJECTS = re.compile(r"libvulkan\.so")
LIBC_OBJECTS = re.compile(r"libc\.so|libc-|ld-linux|libm\.so|libpthread")


def split(small_files, large_files, per, top=5):
    """The parts and the top "own" functions per unit of a case profiled at two sizes, each
    size given as the list of files of the threads that count (summed)."""
    small, large = collections.Counter(), collections.Counter()
    for path in small_files:
        small.update(exclusive_costs(path))
    for path in large_files:
        large.update(exclusive_costs(path))
    parts, own = collections.Counter(), collections.Counter()
    for key in set(small) | set(large):
        cost = (large.get(key, 0) - small.get(key, 0)) / per
        name = part(*key)
        parts[name] += cost
        if name == "own":
            own[key[1]] += cost
    return ({name: round(cost, 1) for name, cost in parts.items()},
            [(function, round(cost, 1)) for function, cost in own.most_common(top)])


def exclusive_costs(path):
    """{(object, function): own instructions} of one callgrind file (name compression understood)."""
    names = {"ob": {}, "fl": {}, "fn": {}}
    costs = collections.Counter()
    current_object = current_function = None
    skip_next_cost = False
    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if not line:
                continue
            head = line[:3]
            if head in ("ob=", "fn=", "fl=", "fi=", "fe=") or line.startswith(("cob=", "cfn=", "cfi=", "cfl=")):
                key, _, value = line.partition("=")
                kind = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn"}.get(key, "fl")
                match = re.match(r"\((\d+)\)(?: (.*))?$", value)
                if match:
                    number, name = match.groups()
                    if name is not None:
                        names[kind][number] = name
                    name = names[kind].get(number, number)
                else:
                    name = value
                if key == "ob":
                    current_object = name
                elif key == "fn":
                    current_function = name
                continue
            if line.startswith("calls="):
                skip_next_cost = True
                continue
            if line[0].isdigit() or line[0] in "+-*":
                if skip_next_cost:   # the inclusive cost of a call: not the caller's own
                    skip_next_cost = False
                    continue
                fields = line.split()
                if len(fields) >= 2:
                    costs[(current_object, current_function)] += int(fields[1])
    return costs


def part(obj, function):
    obj = obj or ""
    function = function or ""
    if ALLOCATOR_FUNCTIONS.search(function):
        return "allocator"
    if DRIVER_OBJECTS.search(obj):
        return "driver"
    if LOADER_OBJECTS.search(obj):
        return "loader"
    if LIBC_OBJECTS.search(obj) or obj == "???" or function.startswith("0x"):
        return "kernel and libc"
    return "own"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("small")
    parser.add_argument("large")
    parser.add_argument("per", type=float)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    parts, top = split([args.small], [args.large], args.per, args.top)
    total = sum(parts.values())
    if args.json:
        print(json.dumps({"total": round(total, 1), "parts": parts, "own_top": top}))
        return
    print(f"total {total:.1f} per unit")
    for name in ["own", "driver", "allocator", "loader", "kernel and libc"]:
        print(f"  {name:16} {parts.get(name, 0):10.1f}")
    print("own, top functions:")
    for function, cost in top:
        print(f"  {cost:8.1f}  {function}")


if __name__ == "__main__":
    sys.exit(main())
