#!/usr/bin/env bash
# Runs Benchmarks/PresentBench under a private Xvfb: frames per second per present mode on
# an xcb window, and frame-start-to-display latency on a virtual display.
#     scripts/present-bench.sh [--frames 300] [--size 256]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
pin_lavapipe
swift build -c release --product PresentBench >/dev/null
start_xvfb 640x480
.build/release/PresentBench "$@"
