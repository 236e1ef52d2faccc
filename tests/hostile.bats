#!/usr/bin/env bats
# The hostile corpus (SECURITY.md): tests/hostile/bot.py MODE at seat 0 of
# a horserace match against two C random bots.  For every case: the match
# ends with a complete result, the right fault is charged to bot 0 and
# none to the others, bin/replay --verify accepts the log, and no process
# of the hostile bot is left.  The sandbox cases also check that the
# attempt failed.  Timeouts come from bots that never answer, never from
# the machine's speed; limits that need root (a uid per bot) are skipped
# without it.  The referee sandboxes its bots by default where bubblewrap
# works: a case about bots outside the sandbox (isolated as root, or not
# protected at all) says --no-sandbox.

load helpers

# Plays the match with hostile MODE at seat 0 (ARG its third argument);
# more referee flags in "$@".  The result is in $output, the log in
# $T/m.log, bot 0's stderr in $T/m.log.bot0.stderr.
hostile() {
	hostile_as "" "$@"
}

# hostile, the referee run by the command $1 (e.g. setpriv ...): "" for
# none.
hostile_as() {
	local as=$1
	shift
	run $as bin/referee -g horserace -s 11 -o races="${RACES:-2}" --time-per-move 100 \
	    --time-bank 1500 --time-hello "${HELLO:-5000}" --grace 100 \
	    --log "$T/m.log" "$@" \
	    -b "python3 tests/hostile/bot.py $MODE $MARK ${ARG:-}" \
	    -b "${BOT1:-bin/random --seed 1}" -b "${BOT2:-bin/random --seed 2}"
	echo "$output"
	[ "$status" -eq 0 ]
	log_complete "$T/m.log"
	[ "$(jv "$output" 'd["games"], d["faults"][1:]')" = '[1, [0, 0]]' ]
	[ "${VERIFY:-1}" = 0 ] || bin/replay --verify -q "$T/m.log"
	no_leftovers "$MARK"
}

# Prints bot 0's count of fault kind $1.
count() {
	jv "$output" "d[\"fault_kinds\"][0][\"$1\"]"
}

# Prints bot 0's faults in all.
total() {
	jv "$output" 'd["faults"][0]'
}

# Plays hostile MODE $1 (more referee flags after $2) and checks bot 0
# was charged a fault of kind $2 for every request it was sent.
fault_per_request() {
	local mode=$1 kind=$2
	shift 2
	MODE=$mode hostile "$@"
	[ "$(count "$kind")" -eq "$(requests)" ]
}

# Plays hostile MODE $1 (more referee flags after it) and checks bot 0
# was charged no fault.
no_fault() {
	MODE=$1 hostile "${@:2}"
	[ "$(total)" -eq 0 ]
}

# True when at least $1 processes match the pattern $2.
procs_at_least() {
	[ "$(pgrep -fc -- "$2")" -ge "$1" ]
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (a uid per bot)"
}

# As root, where the machine lets the referee make namespaces (a container
# may not): the bots are isolated (SECURITY.md).
need_isolation() {
	need_root
	if bin/referee -g horserace -q --no-sandbox -b bin/random -b bin/random -b bin/random 2>&1 >/dev/null |
	    grep 'cannot be isolated'; then
		skip "bots cannot be isolated here"
	fi
}

need_sandbox() {
	sandbox_works || skip "the sandbox cannot run here"
}

# True where the referee can sandbox its bots (as the user "$@" runs it).
sandbox_works() {
	"$@" bin/referee -g horserace --sandbox -b 'bin/random' -b 'bin/random' \
	    -b 'bin/random' -q >/dev/null 2>&1
}

# True where bots run as root can be isolated (namespaces can be made).
isolation_works() {
	[ "$(id -u)" -eq 0 ] && ! bin/referee -g horserace -q --no-sandbox \
	    -b bin/random -b bin/random -b bin/random 2>&1 >/dev/null |
	    grep -q 'cannot be isolated'
}

# Runs "$@" as an ordinary user (nobody), from root; skips the test where
# that cannot be done.
need_user() {
	need_root
	command -v setpriv >/dev/null || skip "no setpriv"
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	AS_USER="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
	mkdir -m 1777 "$T/u"
}

# Without CAP_SYS_ADMIN (as in many containers): bots as root get uids of
# their own but no namespaces (the old default's bots, which saw every
# process).
NOADMIN="setpriv --bounding-set -sys_admin --inh-caps -sys_admin"

@test "fork bomb: contained by the process limit; the bot still plays" {
	need_root
	no_fault forkbomb --limit-nproc 16 --no-sandbox
}

@test "fork bomb under --sandbox: contained, nothing left" {
	need_sandbox
	no_fault forkbomb --limit-nproc 24 --sandbox
}

# Bots that run under an address-space limit, whatever the build: the
# SANITIZE=1 build's bin/random cannot (ASan reserves terabytes).
NOASAN1="python3 tests/bots/det.py 1"
NOASAN2="python3 tests/bots/det.py 2"

@test "memory hog: a limit fault naming the memory limit, sandboxed or not" {
	# under the sandbox bwrap's init reaped the bot: its peak size comes
	# from that init, which comes to the referee
	for sb in --no-sandbox ""; do
		BOT1=$NOASAN1 BOT2=$NOASAN2 HELLO=600000 MODE=memhog hostile --limit-mem 256 \
		    --time-per-move 60000 $sb
		[ "$(count limit)" -eq 1 ]
		[ "$(total)" -eq 1 ]
		lines_of "$T/m.log" fault | grep -q '"fault":"limit".*"detail":"memory: the memory limit (256 MiB'
	done
}

@test "CPU spinner that never answers: a limit fault naming the CPU limit" {
	# It never answers the hello: the referee waits for it until the limit
	# kills it, however slow the machine.
	HELLO=600000 MODE=spin hostile --limit-cpu 1 --no-sandbox
	[ "$(count limit)" -eq 1 ]
	[ "$(total)" -eq 1 ]
	lines_of "$T/m.log" fault | grep -q '"fault":"limit".*"detail":"cpu: the CPU time limit (1 s)'
}

@test "CPU spinner under --sandbox: the same limit fault" {
	need_sandbox
	HELLO=600000 MODE=spin hostile --limit-cpu 1 --sandbox
	[ "$(count limit)" -eq 1 ]
	lines_of "$T/m.log" fault | grep -q '"detail":"cpu: the CPU time limit'
}

@test "setsid grandchild holding the pipes: killed, the bot plays on" {
	no_fault setsid --no-sandbox
}

@test "setsid grandchild as the referee's own user (--bot-user same): killed" {
	no_fault setsid --bot-user same --no-sandbox
}

@test "double-fork daemon: killed when the bot stops" {
	no_fault daemon --no-sandbox
}

@test "double-fork daemon as the referee's own user: killed (subreaper)" {
	no_fault daemon --bot-user same --no-sandbox
}

@test "SIGTERM/SIGHUP ignorer that stays after bye: killed, no fault" {
	no_fault ignorer
}

@test "stderr flood: cut at the cap, the match not slowed into timeouts" {
	no_fault errflood --stderr-cap 100000
	size=$(stat -c %s "$T/m.log.bot0.stderr")
	[ "$size" -le 101000 ]
	grep -q 'more bytes dropped (the cap is 100000)' "$T/m.log.bot0.stderr"
}

@test "stdout flood of valid-looking lines: capped faults, then retired" {
	MODE=outflood hostile --max-faults 20 --results "$T/r.jsonl"
	[ "$(total)" -le 20 ]
	[ "$(total)" -ge 1 ]
	lines_of "$T/m.log" fault | grep -q 'retired for the rest of it\|dropped until the next'
	[ "$(stat -c %s "$T/m.log")" -lt 20000000 ]
}

@test "a flood of wrong-id lines during the handshake: bounded log" {
	run bin/referee -g horserace -s 1 -o races=1 --log "$T/m.log" -q \
	    --results "$T/r.jsonl" \
	    -b "sh -c 'yes {\\\"id\\\":99,\\\"index\\\":0} | head -n 2000000; sleep 600; : $MARK'" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2'
	[ "$status" -eq 0 ]
	log_complete "$T/m.log"
	[ "$(stat -c %s "$T/m.log")" -lt 20000000 ]
	[ "$(jv "$(cat "$T/r.jsonl")" 'd["retired"][0] or d["faults"][0] <= 100')" = true ]
	no_leftovers "$MARK"
}

@test "half a line, then sleep: a timeout per request" {
	fault_per_request halfline timeout
}

@test "a 50 MB line: one line_too_long, the referee's memory bounded" {
	MODE=bigline hostile
	[ "$(count line_too_long)" -eq 1 ]
	[ "$(count exit)" -eq 0 ]
}

@test "invalid UTF-8: malformed" {
	fault_per_request badutf8 malformed
}

@test "JSON nesting bomb: malformed" {
	fault_per_request nesting malformed
}

@test "huge numbers: malformed" {
	fault_per_request hugenum malformed
}

@test "duplicate keys: malformed" {
	fault_per_request dupkeys malformed
}

@test "wrong id: wrong_id" {
	fault_per_request wrongid wrong_id
}

@test "an answer before any request: one wrong_id, then it plays" {
	MODE=early hostile
	[ "$(count wrong_id)" -eq 1 ]
	[ "$(total)" -eq 1 ]
}

