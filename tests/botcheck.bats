#!/usr/bin/env bats
# bin/botcheck end to end: well-behaved bots (C, and the Python and JS SDK
# examples) pass; each hostile bot (tests/bots/hostile.py, nasty.py) fails
# with the right reason and leaves no process behind; a bot's text reaches
# the terminal only through vis(3); the reproduce line replays a failing
# run; --max-time and signals end the check; the command line.  Matches
# are one short game under $LIMITS (helpers.bash), so a loaded machine
# never fails a good bot; the tests of timeouts give short limits to bots
# that never answer, or answer always later than the limit.

load helpers

# Checks the bot command $1 in one game of nyse (unless -g is given),
# under $LIMITS and no --max-time worth the name; further arguments go to
# botcheck after those.
bc() {
	local bot=$1
	shift
	run ${BC_AS:-} bin/botcheck -s 3 -n 1 -r 0 $LIMITS --max-time 3600 "$@" -- "$bot"
}

# Checks hostile.py MODE in nyse; further arguments go to botcheck.
hostile() {
	local mode=$1
	shift
	bc "python3 tests/bots/hostile.py $mode $MARK" -g nyse "$@"
}

# The verdict line of game $1 in $output.
verdict() {
	printf '%s\n' "$output" | sed -n "/^$1:/,/verdict/p" | grep verdict
}

# Checks the last bc failed (status 1) with the verdict of game $1
# holding $2 (e.g. "FAIL (timeout)").
failed() {
	[ "$status" -eq 1 ]
	[[ "$(verdict "$1")" == *"$2"* ]]
}

@test "--help explains the check; bad command lines give status 2" {
	run bin/botcheck --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: botcheck"* ]]
	[[ "$output" == *"--time-per-move MS"* ]]
	[[ "$output" == *"vis(3)"* ]]
	run bin/botcheck -g nyse
	[ "$status" -eq 2 ]; [[ "$output" == *"no bot"* ]]
	run bin/botcheck -g chess -- bin/random
	[ "$status" -eq 2 ]; [[ "$output" == *"no game 'chess'"* ]]
	run bin/botcheck --time-per-move 0 -- bin/random
	[ "$status" -eq 2 ]; [[ "$output" == *"--time-per-move 0: too small"* ]]
	run bin/botcheck -n lots -- bin/random
	[ "$status" -eq 2 ]; [[ "$output" == *"-n lots: invalid"* ]]
}

@test "the C random bot passes every game, with default and random options" {
	run bin/botcheck $LIMITS -s 1 -n 1 -r 1 --all -- bin/random --seed 5
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c 'verdict *PASS')" -eq \
	    "$(bin/referee --list-games | wc -l)" ]
	[[ "$output" == *"botcheck: PASS ("*" games)"* ]]
	# Each game: a run with the defaults and one with random options.
	[ "$(printf '%s\n' "$output" | grep -c 'run 1: .*default options')" -ge 5 ]
	[[ "$output" == *"run 2: "* ]]
	[[ "$output" == *'handshake        ok   name "random"'* ]]
	[[ "$output" == *"decision time         mean "*" ms, max "*" ms over "* ]]
	[[ "$output" != *FAIL* ]]
}

@test "the Python and JS SDK example bots pass their games" {
	bc 'python3 bots/python/greedy_bot.py --seed 1' -g horserace -r 1
	[ "$status" -eq 0 ]
	[[ "$output" == *'name "greedy-py"'* ]]
	[[ "$output" == *"botcheck: PASS (1 game)"* ]]
	bc 'node bots/js/greedy_bot.js --seed 1' -g daifugo
	[ "$status" -eq 0 ]
	[[ "$output" == *'name "greedy-js"'* ]]
}

@test "a bot that exits before the hello fails the handshake" {
	hostile exit_start
	failed nyse "FAIL (handshake)"
	[[ "$output" == *"handshake: exit: exited with status 3"* ]]
	[[ "$output" == *"botcheck: FAIL in nyse (0 of 1 games passed)"* ]]
	no_leftovers "$MARK"
}

@test "a bot that never answers the hello fails the handshake; the limits to raise are named" {
	hostile hello_hang --time-hello 300 --time-per-move 200
	failed nyse "FAIL (handshake"
	[[ "$output" == *"handshake: timeout: no hello answer within 300 ms"* ]]
	[[ "$output" == *"a slow starter? raise --time-hello (now 300 ms; \"time_hello_ms\""* ]]
	[[ "$output" == *"slow rather than stuck? raise --time-per-move or --time-bank"* ]]
	[[ "$output" == *"(now 200 and 0 ms; \"time_per_move_ms\" and \"time_bank_ms\" in a"* ]]
	no_leftovers "$MARK"
}

