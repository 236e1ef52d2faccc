/*
 * The determinization of NYSE: a seat's view read back into a state.
 * Hidden are the marks of the other players' chips, of the piles (below
 * the chips a solitaire player put back), of the markers and of the
 * discarded chips; with open_holdings off, also which colours the others
 * hold.  Per colour, the marks nobody showed the seat (a colour's eleven
 * less the specials used, the seat's own and the tops it knows) are dealt
 * uniformly to those places.  With open_holdings off the others' colours
 * follow from the view's records: each player holds what it took, less
 * the specials it used, plus what its swaps brought and less what they
 * cost; the colour given in each swap the seat was not party to is drawn
 * uniformly among the draws that leave every count whole, each total
 * kept, this turn's refusals true and a request under way something to
 * offer (nyse_records_colours; the order of the swaps is not checked).
 * Only when no draw fits are the colours dealt uniformly among the deals
 * that keep each one's total and this turn's refusals (by rejection,
 * repaired by exchanges in the rare case that fails).  In a
 * swap request the seat did not make, the swap chip is the player's, and
 * the chip offered (colour and mark where unseen) is one of the player's
 * chips at random; a committed swap chip (a request answered "none") is
 * the player's.  The marks of swaps the seat was not party to, which only
 * the all-seeing view shows, are set plain.
 */
#include <stdio.h>
#include <string.h>

#include "nyse.h"
#include "vread.h"

static const char *const phases[] = { "turn", "invest", "answer", "swap",
    "over", NULL };
static const char *const positions[] = { "A", "B", "C", "D", "E", "F", "G",
    "H", "I", "J", "K", "L", "crashed", NULL };
static const int8_t per_mark[NY_MARKS] = { 5, 2, 2, 2 };

#define TRIES	1000	/* colour deals tried against the refusals */

/*
 * What the view tells beyond the state's own fields, kept while the hidden
 * parts are dealt.
 */
struct facts {
	int	chips[NY_MAXP];			/* each player's chip count */
	int	cnt[NY_MAXP][NY_COLOURS];	/* colours held: seen, dealt */
	int	seen[NY_MAXP];			/* cnt[p] was in the view */
	int	fixed[NY_MAXP][NY_COLOURS];	/* known chips of the unseen */
	int	ngone[NY_COLOURS];		/* discarded chips */
	int	unseen[NY_COLOURS];		/* chips nobody showed */
	int8_t	top[NY_COLOURS][NY_PILE];	/* known tops of the piles */
	int	gc, gm;			/* the chip offered, where shown */
	int	committed;		/* a swap chip not the seat's */
};

static void	colours_read(struct vread *, const json_t *, const char *,
		    int *, int);
static void	marks_read(struct vread *, const json_t *, const char *,
		    uint8_t [NY_COLOURS][NY_MARKS], int);
static int	deal_colours(struct nyse *, const int *, const int *,
		    int [NY_MAXP][NY_COLOURS], const int *,
		    int [NY_MAXP][NY_COLOURS], struct rng *);
static void	records_deal(int, struct nyse *, struct facts *, struct rng *);
static void	table_read(struct vread *, const json_t *, int, struct nyse *,
		    struct facts *);
static void	turn_read(struct vread *, const json_t *, struct nyse *,
		    struct facts *);
static int	records_read(struct vread *, const json_t *, struct nyse *,
		    struct rng *);
static int	solitaire_read(struct vread *, const json_t *, struct nyse *,
		    struct facts *);
static int	colours_deal(struct vread *, int, struct nyse *,
		    struct facts *, struct rng *);
static int	marks_deal(struct vread *, int, int, struct nyse *,
		    struct facts *, struct rng *);

/* Reads {"blue": k, ...} under key of o into v, each from 0 to max. */
static void
colours_read(struct vread *v, const json_t *o, const char *key, int *k,
    int max)
{
	const json_t *j;
	int c;

	j = vr_get(v, o, key, JSON_OBJECT);
	for (c = 0; c < NY_COLOURS; c++)
		k[c] = (int)vr_int(v, j, nyse_colours[c], 0, max);
}

/* Reads {"blue": {"plain": k, ...}, ...} under key, marks from on. */
static void
marks_read(struct vread *v, const json_t *o, const char *key,
    uint8_t k[NY_COLOURS][NY_MARKS], int from)
{
	const json_t *j, *cj;
	int c, m;

	j = vr_get(v, o, key, JSON_OBJECT);
	for (c = 0; c < NY_COLOURS; c++) {
		cj = vr_get(v, j, nyse_colours[c], JSON_OBJECT);
		for (m = from; m < NY_MARKS; m++)
			k[c][m] = (uint8_t)vr_int(v, cj, nyse_marks[m], 0,
			    NY_PER_COLOUR);
	}
}

