#!/usr/bin/env bats
# bin/human, the seat for a person, driven under tmux as a person would:
# a script reads the pane (capture-pane), answers each prompt with keys
# (send-keys), and plays a whole match of each of the five games (small
# options keep them short) from the first seat, the game's table drawn;
# the match must end with no fault of the human seat and the terminal
# back with the shell.  The horserace match also tries the help, a number
# out of range, an amount out of range and a refused confirmation.  Bots
# run as the referee runs them by default (as root: each as a user id of
# its own, isolated); Ctrl-C at the seat stops the match, with bots of
# their own uid or the referee's, and q asks, then leaves.

load helpers

teardown() {
	tmux -L "$MARK" kill-server 2>/dev/null || true
}

# The last non-blank line of the pane.
last() {
	tmux -L "$MARK" capture-pane -p -t h | awk 'NF { l = $0 } END { print l }'
}

# Everything the pane showed.
screen() {
	tmux -L "$MARK" capture-pane -p -S - -t h
}

# Is the last line a prompt of bin/human (or the end of the match)?
at_prompt() {
	last | grep -E -q '^(action 1-[0-9]+ \(\? help\)|amount -?[0-9]+--?[0-9]+|play .*\(y/n, Enter = y\)|leave the match\? \(y/n\)):$|^EXIT='
}

# Types keys then Enter and waits for the next prompt (the pane changed
# and its last line is a prompt again).
type_line() {
	local before end=$(($(date +%s) + ${WAIT_MAX:-600}))
	before=$(screen | md5sum)
	tmux -L "$MARK" send-keys -t h -l "$1"
	tmux -L "$MARK" send-keys -t h Enter
	while [ "$(date +%s)" -lt "$end" ]; do
		if [ "$(screen | md5sum)" != "$before" ] && at_prompt; then
			return 0
		fi
		sleep 0.05
	done
	echo "no prompt after '$1'; last line: $(last)" >&2
	return 1
}

# Starts a referee with the human at seat 0 and the given arguments,
# without the sandbox (a sandboxed bot has no terminal); once it exits,
# says whether the shell has the terminal's foreground again (FG=ours),
# then its status.
start() {
	command -v tmux >/dev/null || skip "tmux is not installed (apt-get install tmux)"
	tmux -L "$MARK" -f /dev/null new-session -d -s h -x 200 -y 50 \
	    "bin/referee -s 3 --time-per-move 600000 --no-sandbox $* ; rc=\$?; ps -o tpgid=,pgid= -p \$\$ | awk '{ print \$1 == \$2 ? \"FG=ours\" : \"FG=lost\" }'; echo EXIT=\$rc; sleep 600"
	tmux -L "$MARK" set-option -t h history-limit 100000 >/dev/null
}

# Answers every prompt (the 2nd action when there are two or more, the
# lowest amount, Enter to confirm) until the referee exits.
play_out() {
	local l n end=$(($(date +%s) + ${WAIT_MAX:-600}))
	while [ "$(date +%s)" -lt "$end" ]; do
		l=$(last)
		case $l in
		EXIT=*)
			echo "$l"
			return 0 ;;
		"action 1-"*"(? help):")
			n=${l#action 1-}
			n=${n%% *}
			if [ "$n" -ge 2 ]; then type_line 2; else type_line 1; fi ;;
		amount\ *-*":")
			n=${l#amount }
			type_line "${n%%-*}" ;;
		play*"(y/n, Enter = y):")
			type_line "" ;;
		*)
			sleep 0.05 ;;
		esac
	done
	echo "the match did not end; last line: $l" >&2
	return 1
}

# Checks the end of a match: exit 0, no fault of bot 0, the seat's lines.
check_end() {
	screen > "$T/screen"
	grep -q '^EXIT=0$' "$T/screen"
	grep -q '==== the match is over ====' "$T/screen"
	grep -q 'you placed' "$T/screen"
	grep -q '"faults":\[0,' "$T/screen"
	grep -q '^FG=ours$' "$T/screen"
}

# Has the referee exited?
exited() {
	screen | grep -q '^EXIT='
}

@test "human: a whole horserace match, with help, bad numbers, a bad amount and a refused confirmation" {
	start -g horserace -n 3 -o races=3 -o bet_limit=5 \
	    -b "'bin/human --no-colour'" -b bin/horserace_bot -b "'bin/random --seed 1'"
	wait_for at_prompt
	screen | grep -q 'horserace, 3 players, 1 game(s); you play seat 0'
	type_line '?'
	screen | grep -q 'choose action N of the list'
	type_line 0
	screen | grep -q "'0': type a number from 1 to"
	type_line abc
	screen | grep -q "'abc': type a number from 1 to"
	type_line 2
	[[ "$(last)" == "amount 1-5:" ]]
	type_line 6
	screen | grep -q "'6': the amount must be a whole number from 1 to 5"
	type_line 3
	[[ "$(last)" == "play bet: kind win, suits [S], amount 3? (y/n, Enter = y):" ]]
	type_line n
	[[ "$(last)" == "action 1-"*"(? help):" ]]
	type_line t
	screen | grep -q -- '---- the table ----'
	# the drawn table: the horses, the seats, the track once raced
	screen | grep -q '^  horse  odds cards  in stock  odds$'
	screen | grep -q '^  seat 0 (you)    150  still betting$'
	play_out
	check_end
	grep -q '  1  done' "$T/screen"
	grep -q '(amount 1..5)' "$T/screen"
	grep -q '^  last race, dealt by ' "$T/screen"
	grep -E -q '^  A[♠♥♦♣]   \|(██ |·· ){8}\|\| +[0-9]+  1st' "$T/screen"
}

