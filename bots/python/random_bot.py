#!/usr/bin/env python3
"""A cardarena random bot in Python, standard library only.

Plays any game: for each request it picks a uniformly random entry of the
legal list (and a uniform amount when the entry is a range).  All a bot
needs is a JSON library: read one JSON object a line from stdin, answer
requests with one line on stdout.  See protocol.md.

usage: random_bot.py [--seed N]
"""
import json
import random
import sys


def main():
    seed = None
    args = sys.argv[1:]
    if args[:1] in (["-s"], ["--seed"]) and len(args) == 2:
        seed = int(args[1])
    elif args:
        sys.exit("usage: random_bot.py [--seed N]")
    rng = random.Random(seed)

    def send(obj):
        sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "random-py", "version": "1"})
        elif kind == "request":
            legal = msg["legal"]
            i = rng.randrange(len(legal))
            answer = {"id": msg["id"], "index": i}
            amount = legal[i].get("amount")
            if isinstance(amount, dict):
                answer["amount"] = rng.randint(amount["min"], amount["max"])
            send(answer)
        elif kind == "error":
            print("referee says:", msg.get("message"), file=sys.stderr)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
