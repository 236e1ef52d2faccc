#!/bin/sh
# What `make demo` runs once everything is built: a short round robin of
# the bundled daifugo bots (the C heuristic and random bots, plus the
# JavaScript greedy bot and the Python random bot when node and python3
# are installed: bots in three languages at one table), with a
# live progress line, then the rating table; the tournament renders every
# match log as an HTML replay ("replays": true) and links each game from
# the HTML report.  It ends with the next steps for a bot author.  The
# bots run in the referee's sandbox (--sandbox) where it works here
# ("sandbox": "auto").  Everything goes to out/demo/ (DEMO_DIR to change it), made
# afresh each time.
set -eu
cd "$(dirname "$0")/.."
dir=${DEMO_DIR:-out/demo}
rm -rf "$dir"
mkdir -p "$dir"

bots='    {"name": "daifugo_bot", "command": "bin/daifugo_bot --seed 1"},
    {"name": "random-c1", "command": "bin/random --seed 2"},
    {"name": "random-c2", "command": "bin/random --seed 3"}'
if command -v python3 >/dev/null 2>&1; then
	bots="$bots,
    {\"name\": \"random-py\", \"command\": \"python3 bots/python/random_bot.py --seed 5\"}"
fi
if command -v node >/dev/null 2>&1; then
	bots="$bots,
    {\"name\": \"js-greedy\", \"command\": \"node bots/js/greedy_bot.js --seed 6\"}"
fi
cat >"$dir/demo.json" <<EOF
{
  "name": "demo",
  "game": "daifugo",
  "options": {"deals": 2},
  "seats": 4,
  "bots": [
$bots
  ],
  "deals": 6,
  "duplicate": true,
  "time_per_move_ms": 2000,
  "time_hello_ms": 60000,
  "concurrency": 2,
  "sandbox": "auto",
  "output": "$dir",
  "replays": true
}
EOF

echo "demo: a daifugo round robin of the bundled bots ($dir/demo.json)"
bin/tournament run "$dir/demo.json"
echo "demo: open $dir/results.html in a browser: the chart, the table, each game's replay"
echo "next: write your own bot: protocol.md is the whole contract; start from"
echo "      bots/python/random_bot.py, bots/js/random_bot.js or bots/random.c"
echo "      (README.md, \"Writing a bot\"); check it with"
echo "      bin/botcheck -- 'python3 mybot.py'; then add it to a copy of"
echo "      $dir/demo.json and run: bin/tournament run COPY.json"
