/*
 * The search bot of stocks: information-set MCTS over the engines'
 * library (bots/lib/mcts.c); --ms per move (default 100) or --iterations
 * N, deterministic for a --seed.  Its playouts are greedy most of the
 * time, as the players it meets are: a price card is worth the move of
 * its company times the player's shares less the others' average, a buy
 * its shares while the company has room to rise, a sale only under a face
 * card or a price of 2 or less, a discard never; else a uniform move.
 */
#include "lib/mcts.h"
#include "games/stocks.h"

#define GREEDY	8	/* in 10 playout moves */

#ifndef HORIZON
#define HORIZON	4	/* player turns a playout plays past the root's */
#endif
#ifndef SCALE
#define SCALE	100.0	/* wealth ahead of the best other worth +0.25 */
#endif

static int	policy(const struct ca_game *, int, const struct ca_legal *,
		    int, struct rng *, int32_t *);
static int	cutoff(const struct ca_game *, const struct ca_game *,
		    double *);

/* The playout's worth of entry code to player p (in quarter points). */
static int
worth(const struct stocks *st, int p, int64_t code)
{
	int c, s, q, others = 0, mine, top;

	if (code == ST_END)
		return 0;
	c = ST_CARD(code);
	s = CARD_SUIT(c);
	mine = st->shares[p][s];
	for (q = 0; q < st->players; q++)
		if (q != p)
			others += st->shares[q][s];
	top = st->pile[s][st->npile[s] - 1];
	switch (ST_KIND(code)) {
	case K_PRICE:
		return 4 * (CARD_RANK(c) + 1 - st->value[s]) * (4 * mine -
		    4 * others / (st->players - 1)) / 4;
	case K_ZERO:
		return 4 * -st->value[s] * (mine - others / (st->players - 1));
	case K_BUY:
		return st->value[s] <= 10 - stocks_up[s] ?
		    2 * stocks_card_shares(c) : -1;
	case K_SELL:
		return stocks_is_face(top) || st->value[s] <= 2 ?
		    2 * stocks_card_shares(c) : -8;
	default:
		return -40;
	}
}

/* A playout move: mostly the entry worth most, else uniform. */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct stocks *st = ca_state(g);
	int i, s, best = -1, bs = 0;

	*amount = 0;
	if (rng_below(r, 10) >= GREEDY)
		return (int)rng_below(r, (uint32_t)n);
	for (i = 0; i < n; i++) {
		s = 4 * worth(st, p, l[i].code) + (int)rng_below(r, 4);
		if (best < 0 || s > bs) {
			best = i;
			bs = s;
		}
	}
	return best;
}

/*
 * Ends a playout HORIZON turns after the root's or at the game's end:
 * half the place by wealth, half the wealth against the best other's.
 */
static int
cutoff(const struct ca_game *root, const struct ca_game *g, double *reward)
{
	const struct stocks *r = ca_state(root), *st = ca_state(g);
	double w[ST_MAXP], best, x;
	int p, q;

	if (!st->over && st->turns < r->turns + HORIZON)
		return 0;
	for (p = 0; p < st->players; p++)
		w[p] = stocks_wealth(st, p);
	mcts_rank(st->players, w, reward);
	for (p = 0; p < st->players; p++) {
		for (best = -1e9, q = 0; q < st->players; q++)
			if (q != p && w[q] > best)
				best = w[q];
		x = 0.5 + (w[p] - best) / (4 * SCALE);
		x = x < 0 ? 0 : x > 1 ? 1 : x;
		reward[p] = (reward[p] + x) / 2;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	static const struct mcts_bot bot = {
		.name = "stocks_mcts",
		.game = "stocks",
		.policy = policy,
		.cutoff = cutoff
	};

	return mcts_main(argc, argv, &bot);
}
