#!/usr/bin/env python3
"""A bot that notes its life in a file: one line "ID start CPUS" when it
says hello (CPUS: the CPUs it may run on, as 0,1), then "ID GAME" at each
game's start (ID: its pid and a random token, so a reused pid is not taken
for the same process); it plays the first legal action.  With GATE, it
waits after noting its start, while the file GATE exists, before it
answers the hello (a test holds a tournament running for as long as it
needs, without a timing guess).  With --hold=HOLD, it waits at the start
of each game but its first while the file HOLD exists (a test holds a run
after its first game until the runner has seen it).
Usage: pidrec.py FILE [GATE] [--hold=HOLD]."""
import json
import os
import sys
import time

hold = [a[len("--hold="):] for a in sys.argv if a.startswith("--hold=")]
sys.argv = [a for a in sys.argv if not a.startswith("--hold=")]
rec = sys.argv[1]
games = 0
me = "%d-%s" % (os.getpid(), os.urandom(4).hex())


def note(what):
    with open(rec, "a") as f:
        f.write("%s %s\n" % (me, what))


for line in sys.stdin:
    m = json.loads(line)
    t = m.get("type")
    if t == "hello":
        note("start " + ",".join(str(c) for c in
                                 sorted(os.sched_getaffinity(0))))
        while len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
            time.sleep(0.05)
        print(json.dumps({"type": "hello", "name": "pidrec", "version": "1"}),
              flush=True)
    elif t == "start":
        note(m["game"])
        games += 1
        while games > 1 and hold and os.path.exists(hold[0]):
            time.sleep(0.05)
    elif t == "request":
        print(json.dumps({"id": m["id"], "index": 0}), flush=True)
    elif t == "bye":
        break