@test "a bot that exits mid-game fails with an early exit" {
	hostile exit_mid
	failed nyse "FAIL (exit)"
	[[ "$output" == *"early exits      FAIL 1"* ]]
	[[ "$output" != *"raise --time"* ]]
	[[ "$output" == *"exit: exited with status 4"* ]]
	no_leftovers "$MARK"
}

@test "a silent bot and a slow bot fail with timeouts" {
	hostile silent --time-per-move 200
	failed nyse "FAIL (timeout)"
	[[ "$output" == *"timeout: no answer within 200 ms"* ]]
	no_leftovers "$MARK"
	# Its first answer comes 500 ms late: always more than 200 ms.
	bc "python3 tests/bots/nasty.py slow $MARK" -g nyse --time-per-move 200
	failed nyse "FAIL (timeout)"
	[[ "$output" == *"answers in time  FAIL 1 timeout in 1 request (200 ms each)"* ]]
	# Slow, not silent: with a longer limit it passes.
	bc "python3 tests/bots/nasty.py slow $MARK" -g nyse
	[ "$status" -eq 0 ]
	no_leftovers "$MARK"
}

@test "garbage, over-long lines and wrong ids fail as malformed lines" {
	hostile garbage
	failed nyse "FAIL (malformed)"
	[[ "$output" == *"malformed lines  FAIL 1 (malformed 1, too long 0, wrong id 0)"* ]]
	[[ "$output" == *"the line: this is not JSON {"* ]]
	hostile longline
	[ "$status" -eq 1 ]
	[[ "$output" == *"(malformed 0, too long 1, wrong id 0)"* ]]
	hostile wrong_id
	[ "$status" -eq 1 ]
	[[ "$output" == *"(malformed 0, too long 0, wrong id 1)"* ]]
	[[ "$output" == *"wrong_id: answer for id 100"* ]]
	no_leftovers "$MARK"
}

@test "illegal answers fail as illegal actions, and the reproduce line replays one" {
	bc "python3 tests/bots/hostile.py illegal $MARK" -g horserace
	failed horserace "FAIL (illegal)"
	[[ "$output" == *"illegal actions  FAIL 1"* ]]
	[[ "$output" == *"illegal: index "*" is not in 0.."* ]]
	line=$(printf '%s\n' "$output" | sed -n 's/^    reproduce: //p')
	[[ "$line" == *"/referee -g horserace -s "*"--on-fault retire"* ]]
	# The printed command is a shell command that plays the same match.
	[[ "$line" == *" --log match.log "* ]]
	line=${line/ --log match.log / --log $T/m.log }
	sh -c "$line" > "$T/result"
	[ "$(jv "$(cat "$T/result")" 'sum(k["illegal"] for k in d["fault_kinds"])')" -eq 1 ]
	log_complete "$T/m.log"
	no_leftovers "$MARK"
}

@test "a chatty bot fails over the stderr limit, and passes under it" {
	hostile chatty --stderr-limit 500
	failed nyse "FAIL (stderr)"
	[[ "$output" =~ stderr\ +FAIL\ [0-9]+\ bytes\ \(limit\ 500\ a\ match\) ]]
	hostile chatty
	[ "$status" -eq 0 ]
	# About 260 bytes a request, the referee's marker lines not counted.
	bytes=$(printf '%s\n' "$output" | sed -n 's/.*stderr *ok *\([0-9]*\) bytes.*/\1/p')
	reqs=$(printf '%s\n' "$output" | sed -n 's/.*timeouts\{0,1\} in \([0-9]*\) request.*/\1/p')
	[ "$bytes" -ge $((reqs * 255)) ]
	[ "$bytes" -le $((reqs * 262)) ]
	no_leftovers "$MARK"
}

@test "a process that escapes the bot's process group is reported and killed" {
	# As root the bot is isolated: its PID namespace dies with it, and
	# nothing escapes; without namespaces (a container's root, or not
	# root) its escape is seen.
	if [ "$(id -u)" -eq 0 ]; then
		bc "python3 tests/bots/nasty.py setsid $MARK" -g nyse
		if ! echo "$output" | grep -q 'cannot be isolated'; then
			[ "$status" -eq 0 ]
			[[ "$output" == *"leftovers        ok   0 processes left behind"* ]]
			no_leftovers "$MARK"
		fi
		command -v setpriv >/dev/null || skip "no setpriv"
		BC_AS="setpriv --bounding-set -sys_admin --inh-caps -sys_admin"
	fi
	bc "python3 tests/bots/nasty.py setsid $MARK" -g nyse
	failed nyse "FAIL (leftovers)"
	[[ "$output" == *"leftovers        FAIL 1 process left behind"* ]]
	[[ "$output" == *"outlived the bot's process group"* ]]
	no_leftovers "$MARK"
}

