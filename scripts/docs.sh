#!/usr/bin/env bash
# Builds the DocC documentation of the library modules with the toolchain's own `docc` (no plugin,
# nothing downloaded), warnings as errors.
#
#   scripts/docs.sh [MODULE...]        default: TodoTxt TodoFileSystem TodoStore
#
# 1. `swift package dump-symbol-graph` builds the package for debugging (nothing to do after
#    `swift build` or `swift test`) and extracts each module's public symbols.
# 2. `docc convert` turns each module's catalog (Sources/MODULE/MODULE.docc: its landing page and
#    articles) and its symbol graph into .build/docs/MODULE.doccarchive.
#
# A module with no target in Sources/ is skipped with a note, so the default list works before
# every target exists. A module without a catalog is built without one (a flat module page) and
# said so. Any docc warning fails the run (exit 1): an unresolved ``link``, a parameter documented
# that does not exist or one left undocumented.
#
# Environment: DOCC (the docc binary; default: the one beside `swift`, else on PATH, else xcrun's),
# TODO_DOCS_OUTPUT (default .build/docs).
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
[[ ${#modules[@]} -eq 0 ]] && modules=(TodoTxt TodoFileSystem TodoStore)
output="${TODO_DOCS_OUTPUT:-.build/docs}"

swift_path="$(command -v swift || true)"
if [[ -z "${DOCC:-}" ]]; then
    if [[ -n "$swift_path" && -x "$(dirname "$swift_path")/docc" ]]; then
        DOCC="$(dirname "$swift_path")/docc"
    elif command -v docc >/dev/null 2>&1; then
        DOCC="$(command -v docc)"
    elif command -v xcrun >/dev/null 2>&1; then
        DOCC="$(xcrun --find docc)"
    else
        echo "docs: no docc found (set DOCC, or put the Swift toolchain on PATH)" >&2
        exit 1
    fi
fi

present=()
for module in "${modules[@]}"; do
    if [[ -d "Sources/$module" ]]; then
        present+=("$module")
    else
        echo "docs: $module skipped: no target Sources/$module in this checkout"
    fi
done
[[ ${#present[@]} -eq 0 ]] && { echo "docs: nothing to build"; exit 0; }

# The extraction prints "Files written to DIR"; the directory depends on the platform triple.
extraction="$(swift package dump-symbol-graph 2>&1)" || { echo "$extraction" >&2; exit 1; }
graphs="$(printf '%s\n' "$extraction" | sed -n 's/^Files written to //p' | tail -n 1)"
if [[ -z "$graphs" || ! -d "$graphs" ]]; then
    echo "$extraction" >&2
    echo "docs: swift package dump-symbol-graph wrote no symbol graphs" >&2
    exit 1
fi

mkdir -p "$output"
status=0
for module in "${present[@]}"; do
    # Only this module's graphs (MODULE.symbols.json, and MODULE@Other.symbols.json for its
    # extensions of other modules' types), so no other module's symbols land on its pages.
    module_graphs="$output/.symbol-graphs/$module"
    rm -rf "$module_graphs" "$output/$module.doccarchive"
    mkdir -p "$module_graphs"
    found=0
    for graph in "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json; do
        [[ -f "$graph" ]] || continue
        cp "$graph" "$module_graphs/"
        found=1
    done
    if [[ $found -eq 0 ]]; then
        echo "docs: $module: no symbol graph in $graphs" >&2
        status=1
        continue
    fi
    catalog=()
    if [[ -d "Sources/$module/$module.docc" ]]; then
        catalog=("Sources/$module/$module.docc")
    else
        echo "docs: $module has no catalog Sources/$module/$module.docc: its module page is a flat list"
    fi
    if "$DOCC" convert ${catalog[@]+"${catalog[@]}"} \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "todo.$module" \
        --warnings-as-errors \
        --output-path "$output/$module.doccarchive" >"$output/$module.log" 2>&1; then
        echo "docs: $module -> $output/$module.doccarchive"
    else
        cat "$output/$module.log" >&2
        echo "docs: $module: docc reported problems (above)" >&2
        status=1
    fi
done
exit $status
