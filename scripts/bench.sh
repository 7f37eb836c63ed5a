#!/usr/bin/env bash
# Runs Benchmarks B1–B4 for SwiftGPU, the raw Vulkan C baseline and wgpu-native, prints
# the table and writes Benchmarks/results.json. See BENCHMARKS.md.
#     ./scripts/bench.sh            # 5 interleaved passes, LP_NUM_THREADS=0 and the default,
#                                   # then B2's instructions per draw under callgrind
#     ./scripts/bench.sh --quick    # 2 passes, LP_NUM_THREADS=0 only, no callgrind
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh gcc python3 python3-pip valgrind binutils
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
exec python3 scripts/bench.py "$@"
