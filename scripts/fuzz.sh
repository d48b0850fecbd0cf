#!/usr/bin/env bash
# Builds the TodoFuzz libFuzzer binary (toolchain.md section 6) and runs one target, or all in turn.
#
#   scripts/fuzz.sh TARGET SECONDS [fast|asan] [extra libFuzzer flags...]
#   scripts/fuzz.sh all SECONDS [fast|asan]
#
# TARGET is parse, edits, sort, merge or filter (Sources/TodoFuzzChecks/FuzzTarget.swift); the binary reads
# it from TODO_FUZZ_TARGET. Mode (default asan):
#   asan  address sanitizer + SanitizerCoverage + the no-main libFuzzer runtime; --build-path .build-fuzz
#   fast  no sanitizer: swiftc's -sanitize=fuzzer (coverage instrumentation and the libFuzzer runtime,
#         whose own main stays unused because TodoFuzz defines one), linked with lld; --build-path
#         .build-fuzz-fast. Several times faster; misses memory errors ASan would report.
# Both build with -DFUZZING in their own build path, so the normal build is never disturbed.
#
# Per target: the working corpus is fuzz-corpus/TARGET/ (git-ignored), seeded from Fixtures/fuzz/TARGET/;
# the dictionary is Fixtures/fuzz/todo.dict; -max_len matches the target's input cap; crashes,
# broken invariants and inputs taking over 20 s (-timeout) are written to fuzz-findings/TARGET/.
# Prints executions, executions per second and findings per target; exits 0 only when every run
# was clean. For `filter`, real grep then checks the whole corpus (`TodoFuzz grep-check`).
set -euo pipefail
cd "$(dirname "$0")/.."

targets_all=(parse edits sort merge filter)
usage() { echo "usage: scripts/fuzz.sh (parse|edits|sort|merge|filter|all) SECONDS [fast|asan] [libFuzzer flags...]" >&2; exit 2; }

target="${1:-}"
seconds="${2:-}"
mode="${3:-asan}"
[[ -n "$target" && "$seconds" =~ ^[0-9]+$ ]] || usage
case "$mode" in fast|asan) ;; *) usage ;; esac
shift $(( $# < 3 ? $# : 3 ))
if [[ "$target" == all ]]; then
    targets=("${targets_all[@]}")
    [[ $# -eq 0 ]] || { echo "fuzz.sh: extra libFuzzer flags are for a single target" >&2; exit 2; }
else
    [[ " ${targets_all[*]} " == *" $target "* ]] || usage
    targets=("$target")
fi

# Keep in step with FuzzTarget.limits: libFuzzer need not grow inputs past what the checks look at.
max_len() {
    case "$1" in parse|sort) echo 4096 ;; merge) echo 2048 ;; edits) echo 1024 ;; filter) echo 512 ;; esac
}

toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
coverage="edge,trace-cmp,inline-8bit-counters,pc-table"
if [[ "$mode" == asan ]]; then
    build_path=".build-fuzz"
    runtime="$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)"
    if [[ -z "$runtime" ]]; then
        echo "fuzz.sh: libclang_rt.fuzzer_no_main-x86_64.a not found under $toolchain/lib/clang" >&2
        exit 2
    fi
    flags=(-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage="$coverage"
           -Xlinker "$runtime" -Xlinker -lstdc++)
else
    # swiftc refuses -sanitize-coverage without a sanitizer; -sanitize=fuzzer is the one that adds
    # nothing but coverage and the runtime. gold fails on that link, lld does not.
    build_path=".build-fuzz-fast"
    flags=(-Xswiftc -sanitize=fuzzer -Xswiftc -sanitize-coverage="$coverage" -Xswiftc -use-ld=lld)
fi

mkdir -p "$build_path"
set +e
swift build -c release --product TodoFuzz --build-path "$build_path" "${flags[@]}" -Xswiftc -DFUZZING \
    > "$build_path/last-build.log" 2>&1
built=$?
set -e
binary="$build_path/release/TodoFuzz"
if [[ "$built" -ne 0 || ! -x "$binary" ]]; then
    grep -E "error" "$build_path/last-build.log" | grep -v "Cannot export local symbol" >&2 || true
    echo "fuzz.sh: build failed; see $build_path/last-build.log" >&2
    exit 2
fi

overall=0
summary=()
for name in "${targets[@]}"; do
    corpus="fuzz-corpus/$name"
    findings="fuzz-findings/$name"
    log="$build_path/last-run-$name.log"
    mkdir -p "$corpus" "$findings"
    if [[ -d "Fixtures/fuzz/$name" ]]; then
        find "Fixtures/fuzz/$name" -type f -exec cp -n {} "$corpus"/ \; 2>/dev/null || true
    fi
    echo "fuzz.sh: $name ($mode) for ${seconds}s on $corpus/ ($(ls "$corpus" | wc -l) inputs)"
    # Findings of earlier runs stay in the folder; only this run's count in the summary.
    before="$(ls "$findings" | wc -l)"
    set +e
    TODO_FUZZ_TARGET="$name" SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" \
        -print_final_stats=1 -max_len="$(max_len "$name")" -dict=Fixtures/fuzz/todo.dict -timeout=20 \
        -artifact_prefix="$findings/" "$@" "$corpus" > "$log" 2>&1
    status=$?
    set -e
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|invariant broken|Fatal error|Test unit written|SUMMARY' "$log" || true
    executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    per_second="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    found="$(( $(ls "$findings" | wc -l) - before ))"
    summary+=("$(printf '%-6s %-4s executions %10s  exec/s %7s  new findings %3s (%s/)  exit %s' \
        "$name" "$mode" "${executions:-?}" "${per_second:-?}" "$found" "$findings" "$status")")
    [[ "$status" -eq 0 ]] || overall="$status"
    if [[ "$name" == filter ]]; then
        # The outside reference: real grep over the whole corpus, this run's inputs included.
        set +e
        # With leak detection on, as the fuzzing run itself: grep is spawned with posix_spawn, not
        # Foundation's Process, whose leak LeakSanitizer used to report (docs/notes/fuzzing.md).
        "$binary" grep-check "$corpus" > "$build_path/last-grep-check.log" 2>&1
        grep_status=$?
        set -e
        sed -n 's/^grep-check: \(.*\): \(engine selects\|syntaxError says\).*/\1/p' "$build_path/last-grep-check.log" |
            while read -r input; do cp "$input" "$findings/grep-$(basename "$input")"; done
        summary+=("$(printf '%-6s grep   %s' "$name" "$(tail -n 1 "$build_path/last-grep-check.log")")")
        [[ "$grep_status" -eq 0 ]] || overall="$grep_status"
    fi
done

echo "fuzz.sh: summary (${seconds}s per target; full logs $build_path/last-run-TARGET.log)"
printf '  %s\n' "${summary[@]}"
exit "$overall"
