#!/usr/bin/env bash
# Regenerates Deploy/SwiftGPU.order, the function order a static build of a SwiftGPU app
# links with (lld's --symbol-ordering-file): the functions SwiftGPU's examples run, the
# most shared first. Run it when SwiftGPU's code changes much. See scripts/order-file.py.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh python3 valgrind binutils
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
exec python3 scripts/order-file.py "$@"
