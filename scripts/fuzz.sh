#!/usr/bin/env bash
# Fuzzes SwiftGPU's SPIR-V reader, reflection and push-constant rewrite with libFuzzer, or
# (--stamps) the file reader and stamp check a trusted folder's module and stamp go through,
# or (--glsl) run-time GLSL compilation: the app's side and the compiler process under its
# limits.
#
#   scripts/fuzz.sh [--stamps|--glsl] [SECONDS]          run for SECONDS (default 60); exit 1 on a finding
#   scripts/fuzz.sh [--stamps|--glsl] --reproduce FILE   run one input (a finding under .build-fuzz/artifacts/)
#
# The SPIR-V target (Fuzz/SPIRVFuzzer) is built with the SwiftGPUSPIRV sources as one module
# under AddressSanitizer, seeded with every shader in the repository compiled by glslc, plus
# the regression inputs in Fuzz/SPIRVFuzzer/regressions. The stamp target (Fuzz/StampFuzzer)
# adds SPIRVValidation's stamp and SwiftGPUSupport's file reader; its inputs are a stamp's
# length (two bytes), the stamp and a module, seeded with each shader under no stamp, an
# unkeyed stamp and a stamp of the right form with a wrong hash, plus
# Fuzz/StampFuzzer/regressions. The GLSL target (Fuzz/GLSLFuzzer) is built with
# SwiftGPUSupport (a module of its own), the GPU module's compile files and the compiler
# process's C and C++ (CFutex, CShaderCompiler), linked with glslang; the fuzzer's own
# executable, started again, is its compiler process. Its inputs are a flags byte and a
# source, seeded with every shader in the repository under each stage setting, plus
# Fuzz/GLSLFuzzer/regressions. The MSL target (Fuzz/MSLFuzzer) is built with the
# MetalShadingLanguage sources as one module; its inputs are a source and, after a NUL byte,
# the text its quoted includes read, seeded with every .metal file in the repository (the
# test corpus's with their first header) plus Fuzz/MSLFuzzer/regressions (a function's
# notes text among them). The corpus each grows stays in .build-fuzz/ between runs.
set -euo pipefail
# Swift traps are reported by libFuzzer itself: the Swift runtime's backtracer reads memory
# in a way ASan reports as a crash of its own.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./scripts/install-deps.sh

out=.build-fuzz
target=spirv
case "${1:-}" in
    --stamps) target=stamps; shift ;;
    --glsl) target=glsl; shift ;;
    --msl) target=msl; shift ;;
esac
mkdir -p "$out/seeds" "$out/corpus" "$out/artifacts" "$out/stamp-seeds" "$out/stamp-corpus" "$out/glsl-seeds" "$out/glsl-corpus" \
    "$out/msl-seeds" "$out/msl-corpus"

