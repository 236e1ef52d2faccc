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
#  3. A table of five strangers, each bot in a directory of its own: a
#     referee run's wall time and the time per decision, with and without
#     the sandbox (below).
# Environment: B (build dir), BENCH_GAMES (games, default 300),
# BENCH_SPAWNS (bots spawned per mode, default 50), BENCH_TABLES (referee
# runs timed, default 20), REFEREE (the referee of part 3).
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

# 3. A table of strangers: 5 bots, each in a directory of its own (as a
#    tournament's "dir"s give them), one short game per referee run: the
#    run's wall time (the start-up of its 5 bots and 1 game), mean of
#    BENCH_TABLES runs, and the time per decision over $GAMES games; with
#    --no-sandbox and with the sandbox, each bot shown its own directory
#    alone (--bot-dir; a referee without it, as before issue 34, is given
#    every bot's directory with --sandbox-bind, as the pool gave them).
#    REFEREE names another referee to price (an older build).
ref=${REFEREE:-bin/referee}
T=${BENCH_TABLES:-20}
echo "== containment: a table of 5 strangers, each bot in a dir of its own ($ref)"
dirs=""
for i in 0 1 2 3 4; do
	mkdir -p "$tmp/s/bot$i"
	cp bin/random "$tmp/s/bot$i/random"
	if "$ref" --help | grep -q -- --bot-dir; then
		dirs="$dirs --bot-dir $i=$tmp/s/bot$i"
	else
		dirs="$dirs --sandbox-bind $tmp/s/bot$i"
	fi
done
chmod -R go+rX "$tmp"
for m in no-sandbox sandbox; do
	[ "$m" = sandbox ] && [ "$sandbox" = 0 ] && continue
	set -- -g horserace -s 1 -q --"$m" $dirs
	for i in 0 1 2 3 4; do
		set -- "$@" -b "env -C $tmp/s/bot$i ./random --seed $i"
	done
	python3 - "$T" "$m" "$ref" "$@" <<'PY'
import subprocess, sys, time
n, m, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
for _ in range(n):
    subprocess.run(argv + ["-o", "races=1"], check=True)
print("  %-10s a table's run (5 bots, 1 short game): %7.1f ms"
      % (m, (time.monotonic() - t0) * 1000 / n))
PY
	"$ref" "$@" --games "$GAMES" --stats 2>"$tmp/$m.stats" >/dev/null
	python3 - "$m" "$tmp/$m.stats" <<'PY'
import json, sys
s = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
print("  %-10s wall %6.1f us/decision, referee CPU %5.1f us/decision"
      % (sys.argv[1], s["wall_us_per_decision"], s["cpu_us_per_decision"]))
PY
done
