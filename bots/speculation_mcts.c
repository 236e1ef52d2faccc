/*
 * The search bot of speculation: information-set MCTS over the engines'
 * library (bots/lib/mcts.c); --ms per move (default 100) or --iterations
 * N, deterministic for a --seed.  Its tree holds its own moves only; the
 * others' moves, in the tree's part and in the playouts alike, are those
 * of the heuristic bot (lib/speculation_heur.c) read from the state's
 * public part (lib/speculation_search.c: the model and the values): a
 * face-down card is worth the pool times the chance it beats the highest
 * card and then survives the face-down cards still to be turned, the
 * highest card the chance none of them beats it; it bids the minimum
 * while that is at most 4/5 of its worth (keeping two antes), offers each
 * card at a minimum one above its worth, then turns up a card.  The bot's
 * own playout moves are the same model's.  In its tree a card is offered
 * at a few minimums around the pool, that worth and each other player's
 * most as the model has it; a bid is the minimum or a drop; as every
 * face-down card is unseen (even by its holder) one position stands for
 * all.  No card's fate is drawn to value a move: a walk stops at the next
 * turn (or once a card is turned up), each player scored by the counters
 * won or lost since the root plus the pool times its chance to take it if
 * nobody traded again (spec_chances(): 256 draws of the unseen cards, the
 * same for every state of one search, so two moves differ by what they do,
 * not by the draws); in the game's last deal by its place.  Most moves are
 * so valued alike in every iteration and the search stops once its move
 * is settled (mcts.h's settle).  The heuristic bot is its adviser: a move
 * of its own is played only when it beats the heuristic's by --confidence
 * standard errors (played on the means alone, --confidence 0, it lost
 * 128 Elo to the heuristic at 300 iterations).
 */
#include "lib/mcts.h"
#include "lib/speculation_heur.h"
#include "lib/speculation_search.h"
#include "games/speculation.h"

static int	add_amount(int32_t *, int, int, const struct ca_legal *,
		    double);
static int	expand(const struct ca_game *, int, const struct ca_legal *,
		    int32_t *, int);

/* Adds amount to a[] (once, within [lo, hi]); the new count. */
static int
add_amount(int32_t *a, int k, int max, const struct ca_legal *l, double x)
{
	int32_t v = (int32_t)(x + 0.5);
	int i;

	if (v < l->lo)
		v = l->lo;
	if (v > l->hi)
		v = l->hi;
	for (i = 0; i < k; i++)
		if (a[i] == v)
			return k;
	if (k < max)
		a[k++] = v;
	return k;
}

/*
 * The tree's candidates: a bid at the minimum (or a drop); an offer of
 * one card (the first position: they are all unseen) or of the highest
 * card at a few minimums around the pool and the model's worth; a turn of
 * the first position; no lots.
 */
static int
expand(const struct ca_game *g, int p, const struct ca_legal *l,
    int32_t *amounts, int max)
{
	static const double share[] = { 0.25, 0.5, 0.75, 1, 1.5 };
	const struct sp *st = ca_state(g);
	struct spec_seen s;
	uint64_t arg = SP_ARG(l->code), left;
	double v;
	int k = 0, i, q, up = 0;

	switch (SP_KIND(l->code)) {
	case AK_BID:
		amounts[0] = l->lo;
		return 1;
	case AK_LOT:
		return 0;
	case AK_TURN:
		/* Position 0 stands for every card. */
		return (st->flags & SF_STACKED) || arg == 0 ? -1 : 0;
	case AK_SELL:
		if (__builtin_popcountll(arg) != 1)
			return 0;
		left = ~st->offered & (((uint64_t)1 << st->nfd[p]) - 1);
		if ((st->flags & SF_STACKED) == 0 && arg != (left & -left))
			return 0;	/* an earlier position stands for it */
		spec_read_seen(st, &s);
		v = spec_worth_own(st, &s, p);
		break;
	case AK_SELL_UP:
		spec_read_seen(st, &s);
		v = spec_worth_high(&s, spec_against(st, p), st->pool);
		up = 1;
		break;
	default:
		return -1;
	}
	k = add_amount(amounts, k, max, l, (int)v + 1);	/* the model's */
	/* Each other player's most, as the model has it: a sale at it. */
	for (q = 0; q < st->n; q++)
		if (q != p && speculation_in(st, q) &&
		    spec_model_want(st, &s, q, up, 1) >= l->lo)
			k = add_amount(amounts, k, max, l,
			    spec_model_want(st, &s, q, up, 1));
	for (i = 0; i < (int)(sizeof share / sizeof share[0]); i++)
		k = add_amount(amounts, k, max, l, share[i] * st->pool);
	return k;
}

int
main(int argc, char **argv)
{
	static const struct mcts_bot bot = {
		.name = "speculation_mcts",
		.game = "speculation",
		.policy = spec_policy,
		.cutoff = spec_cutoff,
		.expand = expand,
		.advice = spec_heur_choose,
		.own_tree = 1,
		.cut_own = 1,
		.settle = 3
	};

	return mcts_main(argc, argv, &bot);
}