@test "a bot's escape sequences reach the terminal only through vis(3)" {
	bc "python3 tests/bots/nasty.py escape $MARK" -g nyse
	failed nyse "FAIL (malformed)"
	[[ "$output" == *'name "nasty\033[31mred\033[0m\033]0;pwned\a\r"'* ]]
	[[ "$output" == *'the line: \033[31mred'* ]]
	# No control byte but the newline anywhere in the report.
	[ "$(printf '%s' "$output" | tr -d '\n' | LC_ALL=C tr -d '[:print:]' | wc -c)" -eq 0 ]
	no_leftovers "$MARK"
}

@test "--max-time ends a match that takes too long" {
	start=$(date +%s)
	bc "python3 tests/bots/hostile.py silent $MARK" -g daifugo --max-time 1
	[ "$status" -eq 1 ]
	# Long before the bot's first timeout (600 s, $LIMITS) would end it.
	[ $(($(date +%s) - start)) -lt 300 ]
	# Unfinished (on a loaded machine the bot may not even have said
	# hello within the second: then the handshake fails too).
	[[ "$(verdict daifugo)" =~ FAIL\ \((handshake,\ )?unfinished\) ]]
	[[ "$output" == *"the match took longer than 1 s (--max-time)"* ]]
	no_leftovers "$MARK"
}

@test "SIGTERM stops botcheck with every bot and grandchild killed" {
	bin/botcheck $LIMITS -s 3 -n 1 -r 0 -g nyse \
	    -- "python3 tests/bots/hostile.py silent $MARK" > "$T/out" 2>&1 &
	pid=$!
	# The bot runs once its grandchild (a sleeping python3) does.
	wait_for pgrep -f -- "sleep.600. $MARK"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	no_leftovers "$MARK"
	grep -q "every bot was killed" "$T/out"
}

@test "the same seed gives the same runs; --keep keeps the logs" {
	run bin/botcheck $LIMITS -s 9 -n 1 -r 2 -g horserace --keep "$T/logs" -- bin/random
	[ "$status" -eq 0 ]
	a=$(printf '%s\n' "$output" | grep 'run [0-9]:' | sed 's/: [0-9]* game.*//')
	[ -s "$T/logs/horserace-1.log" ] && [ -s "$T/logs/horserace-3.log" ] || false
	log_complete "$T/logs/horserace-2.log"
	run bin/botcheck $LIMITS -s 9 -n 1 -r 2 -g horserace -- bin/random
	[ "$(printf '%s\n' "$output" | grep 'run [0-9]:' | sed 's/: [0-9]* game.*//')" = "$a" ]
}

@test "several words after -- are one bot command, quoted as given" {
	run bin/botcheck $LIMITS -s 2 -n 1 -r 0 -g nyse -- python3 bots/python/random_bot.py --seed 4
	[ "$status" -eq 0 ]
	[[ "$output" == *"botcheck: python3 bots/python/random_bot.py --seed 4"* ]]
	[[ "$output" == *'name "random-py"'* ]]
}

@test "a bot that cannot be started fails with the cause; a bad command is refused" {
	run bin/botcheck $LIMITS -s 1 -n 1 -r 0 -g nyse -- "$T/nosuchbot --fast"
	failed nyse "FAIL (handshake, unfinished)"
	[[ "$output" == *"cannot execute '$T/nosuchbot': No such file or directory"* ]]
	run bin/botcheck -g nyse -- "python3 'mybot.py"
	[ "$status" -eq 2 ]
	[[ "$output" == *"the bot's command: unterminated ' quote"* ]]
}

@test "botcheck -q says why the bot could not start" {
	run bin/botcheck -q $LIMITS -s 1 -n 1 -r 0 -g nyse -- "$T/nosuchbot --fast"
	[ "$status" -eq 1 ]
	[[ "$output" == *"could not start: cannot execute '$T/nosuchbot': No such file or directory"* ]]
	run bin/botcheck -q $LIMITS -s 1 -n 1 -r 0 -g nyse -- "nosuchbot-$$ --fast"
	[ "$status" -eq 1 ]
	[[ "$output" == *"could not start: cannot execute 'nosuchbot-$$': no such program in the directories of \$PATH"* ]]
	# an opponent that cannot start is not the bot's fault
	run bin/botcheck -q $LIMITS -s 1 -n 1 -r 0 -g nyse --opponent "$T/nosuchbot" -- bin/random
	[[ "$output" != *"could not start"* ]]
}

