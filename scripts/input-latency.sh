#!/usr/bin/env bash
# Runs Benchmarks/InputLatency under a private Xvfb: input-to-photon latency (XTest pointer
# motion to the presented frame that first shows it) for FIFO, mailbox and low-latency mode,
# with and without prediction.
#     scripts/input-latency.sh [--sweeps 4] [--only NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
source scripts/env.sh
pin_lavapipe
swift build -c release --product InputLatencyBench >/dev/null
exec 3< <(Xvfb -displayfd 1 -screen 0 800x600x24 -nolisten tcp 2>/dev/null & echo "pid $!")
# Two lines in either order: "pid N" from the shell, the display number from Xvfb once ready.
for _ in 1 2; do
    read -r first second <&3
    if [ "$first" = pid ]; then pid=$second; else number=$first; fi
done
trap 'kill "$pid"' EXIT
DISPLAY=":$number" .build/release/InputLatencyBench "$@"
