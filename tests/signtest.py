#!/usr/bin/env python3
"""The one-sided sign test of a bot against random bots, for the tests.

Reads the referee's --results lines of a --duplicate match in which bot 0
is the bot under test; a unit is one deal's duplicate set (every seat
once), scored by bot 0's pairwise score over its games (1 a better place
than an opponent, 1/2 an equal one).  A unit above 1/2 is a win, below a
loss; the p-value is the chance of at least that many wins among the
decided units if wins and losses were equally likely.

usage: signtest.py SEATS < results   prints "won W lost L of N p=P"
"""
import json
import math
import sys


def main():
    """Prints the units won and lost and the sign test's p-value."""
    seats = int(sys.argv[1])
    units = {}
    for line in sys.stdin:
        r = json.loads(line)
        pl = r["places"]
        s = sum(1.0 if pl[0] < pl[b] else 0.5 if pl[0] == pl[b] else 0.0
                for b in range(1, seats))
        units.setdefault(r["game"] // seats, []).append(s / (seats - 1))
    won = sum(1 for u in units.values() if sum(u) / len(u) > 0.5)
    lost = sum(1 for u in units.values() if sum(u) / len(u) < 0.5)
    n = won + lost
    p = sum(math.comb(n, k) for k in range(won, n + 1)) / 2 ** n
    print("won %d lost %d of %d p=%.3g" % (won, lost, len(units), p))


if __name__ == "__main__":
    main()
