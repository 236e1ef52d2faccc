#!/bin/sh
# make bench, the containment part (SECURITY.md): what the limits and the
# sandbox cost.
#  1. Spawning a bot (tests/bench_spawn): start, exit and reap of bin/true
#     and of a Python bot that exits at once, per bot: no containment,
#     the default limits (and as root a uid of its own), --no-sandbox's
#     defaults (those, the seccomp filter and as root the namespaces, an
#     init and a private scratch: "isolated"), the sandbox (the default
#     where bubblewrap works).
#  2. Time per decision: a horserace match of 5 C random bots, --stats,
#     with the limits off and the referee's uid (--no-sandbox --bot-user
#     same, every --limit-* 0; the seccomp filter stays: no flag turns it
#     off), isolated (--no-sandbox: the default before the sandbox was),
#     and with the defaults (the sandbox where it works).
#  3. A table of five strangers, each bot in a directory of its own: a
#     referee run's wall time and the time per decision, with and without
#     the sandbox (below).
#  4. Sandboxed / unsandboxed match start (issue 37): a referee run of 4
#     C random bots and one short horserace game, with the defaults,
#     with --sandbox-checked (as a tournament's referees run: no bwrap
#     run of the referee's own to check the sandbox works; since the
#     default's first bots tell it, SECURITY.md, the two agree) and with
#     --no-sandbox, and with bwrap making the sandbox (CARDARENA_BWRAP)
#     instead of the referee's own launcher, run in turn; medians of wall
#     and CPU (the referee, its bots and the sandbox's processes) and of
#     the ratios pair by pair.
#  5. Where bwrap's time goes: /bin/true started bare and under bwrap
#     with one more of the referee's words at each step (a user namespace
#     and the system's binds; the PID namespace; every namespace; /proc;
#     the minimal /dev; --dev, the old /dev; the shell that hands the bot
#     its stdin), in turn, medians.
#  6. A ladder's hidden entrants: a sandboxed referee run of 5 C random
#     bots and one short game with 0, 1,000 and 10,000 directories given
#     to --sandbox-hide (a ladder hides every entrant's copies but the
#     seated ones'; each bot's start resolves the list), in turn, medians
#     of wall time.
# Environment: B (build dir), BENCH_GAMES (games, default 300),
# BENCH_SPAWNS (bots spawned per mode, default 50), BENCH_TABLES (referee
# runs timed, default 20), BENCH_STARTS (runs of parts 4 and 5 per
# command, default 20), REFEREE (the referee of parts 3 and 4),
# BENCH_SECURITY_ONLY (a comma list of the parts to run: spawn, decision,
# strangers, start, split, hide; default all).
set -eu
cd "$(dirname "$0")/.."
only=",${BENCH_SECURITY_ONLY:-spawn,decision,strangers,start,split,hide},"
# True when part $1 is to run.
part() {
	case $only in *,"$1",*) return 0 ;; esac
	return 1
}
B=${B:-build/std}
GAMES=${BENCH_GAMES:-300}
N=${BENCH_SPAWNS:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

sandbox=1
bin/referee -g horserace --sandbox -q -b bin/random -b bin/random \
    -b bin/random >/dev/null 2>&1 || sandbox=0
modes="none limits isolated"
[ "$sandbox" = 1 ] && modes="$modes sandbox"

part spawn &&
echo "== containment: spawning a bot ($N each; us per bot, start to reaped)"
part spawn && for m in $modes; do
	t=$("$B/tests/bench_spawn" -n "$N" "$m" true)
	p=$("$B/tests/bench_spawn" -n "$((N / 5 + 1))" "$m" python3 -c pass)
	printf '  %-8s true: %8.0f us   python3 -c pass: %8.0f us\n' "$m" \
	    "$(echo "$t" | sed 's/.*"spawn_us":\([0-9.]*\).*/\1/')" \
	    "$(echo "$p" | sed 's/.*"spawn_us":\([0-9.]*\).*/\1/')"
done
[ "$sandbox" = 1 ] || echo "  (no sandbox here: bwrap cannot run)"

part decision &&
echo "== containment: time per decision, horserace, 5 C random bots, $GAMES games"
bots=""
for i in 1 2 3 4 5; do
	bots="$bots -b 'bin/random --seed $i'"
done
off="--no-sandbox --bot-user same --limit-cpu 0 --limit-mem 0 --limit-nproc 0 --limit-fsize 0 --limit-nofile 0"
part decision && for m in $modes; do
	case $m in
	none) flags=$off ;;
	limits) continue ;;	# the same as isolated for the referee
	isolated) flags="--no-sandbox" ;;
	sandbox) flags="" ;;	# the default
	esac
	eval bin/referee -g horserace -s 1 --games "$GAMES" -q --stats \
	    $flags "$bots" 2>"$tmp/$m"
	python3 - "$m" "$tmp/$m" <<'PY'
