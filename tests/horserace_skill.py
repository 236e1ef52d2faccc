#!/usr/bin/env python3
"""How far skill can show in horserace at its default options.

A bettor's only decision is its split of at most 20 chips over the four
horses once the odds cards are laid (the dealer decides nothing).  For
random layouts (the odds cards laid as the rules lay them), each horse's
chance to win is estimated by simulating the race, and from that: how
often some bet has a positive expected value, the expected gain of the
best bettor (everything on the bet of best expected value, nothing when
none is positive: what bin/horserace_bot does from 20,000 simulated
races), of a bettor putting 20 chips on a horse at random, and the spread
of a race's result.  Then the Elo a bettor with the best bettor's edge
can expect over one that bets nothing, in a game of PLAYERS races (each
player bets in PLAYERS - 1 of them), from the normal approximation.

usage: horserace_skill.py [-n LAYOUTS] [-s SIMULATIONS] [--seed N]
"""
import argparse
import math
import random

ODDS = [1, 2, 3, 5, 10]     # by the number of a suit's odds cards
FINISH = 8
LIMIT = 20
PLAYERS = 5


def layout(rng):
    """The odds cards' counts per suit, re-laid while a suit has 5."""
    deck = [s for s in range(4) for _ in range(12)]
    while True:
        rng.shuffle(deck)
        counts = [deck[:7].count(s) for s in range(4)]
        if max(counts) <= 4:
            return counts


def chances(counts, sims, rng):
    """Each horse's chance to win, from sims simulated races."""
    stock = [s for s in range(4) for _ in range(12 - counts[s])]
    wins = [0] * 4
    for _ in range(sims):
        rng.shuffle(stock)
        steps = [0] * 4
        for c in stock:
            steps[c] += 1
            if steps[c] == FINISH:
                wins[c] += 1
                break
    return [w / sims for w in wins]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=300, help="layouts (300)")
    ap.add_argument("-s", type=int, default=4000,
                    help="simulated races a layout (4000)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    best, rand, var_best, positive = [], [], [], 0
    for _ in range(a.n):
        counts = layout(rng)
        p = chances(counts, a.s, rng)
        odds = [ODDS[c] for c in counts]
        ev = [p[s] * odds[s] - (1 - p[s]) for s in range(4)]
        s = max(range(4), key=lambda k: ev[k])
        rand.append(LIMIT * sum(ev) / 4)
        if ev[s] > 0:
            positive += 1
            best.append(LIMIT * ev[s])
            # the result's variance: +odds*LIMIT or -LIMIT
            m = LIMIT * ev[s]
            var_best.append(p[s] * (LIMIT * odds[s] - m) ** 2 +
                            (1 - p[s]) * (-LIMIT - m) ** 2)
        else:
            best.append(0.0)
            var_best.append(0.0)
    n = a.n
    e_best = sum(best) / n
    e_rand = sum(rand) / n
    sd_race = math.sqrt(sum(var_best) / n)
    races = PLAYERS - 1
    # best bettor against one that never bets, over a game's races
    z = races * e_best / (sd_race * math.sqrt(races))
    score = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    elo = 400 * math.log10(score / (1 - score))
    print("layouts %d, %d simulated races each" % (n, a.s))
    print("a bet of positive expected value exists in %.1f%% of races"
          % (100.0 * positive / n))
    print("expected gain a race: best bettor %+.2f chips, 20 chips on a "
          "random horse %+.2f" % (e_best, e_rand))
    print("spread of the best bettor's race result: %.1f chips (SD)"
          % sd_race)
    print("over a game (%d races as a bettor): best bettor %+.1f chips "
          "+- %.1f; against a bettor that never bets: score %.3f, "
          "Elo %+.0f" % (races, races * e_best, sd_race * math.sqrt(races),
                         score, elo))
    print("the best bettor's edge over bin/horserace_bot, which bets that "
          "bet from 20,000 simulated races: 0 in expectation")


if __name__ == "__main__":
    main()
