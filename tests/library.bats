#!/usr/bin/env bats
# The engines as a library (issue 28): make install's header, static and
# shared library and pkg-config file, a C program built with them; the
# Python binding's operations; the search bots (C, and the Python example
# on the binding) pass botcheck in their games and, with --iterations,
# play the same moves for the same seed; the README's "Build a search
# bot" section run as written.  Searches run a fixed number of
# iterations (never a time budget), so the machine's speed changes nothing.

load helpers

# A C program on the public header only: a random game of each game to
# its end, a clone that must not follow the original, a view read back.
write_program() {
	cat > "$T/play.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cardarena.h>

int
main(void)
{
	static struct ca_legal l[CA_MAX_LEGAL];
	struct ca_game *g, *c, *d;
	struct ca_view *v;
	char err[256], *t1, *t2;
	int i, n, p, places[CA_MAX_PLAYERS];
	const char *name;

	for (i = 0; (name = ca_game_name(i)) != NULL; i++) {
		if ((g = ca_new(name, 0, NULL, 7, err, sizeof err)) == NULL)
			return printf("%s: %s\n", name, err), 1;
		c = ca_clone(g);
		while (ca_deciders(g) != 0) {
			p = __builtin_ctz(ca_deciders(g));
			n = ca_legal(g, p, l, CA_MAX_LEGAL);
			if (n <= 0 || ca_apply(g, p, l[n - 1].code,
			    l[n - 1].ranged ? l[n - 1].lo : 0) != 0)
				return printf("%s: stuck\n", name), 1;
		}
		if (ca_result(g, places, NULL) != 0 || ca_over(c) ||
		    ca_check(g, err, sizeof err) != 0)
			return printf("%s: result\n", name), 1;
		t1 = ca_view_json(c, 0);
		v = ca_view_parse(t1, err, sizeof err);
		d = ca_new(name, 0, NULL, 1, err, sizeof err);
		if (v == NULL || ca_determinize(d, 0, v, err, sizeof err))
			return printf("%s: %s\n", name, err), 1;
		t2 = ca_view_json(d, 0);
		if (strcmp(t1, t2) != 0 || ca_playout(d, 0) < 0 || !ca_over(d))
			return printf("%s: determinize\n", name), 1;
		printf("%s %d players first %d\n", name, ca_players(g),
		    places[0]);
		ca_text_free(t1);
		ca_text_free(t2);
		ca_view_free(v);
		ca_free(g);
		ca_free(c);
		ca_free(d);
	}
	return 0;
}
EOF
}

@test "make install: cardarena.h, libcardarena.a and .so, cardarena.pc; a C program builds and plays" {
	run mk install PREFIX="$T/usr"
	[ "$status" -eq 0 ]
	[ -s "$T/usr/include/cardarena.h" ]
	[ -s "$T/usr/lib/libcardarena.a" ] && [ -x "$T/usr/lib/libcardarena.so.1" ]
	[ -L "$T/usr/lib/libcardarena.so" ]
	# the shared library exports the interface and nothing else
	run sh -c "nm -D --defined-only '$T/usr/lib/libcardarena.so' | awk '\$2 == \"T\" {print \$3}' | grep -v '^ca_'"
	[ "$status" -ne 0 ] && [ -z "$output" ]
	# nor the sanitizers' runtime, in make SANITIZE=1 too (what loads it
	# does not carry that runtime)
	run ldd "$T/usr/lib/libcardarena.so"
	[ "$status" -eq 0 ] && [[ "$output" != *libasan* && "$output" != *libubsan* ]]
	write_program
	export PKG_CONFIG_PATH="$T/usr/lib/pkgconfig"
	grep -q "^prefix=$T/usr\$" "$T/usr/lib/pkgconfig/cardarena.pc"
	run sh -c "cc -o '$T/play' '$T/play.c' \$(pkg-config --cflags --libs cardarena)"
	[ "$status" -eq 0 ]
	run env LD_LIBRARY_PATH="$T/usr/lib" "$T/play"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 5 ]
	echo "$output" | grep -q '^daifugo 5 players first [1-5]$'
	# statically, with the private libraries pkg-config names
	run sh -c "cc -o '$T/play-static' '$T/play.c' \$(pkg-config --cflags cardarena) '$T/usr/lib/libcardarena.a' \$(pkg-config --static --libs-only-l cardarena | sed 's/-lcardarena//')"
	[ "$status" -eq 0 ]
	run "$T/play-static"
	[ "$status" -eq 0 ] && [ "${#lines[@]}" -eq 5 ]
	# the binding and the example bot sit beside the Python SDK
	[ -s "$T/usr/share/cardarena/bots/python/cardarena_lib.py" ]
	[ -s "$T/usr/share/cardarena/bots/python/mcts_bot.py" ]
	run env -u CARDARENA_LIB python3 -c "import sys; sys.path.insert(0, '$T/usr/share/cardarena/bots/python'); import cardarena_lib as ca; print(ca.library._name); print(ca.games())"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "$T/usr/lib/libcardarena.so" ]]
}

