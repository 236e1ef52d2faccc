#!/usr/bin/env bats
# The terminal renderer's drawn tables (tools/render/), as bin/human and
# bin/replay draw them: `bin/replay --table GAME FILE` draws the known
# views of tests/views/GAME.json (a seat's view from a request, and an
# all-seeing one from a log), and each test checks the table's key lines
# (a horse's row shows its progress, a company's row its price and
# holdings...), that every line fits in 80 columns, and that --ascii
# writes ASCII only.

load helpers

# Draws the views of GAME into $T/GAME.txt (and the ASCII drawing into
# $T/GAME.ascii); checks the widths.
draw() {
	bin/replay --table "$1" "tests/views/$1.json" > "$T/$1.txt"
	bin/replay --table "$1" --ascii "tests/views/$1.json" > "$T/$1.ascii"
	python3 -c '
import sys
for path in sys.argv[1:]:
    for n, l in enumerate(open(path, encoding="utf-8"), 1):
        l = l.rstrip("\n")
        assert len(l) <= 80, "%s:%d: %d columns: %s" % (path, n, len(l), l)
' "$T/$1.txt" "$T/$1.ascii"
	! LC_ALL=C grep -q -P '[^\x00-\x7f]' "$T/$1.ascii" || false
}

@test "render: horserace draws the horses, the bets, the chips and the last race as a track" {
	draw horserace
	grep -q '^Race 3 of 4, dealt by seat 1: sealed bets$' "$T/horserace.txt"
	grep -q '^odds cards: 5♠ 8♣ K♠ K♦ 8♠ 3♥ J♠   stock: 41 cards$' "$T/horserace.txt"
	# a horse: its odds cards, cards of its suit in the stock, its odds
	grep -q '^A♠              4         8  10 to 1$' "$T/horserace.txt"
	grep -q '^your bets: win ♦ 9$' "$T/horserace.txt"
	grep -q '^seat 0 (you)    100  still betting$' "$T/horserace.txt"
	grep -q '^seat 1          134  dealer$' "$T/horserace.txt"
	# the track: a cell per card beside the ace, the finish line, the place
	grep -q '^A♦   |██ ██ ██ ██ ██ ██ ██ ██ ||  8  1st  (3 to 1)$' "$T/horserace.txt"
	grep -q '^A♣   |██ ██ ·· ·· ·· ·· ·· ·· ||  2  (3 to 1)$' "$T/horserace.txt"
	grep -q '^AD   |## ## ## ## ## ## ## ## ||  8  1st  (3 to 1)$' "$T/horserace.ascii"
	grep -q '^cards turned (19): 5♠ Q♣ 6♥' "$T/horserace.txt"
	# Calcutta: owners and prices, the auction under way
	grep -q '^horse  odds cards  in stock  owner     price$' "$T/horserace.txt"
	grep -q '^auction of A♠: high bid 39 by seat 1, next bid at least 40; you to bid$' "$T/horserace.txt"
	# nothing of the view is lost: what is not drawn is listed
	! grep -q '^last_race:' "$T/horserace.txt" || false
}

@test "render: nyse draws the board with the markers, companies against seats, the marks" {
	draw nyse
	grep -q '^NYSE, turn 14: you to play: take, discard or use a special$' "$T/nyse.txt"
	grep -q '^board   A  B  C  D  E  F  G  H  I  J  K  L$' "$T/nyse.txt"
	grep -q '^green   ·  ·  ·  ·  ●  ·  ·  ·  ·  ·  ·  ·  worth 3$' "$T/nyse.txt"
	grep -q '^green   \.  \.  \.  \.  \*  \.  \.  \.  \.  \.  \.  \.  worth 3$' "$T/nyse.ascii"
	# a company: value, pile, discarded, used, then each seat's chips
	grep -q '^colour  value  pile  disc  used |     you  seat 1  seat 2$' "$T/nyse.txt"
	grep -q '^green       3     4     2     1 |       0       0       3$' "$T/nyse.txt"
	grep -q '^worth now (millions)            |       1       0      10$' "$T/nyse.txt"
	grep -q '^your chips: blue plain 1$' "$T/nyse.txt"
	# the game over: scores and places
	grep -q '^score (millions)                |       9      11       8$' "$T/nyse.txt"
	grep -q '^place                           |       2       1       3$' "$T/nyse.txt"
}

