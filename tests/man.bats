#!/usr/bin/env bats
# The manual pages (docs/man): `mandoc -T lint` finds nothing in them (a
# cross reference may only name another page of docs/man), each program's
# page names every long option its --help lists (so the pages follow the
# programs), tournament(1) every command, cardarena-tournament(5) every
# key the tournament file accepts and an example that loads, and
# `make install` puts them in PREFIX/share/man.

load helpers

# The page rendered as plain text.
page() {
	mandoc -T ascii "docs/man/$1" | sed 's/.\x08//g'
}

@test "man: mandoc -T lint is clean on every page" {
	ls docs/man/*.1 docs/man/*.5
	out=$(mandoc -T lint docs/man/*.[15] 2>&1 | while IFS= read -r l; do
		case $l in
		*"referenced manual not found: Xr "*)
			x=${l##*Xr }
			x=${x% (*}
			[ -f "docs/man/${x% *}.${x#* }" ] || echo "$l" ;;
		*)	echo "$l" ;;
		esac
	done)
	echo "$out"
	[ -z "$out" ]
}

@test "man: every page has NAME, DESCRIPTION and SEE ALSO" {
	for f in cardarena-referee.1 cardarena-tournament.1 cardarena-tournament-ladder.1 \
	    cardarena-replay.1 cardarena-botcheck.1 cardarena-human.1 \
	    cardarena-protocol.5 cardarena-tournament.5; do
		p=$(page "$f")
		[[ "$p" == *NAME* ]]
		[[ "$p" == *DESCRIPTION* ]]
		[[ "$p" == *"SEE ALSO"* ]]
	done
}

# Every --option of "$@" --help is in page $1.
options_in() {
	local f=$1 o p missing=""
	shift
	p=$(page "$f")
	for o in $("$@" --help 2>&1 | grep -o -E -- '--[a-z][a-z0-9-]*' | sort -u); do
		[ "$o" = --help ] && continue
		grep -q -F -e "$o" <<<"$p" || missing="$missing $o"
	done
	echo "$f lacks:$missing"
	[ -z "$missing" ]
}

@test "man: referee(1) names every option of referee --help" {
	options_in cardarena-referee.1 bin/referee
}

@test "man: tournament(1) names every option and command of tournament --help and gauntlet --help" {
	options_in cardarena-tournament.1 bin/tournament
	options_in cardarena-tournament.1 bin/tournament gauntlet
	p=$(page cardarena-tournament.1)
	for c in $(bin/tournament --help | sed -n 's/^ *\(usage:\)\{0,1\} *tournament \([a-z]*\).*/\2/p' | sort -u); do
		grep -q -E "tournament $c" <<<"$p"
	done
}

@test "man: tournament-ladder(1) names every option and command of tournament ladder --help" {
	options_in cardarena-tournament-ladder.1 bin/tournament ladder
	p=$(page cardarena-tournament-ladder.1)
	for c in $(bin/tournament ladder --help | sed -n 's/^ *\(usage:\)\{0,1\} *tournament ladder \([a-z]*\).*/\2/p' | sort -u); do
		grep -q -E "tournament ladder $c|^ {5}$c " <<<"$p" || { echo "missing $c"; false; }
	done
}

@test "man: replay(1), botcheck(1) and human(1) name every option of their --help" {
	options_in cardarena-replay.1 bin/replay
	options_in cardarena-botcheck.1 bin/botcheck
	options_in cardarena-human.1 bin/human
}

