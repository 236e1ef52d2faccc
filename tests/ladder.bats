#!/usr/bin/env bats
# End-to-end tests of the ladder (tournament ladder, tournaments/ladder*.c):
# entering bots through botcheck (a failing bot refused with its report, a
# bot's directory copied so that its author's later edits change nothing),
# update, retire and the inbox; the store's schema; status equal to
# `tournament rate` on the export, byte for byte; the site published by
# renaming a symlink; serve answering read-only on localhost; one clear
# line for every bad input; and the issue's test: a ladder run with bots
# added, updated and retired while it plays, killed with SIGKILL and
# restarted several times, no game lost nor doubled, its table equal to
# tournament rate's on its export.  Time limits are $TOUR_LIMITS; waits
# poll with wait_for, counted in games committed, never fixed delays.

load helpers
load ladder

# three_randoms GAMES: a ladder $L (--boot 20) of three random bots, r1
# to r3, that has played GAMES games at one slot.
three_randoms() {
	local i
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	for i in 1 2 3; do
		bin/tournament ladder add "$L" "r$i" -c "bin/random --seed $i"
	done
	bin/tournament ladder run -q -j 1 --games "$1" "$L"
}

@test "ladder: init, add through botcheck, a failing bot refused with the report, the directory copied" {
	run bin/tournament ladder init "$L" "$T/settings.json"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT value FROM meta WHERE key = 'schema_version'")" = 4 ]
	[ "$(q "PRAGMA journal_mode")" = wal ]
	run bin/tournament ladder add "$L" rnd -c bin/random
	[ "$status" -eq 0 ]
	[ "$output" = "rnd.v1 entered" ]
	# the relative command is made absolute: the ladder runs anywhere
	[ "$(q "SELECT command FROM versions WHERE player = 'rnd.v1'")" = "$PWD/bin/random" ]
	pybot "$T/src"
	run bin/tournament ladder add "$L" py --dir "$T/src" -c "python3 random_bot.py" --owner ann
	[ "$status" -eq 0 ]
	[ -f "$L/bots/py/v1/random_bot.py" ]
	echo "garbage" > "$T/src/random_bot.py"
	cmp bots/python/random_bot.py "$L/bots/py/v1/random_bot.py"
	[ "$(q "SELECT owner FROM bots WHERE name = 'py'")" = ann ]
	# botcheck's verdict refuses a bot that exits at once, nothing kept
	run bin/tournament ladder add "$L" bad -c /bin/false
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad failed bin/botcheck and is not entered"* ]]
	[[ "$output" == *FAIL* ]]
	[ "$(q "SELECT count(*) FROM bots WHERE name = 'bad'")" = 0 ]
	run bin/tournament ladder add "$L" rnd -c bin/random
	[ "$status" -eq 1 ]
	[[ "$output" == *"rnd is in the ladder already"* ]]
}

@test "ladder: update adds a version and retires the old; retire; the inbox enters and refuses with a note" {
	bin/tournament ladder init "$L" "$T/settings.json"
	bin/tournament ladder add "$L" rnd -c bin/random
	run bin/tournament ladder update "$L" rnd
	[ "$status" -eq 1 ]
	[[ "$output" == *"a new version needs a new command"* ]]
	run bin/tournament ladder update "$L" rnd -c 'bin/random --seed 9'
	[ "$status" -eq 0 ]
	[ "$output" = "rnd.v2 entered" ]
	[ "$(q "SELECT player, retired IS NULL FROM versions ORDER BY id")" = "rnd.v1|0
rnd.v2|1" ]
	run bin/tournament ladder update "$L" nobody
	[ "$status" -eq 1 ]
	[[ "$output" == *"no bot called nobody"* ]]
	run bin/tournament ladder retire "$L" rnd
	[ "$status" -eq 0 ]
	[ "$(q "SELECT count(*) FROM versions WHERE retired IS NULL")" = 0 ]
	run bin/tournament ladder retire "$L" rnd
	[ "$status" -eq 1 ]
	[[ "$output" == *"no active bot called rnd"* ]]
	mkdir -p "$T/inbox/ann" "$T/inbox/bob" "$T/inbox/cid"
	pybot "$T/inbox/ann"
	echo '{"name": "annbot", "command": "python3 random_bot.py", "owner": "ann"}' > "$T/inbox/ann/bot.json"
	echo '{"name": "bobbot", "command": "/bin/false"}' > "$T/inbox/bob/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	[ "$status" -eq 0 ]
	[[ "$output" == *"entered as annbot.v1"* ]]
	[[ "$output" == *"refused"* ]]
	grep -q "entered as annbot.v1" "$T/inbox/ann/ladder.txt"
	grep -q "refused: bobbot failed bin/botcheck" "$T/inbox/bob/ladder.txt"
	[ ! -e "$T/inbox/cid/ladder.txt" ]
	# picked up once: a second look enters nothing again
	run bin/tournament ladder inbox "$L" "$T/inbox"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT count(*) FROM versions WHERE player LIKE 'annbot%'")" = 1 ]
}

