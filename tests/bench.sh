#!/bin/sh
# make bench: the benchmarks (never part of make check); tests/bench.py
# says what each figure is, tests/bench_security.sh what the containment
# (limits, own uids, --sandbox; SECURITY.md) costs, tests/bench_ladder.sh
# the ladder's games/s against tournament run's.  Environment: B (build
# dir), BENCH_REPS, BENCH_SECONDS, BENCH_SCALE, BENCH_GAMES, BENCH_SPAWNS.
set -eu
cd "$(dirname "$0")/.."
python3 tests/bench.py "$@"
B=${B:-build/std} sh tests/bench_security.sh
sh tests/bench_ladder.sh
