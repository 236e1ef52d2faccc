"""Writes made-up job journals for the lines of a `tournament plan`, each as
`tournament job` would write it: the header (the plan line inside), then
one line per game of the job in jgame_json's form: the plan's bots by seat
rotation, a 63-bit seed per deal, places with a tie now and then, whole
scores, a rare fault, a log per referee run of 200 games (their logs/
directory is made, empty).  The same plan gives the same bytes on every
machine (a 64-bit LCG, not Python's random).

With --odd, job 1 also gets lines off the canonical form (a real score, an
escaped name, an extra key, no deal, a string seed, faults without "limit"),
a damaged line, a game written twice, a game of another job, and a torn
last line: what merge must read as the tree-parsing reader did.

usage: python3 tests/mkjobs.py PLAN DIR [--odd]"""
import json
import os
import sys

state = 1


def draw(n):
    """A number in [0, n) from the LCG."""
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
    return (state >> 33) % n


def line(d):
    return json.dumps(d, separators=(",", ":")) + "\n"


def game(job, names, g, seed, lo):
    k = len(names)
    places = list(range(1, k + 1))
    for i in range(k - 1, 0, -1):
        j = draw(i + 1)
        places[i], places[j] = places[j], places[i]
    if draw(20) == 0:
        a, b = draw(k), draw(k)
        places[a] = places[b] = min(places[a], places[b])
    faults = []
    for s in range(k):
        f = {"timeout": 0, "crash": 0, "illegal": 0, "limit": 0}
        r = draw(1000)
        if r < 2:
            f.update(timeout=1, hello_timeout=1)
        elif r < 3:
            f.update(limit=1, limit_cpu=1)
        faults.append(f)
    return {"table": job["table"], "game": g, "deal": g // k, "seed": seed,
            "bots": [names[(s - g) % k] for s in range(k)],
            "places": places, "scores": [draw(301) - 50 for p in places],
            "faults": faults, "capped": draw(1000) == 0,
            "log": "logs/t%05d.g%d.d%03d.jsonl" % (job["table"], lo,
                                                   (g - lo) // 200 * 200 // k)}


def odd(f, job, names, lo, hi):
    """The lines off the canonical form, damaged, doubled and torn."""
    g = [game(job, names, x, 7, lo) for x in range(lo, lo + 6)]
    g[0]["scores"][0] = 1.5
    g[1]["seed"] = "12"
    del g[2]["deal"]
    g[3]["extra"] = 1
    g[4]["faults"] = [{"timeout": 0, "crash": 0, "illegal": 0}] * len(names)
    n0 = g[5]["bots"][0]
    f.write(line(g[5]).replace('"bots":["' + n0[0],
                               '"bots":["\\u%04x' % ord(n0[0]), 1))
    for d in g[:5]:
        f.write(line(d))
    f.write(line(g[0])[:40] + "\n")
    f.write(line(g[1]))
    other = dict(g[2], game=hi)
    f.write(line(other))
    f.write(line(g[3])[:-10])


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--odd"]):
        sys.exit(__doc__)
    plan, out = sys.argv[1], sys.argv[2]
    os.makedirs(out + "/logs", exist_ok=True)
    for text in open(plan):
        job = json.loads(text)
        header = dict(job.pop("header"))
        header["plan"] = job
        names = [b["name"] for b in job["tournament"]["bots"]]
        k = len(names)
        lo, hi = job["games"]
        with open("%s/job-%06d.jsonl" % (out, job["job"]), "w") as f:
            f.write(line(header))
            first = lo + (6 if sys.argv[3:] and job["job"] == 1 else 0)
            for g in range(first, hi):
                if g % k == 0 or g == first:
                    seed = draw(2 ** 31) << 32 | draw(2 ** 31)
                f.write(line(game(job, names, g, seed, lo)))
            if sys.argv[3:] and job["job"] == 1:
                odd(f, job, names, lo, hi)


main()
