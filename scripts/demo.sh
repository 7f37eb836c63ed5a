#!/usr/bin/env bash
# Builds and runs SwiftGPU's examples in release mode, on the machine's default Vulkan
# device (GPU_DEVICE=<index|name substring> picks another). Exits non-zero if any fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The examples, run in this order.
examples=(ComputeAdd HeadlessTriangle BackgroundSafeRendering PacedFrames)

./scripts/install-deps.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

for example in "${examples[@]}"; do
    swift build -c release --product "$example"
done

failed=()
for example in "${examples[@]}"; do
    echo "== $example =="
    arguments=()
    [ "$example" = HeadlessTriangle ] && arguments=(--output "${TMPDIR:-/tmp}/swiftgpu-triangle.png")
    if ! ".build/release/$example" "${arguments[@]}"; then
        failed+=("$example")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "demo: failed: ${failed[*]}" >&2
    exit 1
fi
