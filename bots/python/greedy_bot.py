#!/usr/bin/env python3
"""A greedy horserace bot on the Python SDK (cardarena.py).

The heuristic, for the sealed bets of horserace: estimate each horse's
chance p of winning the race by playing the race out many times from the
stock it has left (view.stock: the cards of each suit still in the race
deck, and the joker), then look at the win bets on offer.  A win bet of 1
chip on a horse with odds k is worth p * k - (1 - p) chips on average;
take the best one if that is positive, staked by the Kelly fraction
(p * (k + 1) - 1) / k of our chips, at least 1 and at most what the entry
allows; otherwise, or once a bet is down this race, answer "done".

Everything else (the dealer's odds, Calcutta auctions, the other kinds of
bet, every other game) is played at random.  Seeded by --seed N.

usage: greedy_bot.py [--seed N]
"""
import cardarena

SUITS = "SHDC"
FINISH = 8          # steps a horse needs to win
SIMULATIONS = 400   # races played out per estimate


def win_chances(stock, jokers, rng, n=SIMULATIONS):
    """Estimated chance of each suit (S H D C) winning the race."""
    deck = [s for s in range(4) for _ in range(stock[s])] + [4] * jokers
    wins = [0, 0, 0, 0]
    for _ in range(n):
        rng.shuffle(deck)
        steps = [0, 0, 0, 0]
        for card in deck:
            if card == 4:
                lead = max(steps)
                steps = [x + 1 if x < lead else x for x in steps]
                continue
            steps[card] += 1
            if steps[card] == FINISH:
                wins[card] += 1
                break
    return [w / n for w in wins]


class GreedyBot(cardarena.Bot):
    """Kelly-staked win bets on horserace; random elsewhere."""

    name = "greedy-py"

    def choose(self, request):
        """The best positive-value win bet, else done; random elsewhere."""
        view = request.view
        if self.game != "horserace" or view.get("phase") != "bet":
            return self.random(request)
        legal = request.legal
        done = next((i for i, e in enumerate(legal)
                     if e.get("type") == "done"), None)
        if done is None:
            return self.random(request)
        if view.get("my_bets"):
            return done
        stock = view["stock"]
        p = win_chances(stock["suits"], stock.get("jokers", 0), self.rng)
        odds = view["odds"]
        chips = view["chips"][request["seat"]]
        best, value = None, 0.0
        for i, e in enumerate(legal):
            if e.get("type") != "bet" or e.get("kind") != "win":
                continue
            s = SUITS.index(e["suits"][0])
            ev = p[s] * odds[s] - (1 - p[s])
            if ev > value:
                best, value = i, ev
        if best is None:
            return done
        s = SUITS.index(legal[best]["suits"][0])
        kelly = (p[s] * (odds[s] + 1) - 1) / odds[s]
        lo, hi = request.amount_range(best)
        return best, max(lo, min(hi, int(kelly * chips)))

    def random(self, request):
        """A uniformly random legal entry (and amount)."""
        index, amount = request.random_choice()
        return index if amount is None else (index, amount)


if __name__ == "__main__":
    GreedyBot().main()
