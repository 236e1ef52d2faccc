#!/usr/bin/env bats
# The ladder among strangers (issue 34): what an entrant's files, the inbox
# and `ladder serve` may make the ladder do.  The inbox and `ladder add`
# touch only what they own (no symlink followed out of an entrant's
# directory, nothing of a file echoed into ladder.txt, limits on a bot's
# size and file count); a bot's env does not corrupt the heap; a bot whose
# tables fail is backed off and quarantined while the others play on, and
# a failure that is no bot's stops the run with one message; a ladder runs
# from any working directory; serve holds under idle connections and shows
# only the published site.  Each test failed on the code before the fix.
# Run as root (the ladder's worst case: its rights are everyone's) and as
# an ordinary user, where the suite can make one.  Waits poll (wait_for).

load helpers
load ladder

# No report of the address sanitizer in $output (a build with SANITIZE=1
# aborts on the first memory error and says so).
memory_clean() {
	! [[ "$output" == *"AddressSanitizer"* || "$output" == *"LeakSanitizer"* ]] || false
}

@test "ladder inbox: a dangling ladder.txt symlink is not followed: nothing made outside the inbox" {
	bin/tournament ladder init "$L" "$T/settings.json"
	mkdir -p "$T/inbox/eve" "$T/home"
	pybot "$T/inbox/eve"
	echo '{"name": "eve", "command": "python3 random_bot.py"}' > "$T/inbox/eve/bot.json"
	ln -s "$T/home/planted" "$T/inbox/eve/ladder.txt"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	[ ! -e "$T/home/planted" ]
	[ -L "$T/inbox/eve/ladder.txt" ]
	[[ "$output" == *"eve"*"ladder.txt"*"not a regular file"* ]]
	[ "$(q "SELECT count(*) FROM versions")" = 0 ]
	# a subdirectory that is a symlink is not entered either
	mkdir -p "$T/elsewhere"
	pybot "$T/elsewhere"
	echo '{"name": "far", "command": "python3 random_bot.py"}' > "$T/elsewhere/bot.json"
	ln -s "$T/elsewhere" "$T/inbox/far"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	[ ! -e "$T/elsewhere/ladder.txt" ]
	[ "$(q "SELECT count(*) FROM versions")" = 0 ]
}

@test "ladder inbox: bot.json a symlink to a secret file: refused, nothing of the file in ladder.txt" {
	bin/tournament ladder init "$L" "$T/settings.json"
	printf 'rootsecret:$6$abcdefgh:19000:0:99999:7:::\n' > "$T/shadow"
	chmod 600 "$T/shadow"
	mkdir -p "$T/inbox/eve" "$T/inbox/mal"
	pybot "$T/inbox/eve"
	ln -s "$T/shadow" "$T/inbox/eve/bot.json"
	# a file the author wrote, not JSON: the cause, but not its words
	printf 'rootsecret is not json\n' > "$T/inbox/mal/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	[ -f "$T/inbox/eve/ladder.txt" ]
	! grep -q rootsecret "$T/inbox/eve/ladder.txt" || false
	grep -q "refused: bot.json: not a regular file" "$T/inbox/eve/ladder.txt"
	! grep -q rootsecret "$T/inbox/mal/ladder.txt" || false
	grep -q "refused: bot.json: line 1" "$T/inbox/mal/ladder.txt"
	! [[ "$output" == *rootsecret* ]] || false
	[ "$(q "SELECT count(*) FROM versions")" = 0 ]
}

@test "ladder inbox as an ordinary user: its own secret not echoed through bot.json, a dangling ladder.txt not followed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make the user"
	command -v setpriv >/dev/null || skip "no setpriv"
	as="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
	bin/tournament ladder init "$L" "$T/settings.json"
	mkdir -p "$T/inbox/eve" "$T/inbox/mal" "$T/home"
	printf 'usersecret\n' > "$T/home/key"
	chmod 600 "$T/home/key"
	pybot "$T/inbox/eve"
	pybot "$T/inbox/mal"
	ln -s "$T/home/key" "$T/inbox/eve/bot.json"
	echo '{"name": "mal", "command": "python3 random_bot.py"}' > "$T/inbox/mal/bot.json"
	ln -s "$T/home/planted" "$T/inbox/mal/ladder.txt"
	chown -R nobody "$L" "$T/inbox" "$T/home"
	run $as bin/tournament ladder inbox "$L" "$T/inbox"
	[ "$status" -eq 0 ]
	! grep -q usersecret "$T/inbox/eve/ladder.txt" || false
	grep -q "refused: bot.json: not a regular file" "$T/inbox/eve/ladder.txt"
	[ ! -e "$T/home/planted" ]
	[ "$(q "SELECT count(*) FROM versions")" = 0 ]
}