import json, sys
s = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
print("  %-8s wall %6.1f us/decision, referee CPU %5.1f us/decision"
      % (sys.argv[1], s["wall_us_per_decision"], s["cpu_us_per_decision"]))
PY
done

# 3. A table of strangers: 5 bots, each in a directory of its own (as a
#    tournament's "dir"s give them), one short game per referee run: the
#    run's wall time (the start-up of its 5 bots and 1 game), mean of
#    BENCH_TABLES runs, and the time per decision over $GAMES games; with
#    --no-sandbox and with the sandbox, each bot shown its own directory
#    alone (--bot-dir; a referee without it, as before issue 34, is given
#    every bot's directory with --sandbox-bind, as the pool gave them).
#    REFEREE names another referee to price (an older build).
ref=${REFEREE:-bin/referee}
T=${BENCH_TABLES:-20}
part strangers &&
echo "== containment: a table of 5 strangers, each bot in a dir of its own ($ref)"
dirs=""
for i in 0 1 2 3 4; do
	mkdir -p "$tmp/s/bot$i"
	cp bin/random "$tmp/s/bot$i/random"
	if "$ref" --help | grep -q -- --bot-dir; then
		dirs="$dirs --bot-dir $i=$tmp/s/bot$i"
	else
		dirs="$dirs --sandbox-bind $tmp/s/bot$i"
	fi
done
chmod -R go+rX "$tmp"
part strangers && for m in no-sandbox sandbox; do
	[ "$m" = sandbox ] && [ "$sandbox" = 0 ] && continue
	set -- -g horserace -s 1 -q --"$m" $dirs
	for i in 0 1 2 3 4; do
		set -- "$@" -b "env -C $tmp/s/bot$i ./random --seed $i"
	done
	python3 - "$T" "$m" "$ref" "$@" <<'PY'
import subprocess, sys, time
n, m, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
for _ in range(n):
    subprocess.run(argv + ["-o", "races=1"], check=True)
print("  %-10s a table's run (5 bots, 1 short game): %7.1f ms"
      % (m, (time.monotonic() - t0) * 1000 / n))
PY
	"$ref" "$@" --games "$GAMES" --stats 2>"$tmp/$m.stats" >/dev/null
	python3 - "$m" "$tmp/$m.stats" <<'PY'
import json, sys
s = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
print("  %-10s wall %6.1f us/decision, referee CPU %5.1f us/decision"
      % (sys.argv[1], s["wall_us_per_decision"], s["cpu_us_per_decision"]))
PY
done

# 4. Sandboxed / unsandboxed match start: 4 C random bots, one short
#    horserace game a run, the two commands in turn.
S=${BENCH_STARTS:-20}
if part start && [ "$sandbox" = 1 ]; then
	echo "== containment: sandboxed / unsandboxed match start, 4 bots, 1 short game ($S runs each, in turn; load $(cut -d' ' -f1 /proc/loadavg))"
	python3 - "$S" "$ref" "$(command -v bwrap || true)" <<'PY'
import os, resource, statistics, subprocess, sys, time
n, ref, bwrap = int(sys.argv[1]), sys.argv[2], sys.argv[3]
base = [ref, "-g", "horserace", "-s", "1", "-q", "-o", "races=1"]
for i in range(4):
    base += ["-b", "bin/random --seed %d" % i]
cmds = {"sandbox": base, "checked": base + ["--sandbox-checked"],
        "no-sandbox": base + ["--no-sandbox"]}
if bwrap:
    cmds["bwrap"] = base + ["--sandbox-checked"]
env_bwrap = dict(os.environ, CARDARENA_BWRAP=bwrap)
res = {k: ([], []) for k in cmds}
for i in range(n + 1):
    for k, argv in cmds.items():
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                       env=env_bwrap if k == "bwrap" else None)
        t1 = time.monotonic()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i > 0:	# the first pair warms up
            res[k][0].append((t1 - t0) * 1e3)
            res[k][1].append((r1.ru_utime + r1.ru_stime - r0.ru_utime -
                              r0.ru_stime) * 1e3)
for k in cmds:
    w, c = res[k]
    print("  %-10s wall %6.1f ms  CPU %6.1f ms  (medians)"
          % (k, statistics.median(w), statistics.median(c)))
for k, what in (("sandbox", "sandboxed"),
                ("checked", "sandboxed, checked (a tournament's)")):
    rw = [a / b for a, b in zip(res[k][0], res["no-sandbox"][0])]
    rc = [a / b for a, b in zip(res[k][1], res["no-sandbox"][1]) if b > 0]
    print("  %s / unsandboxed match start: wall %.2fx, CPU %.2fx "
          "(medians of the %d pairs)" % (what, statistics.median(rw),
                                         statistics.median(rc), n))
if bwrap:
    rw = [a / b for a, b in zip(res["bwrap"][0], res["checked"][0])]
    rc = [a / b for a, b in zip(res["bwrap"][1], res["checked"][1])]
    print("  bwrap's / our own launcher's sandboxed match start (both "
          "checked): wall %.2fx, CPU %.2fx (medians of the %d pairs)"
          % (statistics.median(rw), statistics.median(rc), n))
