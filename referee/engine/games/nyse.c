/*
 * NYSE, Ben Stanley's ten-minute stock game for 1 to 10 players, as
 * rules/nyse.md states it: 44 chips in four colours with hidden marks, four
 * valuation markers walking a twelve-position board (default 1 2 3 4 5 2)
 * and crashing past L, turns of exactly one action (take a chip, use a
 * special chip acquired earlier, or discard from a pile), the end as soon
 * as the supply is empty, scoring with two tie-breaks, and solitaire with
 * forced specials and the swap with a pile.  The JSON codec is in
 * nyse_json.c.
 *
 * A compound turn is a sequence of decisions: an invest is the use of the
 * chip, then two takes; a swap is the active player's request, then the
 * target's choice of the chip it gives.  With open_holdings off the target
 * may answer "none": the swap chip is committed from the first request on,
 * so the active player asks again (NY_SWAPPING), never the same target for
 * the same colour this turn, until a target gives a chip or no request is
 * left (the chip then leaves the game, nothing exchanged).
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "nyse.h"

static int	nyse_resolve(struct opts *, char *, size_t);
static void	nyse_init(void *, const struct opts *, const void *,
		    struct rng *, struct events *);
static uint32_t	nyse_deciders(const void *);
static int	nyse_legal(const void *, int, struct legal *, int);
static int	nyse_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action nyse_default_action(const void *, int);
static int	nyse_over(const void *);
static void	nyse_result(const void *, int *, double *);
static int	nyse_check(const void *, char *, size_t);
static void	nyse_perturb(void *, int, struct rng *);
static int	records_redeal(struct nyse *, int,
		    uint8_t [NY_MAXP][NY_COLOURS][NY_MARKS], struct rng *);
static int	nones_check(const struct nyse *, char *, size_t);

static int	allowed(const struct nyse *, int, int64_t);
static int	usable(const struct nyse *, int, int, int);
static int	can_give(const struct nyse *, int, int, int, int);
static int	swap_ok(const struct nyse *, int, int, int, int, int, int);
static int	list_uses(const struct nyse *, int, int, int, struct legal *,
		    int, int);
static int	add(struct legal *, int, int, int64_t);
static int	move_marker(struct nyse *, int, int);
static void	take(struct nyse *, int, int, struct events *);
static void	discard(struct nyse *, int, int, struct events *);
static void	use_special(struct nyse *, int, int, int);
static void	swap_pile(struct nyse *, int, int64_t, struct events *);
static void	swap_answer(struct nyse *, int, struct events *);
static void	swap_refused(struct nyse *, struct events *);
static void	begin_turn(struct nyse *, struct events *);
static void	end_turn(struct nyse *, struct events *);
static void	sq_push(struct nyse *, int, int);
static void	sq_drop(struct nyse *, int);
static int	sq_newest(const struct nyse *, int, int);
static int	sq_aged(const struct nyse *, int, int, int);

#define NAME(s)	s,
#define NAME_LEN(s)	sizeof(s) - 1,
const char *const nyse_colours[] = { NY_COLOUR_NAMES(NAME) NULL };
const char *const nyse_marks[] = { NY_MARK_NAMES(NAME) NULL };
const uint8_t nyse_colour_len[] = { NY_COLOUR_NAMES(NAME_LEN) };
const uint8_t nyse_mark_len[] = { NY_MARK_NAMES(NAME_LEN) };
#undef NAME
#undef NAME_LEN

static const long board_default[NY_GREYS] = { 1, 2, 3, 4, 5, 2 };
static const int8_t greys[NY_GREYS] = { 1, 2, 2, 3, 4, 5 };
static const int8_t per_mark[NY_MARKS] = { 5, 2, 2, 2 };
/* The action kind that uses a special chip of each mark. */
static const int use_kind[NY_MARKS] = { 0, NY_A_SPECULATE, NY_A_INVEST,
    NY_A_SWAP };

static const struct optdesc nyse_options[] = {
	{ .name = "board", .type = OPT_LIST, .min = 1, .max = 5,
	  .def_list = board_default, .len = NY_GREYS, .keyword = "shuffled",
	  .help = "the grey chips' values left to right, an order of "
	  "1,2,2,3,4,5 (default 1,2,3,4,5,2), or shuffled (from the seed)" },
	{ .name = "open_holdings", .type = OPT_BOOL, .def = 1,
	  .help = "everyone sees how many chips of each colour everyone "
	  "holds; off: only each player's total, and a swap may be "
	  "answered none" },
	{ .name = NULL }
};

const struct game game_nyse = {
	.name = "nyse",
	.title = "NYSE (Ben Stanley)",
	.min_players = 1,
	.max_players = NY_MAXP,
	.default_players = 4,
	.options = nyse_options,
	.state_size = sizeof(struct nyse),
	.setup_size = sizeof(struct nyse_setup),
	.resolve = nyse_resolve,
	.init = nyse_init,
	.deciders = nyse_deciders,
	.legal = nyse_legal,
	.apply = nyse_apply,
	.default_action = nyse_default_action,
	.over = nyse_over,
	.result = nyse_result,
	.check = nyse_check,
	.perturb = nyse_perturb,
	.action_parse = nyse_action_parse,
	.setup_parse = nyse_setup_parse,
	.view_write = nyse_view_write,
	.action_write = nyse_action_write,
	.event_write = nyse_event_write,
	.determinize = nyse_determinize
};

/* Returns 1 if the six values are an order of the grey chips 1,2,2,3,4,5. */
int
nyse_board_ok(const long *b)
{
	int count[6] = { 0 }, i;

	for (i = 0; i < NY_GREYS; i++) {
		if (b[i] < 1 || b[i] > 5)
			return 0;
		count[b[i]]++;
	}
	return count[1] == 1 && count[2] == 2 && count[3] == 1 &&
	    count[4] == 1 && count[5] == 1;
}

/* Checks the board option; -1 and a cause if it is not an order. */
static int
nyse_resolve(struct opts *o, char *cause, size_t len)
{
	if (!o->keyword[NY_OPT_BOARD] &&
	    !nyse_board_ok(o->list[NY_OPT_BOARD])) {
		snprintf(cause, len, "option board: the six values must be an "
		    "order of the grey chips 1,2,2,3,4,5 (or shuffled)");
		return -1;
	}
	return 0;
}

