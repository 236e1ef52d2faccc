#!/usr/bin/env python3
"""A search bot for every cardarena game, in Python on the engines'
library (cardarena_lib.py) and the SDK (cardarena.py): information-set
MCTS (single observer).  Each iteration draws a full game consistent with
the bot's view (Game.determinize), walks one tree shared by all draws (a
child is an action: player, code, amount; UCB1 over the children legal in
this draw, counted by availability), adds one node, plays out at random to
the end in C (Game.playout) and backs up each player's reward (1 for the
first place .. 0 for the last).  It answers the most visited action.

usage: mcts_bot.py [--ms N | --iterations N] [--seed N]
  --ms N          time per move in milliseconds (default 100)
  --iterations N  iterations per move instead: the same moves for a seed
"""
import math
import sys
import time

import cardarena
import cardarena_lib as ca

EXPLORE = 0.7
AMOUNTS = 4     # amounts tried in a ranged entry: lo, lo + 1, 3, 7


class Node:
    """A tree node: the action leading to it and its statistics."""
    __slots__ = ("player", "code", "amount", "index", "children", "visits",
                 "avail", "reward")

    def __init__(self, player, code, amount, index=-1):
        self.player, self.code, self.amount = player, code, amount
        self.index = index          # a root child's legal index
        self.children = {}          # (player, code, amount) -> Node
        self.visits = self.avail = 0
        self.reward = 0.0


def candidates(game, player):
    """player's actions: (code, amount, legal index), a ranged entry's
    amounts its minimum and 1, 3, 7 above it."""
    out = []
    for i, e in enumerate(game.legal(player)):
        if not e.ranged:
            out.append((e.code, 0, i))
            continue
        for k in range(AMOUNTS):
            if e.lo + 2 ** k - 1 > e.hi:
                break
            out.append((e.code, e.lo + 2 ** k - 1, i))
    return out


def rewards(game):
    """Each player's reward of a finished game, 1 (first) .. 0 (last)."""
    places, _ = game.result()
    n = len(places)
    return [(n - p) / (n - 1) if n > 1 else 1.0 for p in places]


def iterate(root, draw, seat, view, rng):
    """One iteration from seat's view on the game draw."""
    # seeded first: the draw is this game's, not the last search's
    draw.seed(rng.getrandbits(63))
    draw.determinize(seat, view)
    node, path = root, []
    while not draw.over():
        dec = draw.deciders()
        player = seat if node is root else dec[0]
        cands = candidates(draw, player)
        untried, best, pick = [], -1.0, None
        for code, amount, index in cands:
            child = node.children.get((player, code, amount))
            if child is None:
                untried.append((code, amount, index))
                continue
            child.avail += 1
            u = child.reward / child.visits + EXPLORE * math.sqrt(
                math.log(child.avail) / child.visits)
            if u > best:
                best, pick = u, child
        if untried:
            code, amount, index = rng.choice(untried)
            pick = Node(player, code, amount, index)
            node.children[(player, code, amount)] = pick
        draw.apply(player, pick.code, pick.amount)
        path.append(pick)
        node = pick
        if untried:
            break
    draw.playout()
    r = rewards(draw)
    for n in path:
        n.visits += 1
        n.reward += r[n.player]


class MctsBot(cardarena.Bot):
    name = "mcts-py"
    wants = ["view", "legal"]

    def __init__(self):
        super().__init__()
        self.ms, self.iterations, self.draw = 100, 0, None

    def usage(self):
        return ("usage: %s [--ms N | --iterations N] [--seed N]"
                % sys.argv[0].rsplit("/", 1)[-1])

    def parse_args(self, args):
        rest, i = [], 0
        while i < len(args):
            if args[i] in ("--ms", "--iterations") and i + 1 < len(args):
                try:
                    value = int(args[i + 1])
                except ValueError:
                    value = 0
                if value < 1:
                    print("%s: %s %s: not a positive number"
                          % (self.name, args[i], args[i + 1]),
                          file=sys.stderr)
                    sys.exit(2)
                if args[i] == "--ms":
                    self.ms = value
                else:
                    self.iterations = value
                i += 2
                continue
            rest.append(args[i])
            i += 1
        super().parse_args(rest)

    def on_hello(self, msg):
        self.draw = ca.Game(msg["game"], msg["players"],
                            msg.get("options"))

    def choose(self, request):
        legal = request["legal"]
        if len(legal) == 1:
            index, amount = request.random_choice()
            return index if amount is None else (index, amount)
        view = ca.View(request["view"])
        seat = request.get("seat", self.seat)
        root = Node(seat, 0, 0)
        budget = self.ms / 1000.0
        left = request.get("time_left_ms")
        if left is not None:
            budget = min(budget, left / 3000.0)
        start, it = time.monotonic(), 0
        while (it < self.iterations if self.iterations else
               it == 0 or time.monotonic() - start < budget):
            iterate(root, self.draw, seat, view, self.rng)
            it += 1
        best = max(root.children.values(), key=lambda n: n.visits)
        request.say("%d iterations, %d visits" % (it, best.visits))
        if legal[best.index].get("amount") is not None:
            return best.index, best.amount
        return best.index


if __name__ == "__main__":
    MctsBot().main()
