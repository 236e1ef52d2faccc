#!/usr/bin/env bats
# End-to-end tests of where a tournament's referee runs and their bots may
# run (tournaments/pool/pin.h): by default each slot's runs on one CPU leased
# machine-wide, no two tournaments on one pinned CPU, a CPU leased
# elsewhere never pinned, and no pinning where it could hurt (Python's
# start-ups on a short run, more slots than CPUs, "affinity": false).  The bots note the
# CPUs they may use (tests/bots/pidrec.py); each test has a lease set of
# its own ($CARDARENA_CPU_LEASES), so that tournaments running elsewhere
# on the machine change nothing here.  Nothing waits on a clock: a
# tournament is held open by a gate file its bots wait on.

load helpers

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/affinity.XXXXXX")
	chmod 755 "$T"
	mkdir -p "$T/rec"
	chmod 1777 "$T/rec"
	cp "$BATS_TEST_DIRNAME/bots/pidrec.py" "$T/pidrec.py"
	# the pinning rule leaves out interpreters known to start slowly by
	# their names (pin.c); under a name of its own, python3 stands for a
	# bot that starts fast
	ln -s "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')" "$T/recbot"
	export CARDARENA_CPU_LEASES="cardarena-test-$$-$RANDOM"
	ALL=$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
	NCPU=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
}

teardown() {
	show_failure
	rm -f "$T/gate" "$T/one" "$T/all"
	for p in ${bg:-}; do
		kill -INT "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$T"
}

# tfile FILE OUT REC PROGRAM EXTRA: 3 bots PROGRAM (pidrec.py: their
# records in $T/rec/REC.*, held by $GATE if set), 4 deals of a run each,
# of $GAME (default nyse, which asks one seat at a time), at $JOBS slots
# (default 2); EXTRA ends in a comma.
tfile() {
	cat >"$1" <<EOF2
{"name": "p", "game": "${GAME:-nyse}", "seats": 3,
 "bots": [{"name": "a", "command": "$4 $T/rec/$3.a ${GATE:-}"},
          {"name": "b", "command": "$4 $T/rec/$3.b ${GATE:-}"},
          {"name": "c", "command": "$4 $T/rec/$3.c ${GATE:-}"}],
 "deals": 4, "deals_per_run": 1, "duplicate": false, "concurrency": ${JOBS:-2}, $5
 "bot_user": "same", "sandbox": false, $TOUR_LIMITS, "output": "$2"}
EOF2
}

# play REC PROGRAM EXTRA [FLAGS...]: writes the tfile $T/REC.json (output
# $T/REC, records REC) and runs it with tournament run -q FLAGS; checks
# it exits 0.
play() {
	local rec=$1 program=$2 extra=$3
	shift 3
	tfile "$T/$rec.json" "$T/$rec" "$rec" "$program" "$extra"
	run bin/tournament run -q "$@" "$T/$rec.json"
	[ "$status" -eq 0 ]
}

# floated REC: the 12 bots of records REC were each allowed every CPU.
floated() {
	[ "$(cpus "$1" | wc -l)" -eq 12 ]
	[ "$(cpus "$1" | sort -u)" = "$ALL" ]
}

# cpus REC: the CPU lists the bots of records REC noted, one a line.
cpus() {
	awk '$2 == "start" { print $3 }' "$T"/rec/"$1".*
}

# holder TAG NAME...: holds the leases NAME while $T/TAG exists.
holder() {
	local tag=$1
	shift
	touch "$T/$tag"
	python3 - "$T/$tag" "$@" <<'PY' &
import os, socket, sys, time
keep = []
for name in sys.argv[2:]:
    s = socket.socket(socket.AF_UNIX)
    s.bind("\0" + name)
    keep.append(s)
open(sys.argv[1] + ".up", "w").close()
while os.path.exists(sys.argv[1]):
    time.sleep(0.05)
PY
	holding=$!
	bg="$bg $holding"
	wait_for up "$T/$tag.up"
	[ -e "$T/$tag.up" ]
}

# up FILE: FILE exists, or the holder ended (a failure).
up() {
	[ -e "$1" ] || ! kill -0 "$holding" 2>/dev/null
}

