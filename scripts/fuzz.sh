#!/usr/bin/env bash
# Fuzzes SwiftGPU's SPIR-V reader, reflection and push-constant rewrite with libFuzzer.
#
#   scripts/fuzz.sh [SECONDS]          run for SECONDS (default 60); exit 1 on a finding
#   scripts/fuzz.sh --reproduce FILE   run one input (a finding under .build-fuzz/artifacts/)
#
# The target (Fuzz/SPIRVFuzzer) is built with the SwiftGPUSPIRV sources as one module under
# AddressSanitizer, seeded with every shader in the repository compiled by glslc, plus the
# regression inputs in Fuzz/SPIRVFuzzer/regressions. The corpus it grows stays in
# .build-fuzz/corpus between runs.
set -euo pipefail
# Swift traps are reported by libFuzzer itself: the Swift runtime's backtracer reads memory
# in a way ASan reports as a crash of its own.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./scripts/install-deps.sh

out=.build-fuzz
mkdir -p "$out/seeds" "$out/corpus" "$out/artifacts"

# Build: swiftc, not SwiftPM, since the fuzzer's entry replaces main.
sources=(Sources/SwiftGPUSPIRV/*.swift Fuzz/SPIRVFuzzer/*.swift)
binary="$out/spirv-fuzzer"
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary")" ]; then
    echo "fuzz: building $binary"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
        -module-name SwiftGPUSPIRV -package-name SwiftGPU -swift-version 6 \
        "${sources[@]}" -o "$binary"
fi

if [ "${1:-}" = "--reproduce" ]; then
    exec "$binary" "${2:?usage: scripts/fuzz.sh --reproduce FILE}"
fi
seconds="${1:-60}"

# Seeds: every shader in the repository, as the SPIRVCompiler plugin compiles it.
while IFS= read -r shader; do
    seed="$out/seeds/$(echo "$shader" | tr '/' '_').spv"
    [ "$seed" -nt "$shader" ] || glslc --target-env=vulkan1.2 -O -o "$seed" "$shader"
done < <(git ls-files '*.vert' '*.frag' '*.comp')
cp Fuzz/SPIRVFuzzer/regressions/* "$out/seeds/" 2>/dev/null || true

echo "fuzz: $(ls "$out/seeds" | wc -l) seeds, $seconds s"
# -rss_limit_mb: a module claims at most what its size allows, so memory must stay small.
"$binary" "$out/corpus" "$out/seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1
