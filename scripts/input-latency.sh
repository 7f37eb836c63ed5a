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
start_xvfb 800x600
.build/release/InputLatencyBench "$@"
