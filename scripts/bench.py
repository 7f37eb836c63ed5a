#!/usr/bin/env python3
"""Runs Benchmarks B1–B7 and the cost curves for SwiftGPU, raw Vulkan in C and wgpu-native.

Called by scripts/bench.sh (which installs the Debian packages and pins lavapipe). Builds
the three implementations, checks the baselines once under the validation layer, runs
every implementation in the same environment several times with the implementations
interleaved, and prints a table of medians (min–max, ratio to raw C). Every run checks its
own result and exits non-zero when it is wrong, which stops this script: a fast wrong run
never counts. Writes every figure to Benchmarks/results.json, each benchmark with the
commit it measured; `--only` replaces only the benchmarks it names there. `--report`
prints the tables from results.json and redraws Benchmarks/cost-curves.svg without
measuring.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_split  # noqa: E402  (beside this script)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPS = os.path.join(ROOT, "Benchmarks", ".deps")
RESULTS = os.path.join(ROOT, "Benchmarks", "results.json")
CURVES_SVG = os.path.join(ROOT, "Benchmarks", "cost-curves.svg")
STATIC_BUILD = os.path.join(ROOT, ".build-static")
# Benchmarks also run with SwiftGPUBench linked against a static Swift runtime
# (`swift build --static-swift-stdlib`): start-up and resident memory depend on it.
STATIC_BENCHES = {"B3", "B7"}
# The static build is built and linked as GettingStarted's "Shipping what you build" shows:
# with the toolchain's lld, relative relocations packed (DT_RELR: 2 MiB of relocation table
# that ld.so reads at start-up becomes 19 KiB), start-up, hot and unlikely code kept in
# sections of their own, each function in a section of its own, laid out in the order of
# Deploy/SwiftGPU.order (the functions SwiftGPU's examples run: scripts/order-file.sh), and
# no symbol table for the dynamic loader to search beyond what the C libraries need.
STATIC_LINK = ["-Xswiftc", "-Xfrontend", "-Xswiftc", "-function-sections", "-Xcc", "-ffunction-sections",
               "-Xswiftc", "-Xclang-linker", "-Xswiftc", "-fuse-ld=lld",
               "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
               "-Xlinker", "-z", "-Xlinker", "keep-text-section-prefix",
               "-Xlinker", "--symbol-ordering-file=" + os.path.join(ROOT, "Deploy", "SwiftGPU.order"),
               "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic"]
WGPU_VERSION = "0.32.0"
SHADERS = ["Shaders/increment.comp", "Shaders/bench.vert", "Shaders/bench.frag", "Shaders/textured.vert",
           "Shaders/textured.frag", "Benchmarks/Shaders/bench_push.frag", "Benchmarks/Shaders/indirect_args.comp"]
# Pinned glibc heap: lavapipe allocates per recorded command, and an adaptive heap alone
# swings results 2-4x.
HEAP = {"MALLOC_TRIM_THRESHOLD_": "268435456", "MALLOC_MMAP_THRESHOLD_": "268435456",
        "MALLOC_TOP_PAD_": "268435456"}
BENCHES = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]
SELECTABLE = BENCHES + ["curves"]
C_VARIANTS = ["push-descriptor", "dynamic-offset", "push-constant", "first-vertex"]
SWIFT_B2_VARIANTS = ["set-vertex-buffer", "set-vertex-buffer-untracked", "vertex-buffer-offset", "vertex-start"]
WGPU_B2_VARIANTS = ["dynamic-offset", "one-bind-group", "first-vertex", "immediates"]
# B2's formulations by the driver commands they record per draw: three (the vertex buffer
# rebound at the triangle's offset, the 16 bytes, the draw) or two (the vertex buffer bound
# once and each draw starting at its triangle's first vertex, or wgpu-native's one bind group
# carrying both changes; the 16 bytes and the draw). A B2 ratio is taken against the
# cheapest raw C variant that records as many.
B2_TWO_COMMAND_VARIANTS = {"swiftgpu": {"vertex-start"}, "wgpu-native": {"one-bind-group", "first-vertex", "immediates"},
                           "vulkan-c": {"first-vertex"}, "vulkan-c-glibc": {"first-vertex"}}
# The raw C baseline's command pools record into SwiftGPU's command-pool allocator
# (CCommandMemory, linked in), so that the floor pays what SwiftGPU pays for the driver's
# per-command allocations and a ratio is the API's own cost: "vulkan-c", every ratio's floor. "vulkan-c-glibc" is the
# same program recording into the driver's default allocator (glibc's malloc), an extra
# row, never a floor, for the benchmarks that record many commands.
GLIBC_BENCHES = {"B1", "B2", "B5", "B6"}
GLIBC_B2_VARIANTS = ["push-constant", "first-vertex"]
B5_THREADS = [1, 2, 4]
# Table rows: (benchmark, metric in the JSON line, unit, higher is better).
METRICS = {"B1": ("us_per_buffer", "µs per buffer", False), "B2": ("cpu_ns_per_draw", "CPU ns per draw", False),
           "B2 total": ("total_ms", "ms with GPU", False), "B3": ("fps", "frames/s", True),
           "B3 memory": ("peak_rss_mib", "peak RSS MiB", False), "B4": ("drain_ms", "ms", False),
           "B5": ("cpu_ms", "ms encoding + submit", False), "B5 total": ("total_ms", "ms with GPU", False),
           "B6": ("cpu_ns_per_draw", "CPU ns per draw", False), "B6 total": ("total_ms", "ms with GPU", False),
           "B7": ("first_frame_ms", "ms to first frame", False)}
# Rows whose variant is part of the row key (one floor per variant), not of the label.
KEYED_BY_VARIANT = {"B4", "B5", "B5 total", "B7"}
CURVE_SIZES = {"B1": [1000, 10000, 100000], "B2": [1000, 10000, 100000, 1000000]}
CURVE_METRIC = {"B1": ("us_per_buffer", "µs per buffer"), "B2": ("cpu_ns_per_draw", "CPU ns per draw")}


def run(command, env=None, capture=True):
    result = subprocess.run(command, cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE if capture else None)
    if result.returncode != 0:
        sys.stderr.write(f"bench: {' '.join(command)} failed with status {result.returncode}\n")
        if capture:
            sys.stderr.write(result.stdout + result.stderr)
        sys.exit(1)
    return result.stdout if capture else ""


def commit():
    """The commit measured, and whether the working tree differed from it."""
    head = run(["git", "rev-parse", "HEAD"]).strip()
    dirty = bool(run(["git", "status", "--porcelain", "--untracked-files=no"]).strip())
    return {"commit": head, "dirty": dirty, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


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
    print("bench: building spirv-stamp, SwiftGPUBench and VulkanBench (release)", flush=True)
    run(["swift", "build", "-c", "release", "--product", "spirv-stamp"], capture=False)
    binaries = run(["swift", "build", "-c", "release", "--show-bin-path"]).strip()
    # The benchmark's stamp key, in a source of its target (kept out of git): its stamps
    # count only under a key its executable holds, as an app's own.
    key_source = "Benchmarks/SwiftGPUBench/ShaderStampKey.swift"
    run([os.path.join(binaries, "spirv-stamp"), "key", key_source])
    for product in ["SwiftGPUBench", "VulkanBench"]:
        run(["swift", "build", "-c", "release", "--product", product], capture=False)
    # The shaders every implementation reads, compiled and stamped as the SPIRVCompiler
    # plugin compiles and stamps a target's shaders.
    spirv = os.path.join(DEPS, "spirv")
    os.makedirs(spirv, exist_ok=True)
    for shader in SHADERS:
        module = os.path.join(spirv, os.path.basename(shader) + ".spv")
        run(["glslc", "--target-env=vulkan1.2", "-O", shader, "-o", module])
        run([os.path.join(binaries, "spirv-stamp"), key_source, module, module + ".valid"])
    wgpu = fetch_wgpu()
    wgpu_bench = os.path.join(DEPS, "WGPUBench")
    run(["gcc", "-O2", "-std=gnu11", "-I", wgpu, "Benchmarks/WGPUBench/wgpu_bench.c", "-L", wgpu,
         "-l:libwgpu_native-release.so", f"-Wl,-rpath,{wgpu}", "-o", wgpu_bench])
    shim = os.path.join(DEPS, "libmalloccount.so")
    run(["gcc", "-O2", "-shared", "-fPIC", "Benchmarks/Support/malloc_count.c", "-o", shim])
    # SwiftPM links every executable with swiftc, which maps libswiftCore.so into the C
    # baseline (2 MiB resident, and its start-up). The baseline is SwiftPM's objects (the
    # same compiler and flags) linked as a C program.
    vulkan_c = os.path.join(DEPS, "VulkanBench")
    run(["gcc"] + sorted(glob.glob(os.path.join(binaries, "VulkanBench.build", "*.o")))
        + sorted(glob.glob(os.path.join(binaries, "CCommandMemory.build", "*.o")))
        + ["-lvulkan", "-lm", "-lpthread", "-o", vulkan_c])
    # SwiftGPU as an app is deployed on Linux: the Swift runtime linked in.
    print("bench: building SwiftGPUBench with --static-swift-stdlib (release)", flush=True)
    static = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", STATIC_BUILD] + STATIC_LINK
    run(static + ["--product", "SwiftGPUBench"], capture=False)
    static_binaries = run(static + ["--show-bin-path"]).strip()
    return {
        "swiftgpu": [os.path.join(binaries, "SwiftGPUBench"), "--spirv", spirv],
        "swiftgpu-static": [os.path.join(static_binaries, "SwiftGPUBench"), "--spirv", spirv],
        "vulkan-c": [vulkan_c, "--spirv", spirv],
        "vulkan-c-glibc": [vulkan_c, "--spirv", spirv, "--allocator", "glibc"],
        "wgpu-native": [wgpu_bench],
    }, shim


def jobs(bench):
    """The invocations of one benchmark: (implementation, variant, extra arguments)."""
    if bench == "B2":
        return ([("swiftgpu", v, ["--variant", v]) for v in SWIFT_B2_VARIANTS]
                + [("wgpu-native", v, ["--variant", v]) for v in WGPU_B2_VARIANTS]
                + [("vulkan-c", v, ["--variant", v]) for v in C_VARIANTS]
                + [("vulkan-c-glibc", v, ["--variant", v]) for v in GLIBC_B2_VARIANTS])
    if bench == "B5":
        return [(impl, str(t), ["--threads", str(t)]) for t in B5_THREADS
                for impl in ["swiftgpu", "vulkan-c", "vulkan-c-glibc", "wgpu-native"]]
    if bench == "B7":
        return [(impl, cache, []) for cache in ["cold", "warm"] for impl in implementations(bench)]
    if bench == "B6":
        # SwiftGPU checks indirect arguments on the GPU by default; Metal, wgpu-native's
        # native API and raw C do not: the unvalidated variant is the like-for-like row.
        return [(impl, "", []) for impl in implementations(bench)] + [("swiftgpu", "unvalidated", ["--variant", "unvalidated"])]
    return [(impl, "", []) for impl in implementations(bench)]


def implementations(bench):
    """The implementations a benchmark (other than B2 and B5) runs."""
    return (["swiftgpu"] + (["swiftgpu-static"] if bench in STATIC_BENCHES else []) + ["wgpu-native", "vulkan-c"]
            + (["vulkan-c-glibc"] if bench in GLIBC_BENCHES else []))


def runs_of(commands, impl, bench, extra, env, cache=None):
    """One invocation: the JSON lines it printed. B7 gets the clock reading taken just before
    the process starts, and its pipeline cache folder (Mesa's shader cache too)."""
    arguments = commands[impl] + ["--bench", bench] + extra
    if bench == "B3":
        evict(arguments[0])
    if bench == "B7":
        read_whole(arguments[0])
        env = dict(env, GPU_PIPELINE_CACHE_DIR=cache, MESA_SHADER_CACHE_DIR=cache)
        arguments += ["--cache", cache] if impl == "vulkan-c" else []
        arguments += ["--start", str(time.monotonic_ns())]
    records = [json.loads(line) for line in run(arguments, env=env).splitlines() if line.startswith("{")]
    for record in records:
        record["impl"] = impl   # the static build reports itself as "swiftgpu"
        if "--variant" in extra and not record.get("variant"):   # B6's unvalidated run does not name itself
            record["variant"] = extra[extra.index("--variant") + 1]
        if bench == "B7":   # a warm cache's folder is named so; a cold one is a fresh temporary folder
            record["variant"] = "warm" if cache.endswith("-warm") else "cold"
    return records


def evict(executable):
    """Drops `executable`'s pages from the page cache, so that a run maps only the pages its
    own faults read. A large executable's resident memory depends on what of it is cached:
    the kernel maps the cached pages around each fault, and a file read or copied whole is
    cached whole, in large folios (B3's static build then peaks 3 to 4 MiB higher)."""
    descriptor = os.open(executable, os.O_RDONLY)
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def read_whole(executable):
    """Reads `executable` into the page cache, so that B7 times a launch from the cache (as
    a program just built or run) and not whatever reads a B3 run before it left to do."""
    with open(executable, "rb") as file:
        while file.read(1 << 20):
            pass


def environment(threads):
    env = dict(os.environ, **HEAP)
    if threads is None:
        env.pop("LP_NUM_THREADS", None)
    else:
        env["LP_NUM_THREADS"] = str(threads)
    return env


def measure(commands, benches, passes, threads):
    env = environment(threads)
    records = []
    scratch = tempfile.mkdtemp(prefix="swiftgpu-bench-")
    if "B7" in benches:
        for impl in implementations("B7"):   # fill the warm caches
            os.makedirs(os.path.join(scratch, f"{impl}-warm"))
            runs_of(commands, impl, "B7", [], env, os.path.join(scratch, f"{impl}-warm"))
    for number in range(passes):
        for bench in benches:
            order = jobs(bench)
            shift = number % len(order)   # rotate who goes first, pass by pass
            for impl, variant, extra in order[shift:] + order[:shift]:
                cache = None
                if bench == "B7":
                    cache = os.path.join(scratch, f"{impl}-warm") if variant == "warm" else tempfile.mkdtemp(dir=scratch)
                records += runs_of(commands, impl, bench, extra, env, cache)
        print(f"bench: LP_NUM_THREADS={threads if threads is not None else '(default)'} pass {number + 1}/{passes} done",
              flush=True)
    shutil.rmtree(scratch)
    return records


def measure_curves(commands, passes):
    """B1 and B2 at each size of CURVE_SIZES (B2 in SwiftGPU's two formulations and C's
    cheapest variant), implementations interleaved, LP_NUM_THREADS=0."""
    env = environment(0)
    cases = {"B1": [("swiftgpu", []), ("wgpu-native", []), ("vulkan-c", [])],
             "B2": [("swiftgpu", ["--variant", v]) for v in SWIFT_B2_VARIANTS]
             + [("wgpu-native", []), ("vulkan-c", ["--variant", "push-constant"])]}
    records = []
    for number in range(passes):
        for bench, sizes in CURVE_SIZES.items():
            order = [(impl, extra, size) for size in sizes for impl, extra in cases[bench]]
            shift = number % len(order)
            for impl, extra, size in order[shift:] + order[:shift]:
                for record in runs_of(commands, impl, bench, extra + ["--count", str(size)], env):
                    record["size"] = size
                    if impl == "vulkan-c" and bench == "B2":
                        record["variant"] = "push-constant"
                    records.append(record)
        print(f"bench: cost curves pass {number + 1}/{passes} done", flush=True)
    return records


def summarize_curves(records):
    """Per implementation and size: median cost per unit, its min–max, and its ratio to the
    10,000 figure (the target: within 10%)."""
    table = {}
    for record in records:
        metric, unit = CURVE_METRIC[record["bench"]]
        label = record["impl"] + (f" ({record['variant']})" if record["variant"] else "")
        table.setdefault(record["bench"], {}).setdefault(label, {}).setdefault(record["size"], []).append(record[metric])
    summary = {}
    for bench, labels in table.items():
        summary[bench] = {}
        for label, sizes in labels.items():
            reference = statistics.median(sizes[10000]) if 10000 in sizes else None
            summary[bench][label] = {str(size): {"median": statistics.median(values), "min": min(values), "max": max(values),
                                                 "runs": len(values), "unit": CURVE_METRIC[bench][1],
                                                 "ratio_to_10000": statistics.median(values) / reference if reference else None}
                                     for size, values in sorted(sizes.items())}
    return summary


def count_mallocs(commands, shim):
    env = dict(environment(0), LD_PRELOAD=shim)
    records = []
    for bench in ["B1", "B2"]:
        records += runs_of(commands, "swiftgpu", bench, [], env)
        records += runs_of(commands, "vulkan-c", bench, ["--variant", "push-descriptor"] if bench == "B2" else [], env)
    return records


def validate(commands, benches):
    env = dict(os.environ, LP_NUM_THREADS="0")
    scratch = tempfile.mkdtemp(prefix="swiftgpu-bench-validate-")
    checked = []
    for bench in benches:
        for impl, variant, extra in jobs(bench):
            if impl.startswith("swiftgpu") or (bench == "B7" and variant == "warm"):
                continue
            arguments = ["--validate"] + extra
            arguments += ["--count", "2000"] if bench in ("B2", "B5") else []   # the layer costs ~50 µs a draw
            runs_of(commands, impl, bench, arguments, env, tempfile.mkdtemp(dir=scratch) if bench == "B7" else None)
            checked.append(f"{bench} {impl} {variant}".strip())
    shutil.rmtree(scratch)
    return f"under VK_LAYER_KHRONOS_validation, 0 messages: {', '.join(checked)}"


# Instruction counts under callgrind: each case is profiled at two sizes and the
# difference divided by the extra work, so start-up and warm-up drop out. B1 counts the
# whole process (the completion thread is part of SwiftGPU's cost, lavapipe's queue thread
# part of everyone's); B2 and B6 count the recording thread alone (its CPU time is the target);
# B5 the recording threads together (the calling thread and the threads it starts, not the
# driver's queue thread or SwiftGPU's completion thread). Each B2, B5 and B6 run records its
# draws twice (warm-up and measured); each B1 run warms up with 1,000 buffers whatever the
# count.
PROFILES = {"B1": {"sizes": (1000, 4000), "per": 3000, "unit": "buffer", "threads": "whole process"},
            "B2": {"sizes": (2000, 12000), "per": 2 * 10000, "unit": "draw", "threads": "recording thread"},
            "B5": {"sizes": (4000, 24000), "per": 2 * 20000, "unit": "draw", "threads": "recording threads"},
            "B6": {"sizes": (2000, 6000), "per": 2 * 4000, "unit": "draw", "threads": "recording thread"}}
# A function only the recording threads run, to tell them from the others in B5's profiles.
RECORDING_FUNCTION = {"swiftgpu": "RenderCommandEncoderC14drawPrimitives", "vulkan-c": "recordShare", "vulkan-c-glibc": "recordShare",
                      "wgpu-native": "wgpuRenderBundleEncoderDraw"}


def profile_cases(bench):
    if bench == "B1":
        return [("swiftgpu", "", []), ("wgpu-native", "", []), ("vulkan-c", "", []), ("vulkan-c-glibc", "", [])]
    return jobs(bench)


def thread_total(path):
    with open(path) as data:
        return next(int(line.split()[1]) for line in data if line.startswith("summary:"))


def recording_files(out, impl):
    """B5: the profiles of the threads that ran the recording function."""
    files = []
    for path in sorted(glob.glob(out + "-*")):
        with open(path, errors="replace") as data:
            if RECORDING_FUNCTION[impl] in data.read():
                files.append(path)
    return files


def counted_files(out, bench, impl):
    """The profiles whose instructions count: the whole process (B1), the recording threads
    (B5) or the one recording thread (B2, B6)."""
    return [out] if bench == "B1" else recording_files(out, impl) if bench == "B5" else [out + "-01"]


def warm_up(command, bench, extra, env):
    """One short run under callgrind before the profiled ones, so that each of those finds
    the shader caches filled: the first run after a change to the shaders compiles its
    pipelines (about 40 M instructions), which would land on the smaller size alone. The
    warm-up runs under callgrind itself: a native one did not fill the caches a run under
    valgrind reads (with the caches emptied, the first profiled run still compiled, and B1
    read about 113 K instructions per buffer instead of 127 K)."""
    run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
        + ["--bench", bench, "--count", "100"] + extra, env=env)


