/*
 * The search bot of speculation: information-set MCTS over the engines'
 * library (bots/lib/mcts.c); --ms per move (default 100) or --iterations
 * N, deterministic for a --seed.  Its tree holds its own moves only; the
 * others' moves, in the tree's part and in the playouts alike, are those
 * of the heuristic bot (speculation_bot.c) read from the state's public
 * part: a face-down card is worth the pool times the chance it beats the
 * highest card and then survives the face-down cards still to be turned,
 * the highest card the chance none of them beats it; it bids the minimum
 * while that is at most 4/5 of its worth (keeping two antes), offers each
 * card at a minimum one above its worth, then turns up a card.  The bot's
 * own playout moves are the same model's.  In its tree a card is offered
 * at a few minimums around the pool and that worth, a bid is the minimum
 * or a drop, and as every face-down card is unseen (even by its holder)
 * one position stands for all.  A playout stops when the deal under way
 * ends, each player scored by the counters won or lost since the root
 * (the place, at the game's end).  The heuristic bot is its adviser: a
 * pool's winner is a lottery, so the search's means are noisy, and a move
 * of its own is played only when it beats the heuristic's by --confidence
 * standard errors (played on the means alone, --confidence 0, it lost
 * 128 Elo to the heuristic at 300 iterations).
 */
#include <stdlib.h>

#include "lib/mcts.h"
#include "games/speculation.h"

/* The heuristic bot, as the search's adviser (its choose). */
int	speculation_bot_main(int, char **);
#define main	speculation_bot_main
#include "speculation_bot.c"
#undef main

/* What a player knows of the cards this deal: the unseen ones stronger
 * than the highest face-up card, strongest first. */
struct seen {
	int	unseen;			/* cards not seen this deal */
	int	nabove;
	int	above[52];		/* their strengths */
};

static void	read_seen(const struct sp *, struct seen *);
static double	worth_card(const struct seen *, int, int32_t);
static double	worth_high(const struct seen *, int, int32_t);
static int	against(const struct sp *, int);
static int	policy(const struct ca_game *, int, const struct ca_legal *,
		    int, struct rng *, int32_t *);
static int	expand(const struct ca_game *, int, const struct ca_legal *,
		    int32_t *, int);
static int	cutoff(const struct ca_game *, const struct ca_game *,
		    double *);

