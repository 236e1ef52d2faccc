#!/usr/bin/env python3
"""Bots for tests/integrity.bats: each MODE tests what the referee lets a
bot learn or keep.

usage: integrity.py MODE [ARG]

  memory    remembers every deal it has been dealt (horserace: the odds
            cards turned at the start, the same for a deal whatever the
            seat) and the winner of its first race; at each start it says
            on stderr "game G: seen" (it knows how the race ends: it bets
            on the horse it remembers) or "game G: new".  Otherwise it
            plays the first legal entry.
  stateful  its moves depend on every game it has seen: it keeps a hash of
            every view, legal list and result it was sent (not the timing)
            and picks the legal entry and the amount that hash names.
  raise1    always bids the lowest amount a ranged entry allows (in a
            Calcutta auction: raises by 1), else plays the first entry.
  raw FILE  answers the first request with the bytes of FILE (one line, as
            is, any bytes; ID stands for the request's id), then plays
            the first legal entry.
"""
import hashlib
import json
import sys

out = sys.stdout.buffer


def send(obj):
    out.write(json.dumps(obj).encode() + b"\n")
    out.flush()


def lowest(legal, k):
    """The answer naming entry k, with the lowest amount of a range."""
    entry = legal[k]
    ans = {"index": k}
    if isinstance(entry, dict) and isinstance(entry.get("amount"), dict):
        ans["amount"] = entry["amount"]["min"]
    return ans


def learn(memory, deal, events):
    """Remembers the winner of the deal's first race, once seen."""
    for e in events:
        if e.get("type") == "race_end" and memory.get(deal) is None:
            memory[deal] = e["order"][0]


def main():
    mode = sys.argv[1]
    raw = open(sys.argv[2], "rb").read() if mode == "raw" else None
    memory = {}         # deal fingerprint -> winning suit (or None)
    current = None
    state = hashlib.sha256()
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "integrity-" + mode})
        elif kind == "start":
            if mode == "memory":
                current = json.dumps(msg["view"].get("odds_cards"))
                seen = current in memory
                sys.stderr.write("game %d: %s\n" % (msg["game"],
                                 "seen" if seen else "new"))
                sys.stderr.flush()
                memory.setdefault(current, None)
            state.update(json.dumps(msg["view"], sort_keys=True).encode())
        elif kind == "request":
            legal = msg["legal"]
            state.update(json.dumps([msg["view"], legal, msg["events"]],
                                    sort_keys=True).encode())
            k = 0
            h = int.from_bytes(state.digest()[:8], "big")
            if mode == "stateful":
                k = h % len(legal)
            elif mode == "raise1":
                k = next((i for i, e in enumerate(legal)
                          if isinstance(e, dict) and
                          isinstance(e.get("amount"), dict)), 0)
            elif mode == "memory":
                learn(memory, current, msg["events"])
                if memory.get(current):
                    # it knows the winner: a win bet on that horse
                    k = next((i for i, e in enumerate(legal)
                              if isinstance(e, dict) and
                              e.get("kind") == "win" and
                              e.get("suits") == [memory[current]]), 0)
            ans = lowest(legal, k)
            if mode == "stateful" and "amount" in ans:
                rng = legal[k]["amount"]
                ans["amount"] = rng["min"] + (h >> 32) % (rng["max"] -
                                                         rng["min"] + 1)
            ans["id"] = msg["id"]
            if raw is not None:
                out.write(raw.rstrip(b"\n").replace(
                    b"ID", str(msg["id"]).encode()) + b"\n")
                out.flush()
                raw = None
                continue
            send(ans)
        elif kind == "end":
            state.update(json.dumps([msg["places"], msg["scores"]]).encode())
            if mode == "memory":
                learn(memory, current, msg.get("events", []))
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