def profiled_copy(executable, folder):
    """A copy of `executable` in `folder` to run under callgrind: valgrind cannot read the
    DWARF 5 that clang and swiftc write, so the copy has no debug information. The resource
    bundles SwiftPM placed beside the executable are linked beside the copy, where
    `makeDefaultLibrary()` looks for the shaders."""
    stripped = os.path.join(folder, os.path.basename(executable))
    run(["objcopy", "--strip-debug", executable, stripped])
    for bundle in glob.glob(os.path.join(os.path.dirname(executable), "*.resources")):
        link = os.path.join(folder, os.path.basename(bundle))
        if os.path.islink(link):
            os.remove(link)
        os.symlink(bundle, link)
    return stripped


def count_instructions(commands, benches):
    """Instructions per buffer (B1) and per draw (B2, B5, B6) from callgrind. Machine noise does
    not move these counts, which is why the B1, B2 and B5 targets are judged on them too."""
    folder = os.path.join(DEPS, "callgrind")
    os.makedirs(folder, exist_ok=True)
    env = environment(0)
    results = []
    for bench in [b for b in PROFILES if b in benches]:
        profile = PROFILES[bench]
        for impl, variant, extra in profile_cases(bench):
            command = list(commands[impl])
            command[0] = profiled_copy(command[0], folder)
            warm_up(command, bench, extra, env)
            totals, files = [], []
            for size in profile["sizes"]:
                out = os.path.join(folder, f"{bench}-{impl}-{variant or 'default'}-{size}")
                for old in glob.glob(out + "*"):
                    os.remove(old)
                separate = "no" if bench == "B1" else "yes"
                arguments = ["valgrind", "--tool=callgrind", f"--separate-threads={separate}",
                             f"--callgrind-out-file={out}"]
                run(arguments + command + ["--bench", bench, "--count", str(size)] + extra, env=env)
                files.append(counted_files(out, bench, impl))
                totals.append(sum(thread_total(path) for path in files[-1]))
            per_unit = (totals[1] - totals[0]) / profile["per"]
            # Who spent them: the API's own code, the driver, the command allocator (see
            # scripts/callgrind_split.py), so that SwiftGPU's own cost does not hide in
            # lavapipe's recording cost.
            parts, own_top = callgrind_split.split(files[0], files[1], profile["per"])
            results.append({"impl": impl, "bench": bench, "variant": variant, "instructions_per_unit": per_unit,
                            "unit": profile["unit"], "threads": profile["threads"], "parts": parts, "own_top": own_top})
            print(f"bench: callgrind {bench} {impl} {variant}: {per_unit:.0f} instructions per {profile['unit']}", flush=True)
    return results


