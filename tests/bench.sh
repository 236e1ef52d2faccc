#!/bin/sh
# make bench: the benchmarks (never part of make check); tests/bench.py
# says what each figure is.  Environment: B (build dir), BENCH_REPS,
# BENCH_SECONDS, BENCH_SCALE.
set -eu
cd "$(dirname "$0")/.."
exec python3 tests/bench.py "$@"
