#!/bin/sh
# Plays one fixed-seed match of each game (seeded bots, full log) with the
# binaries in bin/ and writes the logs, without the timestamps ("t") and
# the header's version, to DIR/GAME.log and DIR/GAME.recv; two such
# directories made before and after a restructure must compare equal
# (diff -r DIR1 DIR2).
set -eu
dir=${1:?usage: seedlogs.sh DIR}
mkdir -p "$dir"
# Replies to simultaneous requests arrive in any order: the sequence number
# "n" is dropped and the "recv" lines are compared as a sorted set.
norm='del(.t, .n) | if has("cardarena") then .cardarena = "" else . end'
for g in daifugo horserace nyse speculation stocks; do
	raw=$dir/$g.raw
	bin/referee -g $g -s 4242 --games 2 --log "$raw" --log-level full \
	    --no-sandbox -b "bin/${g}_bot --seed 1" -b 'bin/random --seed 2' \
	    -b 'bin/random --seed 3' -b "bin/${g}_bot --seed 4" \
	    >"$dir/$g.result"
	jq -c "$norm" "$raw" | grep -v '^{"type":"recv"' >"$dir/$g.log" || :
	jq -c "$norm" "$raw" | grep '^{"type":"recv"' | sort >"$dir/$g.recv"
	rm -f "$raw" "$raw".bot*.stderr
done