def row_key(record, row):
    return row + (f" {record['variant']}" if row in KEYED_BY_VARIANT and record["variant"] else "")


def label_of(record, row):
    if row in KEYED_BY_VARIANT or not record["variant"]:
        return record["impl"]
    return f"{record['impl']} ({record['variant']})"


def b2_commands(label):
    """Driver commands per draw of a B2 row's label, "impl (variant)"."""
    impl, _, variant = label.partition(" (")
    return 2 if variant.rstrip(")") in B2_TWO_COMMAND_VARIANTS.get(impl, set()) else 3


def summarize(records):
    """Median, min, max and ratio to the cheapest raw C variant (for B2, of those recording as
    many driver commands per draw), per table row and implementation."""
    table = {}
    for record in records:
        for row, (metric, _, _) in METRICS.items():
            if record["bench"] != row.split()[0] or metric not in record:
                continue
            table.setdefault((row, row_key(record, row)), {}).setdefault(label_of(record, row), []).append(record[metric])
    summary = {}
    for (row, key), labels in table.items():
        _, unit, higher_is_better = METRICS[row]
        sign = -1 if higher_is_better else 1
        def floor_of(label):
            floors = [l for l in labels if l.split(" (")[0] == "vulkan-c"
                      and (row.split()[0] != "B2" or b2_commands(l) == b2_commands(label))]
            return min(floors, key=lambda l: sign * statistics.median(labels[l])) if floors else None
        summary[key] = {}
        for label, values in labels.items():
            floor_label = floor_of(label)
            floor = statistics.median(labels[floor_label]) if floor_label else None
            median = statistics.median(values)
            ratio = None if floor is None else floor / median if higher_is_better else median / floor
            summary[key][label] = {"unit": unit, "median": median, "min": min(values), "max": max(values),
                                   "runs": len(values), "c_floor": floor_label, "ratio_to_c": ratio}
    return summary


