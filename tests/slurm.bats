#!/usr/bin/env bats
# A tournament through a real Slurm: the test starts a single-node cluster
# of its own (munged, slurmctld and slurmd from Debian's slurm-wlm and
# munge, a configuration written into a temporary directory, free ports,
# proctrack/linuxproc, no cgroups), runs the README's Slurm commands as
# written (the plan, sbatch of tournaments/slurm/tournament.sbatch as an
# array, merge), and compares the merged games and rating table with a
# local run of the same file; and a ladder whose tables are played as
# Slurm array tasks (ladder run --spool, the README's submit line), one
# task cancelled with scancel and one journal deleted mid-run, no game
# lost or doubled, its table tournament rate's of its export.  When Slurm cannot start here (not root, the
# packages missing, a daemon refusing), the test says why and is skipped,
# never passed.

load helpers
load ladder

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$BATS_TEST_TMPDIR
	# bots run as users of their own (SECURITY.md): they must reach $T
	chmod go+rx "$T" "${T%/*}" "${T%/*/*}" 2>/dev/null || true
	# daemon sockets want a short path
	S=$(mktemp -d /tmp/cardarena-slurm.XXXXXX)
	chmod 700 "$S"
}

teardown() {
	local f
	for f in slurmd slurmctld munged; do
		[ -s "$S/$f.pid" ] && kill "$(cat "$S/$f.pid")" 2>/dev/null
	done
	sleep 0.5
	for f in slurmd slurmctld munged; do
		[ -s "$S/$f.pid" ] && kill -9 "$(cat "$S/$f.pid")" 2>/dev/null
	done
	rm -rf "$S"
}

# Starts Slurm (or skips the test, saying why) and makes $T/w, where
# sbatch runs: bin and tournaments as in the tree.
slurm_or_skip() {
	why=$(start_slurm) || skip "Slurm cannot start on this machine: $why"
	export PATH="$PATH:/usr/sbin" SLURM_CONF="$S/slurm.conf"
	mkdir -p "$T/w"
	ln -s "$PWD/bin" "$T/w/bin"
	ln -s "$PWD/tournaments" "$T/w/tournaments"
}

# Has Slurm array task $1 (JOB_TASK) ended (no longer running nor
# completing)?
task_gone() {
	[ -z "$(squeue -h -j "$1" -t RUNNING,COMPLETING -o %i 2>/dev/null)" ]
}

