#!/usr/bin/env bash
# Measures what a Qt Quick frame costs per frame under a private Xvfb (QT_QPA_PLATFORM=xcb):
# EmbedInQtQuick's route's work (from the end of SwiftGPU's encoding to the end of Qt's frame:
# commit, waiting to see it scheduled, Qt's synchronisation, rendering, submission and
# present) and the interval between Qt's frames; at 512×512 and 1920×1080, 240 frames each,
# on the release build.
#     scripts/qt-quick-cost.sh [--frames 240]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
source scripts/env.sh
pin_lavapipe
frames=240
if [ "${1:-}" = --frames ]; then frames=$2; fi
swift build -c release --product EmbedInQtQuick >/dev/null
start_xvfb 2560x1600
export QT_QPA_PLATFORM=xcb
for size in 512x512 1920x1080; do
    echo "$size: $(.build/release/EmbedInQtQuick --size "$size" --frames "$frames" 2>/dev/null | grep "^route's work")"
done