@test "ladder add and inbox: a symlink out of a bot's directory is refused; one inside stays inside the copy" {
	bin/tournament ladder init "$L" "$T/settings.json"
	echo "another entrant's model" > "$T/secret.txt"
	pybot "$T/out"
	ln -s "$T/secret.txt" "$T/out/model.txt"
	run bin/tournament ladder add "$L" out --dir "$T/out" -c "python3 random_bot.py"
	[ "$status" -eq 1 ]
	[[ "$output" == *"model.txt"*"symbolic link"*"outside"* ]]
	[ ! -e "$L/bots/out/v1" ]
	pybot "$T/rel"
	ln -s ../secret.txt "$T/rel/up"
	run bin/tournament ladder add "$L" rel --dir "$T/rel" -c "python3 random_bot.py"
	[ "$status" -eq 1 ]
	[[ "$output" == *"up"*"outside"* ]]
	# inside: kept as a link that resolves in the copy
	pybot "$T/in"
	mkdir "$T/in/data"
	echo weights > "$T/in/data/w.txt"
	ln -s data/w.txt "$T/in/w.txt"
	ln -s ../random_bot.py "$T/in/data/bot.py"
	run bin/tournament ladder add "$L" in --dir "$T/in" -c "python3 random_bot.py"
	[ "$status" -eq 0 ]
	[ "$(readlink "$L/bots/in/v1/w.txt")" = data/w.txt ]
	[ "$(cat "$L/bots/in/v1/w.txt")" = weights ]
	[ "$(realpath "$L/bots/in/v1/data/bot.py")" = "$(realpath "$L/bots/in/v1/random_bot.py")" ]
	# the same through the inbox
	mkdir -p "$T/inbox"
	pybot "$T/inbox/eve"
	ln -s "$T/secret.txt" "$T/inbox/eve/model.txt"
	echo '{"name": "eve", "command": "python3 random_bot.py"}' > "$T/inbox/eve/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	grep -q "refused: .*model.txt.*outside" "$T/inbox/eve/ladder.txt"
	[ ! -e "$L/bots/eve/v1" ]
}

@test "ladder add: a bot over the size or file-count limits is refused (the defaults, and the settings' own)" {
	bin/tournament ladder init "$L" "$T/settings.json"
	pybot "$T/big"
	truncate -s 3G "$T/big/model.bin"
	run bin/tournament ladder add "$L" big --dir "$T/big" -c "python3 random_bot.py"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than 268435456 bytes"* ]]
	[ ! -e "$L/bots/big/v1" ]
	printf '{"game": "horserace", "seats": 3, %s, "ladder": {"bot_max_bytes": 200000, "bot_max_files": 20}}\n' \
	    "$TOUR_LIMITS" > "$T/small.json"
	bin/tournament ladder init "$T/small" "$T/small.json"
	pybot "$T/many"
	mkdir "$T/many/d"
	touch "$T/many/d/f"{1..30}
	run bin/tournament ladder add "$T/small" many --dir "$T/many" -c "python3 random_bot.py"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than 20 files"* ]]
	pybot "$T/mid"
	truncate -s 300000 "$T/mid/model.bin"
	run bin/tournament ladder add "$T/small" mid --dir "$T/mid" -c "python3 random_bot.py"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than 200000 bytes"* ]]
	rm "$T/mid/model.bin"
	run bin/tournament ladder add "$T/small" mid --dir "$T/mid" -c "python3 random_bot.py"
	[ "$status" -eq 0 ]
	# a bad limit is refused at init
	printf '{"game": "horserace", "ladder": {"bot_max_files": -1}}\n' > "$T/bad.json"
	run bin/tournament ladder init "$T/bad" "$T/bad.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bot_max_files"* ]]
	printf '{"game": "horserace", "ladder": {"bot_max_file": 3}}\n' > "$T/bad.json"
	run bin/tournament ladder init "$T/bad" "$T/bad.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown key "bot_max_file"'* ]]
}

