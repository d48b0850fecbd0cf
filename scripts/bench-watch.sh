#!/usr/bin/env bash
# Measures `todo watch` latency (write close -> sorted file on disk) against the release build.
# Usage: scripts/bench-watch.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product todo
swift build -c release --product TodoBench
bin="$(swift build -c release --show-bin-path)"
exec "$bin/TodoBench" watch-latency