def speedups(summary):
    """B5: each implementation's median wall time at one thread over that at T threads."""
    result = {}
    for threads in B5_THREADS:
        key = f"B5 {threads}"
        for label, row in summary.get(key, {}).items():
            one = summary.get("B5 1", {}).get(label)
            if one:
                result.setdefault(label, {})[str(threads)] = one["median"] / row["median"]
    return result


def print_table(title, summary):
    print(f"\n{title}\n")
    print("| benchmark | implementation | median | min–max | ratio to raw C |")
    print("|---|---|---:|---:|---:|")
    for key in sorted(summary, key=lambda k: (k.split()[0], len(k), k)):
        for label in sorted(summary[key], key=lambda l: (not l.startswith("swiftgpu"), l)):
            s = summary[key][label]
            ratio = f"{s['ratio_to_c']:.2f}×" if s["ratio_to_c"] is not None else "—"
            print(f"| {key} ({s['unit']}) | {label} | {s['median']:.4g} | {s['min']:.4g}–{s['max']:.4g} | {ratio} |")


def print_instructions(instructions):
    for bench, profile in PROFILES.items():
        rows = [r for r in instructions if r["bench"] == bench]
        if not rows:
            continue
        print(f"\n{bench} instructions per {profile['unit']}, {profile['threads']} (callgrind, LP_NUM_THREADS=0)\n")
        print(f"| implementation | instructions per {profile['unit']} | ratio to raw C | own | driver | allocator |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            label = r["impl"] + (f" ({r['variant']}{' threads' if bench == 'B5' else ''})" if r["variant"] else "")
            if bench == "B5":
                same = [c for c in rows if c["impl"] == "vulkan-c" and c["variant"] == r["variant"]]
            else:
                same = [c for c in rows if c["impl"] == "vulkan-c" and (bench != "B2" or b2_commands(
                    f"{c['impl']} ({c['variant']})") == b2_commands(f"{r['impl']} ({r['variant']})"))]
            reference = min(c["instructions_per_unit"] for c in same)
            parts = r.get("parts", {})
            cells = " | ".join(f"{parts[p]:.0f}" if p in parts else "—" for p in ["own", "driver", "allocator"])
            print(f"| {label} | {r['instructions_per_unit']:.0f} | {r['instructions_per_unit'] / reference:.2f}× | {cells} |")


def print_curves(curves, how):
    for bench, labels in curves.items():
        unit = next(iter(next(iter(labels.values())).values()))["unit"]
        print(f"\n{bench} cost curve ({how}{unit}, LP_NUM_THREADS=0; ratio to the 10,000 figure)\n")
        sizes = CURVE_SIZES[bench]
        print("| implementation | " + " | ".join(f"{s:,}" for s in sizes) + " |")
        print("|---|" + "---:|" * len(sizes))
        for label, points in labels.items():
            cells = []
            for size in sizes:
                p = points.get(str(size))
                cells.append(f"{p['median']:.4g} ({p['min']:.4g}–{p['max']:.4g}) {p['ratio_to_10000']:.2f}×" if p else "—")
            print(f"| {label} | " + " | ".join(cells) + " |")


COLORS = {"swiftgpu": "#d0431f", "vulkan-c": "#1f5fd0", "wgpu-native": "#2a9d3c"}


def draw_curves(panels, path):
    """An SVG of cost curves: each panel (title, {label: {size: point}}, unit, sizes) plots
    each label's cost per unit as its ratio to the 10,000 figure against size (log scale),
    over the ±10% band of the target; two panels a row."""
    import math
    width, height, margin, gap, legend = 440, 260, 55, 30, 80
    columns = 2
    rows = (len(panels) + columns - 1) // columns
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{columns * (width + gap) + gap}" '
             f'height="{rows * (height + legend)}" font-family="sans-serif" font-size="12">',
             '<rect width="100%" height="100%" fill="white"/>']
    values = [p["ratio_to_10000"] for _, curves, _, _ in panels for points in curves.values() for p in points.values()]
    low, high = min(0.8, min(values) - 0.05), max(1.2, max(values) + 0.05)
    for index, (title, curves, unit, sizes) in enumerate(panels):
        left = gap + (index % columns) * (width + gap) + margin
        top = (index // columns) * (height + legend) + 40
        plot_width, plot_height = width - margin - 10, height - 90

        def x(size, sizes=sizes, left=left, plot_width=plot_width):
            lo, hi = math.log10(sizes[0]), math.log10(sizes[-1])
            return left + (math.log10(size) - lo) / (hi - lo) * plot_width

        def y(ratio, top=top, plot_height=plot_height):
            return top + (high - ratio) / (high - low) * plot_height

        parts.append(f'<text x="{left}" y="{top - 15}" font-size="13" font-weight="bold">{title}</text>')
        parts.append(f'<rect x="{left}" y="{y(1.1):.1f}" width="{plot_width}" height="{y(0.9) - y(1.1):.1f}" fill="#eeeeee"/>')
        parts.append(f'<rect x="{left}" y="{top}" width="{plot_width}" height="{plot_height}" fill="none" stroke="#888"/>')
        tick = math.ceil(low * 10) / 10
        while tick <= high + 1e-9:
            parts.append(f'<line x1="{left - 4}" x2="{left}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#888"/>')
            parts.append(f'<text x="{left - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.1f}×</text>')
            tick += 0.1
        for size in sizes:
            parts.append(f'<text x="{x(size):.1f}" y="{top + plot_height + 16}" text-anchor="middle">{size:,}</text>')
        for row, (label, points) in enumerate(sorted(curves.items())):
            color = COLORS[label.split()[0]]
            dash = ' stroke-dasharray="5,3"' if "offset" in label and "dynamic" not in label else ""
            ordered = sorted(points.items(), key=lambda item: int(item[0]))
            coordinates = [(x(int(size)), y(p["ratio_to_10000"])) for size, p in ordered]
            parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2"{dash} points="'
                         + " ".join(f"{a:.1f},{b:.1f}" for a, b in coordinates) + '"/>')
            for (a, b), (size, p) in zip(coordinates, ordered):
                parts.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{color}">'
                             f'<title>{label} {int(size):,}: {p["median"]:.4g} {unit}</title></circle>')
            legend_y = top + plot_height + 34 + row * 15
            parts.append(f'<line x1="{left}" x2="{left + 20}" y1="{legend_y - 4}" y2="{legend_y - 4}" stroke="{color}" '
                         f'stroke-width="2"{dash}/>')
            parts.append(f'<text x="{left + 26}" y="{legend_y}">{label}: {points["10000"]["median"]:.4g} {unit} at 10,000</text>')
    parts.append("</svg>")
    with open(path, "w") as out:
        out.write("\n".join(parts) + "\n")


