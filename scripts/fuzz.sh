#!/usr/bin/env bash
# Builds the TodoFuzz libFuzzer target (toolchain.md section 6) and runs it for SECONDS seconds.
#
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
#
# Build: its own --build-path (.build-fuzz) so it never disturbs the normal build; address sanitizer,
# SanitizerCoverage, -DFUZZING, and the no-main libFuzzer runtime shipped with the toolchain (found from
# `which swift`). Corpus: fuzz-corpus/ (git-ignored), seeded from Fixtures/**/*.txt when present and
# from a few built-in lines otherwise. Crashes are written as fuzz-findings/crash-<sha1>; the script
# exits with libFuzzer's status (0: nothing found).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true

toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
runtime="$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)"
if [[ -z "$runtime" ]]; then
    echo "fuzz.sh: libclang_rt.fuzzer_no_main-x86_64.a not found under $toolchain/lib/clang" >&2
    exit 2
fi

swift build -c release --product TodoFuzz --build-path .build-fuzz \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xswiftc -DFUZZING \
    -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 | grep -v "Cannot export local symbol" || true
binary=".build-fuzz/release/TodoFuzz"
[[ -x "$binary" ]] || { echo "fuzz.sh: build failed" >&2; exit 2; }

corpus="fuzz-corpus"
findings="fuzz-findings"
mkdir -p "$corpus" "$findings"
if [[ -d Fixtures ]]; then
    find Fixtures -type f -name '*.txt' -size -64k -exec cp -n {} "$corpus"/ \; 2>/dev/null || true
fi
if [[ -z "$(ls -A "$corpus")" ]]; then
    printf '(A) 2026-01-02 call mom +family @phone due:2026-01-05 uid:k3mz9a\nx 2026-01-03 2026-01-01 pay rent pri:B\n\n' > "$corpus/seed-basic.txt"
    printf 'x (B) 2026-01-03 2026-01-01 foreign form\r\nopen t:2026-02-01 rec:+1w h:1\r\n# comment 12:30 http://x.y' > "$corpus/seed-crlf.txt"
    printf '\xef\xbb\xbf(C) bom line +p\n\xff\xfe bad utf8 \xe2\x80\xa8 sep\nx 2026-02-30 not a date' > "$corpus/seed-odd.txt"
fi

echo "fuzz.sh: $binary for ${seconds}s on $corpus/ ($(ls "$corpus" | wc -l) inputs)"
set +e
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$findings/" "$@" "$corpus" > .build-fuzz/last-run.log 2>&1
status=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|stat::|ERROR|invariant broken|Fatal error|Test unit written|SUMMARY' \
    .build-fuzz/last-run.log || true
echo "fuzz.sh: exit $status; findings: $(ls "$findings" | wc -l) file(s) in $findings/; full log .build-fuzz/last-run.log"
exit "$status"
