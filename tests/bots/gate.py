#!/usr/bin/env python3
"""A bot that holds its table open while a file exists (tests/ladder.bats).

usage: gate.py FILE

It plays the first legal entry of every request (the smallest amount of a
ranged one); from the second game of a match on, while FILE exists, it
waits before answering, so a test can look at a table in play for as long
as it needs without a timing guess.
"""
import json
import os
import sys
import time


def main():
    gate = sys.argv[1]
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            out = {"type": "hello", "name": "gate"}
        elif kind == "request":
            while msg.get("game", 0) >= 1 and os.path.exists(gate):
                time.sleep(0.05)
            legal = msg["legal"][0]
            out = {"id": msg["id"], "index": 0}
            if isinstance(legal.get("amount"), dict):
                out["amount"] = legal["amount"]["min"]
        elif kind == "bye":
            break
        else:
            continue
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
