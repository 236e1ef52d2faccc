# Helpers shared by the end-to-end tests (tests/*.bats), loaded with
# `load helpers`.  Each test runs from the top of the tree, with its own
# temporary directory in $T.  A failed test prints the status and output
# of its last `run`, not only the assertion that failed.
#
# No test may depend on the machine's speed (python3 took 21 s to start at
# load 25).  Tests of correctness give bin/referee and bin/botcheck the
# limits in $LIMITS, far above any delay a loaded machine causes, so only
# a bot that never answers can time out; tournament files get the same in
# $TOUR_LIMITS.  Tests of timeouts use bots that never answer (the hostile
# bots' silent, hello_hang and longline modes) with short limits, given
# after $LIMITS (the last one given counts).  Waits poll for what they
# wait for with wait_for, never a fixed sleep.

LIMITS="--time-per-move 600000 --time-hello 600000"
TOUR_LIMITS='"time_per_move_ms": 600000, "time_hello_ms": 600000'

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$BATS_TEST_TMPDIR
	# As root each bot runs as a user of its own (SECURITY.md), which
	# must be able to read the scripts and files a test gives it.
	chmod go+rx "$T" "${T%/*}" "${T%/*/*}" 2>/dev/null || true
	MARK="cardarena-test-$$-$BATS_TEST_NUMBER-$RANDOM"
}

teardown() {
	show_failure
}

# In a teardown: when the test failed, prints the status and output of
# its last `run` (bats shows them under the failed assertion).
show_failure() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	[ -n "${status+set}" ] || return 0
	printf 'the last run: status %s, output:\n' "$status"
	printf '%s\n' "${output:-}" | head -n 60 | sed 's/^/  | /'
}

# Waits until the command "$@" succeeds, polling every 0.1 s, for at most
# $WAIT_MAX seconds (default 600: far longer than any loaded machine
# needs, and only reached when the test fails anyway); fails on timeout.
wait_for() {
	local end=$(($(date +%s) + ${WAIT_MAX:-600}))
	until "$@"; do
		if [ "$(date +%s)" -ge "$end" ]; then
			echo "waited ${WAIT_MAX:-600} s for: $*" >&2
			return 1
		fi
		sleep 0.1
	done
}

# Copies its input but for the one warning the referee gives where its
# bots end up unprotected: as root where they cannot be isolated (a
# container without CAP_SYS_ADMIN), or neither sandboxed nor isolated: a
# test's run output holds the program's stderr too, and that line is not
# the output under test.
without_warning() {
	grep -v '^referee: bots cannot be isolated here\|^referee: WARNING: bots run neither' || true
}

# Prints the value of a Python expression over d, the JSON document $1.
jv() {
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(json.dumps(eval(sys.argv[2])))' "$(printf '%s\n' "$1" | without_warning)" "$2"
}

# Checks every results line of $1: $2 games (0..$2-1, once each) of $3
# seats, a place and a score per seat, no faults; then each further
# argument: places=scores (1 + the number of higher scores), places=ranks
# (1 + the number of better places, from 1 to $3), places=perm (1..$3 in
# some order), places=range (within 1..$3, one first), 'scores>=0',
# 'sum>0', sum=N (the scores add up to N), capped=true|false.
check_results() {
	python3 - "$@" <<'PY'
import json, sys
games, players = int(sys.argv[2]), int(sys.argv[3])
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == games, (len(rows), games)
assert sorted(r["game"] for r in rows) == list(range(games))
for r in rows:
    p, s = r["places"], r["scores"]
    assert len(p) == players and len(s) == players, r
    assert r["faults"] == [0] * players, r
    for c in sys.argv[4:]:
        k, _, v = c.partition("=")
        if c == "places=scores":
            for i in range(players):
                assert p[i] == 1 + sum(1 for x in s if x > s[i]), r
        elif c == "places=ranks":
            assert min(p) == 1 and max(p) <= players, r
            for i in range(players):
                assert p[i] == 1 + sum(p[j] < p[i] for j in range(players)), r
        elif c == "places=perm":
            assert sorted(p) == list(range(1, players + 1)), r
        elif c == "places=range":
            assert min(p) == 1 and all(1 <= q <= players for q in p), r
        elif c == "scores>=0":
            assert all(x >= 0 for x in s), r
        elif c == "sum>0":
            assert sum(s) > 0, r
        elif k == "sum":
            assert sum(s) == int(v), r
        elif k == "capped":
            assert r["capped"] is (v == "true"), r
        else:
            sys.exit("check_results: no check " + c)
PY
}