/*
 * Deals the colours of the chips of the players whose colours seat does
 * not see (open_holdings off): unseen[c] chips of colour c beside the
 * fixed ones, each such player p its chips[p] in all, none of a colour it
 * refused; cnt gets their counts.  -1 if no deal was found.
 */
static int
deal_colours(struct nyse *st, const int *seen, const int *chips,
    int fixed[NY_MAXP][NY_COLOURS], const int *unseen,
    int cnt[NY_MAXP][NY_COLOURS], struct rng *r)
{
	int col[NY_CHIPS], own[NY_CHIPS], n = 0, nc = 0, p, c, i, j, t, ok;
	int try;

	for (p = 0; p < st->n; p++) {
		if (seen[p])
			continue;
		for (t = 0, c = 0; c < NY_COLOURS; c++)
			t += fixed[p][c];
		for (i = t; i < chips[p] && n < NY_CHIPS; i++)
			own[n++] = p;
	}
	for (c = 0; c < NY_COLOURS; c++)
		for (j = 0; j < unseen[c] && nc < NY_CHIPS; j++)
			col[nc++] = c;
	if (nc != n)
		return -1;
	for (ok = 0, try = 0; !ok && try < TRIES; try++) {
		deck_shuffle(col, n, r);
		for (ok = 1, i = 0; i < n && ok; i++)
			if (st->refused[own[i]] & (1u << col[i]))
				ok = 0;
	}
	/* Rejection failed (tight refusals): repair by exchanges. */
	for (i = 0; !ok && i < n; i++) {
		if (!(st->refused[own[i]] & (1u << col[i])))
			continue;
		for (j = 0; j < n; j++)
			if (!(st->refused[own[i]] & (1u << col[j])) &&
			    !(st->refused[own[j]] & (1u << col[i])))
				break;
		if (j == n)
			return -1;
		t = col[i];
		col[i] = col[j];
		col[j] = t;
	}
	for (p = 0; p < st->n; p++)
		for (c = 0; !seen[p] && c < NY_COLOURS; c++)
			cnt[p][c] = fixed[p][c];
	for (i = 0; i < n; i++)
		cnt[own[i]][col[i]]++;
	return 0;
}

/* Reads the board, markers, supply, chips used and gone, and holdings. */
static void
table_read(struct vread *v, const json_t *view, int seat, struct nyse *st,
    struct facts *f)
{
	const json_t *a, *j, *h, *mk;
	int k[NY_COLOURS], c, p, i;

	a = vr_get(v, view, "board", JSON_ARRAY);
	for (i = 0; i < NY_GREYS && !v->bad; i++)
		st->board[i] = (int8_t)vr_at(v, a, (size_t)i, 1, 5);
	j = vr_get(v, view, "markers", JSON_OBJECT);
	for (c = 0; c < NY_COLOURS && !v->bad; c++) {
		mk = vr_get(v, j, nyse_colours[c], JSON_OBJECT);
		st->pos[c] = (int8_t)vr_word(v, mk, "position", positions);
	}
	colours_read(v, view, "supply", k, NY_PER_COLOUR);
	for (c = 0; c < NY_COLOURS; c++)
		st->plen[c] = (int8_t)(k[c] > NY_PILE ? NY_PILE : k[c]);
	marks_read(v, view, "used", st->used, NY_SPECULATE);
	colours_read(v, view, "discarded", f->ngone, NY_PER_COLOUR);
	a = vr_get(v, view, "holdings", JSON_ARRAY);
	for (p = 0; p < st->n && !v->bad; p++) {
		h = json_array_get(a, (size_t)p);
		f->chips[p] = (int)vr_int(v, h, "chips", 0, NY_CHIPS);
		if (json_object_get(h, "colours") != NULL) {
			colours_read(v, h, "colours", f->cnt[p], NY_PER_COLOUR);
			f->seen[p] = 1;
		}
		if (p == seat)
			marks_read(v, h, "marks", st->held[p], 0);
		if (!st->open) {
			/* more than a colour's chips: a solitaire player
			 * takes again the chips it put back */
			colours_read(v, h, "taken", k, UINT8_MAX);
			for (c = 0; c < NY_COLOURS; c++)
				st->taken[p][c] = (uint8_t)k[c];
			colours_read(v, h, "used", k, UINT8_MAX);
			for (c = 0; c < NY_COLOURS; c++)
				st->spent[p][c] = (uint8_t)k[c];
		}
	}
}