@test "ladder: status is tournament rate on the export, byte for byte, in every format" {
	bin/tournament ladder init --boot 40 "$L" "$T/settings.json"
	run bin/tournament ladder synth "$L" --bots 6 --games 600 --seed 7
	[ "$status" -eq 0 ]
	status_is_rate 40 "$T/export.jsonl"
	[ "$(($(wc -l < "$T/export.jsonl") - 1))" = 600 ]
	grep -q "<h2>Recent games</h2>" "$T/status.html"
	grep -q "^lad: 600 games, 6 players" "$T/status.text"
	# the export names no master seed: it would deal every future game
	! grep -q '"seed":"' <(head -n 1 "$T/export.jsonl") || false
}

@test "ladder synth --append: games added between the bots synth made, timed, their tables ended; the table still tournament rate's; misuse refused" {
	bin/tournament ladder init --boot 10 "$L" "$T/settings.json"
	run bin/tournament ladder synth "$L" --append --games 10
	[ "$status" -eq 1 ]
	[[ "$output" == *"no bots to append games between"* ]]
	bin/tournament ladder synth "$L" --bots 5 --games 200 --seed 3
	run bin/tournament ladder synth "$L" --append --games 120
	[ "$status" -eq 0 ]
	[[ "$output" == *": 120 games appended in "*" s (CPU)" ]]
	[ "$(q "SELECT count(*) FROM games")" = 320 ]
	[ "$(q "SELECT count(*) FROM versions")" = 5 ]
	# its tables played out: a run abandons none of them
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" = 0 ]
	status_is_rate 10 "$T/export.jsonl"
	run bin/tournament ladder synth "$L" --bots 5 --games 10
	[ "$status" -eq 1 ]
	[[ "$output" == *"--append adds games to one"* ]]
	run bin/tournament ladder synth "$L" --bots 5 --append --games 10
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "ladder synth: more bots than a tournament holds, more rated than the fit sums pair by pair (its prior by bins); the table still tournament rate's" {
	bin/tournament ladder init --boot 2 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 4500 --games 12000
	[ "$(q "SELECT max(player) FROM versions")" = synth4499.v1 ]
	# above RATE_DENSE_MAX (4096) players in the fit
	[ "$(q "SELECT count(DISTINCT version) FROM results")" -gt 4096 ]
	bin/tournament ladder export "$L" -o "$T/export.jsonl"
	bin/tournament ladder status -f csv "$L" > "$T/status.csv"
	bin/tournament rate --boot 2 -f csv -t "${L##*/}" "$T/export.jsonl" > "$T/rate.csv"
	cmp "$T/status.csv" "$T/rate.csv"
	[ "$(wc -l < "$T/status.csv")" -gt 4097 ]
}

@test "ladder run seats from more active bots than a tournament file holds (4,096): synth's bots given a command play; --command misuse refused" {
	bin/tournament ladder init --boot 2 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 4200 --games 30 --command "$PWD/bin/random"
	[ "$(q "SELECT count(DISTINCT command) FROM versions")" -eq 1 ]
	[ "$(q "SELECT command FROM versions LIMIT 1")" = "$PWD/bin/random" ]
	run bin/tournament ladder run -j 1 --games 6 "$L"
	[ "$status" -eq 0 ]
	[[ "$output" != *"at most 4096"* ]]
	[[ "$output" == *"4200 bots in play"* ]]
	[ "$(q "SELECT count(*) FROM games")" -eq 36 ]
	# the games the run played: nobody faulted (the command ran)
	! q "SELECT line FROM games WHERE id > 30" | grep -q '"crash":[1-9]' || false
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL OR abandoned")" -eq 0 ]
	run bin/tournament ladder synth "$L" --append --games 5 --command true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--command names the bots synth makes"* ]]
	run bin/tournament ladder synth "$T/other" --bots 5 --games 5 --command ""
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "ladder site: more bots than results.html shows (60): table.txt is ladder status's table without the n x n head-to-head grid, a note instead" {
	bin/tournament ladder init --boot 2 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 70 --games 600
	bin/tournament ladder site "$L"
	bin/tournament ladder status "$L" > "$T/status.txt"
	[ "$(grep -c '^Head to head (pairwise score' "$T/status.txt")" = 1 ]
	! grep -q '^Head to head (pairwise' "$L/site/table.txt" || false
	[ "$(tail -n 1 "$L/site/table.txt")" = "Head to head: not shown for 70 players (a grid of 4900 cells)" ]
	# the rest, line for line ladder status's
	n=$(($(wc -l < "$L/site/table.txt") - 1))
	cmp <(head -n "$n" "$L/site/table.txt") <(head -n "$n" "$T/status.txt")
	[ ! -e "$L/site/results.html" ]
}

@test "ladder: the site is published whole by renaming a symlink; serve answers read-only on localhost" {
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 4 --games 120
	bin/tournament ladder site "$L"
	[ -L "$L/site" ]
	first=$(readlink "$L/site")
	grep -q '<table id="standings">' "$L/site/index.html"
	[ "$(grep -c 'href="bots/synth000' "$L/site/index.html")" -eq 4 ]
	[ -f "$L/site/bots/synth0003.html" ]
	bin/tournament ladder status "$L" | cmp - "$L/site/table.txt"
	bin/tournament ladder site "$L"
	second=$(readlink "$L/site")
	[ "$first" != "$second" ]
	bin/tournament ladder site "$L"
	# the generation before stays for readers inside it; older ones go
	[ ! -e "$L/$first" ]
	[ -d "$L/$second" ]
	bin/tournament ladder serve "$L" --port 0 > "$T/serve.out" 2>&1 &
	srv=$!
	wait_for grep -q "^serving" "$T/serve.out"
	port=$(sed -n 's|.*127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$T/serve.out")
	run python3 - "$port" <<'PY'
import sys, urllib.request, urllib.error, http.client
port = int(sys.argv[1])
def get(path, method="GET"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request(method, path)
    r = c.getresponse()
    return r.status, r.getheader("Content-Type"), r.read()
s, t, b = get("/")
assert s == 200 and t.startswith("text/html") and b'id="standings"' in b, (s, t)
s, t, b = get("/bots/synth0001.html")
assert s == 200 and b"synth0001" in b, s
s, t, b = get("/table.txt")
assert s == 200 and t.startswith("text/plain"), (s, t)
for bad in ("/../ladder.db", "/%2e%2e/ladder.db", "/logs/../ladder.db", "/.x", "/nothing.html"):
    s, t, b = get(bad)
    assert s == 404, (bad, s)
s, t, b = get("/", "POST")
assert s == 405, s
print("ok")
PY
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
}

@test "ladder: --help on every command, one line for every bad input" {
	for c in init add update retire inbox run status export site serve synth; do
		run bin/tournament ladder $c --help
		[ "$status" -eq 0 ]
		[[ "$output" == *"tournament ladder"* ]]
	done
	run bin/tournament ladder
	[ "$status" -eq 2 ]
	run bin/tournament ladder frobnicate "$L"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder status "$T/none"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"not a ladder"* ]]
	run bin/tournament ladder init "$L" -g nosuchgame
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"unknown game"* ]]
	bin/tournament ladder init "$L" "$T/settings.json"
	run bin/tournament ladder init "$L" "$T/settings.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a ladder already"* ]]
	run bin/tournament ladder add "$L" 'no/slash' -c bin/random
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder add "$L" x
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder add "$L" x -c bin/random --dir "$T/none"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a directory"* ]]
	run bin/tournament ladder run "$L" -j 0
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder serve "$L" --port 70000
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder status -f pdf "$L"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	# fewer bots than seats (the bound is the test's: it looped for ever)
	run timeout 600 bin/tournament ladder synth "$L" --bots 2 --games 10
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"needs as many bots"* ]]
}