/* The worth of a chip of colour now: the grey chip beside its marker. */
int
nyse_value(const struct nyse *st, int c)
{
	return st->pos[c] >= NY_CRASHED ? 0 : st->board[st->pos[c] / 2];
}

/* The number of chips player holds. */
int
nyse_chips(const struct nyse *st, int p)
{
	int c, m, k = 0;

	for (c = 0; c < NY_COLOURS; c++)
		for (m = 0; m < NY_MARKS; m++)
			k += st->held[p][c][m];
	return k;
}

/* The number of chips of colour c player holds. */
int
nyse_colour_count(const struct nyse *st, int p, int c)
{
	return st->held[p][c][0] + st->held[p][c][1] + st->held[p][c][2] +
	    st->held[p][c][3];
}

/* The chips left in the four supply piles. */
int
nyse_supply(const struct nyse *st)
{
	return st->plen[0] + st->plen[1] + st->plen[2] + st->plen[3];
}

/* The player who has (or, once over, would have had) the next turn. */
int
nyse_next(const struct nyse *st)
{
	return (st->turn + 1) % st->n;
}

/*
 * Solitaire: the index in sq of the special the player must use now (the
 * oldest one usable), or -1 if none or not a solitaire turn.
 */
int
nyse_forced(const struct nyse *st)
{
	int i;

	if (st->n != 1 || st->phase != NY_TURN)
		return -1;
	for (i = 0; i < st->sqn; i++)
		if (usable(st, 0, st->sq[i] / NY_MARKS, st->sq[i] % NY_MARKS))
			return i;
	return -1;
}

/*
 * Final scores and places: money first, then more chips, then the player
 * who would have had the next turn, then the one after, and so on.
 */
void
nyse_scores(const struct nyse *st, double *scores, int *places)
{
	int score[NY_MAXP], chips[NY_MAXP], order[NY_MAXP];
	int p, q, c, beat;

	for (p = 0; p < st->n; p++) {
		score[p] = 0;
		for (c = 0; c < NY_COLOURS; c++)
			score[p] += nyse_colour_count(st, p, c) *
			    nyse_value(st, c);
		chips[p] = nyse_chips(st, p);
		order[p] = (p - nyse_next(st) + st->n) % st->n;
		scores[p] = score[p];
	}
	for (p = 0; p < st->n; p++) {
		beat = 0;
		for (q = 0; q < st->n; q++) {
			if (q == p)
				continue;
			if (score[q] > score[p] || (score[q] == score[p] &&
			    (chips[q] > chips[p] || (chips[q] == chips[p] &&
			    order[q] < order[p]))))
				beat++;
		}
		places[p] = beat + 1;
	}
}

/* Deals a game: the board, the piles, the markers, the start player. */
static void
nyse_init(void *vst, const struct opts *o, const void *vsetup,
    struct rng *r, struct events *ev)
{
	const struct nyse_setup *su = vsetup;
	struct nyse *st = vst;
	int8_t rest[NY_PER_COLOUR];
	int left[NY_MARKS], c, m, i, k, nr;
	int64_t packed = 0;

	memset(st, 0, sizeof *st);
	st->n = (int8_t)o->players;
	st->open = (int8_t)o->v[NY_OPT_OPEN];
	if (su != NULL && su->has_board)
		memcpy(st->board, su->board, sizeof st->board);
	else if (o->keyword[NY_OPT_BOARD]) {
		memcpy(st->board, greys, sizeof st->board);
		rng_shuffle8(r, st->board, NY_GREYS);
	} else
		for (i = 0; i < NY_GREYS; i++)
			st->board[i] = (int8_t)o->list[NY_OPT_BOARD][i];
	for (c = 0; c < NY_COLOURS; c++) {
		memcpy(left, (int[NY_MARKS]){ 5, 2, 2, 2 }, sizeof left);
		k = su != NULL ? su->ntop[c] : 0;
		for (i = 0; i < k; i++)
			left[su->top[c][i]]--;
		if (su != NULL && su->marker[c] >= 0)
			left[su->marker[c]]--;
		for (nr = 0, m = 0; m < NY_MARKS; m++)
			for (i = 0; i < left[m]; i++)
				rest[nr++] = (int8_t)m;
		rng_shuffle8(r, rest, nr);
		if (su != NULL && su->marker[c] >= 0)
			st->marker[c] = su->marker[c];
		else
			st->marker[c] = rest[--nr];
		/* The pile, bottom first: the random rest, then the given top. */
		for (i = 0; i < nr; i++)
			st->pile[c][i] = rest[i];
		for (i = 0; i < k; i++)
			st->pile[c][NY_PILE - 1 - i] = su->top[c][i];
		st->plen[c] = NY_PILE;
	}
	if (su != NULL && su->start >= 0)
		st->start = su->start;
	else
		st->start = (int8_t)rng_below(r, (uint32_t)st->n);
	for (i = 0; i < NY_GREYS; i++)
		packed |= (int64_t)st->board[i] << (3 * i);
	ev_push(ev, SEEN_ALL, NY_EV_START, packed, st->start, 0, 0, 0, 0);
	st->turn = (int8_t)((st->start + st->n - 1) % st->n);
	end_turn(st, ev);
}

/* The one seat that decides now, or 0 once the game is over. */
static uint32_t
nyse_deciders(const void *vst)
{
	const struct nyse *st = vst;

	switch (st->phase) {
	case NY_TURN:
	case NY_INVESTING:
	case NY_SWAPPING:
		return 1u << st->turn;
	case NY_ANSWER:
		return 1u << st->sw_target;
	}
	return 0;
}

/* Appends code to the list if there is room; returns the new count. */
static int
add(struct legal *l, int n, int max, int64_t code)
{
	if (n < max) {
		l[n].code = code;
		l[n].lo = l[n].hi = 0;
		l[n].ranged = 0;
	}
	return n + 1;
}

/*
 * Returns 1 if player p, whose turn it is, holds a special (c, m) it could
 * use now.
 */
