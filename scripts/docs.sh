#!/usr/bin/env bash
# Builds the DocC documentation of every public module and checks it:
#   - every snippet the articles show (Snippets/) compiles, and runs on lavapipe with the
#     validation layer on;
#   - DocC reports no warning (an unresolved symbol or article link, an unknown snippet, a
#     malformed directive): any warning fails the check;
#   - every public symbol declared in Sources/ has a doc comment (scripts/docs-coverage.py).
#
#     ./scripts/docs.sh                  check; the combined archive is left in .build/docs
#     ./scripts/docs.sh --output DIR     also copy the rendered site, ready for static
#                                        hosting, to DIR (serve it with
#                                        `python3 -m http.server -d DIR`, then open
#                                        /documentation/gpu)
#     ./scripts/docs.sh --hosting-base-path PATH --output DIR
#                                        the same for a site served below /PATH
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

output=
base_path=
while [ "$#" -gt 0 ]; do
    case "$1" in
        --output) output="$2"; shift 2 ;;
        --hosting-base-path) base_path="$2"; shift 2 ;;
        *) echo "docs: unknown argument $1" >&2; exit 2 ;;
    esac
done

# The public modules: one DocC catalogue each (Sources/<module>/<module>.docc).
modules=(GPU GPUFoundationCompat AppLifecycle FramePacing PointerInput SystemLifecycle GPUXCB GPUWayland GPUGTK GPUImGui GPUQt PNG simd Metal MetalKit AppKit Cocoa)

./scripts/install-deps.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
pin_lavapipe
export GPU_VALIDATION=1

# The snippets: each is an executable that SwiftPM makes from Snippets/<name>.swift.
snippets=()
for file in Snippets/*.swift; do
    snippets+=("$(basename "$file" .swift)")
done
for snippet in "${snippets[@]}"; do
    swift build --product "$snippet"
done
for snippet in "${snippets[@]}"; do
    echo "== snippet $snippet =="
    "$(swift build --show-bin-path)/$snippet"
done

targets=()
for module in "${modules[@]}"; do
    targets+=(--target "$module")
done
hosting=()
[ -n "$base_path" ] && hosting=(--hosting-base-path "$base_path")

mkdir -p .build/docs
rm -rf .build/docs/SwiftGPU.doccarchive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One combined archive: the modules' pages link to each other, and the site has one landing
# page. It is transformed for static hosting.
generate() {
    swift package --allow-writing-to-directory .build/docs generate-documentation "${targets[@]}" \
        --enable-experimental-combined-documentation --output-path .build/docs/SwiftGPU.doccarchive \
        --transform-for-static-hosting "${hosting[@]}" >"$log" 2>&1
}
result=0
generate || result=$?
# swift-package itself sometimes dies by a signal in libdispatch's event loop while it runs
# the plugin's processes (a toolchain crash, seen with Swift 6.3.1; other projects report
# the same frame for Foundation's Process on Linux): that one run again, once. A failure
# that is an exit status fails at once.
if [ "$result" -gt 128 ]; then
    grep -v '^\[[0-9]*/[0-9]*\]' "$log" | tail -n 40
    echo "docs: swift package died by signal $((result - 128)); running it once more" >&2
    rm -rf .build/docs/SwiftGPU.doccarchive
    result=0
    generate || result=$?
fi
if [ "$result" -ne 0 ]; then
    grep -v '^\[[0-9]*/[0-9]*\]' "$log"
    echo "docs: generate-documentation failed" >&2
    exit 1
fi
grep -v '^\[[0-9]*/[0-9]*\]' "$log"
warnings=$(grep -c 'warning:' "$log" || true)
# The plugin reports a failed merge of the modules' archives but still exits 0.
if grep -q '^Error:' "$log" || [ ! -f .build/docs/SwiftGPU.doccarchive/index.html ]; then
    echo "docs: the combined archive was not made" >&2
    exit 1
fi

# The symbol graphs the plugin extracted, in a folder named after the package's identity.
graphs=$(dirname "$(ls -d "$(swift build --show-bin-path)"/../extracted-symbols/*/GPU | head -n 1)")
status=0
python3 scripts/docs-coverage.py . "$graphs" "${modules[@]}" || status=1

if [ "$warnings" -gt 0 ]; then
    echo "docs: DocC gave $warnings warning(s); see above" >&2
    status=1
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi

if [ -n "$output" ]; then
    rm -rf "$output"
    mkdir -p "$output"
    cp -R .build/docs/SwiftGPU.doccarchive/. "$output"
    echo "docs: static site in $output"
fi
echo "docs: ${#modules[@]} modules, ${#snippets[@]} snippets, 0 warnings, every public symbol documented"