@test "ladder: the served site in headless chromium: the standing table, a bot page; screenshots" {
	need_browser
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 5 --games 300
	bin/tournament ladder site "$L"
	bin/tournament ladder site "$L"
	bin/tournament ladder serve "$L" --port 0 > "$T/serve.out" 2>&1 &
	srv=$!
	wait_for grep -q "^serving" "$T/serve.out"
	url=$(sed -n 's|.* \(http://[^ ]*\)$|\1|p' "$T/serve.out")
	rm -f build/screenshots/ladder-*.png
	run node tests/browser/ladder.test.mjs --shots build/screenshots --rows 5 "$url"
	[ "$status" -eq 0 ]
	! [[ "$output" == *"not ok"* ]] || false
	[ "$(printf '%s\n' "$output" | grep -c '^ok ')" -ge 15 ]
	[ -s build/screenshots/ladder-standings.png ]
	[ -s build/screenshots/ladder-bot.png ]
}

# Checks the store against the match logs the referees wrote: every game
# committed once, as its log reports it (bots by seat, places); every game
# of a table that ended (not abandoned by a kill) committed; prints the
# number of games.
against_logs() {
	python3 - "$L" <<'PY'
import json, os, sqlite3, sys
L = sys.argv[1]
c = sqlite3.connect(os.path.join(L, "ladder.db"))
seen = {}
for tab, game, line, log in c.execute("SELECT tab, game, line, log FROM games ORDER BY id"):
    assert (tab, game) not in seen, ("doubled", tab, game)
    seen[(tab, game)] = json.loads(line)
logs = {}
def games_of(path):
    if path not in logs:
        starts, ends = {}, {}
        for l in open(os.path.join(L, path), encoding="utf-8"):
            try:
                d = json.loads(l)
            except ValueError:
                continue          # a line cut by the kill
            if d.get("type") == "game_start":
                starts[d["game"]] = d["seats"]
            elif d.get("type") == "game_end":
                ends[d["game"]] = d["places"]
        logs[path] = {g: (starts[g], ends[g]) for g in ends}
    return logs[path]
players = dict(c.execute("SELECT id, player FROM versions"))
for (tab, game), j in seen.items():
    g = games_of(j["log"])
    assert game in g, ("a committed game no referee reported", tab, game)
    seats, places = g[game]
    names = [players[v] for (v,) in c.execute(
        "SELECT version FROM seats WHERE tab = ? ORDER BY seat", (tab,))]
    assert j["bots"] == [names[b] for b in seats], ("bots", tab, game)
    assert j["places"] == places, ("places", tab, game)   # the log: by seat
ended = 0
for tab, log, abandoned in c.execute("SELECT id, log, abandoned FROM tables WHERE ended IS NOT NULL"):
    if abandoned or log is None or not os.path.exists(os.path.join(L, log)):
        continue
    ended += 1
    for game in games_of(log):
        assert (tab, game) in seen, ("a reported game lost", tab, game)
assert ended > 0, "no table ended"
print(len(seen))
PY
}

