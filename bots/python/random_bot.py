#!/usr/bin/env python3
"""A cardarena random bot in Python, on the SDK (cardarena.py).

Plays any game: for each request it picks a uniformly random entry of the
legal list (and a uniform amount when the entry is a range), from a
generator seeded by --seed N.  See protocol.md.

usage: random_bot.py [--seed N]
"""
import cardarena


def choose(request):
    """A uniformly random legal entry (and amount)."""
    index, amount = request.random_choice()
    return index if amount is None else (index, amount)


if __name__ == "__main__":
    cardarena.run(choose, name="random-py")
