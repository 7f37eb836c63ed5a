#!/usr/bin/env bash
# Runs the whole test suite on Mesa lavapipe with the Khronos validation layer on.
# Arguments go to `swift test`, e.g. ./scripts/test.sh --filter CommandBufferTests
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
# Validation is always on; GPU_VALIDATION=sync adds synchronization validation (hazards
# between commands), which the suite also passes silently.
case "${GPU_VALIDATION:-}" in
    sync | synchronization) export GPU_VALIDATION ;;
    *) export GPU_VALIDATION=1 ;;
esac

echo "test: Vulkan driver ${VK_DRIVER_FILES:-${VK_ICD_FILENAMES:-(loader default)}}; validation layer on (GPU_VALIDATION=$GPU_VALIDATION)"
if [ "$#" -gt 0 ]; then
    exec swift test "$@"
fi
# The real-clock tests (frame pacing on Xvfb, the X Present clock at 60 and 144 Hz, server
# presentation feedback on Xvfb and Weston, clock wakeups, input-to-photon latency)
# measure intervals to a fraction of a millisecond: they run after the rest, one at a time,
# so that the other tests' rendering does not share their cores. The resident-memory test
# measures the whole process, so it runs there too, with no test allocating beside it.
# The rest run one at a time too: the validation layer Debian 12 ships (1.3.239) changes
# its process-wide device map without a lock as a device is made or destroyed, and a test
# doing so while another test's threads call the layer crashed the suite inside the layer
# (3 of 17 parallel runs; decision 0074). The tests' own threads still run concurrently.
realClock='PacingXvfbTests|XPresentClockTests|PresentationFeedbackXvfbTests|PresentationFeedbackWestonTests|ClockWakeupTests|InputLatencyXvfbTests|ResidentMemoryTests'
swift test --no-parallel --skip "$realClock"
# Input-to-photon latency is measured on InputLatencyBench's release build, as an app ships:
# in a debug build its predictor alone can outlast a frame.
swift build -c release --product InputLatencyBench
swift test --skip-build --no-parallel --filter "$realClock"