@test "ladder add and inbox: a bot with an env (the heap use after free in enter under SANITIZE=1)" {
	bin/tournament ladder init "$L" "$T/settings.json"
	run bin/tournament ladder add "$L" x --env A=1 --env B=2 -c bin/random
	memory_clean
	[ "$status" -eq 0 ]
	[ "$output" = "x.v1 entered" ]
	[ "$(q "SELECT env FROM versions")" = '{"A":"1","B":"2"}' ]
	mkdir -p "$T/inbox/ann"
	pybot "$T/inbox/ann"
	echo '{"name": "ann", "command": "python3 random_bot.py", "env": {"K": "v", "L": "w"}}' > "$T/inbox/ann/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	memory_clean
	[ "$status" -eq 0 ]
	grep -q "entered as ann.v1" "$T/inbox/ann/ladder.txt"
	# an env value that is not a string is refused, not crashed on
	mkdir -p "$T/inbox/bob"
	pybot "$T/inbox/bob"
	echo '{"name": "bob", "command": "python3 random_bot.py", "env": {"K": 1}}' > "$T/inbox/bob/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	memory_clean
	grep -q 'refused: .*"env"' "$T/inbox/bob/ladder.txt"
}

@test "ladder init: a bad settings file is refused cleanly (no leak under SANITIZE=1); a huge comment is bounded" {
	printf '{"game": "horserace", "seats": 9}\n' > "$T/bad.json"
	run bin/tournament ladder init "$L" "$T/bad.json"
	memory_clean
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$L/ladder.db" ]
	python3 -c 'import json, sys; json.dump({"game": "horserace", "comment": "x" * 50000000}, open(sys.argv[1], "w"))' "$T/huge.json"
	run bin/tournament ladder init "$L" "$T/huge.json"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *'"comment"'*"at most 65536 bytes"* ]]
	[ ! -e "$L/ladder.db" ]
	# a bot.json is bounded too
	bin/tournament ladder init "$L" "$T/settings.json"
	mkdir -p "$T/inbox/big"
	python3 -c 'import json, sys; json.dump({"name": "big", "command": "x", "owner": "o" * 200000}, open(sys.argv[1], "w"))' "$T/inbox/big/bot.json"
	run bin/tournament ladder inbox "$L" "$T/inbox"
	grep -q "refused: bot.json: over 65536 bytes" "$T/inbox/big/ladder.txt"
}

# A referee for the ladder's settings ("referee"): bin/referee, but a table
# seating a bot whose command holds "--seed 77" fails as a referee does
# when it cannot start a bot (status 2, one line on its stderr); with
# $1 = all, every table fails.
fake_referee() {
	cat > "$T/ref.sh" <<SH
#!/bin/sh
case "${1:-}\$*" in
all*|*"--seed 77"*) echo "referee: cannot start a bot (test)" >&2; exit 2;;
esac
exec "$PWD/bin/referee" "\$@"
SH
	chmod 755 "$T/ref.sh"
	printf '{"game": "horserace", "seats": 3, "deals_per_run": 1, "duplicate": true, "referee": "%s", %s}\n' \
	    "$T/ref.sh" "$TOUR_LIMITS" > "$T/settings.json"
}

# The tables version $1 sat at.
tables_of() {
	q "SELECT count(*) FROM seats s JOIN versions v ON v.id = s.version WHERE v.player = '$1'"
}

@test "ladder run: a bot whose tables always fail is backed off, quarantined within $((4)) of its tables, said once; the others play on; --games ends" {
	fake_referee
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	for i in 1 2 3 4; do
		bin/tournament ladder add "$L" "b$i" -c "bin/random --seed $i"
	done
	bin/tournament ladder add "$L" bad -c 'bin/random --seed 77'
	# a bound for the test only: the old ladder never ended
	run timeout 900 bin/tournament ladder run -q --games 30 --refit 5 "$L"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT count(*) FROM games")" -ge 30 ]
	[ "$(tables_of bad.v1)" -le 4 ]
	[[ "$(q "SELECT quarantine FROM versions WHERE player = 'bad.v1'")" == "its last 4 tables failed"* ]]
	[ "$(q "SELECT count(*) FROM versions WHERE quarantine IS NOT NULL")" = 1 ]
	[ "$(printf '%s\n' "$output" | grep -c 'bad.v1 is quarantined')" = 1 ]
	for i in 1 2 3 4; do
		[ "$(q "SELECT count(*) FROM results r JOIN versions v ON v.id = r.version WHERE v.player = 'b$i.v1'")" -gt 0 ]
	done
	grep -q "bad.v1 is quarantined: its last 4 tables failed" "$L/site/bots/bad.html"
	grep -q ">quarantined<" "$L/site/index.html"
	run bin/tournament ladder status "$L"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bad.v1 is quarantined: its last 4 tables failed"* ]]
	# a new run keeps it out and says nothing of it again
	n=$(tables_of bad.v1)
	run timeout 900 bin/tournament ladder run -q --games 6 "$L"
	[ "$status" -eq 0 ]
	[ "$(tables_of bad.v1)" = "$n" ]
	! [[ "$output" == *quarantined* ]] || false
	# a new version plays again
	bin/tournament ladder update "$L" bad -c 'bin/random --seed 78'
	run timeout 900 bin/tournament ladder run -q --games 6 "$L"
	[ "$status" -eq 0 ]
	[ "$(tables_of bad.v2)" -gt 0 ]
}

