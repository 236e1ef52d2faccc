/*
 * Speculation's search values (speculation_search.h): the model of the
 * players bin/speculation_mcts plays for the others and for itself in the
 * playouts, and the values of the positions its walks stop at.
 *
 * The model is the heuristic bot's (speculation_heur.c) read from the
 * state's public part: a face-down card is worth the pool times the
 * chance it beats the highest card and then survives the face-down cards
 * still to be turned, the highest card the chance none of them beats it;
 * it bids the minimum while that is at most SPEC_BID_SHARE of its worth
 * (keeping two antes), offers each card at a minimum one above its worth,
 * then turns up a card.
 *
 * No card's fate is drawn to value a move: a walk stops at the next turn
 * (or once a card is turned up), each player scored by the counters won
 * or lost since the root plus the pool times its chance to take it if
 * nobody traded again (spec_chances(): SPEC_DRAWS draws of the unseen
 * cards, the same for every state of one search, so two moves differ by
 * what they do, not by the draws); in the game's last deal by its place.
 * The draws are this file's state, drawn anew for each search's root.
 */
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "speculation_heur.h"
#include "speculation_search.h"

static int	by_strength(const void *, const void *);
static double	worth_card(const struct spec_seen *, int, int32_t);
static void	last_places(const struct sp *, double *);

/* The draws of this search: orders of the 52 cards, the same for every
 * state the search values (common random numbers: two moves' values
 * differ by the moves, not by the draws), new for each search. */
static int8_t	draw[SPEC_DRAWS][52];
static struct sp draws_root;	/* the root they were drawn for */
static double	root_win[MAX_PLAYERS];	/* its chances (spec_chances()) */

/* Sorts strengths, the strongest first. */
static int
by_strength(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/* Reads the unseen cards that beat the highest face-up card from st. */
void
spec_read_seen(const struct sp *st, struct spec_seen *s)
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
worth_card(const struct spec_seen *s, int g, int32_t pool)
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
double
spec_worth_high(const struct spec_seen *s, int g, int32_t pool)
{
	double p = 1.0;
	int k, u = s->unseen, b = s->nabove;

	for (k = 0; k < g && k < u && p > 0; k++)
		p *= (double)(u - b - k) / (double)(u - k);
	return p > 0 ? p * pool : 0;
}

/* The face-down cards to be turned against who's cards (the widow's
 * too). */
int
spec_against(const struct sp *st, int who)
{
	int p, g = st->nwidow;

	for (p = 0; p < st->n; p++)
		if (p != who)
			g += st->nfd[p];
	return g;
}

/* p's worth of one of its own face-down cards: as a card, or, for the
 * holder of the highest, what it would cost turned against that card. */
double
spec_worth_own(const struct sp *st, const struct spec_seen *s, int p)
{
	double v, loss;
	int g = spec_against(st, p);

	v = worth_card(s, g, st->pool);
	if (st->holder == p && s->unseen > 0) {
		loss = (double)s->nabove / s->unseen * spec_worth_high(s, g,
		    st->pool);
		if (loss > v)
			v = loss;
	}
	return v;
}

/* What the model bidder p would pay at most for the lot on sale (the
 * face-up card when up, else k face-down cards of seller): its worth to
 * p, times SPEC_BID_SHARE, keeping two antes; below 1 if nothing. */
int
spec_model_want(const struct sp *st, const struct spec_seen *s, int p, int up,
    int k)
{
	double value;
	int want;

	if (up)
		value = spec_worth_high(s, spec_against(st, p), st->pool);
	else {
		want = spec_against(st, p) - k;
		value = k * worth_card(s, want > 0 ? want : 0, st->pool);
	}
	want = (int)(SPEC_BID_SHARE * value);
	if (want > st->counters[p] - 2 * st->ante)
		want = st->counters[p] - 2 * st->ante;
	return want;
}

/* The model's move (speculation_heur.c's, from the state's public part). */
int
spec_policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct sp *st = ca_state(g);
	struct spec_seen s;
	double value;
	int i, want, first = -1, kind;

	spec_read_seen(st, &s);
	*amount = 0;
	switch (st->phase) {
	case SP_AUCTION:
		want = spec_model_want(st, &s, p, st->auc_up,
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
		value = spec_worth_high(&s, spec_against(st, p), st->pool);
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
	value = spec_worth_own(st, &s, p);
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

/* Draws this search's orders of the cards, from the root's bytes (the
 * search's first draw: so from the bot's seed in --iterations mode). */
void
spec_new_draws(const struct sp *root)
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
	for (d = 0; d < SPEC_DRAWS; d++) {
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
	spec_chances(root, root_win, NULL);
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
void
spec_chances(const struct sp *st, double *win, int8_t *who)
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
	for (d = 0; d < SPEC_DRAWS; d++) {
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
		win[p] /= SPEC_DRAWS;
}

/*
 * Each player's reward in the game's last deal: its place (1 first .. 0
 * last, mcts_rank) once the pool is paid, over the draws of spec_chances().
 */
static void
last_places(const struct sp *st, double *reward)
{
	static int8_t who[SPEC_DRAWS];
	double win[MAX_PLAYERS], score[MAX_PLAYERS], r[MAX_PLAYERS];
	int d, p;

	spec_chances(st, win, who);
	for (p = 0; p < st->n; p++)
		reward[p] = 0;
	for (d = 0; d < SPEC_DRAWS; d++) {
		for (p = 0; p < st->n; p++)
			score[p] = st->counters[p] + (who[d] == p ? st->pool :
			    who[d] < 0 ? (double)st->pool / st->n : 0) -
			    (st->out[p] ? 1e9 - st->out[p] : 0);
		mcts_rank(st->n, score, r);
		for (p = 0; p < st->n; p++)
			reward[p] += r[p] / SPEC_DRAWS;
	}
}

/*
 * Ends a playout (and, cut_own, the tree's walk) at the first place after
 * the root where a player is on turn, or once a card was turned up or the
 * root's deal is over.  In the game's last deal each player's reward is its
 * place, the pool going as the draws of spec_chances() have it (last_places());
 * before, 1/2 plus its gain since the root, counters and its chance of the
 * pool times the pool, over twice the root's pool (so rarely beyond 0 or
 * 1).  The tree so compares moves by the counters they bring and the
 * chances they leave, the model (spec_policy()) making the others' moves: no
 * card's fate is drawn for it unless a card is turned.
 */
int
spec_cutoff(const struct ca_game *root, const struct ca_game *g, double *reward)
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
		spec_new_draws(r);
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
		spec_chances(st, win, NULL);
	scale = 2.0 * (r->pool > 1 ? r->pool : 1);
	for (p = 0; p < st->n; p++) {
		base = r->counters[p] + root_win[p] * r->pool;
		x = 0.5 + (st->counters[p] + win[p] * st->pool - base) /
		    scale;
		reward[p] = x < 0 ? 0 : x > 1 ? 1 : x;
	}
	return 1;
}