@test "closes its stdin at once: one exit fault, at once, sandboxed or not" {
	# under the sandbox bwrap's own processes held its stdin open: 9
	# timeouts, no exit; now a shell in the sandbox moves it from fd 4
	# (which bwrap closes in its own processes) to the bot's 0
	for sb in --no-sandbox ""; do
		HELLO=600000 MODE=closein hostile $sb
		[ "$(count exit)" -eq 1 ]
		[ "$(total)" -eq 1 ]
	done
}

@test "never reads its stdin while large views are written: timeouts, no block" {
	RACES=20 fault_per_request noread timeout
}

@test "sandbox: reading another bot's stderr file fails" {
	need_sandbox
	MODE=readfile ARG="$PWD/sec-other.log.bot1.stderr"
	run bin/referee -g horserace -s 3 -o races=1 --log "$PWD/sec-$MARK.log" \
	    --sandbox -q -b "python3 tests/hostile/bot.py readfile $MARK $PWD/sec-$MARK.log.bot1.stderr" \
	    -b 'bin/random' -b 'bin/random'
	out=$(cat "sec-$MARK.log.bot0.stderr")
	bin/replay --verify -q "sec-$MARK.log"
	rm -f sec-"$MARK".log*
	[ "$status" -eq 0 ]
	echo "$out"
	echo "$out" | grep -q '^readfile: denied\|^readfile: read 0 bytes'
	no_leftovers "$MARK"
}

@test "sandbox: reading the match log fails, in the working directory or not" {
	need_sandbox
	MODE=readfile ARG="$T/m.log" hostile --sandbox
	grep -q '^readfile: denied' "$T/m.log.bot0.stderr"
	run bin/referee -g horserace -s 3 -o races=1 --log "sec-$MARK.log" \
	    --sandbox -q -b "python3 tests/hostile/bot.py readfile $MARK $PWD/sec-$MARK.log" \
	    -b 'bin/random' -b 'bin/random'
	out=$(cat "sec-$MARK.log.bot0.stderr")
	rm -f sec-"$MARK".log*
	[ "$status" -eq 0 ]
	echo "$out" | grep -q '^readfile: denied\|^readfile: read 0 bytes'
}

@test "without the sandbox, a bot of its own uid cannot read the log either" {
	need_root
	MODE=readfile ARG="$T/m.log" hostile --no-sandbox
	grep -q '^readfile: denied' "$T/m.log.bot0.stderr"
}

# Bots 0 and 1 play keep (with $T/drop), 3 seat rotations, logged to $1;
# more referee flags in the rest; their stderr in $T/keep.
keep_match() {
	local log=$1
	shift
	run bin/referee -g horserace -s 3 -o races=1 --duplicate --games 3 -q \
	    --log "$log" "$@" \
	    -b "python3 tests/hostile/bot.py keep $MARK $T/drop" \
	    -b "python3 tests/hostile/bot.py keep $MARK $T/drop" -b bin/random
	cat "$log".bot[01].stderr | tee "$T/keep"
	[ "$status" -eq 0 ]
}

@test "own uids: a bot keeps nothing for a later seat rotation and leaves nothing for another bot" {
	need_isolation
	mkdir -m 1777 "$T/drop"
	# Without isolation (the bots run as root, --bot-user same) the
	# attack works: a later process finds what an earlier one left.
	keep_match "$T/same.log" --bot-user same --no-sandbox
	grep -q "^keep: found $T/drop/hostile-kept-$MARK" "$T/keep"
	grep -q "^keep: found /tmp/hostile-kept-$MARK" "$T/keep"
	for d in /tmp /var/tmp /dev/shm /run/lock "$T/drop"; do
		rm -f "$d/hostile-kept-$MARK"
	done
	# Isolated: 6 processes (2 bots x 3 rotations), each with a private
	# scratch that vanishes with it, and nowhere else to write.
	keep_match "$T/m.log" --no-sandbox
	[ "$(grep -c "^keep: wrote /var/tmp/hostile-kept-$MARK$" "$T/keep")" -eq 6 ]
	! grep -q '^keep: found' "$T/keep" || false
	! grep '^keep: wrote' "$T/keep" | grep -v '^keep: wrote /var/tmp/\|^keep: wrote /dev/shm/' || false
	[ "$(grep -c "^keep: denied $T/drop: Read-only file system" "$T/keep")" -eq 6 ]
	[ "$(grep -c "^keep: denied /tmp: Read-only file system" "$T/keep")" -eq 6 ]
	[ -z "$(ls -A "$T/drop")" ]
	for d in /tmp /var/tmp /dev/shm /run/lock; do [ ! -e "$d/hostile-kept-$MARK" ]; done
	no_leftovers "$MARK"
}

@test "own uids: every bot process has IPC, mount and PID namespaces of its own" {
	need_isolation
	run bin/referee -g horserace -s 3 -o races=1 --duplicate --games 3 -q \
	    --log "$T/m.log" --no-sandbox -b "python3 tests/hostile/bot.py ns $MARK" \
	    -b "python3 tests/hostile/bot.py ns $MARK" -b bin/random
	[ "$status" -eq 0 ]
	# bot 0's and bot 1's processes of each seat rotation, side by side:
	# they live at once, so their namespaces differ (a dead namespace's
	# number may come back later); none is ours
	paste -d' ' <(grep '^ns: ' "$T/m.log.bot0.stderr") \
	    <(grep '^ns: ' "$T/m.log.bot1.stderr") | tee "$T/ns"
	[ "$(wc -l <"$T/ns")" -eq 3 ]
	ours="$(readlink /proc/self/ns/ipc) $(readlink /proc/self/ns/mnt) $(readlink /proc/self/ns/pid)"
	while read -r _ i0 m0 p0 _ i1 m1 p1; do
		[ "$i0" != "$i1" ] && [ "$m0" != "$m1" ] && [ "$p0" != "$p1" ] || false
		[[ "$ours" != *"$i0"* && "$ours" != *"$i1"* ]]
		[[ "$ours" != *"$m0"* && "$ours" != *"$m1"* ]]
		[[ "$ours" != *"$p0"* && "$ours" != *"$p1"* ]]
	done <"$T/ns"
}

@test "without the sandbox no bot opens a socket: no network, no loopback, no abstract Unix socket" {
	python3 -c 'import socket, time, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
print(s.getsockname()[1], flush=True); time.sleep(30)' >"$T/port" &
	lp=$!
	wait_for test -s "$T/port"
	MODE=socket ARG=$(cat "$T/port") hostile --no-sandbox
	kill $lp
	grep -q '^socket: denied 127.0.0.1: Permission denied' "$T/m.log.bot0.stderr"
	grep -q '^socket: denied 1.1.1.1: Permission denied' "$T/m.log.bot0.stderr"
	! grep -q connected "$T/m.log.bot0.stderr" || false
	# nor as root with --bot-user same, nor a Unix socket
	run bin/referee -g horserace -s 3 -o races=1 -q --log "$T/u.log" --bot-user same --no-sandbox \
	    -b "python3 -c 'import socket; socket.socket(socket.AF_UNIX)'" -b bin/random -b bin/random
	[ "$status" -eq 0 ]
	grep -q 'PermissionError' "$T/u.log.bot0.stderr"
}

@test "sandbox: writing outside (working directory, the test's directory) fails" {
	need_sandbox
	chmod 755 "$T"
	MODE=writeout ARG="$PWD" hostile --sandbox
	grep -q '^writeout: denied' "$T/m.log.bot0.stderr"
	[ ! -e hostile-was-here ]
	# /tmp is the sandbox's own: the file vanishes with it
	MODE=writeout ARG=/tmp hostile --sandbox
	grep -q '^writeout: wrote' "$T/m.log.bot0.stderr"
	[ ! -e /tmp/hostile-was-here ]
}

@test "sandbox: no network, not even the host's loopback" {
	need_sandbox
	python3 -c 'import socket, time, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
print(s.getsockname()[1], flush=True); time.sleep(30)' >"$T/port" &
	lp=$!
	wait_for test -s "$T/port"
	MODE=socket ARG=$(cat "$T/port") hostile --sandbox
	kill $lp
	grep -q '^socket: denied 127.0.0.1' "$T/m.log.bot0.stderr"
	grep -q '^socket: denied 1.1.1.1' "$T/m.log.bot0.stderr"
	! grep -q connected "$T/m.log.bot0.stderr" || false
}

@test "sandbox: another bot cannot be signalled or traced (not even seen)" {
	need_sandbox
	BOT1="python3 tests/hostile/bot.py victim $MARK-victim" MODE=signal \
	    ARG="$MARK-victim" hostile --sandbox
	grep -q '^signal: no process found' "$T/m.log.bot0.stderr"
}

@test "own uids: another bot cannot be signalled, traced or framed (its pipes opened)" {
	need_root
	command -v setpriv >/dev/null || skip "no setpriv"
	# isolated: in a PID namespace of its own it does not even see it
	if isolation_works; then
		BOT1="python3 tests/hostile/bot.py victim $MARK-victim" MODE=signal \
		    ARG="$MARK-victim" hostile --no-sandbox
		grep -q '^signal: no process found' "$T/m.log.bot0.stderr"
	fi
	# without namespaces (a container's root), its uid alone stops it
	BOT1="python3 tests/hostile/bot.py victim $MARK-victim" MODE=signal \
	    ARG="$MARK-victim" hostile_as "$NOADMIN" --no-sandbox
	cat "$T/m.log.bot0.stderr"
	grep -q '^signal: kill [0-9]*: Operation not permitted' "$T/m.log.bot0.stderr"
	grep -q 'fd 0 of [0-9]*: Permission denied' "$T/m.log.bot0.stderr"
	grep -q 'fd 1 of [0-9]*: Permission denied' "$T/m.log.bot0.stderr"
	! grep -q 'killed\|traced\|stole\|answered' "$T/m.log.bot0.stderr" || false
}

