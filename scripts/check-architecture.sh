#!/usr/bin/env bash
# The architecture map stays whole: every target that Package.swift builds from Sources/
# (`.target`, `.systemLibrary`, `.executableTarget`) must be named in docs/ARCHITECTURE.md
# as `Name`, and every immediate subfolder of Sources/GPU as `Name/`, both in backticks.
# Targets with a `path:` outside Sources/ (examples, benchmarks, Shaders) and test targets
# are not checked. Exits non-zero, naming each one missing, when any is not mentioned.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

doc=docs/ARCHITECTURE.md

# Package.swift's targets built from Sources/, one name a line. Comments are dropped and the
# manifest is read as one string, cut at each declaration (`.target(`, `.testTarget(`,
# `.plugin(`, …), so a declaration may span lines. A declaration's name is its first
# `name:` argument (Swift keeps arguments in order; a dependency's `.product(name:` comes
# later); with no `path:`, SwiftPM builds it from Sources/<name>.
targets=$(awk '
    { sub(/\/\/.*/, ""); text = text " " $0 }
    END {
        starts = "\\.(target|systemLibrary|executableTarget|testTarget|binaryTarget|macro|plugin)\\("
        while (match(text, starts)) {
            kind = substr(text, RSTART + 1, RLENGTH - 2)
            text = substr(text, RSTART + RLENGTH)
            declaration = match(text, starts) ? substr(text, 1, RSTART - 1) : text
            if (kind != "target" && kind != "systemLibrary" && kind != "executableTarget") continue
            if (!match(declaration, /name:[[:space:]]*"[^"]+"/)) continue
            name = substr(declaration, RSTART, RLENGTH)
            sub(/^name:[[:space:]]*"/, "", name); sub(/"$/, "", name)
            path = ""
            if (match(declaration, /path:[[:space:]]*"[^"]+"/)) {
                path = substr(declaration, RSTART, RLENGTH)
                sub(/^path:[[:space:]]*"/, "", path); sub(/"$/, "", path)
            }
            if (path == "" || path ~ /^Sources\//) print name
        }
    }
' Package.swift)
if [ -z "$targets" ]; then
    echo "check-architecture: found no targets in Package.swift; has its layout changed?" >&2
    exit 1
fi

folders=$(find Sources/GPU -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)

missing=()
for name in $targets; do
    grep -qF -- "\`$name\`" "$doc" || missing+=("target $name (as \`$name\`)")
done
for name in $folders; do
    grep -qF -- "\`$name/\`" "$doc" || missing+=("folder Sources/GPU/$name (as \`$name/\`)")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "check-architecture: $doc does not name:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "check-architecture: $doc names all $(wc -w <<<"$targets") targets under Sources/ and $(wc -w <<<"$folders") folders of Sources/GPU/"