@test "render: stocks draws the companies, the seats, the hand" {
	draw stocks
	grep -q '^Stocks, turn 18 (at most 400): you to play, seat 1 started$' "$T/stocks.txt"
	grep -q '^♠ spades       10  10♠ +4/-3  2♠ Q♠ 9♠ 10♠ 10♠$' "$T/stocks.txt"
	grep -q '^seat 0 (you) \*     51     0      6    9   5   2   0     196$' "$T/stocks.txt"
	grep -q '^your certificates: 9♠ J♥ 2♦$' "$T/stocks.txt"
	grep -q '^your hand: 2♠ 4♠ 2♥ J♦ 5♣ 6♣$' "$T/stocks.txt"
}

@test "render: speculation draws the deal, the seats' cards and the auction" {
	draw speculation
	grep -q '^Speculation, deal 1 of 8 (dealer seat 3): seat 2: an auction of their cards$' "$T/speculation.txt"
	grep -q '^trump ♥   highest face-up card 8♥, held by seat 2   pool 10$' "$T/speculation.txt"
	grep -q '^seat 3                   42  4  bought: #3 from you for 134$' "$T/speculation.txt"
	grep -q '^auction: seat 2 sells face-down position(s) 0, minimum 39$' "$T/speculation.txt"
}

@test "render: daifugo draws the seats in seating order, the trick, the hand" {
	draw daifugo
	grep -q '^Daifugo, deal 1 of 5: you to play$' "$T/daifugo.txt"
	grep -q '^▶  seat 0 (you)  commoner             10       0     0  K♣ 2♠ 2♥$' "$T/daifugo.txt"
	grep -q '^your hand: 4♦ 4♣ 5♥ 7♠ 7♣ 9♦ J♦ J♣ Q♣ K♥$' "$T/daifugo.txt"
	# the all-seeing view: every hand, the places, the exchanges
	grep -q '^4  seat 2        very_poor             4       1     0  ' "$T/daifugo.txt"
	grep -q '^      hand: 5♠ 7♦ 10♣ J♦$' "$T/daifugo.txt"
	grep -q '^exchange of seat 0: 2 card(s) with seat 2 (free); gave 4♠ 10♣; got A♣ 2♦$' "$T/daifugo.txt"
}

@test "render: --table refuses an unknown game and a line that is no view" {
	run bin/replay --table chess tests/views/nyse.json
	[ "$status" -eq 2 ]
	[[ "$output" == *"--table chess: no such game"* ]]
	echo '[1, 2]' > "$T/bad.json"
	run bin/replay --table nyse "$T/bad.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.json:1: not a view"* ]]
}

@test "render: a view with fields of any other type or missing is drawn without a crash" {
	# every field (and every field of a field) of the known views replaced
	# by null, a number, a string, an empty or odd array or object
	for g in horserace nyse stocks speculation daifugo; do
		python3 - "tests/views/$g.json" > "$T/odd.json" <<'PY'
import json, sys
odd = [None, 1, "x", [], {}, [1, "x", None], {"a": 1, "blue": "x"}]
for line in open(sys.argv[1]):
    v = json.loads(line)
    paths = []
    for k, x in v.items():
        paths.append([k])
        if isinstance(x, dict):
            paths += [[k, j] for j in x]
        elif isinstance(x, list) and x:
            paths.append([k, 0])
    for p in paths:
        for o in odd:
            w = json.loads(line)
            at = w
            for q in p[:-1]:
                at = at[q]
            at[p[-1]] = o
            print(json.dumps(w))
        w = json.loads(line)
        if len(p) == 1:
            del w[p[0]]
            print(json.dumps(w))
PY
		run bin/replay --table "$g" "$T/odd.json"
		[ "$status" -eq 0 ]
	done
}
