#!/usr/bin/env python3
"""The seam between SwiftGPU's front end and its Vulkan backend, counted.

Three rules, each a count that may only go down (the ceilings are in
scripts/boundary-limits; lower them as the seam is finished, never raise them):

  vulkan-outside   front-end files of Sources/GPU (outside Vulkan/) that name a backend
                   type outside the backend interface: a `Vulkan…` type (the public values
                   `VulkanHandles` and `VulkanError` aside), or a type the backend declares
                   that docs/ARCHITECTURE.md's "The backend interface" table does not list
  frontend-inside  backend files (Sources/GPU/Vulkan/) that name a front-end class
  typed-calls      API call names typed by hand as string literals in Sources/GPU
                   ("popDebugGroup()"), where #function names the call

Comments and string literals are ignored by the first two. Prints the counts; exits 1,
naming the files, when a count is above its ceiling.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
GPU = os.path.join(ROOT, "Sources", "GPU")
BACKEND = os.path.join(GPU, "Vulkan")
# Public values of the interop door: the handles a host is given and the error a failed
# Vulkan call is reported with (`GPUError.vulkan`).
ALLOWED_VULKAN_NAMES = {"VulkanHandles", "VulkanError"}


def swift_files(folder):
    for base, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def code_of(path):
    """The file's text without comments and string literals."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", "", text)
    return re.sub(r"//[^\n]*", "", text)


def relative(path):
    return os.path.relpath(path, ROOT)


def interface_types():
    """The type names in the first column of ARCHITECTURE.md's backend-interface table."""
    text = open(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
    section = text.split("### The backend interface", 1)[1].split("\n#", 1)[0]
    names = set()
    for row in section.splitlines():
        if row.startswith("|") and not row.startswith("|---"):
            names.update(re.findall(r"`([A-Z]\w*)`", row.split("|")[1]))
    if not names:
        sys.exit("check-boundary: docs/ARCHITECTURE.md has no backend-interface table")
    return names


def main():
    front = [p for p in swift_files(GPU) if not p.startswith(BACKEND + os.sep)]
    back = list(swift_files(BACKEND))
    interface = interface_types()
    internal = set()
    for path in back:
        internal.update(re.findall(r"^(?:public |package |private |fileprivate )?(?:final )?"
                                   r"(?:class|struct|enum|protocol|typealias) ([A-Z]\w*)", code_of(path), re.M))
    internal -= interface | ALLOWED_VULKAN_NAMES
    classes = set()
    for path in front:
        classes.update(re.findall(r"^\s*(?:public |package |private |fileprivate )?(?:final )?class ([A-Z]\w*)",
                                  code_of(path), re.M))
    found = {"vulkan-outside": [], "frontend-inside": [], "typed-calls": []}
    for path in front:
        code = code_of(path)
        names = (set(re.findall(r"\bVulkan[A-Z]\w*", code)) | (set(re.findall(r"\b[A-Z]\w*\b", code)) & internal)) \
            - ALLOWED_VULKAN_NAMES - interface
        if names:
            found["vulkan-outside"].append(f"{relative(path)}: {', '.join(sorted(names))}")
    for path in back:
        words = set(re.findall(r"\b[A-Z]\w*\b", code_of(path))) & classes
        if words:
            found["frontend-inside"].append(f"{relative(path)}: {', '.join(sorted(words))}")
    for path in front + back:
        text = open(path, encoding="utf-8").read()
        for literal in re.findall(r'"([a-z]\w*\((?:\w*:)*\))', text):
            found["typed-calls"].append(f"{relative(path)}: {literal}")
    limits = {}
    with open(os.path.join(ROOT, "scripts", "boundary-limits")) as data:
        for line in data:
            line = line.split("#")[0].strip()
            if line:
                name, value = line.split()
                limits[name] = int(value)
    failed = False
    for rule, items in found.items():
        print(f"check-boundary: {rule}: {len(items)} (ceiling {limits[rule]})")
        if len(items) > limits[rule]:
            failed = True
            print(f"check-boundary: {rule} rose above its ceiling:", file=sys.stderr)
            for item in items:
                print(f"  {item}", file=sys.stderr)
    if "--list" in sys.argv:
        for rule, items in found.items():
            print(f"\n{rule}:")
            for item in items:
                print(f"  {item}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
