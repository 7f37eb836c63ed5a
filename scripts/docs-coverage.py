#!/usr/bin/env python3
"""Lists the public symbols declared in the package's own sources that have no doc comment.

Reads the symbol graphs that `swift package generate-documentation` extracted (one folder
per module, each with the module's graph and one per extended module) and prints one line
per undocumented public or open symbol, with its file and line. Symbols the compiler
synthesises (Equatable's `!=`, `hashValue`, raw-value initialisers) and default
implementations inherited from other modules have no location in the package's sources and
are not counted: their documentation is the protocol's.

    scripts/docs-coverage.py SOURCES_ROOT SYMBOL_GRAPH_DIR MODULE...

Exits 1 when any symbol is undocumented.
"""
import json
import os
import sys


def main() -> int:
    root, graphs, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
    root_uri = "file://" + os.path.realpath(root) + "/"
    missing = []
    counted = 0
    for module in modules:
        folder = os.path.join(graphs, module)
        if not os.path.isdir(folder):
            print(f"docs-coverage: no symbol graphs for {module} in {graphs}", file=sys.stderr)
            return 2
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".symbols.json"):
                continue
            with open(os.path.join(folder, name)) as f:
                graph = json.load(f)
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                uri = symbol.get("location", {}).get("uri", "")
                # Only what the module declares itself: a default implementation that an
                # extension in another module provides is that module's to document.
                if not uri.startswith(root_uri + "Sources/" + module + "/"):
                    continue
                counted += 1
                comment = symbol.get("docComment", {})
                text = "".join(line.get("text", "") for line in comment.get("lines", [])).strip()
                if text and comment.get("module", module) == module:
                    continue
                line = symbol["location"].get("position", {}).get("line", 0) + 1
                path = uri[len(root_uri):]
                title = ".".join(symbol["pathComponents"])
                missing.append(f"{path}:{line}: undocumented public symbol {module}.{title}")
    for entry in sorted(set(missing)):
        print(entry)
    print(f"docs-coverage: {counted} public symbols declared in Sources/, {len(set(missing))} without a doc comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
