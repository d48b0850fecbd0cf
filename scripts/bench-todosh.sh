#!/usr/bin/env bash
# Benchmarks `todo` as todo.sh against genuine todo.sh (Debian's todotxt-cli, /usr/bin/todo-txt).
#
#   scripts/bench-todosh.sh [SIZES]          default sizes: 10000,100000,1000000 (lines)
#   scripts/bench-todosh.sh gen LINES FILE   just write the seeded sample todo.txt
#
# Builds `todo` in release with the static Swift stdlib, then compiles
# Sources/TodoBench/TodoShBenchmark.swift with a one-line driver (so it does not depend on the
# state of TodoBench's main.swift) and runs it. Genuine todo.sh: $TODOSH_GENUINE or /usr/bin/todo-txt
# (apt-get install -y todotxt-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product todo >&2
todo_bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/todo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
let arguments = CommandLine.arguments
if arguments.count == 4 && arguments[1] == "gen" {
    var generator = TodoShSampleGenerator(seed: 20_240_501)
    let bytes = generator.file(lines: Int(arguments[2]) ?? 0)
    let file = fopen(arguments[3], "w")!
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
} else {
    let sizes = (arguments.count > 2 ? arguments[2] : "10000,100000,1000000").split(separator: ",").compactMap { Int($0) }
    print(runTodoShBenchmark(todoBinary: arguments[1], sizes: sizes), terminator: "")
}
SWIFT
sed -i '1i #if canImport(Glibc)\nimport Glibc\n#endif' "$work/main.swift"
swiftc -O -swift-version 6 -o "$work/bench" Sources/TodoBench/TodoShBenchmark.swift "$work/main.swift"
if [[ "${1:-}" == gen ]]; then
    "$work/bench" gen "$2" "$3"
else
    "$work/bench" "$todo_bin" "${1:-10000,100000,1000000}"
fi