static int
usable(const struct nyse *st, int p, int c, int m)
{
	int k, gc, gm, t, ac;

	if (st->held[p][c][m] == 0)
		return 0;
	switch (m) {
	case NY_SPECULATE:
		for (k = 0; k < NY_COLOURS; k++)
			if (st->pos[k] < NY_CRASHED)
				return 1;
		return 0;
	case NY_INVEST:
		return nyse_supply(st) > 0;
	case NY_SWAP:
		for (gc = 0; gc < NY_COLOURS; gc++)
			for (gm = 0; gm < NY_MARKS; gm++) {
				if (!can_give(st, p, c, gc, gm))
					continue;
				for (ac = 0; ac < NY_COLOURS; ac++) {
					if (st->n == 1 && swap_ok(st, p, c, gc,
					    gm, NY_SUPPLY, ac))
						return 1;
					for (t = 0; st->n > 1 && t < st->n; t++)
						if (swap_ok(st, p, c, gc, gm, t,
						    ac))
							return 1;
				}
			}
		return 0;
	}
	return 0;
}

/*
 * Returns 1 if p, using a swap chip of colour sc, still holds a chip
 * (gc, gm) to give: any chip but the swap chip itself.
 */
static int
can_give(const struct nyse *st, int p, int sc, int gc, int gm)
{
	return st->held[p][gc][gm] - (gc == sc && gm == NY_SWAP) > 0;
}

/*
 * Returns 1 if p may use a swap chip of colour sc to give (gc, gm) to seat
 * t (NY_SUPPLY: the pile, in solitaire) for a chip of colour ac.
 */
static int
swap_ok(const struct nyse *st, int p, int sc, int gc, int gm, int t, int ac)
{
	if (sc >= NY_COLOURS || gc >= NY_COLOURS || gm >= NY_MARKS ||
	    ac >= NY_COLOURS || ac == gc || st->held[p][sc][NY_SWAP] == 0 ||
	    !can_give(st, p, sc, gc, gm))
		return 0;
	if (st->n == 1)
		return t == NY_SUPPLY && st->plen[ac] > 0;
	if (t >= st->n || t == p)
		return 0;
	if (st->open)
		return nyse_colour_count(st, t, ac) > 0;
	return nyse_chips(st, t) > 0 && !(st->refused[t] & (1u << ac));
}

/* Lists the uses of p's special chip (c, m) from index n; new count. */
static int
list_uses(const struct nyse *st, int p, int c, int m, struct legal *l, int n,
    int max)
{
	int k, gc, gm, t, ac, age, ages;

	switch (m) {
	case NY_SPECULATE:
		for (k = 0; k < NY_COLOURS; k++)
			if (st->pos[k] < NY_CRASHED)
				n = add(l, n, max, NY_CODE(NY_A_SPECULATE, c, k,
				    0, 0, 0));
		break;
	case NY_INVEST:
		n = add(l, n, max, NY_CODE(NY_A_INVEST, c, 0, 0, 0, 0));
		break;
	case NY_SWAP:
		for (gc = 0; gc < NY_COLOURS; gc++)
			for (gm = 0; gm < NY_MARKS; gm++) {
				if (!can_give(st, p, c, gc, gm))
					continue;
				if (st->n == 1) {
					/* Two specials alike: one entry
					 * each, the older first. */
					ages = gm == NY_PLAIN ? 1 :
					    st->held[p][gc][gm] -
					    (gc == c && gm == NY_SWAP);
					for (age = 0; age < ages; age++)
						for (ac = 0; ac < NY_COLOURS;
						    ac++)
							if (swap_ok(st, p, c,
							    gc, gm, NY_SUPPLY,
							    ac))
								n = add(l, n,
								    max,
								    NY_CODE(
								    NY_A_SWAP,
								    c, gc, gm,
								    NY_SUPPLY,
								    ac) |
								    (int64_t)
								    age << 24);
					continue;
				}
				for (t = 0; t < st->n; t++)
					for (ac = 0; ac < NY_COLOURS; ac++)
						if (swap_ok(st, p, c, gc, gm, t,
						    ac))
							n = add(l, n, max,
							    NY_CODE(NY_A_SWAP,
							    c, gc, gm, t, ac));
			}
		break;
	}
	return n;
}

/* Lists the legal actions of p: takes, discards, then the specials. */
static int
nyse_legal(const void *vst, int p, struct legal *l, int max)
{
	const struct nyse *st = vst;
	int n = 0, c, m, f;

	if (p < 0 || p >= st->n || !(nyse_deciders(st) & (1u << p)))
		return 0;
	switch (st->phase) {
	case NY_ANSWER:
		for (m = 0; m < NY_MARKS; m++)
			if (st->held[p][st->sw_ac][m] > 0)
				n = add(l, n, max, NY_CODE(NY_A_GIVE, st->sw_ac,
				    m, 0, 0, 0));
		if (n == 0)
			n = add(l, n, max, NY_CODE(NY_A_NONE, 0, 0, 0, 0, 0));
		break;
	case NY_INVESTING:
		for (c = 0; c < NY_COLOURS; c++)
			if (st->plen[c] > 0)
				n = add(l, n, max, NY_CODE(NY_A_TAKE, c, 0, 0,
				    0, 0));
		break;
	case NY_SWAPPING:
		/* The committed chip's requests, and nothing else. */
		n = list_uses(st, p, st->sw_chip, NY_SWAP, l, 0, max);
		break;
	case NY_TURN:
		if ((f = nyse_forced(st)) >= 0)
			return list_uses(st, p, st->sq[f] / NY_MARKS,
			    st->sq[f] % NY_MARKS, l, 0, max);
		for (c = 0; c < NY_COLOURS; c++)
			if (st->plen[c] > 0)
				n = add(l, n, max, NY_CODE(NY_A_TAKE, c, 0, 0,
				    0, 0));
		for (c = 0; c < NY_COLOURS; c++)
			if (st->plen[c] > 0)
				n = add(l, n, max, NY_CODE(NY_A_DISCARD, c, 0,
				    0, 0, 0));
		if (st->n == 1)
			break;
		for (m = NY_SPECULATE; m < NY_MARKS; m++)
			for (c = 0; c < NY_COLOURS; c++)
				if (st->held[p][c][m] > 0)
					n = list_uses(st, p, c, m, l, n, max);
		break;
	}
	return n < max ? n : max;
}

