#!/usr/bin/env bats
# The journal's group commit (tournaments/pool/runner.c, journal.c's
# jsync): games are written at once and fsynced in groups, so a
# tournament of short games killed with SIGKILL again and again, while
# many games wait for their fsync, then resumed, has every game exactly
# once (none lost, none doubled), and the same games as a run never
# interrupted.  bin/random plays each game from (seed, game) alone, so a
# game played again is the same game.  The fsyncs are a thread's of their
# own: one that does not return holds no table back.

load helpers

# Writes tournament file $1 with output directory $2: 600 games of one
# race, 5 C random bots at tables of 5, two tables at once.
spec() {
	python3 - "$1" "$2" <<'PY'
import json, sys
json.dump({"name": "gc", "game": "horserace", "options": {"races": 1},
           "seats": 5, "deals": 60, "tables": 10, "duplicate": False,
           "logs": False, "concurrency": 2, "seed": 5, "output": sys.argv[2],
           "bots": [{"name": "r%d" % i, "command": "bin/random --seed %d" % i}
                    for i in range(1, 6)]}, open(sys.argv[1], "w"))
PY
}

# Prints the number of games in journal $1 (0 if there is none).
count() {
	if [ -e "$1" ]; then grep -c '"table"' "$1" || true; else echo 0; fi
}

# Prints the games of journal $1, one sorted line each; fails on a
# damaged line or a game that is there twice (a last line cut by a kill,
# without its newline, is a game not journalled: resuming drops it).
games_of() {
	python3 - "$1" <<'PY'
import json, sys
seen, out = set(), []
for line in open(sys.argv[1]).read().split("\n")[:-1]:
    d = json.loads(line)
    if "table" not in d:
        continue
    k = (d["table"], d["game"])
    assert k not in seen, "doubled: %s" % (k,)
    seen.add(k)
    out.append(json.dumps([d["table"], d["game"], d["bots"], d["places"],
                           d["scores"]]))
print("\n".join(sorted(out)))
PY
}

@test "group commit: killed with SIGKILL while short games pour in, resumed: none lost, none doubled" {
	spec "$T/s.json" "$T/straight"
	run bin/tournament run -q "$T/s.json"
	[ "$status" -eq 0 ]
	games_of "$T/straight/journal.jsonl" > "$T/g1"
	[ "$(wc -l < "$T/g1")" -eq 600 ]
	spec "$T/k.json" "$T/killed"
	# Each run is killed the moment its journal has grown by some games:
	# while the last of them still wait for their group's fsync.
	interrupted=0
	for grow in 40 90 60 120 75; do
		before=$(count "$T/killed/journal.jsonl")
		setsid bin/tournament run -q "$T/k.json" 2>/dev/null &
		pid=$!
		for i in $(seq 400); do
			n=$(count "$T/killed/journal.jsonl")
			[ "$n" -lt $((before + grow)) ] || break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.02
		done
		kill -9 -- "-$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		n=$(count "$T/killed/journal.jsonl")
		# every line there is whole and no game is there twice
		games_of "$T/killed/journal.jsonl" > /dev/null
		[ "$n" -lt 600 ] || break
		interrupted=1
	done
	[ "$interrupted" -eq 1 ]
	run bin/tournament run -q "$T/k.json"
	[ "$status" -eq 0 ]
	games_of "$T/killed/journal.jsonl" > "$T/g2"
	[ "$(wc -l < "$T/g2")" -eq 600 ]
	cmp "$T/g1" "$T/g2"
}

# all_in FILE PID: journal FILE holds 300 games, or PID ended (a failure).
all_in() {
	[ "$(count "$1")" -eq 300 ] || ! kill -0 "$2" 2>/dev/null
}

@test "a journal fsync that does not return holds no table back: every game is read and journalled while it waits" {
	# an fsync(2) of a journal.jsonl waits while $T/gate exists
	cat >"$T/slowsync.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
fsync(int fd)
{
	static int (*real)(int);
	const char *gate = getenv("SLOWSYNC_GATE");
	char p[64], t[4096];
	ssize_t n;

	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	if (gate != NULL && (n = readlink(p, t, sizeof t - 1)) >= 13) {
		t[n] = '\0';
		if (strcmp(t + n - 13, "journal.jsonl") == 0)
			while (access(gate, F_OK) == 0)
				usleep(10000);
	}
	return real(fd);
}
C
	cc -shared -fPIC -o "$T/slowsync.so" "$T/slowsync.c" -ldl ||
	    skip "no C compiler"
	python3 - "$T/h.json" "$T/held" <<'PY'
import json, sys
json.dump({"name": "held", "game": "horserace", "options": {"races": 1},
           "seats": 5, "deals": 300, "duplicate": False, "seed": 5,
           "output": sys.argv[2],
           "bots": [{"name": "r%d" % i, "command": "bin/random --seed %d" % i}
                    for i in range(1, 6)]}, open(sys.argv[1], "w"))
PY
	touch "$T/gate"
	# (an ASan build's runtime is not the first library then)
	env LD_PRELOAD="$T/slowsync.so" SLOWSYNC_GATE="$T/gate" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	    bin/tournament run -q "$T/h.json" >"$T/out" 2>&1 &
	pid=$!
	wait_for all_in "$T/held/journal.jsonl" "$pid"
	n=$(count "$T/held/journal.jsonl")
	rm -f "$T/gate"
	wait "$pid"
	[ "$n" -eq 300 ]
	# and once the disk answers, the run ends as any: reports and all
	games_of "$T/held/journal.jsonl" | wc -l | grep -qx 300
	[ -s "$T/held/results.txt" ]
}