# started: A's 3 bots noted their start, or A ended (a failure).
started() {
	[ "$(cat "$T"/rec/a.* 2>/dev/null | wc -l)" -eq 3 ] ||
	    ! kill -0 "$bg" 2>/dev/null
}

@test "by default each slot's runs and their bots on a CPU of their own; Python bots on short runs, more slots than CPUs and \"affinity\": false float" {
	play a "$T/recbot $T/pidrec.py" ""
	[ "$(cpus a | wc -l)" -eq 12 ]
	# every bot was allowed exactly one CPU, one of the runner's
	! cpus a | grep -q , || false
	for c in $(cpus a | sort -u); do
		[[ ",$ALL," == *",$c,"* ]]
	done
	# the two slots on two CPUs (one if that is all there is)
	[ "$(cpus a | sort -u | wc -l)" -eq $((NCPU < 2 ? NCPU : 2)) ]
	# their start-ups would queue on one CPU: Python bots on a run of a
	# game float
	play p "python3 $T/pidrec.py" ""
	[ "$(cpus p | sort -u)" = "$ALL" ]
	# so does a script whose #! names python
	printf '#!/usr/bin/env python3\n' >"$T/script"
	cat "$T/pidrec.py" >>"$T/script"
	chmod 755 "$T/script"
	play s "$T/script" ""
	floated s
	# more slots than CPUs: the scheduler spreads them
	play j "$T/recbot $T/pidrec.py" "" -j $((NCPU + 1))
	[ "$(cpus j | sort -u)" = "$ALL" ]
	# "affinity": false: never pinned
	play f "$T/recbot $T/pidrec.py" '"affinity": false,'
	floated f
}

@test "Python bots are pinned on a run of 100 games a lifetime or more (their start-ups then cost less than the wake-ups save), float on a shorter one" {
	for n in 100 99; do
		tfile "$T/l$n.json" "$T/l$n" "l$n" "python3 $T/pidrec.py" ""
		sed -i "s/\"deals\": 4, \"deals_per_run\": 1,/\"deals\": $n, \"deals_per_run\": $n,/" "$T/l$n.json"
		grep -q "\"deals_per_run\": $n," "$T/l$n.json"
		run bin/tournament run -q -j 1 "$T/l$n.json"
		[ "$status" -eq 0 ]
		[ "$(cpus "l$n" | wc -l)" -eq 3 ]
	done
	# one run of 100 games: its 3 bots on one CPU
	[ "$(cpus l100 | sort -u | wc -l)" -eq 1 ]
	! cpus l100 | grep -q , || false
	# of 99: every CPU
	[ "$(cpus l99 | sort -u)" = "$ALL" ]
}

