#!/usr/bin/env bash
# Builds TodoBench in release and runs it; arguments go to TodoBench
# (--sizes 10k,100k,1M --seed N --runs N --sections a,b --strict).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product TodoBench >&2
exec .build/release/TodoBench "$@"
