#!/usr/bin/env bats
# The tree's structure (issues 27 and 36): no include circle among its
# headers, no function over 150 lines outside tests, no circle between
# units, no include up or sideways between folders (tools/structure.py);
# each check is first shown to catch what it looks for in a made-up tree.

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$BATS_TEST_TMPDIR
}

# A made-up tree in $T/tree: a.h and b.h include each other, long.c has a
# function of 160 lines and short.c one of 10.
mktree() {
	mkdir -p "$T/tree/referee"
	printf '#include "b.h"\n' >"$T/tree/referee/a.h"
	printf '#include "a.h"\n' >"$T/tree/referee/b.h"
	{
		printf 'int\nlong_one(void)\n{\n'
		for i in $(seq 157); do printf '\tx();\n'; done
		printf '}\n'
	} >"$T/tree/referee/long.c"
	printf 'int\nshort_one(void)\n{\n\treturn 0;\n}\n' >"$T/tree/referee/short.c"
	git -C "$T/tree" init -q
	git -C "$T/tree" add referee
}

@test "no include circle among the tree's headers" {
	mktree
	run sh -c "cd '$T/tree' && python3 '$PWD/tools/structure.py' includes"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a.h -> b.h -> a.h"* ]]
	run python3 tools/structure.py includes
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "no function over 150 lines outside tests" {
	mktree
	run sh -c "cd '$T/tree' && python3 '$PWD/tools/structure.py' lengths 150"
	[ "$status" -eq 1 ]
	[ "$output" = "referee/long.c:2 long_one: 160 lines" ]
	run python3 tools/structure.py lengths 150
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "no circle between units (a .c and its .h: A uses B when A's object calls or reads what B's defines)" {
	# made up: a.o calls b_fn, b.o reads a_val, c.o calls a_fn alone
	mkdir -p "$T/obj"
	printf 'extern int b_fn(void);\nint a_val = 1;\nint a_fn(void) { return b_fn(); }\n' >"$T/a.c"
	printf 'extern int a_val;\nint b_fn(void) { return a_val; }\n' >"$T/b.c"
	printf 'extern int a_fn(void);\nint c_fn(void) { return a_fn(); }\n' >"$T/c.c"
	for u in a b c; do
		cc -c -o "$T/obj/$u.o" "$T/$u.c"
	done
	run python3 tools/structure.py units "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "circle: $T/obj/a $T/obj/b" ]
	[[ "$output" == *"$T/obj/a -> $T/obj/b (b_fn)"* ]]
	[[ "$output" == *"$T/obj/b -> $T/obj/a (a_val)"* ]]
	[[ "$output" != *"obj/c"* ]]
	# the tree's units, as built (make check builds them first); a
	# game's rules are one unit in three files (games/X.c, X_det.c,
	# X_json.c sharing X.h), so referee/engine/games is not looked at here
	b=${B:-build/std}
	[ -e "$b/tournaments/pool/pool.o" ] || skip "not built: $b"
	run python3 tools/structure.py units "$b/referee" "$b/referee/engine" \
	    "$b/tournaments" "$b"/tournaments/*/ "$b/bots" "$b/bots/lib" \
	    "$b/tools/render" "$b/tools/replay" "$b/tools/botcheck"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "no include from a folder to one not below it (HACKING.md's floors), and every folder has a floor" {
	# made up: the engine (floor 0) includes a referee header (floor 1), two
	# siblings on floor 2 include each other's, top (floor 3) includes
	# down, and tools/new has no floor
	mkdir -p "$T/tree/referee/engine" "$T/tree/tournaments/a" \
	    "$T/tree/tournaments/b" "$T/tree/tools/new"
	printf '## Floors\n\n     0  referee/engine\n     1  referee\n     2  tournaments/a  tournaments/b\n     3  tournaments\n\n## Next\n' \
	    >"$T/tree/HACKING.md"
	printf 'CFLAGS\t+= -Ireferee/engine -Ireferee -Itournaments\n' >"$T/tree/Makefile"
	printf '#include "match.h"\n' >"$T/tree/referee/engine/game.h"
	printf '#include "game.h"\n' >"$T/tree/referee/match.h"
	printf '#include "b/b.h"\n#include "match.h"\n' >"$T/tree/tournaments/a/a.h"
	printf '#include "game.h"\n' >"$T/tree/tournaments/b/b.h"
	printf '#include "a/a.h"\n#include "b/b.h"\n#include <stdio.h>\n' \
	    >"$T/tree/tournaments/top.c"
	printf 'int x;\n' >"$T/tree/tools/new/x.c"
	git -C "$T/tree" init -q
	git -C "$T/tree" add .
	run sh -c "cd '$T/tree' && python3 '$PWD/tools/structure.py' floors"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "tools/new: no floor in HACKING.md" ]
	[ "${lines[1]}" = "referee/engine/game.h:1 includes referee/match.h: floor 1, not below referee/engine's 0" ]
	[ "${lines[2]}" = "tournaments/a/a.h:1 includes tournaments/b/b.h: floor 2, not below tournaments/a's 2" ]
	run python3 tools/structure.py floors
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