# duplicate_match GAME SEED GAMES [REFEREE ARGS...]: plays a duplicate
# match of GAMES games, the bots and more flags in the arguments, the
# results in $T/r.jsonl; checks the referee exits 0.
duplicate_match() {
	local game=$1 seed=$2 games=$3
	shift 3
	run bin/referee $LIMITS -g "$game" -s "$seed" --games "$games" \
	    --duplicate --results "$T/r.jsonl" "$@"
	[ "$status" -eq 0 ]
}

# Checks that seat 0's mean place over the results lines in $T/r.jsonl
# is under $1.
mean_place_under() {
	run python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(sum(r["places"][0] for r in rows) / len(rows))' "$T/r.jsonl"
	python3 -c "import sys; sys.exit(0 if $output < $1 else 1)"
}

# Prints the last line of a file.
last_line() {
	tail -n 1 "$1"
}

# Prints the lines of log $1 whose type is $2.
lines_of() {
	grep "^{\"type\":\"$2\"" "$1"
}

# Prints how many requests the match log $T/m.log sent to bot 0.
requests() {
	lines_of "$T/m.log" send | grep '"bot":0' | grep -c '"type":"request"'
}

# Succeeds when no process has $1 on its command line (waits up to 60 s
# for SIGKILLed processes to disappear, as a loaded machine may take a
# while to run them to their end); else lists them and fails.
no_leftovers() {
	local i
	for i in $(seq 1 600); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.1
	done
	echo "processes left behind:" >&2
	pgrep -af -- "$1" >&2
	return 1
}

# Checks that a log is whole: a header first, a result last, and every
# line a JSON object with a "type".
log_complete() {
	python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
docs = [json.loads(l) for l in lines]
assert all("type" in d for d in docs), "a line without a type"
assert docs[0]["type"] == "header", "first line is " + docs[0]["type"]
assert docs[-1]["type"] == "result", "last line is " + docs[-1]["type"]
r = docs[-1]
n = len(docs[0]["bots"])
for k in ("places", "scores", "faults", "fault_kinds", "names"):
    assert len(r[k]) == n, k
assert sorted(r["places"])[0] == 1
PY
}

# Prints the indented command lines of the README block that follows the
# comment containing $1 (unindented), as written.
readme_block() {
	awk -v mark="$1" '
		index($0, mark) { on = 1; next }
		on && /^    / { print substr($0, 5); got = 1; next }
		on && got && !/^    / { exit }
	' README.md
}

# make, as this check was built (SANITIZE or not), outside any outer make.
mk() {
	local san=0
	[ "${B:-build/std}" = build/san ] && san=1
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory \
	    SANITIZE=$san "$@"
}

# Writes into the script $2 (with set -e first) every ```sh block of
# README.md's section that starts "## $1", in order; fails with fewer than
# $3 blocks.
readme_script() {
	python3 - README.md "$2" "$1" "$3" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
sec = re.search(r"^## " + re.escape(sys.argv[3]) + r".*?(?=^## )", text,
                re.S | re.M).group(0)
blocks = re.findall(r"^```sh\n(.*?)^```$", sec, re.S | re.M)
assert len(blocks) >= int(sys.argv[4]), "only %d sh blocks in the section" % len(blocks)
with open(sys.argv[2], "w") as f:
    f.write("set -e\n")
    for b in blocks:
        f.write(b)
PY
}

# In a test: makes sure headless chromium and playwright-core
# (tests/browser) are there for the browser tests, installing chromium as
# root and the npm package when npm is; else skips the test.
need_browser() {
	if ! command -v chromium >/dev/null; then
		[ "$(id -u)" -eq 0 ] || skip "chromium is not installed (apt-get install chromium)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
		    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; }
	fi
	if [ ! -d tests/browser/node_modules/playwright-core ]; then
		command -v npm >/dev/null || skip "npm is not installed"
		(cd tests/browser && npm ci --no-audit --no-fund >/dev/null 2>&1)
	fi
}
