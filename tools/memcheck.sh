#!/bin/sh
# make memcheck: a few matches of every game under valgrind's memcheck, the
# bots the project's own C bots (bin/random at every seat), trusted:
# CARDARENA_MEMCHECK=1 runs them without the seccomp filter, namespaces,
# sandbox or own user ids, which valgrind cannot follow (SECURITY.md).
# Each match must end with 0 valgrind errors and no definite leak; the
# valgrind logs are kept in $MEMCHECK_DIR (default a temporary directory,
# removed).  Environment: MEMCHECK_GAMES (games per match, default 2).
set -eu
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null 2>&1 || {
	echo "memcheck: valgrind is not installed: apt-get install valgrind" >&2
	exit 1
}
games=${MEMCHECK_GAMES:-2}
dir=${MEMCHECK_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT INT TERM
fi
fail=0
bin/referee --list-games | while read -r g range _; do
	players=${range%-*}
	[ "$players" -ge 3 ] || players=3
	bots=""
	i=0
	while [ "$i" -lt "$players" ]; do
		bots="$bots -b bin/random"
		i=$((i + 1))
	done
	for seed in 1 2; do
		log="$dir/$g-$seed.valgrind"
		# shellcheck disable=SC2086
		if ! CARDARENA_MEMCHECK=1 valgrind -q --error-exitcode=99 \
		    --leak-check=full --errors-for-leak-kinds=definite \
		    --log-file="$log" bin/referee -g "$g" -s "$seed" \
		    --games "$games" -q --log "$dir/$g-$seed.log" $bots \
		    2>"$dir/$g-$seed.stderr"; then
			echo "memcheck: $g seed $seed: valgrind found errors:" >&2
			grep -v 'unhandled .* syscall\|You may be able\|README_MISSING\|Nevertheless we consider\|bug_reports' \
			    "$log" >&2 || true
			exit 1
		fi
		bin/replay --verify -q "$dir/$g-$seed.log"
		echo "memcheck: $g, seed $seed, $players players, $games games: 0 errors"
	done
done || fail=1
exit "$fail"