@test "ladder run: tables that fail whoever sits are no bot's fault: one message, the run stops, no bot quarantined; no referee: one message" {
	fake_referee all
	bin/tournament ladder init "$L" "$T/settings.json"
	for i in 1 2 3 4 5; do
		bin/tournament ladder add "$L" "b$i" -c "bin/random --seed $i"
	done
	run timeout 900 bin/tournament ladder run -q --games 8 "$L"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c "not a bot's fault; stopping")" = 1 ]
	[ "$(q "SELECT count(*) FROM tables")" -le 8 ]
	[ "$(q "SELECT count(*) FROM versions WHERE quarantine IS NOT NULL")" = 0 ]
	printf '{"game": "horserace", "seats": 3, "referee": "%s/none/referee", %s}\n' \
	    "$T" "$TOUR_LIMITS" > "$T/noref.json"
	bin/tournament ladder init "$T/l2" "$T/noref.json"
	for i in 1 2 3; do
		bin/tournament ladder add "$T/l2" "b$i" -c "bin/random --seed $i"
	done
	run timeout 900 bin/tournament ladder run -q --games 3 "$T/l2"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"none/referee: the referee cannot be run"* ]]
	[ "$(L=$T/l2 q "SELECT count(*) FROM tables")" = 0 ]
}

@test "ladder run from another working directory: bots added with relative paths play; a schema 1 store is upgraded" {
	mkdir -p "$T/a" "$T/b"
	pybot "$T/src"
	( cd "$T/a" && "$OLDPWD/bin/tournament" ladder init lad "$T/settings.json" &&
	  for i in 1 2 3; do "$OLDPWD/bin/tournament" ladder add lad "py$i" --dir ../src -c "python3 random_bot.py"; done )
	L=$T/a/lad
	run sh -c "cd '$T/b' && timeout 900 '$PWD/bin/tournament' ladder run -q --games 6 ../a/lad"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT count(*) FROM games")" -ge 6 ]
	[ "$(q "SELECT count(*) FROM tables WHERE id NOT IN (SELECT tab FROM games)")" = 0 ]
	# the copies kept relative to the ladder: it may move, too
	[ "$(q "SELECT dir FROM versions WHERE player = 'py1.v1'")" = bots/py1/v1 ]
	# a bot without a directory: every path in its command made absolute
	bin/tournament ladder add "$L" pyc -c "python3 bots/python/random_bot.py --seed 3"
	[ "$(q "SELECT command FROM versions WHERE player = 'pyc.v1'")" = "python3 $PWD/bots/python/random_bot.py --seed 3" ]
	# a store of schema 1 kept the path as add was given it
	python3 - "$L/ladder.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("ALTER TABLE versions DROP COLUMN quarantine")
c.execute("ALTER TABLE versions DROP COLUMN quarantined")
c.execute("DROP TABLE jobs")
c.execute("DROP INDEX ratings_version")
c.execute("UPDATE versions SET dir = 'lad/' || dir")
c.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
c.commit()
PY
	n=$(q "SELECT count(*) FROM games")
	run sh -c "cd '$T/b' && timeout 900 '$PWD/bin/tournament' ladder run -q --games 3 ../a/lad"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT value FROM meta WHERE key = 'schema_version'")" = 4 ]
	[ "$(q "SELECT count(*) FROM sqlite_master WHERE name = 'ratings_version'")" = 1 ]
	[ "$(q "SELECT count(*) FROM games")" -ge $((n + 3)) ]
}

@test "ladder run: \"sandbox\": false as an ordinary user is said once on the run's own stderr" {
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "no setpriv"
		as="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
	else
		as=
	fi
	printf '{"game": "horserace", "seats": 3, "deals": 1, "sandbox": false, %s}\n' \
	    "$TOUR_LIMITS" > "$T/settings.json"
	bin/tournament ladder init "$L" "$T/settings.json"
	for i in 1 2 3; do
		bin/tournament ladder add "$L" "b$i" -c "bin/random --seed $i"
	done
	[ -z "$as" ] || chown -R nobody "$L"
	run $as timeout 900 bin/tournament ladder run -q --games 3 "$L"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c 'WARNING: .*"sandbox": false')" = 1 ]
}