@test "sandbox: the referee's /proc is out of sight" {
	need_sandbox
	MODE=procref hostile --sandbox
	grep -q '^procref: no process found' "$T/m.log.bot0.stderr"
}

@test "sandbox: no capability and no way back, by our own launcher and by bwrap" {
	need_sandbox
	# the launcher's processes held every capability of the bot's user
	# namespace while they built the sandbox: the bot holds none, and
	# cannot make what it sees writable, nor uncover what is hidden
	probe='grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status >&2
	echo "init: $(tr "\\0\\n" "  " </proc/1/cmdline | head -c 14)" >&2
	mount -o remount,rw / 2>/dev/null && echo "remounted /" >&2
	mount -o remount,rw "$PWD" 2>/dev/null && echo "remounted cwd" >&2
	umount "$HIDDEN" 2>/dev/null && echo "uncovered" >&2
	ls "$HIDDEN" >&2 2>/dev/null && echo "listed hidden" >&2
	exec bin/random'
	mkdir -p "$T/hid"
	echo secret >"$T/hid/s"
	for launcher in own bwrap; do
		if [ "$launcher" = bwrap ]; then
			command -v bwrap >/dev/null || continue
			export CARDARENA_BWRAP="$(command -v bwrap)"
		fi
		run env HIDDEN="$T/hid" bin/referee -g horserace -s 3 -o races=1 -q --sandbox \
		    --sandbox-hide "$T/hid" --log "$T/$launcher.log" \
		    -b "sh -c '$probe'" -b bin/random -b bin/random
		unset CARDARENA_BWRAP
		[ "$status" -eq 0 ]
		cat "$T/$launcher.log.bot0.stderr"
		[ "$(grep -c '^Cap[A-Za-z]*:	0000000000000000$' "$T/$launcher.log.bot0.stderr")" -eq 5 ]
		! grep -q 'remounted\|uncovered\|listed hidden' "$T/$launcher.log.bot0.stderr" || false
		if [ "$launcher" = own ]; then
			grep -qx 'init: cardarena-init' "$T/$launcher.log.bot0.stderr"
		else
			grep -q '^init: [^ ]*bwrap' "$T/$launcher.log.bot0.stderr"
		fi
	done
}

@test "own uids: the referee's /proc environ and descriptors are closed" {
	need_root
	command -v setpriv >/dev/null || skip "no setpriv"
	# isolated: the referee is out of sight (a PID namespace of its own);
	# its init there, pid 1, a copy of the referee, covers its command
	# line (the seed given with -s, the bots' commands) with its name
	if isolation_works; then
		MODE=procref hostile --no-sandbox
		grep -qx 'procref: no process found' "$T/m.log.bot0.stderr"
	fi
	# without namespaces, the referee is seen but closed
	MODE=procref hostile_as "$NOADMIN" --no-sandbox
	cat "$T/m.log.bot0.stderr"
	grep -q '^procref: environ [0-9]*: Permission denied' "$T/m.log.bot0.stderr"
	! grep -q 'read [0-9]* bytes\|opened fd\|listed' "$T/m.log.bot0.stderr" || false
}

@test "the environment is scrubbed: PATH, HOME, locale, CARDARENA_BOT_ENV and --env only" {
	run env CARDARENA_BOT_ENV=CARD_Z CARD_Z=2 CARD_NOT=3 \
	    bin/referee -g horserace -s 3 -o races=1 -q --env CARD_X=1 \
	    -b "sh -c 'env >&2; exec bin/random'" -b bin/random -b bin/random \
	    --log "$T/m.log"
	[ "$status" -eq 0 ]
	cut -d= -f1 "$T/m.log.bot0.stderr" | grep -v '^---\|^$\|^PWD$\|^SHLVL$\|^_$' | sort >"$T/keys"
	cat "$T/keys"
	grep -q '^CARD_X$' "$T/keys"
	grep -q '^CARD_Z$' "$T/keys"
	# TMPDIR: a bot isolated as root is given its private scratch
	! grep -v '^\(PATH\|HOME\|TMPDIR\|LANG\|LC_ALL\|LC_CTYPE\|TZ\|CARD_X\|CARD_Z\)$' "$T/keys" || false
}

@test "only descriptors 0, 1 and 2 are inherited" {
	run bin/referee -g horserace -s 3 -o races=1 -q --log "$T/m.log" \
	    -b "sh -c 'ls /proc/self/fd >&2; exec bin/random'" -b bin/random -b bin/random 3</dev/null 7</dev/null
	[ "$status" -eq 0 ]
	grep -v '^---\|^$' "$T/m.log.bot0.stderr" | sort -n | tr '\n' ' ' >"$T/fds"
	cat "$T/fds"
	# ls itself holds one more (the directory it reads)
	[ "$(cat "$T/fds")" = "0 1 2 3 " ]
}

@test "the limits are set as given, core dumps off" {
	run bin/referee -g horserace -s 3 -o races=1 -q --log "$T/m.log" \
	    --limit-cpu 7 --limit-mem 700 --limit-nproc 33 --limit-fsize 5 \
	    --limit-nofile 44 \
	    -b "bash -c 'ulimit -t -v -u -f -n -c >&2; exec $NOASAN1'" -b "$NOASAN2" -b "$NOASAN2"
	[ "$status" -eq 0 ]
	tr -s ' ' <"$T/m.log.bot0.stderr" | grep -v '^---\|^$' | awk '{print $NF}' | tr '\n' ' ' >"$T/lim"
	cat "$T/lim"
	[ "$(cat "$T/lim")" = "7 716800 33 5120 44 0 " ]
}

@test "a limit is never raised above the referee's own: its bots get what it has" {
	# the referee's hard file size limit 200 KiB, below the default 64 MiB
	# (raising it needs a privilege a referee may lack: it failed every
	# bot's exec here); the other limits as given
	run bash -c "trap '' XFSZ; ulimit -f 200; exec bin/referee -g horserace -s 3 -o races=1 \
	    -q --log '$T/m.log' --limit-nofile 44 \
	    -b \"bash -c 'ulimit -H -f >&2; ulimit -f -n >&2; exec $NOASAN1'\" \
	    -b '$NOASAN2' -b '$NOASAN2'"
	[ "$status" -eq 0 ]
	tr -s ' ' <"$T/m.log.bot0.stderr" | grep -v '^---\|^$' | awk '{print $NF}' | tr '\n' ' ' >"$T/lim"
	cat "$T/lim"
	[ "$(cat "$T/lim")" = "200 200 44 " ]
}

@test "a file size limit: a limit fault naming it" {
	run bin/referee -g horserace -s 3 -o races=1 --log "$T/m.log" --limit-fsize 1 \
	    -b "sh -c 'exec head -c 3000000 /dev/zero >\${TMPDIR:-/tmp}/cardarena-fsize-$MARK'" \
	    -b bin/random -b bin/random
	rm -f "/tmp/cardarena-fsize-$MARK"
	[ "$status" -eq 0 ]
	lines_of "$T/m.log" fault | grep -q '"fault":"limit".*"detail":"fsize: the file size limit (1 MiB)'
}

@test "bad limit and sandbox flags are refused with one line" {
	run bin/referee -g horserace --limit-cpu -1 -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/referee -g horserace --limit-nofile 3 -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	run bin/referee -g horserace --limit-scratch -1 -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/referee -g horserace --env NOEQUALS -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	run bin/referee -g horserace --bot-user nobody -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	run bin/referee -g horserace --sandbox-bind /no/such/dir -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
}

@test "--sandbox without bubblewrap, or where it cannot run: one clear error" {
	run env CARDARENA_BWRAP=/no/such/bwrap bin/referee -g horserace \
	    --sandbox -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	echo "$output" | grep -q 'bwrap (Debian.s bubblewrap) is not installed'
	printf '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' >"$T/bwrap"
	chmod 755 "$T/bwrap"
	run env CARDARENA_BWRAP="$T/bwrap" bin/referee -g horserace \
	    --sandbox -b bin/random -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	echo "$output" | grep -q 'cannot create its namespaces here: bwrap: No permissions'
}