# Instruction-count curves: at each size N, the instructions of a run of N units minus
# those of a run of CURVE_BASE units, over the units between (B2 records its draws twice).
# The average cost of the units from CURVE_BASE to N does not depend on the machine's load.
# B2 stops at 100,000 draws there: callgrind runs the driver's rasterizer too, and a run of
# 1,000,000 draws (recorded and drawn twice) takes over half an hour per implementation.
CURVE_BASE = 500
CALLGRIND_CURVE_SIZES = {"B1": CURVE_SIZES["B1"], "B2": [1000, 10000, 100000]}


def count_curve_instructions(commands):
    folder = os.path.join(DEPS, "callgrind")
    os.makedirs(folder, exist_ok=True)
    env = environment(0)
    cases = {"B1": [("swiftgpu", []), ("vulkan-c", [])],
             "B2": [("swiftgpu", ["--variant", v]) for v in SWIFT_B2_VARIANTS] + [("vulkan-c", ["--variant", "push-constant"])]}
    summary = {}
    for bench, sizes in CALLGRIND_CURVE_SIZES.items():
        for impl, extra in cases[bench]:
            command = list(commands[impl])
            command[0] = profiled_copy(command[0], folder)
            warm_up(command, bench, extra, env)
            totals = {}
            for size in [CURVE_BASE] + sizes:
                out = os.path.join(folder, f"curve-{bench}-{impl}-{extra[-1] if extra else 'default'}-{size}")
                for old in glob.glob(out + "*"):
                    os.remove(old)
                separate = "no" if bench == "B1" else "yes"
                run(["valgrind", "--tool=callgrind", f"--separate-threads={separate}", f"--callgrind-out-file={out}"]
                    + command + ["--bench", bench, "--count", str(size)] + extra, env=env)
                totals[size] = thread_total(out) if bench == "B1" else thread_total(out + "-01")
            repeats = 2 if bench == "B2" else 1
            per_unit = {size: (totals[size] - totals[CURVE_BASE]) / (repeats * (size - CURVE_BASE)) for size in sizes}
            label = impl + (f" ({extra[-1]})" if extra else "")
            summary.setdefault(bench, {})[label] = {
                str(size): {"median": value, "min": value, "max": value, "runs": 1, "unit": f"instructions per {PROFILES[bench]['unit']}",
                            "ratio_to_10000": value / per_unit[10000]} for size, value in per_unit.items()}
            print(f"bench: callgrind curve {bench} {label}: " + ", ".join(f"{s:,} {v:.0f}" for s, v in per_unit.items()), flush=True)
    return summary


