#!/bin/sh
# make bench, the containment part (SECURITY.md): what the limits and the
# sandbox cost.
#  1. Spawning a bot (tests/bench_spawn): start, exit and reap of bin/true
#     and of a Python bot that exits at once, per bot: no containment,
#     the default limits (and as root a uid of its own), --no-sandbox's
#     defaults (those, the seccomp filter and as root the namespaces, an
#     init and a private scratch: "isolated"), the sandbox (the default
#     where bubblewrap works).
#  2. Time per decision: a horserace match of 5 C random bots, --stats,
#     with the limits off and the referee's uid (--no-sandbox --bot-user
#     same, every --limit-* 0; the seccomp filter stays: no flag turns it
#     off), isolated (--no-sandbox: the default before the sandbox was),
#     and with the defaults (the sandbox where it works).
# Environment: B (build dir), BENCH_GAMES (games, default 300),
# BENCH_SPAWNS (bots spawned per mode, default 50).
set -eu
cd "$(dirname "$0")/.."
B=${B:-build/std}
GAMES=${BENCH_GAMES:-300}
N=${BENCH_SPAWNS:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

sandbox=1
bin/referee -g horserace --sandbox -q -b bin/random -b bin/random \
    -b bin/random >/dev/null 2>&1 || sandbox=0
modes="none limits isolated"
[ "$sandbox" = 1 ] && modes="$modes sandbox"

echo "== containment: spawning a bot ($N each; us per bot, start to reaped)"
for m in $modes; do
	t=$("$B/tests/bench_spawn" -n "$N" "$m" true)
	p=$("$B/tests/bench_spawn" -n "$((N / 5 + 1))" "$m" python3 -c pass)
	printf '  %-8s true: %8.0f us   python3 -c pass: %8.0f us\n' "$m" \
	    "$(echo "$t" | sed 's/.*"spawn_us":\([0-9.]*\).*/\1/')" \
	    "$(echo "$p" | sed 's/.*"spawn_us":\([0-9.]*\).*/\1/')"
done
[ "$sandbox" = 1 ] || echo "  (no sandbox here: bwrap cannot run)"

echo "== containment: time per decision, horserace, 5 C random bots, $GAMES games"
bots=""
for i in 1 2 3 4 5; do
	bots="$bots -b 'bin/random --seed $i'"
done
off="--no-sandbox --bot-user same --limit-cpu 0 --limit-mem 0 --limit-nproc 0 --limit-fsize 0 --limit-nofile 0"
for m in $modes; do
	case $m in
	none) flags=$off ;;
	limits) continue ;;	# the same as isolated for the referee
	isolated) flags="--no-sandbox" ;;
	sandbox) flags="" ;;	# the default
	esac
	eval bin/referee -g horserace -s 1 --games "$GAMES" -q --stats \
	    $flags "$bots" 2>"$tmp/$m"
	python3 - "$m" "$tmp/$m" <<'PY'
import json, sys
s = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
print("  %-8s wall %6.1f us/decision, referee CPU %5.1f us/decision"
      % (sys.argv[1], s["wall_us_per_decision"], s["cpu_us_per_decision"]))
PY
done
