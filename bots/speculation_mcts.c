/*
 * The search bot of speculation: information-set MCTS over the engines'
 * library (bots/lib/mcts.c); --ms per move (default 100) or --iterations
 * N, deterministic for a --seed.  Uniform playouts teach a search that
 * rivals overpay for any card (a random bid is a large one), so its
 * playouts are thrifty instead, as the players it meets are: a bid at the
 * minimum while that is at most a third of the pool, else a drop (never a
 * dearer bid, even in the playouts' random moves); keep a
 * card found, turn up a card rather than sell; a sale at half the pool.
 * A playout stops when the deal under way ends, scored by the counters
 * then held, half by place and half by their share of the most held (the
 * rest of the game is many deals away: noise).
 */
#include "lib/mcts.h"
#include "games/speculation.h"

#define GREEDY	9	/* in 10 playout moves */

static int	policy(const struct ca_game *, int, const struct ca_legal *,
		    int, struct rng *, int32_t *);
static int	cutoff(const struct ca_game *, const struct ca_game *,
		    double *);

/* The playout's preference for entry l (higher first), its amount set. */
static int
prefer(const struct sp *st, const struct ca_legal *l, int32_t *amount)
{
	int32_t half = st->pool / 2;

	*amount = l->ranged ? l->lo : 0;
	switch (SP_KIND(l->code)) {
	case AK_BID:
		return 3 * l->lo <= st->pool ? 4 : -1;
	case AK_KEEP:
		return 4;
	case AK_TURN:
		return 3;
	case AK_DROP:
	case AK_PASS:
		return 1;
	default:
		if (l->ranged)
			*amount = half < l->lo ? l->lo : half > l->hi ?
			    l->hi : half;
		return 0;
	}
}

/* A playout move: mostly the preferred entry, else uniform. */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct sp *st = ca_state(g);
	int32_t a;
	int i, s, best = -1, bs = 0, greedy;

	/* Now and then any entry but a dear bid, not the preferred. */
	greedy = rng_below(r, 10) < GREEDY;
	for (i = 0; i < n; i++) {
		s = prefer(st, &l[i], &a);
		if (s < 0)
			continue;
		s = greedy ? 4 * s + (int)rng_below(r, 4) :
		    (int)rng_below(r, 1024);
		if (best < 0 || s > bs) {
			best = i;
			bs = s;
			*amount = a;
		}
	}
	return best;
}

/* Ends a playout once the deal of the root is over: rank by counters. */
static int
cutoff(const struct ca_game *root, const struct ca_game *g, double *reward)
{
	const struct sp *r = ca_state(root), *st = ca_state(g);
	double scores[MAX_PLAYERS], most = 1;
	int p;

	if (st->deal == r->deal && st->phase != SP_OVER)
		return 0;
	for (p = 0; p < st->n; p++)
		if ((scores[p] = st->counters[p]) > most)
			most = scores[p];
	mcts_rank(st->n, scores, reward);
	/* Half the place, half the counters: a loss far behind is worse. */
	for (p = 0; p < st->n; p++)
		reward[p] = (reward[p] + scores[p] / most) / 2;
	return 1;
}

int
main(int argc, char **argv)
{
	return mcts_main(argc, argv, "speculation_mcts", "speculation",
	    policy, cutoff);
}
