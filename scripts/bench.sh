#!/usr/bin/env bash
# Builds everything in release with the static Swift stdlib (as `todo` ships) and runs the benchmark
# sections: all of them, or the ones named.
#
#   scripts/bench.sh [SECTION...] [-- TodoBench library-table options]
#
# Sections, in this order:
#   library        TodoBench's table: split + round trip, full parse, sort, peak memory at 10k/100k/1M
#                  (options after `--` go to it: --sizes 10k,100k,1M --seed N --runs N --sections a,b --strict)
#   todo-sort      whole process: `todo sort FILE` against the awk pair on 1M lines, and on 100 lines
#   merge          three-way merge of 100k lines
#   commands       whole process on 1M lines: `todo merge`, `reconcile`, `export` against `todo sort`
#                  (≤ 3× its time and memory), `todo ls REGEX` against `grep -i` (≤ 5× its time),
#                  `todo ls garden` against `grep -in garden | sort -f` (≤ 2×), 10k-line listings (< 30 ms)
#   watch-latency  `todo watch`: save → sorted file on disk
#   todosh         `todo` as todo.sh against genuine todo.sh (/usr/bin/todo-txt or $TODOSH_GENUINE)
#   write-path     `todo add`, `todo do N` against genuine todo.sh's, and `todo ls` peak memory, on 1M lines
#   ui             `todo ui` in a pseudo-terminal: first screen on 100k tasks, key → screen on 10k, peak memory
#   store          TodoStore: ready on 100k tasks, an external one-line change (main-actor work), a toggle
#                  round trip on 10k, memory against the file (docs/store.md, "Speed")
#   sync           `todo sync` with nothing to do on a 10k-task repository against a bare `git fetch` (under 1.5×)
#
# Exit status: 0 when every section ran and met its checks (library: see --strict), else 1.
set -uo pipefail
cd "$(dirname "$0")/.."
sections=()
library_options=()
while [[ $# -gt 0 ]]; do
    if [[ "$1" == -- ]]; then shift; library_options=("$@"); break; fi
    sections+=("$1"); shift
done
[[ ${#sections[@]} -eq 0 ]] && sections=(library todo-sort merge commands watch-latency todosh write-path ui store sync)
for section in "${sections[@]}"; do
    case "$section" in
        library|todo-sort|merge|commands|watch-latency|todosh|write-path|ui|store|sync) ;;
        *) echo "bench.sh: unknown section '$section' (library, todo-sort, merge, commands, watch-latency, todosh, write-path, ui, store, sync)" >&2; exit 2 ;;
    esac
done
swift build -c release --static-swift-stdlib --product TodoBench >&2 || exit 2
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
# `todo` as the README installs it: a fully static executable (about 1 ms to start instead of 3, with
# no shared-library search), built in its own build path and placed beside TodoBench, where the
# whole-process sections look for it.
swift build -c release --product todo --build-path .build-static -Xswiftc -static-executable >&2 || exit 2
cp .build-static/release/todo "$bin/todo"
status=0
echo "scripts/bench.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uptime | sed 's/.*load/load/'), $(nproc) cores, git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources || echo ' + uncommitted changes')"
for section in "${sections[@]}"; do
    echo
    echo "=== $section ==="
    case "$section" in
        library) "$bin/TodoBench" "${library_options[@]}" || status=1 ;;
        todo-sort) "$bin/TodoBench" todo-sort --todo "$bin/todo" || status=1 ;;
        merge) "$bin/TodoBench" merge || status=1 ;;
        commands) "$bin/TodoBench" commands --todo "$bin/todo" || status=1 ;;
        watch-latency) "$bin/TodoBench" watch-latency || status=1 ;;
        todosh) "$bin/TodoBench" todosh "$bin/todo" || status=1 ;;
        write-path) "$bin/TodoBench" write-path "$bin/todo" || status=1 ;;
        ui) "$bin/TodoBench" ui "$bin/todo" || status=1 ;;
        store) "$bin/TodoBench" store || status=1 ;;
        sync) "$bin/TodoBench" sync "$bin/todo" || status=1 ;;
    esac
done
exit $status
