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
 * at a few minimums around the pool, that worth and each other player's
 * most as the model has it; a bid is the minimum or a drop; as every
 * face-down card is unseen (even by its holder) one position stands for
 * all.  No card's fate is drawn to value a move: a walk stops at the next
 * turn (or once a card is turned up), each player scored by the counters
 * won or lost since the root plus the pool times its chance to take it if
 * nobody traded again (chances(): 256 draws of the unseen cards, the same
 * for every state of one search, so two moves differ by what they do, not
 * by the draws); in the game's last deal by its place.  Most moves are so
 * valued alike in every iteration and the search stops once its move is
 * settled (mcts.h's settle).  The heuristic bot is its adviser: a move
 * of its own is played only when it beats the heuristic's by --confidence
 * standard errors (played on the means alone, --confidence 0, it lost
 * 128 Elo to the heuristic at 300 iterations).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/mcts.h"
#include "games/speculation.h"

/* The heuristic bot, as the search's adviser (its choose); a program
 * that includes this file to test its values renames main as it likes. */
int	speculation_bot_main(int, char **);
#pragma push_macro("main")
#undef main
#define main	speculation_bot_main
#include "speculation_bot.c"
#undef main
#pragma pop_macro("main")

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
static void	chances(const struct sp *, double *, int8_t *);
static void	new_draws(const struct sp *);

#define DRAWS	256	/* the draws of the unseen cards an equity takes */

/* The draws of this search: orders of the 52 cards, the same for every
 * state the search values (common random numbers: two moves' values
 * differ by the moves, not by the draws), new for each search. */
static int8_t	draw[DRAWS][52];
static struct sp draws_root;	/* the root they were drawn for */
static double	root_win[MAX_PLAYERS];	/* its chances (chances()) */

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

/* What the model bidder p would pay at most for the lot on sale (the
 * face-up card when up, else k face-down cards of seller): its worth to
 * p, times BID_SHARE, keeping two antes; below 1 if nothing. */
static int
model_want(const struct sp *st, const struct seen *s, int p, int up, int k)
{
	double value;
	int want;

	if (up)
		value = worth_high(s, against(st, p), st->pool);
	else {
		want = against(st, p) - k;
		value = k * worth_card(s, want > 0 ? want : 0, st->pool);
	}
	want = (int)(BID_SHARE * value);
	if (want > st->counters[p] - 2 * st->ante)
		want = st->counters[p] - 2 * st->ante;
	return want;
}

/* The model's move (speculation_bot's, from the state's public part). */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct sp *st = ca_state(g);
	struct seen s;
	double value;
	int i, want, first = -1, kind;

	read_seen(st, &s);
	*amount = 0;
	switch (st->phase) {
	case SP_AUCTION:
		want = model_want(st, &s, p, st->auc_up,
		    __builtin_popcountll(st->auc_lot));
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
		read_seen(st, &s);
		v = worth_own(st, &s, p);
		break;
	case AK_SELL_UP:
		read_seen(st, &s);
		v = worth_high(&s, against(st, p), st->pool);
		up = 1;
		break;
	default:
		return -1;
	}
	k = add_amount(amounts, k, max, l, (int)v + 1);	/* the model's */
	/* Each other player's most, as the model has it: a sale at it. */
	for (q = 0; q < st->n; q++)
		if (q != p && speculation_in(st, q) &&
		    model_want(st, &s, q, up, 1) >= l->lo)
			k = add_amount(amounts, k, max, l,
			    model_want(st, &s, q, up, 1));
	for (i = 0; i < (int)(sizeof share / sizeof share[0]); i++)
		k = add_amount(amounts, k, max, l, share[i] * st->pool);
	return k;
}

/* Draws this search's orders of the cards, from the root's bytes (the
 * search's first draw: so from the bot's seed in --iterations mode). */