@test "a CPU leased by another process is never pinned; with every CPU leased the runs float" {
	first=${ALL%%,*}
	holder one "$CARDARENA_CPU_LEASES-cpu$first"
	JOBS=1 play a "$T/recbot $T/pidrec.py" ""
	[ "$(cpus a | wc -l)" -eq 12 ]
	! cpus a | grep -qx "$first" || false
	if [ "$NCPU" -ge 2 ]; then
		# pinned still, to another CPU
		! cpus a | grep -q , || false
	else
		[ "$(cpus a | sort -u)" = "$ALL" ]
	fi
	rm "$T/one"
	wait "$holding"
	names=
	for c in ${ALL//,/ }; do
		names="$names $CARDARENA_CPU_LEASES-cpu$c"
	done
	holder all $names
	play b "$T/recbot $T/pidrec.py" ""
	floated b
}

@test "two tournaments running together never share a pinned CPU" {
	# A (one slot) holds its first run open at its bots' hello
	touch "$T/gate"
	JOBS=1 GATE="$T/gate" tfile "$T/a.json" "$T/a" a "$T/recbot $T/pidrec.py" ""
	bin/tournament run -q "$T/a.json" >"$T/a.out" 2>&1 &
	bg=$!
	wait_for started
	[ "$(cat "$T"/rec/a.* | wc -l)" -eq 3 ]
	mine=$(cpus a | sort -u)
	[ "$(printf '%s\n' "$mine" | wc -l)" -eq 1 ]
	[[ "$mine" != *,* ]]
	# B (as many slots as CPUs) runs all its games meanwhile
	play b "$T/recbot $T/pidrec.py" "" -j "$NCPU"
	[ "$(cpus b | wc -l)" -eq 12 ]
	# B's pinned runs (one CPU) never on A's, its others on any
	! cpus b | grep -qx "$mine" || false
	if [ "$NCPU" -ge 2 ]; then
		cpus b | grep -qv ,
	fi
	rm "$T/gate"
	wait "$bg"
	bg=
	[ "$(cpus a | wc -l)" -eq 12 ]
	[ "$(cpus a | sort -u)" = "$mine" ]
}

# referee_rec REC GAMES PROGRAM [FLAGS...]: a lone referee of 3 bots
# PROGRAM (pidrec.py, records $T/rec/REC.*, held by $GATE if set)
# playing $GAME (default nyse).
referee_rec() {
	local rec=$1 games=$2 program=$3 i
	shift 3
	set -- -g "${GAME:-nyse}" -n 3 --games "$games" -q --no-sandbox --bot-user same \
	    --time-hello 600000 "$@"
	for i in a b c; do
		set -- "$@" -b "$program $T/rec/$rec.$i ${GATE:-}"
	done
	bin/referee "$@" 2>"$T/referee.$rec.err"
}

@test "a lone referee pins itself and its bots to a leased CPU by default; --cpu none floats; slow starters on a short match float; a leased CPU is never taken" {
	[ "$NCPU" -ge 2 ] || skip "one CPU: nothing to pin"
	# by default: all three on one CPU, free (the one the referee ran
	# on, or the first)
	referee_rec d 3 "$T/recbot $T/pidrec.py" --stats >/dev/null
	[ "$(awk '$2 == "start"' "$T"/rec/d.* | wc -l)" -eq 3 ]
	first=$(cpus d | sort -u)
	[ "$(printf '%s\n' "$first" | wc -l)" -eq 1 ]
	[[ "$first" != *,* ]]
	# --stats names it
	[ "$(jv "$(tail -n 1 "$T/referee.d.err")" 'd["cpu"]')" = "$first" ]
	# --cpu none: every CPU
	referee_rec n 3 "$T/recbot $T/pidrec.py" --cpu none >/dev/null
	[ "$(cpus n | sort -u)" = "$ALL" ]
	# --cpu auto is the default
	referee_rec a 3 "$T/recbot $T/pidrec.py" --cpu auto >/dev/null
	[ "$(cpus a | sort -u | wc -l)" -eq 1 ]
	[[ "$(cpus a | sort -u)" != *,* ]]
	# Python by its name on 3 games floats; on 100 it is pinned
	referee_rec p 3 "python3 $T/pidrec.py" >/dev/null
	[ "$(cpus p | sort -u)" = "$ALL" ]
	referee_rec q 100 "python3 $T/pidrec.py" >/dev/null
	[ "$(cpus q | sort -u | wc -l)" -eq 1 ]
	[[ "$(cpus q | sort -u)" != *,* ]]
	# a CPU leased elsewhere is never taken, whichever the referee runs
	# on
	holder h1 "$CARDARENA_CPU_LEASES-cpu$first"
	referee_rec h 3 "$T/recbot $T/pidrec.py" >/dev/null
	[ "$(cpus h | sort -u | wc -l)" -eq 1 ]
	[ "$(cpus h | sort -u)" != "$first" ]
	[[ "$(cpus h | sort -u)" != *,* ]]
	rm "$T/h1"
	# a bad value: one line, status 2
	run bin/referee --cpu bogus -g horserace -b bin/random
	[ "$status" -eq 2 ]
	[ "$output" = "referee: --cpu bogus: a CPU's number (0 to 4095), auto or none" ]
}

@test "two lone referees started together never share a pinned CPU; with every CPU leased the next floats" {
	[ "$NCPU" -ge 2 ] || skip "one CPU: nothing to pin"
	# A holds its bots at their hello, pinned
	touch "$T/gate"
	GATE="$T/gate" referee_rec a 3 "$T/recbot $T/pidrec.py" >/dev/null 2>&1 &
	bg=$!
	apid=$bg
	wait_for started
	[ "$(cat "$T"/rec/a.* | wc -l)" -eq 3 ]
	mine=$(cpus a | sort -u)
	[[ "$mine" != *,* ]]
	referee_rec b 3 "$T/recbot $T/pidrec.py" >/dev/null
	[ "$(cpus b | sort -u | wc -l)" -eq 1 ]
	[ "$(cpus b | sort -u)" != "$mine" ]
	[[ "$(cpus b | sort -u)" != *,* ]]
	# every other CPU leased too: the third floats
	others=$(python3 -c 'import os, sys; print(" ".join("%s-cpu%d" % (sys.argv[1], c) for c in sorted(os.sched_getaffinity(0)) if str(c) != sys.argv[2]))' "$CARDARENA_CPU_LEASES" "$mine")
	holder h2 $others
	referee_rec c 3 "$T/recbot $T/pidrec.py" >/dev/null
	[ "$(cpus c | sort -u)" = "$ALL" ]
	rm "$T/h2" "$T/gate"
	wait "$apid"
	[ "$(cpus a | sort -u)" = "$mine" ]
}

@test "a game that asks its bots together (horserace's bets) floats where a CPU would stand idle: a lone referee, fewer slots than CPUs; a slot on every CPU keeps its own" {
	[ "$NCPU" -ge 2 ] || skip "one CPU: nothing to pin"
	# nyse, one seat at a time, is pinned by both (the tests above)
	GAME=horserace referee_rec r 3 "$T/recbot $T/pidrec.py" -o races=1 --stats >/dev/null
	[ "$(awk '$2 == "start"' "$T"/rec/r.* | wc -l)" -eq 3 ]
	[ "$(cpus r | sort -u)" = "$ALL" ]
	[ "$(jv "$(tail -n 1 "$T/referee.r.err")" 'd["cpu"]')" = "-1" ]
	GAME=horserace JOBS=1 play j1 "$T/recbot $T/pidrec.py" '"options": {"races": 1},'
	floated j1
	GAME=horserace JOBS=$NCPU play jn "$T/recbot $T/pidrec.py" '"options": {"races": 1},'
	[ "$(cpus jn | wc -l)" -eq 12 ]
	[ "$(cpus jn | grep -c ,)" -eq 0 ]
	# and so does "affinity": true at one slot
	GAME=horserace JOBS=1 play jt "$T/recbot $T/pidrec.py" '"options": {"races": 1}, "affinity": true,'
	[ "$(cpus jt | wc -l)" -eq 12 ]
	[ "$(cpus jt | sort -u | wc -l)" -eq 1 ]
	[[ "$(cpus jt | sort -u)" != *,* ]]
}

# sandboxed_cpus LAUNCHER CPU: the CPUs a sandboxed bot (own: our
# launcher, bwrap: bubblewrap) may use at its first command, at a table
# of --cpu CPU; its stderr comes out beside the log
sandboxed_cpus() {
	rm -f "$T"/m.log*
	if [ "$1" = bwrap ]; then
		CARDARENA_BWRAP="$(command -v bwrap)"
		export CARDARENA_BWRAP
	fi
	bin/referee -g nyse -n 3 --games 1 -q --sandbox --cpu "$2" \
	    --log "$T/m.log" \
	    -b 'sh -c "grep Cpus_allowed_list: /proc/self/status >&2; exec bin/random"' \
	    -b bin/random -b bin/random
	unset CARDARENA_BWRAP
	awk '{print $2}' "$T/m.log.bot0.stderr"
}

@test "a sandboxed bot runs on its table's CPU from its first instruction, by our own launcher and by bwrap" {
	[ "$NCPU" -ge 2 ] || skip "one CPU: nothing to pin"
	bin/referee -g horserace -q --sandbox -b bin/random -b bin/random \
	    -b bin/random 2>/dev/null || skip "the sandbox cannot run here"
	last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
	all=$(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)
	for launcher in own bwrap; do
		[ $launcher = own ] || command -v bwrap >/dev/null || continue
		run sandboxed_cpus $launcher "$last"
		[ "$status" -eq 0 ]
		[ "$output" = "$last" ]
		# --cpu none: all of them
		run sandboxed_cpus $launcher none
		[ "$status" -eq 0 ]
		[ "$output" = "$all" ]
	done
}