/* Reads the phase, whose turn it is, and the swap under way. */
static void
turn_read(struct vread *v, const json_t *view, struct nyse *st,
    struct facts *f)
{
	const json_t *j;

	st->phase = (int8_t)vr_word(v, view, "phase", phases);
	st->turn = (int8_t)vr_int(v, view, "turn", 0, st->n - 1);
	st->turns = (int16_t)vr_int(v, view, "turns", 0, INT16_MAX);
	if (st->phase == NY_INVESTING)
		st->left = (int8_t)vr_int(v, view, "takes_left", 1, 2);
	if (st->phase == NY_ANSWER || st->phase == NY_SWAPPING) {
		j = vr_get(v, view, "committed", JSON_OBJECT);
		st->sw_chip = (int8_t)vr_word(v, j, "chip", nyse_colours);
	}
	if (st->phase == NY_ANSWER) {
		j = vr_get(v, view, "request", JSON_OBJECT);
		st->sw_target = (int8_t)vr_int(v, j, "target", 0, st->n - 1);
		st->sw_ac = (int8_t)vr_word(v, j, "colour", nyse_colours);
		if (json_object_get(j, "give_colour") != NULL)
			f->gc = vr_word(v, j, "give_colour", nyse_colours);
		if (json_object_get(j, "give_mark") != NULL)
			f->gm = vr_word(v, j, "give_mark", nyse_marks);
	}
}

/*
 * Reads the records open_holdings off keeps: the swaps made (an unseen
 * colour given drawn among those not asked) and the "none" answers; -1 if
 * there are more than the state holds.
 */
static int
records_read(struct vread *v, const json_t *view, struct nyse *st,
    struct rng *r)
{
	const json_t *a, *j;
	int c, p, i, t;

	a = vr_get(v, view, "swaps", JSON_ARRAY);
	st->nswaps = (int8_t)json_array_size(a);
	if (!v->bad && st->nswaps > 8)
		return vr_fail(v, "view: more than 8 swaps");
	for (i = 0; i < st->nswaps && !v->bad; i++) {
		j = json_array_get(a, (size_t)i);
		st->swaps[i][0] = (int8_t)vr_int(v, j, "player", 0,
		    st->n - 1);
		st->swaps[i][1] = (int8_t)vr_int(v, j, "target", 0,
		    st->n - 1);
		st->swaps[i][2] = (int8_t)vr_word(v, j, "chip", nyse_colours);
		st->swaps[i][4] = (int8_t)vr_word(v, j, "colour",
		    nyse_colours);
		/* An unseen colour given: any other than asked. */
		st->swaps[i][3] = json_object_get(j, "give_colour") != NULL ?
		    (int8_t)vr_word(v, j, "give_colour", nyse_colours) :
		    (int8_t)((st->swaps[i][4] + 1 + (int)rng_below(r, 3)) %
		    NY_COLOURS);
		if (json_object_get(j, "give_mark") != NULL) {
			st->swaps[i][5] = (int8_t)vr_word(v, j, "give_mark",
			    nyse_marks);
			st->swaps[i][6] = (int8_t)vr_word(v, j, "mark",
			    nyse_marks);
		}
	}
	/* The "none" answers, grouped by the turn that asked. */
	a = vr_get(v, view, "nones", JSON_ARRAY);
	for (i = 0; !v->bad && i < (int)json_array_size(a); i++) {
		j = json_array_get(a, (size_t)i);
		p = (int)vr_int(v, j, "player", 0, st->n - 1);
		t = (int)vr_int(v, j, "turn", 0, INT16_MAX);
		if (st->nnone == 0 || st->none_by[st->nnone - 1] != p ||
		    st->none_turn[st->nnone - 1] != t) {
			if (st->nnone == 8)
				return vr_fail(v, "view: \"none\" answers "
				    "in more than 8 turns");
			st->none_by[st->nnone] = (int8_t)p;
			st->none_turn[st->nnone++] = (int16_t)t;
		}
		c = vr_word(v, j, "colour", nyse_colours);
		st->none[st->nnone - 1][vr_int(v, j, "target", 0,
		    st->n - 1)] |= (uint8_t)(1u << c);
	}
	return 0;
}

/*
 * Reads what a solitaire player sees: the specials used in order and the
 * marks on top of each pile it put back; -1 if they do not fit.
 */
static int
solitaire_read(struct vread *v, const json_t *view, struct nyse *st,
    struct facts *f)
{
	const json_t *a, *j, *mk;
	int c, m, i;