@test "man: cardarena-tournament(5) names every key of the file, and its example loads" {
	p=$(page cardarena-tournament.5)
	keys=$(python3 -c 'import re
s = open("tournaments/base/tfile.c").read()
block = re.search(r"known_keys\[\] = \{(.*?)\};", s, re.S).group(1)
print(" ".join(re.findall(r"\"([a-z_]+)\"", block)))')
	[ -n "$keys" ]
	for k in $keys; do
		grep -q -w -e "$k" <<<"$p" || { echo "missing $k"; false; }
	done
	sed -n '/^\.Bd -literal/,/^\.Ed/p' docs/man/cardarena-tournament.5 |
	    sed '1d;$d' > "$T/t.json"
	run bin/tournament schedule "$T/t.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the README's tournament-file table names every key the file accepts, in its first column" {
	keys=$(python3 -c 'import re
s = open("tournaments/base/tfile.c").read()
block = re.search(r"known_keys\[\] = \{(.*?)\};", s, re.S).group(1)
print(" ".join(re.findall(r"\"([a-z_]+)\"", block)))')
	[ -n "$keys" ]
	col=$(sed -n '/^### The tournament file/,/^### /p' README.md |
	    grep '^| `' | cut -d '|' -f 2)
	[ -n "$col" ]
	for k in $keys; do
		grep -q -F -e "\`$k\`" <<<"$col" || { echo "missing $k"; false; }
	done
}

@test "man: cardarena-protocol(5) names every message type and fault kind" {
	p=$(page cardarena-protocol.5)
	for w in hello start request error end bye timeout exit malformed \
	    line_too_long wrong_id illegal time_left_ms legal events; do
		grep -q -w -e "$w" <<<"$p"
	done
}

@test "man: make install puts the pages in PREFIX/share/man" {
	make -s install DESTDIR="$T/root" PREFIX=/usr >/dev/null
	n=0
	for f in docs/man/*.1; do
		f=${f##*/}
		[[ "$f" == cardarena-* ]]
		cmp "docs/man/$f" "$T/root/usr/share/man/man1/$f"
		n=$((n + 1))
	done
	[ "$n" -eq 6 ]
	for f in cardarena-protocol.5 cardarena-tournament.5; do
		cmp "docs/man/$f" "$T/root/usr/share/man/man5/$f"
	done
}

@test "the rule briefs cite the original texts by paths that exist (shared/seeds beside the repository)" {
	[ -d ../shared/seeds ] || skip "no shared/seeds beside the repository"
	n=0
	for f in docs/rules/*.md; do
		for p in $(grep -o '\.\./[./]*shared/seeds/[0-9a-f_]*\.txt' "$f"); do
			[ -s "docs/rules/$p" ] || { echo "$f: $p"; false; }
			n=$((n + 1))
		done
	done
	[ "$n" -ge 10 ]
	# nothing cites the old path, which does not exist
	! grep -n '`\.\./seeds/' docs/rules/*.md || false
}

# README said "sandbox" defaults to false where the code and
# tournament(5) said "auto" (issue 35): every key's default in README's
# table and in tournament(5)'s "Default ..." sentence is the value the
# parser fills in, as tournament schedule --settings prints it for a file
# that names only the game and the bots (tests/defaults.py).
@test "README's table and tournament(5) give every key of the file the default the parser fills in" {
	printf '{"game": "nyse", "bots": [%s, %s, %s, %s]}\n' \
	    '{"name": "a", "command": "bin/random"}' '{"name": "b", "command": "bin/random"}' \
	    '{"name": "c", "command": "bin/random"}' '{"name": "d", "command": "bin/random"}' \
	    > "$T/plain.json"
	run bin/tournament schedule --settings "$T/plain.json"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > "$T/settings.json"
	# what it prints: the file's keys, every one
	python3 - "$T/settings.json" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
src = open("tournaments/base/tfile.c").read()
keys = re.findall(r'"([a-z_]+)"', re.search(r"known_keys\[\] = \{(.*?)\};", src, re.S).group(1))
assert sorted(s) == sorted(keys), (sorted(s), sorted(keys))
assert s["sandbox"] == "auto" and s["seed"] is None and s["output"] == "out/plain", s
PY
	run python3 tests/defaults.py README.md docs/man/cardarena-tournament.5 "$T/settings.json" plain
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# a file's own values come back as it gives them
	printf '{"game": "nyse", "deals": 3, "sandbox": false, "bot_user": "same", "tables": 2, "bots": [%s, %s, %s, %s]}\n' \
	    '{"name": "a", "command": "bin/random"}' '{"name": "b", "command": "bin/random"}' \
	    '{"name": "c", "command": "bin/random"}' '{"name": "d", "command": "bin/random"}' \
	    > "$T/given.json"
	run bin/tournament schedule --settings "$T/given.json"
	[ "$status" -eq 0 ]
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])
assert (s["deals"], s["sandbox"], s["bot_user"], s["schedule"], s["tables"], s["rounds"]) == (3, False, "same", "balanced", 2, None), s' "$output"
}