static void
new_draws(const struct sp *root)
{
	const unsigned char *b = (const unsigned char *)root;
	uint64_t h = 1469598103934665603ULL;
	struct rng r;
	size_t i;
	int d, c, j;
	int8_t t;

	for (i = 0; i < sizeof *root; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	rng_seed(&r, h);
	for (d = 0; d < DRAWS; d++) {
		for (c = 0; c < 52; c++)
			draw[d][c] = (int8_t)c;
		for (c = 51; c > 0; c--) {
			j = (int)rng_below(&r, (uint32_t)c + 1);
			t = draw[d][c];
			draw[d][c] = draw[d][j];
			draw[d][j] = t;
		}
	}
	memcpy(&draws_root, root, sizeof draws_root);
	chances(root, root_win, NULL);
}

/*
 * Each player's chance to take st's pool if nobody trades again: over the
 * draws, the unseen cards dealt to the face-down hands (and the widow),
 * which are turned in turn order, the holder of the highest card passing,
 * until no other player has a face-down card or the unbeatable card is
 * up; a widow card above the last highest carries the pool over (a share
 * each of the players still in).  From the public part of st alone; the
 * taker of each draw in who[] (-1: carried over) unless who is NULL.
 */
static void
chances(const struct sp *st, double *win, int8_t *who)
{
	char seen[52] = { 0 };
	int8_t hand[MAX_PLAYERS + 1][SP_FD_MAX];
	int left[MAX_PLAYERS + 1], next[MAX_PLAYERS];
	int d, c, i, p, k, high, holder, at, top, nin = 0, in[MAX_PLAYERS];

	for (p = 0; p < st->n; p++) {
		win[p] = 0;
		in[p] = speculation_in(st, p);
		nin += in[p];
	}
	for (i = 0; i < st->ndisc; i++)
		if (st->disc[i] >= 0 && st->disc[i] < 52)
			seen[st->disc[i]] = 1;
	if (st->high >= 0 && st->high < 52)
		seen[st->high] = 1;
	for (top = 0, c = 1; c < 52; c++)	/* the unbeatable card */
		if (speculation_strength(st, c) >
		    speculation_strength(st, top))
			top = c;
	for (p = 0; p < st->n; p++)
		left[p] = st->nfd[p];
	left[st->n] = st->nwidow;	/* the widow: hand[st->n] */
	for (d = 0; d < DRAWS; d++) {
		/* The unseen cards dealt in this draw's order. */
		for (c = 0, p = 0; p <= st->n; p++)
			for (k = 0; k < left[p] && c < 52; c++)
				if (!seen[draw[d][c]])
					hand[p][k++] = draw[d][c];
		memset(next, 0, sizeof next);
		high = st->high;
		holder = st->holder;
		at = st->phase == SP_TURN ? st->turn : st->turn + 1;
		while (high != top) {
			/* The next player with a card to turn. */
			for (i = 0; i < st->n; i++) {
				p = (at + i) % st->n;
				if (p != holder && in[p] && next[p] < left[p])
					break;
			}
			if (i == st->n)
				break;
			c = hand[p][next[p]++];
			if (speculation_beats(st, c, high)) {
				high = c;
				holder = p;
			}
			at = p + 1;
		}
		for (k = 0; k < left[st->n]; k++)
			if (speculation_beats(st, hand[st->n][k], high))
				break;
		if (k < left[st->n] || holder < 0 || holder >= st->n) {
			/* Carried over: a share each, as a guess. */
			for (p = 0; p < st->n; p++)
				win[p] += in[p] ? 1.0 / nin : 0;
			holder = -1;
		} else
			win[holder] += 1;
		if (who != NULL)
			who[d] = (int8_t)holder;
	}
	for (p = 0; p < st->n; p++)
		win[p] /= DRAWS;
}

/*
 * Each player's reward in the game's last deal: its place (1 first .. 0
 * last, mcts_rank) once the pool is paid, over the draws of chances().
 */
static void
last_places(const struct sp *st, double *reward)
{
	static int8_t who[DRAWS];
	double win[MAX_PLAYERS], score[MAX_PLAYERS], r[MAX_PLAYERS];
	int d, p;

	chances(st, win, who);
	for (p = 0; p < st->n; p++)
		reward[p] = 0;
	for (d = 0; d < DRAWS; d++) {
		for (p = 0; p < st->n; p++)
			score[p] = st->counters[p] + (who[d] == p ? st->pool :
			    who[d] < 0 ? (double)st->pool / st->n : 0) -
			    (st->out[p] ? 1e9 - st->out[p] : 0);
		mcts_rank(st->n, score, r);
		for (p = 0; p < st->n; p++)
			reward[p] += r[p] / DRAWS;
	}
}

/*
 * Ends a playout (and, cut_own, the tree's walk) at the first place after
 * the root where a player is on turn, or once a card was turned up or the
 * root's deal is over.  In the game's last deal each player's reward is its
 * place, the pool going as the draws of chances() have it (last_places());
 * before, 1/2 plus its gain since the root, counters and its chance of the
 * pool times the pool, over twice the root's pool (so rarely beyond 0 or
 * 1).  The tree so compares moves by the counters they bring and the
 * chances they leave, the model (policy()) making the others' moves: no
 * card's fate is drawn for it unless a card is turned.
 */
static int
cutoff(const struct ca_game *root, const struct ca_game *g, double *reward)
{
	const struct sp *r = ca_state(root), *st = ca_state(g);
	double win[MAX_PLAYERS], x, scale, base, score[MAX_PLAYERS];
	int p, fd = 0, rfd = 0;

	for (p = 0; p < st->n; p++) {
		fd += st->nfd[p];
		rfd += r->nfd[p];
	}
	if (st->deal == r->deal && st->phase != SP_OVER && fd == rfd &&
	    st->phase != SP_TURN)
		return 0;
	if (memcmp(&draws_root, r, sizeof *r) != 0)
		new_draws(r);
	if (st->phase == SP_OVER && r->deal == r->deals) {
		for (p = 0; p < st->n; p++)
			score[p] = st->counters[p] - (st->out[p] ?
			    1e9 - st->out[p] : 0);
		mcts_rank(st->n, score, reward);
		return 1;
	}
	if (r->deal == r->deals) {
		last_places(st, reward);
		return 1;
	}
	if (st->phase == SP_OVER)
		for (p = 0; p < st->n; p++)
			win[p] = 0;
	else
		chances(st, win, NULL);
	scale = 2.0 * (r->pool > 1 ? r->pool : 1);
	for (p = 0; p < st->n; p++) {
		base = r->counters[p] + root_win[p] * r->pool;
		x = 0.5 + (st->counters[p] + win[p] * st->pool - base) /
		    scale;
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
		.own_tree = 1,
		.cut_own = 1,
		.settle = 3
	};

	return mcts_main(argc, argv, &bot);
}