/* Sorts strengths, the strongest first. */
static int
by_strength(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/* Reads the unseen cards that beat the highest face-up card from st. */
static void
read_seen(const struct sp *st, struct seen *s)
{
	char seen[52] = { 0 };
	int c, hs;

	for (c = 0; c < st->ndisc; c++)
		if (st->disc[c] >= 0 && st->disc[c] < 52)
			seen[st->disc[c]] = 1;
	hs = -1;
	if (st->high >= 0 && st->high < 52) {
		seen[st->high] = 1;
		hs = speculation_strength(st, st->high);
	}
	s->unseen = s->nabove = 0;
	for (c = 0; c < 52; c++) {
		if (seen[c])
			continue;
		s->unseen++;
		if (speculation_strength(st, c) > hs)
			s->above[s->nabove++] = speculation_strength(st, c);
	}
	qsort(s->above, (size_t)s->nabove, sizeof s->above[0], by_strength);
}

/*
 * The worth of one unseen face-down card with g others still to be turned:
 * for each unseen card it may be that beats the highest, the chance none
 * of the g beats it, times the pool, averaged over the unseen cards.
 */
static double
worth_card(const struct seen *s, int g, int32_t pool)
{
	double sum = 0, p;
	int i, k, u = s->unseen - 1;

	for (i = 0; i < s->nabove; i++) {
		/* i unseen cards beat the i-th strongest. */
		for (p = 1.0, k = 0; k < g && k < u && p > 0; k++)
			p *= (double)(u - i - k) / (double)(u - k);
		if (p > 0)
			sum += p;
	}
	return s->unseen > 0 ? sum / s->unseen * pool : 0;
}

/* The worth of the highest face-up card with g face-down cards still to be
 * turned against it. */
static double
worth_high(const struct seen *s, int g, int32_t pool)
{
	double p = 1.0;
	int k, u = s->unseen, b = s->nabove;

	for (k = 0; k < g && k < u && p > 0; k++)
		p *= (double)(u - b - k) / (double)(u - k);
	return p > 0 ? p * pool : 0;
}

/* The face-down cards to be turned against who's cards (the widow's
 * too). */
static int
against(const struct sp *st, int who)
{
	int p, g = st->nwidow;

	for (p = 0; p < st->n; p++)
		if (p != who)
			g += st->nfd[p];
	return g;
}

/* p's worth of one of its own face-down cards: as a card, or, for the
 * holder of the highest, what it would cost turned against that card. */
static double
worth_own(const struct sp *st, const struct seen *s, int p)
{
	double v, loss;
	int g = against(st, p);

	v = worth_card(s, g, st->pool);
	if (st->holder == p && s->unseen > 0) {
		loss = (double)s->nabove / s->unseen * worth_high(s, g,
		    st->pool);
		if (loss > v)
			v = loss;
	}
	return v;
}

/* The model's move (speculation_bot's, from the state's public part). */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct sp *st = ca_state(g);
	struct seen s;
	double value;
	int i, k, want, first = -1, kind;

	read_seen(st, &s);
	*amount = 0;
	switch (st->phase) {
	case SP_AUCTION:
		if (st->auc_up)
			value = worth_high(&s, against(st, p), st->pool);
		else {
			k = __builtin_popcountll(st->auc_lot);
			want = against(st, p) - k;
			value = k * worth_card(&s, want > 0 ? want : 0,
			    st->pool);
		}
		want = (int)(BID_SHARE * value);
		if (want > st->counters[p] - 2 * st->ante)
			want = st->counters[p] - 2 * st->ante;
		for (i = 0; i < n; i++)
			if (SP_KIND(l[i].code) == AK_BID && l[i].lo <= want) {
				*amount = l[i].lo;
				return i;
			}
		for (i = 0; i < n; i++)
			if (SP_KIND(l[i].code) == AK_DROP)
				return i;
		return 0;
	case SP_TRUMP:
	case SP_NEWHIGH:
		value = worth_high(&s, against(st, p), st->pool);
		for (i = 0; i < n; i++)
			if (SP_KIND(l[i].code) == AK_SELL_UP &&
			    (int)value + 1 <= l[i].hi && (int)value + 1 >=
			    l[i].lo) {
				*amount = (int)value + 1;
				return i;
			}
		for (i = 0; i < n; i++)
			if (SP_KIND(l[i].code) == AK_KEEP)
				return i;
		return 0;
	default:
		break;
	}
	value = worth_own(st, &s, p);
	for (i = 0; i < n; i++) {
		kind = SP_KIND(l[i].code);
		if (kind == AK_SELL && st->lot != 0) {
			*amount = l[i].lo;
			return i;
		}
		if (kind == AK_SELL && __builtin_popcountll(SP_ARG(l[i].code))
		    == 1 && (int)value + 1 <= l[i].hi && (int)value + 1 >=
		    l[i].lo) {
			*amount = (int)value + 1;
			return i;
		}
		if (first < 0 && (kind == AK_TURN || kind == AK_PASS))
			first = i;
	}
	for (i = 0; i < n; i++)
		if (SP_KIND(l[i].code) == AK_TURN)
			return i;
	return first >= 0 ? first : (int)rng_below(r, (uint32_t)n);
}

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
	struct seen s;
	uint64_t arg = SP_ARG(l->code), left;
	double v;
	int k = 0, i;

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
		read_seen(st, &s);
		v = worth_own(st, &s, p);
		break;
	case AK_SELL_UP:
		read_seen(st, &s);
		v = worth_high(&s, against(st, p), st->pool);
		break;
	default:
		return -1;
	}
	k = add_amount(amounts, k, max, l, (int)v + 1);	/* the model's */
	for (i = 0; i < (int)(sizeof share / sizeof share[0]); i++)
		k = add_amount(amounts, k, max, l, share[i] * st->pool);
	return k;
}

/*
 * Ends a playout once the deal of the root is over: each player's reward
 * is the counters won or lost since the root, 1/2 for none and 1/4 more
 * for every pool's worth (at the game's end, the place).
 */
static int
cutoff(const struct ca_game *root, const struct ca_game *g, double *reward)
{
	const struct sp *r = ca_state(root), *st = ca_state(g);
	int places[MAX_PLAYERS], p;
	double x, scale;

	if (st->deal == r->deal && st->phase != SP_OVER)
		return 0;
	if (st->phase == SP_OVER && ca_result(g, places, NULL) == 0) {
		for (p = 0; p < st->n; p++)
			reward[p] = (double)(st->n - places[p]) / (st->n - 1);
		return 1;
	}
	scale = 4.0 * (r->pool > 1 ? r->pool : 1);
	for (p = 0; p < st->n; p++) {
		x = 0.5 + (st->counters[p] - r->counters[p]) / scale;
		reward[p] = x < 0 ? 0 : x > 1 ? 1 : x;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	static const struct mcts_bot bot = {
		.name = "speculation_mcts",
		.game = "speculation",
		.policy = policy,
		.cutoff = cutoff,
		.expand = expand,
		.advice = choose,
		.own_tree = 1
	};

	return mcts_main(argc, argv, &bot);
}