@test "human: a whole stocks match" {
	start -g stocks -n 2 -o max_turns=6 -b "'bin/human --ascii'" -b bin/stocks_bot
	play_out
	check_end
	grep -q '^  company      price  top  moves  price stack (top last)$' "$T/screen"
	grep -q '^  S spades ' "$T/screen"
	grep -q '^  your hand: ' "$T/screen"
}

@test "human: a whole speculation match" {
	start -g speculation -n 3 -o deals=1 -o max_turns=12 \
	    -b bin/human -b bin/speculation_bot -b "'bin/random --seed 2'"
	play_out
	check_end
	grep -q '^  trump [♠♥♦♣]   highest face-up card ' "$T/screen"
}

@test "human: a whole nyse match" {
	start -g nyse -n 2 -b bin/human -b bin/nyse_bot
	play_out
	check_end
	grep -q '^  board   A  B  C  D  E  F  G  H  I  J  K  L$' "$T/screen"
	grep -q '^  colour  value  pile  disc  used |     you  seat 1$' "$T/screen"
	grep -E -q '^  green  ( +[0-9]+){4} \| +[0-9]+ +[0-9]+$' "$T/screen"
}

@test "human: a whole daifugo match" {
	start -g daifugo -n 4 -o deals=1 -b bin/human -b bin/daifugo_bot \
	    -b "'bin/random --seed 1'" -b "'bin/random --seed 2'"
	play_out
	check_end
	grep -q '^  your hand: ' "$T/screen"
	grep -q '^     seat          class              cards  points  deal  played this deal$' "$T/screen"
}

# Ctrl-C at the seat: bin/human dies of it, the referee stops the match
# (its log ends "aborted") and dies of it too; the shell has its terminal.
check_interrupted() {
	wait_for at_prompt
	tmux -L "$MARK" send-keys -t h C-c
	wait_for exited
	screen > "$T/screen"
	grep -q 'interrupted: the referee stops the match' "$T/screen"
	grep -q '^referee: stopped by signal 2 (Interrupt); every bot was killed$' "$T/screen"
	grep -q '^EXIT=130$' "$T/screen"
	grep -q '^FG=ours$' "$T/screen"
	tail -n 1 "$T/h.log" | grep -q '^{"type":"aborted",.*"detail":"stopped by signal 2 (Interrupt)"}$'
	grep -q '"type":"fault",.*"bot":0,.*"detail":"killed by signal 2 (Interrupt)"' "$T/h.log"
	! grep -q '"type":"result"' "$T/h.log" || false
}

@test "human: Ctrl-C stops the match (nyse; as root each bot a uid of its own)" {
	[ "$(id -u)" -eq 0 ] || skip "not root: bots run as the referee's user (the next test)"
	start -g nyse -n 2 --log "$T/h.log" -b "'bin/human --no-colour'" -b bin/nyse_bot
	wait_for at_prompt
	screen | grep -q '^  board   A  B  C  D  E  F  G  H  I  J  K  L$'
	check_interrupted
}

@test "human: Ctrl-C stops the match (horserace; bots as the referee's user)" {
	start -g horserace -n 3 --bot-user same --log "$T/h.log" \
	    -b "'bin/human --no-colour'" -b bin/horserace_bot -b bin/random
	wait_for at_prompt
	screen | grep -q '^  horse  odds cards  in stock  odds$'
	check_interrupted
}

@test "human: q asks, then leaves: the referee plays the seat on and the shell gets its terminal back" {
	start -g nyse -n 2 --log "$T/h.log" -b "'bin/human --no-colour'" -b bin/nyse_bot
	wait_for at_prompt
	type_line q
	[[ "$(last)" == "leave the match? (y/n):" ]]
	type_line n
	[[ "$(last)" == "action 1-"*"(? help):" ]]
	type_line q
	type_line y
	wait_for exited
	screen > "$T/screen"
	grep -q '^EXIT=0$' "$T/screen"
	grep -q '^FG=ours$' "$T/screen"
	grep -q '"faults":\[1,0\]' "$T/screen"
	tail -n 1 "$T/h.log" | grep -q '^{"type":"result",'
}

@test "human: no terminal is a one-line error; --help; a bad option" {
	run setsid bin/human < /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"no terminal to play on"* ]]
	run bin/human --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: human"* ]]
	run bin/human --bogus
	[ "$status" -eq 2 ]
}