def load_results():
    if os.path.exists(RESULTS):
        with open(RESULTS) as data:
            results = json.load(data)
        if "benchmarks" in results:
            return results
    return {"benchmarks": {}}


def report(results):
    for name, environment_summary in sorted(results.get("tables", {}).items()):
        print_table(f"{name}, medians of interleaved passes", environment_summary)
    for name in ["B5"]:
        summary = results.get("tables", {}).get("LP_NUM_THREADS=0", {})
        if any(k.startswith(name) for k in summary):
            print("\nB5 speed-up over one thread (median wall time of encoding + submit at 1 thread / at T)\n")
            for label, values in speedups(summary).items():
                print(f"- {label}: " + ", ".join(f"{t} threads {v:.2f}×" for t, v in values.items()))
    # The curves' entry keeps its instruction counts by benchmark, drawn below.
    instructions = [row for name, entry in results["benchmarks"].items() if name != "curves"
                    for row in entry.get("instructions", [])]
    if instructions:
        print_instructions(instructions)
    entry = results["benchmarks"].get("curves", {})
    panels = []
    for name, unit_of in [("instructions", lambda b: f"instructions per {PROFILES[b]['unit']}"),
                          ("summary", lambda b: CURVE_METRIC[b][1])]:
        curves = entry.get(name)
        if not curves:
            continue
        print_curves(curves, "callgrind, " if name == "instructions" else "wall clock, ")
        how = "instructions (callgrind)" if name == "instructions" else "wall clock (medians)"
        panels += [(f"{bench}: {unit_of(bench)}, {how}", curves[bench], unit_of(bench), CURVE_SIZES[bench])
                   for bench in CURVE_SIZES if bench in curves]
    if panels:
        draw_curves(panels, CURVES_SVG)
        print(f"\nbench: drew {os.path.relpath(CURVES_SVG, ROOT)}")
    mallocs = results.get("mallocs", {}).get("runs", [])
    if mallocs:
        print("\nmalloc-family calls in the steady state (LD_PRELOAD shim; the driver's own calls included)\n")
        for record in mallocs:
            for metric in ["mallocs_per_buffer", "mallocs_per_draw"]:
                if metric in record:
                    print(f"- {record['bench']} {record['impl']} {record['variant']}: {record[metric]:.3f} {metric.replace('_', ' ')}")
    for name, entry in sorted(results["benchmarks"].items()):
        print(f"- {name}: commit {entry['commit'][:10]}{' (with uncommitted changes)' if entry['dirty'] else ''}, {entry['date']}")


