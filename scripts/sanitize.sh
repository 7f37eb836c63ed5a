#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer and AddressSanitizer, each in its own build
# folder (.build-tsan, .build-asan), on lavapipe with the validation layer on. Fails on
# any sanitizer report or failed test.
#
#   ./scripts/sanitize.sh            both sanitizers, every suite but the real-clock ones
#   ./scripts/sanitize.sh thread     ThreadSanitizer only
#   ./scripts/sanitize.sh thread --filter 'CommandBufferTests|RecyclingTests'
#
# The real-clock suites (scripts/test.sh's list: frame pacing on Xvfb, the X Present
# clock, presentation feedback on Xvfb and Weston, clock wakeups, input-to-photon latency)
# measure intervals to a fraction of a millisecond and are left out: a sanitizer slows every
# thread several times over. The resident-memory test is left out too, whatever the
# filter: it measures the whole process's resident memory, AddressSanitizer holds freed
# memory in quarantine, and either sanitizer runs it beside other suites. Arguments after the sanitizer name go to
# `swift test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/install-deps.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
export GPU_VALIDATION=1

sanitizers=(thread address)
if [ "$#" -gt 0 ]; then
    sanitizers=("$1")
    shift
fi
# Left out of every run, a --filter's too: its file-name match takes in the
# resident-memory suite, which shares PurgeableStateTests.swift.
selection=(--skip 'PacingXvfbTests|XPresentClockTests|PresentationFeedbackXvfbTests|PresentationFeedbackWestonTests|ClockWakeupTests|InputLatencyXvfbTests|ResidentMemoryTests' "$@")

# Reports go to the log as well as the exit status: TSan exits 66 on a report at exit, but
# a report during a passing run must fail it too.
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 ${ASAN_OPTIONS:-}"

status=0
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build-${sanitizer/thread/tsan}"
    scratch="${scratch/address/asan}"
    log="$(mktemp "${TMPDIR:-/tmp}/swiftgpu-$sanitizer.XXXXXX.log")"
    echo "sanitize: $sanitizer (build in $scratch, log in $log)"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    if ! swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${selection[@]}" 2>&1 | tee "$log"; then
        status=1
    fi
    reports=$(grep -c -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: AddressSanitizer)' "$log" || true)
    echo "sanitize: $sanitizer: $reports report(s)"
    [ "$reports" -eq 0 ] || status=1
done
exit "$status"
