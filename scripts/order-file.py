"""Writes Deploy/SwiftGPU.order: the functions SwiftGPU's examples run, for lld's
--symbol-ordering-file, so that a static build keeps the code an app runs in few pages.

Each training example is built as an app ships it (release, the Swift runtime and
Foundation linked in, every function in a section of its own) and run once under
callgrind. A function is listed if it ran in the executable, the ones that ran in more
of the examples first (the code every SwiftGPU app runs), then in the order callgrind
first met them. The benchmark program is not among the examples. See GettingStarted's
"Shipping what you build" and decision 0076.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build-order")
OUTPUT = os.path.join(ROOT, "Deploy", "SwiftGPU.order")
# Headless examples and snippets, each run with no arguments but HeadlessTriangle's.
EXAMPLES = {
    "HeadlessTriangle": ["--width", "64", "--height", "64"],
    "ComputeAdd": [],
    "PortingMetalUIBasics": [],
    "PortingFromMetal": [],
    "GettingStartedTriangle": [],
    "GettingStartedCompute": [],
    "GoldenImage": [],
    "LifecycleGate": [],
}
BUILD = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", SCRATCH,
         "-Xswiftc", "-Xfrontend", "-Xswiftc", "-function-sections", "-Xcc", "-ffunction-sections",
         "-Xswiftc", "-Xclang-linker", "-Xswiftc", "-fuse-ld=lld"]


def text_symbols(binary):
    """The names of the functions defined in `binary`."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            names.add(parts[2])
    return names


def executed(profile):
    """The functions of a callgrind profile that ran instructions of their own, in the order
    the profile first names them."""
    names, order, cost = {}, [], collections.Counter()
    function, in_call = None, False

    def name(token):
        match = re.match(r"\((\d+)\)(?: (.*))?", token)
        if not match:
            return token
        if match.group(2) is not None:
            names[match.group(1)] = match.group(2)
        return names[match.group(1)]

    with open(profile) as lines:
        for line in lines:
            if line.startswith("fn="):
                function, in_call = name(line[3:].rstrip("\n")), False
                if function not in cost:
                    order.append(function)
                    cost[function] += 0
            elif line.startswith("cfn="):   # a callee named for the first time is named here
                name(line[4:].rstrip("\n"))
            elif line.startswith("calls="):
                in_call = True
            elif line[:1] in "0123456789+-*":
                if in_call:
                    in_call = False
                else:
                    fields = line.split()
                    if len(fields) > 1:
                        cost[function] += int(fields[1])
    return [n for n in order if cost[n] > 0]


def main():
    for product in EXAMPLES:
        subprocess.run(BUILD + ["--product", product], cwd=ROOT, check=True)
    binaries = subprocess.run(BUILD + ["--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    env = dict(os.environ, LP_NUM_THREADS="0")
    runs, first = collections.Counter(), {}
    with tempfile.TemporaryDirectory() as work:
        for product, arguments in EXAMPLES.items():
            binary = os.path.join(binaries, product)
            # Valgrind cannot read the DWARF 5 the toolchain writes: profile a copy without it,
            # beside the resource bundles.
            stripped = os.path.join(work, product)
            subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
            for bundle in os.listdir(binaries):
                if bundle.endswith(".resources") and not os.path.exists(os.path.join(work, bundle)):
                    os.symlink(os.path.join(binaries, bundle), os.path.join(work, bundle))
            profile = os.path.join(work, product + ".callgrind")
            extra = ["--output", os.path.join(work, "triangle.png")] if product == "HeadlessTriangle" else []
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                            stripped] + arguments + extra, cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            defined = text_symbols(stripped)
            ran = [n for n in executed(profile) if n in defined]
            for n in ran:
                runs[n] += 1
                first.setdefault(n, len(first))
            print(f"order-file: {product}: {len(ran)} functions", file=sys.stderr)
    order = sorted(runs, key=lambda n: (-runs[n], first[n]))
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w") as out:
        out.write("\n".join(order) + "\n")
    print(f"order-file: {len(order)} functions written to {os.path.relpath(OUTPUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