@test "our own sandbox where no user namespace can be made: --sandbox one clear error, the default falls back with its warning" {
	command -v unshare >/dev/null || skip "no unshare"
	# a user namespace of the test's own, whose limit of user namespaces
	# is 0: the referee, "root" there, can make none
	unshare -U -r true 2>/dev/null || skip "no user namespaces here"
	unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces' 2>/dev/null ||
	    skip "a user namespace's own limit cannot be set here"
	run unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces &&
	    exec bin/referee -g horserace -s 3 -o races=1 -q --sandbox --bot-user same '"$LIMITS"' \
	    -b bin/random -b bin/random -b bin/random'
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "referee: --sandbox: the sandbox's namespaces cannot be made here: cardarena sandbox: unshare (at the limit of user namespaces, user.max_user_namespaces): No space left on device" ]
	run unshare -U -r sh -c 'echo 0 >/proc/sys/user/max_user_namespaces &&
	    exec bin/referee -g horserace -s 3 -o races=1 -q --bot-user same '"$LIMITS"' \
	    --log '"$T"'/f.log -b bin/random -b bin/random -b bin/random'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c "^referee: WARNING: bots run neither sandboxed nor isolated (--sandbox: the sandbox's namespaces cannot be made here: cardarena sandbox: unshare")" -eq 1 ]
	log_complete "$T/f.log"
	[ "$(jv "$(tail -n 1 "$T/f.log")" 'd["games"], d["faults"]')" = '[1, [0, 0, 0]]' ]
}

@test "the default sandbox: no check run of its own; a bot failing under bwrap alone does not turn it off; where it cannot run, the bots start again outside" {
	need_sandbox
	# a bwrap that notes each command it runs (the check runs `true`),
	# where the bots' users may run it, and fails for a bot named FAILME
	chmod 711 "$T"
	mkdir -m 755 "$T/w"
	printf '#!/bin/sh\necho "$*" >>"%s"\ncase "$*" in *FAILME*) echo "bwrap: cannot" >&2; exit 1 ;; esac\nexec %s "$@"\n' \
	    "$T/w/calls" "$(command -v bwrap)" >"$T/w/bwrap"
	chmod 755 "$T/w/bwrap"
	: >"$T/w/calls"
	chmod 666 "$T/w/calls"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/referee -g horserace -s 3 -o races=1 -q $LIMITS \
	    -b bin/random -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(grep -c ' true$' "$T/w/calls")" -eq 0 ]
	[ "$(grep -c 'bin/random$' "$T/w/calls")" -eq 3 ]
	# a bot whose own start under bwrap fails: the sandbox stays on (the
	# others play in it; the check runs unless one of them was up
	# already, which proves it works), the bot is lost
	: >"$T/w/calls"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/referee -g horserace -s 3 -o races=1 $LIMITS \
	    --log "$T/f.log" -b "bin/random FAILME" -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'WARNING\|cannot be isolated' || false
	[ "$(grep -c ' true$' "$T/w/calls")" -le 1 ]
	[ "$(grep -c 'bin/random$' "$T/w/calls")" -eq 2 ]
	[ "$(jv "$output" 'd["fault_kinds"][0]["exit"] > 0, d["faults"][1:]')" = '[true, [0, 0]]' ]
	grep -q 'bwrap: cannot' "$T/f.log.bot0.stderr"
	# bwrap failing for all: the check fails, the bots start again
	# outside (as root isolated, else with the one warning), and play
	printf '#!/bin/sh\necho "$*" >>"%s"\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' \
	    "$T/w/calls" >"$T/w/bwrap"
	: >"$T/w/calls"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/referee -g horserace -s 3 -o races=1 $LIMITS \
	    --log "$T/g.log" -b "python3 tests/hostile/bot.py comm $MARK x" -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c ' true$' "$T/w/calls")" -eq 1 ]
	[ "$(jv "$(echo "$output" | grep '^{')" 'd["faults"]')" = '[0, 0, 0]' ]
	if [ "$(id -u)" -ne 0 ]; then
		[ "$(echo "$output" | grep -c '^referee: WARNING: bots run neither sandboxed nor isolated (--sandbox: .* cannot create its namespaces here: bwrap: No permissions')" -eq 1 ]
	fi
	! grep -q 'bwrap:' "$T/g.log.bot0.stderr" || false
	no_leftovers "$MARK"
}

@test "python and node bots play under --sandbox" {
	need_sandbox
	run bin/referee -g nyse -s 1 --sandbox --log "$T/m.log" \
	    -b 'python3 bots/python/random_bot.py' -b 'node bots/js/random_bot.js' \
	    -b bin/random
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
}

@test "SIGKILL of the referee: sandboxed bots and their children die too" {
	need_sandbox
	bin/referee -g horserace -s 3 --time-per-move 100000 --sandbox -q \
	    -b "python3 tests/hostile/bot.py setsid $MARK" \
	    -b "python3 tests/hostile/bot.py halfline $MARK" -b bin/random &
	pid=$!
	# the setsid bot's grandchild is up (the referee's and bubblewrap's
	# command lines hold the mark from the start)
	wait_for procs_at_least 1 "python3 -c import time.*$MARK"
	kill -KILL $pid
	wait $pid || true
	no_leftovers "$MARK"
}

@test "SIGKILL of the referee without the sandbox: its watchdog kills what bots left" {
	need_root
	bin/referee -g horserace -s 3 --time-per-move 100000 -q --no-sandbox \
	    -b "python3 tests/hostile/bot.py setsid $MARK" \
	    -b "python3 tests/hostile/bot.py halfline $MARK" \
	    -b "python3 tests/hostile/bot.py daemon $MARK" &
	pid=$!
	wait_for procs_at_least 2 "python3 -c import time.*$MARK"
	kill -KILL $pid
	wait $pid || true
	no_leftovers "$MARK"
}

@test "SIGKILL of bin/tournament mid -j 2 run with sandboxed bots: nothing left" {
	need_sandbox
	cat >"$T/t.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 2, "seed": 5,
 "sandbox": true, "time_per_move_ms": 100000, "output": "$T/out",
 "bots": [
  {"name": "a", "command": "python3 tests/hostile/bot.py setsid $MARK"},
  {"name": "b", "command": "python3 tests/hostile/bot.py halfline $MARK"},
  {"name": "c", "command": "python3 tests/hostile/bot.py daemon $MARK"},
  {"name": "d", "command": "bin/random"}]}
EOF
	bin/tournament run -j 2 "$T/t.json" >/dev/null 2>&1 &
	pid=$!
	# both tables' grandchildren are up: every table of three holds the
	# setsid bot or the daemon
	wait_for procs_at_least 2 "python3 -c import time.*$MARK"
	kill -KILL $pid
	wait $pid || true
	no_leftovers "$MARK"
}

# Runs the tournament $T/$1.json (written here) with output $T/$2, seed
# $3: one table of bot.py ARGS $4 (named x) and two random bots, more
# keys in $5; run by the command $TOUR_AS (e.g. setpriv ...) if set.
# Without bats's descriptors 3 and 4 (its output): a bot that could write
# into the tournament's descriptors would write there too.
bot_tournament() {
	cat >"$T/$1.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 2, "seed": $3, "output": "$T/$2",
 "options": {"races": 1}, $TOUR_LIMITS, ${5:-}
 "bots": [{"name": "x", "command": "python3 tests/hostile/bot.py $4"},
          {"name": "r1", "command": "bin/random --seed 1"},
          {"name": "r2", "command": "bin/random --seed 2"}]}
EOF
	chmod 644 "$T/$1.json"
	rm -rf "${T:?}/$2"
	run ${TOUR_AS:-} bin/tournament run -q "$T/$1.json" 3>&- 4>&-
	[ "$status" -eq 0 ]
}

# Sets TOUR_AS so that a tournament's bots see every process (as root:
# without CAP_SYS_ADMIN, so own uids but no namespaces, the old default's
# bots; else the referee's own user does); skips without setpriv.
see_all() {
	TOUR_AS=""
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "no setpriv"
		TOUR_AS=$NOADMIN
	fi
}

