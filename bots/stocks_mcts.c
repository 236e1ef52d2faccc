/*
 * The search bot of stocks: information-set MCTS over the engines'
 * library (bots/lib/mcts.c); --ms per move (default 100) or --iterations
 * N, deterministic for a --seed.  The heuristic (lib/stocks_heur.c, its
 * model filled from the state instead of a view) is both its model of
 * the others and its adviser: the tree holds the bot's own moves only,
 * every other move (the others', and its own past the tree) is the
 * planner's, and a playout stops HORIZON player turns after the root's
 * (one round at four players: its turn and the others' answers), scored
 * half by the place in wealth and half by the wealth against the best
 * other's.  It plays the heuristic's move unless the search finds one
 * better by --confidence standard errors.  A uniform playout (--uniform)
 * fills a turn at random, selling everything and buying nothing useful:
 * the planner is what makes the search worth its time.
 */
#include <string.h>

#include "lib/mcts.h"
#include "lib/stocks_heur.h"
#include "games/stocks.h"

#ifndef HORIZON
#define HORIZON	4	/* player turns a playout plays past the root's */
#endif
#ifndef OWN_TREE
#define OWN_TREE	1
#endif
#ifndef SCALE
#define SCALE	100.0	/* wealth ahead of the best other worth +0.25 */
#endif

static void	model_of(const struct stocks *, int, struct stk_model *);
static int64_t	step_code(const struct stk_model *, const struct stk_plan *);
static int64_t	planned(const struct stocks *, int);
static int	policy(const struct ca_game *, int, const struct ca_legal *,
		    int, struct rng *, int32_t *);
static int	cutoff(const struct ca_game *, const struct ca_game *,
		    double *);

/* Fills the heuristic's model of player p's seat from the state (what
 * its view would say). */
static void
model_of(const struct stocks *st, int p, struct stk_model *m)
{
	int s, c, q, i, bought[52];

	memset(m, 0, sizeof *m);
	m->n = st->players;
	m->me = p;
	for (s = 0; s < STK_NCOMP; s++) {
		m->price[s] = st->value[s];
		m->face_top[s] = stocks_is_face(st->pile[s][st->npile[s] -
		    1]);
		m->bankrupt[s] = st->zero[s];
		m->up[s] = stocks_up[s];
		m->down[s] = stocks_down[s];
	}
	for (q = 0; q < st->players; q++)
		for (s = 0; s < STK_NCOMP; s++)
			m->shares[q][s] = st->shares[q][s];
	m->money = st->money[p];
	memset(bought, 0, sizeof bought);
	if (!st->sell_same && st->turn == p)
		for (i = 0; i < st->nbought; i++)
			bought[st->bought[i]]++;
	for (c = 0; c < 52; c++) {
		m->sellable_cards[c] = st->cert[p][c] - bought[c];
		if (m->sellable_cards[c] < 0)
			m->sellable_cards[c] = 0;
		m->sellable[stk_suit(c)] += m->sellable_cards[c] *
		    stk_shares(c);
	}
	for (i = 0; i < st->nhand[p] && m->nhand < STK_MAXHAND; i++)
		if (st->hand[p][i] < 52)
			m->hand[m->nhand++] = st->hand[p][i];
	m->trade = st->trade;
	m->pricing = st->price;
	m->buys = st->buys;
	m->prices = st->prices;
	m->discards = st->discards;
	for (i = 0; i < st->nstock; i++)
		if (IS_JOKER(st->stock[i]))
			m->jokers_in = 1;
}

/* The code of the plan's first step (stocks_heur.c's first_step, on
 * codes instead of the legal list). */
static int64_t
step_code(const struct stk_model *m, const struct stk_plan *pl)
{
	int s, c, k, trade_first = !pl->price_first;

	for (k = 0; k < 2; k++, trade_first = !trade_first) {
		if (trade_first && m->trade != STK_CLOSED) {
			for (s = 0; s < STK_NCOMP; s++)
				for (c = s * 13; pl->sell[s] && c < s * 13 + 13;
				    c++)
					if (m->sellable_cards[c] > 0)
						return ST_CODE(K_SELL, c);
			if (pl->nbuy > 0)
				return ST_CODE(K_BUY, pl->buy[0]);
		} else if (!trade_first && m->pricing != STK_CLOSED &&
		    pl->nplace > 0)
			return ST_CODE(pl->place[0].value == 0 &&
			    stk_is_face(pl->place[0].card) ? K_ZERO : K_PRICE,
			    pl->place[0].card);
	}
	return ST_END;
}

/*
 * The heuristic bot's move for player p in st (its choose, on the state):
 * the first step of the best plan of the turn, else a discard of a card
 * that promises nothing, else the end.
 */
static int64_t
planned(const struct stocks *st, int p)
{
	struct stk_model m;
	struct stk_plan best;
	int worst;

	model_of(st, p, &m);
	if (stk_decide(&m, &best, &worst))
		return step_code(&m, &best);
	return worst >= 0 ? ST_CODE(K_DISCARD, m.hand[worst]) : ST_END;
}

/* A playout move: the heuristic bot's (uniform if it is not legal). */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	int64_t code = planned(ca_state(g), p);
	int i;

	*amount = 0;
	for (i = 0; i < n; i++)
		if (l[i].code == code)
			return i;
	for (i = 0; i < n; i++)
		if (l[i].code == ST_END)
			return i;
	return (int)rng_below(r, (uint32_t)n);
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
		.cutoff = cutoff,
		.advice = stk_choose,
		.own_tree = OWN_TREE
	};

	return mcts_main(argc, argv, &bot);
}
