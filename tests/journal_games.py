"""Prints the games of a tournament journal, one canonical line each (keys
sorted, the "log" path left out: it only says where the log is), sorted:
two journals of the same games print the same lines.
usage: python3 tests/journal_games.py JOURNAL"""
import json, sys

out = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "table" in d:
        d.pop("log", None)
        out.append(json.dumps(d, sort_keys=True))
print("\n".join(sorted(out)))