# Starts munged, slurmctld and slurmd in $S; on failure prints why and
# returns 1.
start_slurm() {
	local p host i
	[ "$(id -u)" -eq 0 ] || { echo "not root (slurmd runs jobs as root here)"; return 1; }
	for p in munged slurmctld slurmd sbatch sinfo; do
		command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
		    { echo "$p is not installed (apt-get install slurm-wlm munge)"; return 1; }
	done
	export PATH="$PATH:/usr/sbin"
	dd if=/dev/urandom of="$S/munge.key" bs=1024 count=1 2>/dev/null
	chmod 600 "$S/munge.key"
	munged -f --socket="$S/munge.sock" --key-file="$S/munge.key" \
	    --log-file="$S/munged.log" --pid-file="$S/munged.pid" \
	    --seed-file="$S/munged.seed" 2>"$S/munged.err" ||
	    { echo "munged does not start: $(tail -n 1 "$S/munged.err")"; return 1; }
	set -- $(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
	host=$(hostname -s)
	mkdir -p "$S/state" "$S/spool"
	cat >"$S/slurm.conf" <<EOF
ClusterName=cardarena
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
CredType=cred/munge
SlurmctldPort=$1
SlurmdPort=$2
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
PlugStackConfig=/dev/null
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF="$S/slurm.conf"
	slurmctld -i 2>"$S/ctld.err" ||
	    { echo "slurmctld does not start: $(tail -n 1 "$S/ctld.err")"; return 1; }
	slurmd 2>"$S/d.err" ||
	    { echo "slurmd does not start: $(tail -n 1 "$S/d.err")"; return 1; }
	for i in $(seq 1 600); do
		[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.2
	done
	echo "the node did not come up: $(sinfo -h -o '%t %E' 2>&1 | head -n 1)"
	return 1
}

@test "Slurm: the README's array job on a single-node Slurm gives the local run's games and table" {
	slurm_or_skip
	readme_block "tests/slurm.bats runs these lines" >"$T/cmds"
	[ "$(grep -c '^bin/tournament\|^sbatch' "$T/cmds")" -eq 3 ]
	grep -q '^sbatch --wait --array=0-4%2 tournaments/slurm/tournament.sbatch' "$T/cmds"
	(cd "$T/w" && timeout 600 sh -e "$T/cmds") >"$T/out" 2>&1 || {
		cat "$T/out" "$S/slurmctld.log" >&2
		false
	}
	# the array ran through Slurm: one output file per task
	[ "$(ls "$T"/w/slurm-*_[0-4].out | wc -l)" -eq 5 ]
	[ "$(ls "$T"/w/out/horserace-jobs/job-*.jsonl | wc -l)" -eq 5 ]
	grep -q "horserace-example: 5 jobs: 5 done, 0 running, 0 failed, 0 missing; 80 of 80 games" "$T/out"
	# the local run with the seed the plan drew (the file names none)
	seed=$(head -n 1 "$T/w/out/horserace/journal.jsonl" | jv "$(cat)" 'd["seed"]')
	sed 's|"output": "out/horserace"|"output": "out/local", "seed": '"$seed"'|' \
	    tournaments/examples/horserace.json >"$T/w/local.json"
	(cd "$T/w" && bin/tournament run -q local.json)
	cmp "$T/w/out/local/results.txt" "$T/w/out/horserace/results.txt"
	python3 tests/journal_games.py "$T/w/out/local/journal.jsonl" >"$T/local.games"
	python3 tests/journal_games.py "$T/w/out/horserace/journal.jsonl" >"$T/horserace.games"
	[ "$(wc -l <"$T/local.games")" -eq 80 ]
	cmp "$T/local.games" "$T/horserace.games"
}

@test "Slurm: a ladder's tables as array tasks, one scancelled and one journal deleted mid-run: no game lost or doubled, the table is rate's" {
	slurm_or_skip
	L=$T/w/club
	four_bots
	readme_block "tests/slurm.bats runs this ladder" >"$T/cmds"
	[ "$(grep -c '^bin/tournament ladder run club --spool club/spool' "$T/cmds")" -eq 1 ]
	# as written but for a shorter timeout and a stop after 48 games
	sed -i 's|--job-timeout 600|--job-timeout 5 --games 48|' "$T/cmds"
	grep -q -- '--job-timeout 5 --games 48' "$T/cmds"
	grep -q -- "--submit 'sbatch --array=0-\$((JOBS - 1)) tournaments/slurm/tournament.sbatch \"\$PLAN\" \"\$OUT\"'" "$T/cmds"
	gate on
	(cd "$T/w" && exec sh -e "$T/cmds") >"$T/out" 2>&1 &
	bg=$!
	# every job out stands mid-job: one array task cancelled, another's
	# journal deleted, then play goes on
	hold_jobs
	f=${held%% *}
	# its task: its batch's Slurm job (sbatch says its number on the
	# ladder's stderr, a batch after another), its line's task
	b=${f%/job-*}
	b=$((10#${b##*/b}))
	idx=${f##*/job-}
	idx=$((10#${idx%.jsonl}))
	job=$(sed -n 's/^Submitted batch job //p' "$T/out" | sed -n "${b}p")
	[ -n "$job" ]
	scancel "${job}_$idx"
	wait_for task_gone "${job}_$idx"
	cancelled=${job}_$idx
	deleted=""
	for g in "$T"/w/club/spool/out/b*/job-*.jsonl; do
		[ "$g" != "$f" ] && midjob "$g" any && { deleted=$g; break; }
	done
	[ -n "$deleted" ]
	rm "$deleted"
	gate off
	wait "$bg" || { cat "$T/out" "$S/slurmctld.log" >&2; false; }
	echo "cancelled $cancelled, deleted $deleted" >&3 || true
	# the cancelled task ended mid-job
	midjob "$f"
	# the tasks ran through Slurm: their output files
	ls "$T"/w/slurm-*_0.out >/dev/null
	grep -q "for 5s: its games missing are played again" "$T/out" || { cat "$T/out" >&2; false; }
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'lost'")" -ge 1 ]
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'out'")" -eq 0 ]
	jobs_complete 48
	status_is_rate 20 "$L/export.jsonl"
}