# The games committed so far.
games() {
	q "SELECT count(*) FROM games"
}

# Succeeds when at least $1 games are committed.
games_at_least() {
	[ "$(games)" -ge "$1" ]
}

# Succeeds when version $1 has played at least one game.
has_played() {
	[ "$(q "SELECT count(*) FROM results r JOIN versions v ON v.id = r.version WHERE v.player = '$1'")" -gt 0 ]
}

# Starts the ladder in the background.
start() {
	bin/tournament ladder run -q --refit 3 "$L" 2>>"$T/run.err" &
	bg=$!
}

# SIGKILLs the ladder (and its pool's referees die with it).
kill9() {
	kill -9 "$bg"
	wait "$bg" 2>/dev/null || true
	bg=
}

@test "ladder run: bots added, updated, retired while it plays; SIGKILL and restarts; no game lost or doubled; its table is tournament rate's" {
	bin/tournament ladder init --boot 30 "$L" "$T/settings.json"
	bin/tournament ladder add "$L" a -c 'bin/random --seed 1'
	bin/tournament ladder add "$L" b -c 'bin/random --seed 2'
	bin/tournament ladder add "$L" c -c 'bin/random --seed 3'
	start
	wait_for test -L "$L/site"
	n=$(games); wait_for games_at_least $((n + 6))
	kill9
	start
	n=$(games); wait_for games_at_least $((n + 1))
	run bin/tournament ladder run -q "$L"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the ladder is running already"* ]]
	bin/tournament ladder add "$L" d -c 'bin/random --seed 4'
	wait_for has_played d.v1
	kill9
	start
	bin/tournament ladder update "$L" b -c 'bin/random --seed 5'
	wait_for has_played b.v2
	n=$(games); wait_for games_at_least $((n + 3))
	kill9
	bin/tournament ladder retire "$L" c
	start
	n=$(q "SELECT count(*) FROM results r JOIN versions v ON v.id = r.version WHERE v.player = 'c.v1'")
	m=$(games); wait_for games_at_least $((m + 9))
	kill9
	# once retired, c played no more; b.v1 neither once b.v2 came
	[ "$(q "SELECT count(*) FROM results r JOIN versions v ON v.id = r.version WHERE v.player = 'c.v1'")" -eq "$n" ]
	start
	n=$(games); wait_for games_at_least $((n + 3))
	kill -TERM "$bg"
	st=0
	wait "$bg" || st=$?
	bg=
	[ "$st" -eq 130 ]
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM tables WHERE abandoned = 1")" -ge 1 ]
	run against_logs
	[ "$status" -eq 0 ]
	[ "$output" -eq "$(games)" ]
	bin/tournament ladder export "$L" -o "$T/export.jsonl"
	[ "$(($(wc -l < "$T/export.jsonl") - 1))" -eq "$(games)" ]
	bin/tournament ladder status "$L" > "$T/status.txt"
	bin/tournament rate --boot 30 -t lad "$T/export.jsonl" > "$T/rate.txt"
	cmp "$T/status.txt" "$T/rate.txt"
	# the site at rest shows that very table
	cmp "$T/status.txt" "$L/site/table.txt"
	for p in a.v1 b.v1 b.v2 c.v1 d.v1; do
		grep -q "^ *[0-9]*.  *$p " "$T/status.txt"
	done
	# the replays the run left to render, ladder site renders: every
	# table that ended with all its games has one
	bin/tournament ladder site "$L"
	for f in $(q "SELECT t.log FROM tables t WHERE NOT abandoned AND (SELECT count(*) FROM games g WHERE g.tab = t.id) = hi - lo"); do
		[ -s "$L/$f.html" ]
	done
	ls "$L"/logs/t*.jsonl.html >/dev/null
	grep -q 'class="replay"' "$L"/site/bots/*.html
	# every table that holds a game has its replay, the abandoned ones
	# (a kill -9 left them open) and the one the last signal stopped
	# mid-game too
	replays_complete
}

# Has every table that ended with a game its replay?
replays_ended() {
	local f
	for f in $(q "SELECT DISTINCT t.log FROM tables t JOIN games g ON g.tab = t.id WHERE t.ended IS NOT NULL AND t.log IS NOT NULL"); do
		[ -s "$L/$f.html" ] || return 1
	done
}

# A ladder of horserace at 3 seats, its tables sized by their pace, the
# settings' further keys $1 (JSON members), random bots r1 .. r$2.
random_ladder() {
	local i
	printf '{"game": "horserace", "seats": 3, %s, %s}\n' "$1" \
	    "$TOUR_LIMITS" > "$T/auto.json"
	bin/tournament ladder init --boot 20 "$L" "$T/auto.json"
	for i in $(seq "$2"); do
		bin/tournament ladder add "$L" "r$i" -c "bin/random --seed $i"
	done
}

# Has table $1 ended?
table_ended() {
	[ "$(q "SELECT ended IS NOT NULL FROM tables WHERE id = $1")" = 1 ]
}

@test "ladder site: now playing while a table plays (its bots, its games done, none of its logs); a bot page's replay link opens its game; every game's log has a replay; status is rate on the export in html too" {
	need_browser
	gate=$T/gate
	mkdir "$T/gatebot"
	cp tests/bots/gate.py "$T/gatebot/"
	chmod -R go+rX "$T/gatebot"
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder add "$L" a -c 'bin/random --seed 1' --owner ann
	bin/tournament ladder add "$L" b -c 'bin/random --seed 2'
	bin/tournament ladder add "$L" gate --dir "$T/gatebot" -c "python3 gate.py $gate" --owner 'gil <g@x>'
	# six games played, then a run in which every table holds at its
	# second game while the gate exists (made before the run: a gate
	# made while a table plays may come after the gate bot's last move
	# there, and the table end, seen at "2 of 3", then gone: a race CI
	# once lost)
	bin/tournament ladder run -q -j 1 --refit 1 --games 6 "$L" 2>>"$T/run.err"
	touch "$gate"
	bin/tournament ladder run -q -j 1 --refit 1 "$L" 2>>"$T/run.err" &
	bg=$!
	wait_for grep -q '<td>1 of 3</td>' "$L/site/index.html"
	open=$(q "SELECT id FROM tables WHERE ended IS NULL AND abandoned = 0")
	# the first run's replays, made in the background by this one
	wait_for replays_ended
	log=$(printf 't%06d.jsonl' "$open")
	grep -q "<table id=\"inplay\">" "$L/site/index.html"
	grep -q '<meta http-equiv="refresh"' "$L/site/index.html"
	grep -q '<td class="l">gil &lt;g@x&gt;</td>' "$L/site/index.html"
	# a spectator sees no log nor replay of the table in play, anywhere
	! grep -rq "$log" "$L/site/" || false
	grep -q 'in play: its log and replay come when its table ends' "$L/site/bots/gate.html"
	bin/tournament ladder serve "$L" --port 0 > "$T/serve.out" 2>&1 &
	srv=$!
	wait_for grep -q "^serving" "$T/serve.out"
	url=$(sed -n 's|.* \(http://[^ ]*\)$|\1|p' "$T/serve.out")
	run node tests/browser/ladder.test.mjs --shots build/screenshots --rows 3 \
	    --replay --playing "$url"
	echo "$output"
	[ "$status" -eq 0 ]
	! [[ "$output" == *"not ok"* ]] || false
	[[ "$output" == *"the replay opens at game "*" (shows game "* ]]
	for s in standings playing bot replay results; do
		[ -s "build/screenshots/ladder-$s.png" ]
	done
	# stopped while the gate holds its table at its second game: the
	# stop is prompt; that table's replay (its first game), unless the
	# background renderer made it before the stop, is said to be not
	# made yet, and ladder site makes it
	kill -TERM "$bg"
	wait "$bg" || true
	bg=
	rm "$gate"
	[ "$(q "SELECT count(*) FROM games WHERE tab = $open")" -ge 1 ]
	table_ended "$open"
	[ -s "$L/logs/$log.html" ] ||
	    grep -q "its replay is not made yet: ladder site makes it" "$L/site/bots/gate.html"
	bin/tournament ladder site "$L"
	[ -s "$L/logs/$log.html" ]
	grep -q "No table is in play right now" "$L/site/index.html"
	! grep -q '<meta http-equiv="refresh"' "$L/site/index.html" || false
	# every log that holds a game has its replay (the table stopped by
	# the signal too) and the site links each replay at its game's step
	replays_complete
	python3 - "$L" <<'PY'
import glob, json, re, sys
lad = sys.argv[1]
n = 0
for page in glob.glob(lad + "/site/bots/*.html"):
    text = open(page).read()
    for tab, game, log, step in re.findall(r'<tr><td>(\d+)</td><td>(\d+)</td>.*?class="replay" href="\.\./\.\./([^"#]*)\.html#step=(\d+)"', text):
        steps = -1
        for line in open(lad + "/" + log):
            d = json.loads(line)
            if d["type"] == "game_start" and d["game"] == int(game):
                break
            steps += d["type"] in ("action", "game_start")
        assert steps + 1 == int(step), (page, tab, game, step, steps + 1)
        n += 1
assert n > 0
PY
	# the table's bytes: status is tournament rate of the export saved
	# in the ladder's directory, in every format
	status_is_rate 20 "$L/export.jsonl"
	grep -q 'class="replay"' "$T/status.html"
}

@test "ladder status before any game lists the bots entered, exit 0 (not \"no games to rate\"); csv and json an empty table" {
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder add "$L" a -c 'bin/random --seed 1' --owner ann
	bin/tournament ladder add "$L" b -c 'bin/random --seed 2'
	run bin/tournament ladder status "$L"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no games played yet; 2 bots entered"* ]]
	[[ "$output" == *"a.v1"*"owner ann"* ]]
	[[ "$output" == *"b.v1"* ]]
	# the other formats stay what a program reads: an empty table on
	# stdout, the bots entered on stderr
	bin/tournament ladder status -f csv "$L" >"$T/csv" 2>"$T/err"
	[ "$(wc -l <"$T/csv")" -eq 1 ]
	grep -q '^rank,name,elo,' "$T/csv"
	grep -q "no games played yet; 2 bots entered" "$T/err"
	bin/tournament ladder status -f json "$L" 2>/dev/null |
	    python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["games"] == 0 and d["players"] == [], d'
}

@test "ladder run: a restart counts the bots in play (not 0) and abandons \"1 table\", singular" {
	three_randoms 3
	# a table a killed run left open
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO tables (lo, hi, seed, started) VALUES (0, 3, 1, 1)"); c.commit()' "$L/ladder.db"
	run bin/tournament ladder run -j 1 --games 1 "$L"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ladder: 1 table of a stopped run abandoned"* ]]
	[[ "$output" == *"games so far, 3 bots in play"* ]]
	[[ "$output" != *" 0 bots in play"* ]]
}

@test "ladder run: tables sized by their pace (deals_per_run auto): two deals first, then whole deals of about 20 s of play, at least the settings' deals; --games caps the last" {
	printf '{"game": "horserace", "seats": 3, "duplicate": true, %s}\n' \
	    "$TOUR_LIMITS" > "$T/auto.json"
	run bin/tournament ladder init --boot 20 "$L" "$T/auto.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"a ladder of horserace, 3 seats, tables of about 20 s of play (at least 3 games)"* ]]
	# four bots at three seats: tables seat different bots (with as
	# many bots as seats, the next test, a slot takes its share at once)
	for i in 1 2 3 4; do
		bin/tournament ladder add "$L" "r$i" -c "bin/random --seed $i"
	done
	bin/tournament ladder run -q -j 1 --games 150 "$L"
	# the first table times two deals (a lifetime of two games a seat
	# rotation); every table whole deals
	[ "$(q "SELECT hi - lo FROM tables ORDER BY id LIMIT 1")" -eq 6 ]
	[ "$(q "SELECT count(*) FROM tables WHERE (hi - lo) % 3 != 0 OR hi - lo < 3")" -eq 0 ]
	# a deal of three random horserace games takes milliseconds: the
	# next table holds many (a table of 2 deals would mean over a second
	# of play a deal), and --games 150 is not overshot by a whole table
	[ "$(q "SELECT max(hi - lo) FROM tables")" -gt 6 ]
	[ "$(q "SELECT sum(hi - lo) FROM tables")" -lt 156 ]
	[ "$(q "SELECT count(*) FROM games")" -ge 150 ]
}

@test "ladder run --games N with as many bots as seats: each slot's share at once, no timing table (every table would seat the same bots); -j 2 two tables, the games exact" {
	random_ladder '"duplicate": true' 3
	bin/tournament ladder run -q -j 1 --games 150 "$L"
	[ "$(q "SELECT count(*) || ' ' || sum(hi - lo) FROM tables")" = "1 150" ]
	[ "$(q "SELECT count(*) FROM games")" -eq 150 ]
	bin/tournament ladder run -q -j 2 --games 90 "$L"
	[ "$(q "SELECT count(*) || ' ' || sum(hi - lo) FROM tables WHERE id > 1")" = "2 90" ]
	[ "$(q "SELECT count(*) FROM games")" -eq 240 ]
	# a fourth bot: tables seat different bots again, the first timed
	bin/tournament ladder add "$L" r4 -c "bin/random --seed 4"
	bin/tournament ladder run -q -j 1 --games 60 "$L"
	[ "$(q "SELECT hi - lo FROM tables WHERE id = 4")" -eq 6 ]
}

@test "ladder run --games 25000 with as many bots as seats: tables of at most 10,000 games (a table's list of games is one argument of its referee: 25,000 overflow it), every game played" {
	random_ladder '"options": {"races": 1}' 3
	run bin/tournament ladder run -q -j 1 --games 25000 "$L"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"Argument list too long"* ]]
	[ "$(q "SELECT max(hi - lo) FROM tables")" -le 10000 ]
	[ "$(q "SELECT count(*) FROM games")" -ge 25000 ]
}

@test "ladder run -j 2 --games N: the games not yet handed out are shared among the slots, so tables in play are not each sized for all that is left" {
	random_ladder '"duplicate": true' 3
	bin/tournament ladder run -q -j 2 --games 90 "$L"
	[ "$(q "SELECT count(*) FROM games")" -ge 90 ]
	# each table at most an even share (whole deals of 3 games) of what
	# no table in play held yet: at most a deal a slot over
	[ "$(q "SELECT sum(hi - lo) FROM tables")" -le 96 ]
}

@test "ladder add: a refused bot shows botcheck's whole report, not only its verdict" {
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	run bin/tournament ladder add "$L" bad -c /bin/false
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad failed bin/botcheck and is not entered"* ]]
	[[ "$output" == *"reproduce: "* ]]
	[[ "$output" == *"handshake "*"FAIL"* ]]
	[[ "$output" == *"verdict "*"FAIL"* ]]
}

@test "ladder replays: rendered off the play path, a missing one rendered by ladder serve when first asked for, whole; a killed renderer's half page removed by the next run" {
	three_randoms 9
	bin/tournament ladder site "$L"
	t=$(q "SELECT log FROM tables WHERE ended IS NOT NULL AND NOT abandoned ORDER BY id LIMIT 1")
	[ -s "$L/$t.html" ]
	# as a kill -9 leaves it: no replay, a half-written one beside
	cp "$L/$t.html" "$T/whole.html"
	rm "$L/$t.html"
	echo '<html>cut' > "$L/$t.html.99999.tmp"
	serve
	run python3 - "$port" "${t#logs/}" <<'PY'
import sys, urllib.request
b = urllib.request.urlopen("http://127.0.0.1:%s/logs/%s.html" % (sys.argv[1], sys.argv[2])).read()
print(len(b))
assert b.rstrip().endswith(b"</html>"), b[-80:]
PY
	[ "$status" -eq 0 ]
	cmp "$L/$t.html" "$T/whole.html"
	ls "$L/logs" > "$T/ls"
	# only the stale file a killed run left, none of serve's
	[ "$(grep -c '\.tmp$' "$T/ls")" -eq 1 ]
	# the next run removes a dead renderer's half page, never a live one's
	dead=$(sh -c 'echo $$')
	mv "$L/$t.html.99999.tmp" "$L/$t.html.$dead.tmp"
	echo '<html>cut' > "$L/$t.html.$$.tmp"
	bin/tournament ladder run -q -j 1 --games 1 "$L"
	[ ! -e "$L/$t.html.$dead.tmp" ]
	[ -e "$L/$t.html.$$.tmp" ]
}