/* Returns 1 if code is a legal action of p now (the legal list's test). */
static int
allowed(const struct nyse *st, int p, int64_t code)
{
	int k, f[5], i, fi;

	if (p < 0 || p >= st->n || code < 0 || (code >> 28) != 0 ||
	    ((code >> 24) != 0 && NY_KIND(code) != NY_A_SWAP))
		return 0;
	k = NY_KIND(code);
	for (i = 0; i < 5; i++)
		f[i] = NY_F(code, i);
	switch (st->phase) {
	case NY_ANSWER:
		if (p != st->sw_target)
			return 0;
		if (k == NY_A_GIVE)
			return f[0] == st->sw_ac && f[1] < NY_MARKS &&
			    (code >> 12) == 0 && st->held[p][f[0]][f[1]] > 0;
		return k == NY_A_NONE && (code >> 4) == 0 &&
		    nyse_colour_count(st, p, st->sw_ac) == 0;
	case NY_INVESTING:
		return p == st->turn && k == NY_A_TAKE && f[0] < NY_COLOURS &&
		    (code >> 8) == 0 && st->plen[f[0]] > 0;
	case NY_SWAPPING:
		if (k != NY_A_SWAP || f[0] != st->sw_chip)
			return 0;
		break;
	case NY_TURN:
		break;
	default:
		return 0;
	}
	if (p != st->turn)
		return 0;
	if (st->n == 1) {
		fi = nyse_forced(st);
		if (fi >= 0 && (k != use_kind[st->sq[fi] % NY_MARKS] ||
		    f[0] != st->sq[fi] / NY_MARKS))
			return 0;
		if (fi < 0 && k != NY_A_TAKE && k != NY_A_DISCARD)
			return 0;
	}
	switch (k) {
	case NY_A_TAKE:
	case NY_A_DISCARD:
		return f[0] < NY_COLOURS && (code >> 8) == 0 &&
		    st->plen[f[0]] > 0;
	case NY_A_SPECULATE:
		return f[0] < NY_COLOURS && f[1] < NY_COLOURS &&
		    (code >> 12) == 0 && st->held[p][f[0]][NY_SPECULATE] > 0 &&
		    st->pos[f[1]] < NY_CRASHED;
	case NY_A_INVEST:
		return f[0] < NY_COLOURS && (code >> 8) == 0 &&
		    st->held[p][f[0]][NY_INVEST] > 0;
	case NY_A_SWAP:
		/* The age of the chip given: solitaire, two alike only. */
		if (NY_AGE(code) != 0 && (st->n != 1 || f[2] == NY_PLAIN ||
		    NY_AGE(code) >= st->held[p][f[1] & 3][f[2] & 3] -
		    (f[1] == f[0] && f[2] == NY_SWAP)))
			return 0;
		return swap_ok(st, p, f[0], f[1], f[2], f[3], f[4]);
	}
	return 0;
}

/* Moves marker c steps right unless it has crashed; returns where it is. */
static int
move_marker(struct nyse *st, int c, int steps)
{
	if (st->pos[c] < NY_CRASHED)
		st->pos[c] = (int8_t)(st->pos[c] + steps > NY_CRASHED ?
		    NY_CRASHED : st->pos[c] + steps);
	return st->pos[c];
}

/* Appends a special to the solitaire order (newest last). */
static void
sq_push(struct nyse *st, int c, int m)
{
	if (st->n == 1 && m != NY_PLAIN)
		st->sq[st->sqn++] = (uint8_t)(c * NY_MARKS + m);
}

/* Removes entry i of the solitaire order. */
static void
sq_drop(struct nyse *st, int i)
{
	memmove(&st->sq[i], &st->sq[i + 1], (size_t)(st->sqn - i - 1));
	st->sq[--st->sqn] = 0;
}

/* The index of the newest (c, m) in the solitaire order, or -1. */
static int
sq_newest(const struct nyse *st, int c, int m)
{
	int i;

	for (i = st->sqn - 1; i >= 0; i--)
		if (st->sq[i] == c * NY_MARKS + m)
			return i;
	return -1;
}

/* The index of the age-th oldest (c, m) in the solitaire order, or -1. */
static int
sq_aged(const struct nyse *st, int c, int m, int age)
{
	int i;

	for (i = 0; i < st->sqn; i++)
		if (st->sq[i] == c * NY_MARKS + m && age-- == 0)
			return i;
	return -1;
}

/* p takes the top chip of pile c; its marker moves one right. */
static void
take(struct nyse *st, int p, int c, struct events *ev)
{
	int m, from, to;

	m = st->pile[c][--st->plen[c]];
	st->pile[c][st->plen[c]] = 0;
	if (st->known[c] > 0)
		st->known[c]--;
	st->held[p][c][m]++;
	st->taken[p][c]++;
	sq_push(st, c, m);
	from = st->pos[c];
	to = move_marker(st, c, 1);
	ev_push(ev, 1u << p, NY_EV_TAKE, st->plen[c], p, c, m, from, to);
	if (st->n > 1)
		ev_push(ev, SEEN_ALL & ~(1u << p), NY_EV_TAKE, st->plen[c], p,
		    c, -1, from, to);
}

/* p discards the top chip of pile c, face down; no marker moves. */
static void
discard(struct nyse *st, int p, int c, struct events *ev)
{
	int m;

	m = st->pile[c][--st->plen[c]];
	st->pile[c][st->plen[c]] = 0;
	if (st->known[c] > 0)
		st->known[c]--;
	st->gone[c][m]++;
	ev_push(ev, SEEN_ALL, NY_EV_DISCARD, st->plen[c], p, c, 0, 0, 0);
}

/* p's special chip (c, m) leaves the game (the forced one in solitaire). */
static void
use_special(struct nyse *st, int p, int c, int m)
{
	int i;

	if (st->n == 1) {
		i = nyse_forced(st);
		if (i < 0 || st->sq[i] != c * NY_MARKS + m)
			i = sq_newest(st, c, m);
		sq_drop(st, i);
	}
	st->held[p][c][m]--;
	st->used[c][m]++;
	st->spent[p][c]++;
}

/*
 * Solitaire swap: p's chip (gc, gm) goes on top of its own pile, and p
 * takes the top chip of pile ac; no marker moves.
 */
static void
swap_pile(struct nyse *st, int p, int64_t code, struct events *ev)
{
	int sc = NY_F(code, 0), gc = NY_F(code, 1), gm = NY_F(code, 2);
	int ac = NY_F(code, 4), m;

	use_special(st, p, sc, NY_SWAP);
	st->held[p][gc][gm]--;
	if (gm != NY_PLAIN)
		sq_drop(st, sq_aged(st, gc, gm, NY_AGE(code)));
	st->pile[gc][st->plen[gc]++] = (int8_t)gm;
	st->known[gc]++;
	m = st->pile[ac][--st->plen[ac]];
	st->pile[ac][st->plen[ac]] = 0;
	if (st->known[ac] > 0)
		st->known[ac]--;
	st->held[p][ac][m]++;
	sq_push(st, ac, m);
	ev_push(ev, SEEN_ALL, NY_EV_PILESWAP, m, p, sc, gc, gm, ac);
}

