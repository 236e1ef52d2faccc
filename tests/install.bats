#!/usr/bin/env bats
# make install into a temporary PREFIX (and a DESTDIR staging): the
# programs, the documents with the rules protocol.md cites, the man pages,
# the SDKs; and an installed example tournament run from another
# directory, its bots and referee the installed ones, nothing from the
# source tree.

load helpers

@test "make install puts the programs, docs/rules, man pages and SDKs under PREFIX" {
	run mk install PREFIX="$T/usr"
	[ "$status" -eq 0 ]
	# every program under the project's name, and nothing else in bin
	for p in bin/*; do
		[ -x "$T/usr/bin/cardarena-${p#bin/}" ]
	done
	n=0
	for f in "$T"/usr/bin/*; do
		[[ "${f##*/}" == cardarena-* ]] || { echo "$f"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 12 ]
	s=$T/usr/share/cardarena
	[ -s "$s/protocol.md" ] && [ -s "$s/README.md" ] || false
	cmp SECURITY.md "$s/SECURITY.md"
	[ -s "$s/bots/python/cardarena.py" ] && [ -s "$s/bots/js/cardarena.js" ] || false
	# every docs/rules/ file protocol.md names is there beside it
	n=0
	for f in $(grep -o 'docs/rules/[a-z]*\.md' protocol.md | sort -u); do
		[ -s "$s/$f" ]
		n=$((n + 1))
	done
	[ "$n" -ge 5 ]
	for m in docs/man/*.1 docs/man/*.5; do
		[ -e "$m" ] || continue
		cmp "$m" "$T/usr/share/man/man${m##*.}/${m##*/}"
	done
	# DESTDIR stages the same files; the examples name PREFIX, not DESTDIR
	run mk install DESTDIR="$T/stage" PREFIX=/opt/ca
	[ "$status" -eq 0 ]
	[ -x "$T/stage/opt/ca/bin/cardarena-referee" ]
	grep -q '"command": "/opt/ca/bin/cardarena-nyse_bot' "$T/stage/opt/ca/share/cardarena/tournaments/examples/nyse.json"
	! grep -q "$T/stage" "$T"/stage/opt/ca/share/cardarena/tournaments/examples/*.json || false
}

@test "an installed example tournament runs from another directory" {
	run mk install PREFIX="$T/usr"
	[ "$status" -eq 0 ]
	ex=$T/usr/share/cardarena/tournaments/examples/nyse.json
	grep -q "\"command\": \"$T/usr/bin/cardarena-nyse_bot --seed 1\"" "$ex"
	grep -q "run from any directory with $T/usr/bin/cardarena-tournament run $ex" "$ex"
	mkdir "$T/elsewhere"
	cd "$T/elsewhere"
	# No bin/ here and none on PATH: only the installed programs can run.
	run env PATH=/usr/bin:/bin "$T/usr/bin/cardarena-tournament" run -q --replays "$ex"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"table"' out/nyse/journal.jsonl)" -eq 90 ]
	log=$(ls out/nyse/logs/*.jsonl | head -n 1)
	head -n 1 "$log" | grep -q "\"command\":\"$T/usr/bin/cardarena-nyse_bot --seed 1\"\|\"command\":\"$T/usr/bin/cardarena-random --seed"
	[ -s out/nyse/results.html ]
	# the replays, by the installed cardarena-replay beside the runner
	[ -s "$log.html" ]
	# botcheck finds the installed referee and random bot beside it
	run env PATH=/usr/bin:/bin "$T/usr/bin/cardarena-botcheck" -q -g nyse -n 1 -- "$T/usr/bin/cardarena-random"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "make install refuses a PREFIX with a space, installing nothing" {
	run mk install PREFIX="$T/a b"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"make install: PREFIX and DESTDIR must be one word each, without spaces (got \"$T/a b\")"* ]]
	# install -d "$T/a" "b/bin" would have made both
	[ ! -e "$T/a" ] && [ ! -e "$T/a b" ] && [ ! -e b ] || false
}

# The tutorial said `man human`, a page no one installs (issue 35): every
# `man NAME` and `NAME(N)` of the documents, a line break inside or not,
# is a page make install installs, and README's list of the pages names
# every one it installs.
@test "every manual page the documents name is installed, and README lists every page" {
	run mk install PREFIX="$T/usr"
	[ "$status" -eq 0 ]
	m=$T/usr/share/man
	refs=$(cat README.md HACKING.md SECURITY.md protocol.md docs/rules/*.md |
	    tr '\n' ' ' | grep -o '`man  *[^`]*`\|`[a-z][a-z-]*([15])`' | sort -u)
	n=0
	while read -r ref; do
		ref=${ref//\`/}
		case $ref in
		man\ *)
			page=$(ls "$m"/man[15]/"${ref##* }".[15] 2>/dev/null || true) ;;
		*)
			sec=${ref%)}
			sec=${sec##*(}
			page=$m/man$sec/${ref%(*}.$sec ;;
		esac
		[ -f "$page" ] || { echo "not installed: $ref"; false; }
		n=$((n + 1))
	done <<< "$refs"
	[ "$n" -ge 9 ]
	for f in "$m"/man[15]/*; do
		p=${f##*/}
		grep -q "\`${p%.*}(${p##*.})\`" README.md ||
		    { echo "README's list lacks $p"; false; }
	done
}
