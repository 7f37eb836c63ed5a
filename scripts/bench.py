#!/usr/bin/env python3
"""Runs Benchmarks B1–B4 for SwiftGPU, raw Vulkan in C and wgpu-native, interleaved.

Called by scripts/bench.sh (which installs the Debian packages and pins lavapipe). Builds
the three implementations, checks both baselines once under the validation layer, runs
every implementation in the same environment several times with the implementations
interleaved, and prints a table of medians (min–max, ratio to raw C). Every run checks its
own result and exits non-zero when it is wrong, which stops this script: a fast wrong run
never counts. Writes the runs and the summary to Benchmarks/results.json.
"""

import argparse
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPS = os.path.join(ROOT, "Benchmarks", ".deps")
WGPU_VERSION = "0.32.0"
SHADERS = ["Shaders/increment.comp", "Shaders/bench.vert", "Shaders/bench.frag", "Shaders/textured.vert",
           "Shaders/textured.frag", "Benchmarks/Shaders/bench_push.frag"]
# Pinned glibc heap: lavapipe allocates per recorded command, and an adaptive heap alone
# swings results 2-4x.
HEAP = {"MALLOC_TRIM_THRESHOLD_": "268435456", "MALLOC_MMAP_THRESHOLD_": "268435456",
        "MALLOC_TOP_PAD_": "268435456"}
C_VARIANTS = ["push-descriptor", "dynamic-offset", "push-constant"]
METRICS = {"B1": ("us_per_buffer", "µs per buffer", False), "B2": ("cpu_ns_per_draw", "CPU ns per draw", False),
           "B2 total": ("total_ms", "ms with GPU", False), "B3": ("fps", "frames/s", True),
           "B3 memory": ("peak_rss_mib", "peak RSS MiB", False), "B4": ("drain_ms", "ms", False)}


def run(command, env=None, capture=True):
    result = subprocess.run(command, cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE if capture else None)
    if result.returncode != 0:
        sys.stderr.write(f"bench: {' '.join(command)} failed with status {result.returncode}\n")
        if capture:
            sys.stderr.write(result.stdout + result.stderr)
        sys.exit(1)
    return result.stdout if capture else ""


