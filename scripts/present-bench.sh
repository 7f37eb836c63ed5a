#!/usr/bin/env bash
# Runs Benchmarks/PresentBench under a private Xvfb: frames per second per present mode on
# an xcb window, and frame-start-to-display latency on a virtual display.
#     scripts/present-bench.sh [--frames 300] [--size 256]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
pin_lavapipe
swift build -c release --product PresentBench >/dev/null
exec 3< <(Xvfb -displayfd 1 -screen 0 640x480x24 -nolisten tcp 2>/dev/null & echo "pid $!")
# Two lines in either order: "pid N" from the shell, the display number from Xvfb once ready.
for _ in 1 2; do
    read -r first second <&3
    if [ "$first" = pid ]; then pid=$second; else number=$first; fi
done
trap 'kill "$pid"' EXIT
DISPLAY=":$number" .build/release/PresentBench "$@"
