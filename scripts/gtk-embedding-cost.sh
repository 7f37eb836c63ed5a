#!/usr/bin/env bash
# Measures what each GTK route costs per frame under a private Xvfb (GTK 4, GDK_BACKEND=x11):
# for imported memory the GL blit and GL's finish, for the copy the read-back and the
# GdkMemoryTexture; at 512×512 and 1920×1080, 240 frames each.
#     scripts/gtk-embedding-cost.sh [--frames 240]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
source scripts/env.sh
pin_lavapipe
frames=240
if [ "${1:-}" = --frames ]; then frames=$2; fi
swift build -c release --product EmbedInGTK >/dev/null
start_xvfb 2560x1600
export GDK_BACKEND=x11
XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_RUNTIME_DIR
for size in 512x512 1920x1080; do
    for route in import copy; do
        .build/release/EmbedInGTK --route "$route" --size "$size" --measure "$frames" 2>/dev/null | grep '^route '
    done
done