@test "a bare command name is found on the user's PATH, not only the bots' scrubbed one" {
	mkdir "$T/mybin"
	cp bin/random "$T/mybin/my-own-bot"
	PATH="$T/mybin:$PATH" run bin/botcheck -q $LIMITS -s 1 -n 1 -r 0 -g nyse -- "my-own-bot --seed 3"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$(verdict nyse)" == *"PASS"* ]]
	# and by the referee itself
	PATH="$T/mybin:$PATH" run bin/referee $LIMITS -g nyse -n 3 -b my-own-bot -b "my-own-bot --seed 2" -b bin/random
	[ "$status" -eq 0 ]
}

@test "a bad --opponent or --keep is refused before any match, not blamed on the bot" {
	run bin/botcheck -g nyse --opponent "bin/random 'x" -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"--opponent: unterminated ' quote"* ]]
	[[ "$output" != *"handshake"* ]]
	run bin/botcheck -g nyse --opponent "$T/nosuchbot --fast" -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"--opponent: $T/nosuchbot: No such file or directory"* ]]
	touch "$T/file"
	run bin/botcheck -g nyse --keep "$T/file" -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"--keep $T/file: not a directory"* ]]
	run bin/botcheck $LIMITS -s 1 -n 1 -r 0 -g nyse --opponent 'bin/random --seed 7' \
	    --keep "$T/kept" -- bin/random
	[ "$status" -eq 0 ]
	[ -d "$T/kept" ]
}

@test "--dir and --env run the bot as a tournament would; the reproduce line keeps them and works from anywhere" {
	mkdir -p "$T/home"
	cat > "$T/home/bot.sh" <<EOF2
#!/bin/sh
echo "cwd=\$(pwd) FOO=\$FOO" >&2
exec python3 $PWD/tests/bots/hostile.py illegal $MARK nochild
EOF2
	chmod +x "$T/home/bot.sh"
	run bin/botcheck $LIMITS -s 3 -n 1 -r 0 -g nyse --dir "$T/home" \
	    --env "FOO=it's here" --keep "$T/kept" -- ./bot.sh
	[ "$status" -eq 1 ]
	grep -q "cwd=$T/home FOO=it's here" "$T"/kept/nyse-1.log.bot*.stderr
	line=$(printf '%s\n' "$output" | sed -n 's/^    reproduce: //p')
	[[ "$line" == "cd $PWD && "*"/referee -g nyse "*"--time-hello 600000 "*"-b 'env -C $T/home "* ]]
	line=${line/ --log match.log / --log $T/m.log }
	(cd / && sh -c "$line") > "$T/result"
	[ "$(jv "$(cat "$T/result")" 'sum(k["illegal"] for k in d["fault_kinds"])')" -ge 1 ]
	grep -q "cwd=$T/home FOO=it's here" "$T/m.log.bot0.stderr"
	run bin/botcheck -g nyse --dir "$T/none" -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"--dir $T/none: No such file or directory"* ]]
	run bin/botcheck -g nyse --env FOO -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"--env FOO: not KEY=VALUE"* ]]
	no_leftovers "$MARK"
}

@test "a bot killed by a limit fails on resource limits, naming the limit to raise; the reproduce line keeps the limits" {
	# It allocates until the 256 MiB limit kills it, before any hello.
	bc "python3 tests/hostile/bot.py memhog $MARK" -g horserace --limit-mem 256 --limit-nproc 40 \
	    --opponent 'python3 tests/bots/det.py'   # runs under that limit in every build
	echo "$output"
	failed horserace "FAIL (handshake, limit)"
	[[ "$output" == *"resource limits  FAIL 1 hit (cpu 0, memory 1, file size 0)"* ]]
	[[ "$output" == *"limit: memory: the memory limit (256 MiB of address space)"* ]]
	[[ "$output" == *'needs more? raise --limit-mem (now 256; "mem_mb" in a'* ]]
	line=$(printf '%s\n' "$output" | sed -n 's/^    reproduce: //p')
	[[ "$line" == *" --limit-mem 256 --limit-nproc 40 -b "* ]]
	line=${line/ --log match.log / --log $T/m.log }
	(cd / && sh -c "$line") > "$T/result"
	[ "$(jv "$(cat "$T/result")" 'sum(k["limit"] for k in d["fault_kinds"])')" -eq 1 ]
	# A good bot passes with the row ok; bad limits are refused.
	bc bin/random -g horserace --limit-cpu 100
	[ "$status" -eq 0 ]
	[[ "$output" == *"resource limits  ok   0 hit"* ]]
	run bin/botcheck -g nyse --limit-nofile 3 -- bin/random
	[ "$status" -eq 2 ]
	[ "$output" = "botcheck: --limit-nofile 3: too small (from 8, or 0 for none)" ]
	run bin/botcheck -g nyse --limit-cpu x -- bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == "botcheck: --limit-cpu x: invalid"* ]]
	no_leftovers "$MARK"
}
