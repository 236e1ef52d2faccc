#!/usr/bin/env bats
# The tree's structure (issue 27): no include circle among its headers,
# no function over 150 lines outside tests (tools/structure.py); each
# check is first shown to catch what it looks for in a made-up tree.

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
