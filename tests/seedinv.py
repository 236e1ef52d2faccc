"""Inverts seed_derive (referee/engine/rng.c: splitmix64 twice, a bijection for
each sub-stream i), as anyone who reads a published log could.
usage: python3 tests/seedinv.py JOURNAL SEED
Reads the games of a tournament journal (table, deal, game seed), recovers
each table's seed from its games' seeds (both candidates for the bit the
deal seed's mask drops), checks that all deals of a table agree on it (so
the inversion is right), and prints "tables T, recovered R, master M":
M counts the tables whose recovered seed, inverted once more, gives the
tournament's seed (0 when table seeds are one-way)."""
import json, sys

M64 = (1 << 64) - 1
GAMMA = 0x9e3779b97f4a7c15
STEP = 0xd1b54a32d192ed03


def unxorshift(z, k):
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & M64


def unmix(z):
    z = unxorshift(z, 31)
    z = (z * pow(0x94d049bb133111eb, -1, 1 << 64)) & M64
    z = unxorshift(z, 27)
    z = (z * pow(0xbf58476d1ce4e5b9, -1, 1 << 64)) & M64
    return unxorshift(z, 30)


def underive(out, i):
    """The master seeds m with seed_derive(m, i) == out."""
    return ((unmix(out) - 2 * GAMMA) & M64) ^ ((i * STEP) & M64)


master = int(sys.argv[2])
cands = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "table" not in d:
        continue
    s = int(d["seed"])
    c = {underive(s, d["deal"]), underive(s | 1 << 63, d["deal"])}
    t = d["table"]
    cands[t] = cands[t] & c if t in cands else c
recovered = {t: c for t, c in cands.items() if len(c) == 1}
hits = sum(1 for t, c in recovered.items()
           if any(underive(x, t) == master for x in c))
print("tables %d, recovered %d, master %d" % (len(cands), len(recovered),
                                               hits))