# A tournament ($T/s.json, seed 77, output $T/sout) of the snoop bot
# (ARG: its file and journal) and two random bots; more keys in $1; its
# stderr in $T/snoop.
snoop_tournament() {
	bot_tournament s sout 77 "snoop $MARK $T/s.json:$T/sout/journal.jsonl" "${1:-}"
	# what it saw of this tournament's processes (its mark is in their
	# command lines) and of the files
	cat "$T"/sout/logs/*.stderr | grep "^snoop: cmdline .*$MARK\|^snoop: file " >"$T/snoop"
	sort "$T/snoop" | uniq -c
}

@test "a tournament's seeds are on no command line: a bot that reads every process's finds none" {
	# bots that see every process (sandboxed or isolated ones see none)
	see_all
	snoop_tournament '"sandbox": false,'
	# it found the referees and the tournament (6 games)
	[ "$(grep -c '^snoop: cmdline .*referee -g horserace' "$T/snoop")" -ge 6 ]
	# and not one seed (the bots' own flags, from -b on, aside): the
	# referee takes it from its environment
	! grep '^snoop: cmdline' "$T/snoop" | sed 's/ -b .*//' | grep -q -- ' -s \| --seed' || false
	# which no bot reads (as root; with the referee's uid it could)
	if [ "$(id -u)" -eq 0 ]; then
		cat "$T"/sout/logs/*.stderr | grep '^snoop: environ referee' >"$T/env"
		[ -s "$T/env" ]
		! grep -v 'denied' "$T/env" || false
	fi
}

@test "own uids: a bot cannot read the tournament's file (its seed) nor its journal (every game's seed)" {
	need_isolation
	snoop_tournament '"sandbox": false,'
	# the file is there for anyone to read, yet the bot reads nothing
	[ "$(stat -c %a "$T/s.json")" = 644 ]
	grep -q "^snoop: file $T/s.json denied" "$T/snoop"
	grep -q "^snoop: file $T/sout/journal.jsonl denied" "$T/snoop"
	! grep -q "^snoop: file .* read [1-9]" "$T/snoop" || false
	# without isolation it could: the same bot as root (--bot-user same)
	snoop_tournament '"bot_user": "same", "sandbox": false,'
	grep -q "^snoop: file $T/s.json read [1-9]" "$T/snoop"
	grep -q "^snoop: file $T/sout/journal.jsonl read [1-9]" "$T/snoop"
}

@test "own uids, sandbox: an output in a directory others cannot search, under the working directory: the bots play, the journal out of their reach" {
	need_root
	need_sandbox
	# a ladder's spool is such a place (0700: its plans hold the seeds);
	# bwrap, run as a bot's uid, could not make the mount point hiding
	# the output under the working directory it shows a bot of no
	# directory, and every bot of every game crashed
	mkdir -m 700 "$T/w" "$T/w/priv"
	chmod 755 "$T/w"
	cat >"$T/w/p.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 2, "output": "priv/out",
 "options": {"races": 1}, "sandbox": true, $TOUR_LIMITS,
 "bots": [{"name": "x", "command": "python3 $PWD/tests/hostile/bot.py snoop $MARK $T/w/p.json:$T/w/priv/out/journal.jsonl"},
          {"name": "r1", "command": "$PWD/bin/random --seed 1"},
          {"name": "r2", "command": "$PWD/bin/random --seed 2"}]}
EOF
	(cd "$T/w" && "$OLDPWD/bin/tournament" run -q p.json 3>&- 4>&-)
	[ "$(grep -c '^{"table"' "$T/w/priv/out/journal.jsonl")" -eq 6 ]
	! grep '"crash":[1-9]' "$T/w/priv/out/journal.jsonl" || false
	cat "$T"/w/priv/out/logs/*.stderr | grep '^snoop: file ' >"$T/snoop"
	cat "$T/snoop"
	grep -q "^snoop: file $T/w/priv/out/journal.jsonl denied" "$T/snoop"
}

# A tournament ($T/f.json, output $T/$1) of bot.py MODE $1 (it forges
# into the processes named $3, default referee and tournament) and two
# random bots; more keys in $2; the journal in $T/$1/journal.jsonl, the
# forge lines of the bot's stderr in $T/attempts.
forge_tournament() {
	bot_tournament f "$1" 9 "$1 $MARK ${3:-referee,tournament}:$T:$T/$1/journal.jsonl" "${2:-}"
	cat "$T/$1"/logs/*.stderr | grep '^forge: ' >"$T/attempts" || true
	sort "$T/attempts" | uniq -c
}

@test "own uids: a bot cannot forge a tournament's results (the referee's and the tournament's descriptors, the journal)" {
	need_root
	# bots that see every process (own uids without namespaces)
	see_all
	# the results of a bot that plays as the forger does, and no more
	forge_tournament victim '"sandbox": false,'
	# the forger found the referee and the tournament, and got nowhere
	forge_tournament forge '"sandbox": false,'
	grep -q '^forge: referee fd 1 denied' "$T/attempts"
	grep -q '^forge: tournament fds denied' "$T/attempts"
	grep -q "^forge: file $T/forge/journal.jsonl denied" "$T/attempts"
	! grep -q '^forge: wrote' "$T/attempts" || false
	cmp "$T/victim/journal.jsonl" "$T/forge/journal.jsonl"
	! grep -rq FORGED "$T/forge" || false
	# the attack works on a bot run as the referee's own user, root (into
	# the tournament alone: forged lines in the referee's pipes would
	# leave the other bots waiting for requests that never come)
	forge_tournament forge '"bot_user": "same", "sandbox": false,' tournament
	grep -q '^forge: wrote tournament fd' "$T/attempts"
	grep -q FORGED "$T/forge/journal.jsonl"
}

@test "a tournament or a gauntlet whose bots cannot be isolated says so once, at its start" {
	need_isolation
	command -v setpriv >/dev/null || skip "no setpriv"
	# without CAP_SYS_ADMIN (as in many containers) no namespace is made:
	# the referees write it in their stderr files, the run must say it
	noadmin="setpriv --bounding-set -sys_admin --inh-caps -sys_admin"
	$noadmin bin/referee -g horserace -q --no-sandbox -b bin/random -b bin/random \
	    -b bin/random 2>&1 | grep -q 'cannot be isolated'
	# (the sandbox, the default, isolates them: files say false here)
	bot_tournament i iout 5 "victim $MARK" '"sandbox": false,'
	! echo "$output" | grep -q 'cannot be isolated' || false
	run $noadmin bin/tournament run -q "$T/i.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^tournament: bots cannot be isolated here .*"sandbox": true isolates them')" -eq 1 ]
	# not when the file keeps the bots as the referee's own user
	rm -rf "$T/iout"
	bot_tournament i iout 5 "victim $MARK" '"bot_user": "same", "sandbox": false,'
	run $noadmin bin/tournament run -q "$T/i.json"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'cannot be isolated' || false
	# the gauntlet alike, unless its referees keep the bots as their own
	# user (2 deals: it stops undecided, exit status 3)
	g="bin/tournament gauntlet -g horserace -n 3 -s 1 --max-deals 2 -q --time-per-move 600000 -c bin/random -p bin/random --referee-arg --no-sandbox"
	run $g
	[ "$status" -eq 3 ]
	! echo "$output" | grep -q 'cannot be isolated' || false
	run $noadmin $g
	[ "$status" -eq 3 ]
	[ "$(echo "$output" | grep -c 'bots cannot be isolated here .*isolates them')" -eq 1 ]
	run $noadmin $g --referee-arg --bot-user --referee-arg same
	[ "$status" -eq 3 ]
	! echo "$output" | grep -q 'cannot be isolated' || false
}

@test "tournament files: sandbox, limits, env and bot_user reach every bot" {
	cat >"$T/t.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 1, "duplicate": false,
 "options": {"races": 1}, "seed": 5, "output": "$T/out",
 "sandbox": "auto", "limits": {"cpu_s": 77, "nofile": 55, "scratch_mb": 5},
 "env": {"CARD_Y": "yes"}, "bot_user": "auto",
 "bots": [
  {"name": "a", "command": "bash -c 'ulimit -t -n >&2; echo CARD_Y=\$CARD_Y >&2; df -k /tmp /var/tmp >&2; exec bin/random'"},
  {"name": "b", "command": "bin/random --seed 1"},
  {"name": "c", "command": "bin/random --seed 2"}]}
EOF
	run bin/tournament run -q "$T/t.json"
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$T"/out/logs/*.bot?.stderr >"$T/err"
	cat "$T/err"
	grep -q '^cpu time.* 77$' "$T/err"
	grep -q '^open files.* 55$' "$T/err"
	grep -q '^CARD_Y=yes$' "$T/err"
	# its scratch, sandboxed (/tmp) or isolated (/var/tmp): 5 MiB
	grep -q '^tmpfs  *5120 ' "$T/err"
}

@test "tournament files: bad sandbox, limits, env and bot_user keys are refused" {
	for bad in '"sandbox": 1' '"sandbox": "maybe"' '"limits": {"cpu": 1}' \
	    '"limits": {"cpu_s": -1}' '"limits": {"nofile": 3}' '"limits": 5' \
    '"limits": {"scratch_mb": -2}' \
	    '"env": {"A": 1}' '"env": {"A=B": "x"}' '"bot_user": "root"'; do
		cat >"$T/t.json" <<EOF
{"game": "horserace", "seats": 3, "output": "$T/out", $bad,
 "bots": [{"name": "a", "command": "bin/random"},
  {"name": "b", "command": "bin/random"}, {"name": "c", "command": "bin/random"}]}
EOF
		run bin/tournament schedule "$T/t.json"
		echo "$bad: $output"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -eq 1 ]
		echo "$output" | grep -q 'sandbox\|limits\|env\|bot_user'
	done
}

# Plays bot.py MODE $1 (ARG $2) at seats 0 and 1, a random bot at 2, one
# game, the referee run by the command $PAIR_AS if set (then logged in
# $T/u); more referee flags in the rest; what both reported of MODE in
# $T/seen.
pair_match() {
	local mode=$1 arg=$2 dir=$T
	shift 2
	[ -z "${PAIR_AS:-}" ] || dir=$T/u
	rm -f "$dir"/p.log*
	run ${PAIR_AS:-} bin/referee -g horserace -s 3 -o races=1 -q --log "$dir/p.log" $LIMITS "$@" \
	    -b "python3 tests/hostile/bot.py $mode $MARK $arg" \
	    -b "python3 tests/hostile/bot.py $mode $MARK $arg" -b bin/random
	cat "$dir"/p.log.bot[01].stderr | grep "^$mode: \|^flock: " | tee "$T/seen"
	[ "$status" -eq 0 ]
}

# Sets PAIR_AS to run as an ordinary user (nobody) where this runs as root
# and can; else leaves it empty and fails.
as_ordinary_user() {
	PAIR_AS=""
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	    id nobody >/dev/null 2>&1 || return 1
	PAIR_AS="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
	mkdir -p -m 1777 "$T/u"
}

@test "no channel between bots: a name set with prctl is seen by another bot only when neither is sandboxed nor isolated" {
	name="hc$BATS_TEST_NUMBER-$RANDOM"
	# without the defence (the bots as the referee's own user, no
	# sandbox): each reads the other's name in /proc/PID/comm
	pair_match comm "$name" --bot-user same --no-sandbox
	[ "$(grep -c '^comm: seen [0-9]' "$T/seen")" -eq 2 ]
	# isolated, each in a PID namespace of its own: no other process
	if isolation_works; then
		pair_match comm "$name" --no-sandbox
		[ "$(grep -c '^comm: none seen' "$T/seen")" -eq 2 ]
	fi
	# the default: sandboxed where bubblewrap works
	if sandbox_works; then
		pair_match comm "$name"
		[ "$(grep -c '^comm: none seen' "$T/seen")" -eq 2 ]
	fi
	# as an ordinary user: seen without the sandbox, not in it
	if as_ordinary_user; then
		pair_match comm "$name" --no-sandbox
		[ "$(grep -c '^comm: seen [0-9]' "$T/seen")" -eq 2 ]
		if sandbox_works $PAIR_AS; then
			pair_match comm "$name"
			[ "$(grep -c '^comm: none seen' "$T/seen")" -eq 2 ]
		fi
	fi
	no_leftovers "$MARK"
}

@test "no channel between bots: file locks are refused to every bot (ENOLCK), sandboxed or not, root or not" {
	# without the defence (the same two programs run bare): one reads the
	# other's lock of a byte of a file both may read (F_GETLK)
	mkfifo "$T/in"
	python3 tests/hostile/bot.py lock "$MARK" <"$T/in" 2>"$T/bare0" &
	exec 5>"$T/in"
	wait_for grep -q '^lock: holding' "$T/bare0"
	echo '{"type": "bye"}' | python3 tests/hostile/bot.py lock "$MARK" 2>"$T/bare1"
	exec 5>&-
	wait
	cat "$T/bare1"
	grep -q "^lock: seen another's lock of byte 7777" "$T/bare1"
	# under the referee, every way it runs them: no lock, no look
	for how in "--bot-user same --no-sandbox" --no-sandbox ""; do
		pair_match lock "" $how
		[ "$(grep -c '^lock: denied: No locks available' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^flock: denied: No locks available' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^lock: look denied: No locks available' "$T/seen")" -eq 2 ]
	done
	# as an ordinary user too
	if as_ordinary_user; then
		for how in --no-sandbox ""; do
			pair_match lock "" $how
			[ "$(grep -c '^lock: look denied: No locks available' "$T/seen")" -eq 2 ]
		done
	fi
	no_leftovers "$MARK"
}

@test "bounded scratch: every writable tmpfs a bot gets holds --limit-scratch MiB" {
	# isolated (root): its /var/tmp and /dev/shm are one tmpfs
	if isolation_works; then
		# without the defence (no limit): 24 MiB in each
		pair_match fill /var/tmp,/dev/shm:24 --no-sandbox --limit-scratch 0
		[ "$(grep -c '^fill: /var/tmp 24 MiB: done' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^fill: /dev/shm 24 MiB: done' "$T/seen")" -eq 2 ]
		pair_match fill /var/tmp,/dev/shm:24 --no-sandbox --limit-scratch 8
		[ "$(grep -c '^fill: /var/tmp [78] MiB: No space left on device' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^fill: /dev/shm [01] MiB: No space left on device' "$T/seen")" -eq 2 ]
	fi
	# sandboxed: its /tmp and its /dev/shm, each
	if sandbox_works; then
		pair_match fill /tmp,/dev/shm:24 --sandbox --limit-scratch 0
		[ "$(grep -c '^fill: /tmp 24 MiB: done' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^fill: /dev/shm 24 MiB: done' "$T/seen")" -eq 2 ]
		pair_match fill /tmp,/dev/shm:24 --sandbox --limit-scratch 8
		[ "$(grep -c '^fill: /tmp [78] MiB: No space left on device' "$T/seen")" -eq 2 ]
		[ "$(grep -c '^fill: /dev/shm [78] MiB: No space left on device' "$T/seen")" -eq 2 ]
		# and nothing else: /dev is read-only, and so is the root
		# bwrap makes it (it was writable, without a size limit)
		pair_match fill /dev:1 --sandbox
		[ "$(grep -c '^fill: /dev 0 MiB: Read-only file system' "$T/seen")" -eq 2 ]
		pair_match fill /:1 --sandbox
		[ "$(grep -c '^fill: / 0 MiB: Read-only file system' "$T/seen")" -eq 2 ]
	fi
	# as an ordinary user, sandboxed by default
	if as_ordinary_user && sandbox_works $PAIR_AS; then
		pair_match fill /tmp:24 --limit-scratch 8
		[ "$(grep -c '^fill: /tmp [78] MiB: No space left on device' "$T/seen")" -eq 2 ]
	fi
	no_leftovers "$MARK"
}

# A sandboxed bot's /dev: what it lists there, then whether the devices
# work, on its stderr; referee flags in "$@" (run as $DEV_AS).
dev_match() {
	local dir=$T
	[ -z "${DEV_AS:-}" ] || dir=$T/u
	run ${DEV_AS:-} bin/referee -g horserace -s 3 -o races=1 -q --log "$dir/d.log" $LIMITS "$@" \
	    -b "sh -c '{ echo dev: \$(ls -A /dev); echo urandom: \$(head -c 16 /dev/urandom | wc -c); \
echo zero: \$(head -c 8 /dev/zero | od -An -tx1); echo null >/dev/null && echo null: ok; \
touch /dev/new 2>/dev/null || echo made: none; } >&2; exec bin/random'" -b bin/random -b bin/random
	[ "$status" -eq 0 ]
	cp "$dir/d.log.bot0.stderr" "$T/seen"
	cat "$T/seen"
}

@test "sandbox: /dev holds the five devices a program opens, the fd links and shm, nothing more, in every mode" {
	need_sandbox
	want='dev: fd full null random shm stderr stdin stdout urandom zero'
	DEV_AS="" dev_match --sandbox
	grep -qx "$want" "$T/seen"
	grep -qx 'urandom: 16' "$T/seen"
	grep -qx 'zero: 00 00 00 00 00 00 00 00' "$T/seen"
	grep -qx 'null: ok' "$T/seen"
	grep -qx 'made: none' "$T/seen"
	if as_ordinary_user && sandbox_works $PAIR_AS; then
		DEV_AS=$PAIR_AS dev_match
		grep -qx "$want" "$T/seen"
		grep -qx 'urandom: 16' "$T/seen"
		grep -qx 'null: ok' "$T/seen"
		grep -qx 'made: none' "$T/seen"
	fi
}

@test "safe by default: unprotected bots get one loud warning, and can kill the referee; sandboxed, they cannot" {
	need_user
	# without the defence: as an ordinary user without the sandbox
	run $AS_USER bin/referee -g horserace -s 3 -o races=1 -q --log "$T/u/k.log" $LIMITS \
	    --no-sandbox -b "python3 tests/hostile/bot.py killref $MARK" -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 137 ]
	[ "$(echo "$output" | grep -c '^referee: WARNING: bots run neither sandboxed nor isolated (--no-sandbox): each runs as the referee.s own user and can read and write')" -eq 1 ]
	# so as root with --bot-user same
	run bin/referee -g horserace -s 3 -o races=1 -q --log "$T/k.log" $LIMITS \
	    --no-sandbox --bot-user same -b "python3 tests/hostile/bot.py killref $MARK" -b bin/random -b bin/random
	[ "$status" -eq 137 ]
	[ "$(echo "$output" | grep -c '^referee: WARNING: bots run neither sandboxed nor isolated (--no-sandbox): each runs as root')" -eq 1 ]
	# bubblewrap failing: the default falls back, with the one warning
	printf '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' >"$T/u/bwrap"
	chmod 755 "$T/u/bwrap"
	run $AS_USER env CARDARENA_BWRAP="$T/u/bwrap" bin/referee -g horserace -s 3 -o races=1 \
	    -q $LIMITS -b bin/random -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	echo "$output" | grep -q '^referee: WARNING: bots run neither sandboxed nor isolated (--sandbox: .* cannot create its namespaces here: bwrap: No permissions'
	# the default, where bubblewrap works for that user: sandboxed, no
	# warning, and the bot's parent is bwrap's init, which it cannot kill
	sandbox_works $AS_USER || skip "bubblewrap cannot run here as an ordinary user"
	run $AS_USER bin/referee -g horserace -s 3 -o races=1 --log "$T/u/k.log" $LIMITS \
	    -b "python3 tests/hostile/bot.py killref $MARK" -b bin/random -b bin/random
	echo "$output"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q WARNING || false
	log_complete "$T/u/k.log"
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	no_leftovers "$MARK"
}

@test "CARDARENA_MEMCHECK runs only the project's bots, trusted, never with --sandbox" {
	run env CARDARENA_MEMCHECK=1 bin/referee -g horserace -s 3 -o races=1 -q \
	    -b "python3 tests/hostile/bot.py victim $MARK" -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	echo "$output" | grep -q "CARDARENA_MEMCHECK runs only the bots of $PWD/bin, trusted: not 'python3"
	run env CARDARENA_MEMCHECK=1 bin/referee -g horserace -s 3 -q --sandbox \
	    -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	# the project's bots: played, unprotected (the one warning)
	run env CARDARENA_MEMCHECK=1 bin/referee -g horserace -s 3 -q --log "$T/m.log" \
	    -b bin/random -b "$PWD/bin/random" -b "bin/random --seed 2"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^referee: WARNING: bots run neither sandboxed nor isolated (CARDARENA_MEMCHECK')" -eq 1 ]
	log_complete "$T/m.log"
}

@test "sandbox: a hidden directory inside another, in the working directory (a tournament's output and its logs): hidden, the match runs" {
	need_sandbox
	mkdir -p "$T/w/out/logs"
	chmod -R go+rx "$T/w"
	ln -s "$PWD/bin" "$T/w/bin"
	ln -s "$PWD/tests" "$T/w/tests"
	# bwrap could not make the log directory's mount point in the output
	# directory's read-only tmpfs: every referee failed
	run sh -c "cd '$T/w' && bin/referee -g horserace -s 3 -o races=1 -q --sandbox \
	    --sandbox-hide out --log out/logs/m.log \
	    -b 'python3 tests/hostile/bot.py readfile $MARK $T/w/out/logs/m.log' \
	    -b bin/random -b bin/random"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^readfile: denied' "$T/w/out/logs/m.log.bot0.stderr"
	log_complete "$T/w/out/logs/m.log"
}

@test "sandbox: hundreds of hidden directories, some given twice and one through a symlink: each hidden, the bot's own shown" {
	need_sandbox
	mkdir -p "$T/w/d" "$T/w/out" "$T/w/mine"
	args=""
	for i in $(seq 1 400); do
		mkdir "$T/w/d/e$i"
		echo "secret$i" >"$T/w/d/e$i/f"
		args="$args --sandbox-hide d/e$i"
	done
	ln -s d/e7 "$T/w/seven"
	echo visible >"$T/w/mine/f"
	chmod -R go+rx "$T/w"
	# e5 again, e7 again through its symlink, e9 again by its full path:
	# each one hidden (the list is sorted and its repeats dropped)
	args="$args --sandbox-hide d/e5 --sandbox-hide seven --sandbox-hide $T/w/d/e9"
	# the bot's last word names the random bot (its $0), shown to it
	run env -C "$T/w" "$PWD/bin/referee" -g horserace -s 3 -o races=1 -q \
	    --sandbox $args --log out/m.log \
	    -b "sh -c 'cat d/e1/f d/e5/f d/e7/f d/e9/f d/e400/f seven/f mine/f >&2; exec \"\$0\"' $PWD/bin/random" \
	    -b "$PWD/bin/random" -b "$PWD/bin/random"
	echo "$output"
	[ "$status" -eq 0 ]
	# it played: no fault
	! grep -q '"type":"fault"' "$T/w/out/m.log"
	cat "$T/w/out/m.log.bot0.stderr"
	! grep -q secret "$T/w/out/m.log.bot0.stderr"
	grep -qx visible "$T/w/out/m.log.bot0.stderr"
	[ "$(grep -c '^cat: ' "$T/w/out/m.log.bot0.stderr")" -eq 6 ]
	log_complete "$T/w/out/m.log"
}

# Integrity among strangers (issue 34).  The modes a case runs in, as
# RUNNER:FLAG words: root with the sandbox, root isolated (without it), an
# ordinary user (nobody) with the sandbox (the default), where each works
# here; MODES_ALL=1 adds the ordinary user without the sandbox
# (unprotected: SECURITY.md).  Sets $MODES (and $AS_USER).
strangers_modes() {
	MODES=""
	sandbox_works && MODES="$MODES root:--sandbox"
	isolation_works && MODES="$MODES root:--no-sandbox"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	    id nobody >/dev/null 2>&1; then
		AS_USER="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
		mkdir -p -m 1777 "$T/u"
		sandbox_works $AS_USER && MODES="$MODES user:--sandbox"
		[ -z "${MODES_ALL:-}" ] || MODES="$MODES user:--no-sandbox"
	fi
	[ -n "$MODES" ] || skip "no mode of containment works here"
	echo "modes:$MODES"
}

# The runner of mode $1 (root:... or user:...): nothing or $AS_USER.
runner_of() {
	case $1 in user:*) echo "$AS_USER" ;; esac
}

# A working directory $T/u/w for two strangers' bots: a/ and b/ (each
# with bot.py), b/secret.txt (b's model; as an ordinary user owned by it,
# mode 0600, which only its own uid reads: the sandbox's bots), a/link
# leading to it, and bin/ linked from the tree.  For the runner of mode $1.
strangers_dir() {
	local w=$T/u/w
	mkdir -p -m 1777 "$T/u"
	rm -rf "$w"
	mkdir -p "$w/a" "$w/b"
	ln -s "$PWD/bin" "$w/bin"
	cp tests/hostile/bot.py "$w/a/bot.py"
	cp tests/hostile/bot.py "$w/b/bot.py"
	echo "b's model: always bid 7" >"$w/b/secret.txt"
	ln -s "$w/b/secret.txt" "$w/a/link"
	chmod -R go+rX "$w"
	case $1 in
	user:*) chown -R nobody "$w"; chmod 600 "$w/b/secret.txt" ;;
	esac
}

# Plays one game in $T/u/w as mode $1 says (its runner, from there, its
# flag), more referee flags in $3...: bot 0 is a/bot.py $2 (MODE MARK
# ARG), bot 1 b/bot.py victim, bot 2 bin/random; what bot 0 reported in
# $T/seen.
strangers_match() {
	local mode=$1 attack=$2
	shift 2
	rm -f "$T"/u/m.log*
	run $(runner_of "$mode") sh -c 'cd "$0" && exec "$@"' "$T/u/w" \
	    "$PWD/bin/referee" -g horserace -s 3 -o races=1 -q --log "$T/u/m.log" $LIMITS \
	    "${mode#*:}" "$@" -b "python3 a/bot.py $attack" \
	    -b "python3 b/bot.py victim $MARK" -b "bin/random --seed 2"
	echo "$mode: $output"
	[ "$status" -eq 0 ]
	log_complete "$T/u/m.log"
	grep -v '^victim' "$T/u/m.log.bot0.stderr" | tee "$T/seen"
}

@test "strangers: a bot reads nothing of a table-mate's directory, by its path or through a link in its own, in every mode" {
	strangers_modes
	for m in $MODES; do
		strangers_dir "$m"
		for p in "$T/u/w/b/secret.txt" "$T/u/w/a/link" b/secret.txt; do
			# a path the bot builds (its command names it not)
			strangers_match "$m" "readfile $MARK \$SECRET" --env "SECRET=$p"
			grep -q '^readfile: denied' "$T/seen"
		done
	done
	# the attack is real: unprotected (root's bots as root) it reads it
	strangers_dir root:
	strangers_match root:--no-sandbox "readfile $MARK \$SECRET" --bot-user same \
	    --env "SECRET=$T/u/w/a/link"
	grep -q '^readfile: read 24 bytes' "$T/seen"
	no_leftovers "$MARK"
}

@test "strangers: what the referee hides stays hidden when a bot's command names a path inside it, in every mode" {
	strangers_modes
	for m in $MODES; do
		strangers_dir "$m"
		mkdir -p "$T/u/h/x"
		echo "the master seed" >"$T/u/h/x/seed"
		chmod -R go+rX "$T/u/h"
		[ "${m%%:*}" = root ] || chown -R nobody "$T/u/h"
		for p in "$T/u/h/x/seed" "$T/u/w/../h/x/seed" "$T/u//h/x/seed"; do
			strangers_match "$m" "readfile $MARK $p" --sandbox-hide "$T/u/h"
			grep -q '^readfile: denied' "$T/seen"
		done
		rm -rf "$T/u/h"
	done
	no_leftovers "$MARK"
}

# Runs the tournament $T/u/$1.json (written here: one table of bot a,
# a/bot.py $2, bot b, b/bot.py victim, each with its "dir", and c, a
# random bot; output $T/u/out; more keys in $3) as the runner of mode $4;
# what the bots reported in $T/seen.
strangers_tournament() {
	cat >"$T/u/$1.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 1, "output": "$T/u/out",
 "options": {"races": 1}, $TOUR_LIMITS, ${3:-}
 "bots": [{"name": "a", "dir": "$T/u/w/a", "command": "python3 bot.py $2"},
          {"name": "b", "dir": "$T/u/w/b", "command": "python3 bot.py victim $MARK"},
          {"name": "c", "command": "bin/random --seed 2"}]}
EOF
	chmod 644 "$T/u/$1.json"
	rm -rf "$T/u/out"
	run $(runner_of "$4") bin/tournament run -q "$T/u/$1.json" 3>&- 4>&-
	echo "$output"
	cat "$T"/u/out/logs/*.bot?.stderr 2>/dev/null | grep -v '^victim' | tee "$T/seen"
}

@test "strangers: in a tournament, a bot with a \"dir\" reads nothing of another's, in every mode" {
	strangers_modes
	for m in $MODES; do
		strangers_dir "$m"
		sb='"sandbox": true,'
		[ "${m#*:}" = --sandbox ] || sb='"sandbox": false,'
		for p in "$T/u/w/b/secret.txt" "$T/u/w/a/link" ../b/secret.txt; do
			strangers_tournament t "readfile $MARK \$SECRET" \
			    "$sb \"env\": {\"SECRET\": \"$p\"}," "$m"
			[ "$status" -eq 0 ]
			grep -q '^readfile: denied' "$T/seen"
		done
	done
	no_leftovers "$MARK"
}

@test "strangers: a tournament's \"hide\" keeps its paths from every bot, in every mode, a path its command names too; one not there is left out; a bad one is refused" {
	strangers_modes
	for m in $MODES; do
		strangers_dir "$m"
		mkdir -p "$T/u/h/x"
		echo "the store" >"$T/u/h/x/seed"
		chmod -R go+rX "$T/u/h"
		[ "${m%%:*}" = root ] || chown -R nobody "$T/u/h"
		sb='"sandbox": true,'
		[ "${m#*:}" = --sandbox ] || sb='"sandbox": false,'
		# the attack is real: not hidden, its command naming it, it reads it
		strangers_tournament t "readfile $MARK $T/u/h/x/seed" "$sb" "$m"
		[ "$status" -eq 0 ]
		grep -q '^readfile: read 10 bytes' "$T/seen"
		strangers_tournament t "readfile $MARK $T/u/h/x/seed" \
		    "$sb \"hide\": [\"$T/u/h\", \"$T/u/not-there\"]," "$m"
		[ "$status" -eq 0 ]
		grep -q '^readfile: denied' "$T/seen"
		! grep -q '^readfile: read' "$T/seen" || false
		rm -rf "$T/u/h"
	done
	for bad in '5' '[""]' '["a", 7]'; do
		strangers_tournament t "victim $MARK" "\"hide\": $bad," root:
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *'"hide": an array of paths'* ]]
	done
	no_leftovers "$MARK"
}

# Runs "$@" in a pseudo-terminal of its own (script(1)), the session's
# controlling terminal, as an operator runs a referee from a shell; what
# the terminal showed (echoes of what was typed into it too) in $output.
in_pty() {
	run env SHELL=/bin/bash script -qec "$(printf '%q ' "$@")" /dev/null
	output=$(tr -d '\r' <<<"$output")
	echo "$output"
}

@test "no bot types into the operator's terminal (TIOCSTI), in every mode; the attack is real" {
	command -v script >/dev/null || skip "no script(1)"
	# the attack is real: a process of the terminal's session types into
	# it, and the terminal echoes what was typed
	in_pty python3 -c 'import fcntl, termios; [fcntl.ioctl(0, termios.TIOCSTI, bytes([c])) for c in ("ECHO_" + "TYPED" + chr(10)).encode()]'
	[[ "$output" == *ECHO_TYPED* ]]
	strangers_modes
	[ -z "${AS_USER:-}" ] || MODES="$MODES user:--no-sandbox"
	for m in $MODES; do
		rm -f "$T"/u/tty.log*
		in_pty $(runner_of "$m") bin/referee -g horserace -n 3 -q "${m#*:}" \
		    --log "$T/u/tty.log" -b "python3 tests/hostile/bot.py tty $MARK echo_typed" \
		    -b "bin/random --seed 1" -b "bin/random --seed 2"
		echo "$m:"
		grep '^tty' "$T/u/tty.log.bot0.stderr"
		[ "$(grep -c '^tty: denied' "$T/u/tty.log.bot0.stderr")" -eq 4 ]
		! grep -q '^tty: pushed' "$T/u/tty.log.bot0.stderr" || false
		! [[ "$output" == *ECHO_TYPED* ]] || false
	done
	no_leftovers "$MARK"
}

# refused_inside ARGS KEYS: writes $T/u/s.json, a tournament into $T/u/out
# whose bot x runs $T/u/w/a/bot.py ARGS (KEYS: more of its entry, from a
# comma), and checks $AS_USER's tournament run refuses it (exit 1) for a
# path inside the output directory.
refused_inside() {
	cat >"$T/u/s.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 2, "output": "$T/u/out",
 "options": {"races": 1}, $TOUR_LIMITS,
 "bots": [{"name": "x", "command": "python3 $T/u/w/a/bot.py $1"$2},
          {"name": "r1", "command": "bin/random --seed 1"},
          {"name": "r2", "command": "bin/random --seed 2"}]}
EOF
	rm -rf "$T/u/out"
	run $AS_USER bin/tournament run -q "$T/u/s.json" 3>&- 4>&-
	echo "$1$2: $output"
	cat "$T"/u/out/logs/*.bot?.stderr 2>/dev/null || true
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "inside the output directory"
}

@test "strangers: a tournament refuses a bot naming a path in its output directory however written (.., //, relative, env, dir), before the directory exists" {
	need_user
	mkdir -p "$T/u/w/a" "$T/u/x"
	cp tests/hostile/bot.py "$T/u/w/a/bot.py"
	chmod -R go+rX "$T/u"
	rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1]))' "$T/u/out/journal.jsonl")
	# the reported leak: an ordinary user, the default sandbox, the
	# output outside the working directory and the bot naming the journal
	for p in "$T/u/out/journal.jsonl" "$T/u/x/../out/journal.jsonl" \
	    "$T/u//out/journal.jsonl" "$rel" "$T/u/out"; do
		refused_inside "readfile $MARK $p" ""
		[ ! -e "$T/u/out/journal.jsonl" ]
	done
	# or given in its "env", or as its "dir"
	for k in '"env": {"SEED_AT": "'"$T/u/x/../out/journal.jsonl"'"}' \
	    '"dir": "'"$T/u//out/a"'"'; do
		refused_inside "victim $MARK" ", $k"
	done
}

# Serves "hello" on the unix socket $1 (mode 0777) until killed; its pid
# in $SERVER.
unix_server() {
	python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.listen(8)
while True:
    c, _ = s.accept()
    c.sendall(b"hello")
    c.close()' "$1" 3>&- 4>&- &
	SERVER=$!
	wait_for test -S "$1"
}

@test "strangers: no bot connects to a host's unix socket in a directory it is shown, in any mode" {
	MODES_ALL=1 strangers_modes
	strangers_dir root:
	unix_server "$T/u/w/a/sock"
	# the attack is real: the same bot run bare reaches it
	python3 tests/hostile/bot.py unix x "$T/u/w/a/sock" </dev/null 2>&1 |
	    grep -q "^unix: connected: b'hello'"
	for m in $MODES; do
		strangers_match "$m" "unix $MARK $T/u/w/a/sock"
		grep -q '^unix: denied' "$T/seen"
	done
	kill "$SERVER"
	no_leftovers "$MARK"
}

@test "strangers: no bot opens a netlink socket, in any mode" {
	MODES_ALL=1 strangers_modes
	strangers_dir root:
	python3 tests/hostile/bot.py netlink x </dev/null 2>&1 | grep -q '^netlink: opened'
	for m in $MODES; do
		strangers_match "$m" "netlink $MARK"
		grep -q '^netlink: denied' "$T/seen"
	done
	no_leftovers "$MARK"
}

@test "strangers: no bot sets up an io_uring, in any mode" {
	MODES_ALL=1 strangers_modes
	strangers_dir root:
	python3 tests/hostile/bot.py iouring x </dev/null 2>&1 | grep -q '^iouring: set up' ||
	    skip "io_uring is off on this machine"
	for m in $MODES; do
		strangers_match "$m" "iouring $MARK"
		grep -q '^iouring: denied' "$T/seen"
	done
	no_leftovers "$MARK"
}

@test "the referee leaves no process of its own in its process group when it exits, in any mode" {
	MODES_ALL=1 strangers_modes
	for m in $MODES; do
		# the referee leads a group of its own (setsid), as for a
		# caller that waits for the group
		$(runner_of "$m") setsid "$PWD/bin/referee" -g horserace -s 3 -o races=1 -q \
		    $LIMITS "${m#*:}" -b bin/random -b bin/random -b bin/random 3>&- 4>&- &
		pid=$!
		wait $pid
		left=$(ps -eo pid=,pgid=,stat=,args= | awk -v g="$pid" '$2 == g')
		echo "$m: left: $left"
		[ -z "$left" ]
	done
}

@test "--bot-dir: a sandboxed bot given a directory sees it and what its command names, not the working directory; a bad one is refused in one line" {
	strangers_modes
	for m in $MODES; do
		strangers_dir "$m"
		echo "of the working directory" >"$T/u/w/shared.txt"
		chmod 644 "$T/u/w/shared.txt"
		own="--bot-dir 0=$T/u/w/a --bot-dir 1=$T/u/w/b"
		strangers_match "$m" "readfile $MARK \$SECRET" $own --env "SECRET=a/bot.py"
		grep -q '^readfile: read [1-9][0-9]* bytes' "$T/seen"
		strangers_match "$m" "readfile $MARK \$SECRET" $own --env "SECRET=b/secret.txt"
		grep -q '^readfile: denied' "$T/seen"
		strangers_match "$m" "readfile $MARK \$SECRET" $own --env "SECRET=$T/u/w/shared.txt"
		if [ "${m#*:}" = --sandbox ]; then
			grep -q '^readfile: denied' "$T/seen"
		else
			# isolated, the rest of the file system is there
			grep -q '^readfile: read 25 bytes' "$T/seen"
		fi
	done
	mkdir -p "$T/h/x"
	touch "$T/file"
	for bad in x 0 =dir 3="$T" 0="$T/none" 0="$T/file" "0=$T/h/x --sandbox-hide $T/h"; do
		run bin/referee -g horserace -q --bot-dir $bad -b bin/random -b bin/random -b bin/random
		echo "$bad: $output"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		echo "$output" | grep -q -- '--bot-dir'
	done
	no_leftovers "$MARK"
}
