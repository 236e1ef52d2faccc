#!/usr/bin/env python3
"""A greedy bot for every cardarena game, on the Python SDK (cardarena.py).

One short heuristic per game, each reading only the request (the view and
the legal list), so every decision can be checked on its own:

horserace  estimate each horse's chance p of winning by playing the race
           out many times from the stock left (view.stock); bet on the win
           bet of best positive value p * k - (1 - p) (odds k), staked by
           the Kelly fraction (p (k + 1) - 1) / k of our chips, else
           "done".  As the dealer setting odds: a little under the fair
           odds (1 - p) / p.  In a Calcutta auction: bid while the price is
           below the ace's expected share of the pot.
stocks     per decision, the entry that gains most: a price card moves a
           company by (new - old) x (our shares - the others' average), a
           buy is worth its shares while the company has room to rise,
           sell what a face card on top or a price of 2 or less may crash;
           never discard; then end the turn.
speculation  a face-down card is worth the pool times the chance it beats
           the highest face-up card (trumps above it among the unseen
           cards); a face-up card the pool times its chance to survive the
           face-down cards still out.  Bid the minimum while it is below
           80% of the value, else drop; sell the face-up card for at least
           the pool (keep the ace of trumps); turn up cards, pass when
           holding the highest.
nyse       take the colour whose chip gains most: its value after the move
           plus what the move adds to the chips of it we hold (a crash
           loses them); speculate a marker where we hold more than the
           others; invest when no take is good; give plain chips first.
daifugo    shed weak cards first, keep jokers and 2s (3s in a revolution)
           to win a trick late, lead the combination that sheds the most.

Seeded by --seed N (the horserace simulations draw from it).

usage: greedy_bot.py [--seed N]
"""
import cardarena

SUITS = "SHDC"
FINISH = 8          # steps a horse needs to win
SIMULATIONS = 400   # races played out per estimate
RANKS = "A23456789TJQK"


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


def find(legal, **keys):
    """The index of the first legal entry with these key values, or None."""
    for i, e in enumerate(legal):
        if all(e.get(k) == v for k, v in keys.items()):
            return i
    return None


def best(scored):
    """The index of the best (score, index) pair; the first on ties."""
    return max(scored, key=lambda p: (p[0], -p[1]))[1]