def fetch_wgpu():
    """Downloads the wgpu wheel with pip and extracts libwgpu_native and its headers."""
    target = os.path.join(DEPS, "wgpu")
    if os.path.exists(os.path.join(target, "libwgpu_native-release.so")):
        return target
    wheels = os.path.join(DEPS, "wheel")
    run([sys.executable, "-m", "pip", "download", f"wgpu=={WGPU_VERSION}", "--no-deps", "--only-binary=:all:",
         "--platform", "manylinux_2_28_x86_64", "--python-version", "3.11", "-d", wheels])
    wheel = glob.glob(os.path.join(wheels, f"wgpu-{WGPU_VERSION}-*.whl"))[0]
    os.makedirs(target, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive:
        for name in ["libwgpu_native-release.so", "webgpu.h", "wgpu.h"]:
            with archive.open(f"wgpu/resources/{name}") as source, open(os.path.join(target, name), "wb") as out:
                out.write(source.read())
    return target


def build():
    """Builds the three implementations and the malloc-counting shim; returns their commands."""
    spirv = os.path.join(DEPS, "spirv")
    os.makedirs(spirv, exist_ok=True)
    for shader in SHADERS:
        run(["glslc", "--target-env=vulkan1.2", "-O", shader, "-o",
             os.path.join(spirv, os.path.basename(shader) + ".spv")])
    wgpu = fetch_wgpu()
    wgpu_bench = os.path.join(DEPS, "WGPUBench")
    run(["gcc", "-O2", "-std=gnu11", "-I", wgpu, "Benchmarks/WGPUBench/wgpu_bench.c", "-L", wgpu,
         "-l:libwgpu_native-release.so", f"-Wl,-rpath,{wgpu}", "-o", wgpu_bench])
    shim = os.path.join(DEPS, "libmalloccount.so")
    run(["gcc", "-O2", "-shared", "-fPIC", "Benchmarks/Support/malloc_count.c", "-o", shim])
    print("bench: building SwiftGPUBench and VulkanBench (release)", flush=True)
    for product in ["SwiftGPUBench", "VulkanBench"]:
        run(["swift", "build", "-c", "release", "--product", product], capture=False)
    binaries = run(["swift", "build", "-c", "release", "--show-bin-path"]).strip()
    return {
        "swiftgpu": [os.path.join(binaries, "SwiftGPUBench")],
        "vulkan-c": [os.path.join(binaries, "VulkanBench"), "--spirv", spirv],
        "wgpu-native": [wgpu_bench],
    }, shim


def runs_of(command, bench, variant=None, env=None):
    """One invocation: the JSON lines it printed."""
    arguments = command + ["--bench", bench] + (["--variant", variant] if variant else [])
    return [json.loads(line) for line in run(arguments, env=env).splitlines() if line.startswith("{")]


def jobs(commands, bench):
    """The invocations of one benchmark: SwiftGPU, wgpu-native, and each C variant of B2."""
    result = [("swiftgpu", None), ("wgpu-native", None)]
    result += [("vulkan-c", v) for v in C_VARIANTS] if bench == "B2" else [("vulkan-c", None)]
    return [(commands[impl], impl, variant) for impl, variant in result]


def measure(commands, passes, threads):
    env = dict(os.environ, **HEAP)
    if threads is None:
        env.pop("LP_NUM_THREADS", None)
    else:
        env["LP_NUM_THREADS"] = str(threads)
    records = []
    for number in range(passes):
        for bench in ["B1", "B2", "B3", "B4"]:
            order = jobs(commands, bench)
            shift = number % len(order)   # rotate who goes first, pass by pass
            for command, impl, variant in order[shift:] + order[:shift]:
                records += runs_of(command, bench, variant, env)
        print(f"bench: LP_NUM_THREADS={threads if threads is not None else '(default)'} pass {number + 1}/{passes} done",
              flush=True)
    return records


def count_mallocs(commands, shim):
    env = dict(os.environ, **HEAP, LP_NUM_THREADS="0", LD_PRELOAD=shim)
    records = []
    for bench in ["B1", "B2"]:
        records += runs_of(commands["swiftgpu"], bench, env=env)
        records += runs_of(commands["vulkan-c"], bench, "push-descriptor" if bench == "B2" else None, env=env)
    return records


def validate(commands):
    env = dict(os.environ, LP_NUM_THREADS="0")
    for bench in ["B1", "B2", "B3", "B4"]:
        for impl in ["vulkan-c", "wgpu-native"]:
            variants = C_VARIANTS if bench == "B2" and impl == "vulkan-c" else [None]
            for variant in variants:
                arguments = commands[impl] + ["--bench", bench, "--validate"] + (["--variant", variant] if variant else [])
                run(arguments, env=env)
    return "VulkanBench and WGPUBench: B1–B4 (every B2 variant) under VK_LAYER_KHRONOS_validation, 0 messages"


# Instruction counts under callgrind: each case is profiled at two sizes and the
# difference divided by the extra work, so start-up and warm-up drop out. B1 counts the
# whole process (the completion thread is part of SwiftGPU's cost, lavapipe's queue thread
# part of everyone's); B2 counts the recording thread alone (its CPU time is the target).
# Each B2 run records its draws twice (warm-up and measured); each B1 run warms up with
# 1,000 buffers whatever the count.
PROFILES = {"B1": {"sizes": (1000, 4000), "per": 3000, "unit": "buffer", "threads": "whole process"},
            "B2": {"sizes": (2000, 12000), "per": 2 * 10000, "unit": "draw", "threads": "recording thread"}}


def count_instructions(commands):
    """Instructions per buffer (B1) and per draw (B2) from callgrind. Machine noise does not
    move these counts, which is why the B1 and B2 targets are judged on them too."""
    folder = os.path.join(DEPS, "callgrind")
    os.makedirs(folder, exist_ok=True)
    env = dict(os.environ, **HEAP, LP_NUM_THREADS="0")
    results = []
    for bench, profile in PROFILES.items():
        cases = [("swiftgpu", None), ("wgpu-native", None)]
        cases += [("vulkan-c", v) for v in C_VARIANTS] if bench == "B2" else [("vulkan-c", None)]
        for impl, variant in cases:
            command = list(commands[impl])
            # valgrind cannot read the DWARF 5 that clang and swiftc write: profile a copy
            # without debug information.
            stripped = os.path.join(folder, os.path.basename(command[0]))
            run(["objcopy", "--strip-debug", command[0], stripped])
            command[0] = stripped
            totals = []
            for size in profile["sizes"]:
                out = os.path.join(folder, f"{bench}-{impl}-{variant or 'default'}-{size}")
                for old in glob.glob(out + "*"):
                    os.remove(old)
                separate = "yes" if bench == "B2" else "no"
                arguments = ["valgrind", "--tool=callgrind", f"--separate-threads={separate}",
                             f"--callgrind-out-file={out}"]
                arguments += command + ["--bench", bench, "--count", str(size)] + (["--variant", variant] if variant else [])
                run(arguments, env=env)
                with open(out + ("-01" if bench == "B2" else "")) as data:
                    totals.append(next(int(line.split()[1]) for line in data if line.startswith("summary:")))
            per_unit = (totals[1] - totals[0]) / profile["per"]
            results.append({"impl": impl, "bench": bench, "variant": variant or "", "instructions_per_unit": per_unit,
                            "unit": profile["unit"], "threads": profile["threads"]})
            print(f"bench: callgrind {bench} {impl} {variant or ''}: {per_unit:.0f} instructions per {profile['unit']}",
                  flush=True)
    return results


def print_instructions(instructions):
    for bench, profile in PROFILES.items():
        rows = [r for r in instructions if r["bench"] == bench]
        floor = min(r["instructions_per_unit"] for r in rows if r["impl"] == "vulkan-c")
        print(f"\n{bench} instructions per {profile['unit']}, {profile['threads']} (callgrind, LP_NUM_THREADS=0)\n")
        print(f"| implementation | instructions per {profile['unit']} | ratio to raw C |")
        print("|---|---:|---:|")
        for r in rows:
            label = r["impl"] + (f" ({r['variant']})" if r["variant"] else "")
            print(f"| {label} | {r['instructions_per_unit']:.0f} | {r['instructions_per_unit'] / floor:.2f}× |")


def summarize(records):
    """Median, min, max and ratio to the cheapest raw C variant, per table row and implementation."""
    table = {}
    for record in records:
        for row, (metric, _, _) in METRICS.items():
            if record["bench"] != row.split()[0] or metric not in record:
                continue
            key = row + (f" N={record['variant']}" if row == "B4" else "")
            label = record["impl"] + (f" ({record['variant']})" if record["impl"] == "vulkan-c" and row.startswith("B2") else "")
            table.setdefault((row, key), {}).setdefault(label, []).append(record[metric])
    summary = {}
    for (row, key), labels in table.items():
        _, unit, higher_is_better = METRICS[row]
        sign = -1 if higher_is_better else 1
        floor_label = min((l for l in labels if l.startswith("vulkan-c")), key=lambda l: sign * statistics.median(labels[l]))
        floor = statistics.median(labels[floor_label])
        summary[key] = {}
        for label, values in labels.items():
            median = statistics.median(values)
            summary[key][label] = {"unit": unit, "median": median, "min": min(values), "max": max(values),
                                   "runs": len(values), "c_floor": floor_label,
                                   "ratio_to_c": floor / median if higher_is_better else median / floor}
    return summary


def print_table(title, summary):
    print(f"\n{title}\n")
    print("| benchmark | implementation | median | min–max | ratio to raw C |")
    print("|---|---|---:|---:|---:|")
    for key in sorted(summary, key=lambda k: (k.split()[0], len(k), k)):
        for label in sorted(summary[key], key=lambda l: (not l.startswith("swiftgpu"), l)):
            s = summary[key][label]
            print(f"| {key} ({s['unit']}) | {label} | {s['median']:.4g} | {s['min']:.4g}–{s['max']:.4g} | "
                  f"{s['ratio_to_c']:.2f}× |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 passes, LP_NUM_THREADS=0 only")
    parser.add_argument("--passes", type=int, help="passes per environment (default 5, 2 with --quick)")
    options = parser.parse_args()
    passes = options.passes or (2 if options.quick else 5)
    commands, shim = build()
    validation = validate(commands)
    print(f"bench: {validation}", flush=True)
    results = {"machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                           "kernel": platform.release(), "driver": os.environ.get("VK_DRIVER_FILES", "(loader default)"),
                           "heap": HEAP, "wgpu": WGPU_VERSION},
               "validation": validation, "environments": {}}
    for threads in [0] if options.quick else [0, None]:
        name = f"LP_NUM_THREADS={threads if threads is not None else '(default)'}"
        records = measure(commands, passes, threads)
        summary = summarize(records)
        results["environments"][name] = {"runs": records, "summary": summary}
        print_table(f"{name}, {passes} passes, implementations interleaved", summary)
    if not options.quick:
        instructions = count_instructions(commands)
        results["instructions"] = instructions
        print_instructions(instructions)
    mallocs = count_mallocs(commands, shim)
    results["mallocs"] = mallocs
    print("\nmalloc-family calls in the steady state (LD_PRELOAD shim; the driver's own calls included)\n")
    for record in mallocs:
        for metric in ["mallocs_per_buffer", "mallocs_per_draw"]:
            if metric in record:
                print(f"- {record['bench']} {record['impl']} {record['variant']}: {record[metric]:.3f} {metric.replace('_', ' ')}")
    with open(os.path.join(ROOT, "Benchmarks", "results.json"), "w") as out:
        json.dump(results, out, indent=1)
    print("\nbench: wrote Benchmarks/results.json")


if __name__ == "__main__":
    main()
