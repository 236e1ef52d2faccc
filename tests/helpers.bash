# Helpers shared by the end-to-end tests (tests/*.bats), loaded with
# `load helpers`.  Each test runs from the top of the tree, with its own
# temporary directory in $T.

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$BATS_TEST_TMPDIR
	MARK="cardarena-test-$$-$BATS_TEST_NUMBER-$RANDOM"
}

# Prints the value of a Python expression over d, the JSON document $1.
jv() {
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(json.dumps(eval(sys.argv[2])))' "$1" "$2"
}

# Prints the last line of a file.
last_line() {
	tail -n 1 "$1"
}

# Prints the lines of log $1 whose type is $2.
lines_of() {
	grep "^{\"type\":\"$2\"" "$1"
}

# Succeeds when no process has $1 on its command line (waits up to 2 s
# for SIGKILLed processes to disappear); else lists them and fails.
no_leftovers() {
	local i
	for i in $(seq 1 20); do
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
