#!/bin/sh
# Runs the libFuzzer targets (tests/fuzz/fz_*.c, built by `make
# fuzz-build`) as TAP: each for FUZZ_SECONDS on its seed corpus
# tests/fuzz/corpus/NAME/ (read only: new inputs go to FZ/corpus/NAME/).
# A crash, a leak or a timeout is "not ok", its input saved as
# FZ/crash/NAME-*; keep it in tests/fuzz/corpus/NAME/ once fixed.
#   FZ=build/fuzz FUZZ_SECONDS=3 sh tests/fuzz/run.sh [NAME...]
set -u
cd "$(dirname "$0")/../.." || exit 1
FZ=${FZ:-build/fuzz}
secs=${FUZZ_SECONDS:-3}
names=${*:-answer setup log tfile journal results}
if ! make -s --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" fuzz-build >"$FZ.build.log" 2>&1; then
	echo "not ok 1 - libFuzzer targets build (clang, libclang-rt-dev): see $FZ.build.log"
	exit 1
fi
n=0
for name in $names; do
	n=$((n + 1))
	mkdir -p "$FZ/corpus/$name" "$FZ/crash"
	out=$("$FZ/fz_$name" -max_total_time="$secs" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=1048576 -print_final_stats=1 \
	    -artifact_prefix="$FZ/crash/$name-" \
	    "$FZ/corpus/$name" "tests/fuzz/corpus/$name" 2>&1)
	rc=$?
	runs=$(printf '%s\n' "$out" | sed -n 's/^stat::number_of_executed_units: *//p')
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - libFuzzer $name: ${runs:-?} inputs in ${secs} s, clean"
	else
		echo "not ok $n - libFuzzer $name (status $rc)"
		printf '%s\n' "$out" | grep -E 'ERROR|SUMMARY|artifact|Test unit' |
		    head -n 10 | sed 's/^/# /'
	fi
	# The log target's seeds must stay logs the reader takes whole (a
	# format change would leave them as mere refused inputs).
	if [ "$name" = log ]; then
		n=$((n + 1))
		if out=$(bin/replay --verify -q tests/fuzz/corpus/log/* 2>&1); then
			echo "ok $n - the log seeds are logs bin/replay verifies"
		else
			echo "not ok $n - a log seed no longer verifies (regenerate it with bin/referee --log)"
			printf '%s\n' "$out" | head -n 5 | sed 's/^/# /'
		fi
	fi
done
