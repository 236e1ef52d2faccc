#!/usr/bin/env python3
"""A bot that notes its life in a file: one line "ID start CPUS" when it
says hello (CPUS: the CPUs it may run on, as 0,1), then "ID GAME" at each
game's start (ID: its pid and a random token, so a reused pid is not taken
for the same process); it plays the first legal action.  With GATE, it
waits after noting its start, while the file GATE exists, before it
answers the hello (a test holds a tournament running for as long as it
needs, without a timing guess).
Usage: pidrec.py FILE [GATE]."""
import json
import os
import sys
import time

rec = sys.argv[1]
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
    elif t == "request":
        print(json.dumps({"id": m["id"], "index": 0}), flush=True)
    elif t == "bye":
        break