@test "the Python binding: play, clone, determinize, JSON forms, errors" {
	run python3 - <<'PY'
import sys
sys.path.insert(0, "bots/python")
import cardarena_lib as ca

assert sorted(ca.games()) == ["daifugo", "horserace", "nyse",
                              "speculation", "stocks"], ca.games()
for name in ca.games():
    g = ca.Game(name, seed=5)
    c = g.clone()
    steps = 0
    while not g.over():
        p = g.deciders()[0]
        legal = g.legal(p)
        for e, j in zip(legal, g.legal_json(p)):
            if e.ranged:
                assert j["amount"] == {"min": e.lo, "max": e.hi}, j
            else:
                assert j == g.action_json(p, e.code), j
        e = legal[steps % len(legal)]
        amount = e.hi if e.ranged else 0
        act = g.action_json(p, e.code, amount)
        assert g.action_parse(p, act) == (e.code, amount), (act, e)
        g.apply(p, e.code, amount)
        g.check()
        steps += 1
    places, scores = g.result()
    assert len(places) == g.players and min(places) == 1
    assert not c.over()          # the clone did not follow
    try:
        c.result()
        raise AssertionError("a result before the end")
    except ca.CardarenaError:
        pass
    # a view read back gives the same view; the draw plays on
    seat = c.deciders()[0]
    text = c.view_json(seat)
    d = ca.Game(name, seed=9)
    d.determinize(seat, ca.View(text))
    assert d.view_json(seat) == text
    assert d.legal_json(seat) == c.legal_json(seat)
    n = d.playout()
    assert n > 0 and d.over()
    print(name, steps, places)

for bad, args in (("no such game", ("chess",)),
                  ("bad option", ("stocks", 0, {"max_turns": -1})),
                  ("bad players", ("daifugo", 2))):
    try:
        ca.Game(*args)
        raise AssertionError(bad)
    except ca.CardarenaError as e:
        print("refused:", bad, "-", e)
g = ca.Game("nyse", seed=1)
p = g.deciders()[0]
for bad in (lambda: g.apply(p, 123456789),
            lambda: g.action_parse(p, {"type": "fly"}),
            lambda: g.determinize(0, {"players": 4}),
            lambda: ca.View("not json")):
    try:
        bad()
        raise AssertionError("accepted")
    except ca.CardarenaError as e:
        print("refused:", e)
PY
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^refused:')" -eq 7 ]
}

@test "the C search bots pass botcheck in their game (fixed iterations)" {
	for g in stocks speculation nyse daifugo horserace; do
		run bin/botcheck -g "$g" -s 4 -n 1 -r 1 $LIMITS --max-time 3600 \
		    -- "bin/${g}_mcts --iterations 40 --seed 3"
		echo "$output" | tail -n 3
		[ "$status" -eq 0 ]
		echo "$output" | grep -q '^botcheck: PASS'
	done
}