/*
 * The target answered "none": recorded for the views; the active player
 * asks again with the committed chip, or, with no request left, the chip
 * leaves the game and the turn ends.
 */
static void
swap_refused(struct nyse *st, struct events *ev)
{
	int a = st->turn, t = st->sw_target, ac = st->sw_ac, i;

	st->refused[t] |= (uint8_t)(1u << ac);
	/* A new record for this turn's first none (8 swap chips: 8 turns). */
	i = st->nnone - 1;
	if ((i < 0 || st->none_turn[i] != st->turns) && st->nnone < 8) {
		i = st->nnone++;
		st->none_turn[i] = st->turns;
		st->none_by[i] = (int8_t)a;
	}
	if (i >= 0 && st->none_turn[i] == st->turns)
		st->none[i][t] |= (uint8_t)(1u << ac);
	ev_push(ev, SEEN_ALL, NY_EV_REFUSE, 0, t, ac, a, 0, 0);
	if (usable(st, a, st->sw_chip, NY_SWAP)) {
		st->phase = NY_SWAPPING;
		return;
	}
	use_special(st, a, st->sw_chip, NY_SWAP);
	ev_push(ev, SEEN_ALL, NY_EV_VOID, 0, a, st->sw_chip, 0, 0, 0);
	end_turn(st, ev);
}

/* The target gives its chip of mark m to the active player. */
static void
swap_answer(struct nyse *st, int m, struct events *ev)
{
	int a = st->turn, t = st->sw_target, ac = st->sw_ac;
	int gc = st->sw_gc, gm = st->sw_gm;
	uint32_t both = (1u << a) | (1u << t);
	int8_t *rec;

	use_special(st, a, st->sw_chip, NY_SWAP);
	if (st->nswaps < 8) {
		rec = st->swaps[st->nswaps++];
		rec[0] = (int8_t)a;
		rec[1] = (int8_t)t;
		rec[2] = st->sw_chip;
		rec[3] = (int8_t)gc;
		rec[4] = (int8_t)ac;
		rec[5] = (int8_t)gm;
		rec[6] = (int8_t)m;
	}
	st->held[a][gc][gm]--;
	st->held[t][gc][gm]++;
	st->held[t][ac][m]--;
	st->held[a][ac][m]++;
	ev_push(ev, both, NY_EV_SWAP, (gm + 1) | (m + 1) << 4, a, t,
	    st->sw_chip, gc, ac);
	ev_push(ev, SEEN_ALL & ~both, NY_EV_SWAP, 0, a, t, st->sw_chip,
	    st->open ? gc : -1, ac);
	end_turn(st, ev);
}

/* The next player's turn begins. */
static void
begin_turn(struct nyse *st, struct events *ev)
{
	st->turn = (int8_t)nyse_next(st);
	st->phase = NY_TURN;
	st->left = 0;
	st->turns++;
	memset(st->refused, 0, sizeof st->refused);
	ev_push(ev, SEEN_ALL, NY_EV_TURN, 0, st->turn, st->turns, 0, 0, 0);
}

/* Ends the turn: the game is over once the supply is empty. */
static void
end_turn(struct nyse *st, struct events *ev)
{
	st->sw_chip = st->sw_gc = st->sw_gm = st->sw_target = st->sw_ac = 0;
	if (nyse_supply(st) == 0) {
		st->phase = NY_OVER;
		st->left = 0;
		memset(st->refused, 0, sizeof st->refused);
		ev_push(ev, SEEN_ALL, NY_EV_END, 0, nyse_next(st), 0, 0, 0, 0);
		return;
	}
	begin_turn(st, ev);
}

/* Applies p's action if it is legal; -1 (state untouched) if not. */
static int
nyse_apply(void *vst, int p, struct action a, struct rng *r,
    struct events *ev)
{
	struct nyse *st = vst;
	int64_t code = a.code;
	int f0 = NY_F(code, 0), f1 = NY_F(code, 1), from, to;
	uint32_t both;

	if (a.amount != 0 || !allowed(st, p, code))
		return -1;
	switch (NY_KIND(code)) {
	case NY_A_TAKE:
		take(st, p, f0, ev);
		if (st->phase == NY_INVESTING && --st->left > 0 &&
		    nyse_supply(st) > 0)
			break;
		end_turn(st, ev);
		break;
	case NY_A_DISCARD:
		discard(st, p, f0, ev);
		end_turn(st, ev);
		break;
	case NY_A_SPECULATE:
		use_special(st, p, f0, NY_SPECULATE);
		from = st->pos[f1];
		to = move_marker(st, f1, 2);
		ev_push(ev, SEEN_ALL, NY_EV_SPECULATE, 0, p, f0, f1, from, to);
		end_turn(st, ev);
		break;
	case NY_A_INVEST:
		use_special(st, p, f0, NY_INVEST);
		ev_push(ev, SEEN_ALL, NY_EV_INVEST, 0, p, f0, 0, 0, 0);
		st->phase = NY_INVESTING;
		st->left = 2;
		break;
	case NY_A_SWAP:
		if (st->n == 1) {
			swap_pile(st, p, code, ev);
			end_turn(st, ev);
			break;
		}
		st->sw_chip = (int8_t)f0;
		st->sw_gc = (int8_t)f1;
		st->sw_gm = (int8_t)NY_F(code, 2);
		st->sw_target = (int8_t)NY_F(code, 3);
		st->sw_ac = (int8_t)NY_F(code, 4);
		st->phase = NY_ANSWER;
		both = (1u << p) | (1u << st->sw_target);
		ev_push(ev, both, NY_EV_ASK, 0, p, st->sw_target, st->sw_ac,
		    f0, f1);
		ev_push(ev, SEEN_ALL & ~both, NY_EV_ASK, 0, p, st->sw_target,
		    st->sw_ac, f0, st->open ? f1 : -1);
		break;
	case NY_A_GIVE:
		swap_answer(st, f1, ev);
		break;
	case NY_A_NONE:
		swap_refused(st, ev);
		break;
	}
	(void)r;
	return 0;
}

/*
 * The default move: the first legal entry (a take, the forced use, or the
 * committed swap chip's first request).
 */