@test "ladder serve: only the published site: no %00 trick, no stderr file, no log of a table in play, no link out" {
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 4 --games 60
	bin/tournament ladder site "$L"
	mkdir -p "$L/logs"
	# synth's tables end as they are played: table 1 made "in play"
	# again, table 2 ended
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 0 ]
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE tables SET ended = NULL WHERE id = 1"); c.commit()' "$L/ladder.db"
	[ "$(q "SELECT id FROM tables WHERE ended IS NULL")" = 1 ]
	for t in 1 2; do
		echo '{"type":"deal","hands":"every hidden card"}' > "$L/logs/t00000$t.jsonl"
		echo '<html>replay</html>' > "$L/logs/t00000$t.jsonl.html"
		echo 'bot 0 said its secret' > "$L/logs/t00000$t.jsonl.referee.stderr"
		echo 'bot 0 said its secret' > "$L/logs/t00000$t.jsonl.bot0.stderr"
		chmod 600 "$L/logs/t00000$t.jsonl".*stderr
	done
	ln -s ../ladder.db "$L/logs/t000003.jsonl"
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE tables SET ended = 1 WHERE id = 3"); c.commit()' "$L/ladder.db"
	serve
	run python3 - "$port" <<'PY'
import sys, http.client
port = int(sys.argv[1])
def get(path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", path)
    r = c.getresponse()
    return r.status, r.read()
out = []
for path, want in (("/", 200), ("/index.html%00.txt", 400),
                   ("/table.txt%00.html", 400),
                   ("/logs/t000002.jsonl", 200), ("/logs/t000002.jsonl.html", 200),
                   ("/logs/t000001.jsonl", 404), ("/logs/t000001.jsonl.html", 404),
                   ("/logs/t000002.jsonl.referee.stderr", 404),
                   ("/logs/t000002.jsonl.bot0.stderr", 404),
                   ("/logs/t000001.jsonl.referee.stderr", 404),
                   ("/logs/t000003.jsonl", 404), ("/logs/", 404),
                   ("/logs/%2e%2e/ladder.db", 404), ("/../run.lock", 404)):
    s, b = get(path)
    if s != want:
        out.append("%s: %d, not %d" % (path, s, want))
    if s == 200 and (b"secret" in b or b"SQLite" in b):
        out.append("%s: a private file" % path)
print("\n".join(out) or "ok")
PY
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
}

@test "ladder serve: 2,000 idle connections of one client keep no other out (answered while they are held)" {
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json"
	bin/tournament ladder synth "$L" --bots 4 --games 60
	bin/tournament ladder site "$L"
	# idle connections are held long enough to see them held
	serve --idle 600
	run python3 - "$port" <<'PY'
import errno, resource, socket, sys, time, http.client
port = int(sys.argv[1])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
idle = []
for i in range(2000):
    s = socket.socket()
    s.connect(("127.0.0.1", port))
    idle.append(s)
t0 = time.monotonic()
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120,
                               source_address=("127.0.0.2", 0))
c.request("GET", "/table.txt")
r = c.getresponse()
body = r.read()
took = time.monotonic() - t0
assert r.status == 200 and b"games" in body, r.status
# the server keeps the first of them (up to its per-client limit) open
# and idle: the answer came while they were held, not after they timed
# out (the connections after them, in its backlog, may be taken then)
held = 0
for s in idle[:16]:
    s.setblocking(False)
    try:
        if s.recv(1, socket.MSG_PEEK) == b"":
            continue
    except BlockingIOError:
        held += 1
    except OSError:
        pass
assert held >= 1, "no idle connection held"
print("ok", held, "held; answered in %.3f s" % took, file=sys.stderr)
print("ok")
PY
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = ok ]
}

@test "ladder run: a bot without a directory, shown the working directory that holds the ladder, reads no other entrant's copy (seated or not, retired), nor the store" {
	strangers_ladder
	(cd "$T" && "$OLDPWD/bin/tournament" ladder run lad --games 48) 2>"$T/run.err"
	[ "$(q "SELECT count(*) FROM games")" -eq 48 ]
	! q "SELECT line FROM games" | grep '"crash":[1-9]' || false
	snooped
	! grep '^snoop: read' "$T/seen" || false
}
