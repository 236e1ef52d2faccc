#!/bin/sh
# What `make ladder-demo` runs once everything is built: a ladder of the
# bundled daifugo bots for a minute (LADDER_SECONDS), in out/ladder-demo/
# (LADDER_DIR), made afresh.  Three bots start; a fourth (the Python random
# bot, its directory copied into the ladder) enters after a third of the
# time, and the C random bot is updated to a new version after two thirds,
# while the ladder plays; the site is served on 127.0.0.1 the whole time
# (LADDER_PORT, default 8080; 0 for any free port).  At the end the ladder
# is stopped (SIGTERM, as Ctrl-C) and its table printed.
set -eu
cd "$(dirname "$0")/.."
dir=${LADDER_DIR:-out/ladder-demo}
secs=${LADDER_SECONDS:-60}
port=${LADDER_PORT:-8080}
rm -rf "$dir"
mkdir -p "$dir"
cat >"$dir/settings.json" <<JSON
{"name": "ladder demo", "game": "daifugo", "options": {"deals": 2},
 "seats": 4, "deals": 1, "duplicate": true, "concurrency": 2,
 "time_per_move_ms": 2000, "time_hello_ms": 10000}
JSON
t=bin/tournament
$t ladder init "$dir/ladder" "$dir/settings.json"
$t ladder add "$dir/ladder" daifugo_bot -c 'bin/daifugo_bot --seed 1'
$t ladder add "$dir/ladder" random -c 'bin/random --seed 2'
$t ladder add "$dir/ladder" random2 -c 'bin/random --seed 3'
$t ladder add "$dir/ladder" random3 -c 'bin/random --seed 4'
$t ladder run -q --refit 10 "$dir/ladder" &
run=$!
$t ladder serve --port "$port" "$dir/ladder" &
srv=$!
trap 'kill $run $srv 2>/dev/null || true' EXIT INT TERM
echo "ladder-demo: playing for $secs s; the site: tournament ladder serve prints its address above"
sleep $((secs / 3))
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$dir/pybot"
	cp bots/python/random_bot.py bots/python/cardarena.py "$dir/pybot/"
	$t ladder add "$dir/ladder" pyrandom --dir "$dir/pybot" \
	    -c 'python3 random_bot.py --seed 5' || true
fi
sleep $((secs / 3))
$t ladder update "$dir/ladder" random -c 'bin/random --seed 7' || true
sleep $((secs - 2 * (secs / 3)))
kill -TERM $run
wait $run || true
kill $srv 2>/dev/null || true
trap - EXIT INT TERM
$t ladder status "$dir/ladder" | sed -n '1,12p'
echo "ladder-demo: the site is $dir/ladder/site/index.html; serve it with"
echo "  $t ladder serve $dir/ladder"