def tables(results):
    """Each environment's summary over the runs of every benchmark in results.json."""
    summaries = {}
    names = {name for entry in results["benchmarks"].values() for name in entry.get("environments", {})}
    for name in names:
        records = [r for entry in results["benchmarks"].values() for r in entry.get("environments", {}).get(name, [])]
        summaries[name] = summarize(records)
    return summaries


def save(results):
    results["tables"] = tables(results)
    with open(RESULTS, "w") as out:
        json.dump(results, out, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 passes, LP_NUM_THREADS=0 only, no callgrind")
    parser.add_argument("--passes", type=int, help="passes per environment (default 5, 2 with --quick)")
    parser.add_argument("--only", help="comma-separated benchmarks to run: " + ",".join(SELECTABLE))
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    parser.add_argument("--callgrind-only", action="store_true",
                        help="only the instruction counts; the wall-clock figures in results.json stay")
    parser.add_argument("--report", action="store_true", help="print results.json's tables and redraw the curves; measure nothing")
    options = parser.parse_args()
    results = load_results()
    if options.report:
        results["tables"] = tables(results)
        report(results)
        return
    selected = options.only.split(",") if options.only else SELECTABLE
    unknown = [b for b in selected if b not in SELECTABLE]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(SELECTABLE)}")
    benches = [b for b in BENCHES if b in selected]
    passes = options.passes or (2 if options.quick else 5)
    commands, shim = build()
    measured = commit()
    results["machine"] = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                          "kernel": platform.release(), "driver": os.environ.get("VK_DRIVER_FILES", "(loader default)"),
                          "heap": HEAP, "wgpu": WGPU_VERSION}
    # Each phase is saved as it ends, so that a long callgrind phase cut short keeps the rest.
    if not options.callgrind_only:
        validation = validate(commands, benches)
        print(f"bench: {validation}", flush=True)
        entries = {bench: dict(measured, validation=validation, environments={}) for bench in benches}
        for threads in [0] if options.quick else [0, None]:
            name = f"LP_NUM_THREADS={threads if threads is not None else '(default)'}"
            records = measure(commands, benches, passes, threads)
            for bench in benches:
                entries[bench]["environments"][name] = [r for r in records if r["bench"] == bench]
        if "curves" in selected:
            records = measure_curves(commands, min(passes, 3))
            entries["curves"] = dict(measured, runs=records, summary=summarize_curves(records))
        if "B1" in benches or "B2" in benches:
            results["mallocs"] = dict(measured, runs=count_mallocs(commands, shim))
        results["benchmarks"].update(entries)
        save(results)
    if not options.quick and not options.no_callgrind:
        rows = count_instructions(commands, benches)
        for bench in {row["bench"] for row in rows}:
            entry = results["benchmarks"].setdefault(bench, dict(measured))
            entry["instructions"] = [row for row in rows if row["bench"] == bench]
            entry["instructions_commit"] = measured
        save(results)
        if "curves" in selected:
            entry = results["benchmarks"].setdefault("curves", dict(measured))
            entry["instructions"] = count_curve_instructions(commands)
            entry["instructions_commit"] = measured
            save(results)
    report(results)
    print("\nbench: wrote Benchmarks/results.json")


if __name__ == "__main__":
    main()
