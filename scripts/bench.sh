#!/usr/bin/env bash
# Runs Benchmarks B1–B7 and the cost curves for SwiftGPU, the raw Vulkan C baseline and
# wgpu-native, prints the tables and writes Benchmarks/results.json (each benchmark with
# the commit it measured) and Benchmarks/cost-curves.svg. See BENCHMARKS.md.
#     ./scripts/bench.sh                  # 5 interleaved passes, LP_NUM_THREADS=0 and the default,
#                                         # then B1's, B2's and B5's instructions under callgrind
#     ./scripts/bench.sh --quick          # 2 passes, LP_NUM_THREADS=0 only, no callgrind
#     ./scripts/bench.sh --only B5,B7     # only these (B1…B7, curves); the others stay in results.json
#     ./scripts/bench.sh --report         # the tables and the curves' SVG from results.json, measuring nothing
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh gcc python3 python3-pip valgrind binutils
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
exec python3 scripts/bench.py "$@"