static struct action
nyse_default_action(const void *vst, int p)
{
	const struct nyse *st = vst;
	struct legal l[64];
	struct action a = { 0, 0 };
	int f, c, m;

	switch (st->phase) {
	case NY_SWAPPING:
		if (list_uses(st, p, st->sw_chip, NY_SWAP, l, 0, 64) > 0)
			a.code = l[0].code;
		return a;
	case NY_ANSWER:
		a.code = NY_CODE(NY_A_NONE, 0, 0, 0, 0, 0);
		for (m = 0; m < NY_MARKS; m++)
			if (st->held[p][st->sw_ac][m] > 0) {
				a.code = NY_CODE(NY_A_GIVE, st->sw_ac, m, 0, 0,
				    0);
				break;
			}
		return a;
	case NY_TURN:
		if ((f = nyse_forced(st)) >= 0 &&
		    list_uses(st, p, st->sq[f] / NY_MARKS,
		    st->sq[f] % NY_MARKS, l, 0, 64) > 0) {
			a.code = l[0].code;
			return a;
		}
		/* FALLTHROUGH */
	case NY_INVESTING:
		for (c = 0; c < NY_COLOURS; c++)
			if (st->plen[c] > 0) {
				a.code = NY_CODE(NY_A_TAKE, c, 0, 0, 0, 0);
				break;
			}
		return a;
	}
	return a;
}

/* Returns 1 once the supply is empty. */
static int
nyse_over(const void *vst)
{
	return ((const struct nyse *)vst)->phase == NY_OVER;
}

/* Places (distinct, after both tie-breaks) and money of each player. */
static void
nyse_result(const void *vst, int *places, double *scores)
{
	nyse_scores(vst, scores, places);
}