PY
fi

# 5. Where bwrap's time goes: /bin/true under bwrap, one of the referee's
#    words more at each step (not the bot's view: its own directories
#    and what is hidden vary by table), the steps in turn.
if part split && [ "$sandbox" = 1 ]; then
	echo "== containment: where bwrap's time goes, /bin/true ($S runs each, in turn; load $(cut -d' ' -f1 /proc/loadavg))"
	python3 - "$S" "$(command -v bwrap)" <<'PY'
import os, resource, statistics, subprocess, sys, time
n, bwrap = int(sys.argv[1]), sys.argv[2]
links = []
for l in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
    if os.path.islink(l):
        links += ["--symlink", os.readlink(l), l]
    elif os.path.isdir(l):
        links += ["--ro-bind", l, l]
sysb = ["--ro-bind-try", "/usr", "/usr", "--ro-bind-try", "/etc", "/etc",
        "--ro-bind-try", "/opt", "/opt"] + links
scratch = ["--size", str(64 << 20), "--tmpfs", "/tmp"]
mindev = ["--dir", "/dev"]
for d in ("null", "zero", "full", "random", "urandom"):
    mindev += ["--dev-bind", "/dev/" + d, "/dev/" + d]
mindev += ["--size", str(64 << 20), "--tmpfs", "/dev/shm"]
olddev = ["--dev", "/dev", "--size", str(64 << 20), "--tmpfs", "/dev/shm",
          "--remount-ro", "/dev"]
wrap = ["/bin/sh", "-c", 'exec "$@"', "sh"]
head = [bwrap, "--die-with-parent"]
allns = ["--unshare-all", "--new-session", "--hostname", "cardarena"]
steps = [
    ("bare /bin/true", []),
    ("bwrap: user namespace, system binds",
     head + ["--unshare-user"] + sysb),
    ("+ PID namespace", head + ["--unshare-user", "--unshare-pid"] + sysb),
    ("+ every namespace (--unshare-all)", head + allns + sysb),
    ("  the same without the network's", head + allns + ["--share-net"] +
     sysb),
    ("+ --proc, /tmp", head + allns + sysb + ["--proc", "/proc"] + scratch),
    ("+ minimal /dev, / read-only", head + allns + sysb + ["--proc", "/proc"] +
     scratch + mindev + ["--remount-ro", "/"]),
    ("  --dev instead (the old /dev)", head + allns + sysb +
     ["--proc", "/proc"] + olddev + scratch),
    ("+ the stdin shell (the referee's)", head + allns + sysb +
     ["--proc", "/proc"] + scratch + mindev + ["--remount-ro", "/", "--"] +
     wrap),
]
res = [([], []) for _ in steps]
for i in range(n + 1):
    for j, (name, argv) in enumerate(steps):
        argv = argv + (["--"] if argv and "--" not in argv else []) + \
            ["/bin/true"]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(argv, check=True, cwd="/")
        t1 = time.monotonic()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i > 0:
            res[j][0].append((t1 - t0) * 1e3)
            res[j][1].append((r1.ru_utime + r1.ru_stime - r0.ru_utime -
                              r0.ru_stime) * 1e3)
for (name, _), (w, c) in zip(steps, res):
    print("  %-38s wall %5.2f ms  CPU %5.2f ms" % (name, statistics.median(w),
                                                 statistics.median(c)))
PY
fi

# 6. A ladder's hidden entrants: the start of a table whose referee is
#    given thousands of --sandbox-hide directories (none of them in the
#    bots' sight: each is resolved, then left out).
if part hide && [ "$sandbox" = 1 ]; then
	echo "== containment: a table's run with N directories hidden (5 bots, 1 short game, 5 runs each, in turn; load $(cut -d' ' -f1 /proc/loadavg))"
	python3 - "$tmp" <<'PY'
import os, statistics, subprocess, sys, time
tmp = sys.argv[1]
for i in range(10000):
    os.makedirs(os.path.join(tmp, "entries", "e%05d" % i, "bot"))
base = ["bin/referee", "-g", "horserace", "-n", "5", "--games", "1", "-q",
        "-o", "races=1", "--sandbox"]
for i in range(1, 6):
    base += ["-b", "bin/random --seed %d" % i]
sizes = (0, 1000, 10000)
res = {k: [] for k in sizes}
for r in range(6):
    for k in sizes:
        argv = list(base)
        for i in range(k):
            argv += ["--sandbox-hide",
                     os.path.join(tmp, "entries", "e%05d" % i)]
        t0 = time.monotonic()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        if r > 0:	# the first round warms up
            res[k].append((time.monotonic() - t0) * 1e3)
for k in sizes:
    print("  %5d hidden: wall %7.1f ms (median)" % (k,
                                                    statistics.median(res[k])))
PY
fi