	a = vr_get(v, view, "specials", JSON_ARRAY);
	st->sqn = (int8_t)json_array_size(a);
	if (!v->bad && st->sqn > NY_SPECIALS)
		return vr_fail(v, "view: too many specials");
	for (i = 0; i < st->sqn && !v->bad; i++) {
		j = json_array_get(a, (size_t)i);
		st->sq[i] = (uint8_t)(vr_word(v, j, "colour", nyse_colours) *
		    NY_MARKS + vr_word(v, j, "mark", nyse_marks));
	}
	j = vr_get(v, view, "known", JSON_OBJECT);
	for (c = 0; c < NY_COLOURS && !v->bad; c++) {
		a = vr_get(v, j, nyse_colours[c], JSON_ARRAY);
		st->known[c] = (int8_t)json_array_size(a);
		if (!v->bad && st->known[c] > st->plen[c])
			return vr_fail(v, "view: more known than in a pile");
		for (i = 0; i < st->known[c] && !v->bad; i++) {
			mk = json_array_get(a, (size_t)i);
			if ((m = json_is_string(mk) ? -1 : -2) == -1)
				for (m = 0; m < NY_MARKS; m++)
					if (strcmp(nyse_marks[m],
					    json_string_value(mk)) == 0)
						break;
			if (m < 0 || m >= NY_MARKS)
				return vr_fail(v, "view: a known chip is no "
				    "mark");
			f->top[c][i] = (int8_t)m;
		}
	}
	return 0;
}

/*
 * Counts the chips of each colour nobody showed the seat, draws an unseen
 * colour offered in a request, and deals the colours the others hold
 * where the seat does not see them; -1 if the counts do not add up.
 */
static int
colours_deal(struct vread *v, int seat, struct nyse *st, struct facts *f,
    struct rng *r)
{
	int c, m, p, n, t;

	/* The request's chips: the swap chip (and the colour offered). */
	f->committed = (st->phase == NY_ANSWER || st->phase == NY_SWAPPING) &&
	    seat != st->turn;
	if (f->committed) {
		f->fixed[st->turn][st->sw_chip]++;
		if (f->gc >= 0 && !f->seen[st->turn])
			f->fixed[st->turn][f->gc]++;
	}
	if (!st->open)
		records_deal(seat, st, f, r);
	/* The colours the others hold: seen, read from the records, or
	 * dealt. */
	for (c = 0; c < NY_COLOURS; c++) {
		n = NY_PER_COLOUR - 1 - st->plen[c] - f->ngone[c];
		for (m = 0; m < NY_MARKS; m++)
			n -= st->used[c][m];
		for (p = 0; p < st->n; p++)
			if (f->seen[p] && p != seat)
				n -= f->cnt[p][c];
			else if (p == seat)
				for (m = 0; m < NY_MARKS; m++)
					n -= st->held[p][c][m];
			else
				n -= f->fixed[p][c];
		if (n < 0)
			return vr_fail(v, "view: too many %s chips",
			    nyse_colours[c]);
		f->unseen[c] = n;
	}
	if (st->phase == NY_ANSWER && seat != st->turn && f->gc < 0 &&
	    !f->seen[st->turn]) {
		/* The colour offered, unseen: one of the unseen chips. */
		for (t = 0, c = 0; c < NY_COLOURS; c++)
			t += c != st->sw_ac ? f->unseen[c] : 0;
		if (t == 0)
			return vr_fail(v, "view: nothing to offer");
		t = (int)rng_below(r, (uint32_t)t);
		for (c = 0; c < NY_COLOURS; c++)
			if (c != st->sw_ac && (t -= f->unseen[c]) < 0)
				break;
		f->gc = c;
		f->fixed[st->turn][f->gc]++;
		f->unseen[f->gc]--;
	}
	f->seen[seat] = 1;
	for (t = 0, p = 0; p < st->n; p++)
		t += !f->seen[p];
	if (t > 0 && deal_colours(st, f->seen, f->chips, f->fixed, f->unseen,
	    f->cnt, r) == -1)
		return vr_fail(v, "view: no deal of colours keeps the "
		    "refusals");
	return 0;
}

/*
 * Reads the others' colours from the records (open_holdings off): what
 * each took, less what it used, with each swap's flows; the colours given
 * in swaps the seat did not see drawn until every count fits (see the
 * head).  Leaves f untouched when no draw fits in TRIES.
 */
static void
records_deal(int seat, struct nyse *st, struct facts *f, struct rng *r)
{
	int hold[NY_MAXP][NY_COLOURS], p, c;

	if (nyse_records_colours(st, seat, f->chips, f->fixed, hold, TRIES,
	    r) == -1)
		return;
	for (p = 0; p < st->n; p++)
		if (p != seat && !f->seen[p]) {
			for (c = 0; c < NY_COLOURS; c++)
				f->cnt[p][c] = hold[p][c];
			f->seen[p] = 1;
		}
}

