#!/usr/bin/env bash
# The Vulkan boundary: only the backend (Sources/GPU/Vulkan/) knows Vulkan. Window
# adapters that must name a window system's types through CVulkan's submodules
# (Sources/GPUXCB/) are the one other place allowed to import it. Exits non-zero, naming
# the files, when any other source file imports CVulkan; then scripts/boundary.py counts
# the seam between the front end and the backend (front-end files naming backend types,
# backend files naming front-end classes, call names typed by hand) and fails when a count
# rises above its ceiling in scripts/boundary-limits.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

offenders=$(grep -rlE --include='*.swift' '^[[:space:]]*(@[a-zA-Z_]+[[:space:]]+)*import[[:space:]]+CVulkan' Sources \
    | grep -vE '^Sources/(GPU/Vulkan|GPUXCB)/' || true)
if [ -n "$offenders" ]; then
    echo "check-boundary: these files import CVulkan outside Sources/GPU/Vulkan/:" >&2
    echo "$offenders" >&2
    exit 1
fi
echo "check-boundary: only Sources/GPU/Vulkan/ (and the xcb adapter) import CVulkan"
python3 scripts/boundary.py