/* Checks conservation of the 44 chips and the game's invariants. */
static int
nyse_check(const void *vst, char *cause, size_t len)
{
	const struct nyse *st = vst;
	int count[NY_MARKS], c, m, p, i, v[6] = { 0 }, want[NY_MARKS];
	int total = 0;

	if (st->n < 1 || st->n > NY_MAXP || st->turn < 0 ||
	    st->turn >= st->n || st->start < 0 || st->start >= st->n) {
		snprintf(cause, len, "bad player count or turn");
		return -1;
	}
	for (i = 0; i < NY_GREYS; i++) {
		if (st->board[i] < 1 || st->board[i] > 5) {
			snprintf(cause, len, "bad board");
			return -1;
		}
		v[st->board[i]]++;
	}
	if (v[1] != 1 || v[2] != 2 || v[3] != 1 || v[4] != 1 || v[5] != 1) {
		snprintf(cause, len, "the board is not an order of 1,2,2,3,4,5");
		return -1;
	}
	for (c = 0; c < NY_COLOURS; c++) {
		if (st->pos[c] < 0 || st->pos[c] > NY_CRASHED ||
		    st->plen[c] < 0 || st->plen[c] > NY_PILE ||
		    st->known[c] < 0 || st->known[c] > st->plen[c] ||
		    (st->n > 1 && st->known[c] != 0)) {
			snprintf(cause, len, "colour %s: bad marker, pile or "
			    "known count", nyse_colours[c]);
			return -1;
		}
		memset(count, 0, sizeof count);
		for (i = 0; i < st->plen[c]; i++) {
			if (st->pile[c][i] < 0 || st->pile[c][i] >= NY_MARKS) {
				snprintf(cause, len, "bad mark in a pile");
				return -1;
			}
			count[st->pile[c][i]]++;
		}
		if (st->marker[c] < 0 || st->marker[c] >= NY_MARKS) {
			snprintf(cause, len, "bad marker mark");
			return -1;
		}
		count[st->marker[c]]++;
		for (m = 0; m < NY_MARKS; m++) {
			for (p = 0; p < st->n; p++)
				count[m] += st->held[p][c][m];
			for (; p < NY_MAXP; p++)
				if (st->held[p][c][m] != 0) {
					snprintf(cause, len, "chips held by "
					    "seat %d of %d", p, st->n);
					return -1;
				}
			count[m] += st->used[c][m] + st->gone[c][m];
			if (count[m] != per_mark[m]) {
				snprintf(cause, len, "%s %s chips: %d, not %d",
				    nyse_colours[c], nyse_marks[m], count[m],
				    per_mark[m]);
				return -1;
			}
			total += count[m];
		}
		if (st->used[c][NY_PLAIN] != 0) {
			snprintf(cause, len, "a plain chip was used");
			return -1;
		}
	}
	if (total != NY_CHIPS) {
		snprintf(cause, len, "%d chips, not %d", total, NY_CHIPS);
		return -1;
	}
	if ((st->phase == NY_OVER) != (nyse_supply(st) == 0) ||
	    st->phase < NY_TURN || st->phase > NY_OVER) {
		snprintf(cause, len, "phase %d with %d chips in supply",
		    st->phase, nyse_supply(st));
		return -1;
	}
	if ((st->phase == NY_INVESTING) != (st->left >= 1 && st->left <= 2) ||
	    (st->phase != NY_INVESTING && st->left != 0)) {
		snprintf(cause, len, "bad invest count %d", st->left);
		return -1;
	}
	if (st->phase == NY_ANSWER && (st->n == 1 ||
	    st->sw_target < 0 || st->sw_target >= st->n ||
	    st->sw_target == st->turn ||
	    st->held[st->turn][st->sw_chip][NY_SWAP] == 0 ||
	    !can_give(st, st->turn, st->sw_chip, st->sw_gc, st->sw_gm) ||
	    st->sw_ac == st->sw_gc || (st->open &&
	    nyse_colour_count(st, st->sw_target, st->sw_ac) == 0))) {
		snprintf(cause, len, "inconsistent swap request");
		return -1;
	}
	if (st->phase == NY_SWAPPING && (st->n == 1 || st->open ||
	    !usable(st, st->turn, st->sw_chip, NY_SWAP) || st->nnone == 0 ||
	    st->none_turn[st->nnone - 1] != st->turns)) {
		snprintf(cause, len, "a committed swap with no request left, "
		    "or none refused");
		return -1;
	}
	if (nones_check(st, cause, len) == -1)
		return -1;
	for (p = 0; p < NY_MAXP; p++) {
		if (st->refused[p] == 0)
			continue;
		if (st->open || p >= st->n || p == st->turn ||
		    st->refused[p] >= 16) {
			snprintf(cause, len, "bad refusal by seat %d", p);
			return -1;
		}
		for (c = 0; c < NY_COLOURS; c++)
			if ((st->refused[p] & (1u << c)) &&
			    nyse_colour_count(st, p, c) != 0) {
				snprintf(cause, len, "seat %d refused %s yet "
				    "holds it", p, nyse_colours[c]);
				return -1;
			}
	}
	if (st->n > 1 && st->sqn != 0) {
		snprintf(cause, len, "a solitaire order in a %d-player game",
		    st->n);
		return -1;
	}
	if (st->n == 1) {
		for (c = 0; c < NY_COLOURS; c++) {
			memset(want, 0, sizeof want);
			for (i = 0; i < st->sqn; i++)
				if (st->sq[i] / NY_MARKS == c)
					want[st->sq[i] % NY_MARKS]++;
			for (m = NY_SPECULATE; m < NY_MARKS; m++)
				if (want[m] != st->held[0][c][m]) {
					snprintf(cause, len, "the solitaire "
					    "order does not match the %s %s "
					    "chips held", nyse_colours[c],
					    nyse_marks[m]);
					return -1;
				}
			if (want[NY_PLAIN] != 0) {
				snprintf(cause, len, "a plain chip in the "
				    "solitaire order");
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Checks the record of "none" answers: one entry per swap turn, in turn
 * order, each of the colours refused by the other players, the last one
 * this turn's refusals when it is this turn's; -1 + cause if not.
 */
static int
nones_check(const struct nyse *st, char *cause, size_t len)
{
	int i, p, last;

	if (st->nnone < 0 || st->nnone > 8 || (st->open && st->nnone != 0)) {
		snprintf(cause, len, "%d records of none answers", st->nnone);
		return -1;
	}
	for (i = 0; i < st->nnone; i++) {
		if (st->none_turn[i] < 1 || st->none_turn[i] > st->turns ||
		    (i > 0 && st->none_turn[i] <= st->none_turn[i - 1]) ||
		    st->none_by[i] < 0 || st->none_by[i] >= st->n) {
			snprintf(cause, len, "bad none record %d", i);
			return -1;
		}
		for (p = 0; p < NY_MAXP; p++)
			if (st->none[i][p] >= 16 || (st->none[i][p] != 0 &&
			    (p >= st->n || p == st->none_by[i]))) {
				snprintf(cause, len, "bad none record %d", i);
				return -1;
			}
	}
	last = st->nnone > 0 && st->none_turn[st->nnone - 1] == st->turns &&
	    st->phase != NY_OVER;
	for (p = 0; p < NY_MAXP; p++)
		if (st->refused[p] != (last ? st->none[st->nnone - 1][p] : 0)) {
			snprintf(cause, len, "this turn's refusals are not the "
			    "last none record");
			return -1;
		}
	return 0;
}

void
nyse_offer(struct nyse *st, int gc, int gm, struct rng *r)
{
	int p = st->turn, c, m, k, total = 0;

	for (c = 0; c < NY_COLOURS; c++)
		for (m = 0; m < NY_MARKS; m++)
			if ((gc < 0 ? c != st->sw_ac : c == gc) &&
			    (gm < 0 || m == gm))
				total += st->held[p][c][m] -
				    (c == st->sw_chip && m == NY_SWAP);
	if (total <= 0)
		return;
	k = (int)rng_below(r, (uint32_t)total);
	for (c = 0; c < NY_COLOURS; c++)
		for (m = 0; m < NY_MARKS; m++) {
			if (!((gc < 0 ? c != st->sw_ac : c == gc) &&
			    (gm < 0 || m == gm)))
				continue;
			k -= st->held[p][c][m] - (c == st->sw_chip &&
			    m == NY_SWAP);
			if (k < 0) {
				st->sw_gc = (int8_t)c;
				st->sw_gm = (int8_t)m;
				return;
			}
		}
}

int
nyse_records_colours(struct nyse *st, int seat, const int *chips,
    int lock[][NY_COLOURS], int hold[][NY_COLOURS], int tries,
    struct rng *r)
{
	int given[8], open[8], nopen = 0, i, p, c, m, t, sum, own, ok = 0;

	for (i = 0; i < st->nswaps; i++) {
		given[i] = st->swaps[i][3];
		/* the seat saw the colour given when it was a party */
		open[i] = st->swaps[i][0] != seat && st->swaps[i][1] != seat;
		nopen += open[i];
	}
	for (t = 0; !ok && t < (nopen > 0 ? tries : 1); t++) {
		for (i = 0; i < st->nswaps; i++)
			if (open[i])
				given[i] = (st->swaps[i][4] + 1 +
				    (int)rng_below(r, NY_COLOURS - 1)) %
				    NY_COLOURS;
		for (p = 0; p < st->n; p++)
			for (c = 0; c < NY_COLOURS; c++)
				hold[p][c] = st->taken[p][c] - st->spent[p][c];
		for (i = 0; i < st->nswaps; i++) {
			hold[st->swaps[i][0]][st->swaps[i][4]]++;
			hold[st->swaps[i][0]][given[i]]--;
			hold[st->swaps[i][1]][st->swaps[i][4]]--;
			hold[st->swaps[i][1]][given[i]]++;
		}
		for (ok = 1, p = 0; ok && p < st->n; p++) {
			for (sum = 0, c = 0; c < NY_COLOURS; c++) {
				if (hold[p][c] < lock[p][c] || (hold[p][c] > 0 &&
				    (st->refused[p] & (1u << c))))
					ok = 0;
				for (own = 0, m = 0; p == seat && m < NY_MARKS;
				    m++)
					own += st->held[p][c][m];
				if (p == seat && own != hold[p][c])
					ok = 0;
				sum += hold[p][c];
			}
			if (sum != chips[p])
				ok = 0;
		}
		/* a request under way offers a chip of another colour than
		 * asked, the swap chip aside */
		if (ok && st->phase == NY_ANSWER && seat != st->turn) {
			for (sum = 0, c = 0; c < NY_COLOURS; c++)
				if (c != st->sw_ac)
					sum += hold[st->turn][c] -
					    (c == st->sw_chip);
			ok = sum >= 1;
		}
	}
	if (!ok)
		return -1;
	for (i = 0; i < st->nswaps; i++)
		st->swaps[i][3] = (int8_t)given[i];
	return 0;
}

/*
 * perturb()'s colours with open_holdings off: the colours given in the
 * swaps seat was not party to drawn again (nyse_records_colours), each
 * other player's chips of a colour made as many as the records then say,
 * from the others' chips of that colour (the marks are dealt again after);
 * -1 if no draw fits.
 */
static int
records_redeal(struct nyse *st, int seat,
    uint8_t lock[NY_MAXP][NY_COLOURS][NY_MARKS], struct rng *r)
{
	int chips[NY_MAXP], lk[NY_MAXP][NY_COLOURS], hold[NY_MAXP][NY_COLOURS];
	int8_t pool[NY_CHIPS];
	int p, c, m, k, np;

	for (p = 0; p < st->n; p++) {
		chips[p] = nyse_chips(st, p);
		for (c = 0; c < NY_COLOURS; c++)
			for (lk[p][c] = 0, m = 0; m < NY_MARKS; m++)
				lk[p][c] += lock[p][c][m];
	}
	if (nyse_records_colours(st, seat, chips, lk, hold, 1000, r) == -1)
		return -1;
	for (c = 0; c < NY_COLOURS; c++) {
		for (np = 0, p = 0; p < st->n; p++)
			for (m = 0; p != seat && m < NY_MARKS; m++)
				for (k = st->held[p][c][m] - lock[p][c][m];
				    k > 0; k--)
					pool[np++] = (int8_t)m;
		rng_shuffle8(r, pool, np);
		for (np = 0, p = 0; p < st->n; p++) {
			if (p == seat)
				continue;
			for (m = 0; m < NY_MARKS; m++)
				st->held[p][c][m] = lock[p][c][m];
			for (k = lk[p][c]; k < hold[p][c]; k++)
				st->held[p][c][pool[np++]]++;
		}
	}
	return 0;
}

/*
 * Re-deals what seat may not see: the marks of the piles (below the chips
 * a solitaire player put back), of the markers, of the discarded chips and
 * of the other players' chips; with open_holdings off, also which colours
 * the other players hold, as far as the records leave it open (the colour
 * given in each swap seat was not party to: records_redeal), or when no
 * draw fits any deal keeping each one's total and this turn's refusals.
 * The chips of a pending swap request, and a committed swap chip, stay where
 * they are.
 */
static void
nyse_perturb(void *vst, int seat, struct rng *r)
{
	struct nyse *st = vst;
	uint8_t lock[NY_MAXP][NY_COLOURS][NY_MARKS];
	int8_t chip[NY_CHIPS], owner[NY_CHIPS], pool[NY_PER_COLOUR];
	int cnt[NY_MAXP], ns, np, c, m, p, i, k, try, ok, bottom, ngone;
	int offered, gc_seen, locked = 0;

	memset(lock, 0, sizeof lock);
	if ((st->phase == NY_ANSWER || st->phase == NY_SWAPPING) &&
	    seat != st->turn)
		lock[st->turn][st->sw_chip][NY_SWAP]++;
	/* The chip offered in a request seat did not make: its mark hidden,
	 * its colour too unless seat is the target (or holdings are open);
	 * a seen colour stays with the player while colours are dealt. */
	offered = st->phase == NY_ANSWER && seat != st->turn;
	gc_seen = st->open || seat == st->sw_target;
	if (offered && gc_seen)
		lock[st->turn][st->sw_gc][st->sw_gm] += (locked = 1);
	if (!st->open && st->phase != NY_OVER &&
	    records_redeal(st, seat, lock, r) == 0)
		;	/* the colours as the records allow, marks below */
	else if (!st->open && st->phase != NY_OVER) {
		if (offered && !locked)
			lock[st->turn][st->sw_gc][st->sw_gm] += (locked = 1);
		ns = 0;
		for (p = 0; p < st->n; p++)
			for (c = 0; p != seat && c < NY_COLOURS; c++)
				for (m = 0; m < NY_MARKS; m++)
					for (k = st->held[p][c][m] -
					    lock[p][c][m]; k > 0; k--) {
						owner[ns] = (int8_t)p;
						chip[ns++] = (int8_t)(c *
						    NY_MARKS + m);
					}
		for (ok = 0, try = 0; !ok && try < 20; try++) {
			rng_shuffle8(r, chip, ns);
			for (ok = 1, i = 0; i < ns; i++)
				if (st->refused[owner[i]] &
				    (1u << (chip[i] / NY_MARKS)))
					ok = 0;
		}
		if (ok) {
			for (p = 0; p < st->n; p++)
				if (p != seat)
					memcpy(st->held[p], lock[p],
					    sizeof lock[p]);
			for (i = 0; i < ns; i++)
				st->held[owner[i]][chip[i] / NY_MARKS]
				    [chip[i] % NY_MARKS]++;
		}
	}
	if (locked)
		lock[st->turn][st->sw_gc][st->sw_gm]--;
	for (c = 0; c < NY_COLOURS; c++) {
		np = 0;
		bottom = st->plen[c] - st->known[c];
		for (i = 0; i < bottom; i++)
			pool[np++] = st->pile[c][i];
		pool[np++] = st->marker[c];
		for (ngone = 0, m = 0; m < NY_MARKS; m++)
			for (k = 0; k < st->gone[c][m]; k++, ngone++)
				pool[np++] = (int8_t)m;
		for (p = 0; p < st->n; p++) {
			cnt[p] = 0;
			for (m = 0; p != seat && m < NY_MARKS; m++)
				for (k = st->held[p][c][m] - lock[p][c][m];
				    k > 0; k--, cnt[p]++)
					pool[np++] = (int8_t)m;
		}
		rng_shuffle8(r, pool, np);
		np = 0;
		for (i = 0; i < bottom; i++)
			st->pile[c][i] = pool[np++];
		st->marker[c] = pool[np++];
		memset(st->gone[c], 0, sizeof st->gone[c]);
		for (k = 0; k < ngone; k++)
			st->gone[c][pool[np++]]++;
		for (p = 0; p < st->n; p++) {
			if (p == seat)
				continue;
			for (m = 0; m < NY_MARKS; m++)
				st->held[p][c][m] = lock[p][c][m];
			for (k = 0; k < cnt[p]; k++)
				st->held[p][c][pool[np++]]++;
		}
	}
	if (offered)
		nyse_offer(st, gc_seen ? st->sw_gc : -1, -1, r);
}