/*
 * Deals the marks of colour c that nobody showed the seat to the places
 * that hide one: the pile below its known tops, the marker, the discards
 * and the others' chips; -1 if the counts do not add up.
 */
static int
marks_deal(struct vread *v, int seat, int c, struct nyse *st,
    struct facts *f, struct rng *r)
{
	int8_t pool[NY_PER_COLOUR + 1];
	int avail[NY_MARKS], m, p, i, n, t, bottom;

	for (m = 0; m < NY_MARKS; m++)
		avail[m] = per_mark[m] - st->used[c][m] - st->held[seat][c][m];
	for (i = 0; i < st->known[c]; i++)
		avail[f->top[c][i]]--;
	if (f->committed && c == st->sw_chip) {
		avail[NY_SWAP]--;
		st->held[st->turn][c][NY_SWAP]++;
	}
	for (n = 0, m = 0; m < NY_MARKS; m++) {
		if (avail[m] < 0 || n + avail[m] > (int)sizeof pool)
			return vr_fail(v, "view: too many %s %s chips",
			    nyse_colours[c], nyse_marks[m]);
		for (i = 0; i < avail[m]; i++)
			pool[n++] = (int8_t)m;
	}
	bottom = st->plen[c] - st->known[c];
	for (t = bottom + 1 + f->ngone[c], p = 0; p < st->n; p++)
		if (p != seat)
			t += f->cnt[p][c] - (f->committed && p == st->turn &&
			    c == st->sw_chip);
	if (t != n)
		return vr_fail(v, "view: %d %s chips hidden for %d places", n,
		    nyse_colours[c], t);
	rng_shuffle8(r, pool, n);
	n = 0;
	for (i = 0; i < bottom; i++)
		st->pile[c][i] = pool[n++];
	for (i = 0; i < st->known[c]; i++)
		st->pile[c][st->plen[c] - 1 - i] = f->top[c][i];
	st->marker[c] = pool[n++];
	for (i = 0; i < f->ngone[c]; i++)
		st->gone[c][pool[n++]]++;
	for (p = 0; p < st->n; p++) {
		if (p == seat)
			continue;
		t = f->cnt[p][c] - (f->committed && p == st->turn &&
		    c == st->sw_chip);
		for (i = 0; i < t; i++)
			st->held[p][c][pool[n++]]++;
	}
	return 0;
}

/* Reads seat's view of NYSE into st and completes it at random. */
int
nyse_determinize(void *vst, const struct opts *o, int seat,
    const json_t *view, struct rng *r, char *cause, size_t len)
{
	struct nyse *st = vst;
	struct vread v;
	struct facts f;
	const json_t *a, *j;
	int c, p, i;

	vr_init(&v, cause, len);
	memset(st, 0, sizeof *st);
	memset(&f, 0, sizeof f);
	f.gc = f.gm = -1;
	st->n = (int8_t)vr_int(&v, view, "players", 1, NY_MAXP);
	if (!v.bad && (seat < 0 || seat >= st->n))
		return vr_fail(&v, "seat %d is not at the table", seat);
	st->open = (int8_t)o->v[NY_OPT_OPEN];
	table_read(&v, view, seat, st, &f);
	turn_read(&v, view, st, &f);
	if (!st->open && records_read(&v, view, st, r) == -1)
		return -1;
	a = vr_get(&v, view, "refused", JSON_ARRAY);
	for (i = 0; !v.bad && i < (int)json_array_size(a); i++) {
		j = json_array_get(a, (size_t)i);
		p = (int)vr_int(&v, j, "target", 0, st->n - 1);
		c = vr_word(&v, j, "colour", nyse_colours);
		st->refused[p] |= (uint8_t)(1u << c);
	}
	if (st->n == 1 && !v.bad && solitaire_read(&v, view, st, &f) == -1)
		return -1;
	if (v.bad)
		return -1;
	if (colours_deal(&v, seat, st, &f, r) == -1)
		return -1;
	for (c = 0; c < NY_COLOURS; c++)
		if (marks_deal(&v, seat, c, st, &f, r) == -1)
			return -1;
	if (st->phase == NY_ANSWER) {
		if (seat == st->turn) {
			st->sw_gc = (int8_t)f.gc;
			st->sw_gm = (int8_t)f.gm;
		} else
			nyse_offer(st, f.gc, f.gm, r);
	}
	return 0;
}
