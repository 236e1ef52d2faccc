#!/usr/bin/env bats
# What every program says the same way: --version (one line, the
# cardarena version or the SDK's, and the protocol), a bad option answered
# with one line that names it and points to --help (status 2), and the
# exit statuses documented in --help.  Every program in bin/ and the
# Python and JS SDK bots.

load helpers

# Every program: bin/* and the SDKs' example bots.
programs() {
	local p
	for p in bin/*; do
		[ -x "$p" ] && echo "$p"
	done
	echo "python3 bots/python/random_bot.py"
	echo "node bots/js/random_bot.js"
}

@test "every program prints its version and the protocol with --version" {
	n=0
	while read -r p; do
		run $p --version
		[ "$status" -eq 0 ] || { echo "$p: status $status"; false; }
		[ "${#lines[@]}" -eq 1 ] || { echo "$p: $output"; false; }
		[[ "$output" == *"cardarena"*", protocol 1" ]] || { echo "$p: $output"; false; }
		n=$((n + 1))
	done < <(programs)
	[ "$n" -ge 12 ]
	run bin/referee --version
	[ "$output" = "referee (cardarena) $(sed -n 's/.*CARDARENA_VERSION[^"]*"\(.*\)"/\1/p' referee/proto.h), protocol 1" ]
	run bin/tournament --version
	[[ "$output" == "tournament (cardarena) "* ]]
}

@test "a bad option: one line naming it, a hint to --help, status 2" {
	while read -r p; do
		name=${p##*/}
		name=${name%% *}
		run $p --no-such-flag
		[ "$status" -eq 2 ] || { echo "$p: status $status"; false; }
		[ "${#lines[@]}" -eq 1 ] || { echo "$p: $output"; false; }
		[[ "$output" == *"--no-such-flag"*"--help)" ]] || { echo "$p: $output"; false; }
	done < <(programs)
	for c in run rate schedule plan job merge status gauntlet; do
		run bin/tournament $c --no-such-flag
		[ "$status" -eq 2 ]
		[ "$output" = "tournament $c: unknown option --no-such-flag (see tournament $c --help)" ]
	done
	run bin/tournament frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = "tournament: unknown command frobnicate (see tournament --help)" ]
	run bin/tournament gauntlte
	[ "$status" -eq 2 ]
	[ "$output" = "tournament: unknown command gauntlte; did you mean gauntlet? (see tournament --help)" ]
	run bin/referee -x
	[ "$output" = "referee: unknown option -x (see referee --help)" ]
	run bin/referee -g
	[ "$output" = "referee: option -g needs a value (see referee --help)" ]
	run bin/referee --time-per-move
	[ "$output" = "referee: option --time-per-move needs a value (see referee --help)" ]
	run bin/botcheck --keep
	[ "$output" = "botcheck: option --keep needs a value (see botcheck --help)" ]
	run bin/replay
	[ "$status" -eq 2 ]
	[ "$output" = "replay: no log given (see replay --help)" ]
	run bin/random --seed
	[ "$output" = "random: a value is missing after --seed (see random --help)" ]
}

@test "every program's --help documents its exit status" {
	while read -r p; do
		run $p --help
		[ "$status" -eq 0 ] || { echo "$p: status $status"; false; }
		[[ "$output" == *"Exit status: 0 "* ]] || { echo "$p: no exit status in --help"; false; }
		[[ "$output" == *" 2 for a bad command line"* ]] || { echo "$p: $output"; false; }
	done < <(programs)
}

@test "every tournament command answers --help and -h with the usage and the exit statuses" {
	cmds=$(bin/tournament --help | sed -n 's/^ *\(usage:\)\{0,1\} *tournament \([a-z]*\).*/\2/p' | sort -u)
	[ "$(wc -w <<<"$cmds")" -ge 8 ]
	for c in $cmds; do
		for h in --help -h; do
			run bin/tournament $c $h
			[ "$status" -eq 0 ] || { echo "$c $h: status $status: $output"; false; }
			[[ "$output" == *"tournament $c "* ]] || { echo "$c $h: $output"; false; }
			[[ "$output" == *"Exit status"* ]] || { echo "$c $h: $output"; false; }
		done
	done
}

# Under make SANITIZE=1 a leak at exit is a LeakSanitizer report and
# status 1: the command lines that end the programs early end them
# cleanly, with their own status.
@test "early exits of referee and botcheck: their own status, no sanitizer report" {
	for c in "0 bin/referee --list-games" "0 bin/referee --describe horserace" \
	    "0 bin/referee --help" "0 bin/referee --version" \
	    "2 bin/referee --no-such-flag" "2 bin/referee -g horsrace -b x" \
	    "2 bin/referee --limit-cpu x" "2 bin/referee -g horserace" \
	    "0 bin/botcheck --help" "2 bin/botcheck --no-such-flag" \
	    "2 bin/botcheck -g horsrace -- bin/random"; do
		run ${c#* }
		[ "$status" -eq "${c%% *}" ] || { echo "$c: status $status"; false; }
		[[ "$output" != *Sanitizer* ]] || { echo "$c: $output"; false; }
	done
}