# Build: swiftc, not SwiftPM, since the fuzzer's entry replaces main.
if [ "$target" = spirv ]; then
    sources=(Sources/SwiftGPUSPIRV/*.swift Fuzz/SPIRVFuzzer/*.swift)
    binary="$out/spirv-fuzzer"
    flags=(-module-name SwiftGPUSPIRV)
elif [ "$target" = msl ]; then
    sources=(Sources/MetalShadingLanguage/*.swift Fuzz/MSLFuzzer/*.swift)
    binary="$out/msl-fuzzer"
    flags=(-module-name MetalShadingLanguage)
elif [ "$target" = glsl ]; then
    # SwiftGPUSupport as a module of its own (the compile files import it), the C shims'
    # module maps and objects, then the fuzzer's module over the compile files.
    modules="$out/glsl-modules"
    mkdir -p "$modules/CFutex" "$modules/CShaderCompiler" "$modules/objects"
    printf 'module CFutex {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CFutex/include/CFutex.h" \
        > "$modules/CFutex/module.modulemap"
    printf 'module CShaderCompiler {\n    header "%s"\n    export *\n}\n' \
        "$PWD/Sources/CShaderCompiler/include/CShaderCompiler.h" > "$modules/CShaderCompiler/module.modulemap"
    support=(Sources/SwiftGPUSupport/*.swift)
    shims=(Sources/CFutex/*.c Sources/CShaderCompiler/*.c Sources/CShaderCompiler/*.cpp)
    sources=(Sources/GPU/Library/GLSLCompiler.swift Sources/GPU/Library/GLSLIncludes.swift
             Sources/GPU/Library/CompileOptions.swift Sources/GPU/Library/LibraryError.swift
             Sources/GPU/Library/ShaderCompilerProcess.swift Sources/GPU/Library/ShaderCompilerPool.swift
             Sources/GPU/Support/Misuse.swift Fuzz/GLSLFuzzer/*.swift "${support[@]}" "${shims[@]}")
    binary="$out/glsl-fuzzer"
    if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary")" ]; then
        echo "fuzz: building $binary's parts"
        swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -emit-object -emit-module \
            -module-name SwiftGPUSupport -package-name SwiftGPU -swift-version 6 -I "$modules/CFutex" \
            -emit-module-path "$modules/SwiftGPUSupport.swiftmodule" "${support[@]}" -o "$modules/objects/SwiftGPUSupport.o"
        for shim in "${shims[@]}"; do
            object="$modules/objects/$(basename "$shim").o"
            case "$shim" in
                *.cpp) clang++ -std=c++17 -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CShaderCompiler/include -c "$shim" -o "$object" ;;
                *) clang -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CFutex/include -I Sources/CShaderCompiler/include -c "$shim" -o "$object" ;;
            esac
        done
    fi
    sources=(Sources/GPU/Library/GLSLCompiler.swift Sources/GPU/Library/GLSLIncludes.swift
             Sources/GPU/Library/CompileOptions.swift Sources/GPU/Library/LibraryError.swift
             Sources/GPU/Library/ShaderCompilerProcess.swift Sources/GPU/Library/ShaderCompilerPool.swift
             Sources/GPU/Support/Misuse.swift Fuzz/GLSLFuzzer/*.swift)
    flags=(-module-name GLSLFuzzer -I "$modules" -I "$modules/CFutex" -I "$modules/CShaderCompiler" -I Sources/CGlslang
           "$modules"/objects/*.o)
else
    # The stamp and the validator's version, without BuildKeys.swift (the executable's
    # keys): the fuzzer's key is its own.
    sources=(Sources/SwiftGPUSPIRV/*.swift Sources/SPIRVValidation/SPIRVValidator.swift
             Sources/SPIRVValidation/ValidationStamp.swift Sources/SPIRVValidation/StampKey.swift
             Sources/SwiftGPUSupport/FileContents.swift Fuzz/StampFuzzer/*.swift)
    binary="$out/stamp-fuzzer"
    flags=(-module-name StampFuzzer -I Sources/CSPIRVTools)
fi
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" "${support[@]:-}" -newer "$binary" 2>/dev/null)" ]; then
    echo "fuzz: building $binary"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
        "${flags[@]}" -package-name SwiftGPU -swift-version 6 \
        "${sources[@]}" -o "$binary"
fi

if [ "${1:-}" = "--reproduce" ]; then
    exec "$binary" "${2:?usage: scripts/fuzz.sh [--stamps|--glsl|--msl] --reproduce FILE}"
fi
seconds="${1:-60}"

# Seeds: every shader in the repository, as the SPIRVCompiler plugin compiles it.
while IFS= read -r shader; do
    seed="$out/seeds/$(echo "$shader" | tr '/' '_').spv"
    [ "$seed" -nt "$shader" ] || glslc --target-env=vulkan1.2 -O -o "$seed" "$shader"
done < <(git ls-files '*.vert' '*.frag' '*.comp')
cp Fuzz/SPIRVFuzzer/regressions/* "$out/seeds/" 2>/dev/null || true
corpus="$out/corpus"
seeds="$out/seeds"

if [ "$target" = stamps ]; then
    # Each shader with no stamp, an unkeyed stamp of the old form, and a keyed one with a
    # wrong hash: two bytes of stamp length (little-endian), the stamp, the module.
    for module in "$out"/seeds/*.spv; do
        base="$out/stamp-seeds/$(basename "$module")"
        size=$(stat -c %s "$module")
        for kind in none unkeyed keyed; do
            case $kind in
                none) stamp="" ;;
                unkeyed) stamp="SPIRV-Tools v2022.4; vulkan1.3; $size bytes; fnv1a64 0123456789abcdef"$'\n' ;;
                keyed) stamp="SPIRV-Tools v2022.4; vulkan1.3; $size bytes; siphash128 0123456789abcdef0123456789abcdef"$'\n' ;;
            esac
            length=${#stamp}
            { printf "\\x$(printf %02x $((length & 255)))\\x$(printf %02x $((length >> 8)))"
              printf '%s' "$stamp"; cat "$module"; } > "$base.$kind"
        done
    done
    cp Fuzz/StampFuzzer/regressions/* "$out/stamp-seeds/" 2>/dev/null || true
    corpus="$out/stamp-corpus"
    seeds="$out/stamp-seeds"
elif [ "$target" = glsl ]; then
    # Each shader's source under each flags byte's stage: from the pragma, vertex, fragment,
    # compute (optimizer and macros on).
    while IFS= read -r shader; do
        for flags in 0c 0d 0e 0f; do
            { printf "\x$flags"; cat "$shader"; } > "$out/glsl-seeds/$(echo "$shader" | tr '/' '_').$flags"
        done
    done < <(git ls-files '*.vert' '*.frag' '*.comp')
    cp Fuzz/GLSLFuzzer/regressions/* "$out/glsl-seeds/" 2>/dev/null || true
    corpus="$out/glsl-corpus"
    seeds="$out/glsl-seeds"
elif [ "$target" = msl ]; then
    # Each .metal file, followed by a NUL and the first header beside it (if any).
    while IFS= read -r shader; do
        header=$(find "$(dirname "$shader")" -maxdepth 1 -name '*.h' | sort | head -1)
        { cat "$shader"; if [ -n "$header" ]; then printf '\0'; cat "$header"; fi; } \
            > "$out/msl-seeds/$(echo "$shader" | tr '/' '_')"
    done < <(git ls-files '*.metal')
    cp Fuzz/MSLFuzzer/regressions/* "$out/msl-seeds/" 2>/dev/null || true
    corpus="$out/msl-corpus"
    seeds="$out/msl-seeds"
fi

echo "fuzz: $target, $(ls "$seeds" | wc -l) seeds, $seconds s"
# -rss_limit_mb: a module claims at most what its size allows, so memory must stay small.
"$binary" "$corpus" "$seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1