@test "the Python example search bot passes botcheck in every game" {
	for g in stocks speculation nyse daifugo horserace; do
		run bin/botcheck -g "$g" -s 4 -n 1 -r 0 $LIMITS --max-time 3600 \
		    -- python3 bots/python/mcts_bot.py --iterations 8 --seed 3
		echo "$output" | tail -n 3
		[ "$status" -eq 0 ]
		echo "$output" | grep -q '^botcheck: PASS'
	done
}

# The answers bot 0 sent in the match log $1 (their lines alone: the
# log's counters and times depend on the other bots' timing).
answers() {
	grep '"type":"recv"' "$1" | grep '"bot":0,' | sed 's/.*"line"://'
}

@test "a search bot with --iterations plays the same moves for a seed, others for another" {
	for r in a b c; do
		seed=5
		[ "$r" = c ] && seed=6
		run bin/referee -g speculation -s 11 $LIMITS --log "$T/$r.log" \
		    -b "bin/speculation_mcts --iterations 60 --seed $seed" \
		    -b "bin/random --seed 1" -b "bin/random --seed 2"
		[ "$status" -eq 0 ]
		answers "$T/$r.log" > "$T/$r.ans"
	done
	cmp "$T/a.ans" "$T/b.ans"
	[ "$(wc -l < "$T/a.ans")" -gt 5 ]
	! cmp -s "$T/a.ans" "$T/c.ans" || false
	grep -q '60 iterations' "$T/a.ans"
}

@test "a search stops once its move is settled (--settle), else uses its whole budget" {
	# 20,000 iterations a move unless settled: speculation_mcts settles
	# by default (its moves mostly compare counters and chances without
	# a draw); --settle 0 spends them all.  Counted, not timed.
	run bin/referee -g speculation -s 11 $LIMITS --max-decisions 60 \
	    --log "$T/settle.log" \
	    -b "bin/speculation_mcts --iterations 20000 --seed 5" \
	    -b "bin/speculation_bot" -b "bin/random --seed 2"
	answers "$T/settle.log" | grep -o '[0-9]* iterations' | sort | uniq -c
	n=$(answers "$T/settle.log" | grep -c ' iterations')
	early=$(answers "$T/settle.log" | grep -cE '[^0-9][0-9]{2,3} iterations')
	[ "$n" -gt 5 ]
	[ "$early" -gt 5 ]
	run bin/referee -g speculation -s 11 $LIMITS --max-decisions 12 \
	    --log "$T/full.log" \
	    -b "bin/speculation_mcts --iterations 3000 --settle 0 --seed 5" \
	    -b "bin/speculation_bot" -b "bin/random --seed 2"
	[ "$(answers "$T/full.log" | grep -c ' iterations')" -gt 2 ]
	! answers "$T/full.log" | grep ' iterations' | grep -vE '[^0-9]3000 iterations' || false
}

@test "the search options take numbers in [0, 100]: anything else is refused with one line" {
	for bad in abc 1x -1 101 ''; do
		for opt in --settle --confidence --explore; do
			run bin/speculation_mcts "$opt" "$bad"
			[ "$status" -eq 2 ]
			[ "${#lines[@]}" -eq 1 ]
			echo "$output" | grep -q -- "$opt .*not a number in \[0, 100\]"
		done
	done
	run bin/speculation_mcts --settle 2.5 --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q -- '--settle Z'
}

@test "README: the \"Build a search bot\" section runs as written and does what it says" {
	readme_script "Build a search bot" "$T/search.sh" 3
	cp -r bin bots lib "$T/"
	mkdir -p "$T/referee/engine" && cp referee/engine/cardarena.h "$T/referee/engine/"
	cd "$T"
	run bash search.sh
	echo "$output"
	[ "$status" -eq 0 ]
	# the C program played a game of each
	echo "$output" | grep -E '^daifugo: [0-9]+ actions, places \[[1-5](,[1-5]){4}\]$'
	# a view read back and searched from Python
	echo "$output" | grep -E '^nyse: seat [0-3] would play \{'
	# the search bot's match and its check
	echo "$output" | grep -E '"names":\["stocks_mcts","stocks_bot","random","random"\]'
	echo "$output" | grep -E '^botcheck: PASS'
}