class GreedyBot(cardarena.Bot):
    """A sensible heuristic for each of the five games."""

    name = "greedy-py"
    _chances = (None, None)

    def chances(self, view):
        """win_chances() of the view's stock, kept for the rest of the race."""
        stock = view["stock"]
        key = (view.get("race"), tuple(stock["suits"]), stock.get("jokers", 0))
        if self._chances[0] != key:
            self._chances = (key, win_chances(stock["suits"],
                                              stock.get("jokers", 0),
                                              self.rng))
        return self._chances[1]

    def on_start(self, msg):
        """A new game: forget the last race's estimate."""
        self._chances = (None, None)

    def choose(self, request):
        """Dispatches on the game."""
        play = getattr(self, "play_" + str(self.game), None)
        if play is None:
            return self.random(request)
        return play(request)

    def random(self, request):
        """A uniformly random legal entry (and amount)."""
        index, amount = request.random_choice()
        return index if amount is None else (index, amount)

    # horserace

    def play_horserace(self, request):
        """Kelly-staked win bets; fair-minus odds; Calcutta by value."""
        view, legal = request.view, request.legal
        phase = view.get("phase")
        if phase == "odds":
            return self.horserace_odds(request)
        if phase == "auction":
            return self.horserace_bid(request)
        done = find(legal, type="done")
        if done is None:
            return self.random(request)
        if view.get("my_bets"):
            return done
        p = self.chances(view)
        odds = view["odds"]
        chips = view["chips"][request["seat"]]
        scored = []
        for i, e in enumerate(legal):
            if e.get("type") != "bet" or e.get("kind") != "win":
                continue
            s = SUITS.index(e["suits"][0])
            ev = p[s] * odds[s] - (1 - p[s])
            if ev > 0:
                scored.append((ev, i))
        if not scored:
            return done
        i = best(scored)
        s = SUITS.index(legal[i]["suits"][0])
        kelly = (p[s] * (odds[s] + 1) - 1) / odds[s]
        lo, hi = request.amount_range(i)
        return i, max(lo, min(hi, int(kelly * chips)))

    def horserace_odds(self, request):
        """The dealer's odds: 80% of the fair odds, within the range."""
        view = request.view
        e = request.legal[0]
        p = self.chances(view)
        s = SUITS.index(e["suit"])
        fair = (1 - p[s]) / max(p[s], 1e-3)
        lo, hi = request.amount_range(0)
        return 0, max(lo, min(hi, int(0.8 * fair)))

    def horserace_bid(self, request):
        """A Calcutta bid at the minimum while under the ace's value."""
        view, legal = request.view, request.legal
        bid = find(legal, type="bid")
        stop = find(legal, type="pass")
        if bid is None:
            return stop if stop is not None else 0
        p = self.chances(view)
        s = SUITS.index(view["auction"]["suit"])
        lo, _ = request.amount_range(bid)
        # the pot grows by the price of each ace; half a share for second
        pot = view.get("pot", 0) + 4 * lo
        if lo < 0.8 * pot * min(1.0, 1.5 * p[s]) or stop is None:
            return bid, lo
        return stop

    # stocks

    def play_stocks(self, request):
        """The entry of best immediate gain; end when nothing gains."""
        view, legal = request.view, request.legal
        me = request["seat"]
        seats = view["seats"]
        comps = {c["suit"]: c for c in view["companies"]}
        others = [s for i, s in enumerate(seats) if i != me]

        def mine(suit):
            return seats[me]["shares"].get(suit, 0)

        def theirs(suit):
            if not others:
                return 0.0
            return sum(s["shares"].get(suit, 0) for s in others) / len(others)

        scored = []
        for i, e in enumerate(legal):
            t = e.get("type")
            card = e.get("card")
            suit = card[1] if card else None
            c = comps.get(suit)
            if t == "end":
                g = 0.0
            elif t == "price":
                old = c["price"]
                g = (e["value"] - old) * (mine(suit) - theirs(suit))
            elif t == "buy":
                room = 0 if (c["face_on_top"] or c["price"] <= 2) else 1
                g = e["shares"] * 0.5 * room if \
                    e["cost"] <= seats[me]["money"] else -1
            elif t == "sell":
                risky = c["face_on_top"] or c["price"] <= 2
                g = e["proceeds"] * 0.3 if risky else -1
            else:
                g = -1.0
            scored.append((g, i))
        return best(scored)

    # speculation

    def unseen_above(self, view, card):
        """The unseen cards that beat card, and the unseen cards."""
        trump = view["trump"]
        seen = set(view.get("discards", []))
        if view.get("high"):
            seen.add(view["high"])
        unseen = [r + s for r in RANKS for s in SUITS if r + s not in seen]
        order = "23456789TJQKA"

        def beats(a, b):
            if b is None:
                return a[1] == trump
            if a[1] != trump:
                return False
            return b[1] != trump or order.index(a[0]) > order.index(b[0])
        return sum(1 for c in unseen if beats(c, card)), len(unseen)

    def play_speculation(self, request):
        """Value-based bids and sales; turn cards up, pass when high."""
        view, legal = request.view, request.legal
        phase = view.get("phase")
        pool = view.get("pool", 0)
        high = view.get("high")
        if phase in ("trump", "found"):
            keep = find(legal, type="keep")
            sell = find(legal, type="sell_up")
            card = legal[sell]["card"] if sell is not None else None
            if sell is None or (card and card[0] == "A" and
                                card[1] == view["trump"]):
                return keep
            lo, hi = request.amount_range(sell)
            return sell, max(lo, min(hi, pool))
        if phase == "auction":
            a = view["auction"]
            bid = find(legal, type="bid")
            drop = find(legal, type="drop")
            if bid is None:
                return drop
            above, unseen = self.unseen_above(view, high)
            if a.get("item") == "face_up":
                down = sum(p["face_down"] for p in view["players"])
                card_above, _ = self.unseen_above(view, a.get("card"))
                q = card_above / max(unseen, 1)
                value = pool * (1 - q) ** down
            else:
                value = pool * len(a.get("positions", [])) * \
                    above / max(unseen, 1)
            lo, _ = request.amount_range(bid)
            if lo <= 0.8 * value or drop is None:
                return bid, lo
            return drop
        p = find(legal, type="pass")
        if p is not None:
            return p
        t = find(legal, type="turn")
        if t is not None:
            return t
        return 0

    # nyse

    def play_nyse(self, request):
        """Greedy takes, speculation where we hold more, plain gifts."""
        view, legal = request.view, request.legal
        me = request["seat"]
        board = view["board"]
        markers = view["markers"]
        hold = view["holdings"]
        colours = hold[me].get("colours", {})

        def value(pos):
            return 0 if pos > 11 else board[pos // 2]

        def pos(colour):
            m = markers[colour]
            return 12 if m["crashed"] else "ABCDEFGHIJKL".index(m["position"])

        def others(colour):
            n = [h.get("colours", {}).get(colour, 0)
                 for i, h in enumerate(hold) if i != me]
            return sum(n) / len(n) if n else 0.0

        scored = []
        for i, e in enumerate(legal):
            a = e.get("type")
            if a == "take":
                c = e["colour"]
                p = pos(c)
                if p >= 12:
                    g = -1.0
                else:
                    g = value(p + 1) + colours.get(c, 0) * \
                        (value(p + 1) - value(p))
            elif a == "speculate":
                c = e["marker"]
                p = pos(c)
                g = (colours.get(c, 0) - others(c)) * \
                    (value(p + 2) - value(p)) - 0.5
            elif a == "invest":
                g = 1.0
            elif a == "give":
                g = 1.0 if e.get("mark") == "plain" else 0.0
            elif a == "none":
                g = 0.0
            else:
                g = -2.0        # discard, swap
            scored.append((g, i))
        return best(scored)

    # daifugo

    def play_daifugo(self, request):
        """Weak cards first, power cards kept for the end."""
        view, legal = request.view, request.legal
        order = "3456789TJQKA2"
        reversed_ = view.get("order") == "reversed"

        def strength(rank):
            if rank is None:
                return len(order)
            i = order.index(rank)
            return len(order) - 1 - i if reversed_ else i

        def power(cards):
            top = "3" if reversed_ else "2"
            return sum(1 for c in cards if c == "JK" or c[0] == top)

        def weight(cards):
            return sum(len(order) if c == "JK" else order.index(c[0])
                       for c in cards)

        def rank_of(e):
            if e.get("kind") in ("joker", "joker_pair"):
                return strength(None)
            return strength(e.get("rank"))

        entries = list(enumerate(legal))
        if view.get("phase") == "exchange":
            return best([(-weight(e.get("cards", [])), i) for i, e in entries])
        plays = [(i, e) for i, e in entries if e.get("type") == "play"]
        pas = find(legal, action="pass")
        if not plays:
            return pas if pas is not None else 0
        quiet = [(i, e) for i, e in plays if power(e["cards"]) == 0]
        if pas is None:
            pool = quiet or plays
            return best([(len(e["cards"]) * 100 - rank_of(e), i)
                         for i, e in pool])
        if quiet:
            return best([(-rank_of(e), i) for i, e in quiet])
        if len(view.get("hand", [])) > 4:
            return pas
        return best([(-rank_of(e), i) for i, e in plays])


if __name__ == "__main__":
    GreedyBot().main()
