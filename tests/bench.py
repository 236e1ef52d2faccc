#!/usr/bin/env python3
"""make bench: the benchmarks of cardarena (never part of make check).

Every figure is printed with the 1-minute load average beside it: the
machine may be shared, and a loaded machine makes wall times longer.
Figures that depend on the machine are repeated, interleaved with their
yardstick (measured just before each one), and given as the median and
the spread (lowest..highest) of the repetitions.

  engines     actions per CPU second of each rules engine in process
              (random legal play, legal lists included); target 1,000,000.
  referee     per game (all five, default players): the referee's wall
              time per decision over the wall time of a yardstick, and its
              CPU time per decision over the yardstick's CPU time: a
              parse-free bot (tests/bench_bot.c) and the C SDK's random
              bot, each without a log and with one (--log FILE at the
              default level, full: every message's text; rows "+ log
              full").  Yardsticks: a 2-process round trip of a
              request-sized line (bench_pipe) and a poll loop over as many
              children as the table has seats (bench_pipe -c P), measured
              before each referee run, and the same poll loop kept on
              one CPU (bench_pipe -p: the limit of a referee that keeps
              its table on one CPU, as --cpu auto does for a game asked
              one seat at a time; rows "one-CPU").  The standard: wall /
              poll-loop wall at most 1.5 x with the log on.  Never a CPU
              time over a wall time.
  first game  a table's time to its first game (the match log's t of game
              0's start), 5 C random bots, and 5 Python ones.
  sdk         decisions per CPU second of each SDK's random bot (C, Python,
              JavaScript), as it is and with --wants legal (the hello's
              "wants": sent the legal list alone): the bots' CPU time
              (children's rusage less the referee's own) over the
              decisions, 5 bots, horserace.
  tournament  games per second of bin/tournament run at -j 1 and -j 2
              against one bin/referee per table playing (and logging) the
              same games, for
              C and Python random bots, on short games (horserace,
              races=1) and long ones (daifugo), by default and with the
              file's "affinity": true (each run on a CPU of its own);
              targets:
              -j 1 at least 0.8 x the referees, -j 2 at least 1.7 x -j 1
              (short, C).
  pin         the defaults at the physical limit (issue 37), each a median
              of BENCH_REPS interleaved runs: -j 2 / -j 1 of `tournament
              run` by default (no "affinity" in the file) on short C games
              (6 tables of horserace races=1, which floats at -j 1 since
              it asks its bots together, and of nyse, pinned at both;
              goal at least 1.7 x); one
              table of 400 short games against one referee playing them
              (games/s; goal at least 0.9 x; two pairs a repetition, one
              in each order); and the CPU per game of that
              table's tournament over the referee's, C and Python bots
              (goal at most 1.05 x); and of 6 tables of 100 short Python
              games at -j 1 (more tables than slots: the first run timed
              as it plays) over one referee per table's.
  schedule    tables per second of `tournament schedule` for a balanced
              schedule of 1,000, 100,000 and 1,000,000 tables (the
              documented maximum) of the horserace example's 5 bots at 4
              seats and of 30 bots at 6 seats, and every subset of 30 bots
              at 6 seats (593,775 tables, max_tables 1000000).  Target:
              seconds for a million.
  library     actions per CPU second of random playouts through the
              engines' public library (cardarena.h; tests/bench_lib.c):
              a loop of ca_legal and ca_apply in C, the same loop inside
              the library (ca_playout), and a loop of legal() and apply()
              through the Python binding (bots/python/cardarena_lib.py).
  mcts        the search bots' iterations per second: bin/<game>_mcts and
              bots/python/mcts_bot.py at --ms 100 against random bots
              (default players), from the iteration counts their answers
              report ("debug"), over the searched moves; wall time, so a
              loaded machine gives fewer.
  dist        tests/bench_dist.sh: games per second of a 10,000-game
              horserace tournament (5 C random bots) through `tournament
              plan | parallel -j 2 tournament job` and merge, against
              `tournament run -j 2`; `tournament merge` and `tournament
              rate` of 100,000 and 1,000,000 made-up games in 100 job
              journals: wall, CPU against Python's json.loads of the
              same lines, and the maximum resident set.

Environment: B (build dir), BENCH_REPS (repetitions, default 3),
BENCH_SECONDS (CPU seconds per engine, default 1), BENCH_SCALE (a factor
on every match's and tournament's size, default 1), BENCH_ONLY (a comma
list of the sections to run: engines, library, mcts, referee, first,
sdk, tournament, pin, schedule, dist; default all).
"""
import glob
import itertools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

