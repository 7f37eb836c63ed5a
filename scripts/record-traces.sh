#!/usr/bin/env bash
# Runs Benchmarks/TraceRecorder under a private Xvfb: injects the prediction corpus's
# recorded strokes with XTest at 60, 120 and 240 Hz, receives them as XInput 2 samples, and
# writes Benchmarks/PredictionCorpus/RecordedTraces.swift.
#     scripts/record-traces.sh [--output PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
source scripts/env.sh
swift build -c release --product TraceRecorder >/dev/null
start_xvfb 1600x1200
.build/release/TraceRecorder "$@"
