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

# The C SDK as README tells a user to build a bot from it (its cc line,
# run in the installed bots directory): the bot builds from the installed
# files alone and plays as the installed cardarena-random plays.
@test "README's cc line builds the installed C SDK's random bot, which plays as cardarena-random" {
	run mk install PREFIX="$T/usr"
	[ "$status" -eq 0 ]
	line=$(awk '/^    cc -std=c11 .*-Ilib/ { l = $0; sub(/\\$/, "", l);
	    getline; print l $0; exit }' README.md)
	[[ "$line" == *"lib/bot.c"* ]]
	cd "$T/usr/share/cardarena/bots"
	run sh -c "$line"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x mybot ]
	r=$T/usr/bin/cardarena-referee
	run "$r" -g horserace -n 3 -s 5 --games 2 -b "./mybot --seed 1" \
	    -b "./mybot --seed 2" -b "./mybot --seed 3"
	[ "$status" -eq 0 ]
	mine=$output
	run "$r" -g horserace -n 3 -s 5 --games 2 \
	    -b "$T/usr/bin/cardarena-random --seed 1" \
	    -b "$T/usr/bin/cardarena-random --seed 2" \
	    -b "$T/usr/bin/cardarena-random --seed 3"
	[ "$status" -eq 0 ]
	[[ "$mine" == *'"type":"result"'* ]]
	[ "$mine" = "$output" ]
}

@test "make install refuses a PREFIX with a space, installing nothing" {
	run mk install PREFIX="$T/a b"
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"make install: PREFIX and DESTDIR must be one word each, without spaces (got \"$T/a b\")"* ]]
	# install -d "$T/a" "b/bin" would have made both
	[ ! -e "$T/a" ] && [ ! -e "$T/a b" ] && [ ! -e b ] || false
}

# A program of a bot author's: it takes its options with getopt (which
# libbsd's overlay would rename bsd_getopt) and plays a game of the
# library's to its end.
write_getopt_program() {
	cat > "$1" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cardarena.h>

int
main(int argc, char **argv)
{
	static struct ca_legal l[CA_MAX_LEGAL];
	struct ca_game *g;
	const char *game = "nyse";
	char err[256];
	int ch, n, p, places[CA_MAX_PLAYERS];
	unsigned long seed = 1;

	while ((ch = getopt(argc, argv, "g:s:")) != -1)
		switch (ch) {
		case 'g':
			game = optarg;
			break;
		case 's':
			seed = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	if ((g = ca_new(game, 0, NULL, seed, err, sizeof err)) == NULL)
		return printf("%s\n", err), 1;
	while (ca_deciders(g) != 0) {
		p = __builtin_ctz(ca_deciders(g));
		n = ca_legal(g, p, l, CA_MAX_LEGAL);
		if (n <= 0 || ca_apply(g, p, l[0].code, l[0].lo) != 0)
			return printf("%s: stuck\n", game), 1;
	}
	ca_result(g, places, NULL);
	printf("%s seed %lu: %d players, first %d\n", game, seed,
	    ca_players(g), places[0]);
	ca_free(g);
	return 0;
}
C
}

# As nobody, in a login-like environment (no LD_LIBRARY_PATH, no
# PKG_CONFIG_PATH, PATH without the prefix), with what make install said
# to add sourced from $U/home/profile when it exists.
as_user() {
	run setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups \
	    env -i HOME="$U/home" PATH=/usr/bin:/bin sh -c \
	    'cd "$HOME"; [ ! -f profile ] || . ./profile; '"$1"
	echo "$output"
}

# An ordinary user's install (issue 35): make install PREFIX=$HOME/.local
# from a copy of the built tree the user owns (times kept: nothing is
# rebuilt), the lines it prints for the shell, and a program that calls
# getopt built with pkg-config's --libs (it runs without LD_LIBRARY_PATH:
# the rpath) and --static (libcardarena.a: it runs with the .so gone).
@test "make install as an ordinary user: pkg-config --libs and --static link and run a program that uses getopt" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become the user nobody"
	command -v setpriv >/dev/null || skip "no setpriv"
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	[ "${B:-build/std}" = build/std ] ||
	    skip "a sanitized library links only into sanitized programs"
	U=$T/u
	mkdir -p "$U/home" "$U/src"
	chown -R nobody "$U"
	tar -cf - --exclude=./.git --exclude=./build/san . |
	    setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups \
	    tar -xf - -C "$U/src"
	write_getopt_program "$U/home/prog.c"
	chmod 644 "$U/home/prog.c"
	as_user 'make -C ../src --no-print-directory install PREFIX="$HOME/.local"'
	[ "$status" -eq 0 ]
	[ -x "$U/home/.local/bin/cardarena-referee" ]
	[ "$(stat -c %U "$U/home/.local/lib/libcardarena.so.1")" = nobody ]
	printf '%s\n' "$output" | grep '^    export ' > "$U/home/profile.new" || true
	# not found before the lines make install printed
	as_user 'pkg-config --exists cardarena'
	[ "$status" -ne 0 ]
	mv "$U/home/profile.new" "$U/home/profile"
	grep -q "^    export PKG_CONFIG_PATH=\"$U/home/.local/lib/pkgconfig" "$U/home/profile"
	grep -q "^    export PATH=\"$U/home/.local/bin:" "$U/home/profile"
	# shared: the library found at run time with no LD_LIBRARY_PATH
	as_user 'cc -o prog prog.c $(pkg-config --cflags --libs cardarena) && ./prog -g daifugo -s 7'
	[ "$status" -eq 0 ]
	[[ "$output" == "daifugo seed 7: 5 players, first "[1-5] ]]
	readelf -d "$U/home/prog" | grep -q 'NEEDED.*libcardarena\.so\.1'
	# static: libcardarena.a linked in, the .so not needed
	as_user 'cc -o prog-static prog.c $(pkg-config --cflags --static --libs cardarena) && ./prog-static -g nyse -s 7'
	[ "$status" -eq 0 ]
	[[ "$output" == "nyse seed 7: "[0-9]" players, first "[0-9] ]]
	! readelf -d "$U/home/prog-static" | grep -q 'libcardarena' || false
	mv "$U/home/.local/lib/libcardarena.so.1" "$U/home/.local/lib/gone"
	as_user './prog-static -g stocks -s 7'
	[ "$status" -eq 0 ]
	as_user './prog -g stocks -s 7 || echo "exit $?"'
	[[ "$output" == *"libcardarena.so.1"*"exit 127" ]]
	# the programs and their pages by the PATH line alone
	as_user 'cardarena-referee --list-games && man -w cardarena-human'
	[ "$status" -eq 0 ]
	[[ "$output" == *"$U/home/.local/share/man/man1/cardarena-human.1"* ]]
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
