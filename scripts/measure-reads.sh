#!/usr/bin/env bash
# Counts, with strace, the bytes a command reads from the todo file and the opens of the done file,
# on a generated todo file (docs/notes/file-layer.md, "Reads of one transaction").
# Usage: scripts/measure-reads.sh [TODO_BINARY] [LINES] [ACTION ARGS...]
#   defaults: .build-release/release/todo, 1000000 lines, `do 3`; build it with
#   swift build -c release --scratch-path .build-release --product todo
# Task 3 is a plain task; with RECURRING=1 it is a `rec:` task (whose fresh uid needs the done file).
set -euo pipefail
binary=${1:-.build-release/release/todo}
lines=${2:-1000000}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- do 3
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk -v n="$lines" -v rec="${RECURRING:-0}" 'BEGIN {
  for (i = 1; i <= n; i++) {
    if (i == 3) print (rec == 1 ? "2026-01-01 water the plants rec:1w uid:plant3" : "(A) 2026-01-01 call mom +family uid:mom003")
    else if (i % 7 == 0) printf "x 2026-01-02 2026-01-01 finished task %d +project%d @ctx%d uid:d%06d\n", i, i % 50, i % 9, i
    else printf "(%c) 2026-01-01 task number %d +project%d @ctx%d due:2026-03-%02d uid:t%06d\n", 65 + i % 26, i, i % 50, i % 9, 1 + i % 28, i
  }
}' > "$work/todo.txt"
printf 'x 2026-01-02 an old task uid:old001\n' > "$work/done.txt"
size=$(stat -c %s "$work/todo.txt")

cd "$work"
HOME=$work strace -f -y -s 0 -e trace=openat,read,pread64 -o trace.txt "$binary" -f "$work/todo.txt" "$@" > /dev/null 2> err.txt \
  || { cat err.txt >&2; exit 1; }
# A read strace splits into an "unfinished" and a "resumed" line (another thread ran between) is
# matched by thread id; -y names each descriptor's file.
awk -v size="$size" -v action="$*" '
  function file(line) { if (line ~ /\/todo\.txt>/) return "todo"; if (line ~ /\/done\.txt>/) return "done"; return "" }
  /(read|pread64)\([0-9]+</ && /unfinished/ { pending[$1] = file($0); next }
  /resumed>/ { f = pending[$1]; delete pending[$1]; n = $NF; if (n ~ /^[0-9]+$/ && f != "") bytes[f] += n; next }
  /(read|pread64)\([0-9]+</ { f = file($0); n = $NF; if (n ~ /^[0-9]+$/ && f != "") bytes[f] += n }
  /openat\(.*\/done\.txt"/ { doneOpens++ }
  /openat\(.*\/todo\.txt"/ { todoOpens++ }
  END {
    printf "todo %s: todo.txt %d bytes read of %d (%.3fx), opened %d times; done.txt opened %d times, %d bytes read\n",
      action, bytes["todo"], size, bytes["todo"] / size, todoOpens, doneOpens, bytes["done"]
  }' trace.txt
