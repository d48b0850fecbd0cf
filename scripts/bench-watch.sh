#!/usr/bin/env bash
# Measures `todo watch` latency (write close -> sorted file on disk) against the release build.
# Usage: scripts/bench-watch.sh   (the same as scripts/bench.sh watch-latency)
exec "$(dirname "$0")/bench.sh" watch-latency