B = os.environ.get("B", "build/std")
REPS = int(os.environ.get("BENCH_REPS", "3"))
SECS = os.environ.get("BENCH_SECONDS", "1")
SCALE = float(os.environ.get("BENCH_SCALE", "1"))

# The CPU of the one-CPU poll loop: the last this process may use.
ONE_CPU = max(os.sched_getaffinity(0))

# game, players, games per referee run (about 0.5 s on a quiet machine)
GAMES = [("horserace", 5, 150), ("stocks", 4, 60), ("speculation", 5, 20),
         ("nyse", 4, 150), ("daifugo", 5, 30)]


def load():
    """The 1-minute load average."""
    return os.getloadavg()[0]


def children_cpu():
    """CPU seconds (user + system) of every reaped descendant so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, **kw):
    """Runs cmd; returns (wall s, its CPU s with its children, stdout,
    stderr)."""
    c0, t0 = children_cpu(), time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    t1, c1 = time.monotonic(), children_cpu()
    if p.returncode != 0:
        sys.exit("bench: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                p.stderr.strip()[-500:]))
    return t1 - t0, c1 - c0, p.stdout, p.stderr


def last_json(text):
    """The last line of text that is a JSON object."""
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in: " + text[-300:])


def med(xs):
    """'median (low..high)' of a list of numbers."""
    m = statistics.median(xs)
    fmt = "%.2f" if m < 10 else "%.1f" if m < 1000 else "%.0f"
    return (fmt + " (" + fmt + ".." + fmt + ")") % (m, min(xs), max(xs))


def scaled(n):
    """n times BENCH_SCALE, at least 1."""
    return max(1, int(n * SCALE))


def referee(game, bots, ngames, seed=1, log=None, extra=()):
    """Runs one match; returns (its --stats, wall s, CPU s with bots)."""
    cmd = ["bin/referee", "-g", game, "-n", str(len(bots)), "-s", str(seed),
           "--games", str(ngames), "-q", "--stats"] + list(extra)
    if log is not None:
        cmd += ["--log", log]
    for b in bots:
        cmd += ["-b", b]
    wall, cpu, _, err = run(cmd)
    return last_json(err), wall, cpu


def c_random(n):
    return ["bin/random --seed %d" % (i + 1) for i in range(n)]


def parse_free(n):
    return ["%s/tests/bench_bot --seed %d" % (B, i + 1) for i in range(n)]


def request_size(game, players, tmp):
    """The mean length of a request line of game (from a short match)."""
    log = os.path.join(tmp, "size.log")
    referee(game, parse_free(players), 3, log=log)
    n = total = 0
    with open(log) as f:
        for line in f:
            k = line.find('"msg":{"type":"request"')
            if line.startswith('{"type":"send"') and k != -1:
                total += len(line.rstrip()) - k - len('"msg":') - 1
                n += 1
    return max(64, total // max(n, 1))


def engines():
    print("== engines: random legal play in process, actions per CPU "
          "second (target 1,000,000); load %.2f" % load())
    _, _, out, _ = run(["%s/tests/bench_engine" % B, "-t", SECS])
    slow = []
    for line in out.splitlines():
        e = json.loads(line)
        rate = e.get("actions_per_cpu_s", e.get("actions_per_s"))
        print("  %-12s %10.0f actions/CPU s  (%d games)" % (e["game"], rate,
                                                            e["games"]))
        if rate < 1e6:
            slow.append(e["game"])
    print("  under 1,000,000: %s" % (", ".join(slow) if slow else "none"))


def library():
    print("\n== library: random playouts through cardarena.h, actions per "
          "CPU second; load %.2f" % load())
    _, _, out, _ = run(["%s/tests/bench_lib" % B, "-t", SECS])
    sys.path.insert(0, "bots/python")
    import cardarena_lib as ca
    print("  %-12s %14s %14s %14s" % ("", "C legal+apply", "C ca_playout",
                                      "Python"))
    for line in out.splitlines():
        e = json.loads(line)
        n, c0 = 0, time.process_time()
        seed = 1
        while time.process_time() - c0 < float(SECS):
            g = ca.Game(e["game"], seed=seed)
            rng = __import__("random").Random(seed)
            seed += 1
            while not g.over():
                p = g.deciders()[0]
                legal = g.legal(p)
                x = legal[rng.randrange(len(legal))]
                g.apply(p, x.code, rng.randint(x.lo, x.hi)
                        if x.ranged else 0)
                n += 1
        py = n / (time.process_time() - c0)
        print("  %-12s %14.0f %14.0f %14.0f" % (
            e["game"], e["legal_apply_per_cpu_s"], e["playout_per_cpu_s"],
            py))


def mcts(tmp):
    print("\n== mcts: search iterations per second at --ms 100 against "
          "random bots (wall time); load %.2f" % load())
    print("  %-12s %12s %12s" % ("", "C", "Python"))
    players = {"horserace": 5, "stocks": 4, "speculation": 5, "nyse": 4,
               "daifugo": 5}
    for game, n in sorted(players.items()):
        rates = []
        # --settle 0: every move its whole 100 ms (a settled search
        # stops sooner, which this rate would count as slowness)
        for bot in ("bin/%s_mcts --seed 1 --settle 0" % game,
                    "python3 bots/python/mcts_bot.py --seed 1"):
            log = os.path.join(tmp, "mcts.log")
            referee(game, [bot] + c_random(n - 1), 1, log=log,
                    extra=["--time-per-move", "10000"])
            its, moves = 0, 0
            with open(log) as f:
                for line in f:
                    if '"type":"recv"' not in line or '"bot":0' not in line:
                        continue
                    ans = json.loads(json.loads(line)["line"])
                    d = ans.get("debug", "")
                    if "iterations" in d:
                        its += int(d.split()[0])
                        moves += 1
            rates.append(its / (moves * 0.1) if moves else 0)
        print("  %-12s %12.0f %12.0f" % (game, rates[0], rates[1]))


def referee_ratios(tmp):
    print("\n== referee: wall per decision / yardstick wall, CPU per "
          "decision / yardstick CPU; median (spread) of %d runs, each "
          "after its yardstick" % REPS)
    print("   yardsticks: 'pipe' a 2-process round trip, 'poll' a poll loop "
          "over P children; both with a request-sized line")
    print("   '+ log full': the same match with --log FILE at the default "
          "level (full); the standard is wall / poll-loop wall <= 1.5 x "
          "with the log on")
    print("   'in play': the match's games alone (--stats play_us: not the "
          "bots' starts, hellos and ends, which a poll loop over running "
          "children does not pay either); the standard stays on the whole "
          "match")
    log = os.path.join(tmp, "ratios.log")
    for game, players, ngames in GAMES:
        ngames = scaled(ngames)
        size = request_size(game, players, tmp)
        rows = {}
        loads = []
        for rep in range(REPS):
            for label, bots in (("parse-free", parse_free(players)),
                                ("C SDK", c_random(players))):
                for logged in (False, True):
                    loads.append(load())
                    _, _, out, _ = run(["%s/tests/bench_pipe" % B, "-n",
                                        "20000", "-s", str(size)])
                    pipe = last_json(out)
                    _, _, out, _ = run(["%s/tests/bench_pipe" % B, "-n",
                                        "20000", "-s", str(size), "-c",
                                        str(players)])
                    poll = last_json(out)
                    _, _, out, _ = run(["%s/tests/bench_pipe" % B, "-n",
                                        "20000", "-s", str(size), "-c",
                                        str(players), "-p", str(ONE_CPU)])
                    poll["one_cpu"] = last_json(out)
                    st, _, _ = referee(game, bots, ngames, seed=rep + 1,
                                       log=log if logged else None)
                    if logged:
                        os.unlink(log)
                    key = label + (" + log full" if logged else "")
                    rows.setdefault(key, []).append((st, pipe, poll))
        print("  %s (%d players, %d games, requests %d B; load %s)"
              % (game, players, ngames, size, med(loads)))
        for label, rs in rows.items():
            w = [s["wall_us_per_decision"] for s, _, _ in rs]
            c = [s["cpu_us_per_decision"] for s, _, _ in rs]
            print("    %-21s wall %s us/decision, referee CPU %s "
                  "us/decision, %s decisions/s"
                  % (label, med(w), med(c),
                     med([s["decisions"] / (s["wall_us"] / 1e6)
                          for s, _, _ in rs])))
            print("      wall / poll-loop wall %s x   wall / pipe wall %s x"
                  "   in play / poll-loop wall %s x"
                  % (med([s["wall_us_per_decision"] / q["pipe_rtt_us"]
                          for s, _, q in rs]),
                     med([s["wall_us_per_decision"] / p["pipe_rtt_us"]
                          for s, p, _ in rs]),
                     med([s["play_us_per_decision"] / q["pipe_rtt_us"]
                          for s, _, q in rs])))
            print("      CPU / poll-loop CPU  %s x   CPU / pipe CPU  %s x"
                  % (med([s["cpu_us_per_decision"] / q["cpu_us"]
                          for s, _, q in rs]),
                     med([s["cpu_us_per_decision"] / p["cpu_us"]
                          for s, p, _ in rs])))
            print("      wall / one-CPU poll-loop wall %s x   in play %s x   "
                  "CPU / its CPU %s x"
                  % (med([s["wall_us_per_decision"] /
                          q["one_cpu"]["pipe_rtt_us"] for s, _, q in rs]),
                     med([s["play_us_per_decision"] /
                          q["one_cpu"]["pipe_rtt_us"] for s, _, q in rs]),
                     med([s["cpu_us_per_decision"] / q["one_cpu"]["cpu_us"]
                          for s, _, q in rs])))
        p = rows["parse-free"] + rows["parse-free + log full"]
        print("      yardsticks: poll loop %s us wall, %s us CPU; on one CPU "
              "%s us wall, %s us CPU; pipe %s us wall, %s us CPU"
              % (med([q["pipe_rtt_us"] for _, _, q in p]),
                 med([q["cpu_us"] for _, _, q in p]),
                 med([q["one_cpu"]["pipe_rtt_us"] for _, _, q in p]),
                 med([q["one_cpu"]["cpu_us"] for _, _, q in p]),
                 med([x["pipe_rtt_us"] for _, x, _ in p]),
                 med([x["cpu_us"] for _, x, _ in p])))


def first_game(tmp):
    print("\n== a table's time to its first game (horserace, 5 bots; the "
          "log's t of game 0's start); median (spread) of %d" % (REPS * 2))
    py = "bots/python/random_bot.py --seed %d"
    for label, bots in (("C random", c_random(5)),
                        ("Python random", [py % (i + 1) for i in range(5)])):
        ts, walls, loads = [], [], []
        for rep in range(REPS * 2):
            log = os.path.join(tmp, "first.log")
            loads.append(load())
            _, wall, _ = referee("horserace", bots, 1, seed=rep + 1, log=log)
            with open(log) as f:
                for line in f:
                    if '"type":"game_start"' in line:
                        ts.append(json.loads(line)["t"] / 1000.0)
                        break
            walls.append(wall * 1000)
        print("  %-14s %s ms to the first game; the whole 1-game match %s "
              "ms; load %s" % (label, med(ts), med(walls), med(loads)))


def sdks():
    print("\n== SDK random bots: decisions per CPU second of a bot (5 bots, "
          "horserace; the bots' CPU is the children's less the referee's); "
          "median (spread) of %d" % REPS)
    table = (("C", "bin/random --seed %d", 300),
             ("Python", "bots/python/random_bot.py --seed %d", 40),
             ("JavaScript", "bots/js/random_bot.js --seed %d", 40))
    table = [(label + extra, cmd + extra, n) for label, cmd, n in table
             for extra in ("", " --wants legal")]
    for label, cmd, ngames in table:
        ngames = scaled(ngames)
        if label.startswith("JavaScript") and shutil.which("node") is None:
            print("  %-24s skipped: no node" % label)
            continue
        rates, walls, loads = [], [], []
        for rep in range(REPS):
            loads.append(load())
            st, wall, cpu = referee("horserace", [cmd % (i + 1)
                                                  for i in range(5)],
                                    ngames, seed=rep + 1)
            bots_cpu = cpu - st["cpu_us"] / 1e6
            rates.append(st["decisions"] / bots_cpu)
            walls.append(st["decisions"] / wall)
        print("  %-24s %s decisions per bot CPU s; the match %s decisions/s "
              "wall; load %s" % (label, med(rates), med(walls), med(loads)))


BOTS = {"C": "bin/random --seed %d",
        "Python": "python3 bots/python/random_bot.py --seed %d"}


def tournament(tmp, name, game, options, deals, lang, dup=False):
    """One tournament of 6 bots at tables of 5 (every subset: 6 tables of
    `deals` games), at -j 1 and -j 2, interleaved with its yardstick: one
    bin/referee per table playing the same games, one after the other
    (what a perfect runner at -j 1 would do), each writing its match log
    as a tournament's tables do by default (the same work).  Prints the
    games per second of each and the ratios.  With dup, duplicate deals
    (each from every seat: 5 games a deal) on both sides."""
    bots = [BOTS[lang] % i for i in range(1, 7)]
    tables = list(itertools.combinations(range(6), 5))
    res = {"ref": [], 1: [], 2: [], "a1": [], "a2": []}
    busy = []       # cores one table keeps busy at -j 1
    for rep in range(2):
        l0 = load()
        t0 = time.monotonic()
        n = 0
        for tb in tables:
            cmd = ["bin/referee", "-g", game, "-n", "5", "-s", str(rep + 1),
                   "--games", str(deals * (5 if dup else 1)), "-q",
                   "--time-hello", "600000"] + (["--duplicate"] if dup
                                                else [])
            for k, v in options.items():
                cmd += ["-o", "%s=%s" % (k, v)]
            for i in tb:
                cmd += ["-b", bots[i]]
            log = os.path.join(tmp, "yardstick.jsonl")
            run(cmd + ["--log", log])
            for f in glob.glob(log + "*"):
                os.unlink(f)
            n += deals * (5 if dup else 1)
        wall = time.monotonic() - t0
        res["ref"].append(n / wall)
        print("  %-30s referee:    %7.1f games/s (%d games in %.2f s, one "
              "referee per table); load %.2f" % (name, n / wall, n, wall, l0))
        for jobs, aff in ((1, False), (2, False), (1, True), (2, True)):
            out = os.path.join(tmp, "t-%d" % jobs)
            spec = {"name": "bench", "game": game, "options": options,
                    "seats": 5, "deals": deals, "duplicate": dup,
                    "bots": [{"name": "r%d" % i, "command": c}
                             for i, c in enumerate(bots)],
                    "time_hello_ms": 600000, "output": out,
                    "concurrency": jobs}
            if aff:     # else the default (pin.h)
                spec["affinity"] = True
            path = out + ".json"
            with open(path, "w") as f:
                json.dump(spec, f)
            l0 = load()
            wall, cpu, _, _ = run(["bin/tournament", "run", "-q", "-j",
                                   str(jobs), path])
            if jobs == 1 and not aff:
                busy.append(cpu / wall)
            with open(os.path.join(out, "journal.jsonl")) as f:
                n = sum(1 for line in f if '"table"' in line)
            res[("a%d" % jobs) if aff else jobs].append(n / wall)
            print("  %-30s tournament -j %d%s: %7.1f games/s (%d games in "
                  "%.2f s, CPU %.2f s in all); load %.2f"
                  % (name, jobs, " affinity" if aff else "", n / wall, n,
                     wall, cpu, l0))
            shutil.rmtree(out)
    m = {k: statistics.median(v) for k, v in res.items()}
    print("  %-30s tournament -j 1 / referee: %.2f x; -j 2 / -j 1: %.2f x "
          "(the medians' ratios)" % (name, m[1] / m["ref"], m[2] / m[1]))
    print("  %-30s with \"affinity\": -j 1 / referee: %.2f x; -j 2 / -j 1: "
          "%.2f x; -j 2 / -j 1 without it: %.2f x" % (name, m["a1"] / m["ref"],
                                                    m["a2"] / m["a1"],
                                                    m["a2"] / m[1]))
    # One table at -j 1 already keeps `b` cores busy (the referee and a
    # bot overlap), so on this machine's cores -j 2 can give at most
    # cores / b times -j 1, however good the runner.
    b = statistics.median(busy)
    cores = os.cpu_count() or 1
    print("  %-30s one table at -j 1 keeps %.2f cores busy: on %d cores "
          "-j 2 can reach at most %.2f x -j 1 (reached: %.0f%% of that)"
          % (name, b, cores, min(2.0, cores / b), 100 * (m[2] / m[1]) /
             min(2.0, cores / b)))


def tournaments(tmp):
    print("\n== tournament run against one referee per table playing the "
          "same games (6 bots, tables of 5: 6 tables; match logs written on "
          "both sides), at -j 1 and -j 2")
    # a small one: its fixed costs (checks, start-ups, the first run
    # that times the pace, the reports) against one referee per table
    tournament(tmp, "small, C: horserace races=1", "horserace",
               {"races": 1}, scaled(34), "C")
    tournament(tmp, "small, C, duplicate: horserace", "horserace",
               {"races": 1}, scaled(7), "C", dup=True)
    tournament(tmp, "short, C: horserace races=1", "horserace",
               {"races": 1}, scaled(1200), "C")
    tournament(tmp, "short, Python: horserace races=1", "horserace",
               {"races": 1}, scaled(300), "Python")
    tournament(tmp, "long, C: daifugo", "daifugo", {}, scaled(20), "C")
    tournament(tmp, "long, Python: daifugo", "daifugo", {}, scaled(8),
               "Python")


def pin_tour(tmp, name, bots, deals, jobs, game="horserace",
             options=None):
    """Runs a tournament of game (default horserace races=1) at tables of
    5 with no "affinity" in its file; returns (games, wall s, CPU s)."""
    out = os.path.join(tmp, name)
    if options is None:
        options = {"races": 1} if game == "horserace" else {}
    spec = {"name": "bench", "game": game, "options": options,
            "seats": 5, "deals": deals, "duplicate": False,
            "bots": [{"name": "r%d" % i, "command": c}
                     for i, c in enumerate(bots)],
            "time_hello_ms": 600000, "output": out}
    with open(out + ".json", "w") as f:
        json.dump(spec, f)
    wall, cpu, _, _ = run(["bin/tournament", "run", "-q", "-j", str(jobs),
                           out + ".json"])
    with open(os.path.join(out, "journal.jsonl")) as f:
        n = sum(1 for line in f if '"table"' in line)
    shutil.rmtree(out)
    return n, wall, cpu


def pins(tmp):
    print("\n== the defaults at the physical limit: -j 2 / -j 1 by default, "
          "one table / one referee, CPU per game (horserace races=1, tables "
          "of 5)")
    six = [BOTS["C"] % i for i in range(1, 7)]
    r = {"j": [], "jn": [], "t": {"C": [], "Python": []},
         "c": {"C": [], "Python": []}, "c6": []}
    for rep in range(REPS):
        # horserace asks its bets of every seat at once: at -j 1 its
        # table floats (cpulease.h), at -j 2 each slot keeps a CPU; nyse
        # asks one seat at a time: pinned at both
        for key, game, deals in (("j", "horserace", 600), ("jn", "nyse", 60)):
            l0 = load()
            n1, w1, _ = pin_tour(tmp, "j1", six, scaled(deals), 1, game)
            n2, w2, _ = pin_tour(tmp, "j2", six, scaled(deals), 2, game)
            r[key].append((n2 / w2) / (n1 / w1))
            print("  short C %s, 6 tables: -j 1 %7.1f games/s, -j 2 %7.1f "
                  "games/s (%d games); load %.2f"
                  % (game, n1 / w1, n2 / w2, n1, l0))
        for lang, games in (("C", 400), ("Python", 400)):
            five = [BOTS[lang] % i for i in range(1, 6)]
            log = os.path.join(tmp, "one.jsonl")
            # two pairs, the second in the other order (referee,
            # tournament, tournament, referee): whatever the machine does
            # to the run that comes first or second falls on both sides
            def ref(seed):
                _, rw, rc = referee("horserace", five, scaled(games),
                                    seed=seed, log=log,
                                    extra=("-o", "races=1",
                                           "--time-hello", "600000"))
                for f in glob.glob(log + "*"):
                    os.unlink(f)
                return rw, rc

            for order in (0, 1):
                l0 = load()
                seed = 2 * rep + order + 1
                if order == 0:
                    rw, rc = ref(seed)
                n, tw, tc = pin_tour(tmp, "one", five, scaled(games), 1)
                if order == 1:
                    rw, rc = ref(seed)
                r["t"][lang].append((n / tw) / (scaled(games) / rw))
                r["c"][lang].append((tc / n) / (rc / scaled(games)))
                print("  one table of %d, %s: referee %.2f s (CPU %.2f s), "
                      "tournament %.2f s (CPU %.2f s)%s; load %.2f"
                      % (n, lang, rw, rc, tw, tc,
                         ", tournament first" if order else "", l0))
        # more tables than slots: the first run times the pace as it
        # plays (no second start of its bots), against one referee per
        # table
        py6 = [BOTS["Python"] % i for i in range(1, 7)]
        l0 = load()
        rc = 0.0
        for k, tb in enumerate(itertools.combinations(range(6), 5)):
            log = os.path.join(tmp, "six.jsonl")
            _, _, c = referee("horserace", [py6[i] for i in tb],
                              scaled(100), seed=k + 1, log=log,
                              extra=("-o", "races=1", "--time-hello",
                                     "600000"))
            for f in glob.glob(log + "*"):
                os.unlink(f)
            rc += c
        n, tw, tc = pin_tour(tmp, "six", py6, scaled(100), 1)
        r["c6"].append((tc / n) / (rc / (6 * scaled(100))))
        print("  6 tables of %d, Python, -j 1: referees CPU %.2f s, "
              "tournament %.2f s (CPU %.2f s); load %.2f"
              % (scaled(100), rc, tw, tc, l0))
    print("  -j 2 / -j 1 by default, short C horserace (floats at -j 1): %s x"
          % med(r["j"]))
    print("  -j 2 / -j 1 by default, short C nyse (pinned at both): %s x"
          % med(r["jn"]))
    for lang in ("C", "Python"):
        print("  one table / one referee, %s: games/s %s x; CPU per game %s x"
              % (lang, med(r["t"][lang]), med(r["c"][lang])))
    print("  6 tables at -j 1 / one referee per table, Python: CPU per game "
          "%s x" % med(r["c6"]))


def schedules(tmp):
    print("\n== tournament schedule: tables per second; load %.2f" % load())
    ex = json.load(open("tournaments/examples/horserace.json"))
    bots30 = [{"name": "b%d" % i, "command": "bin/random"}
              for i in range(30)]
    cases = []
    for tables in (1000, 100000, 1000000):
        cases.append(("5 bots, 4 seats, balanced",
                      dict(ex, schedule="balanced", tables=tables,
                           duplicate=False)))
    for tables in (1000, 100000, 1000000):
        cases.append(("30 bots, 6 seats, balanced",
                      {"game": "horserace", "seats": 6, "bots": bots30,
                       "tables": tables, "duplicate": False}))
    cases.append(("30 bots, 6 seats, every subset",
                  {"game": "horserace", "seats": 6, "bots": bots30,
                   "max_tables": 1000000, "duplicate": False}))
    for label, doc in cases:
        path = os.path.join(tmp, "sched.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        el, _, out, _ = run(["bin/tournament", "schedule", path])
        out = out.splitlines()
        n = int(out[0].split(": ")[2].split()[0])
        print("  %-32s %8d tables %7.2f s %10.0f tables/s   %s"
              % (label, n, el, n / el, out[1]))


def dist():
    print("\n== tournaments across machines (tests/bench_dist.sh); load %.2f"
          % load())
    sys.stdout.flush()
    subprocess.run(["sh", "tests/bench_dist.sh"], check=True)


def main():
    tmp = tempfile.mkdtemp(prefix="cardarena-bench.")
    try:
        t0 = time.monotonic()
        print("cardarena bench: %d CPUs, load %.2f %.2f %.2f at the start"
              % ((os.cpu_count() or 0,) + os.getloadavg()))
        only = os.environ.get("BENCH_ONLY", "")
        only = set(only.split(",")) if only else None
        for name, fn in (("engines", engines),
                         ("library", library),
                         ("mcts", lambda: mcts(tmp)),
                         ("referee", lambda: referee_ratios(tmp)),
                         ("first", lambda: first_game(tmp)),
                         ("sdk", sdks),
                         ("tournament", lambda: tournaments(tmp)),
                         ("pin", lambda: pins(tmp)),
                         ("schedule", lambda: schedules(tmp)),
                         ("dist", dist)):
            if only is None or name in only:
                fn()
        print("\nbench: %.0f s; load %.2f %.2f %.2f at the end"
              % ((time.monotonic() - t0,) + os.getloadavg()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
