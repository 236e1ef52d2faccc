/*
 * The JSON codec of NYSE (see nyse.c and protocol.md's "Game: nyse"): a
 * seat's view written from the visibility rules (the marks of one's own
 * chips, everyone's colour counts only with open_holdings, never the piles
 * or the markers' marks), the all-seeing view for logs, the actions as
 * objects and the events, each through one JSON writer (jw.h) that gives
 * the referee's text and the trees alike; and the parsers of actions and
 * of the --setup document.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "jw.h"
#include "nyse.h"

/* A colour's or a mark's name and its length, as the jw_*n calls take them. */
#define COLOUR_W(c)	nyse_colours[c], nyse_colour_len[c]
#define MARK_W(m)	nyse_marks[m], nyse_mark_len[m]

static const char *const phases[] = { "turn", "invest", "answer", "swap",
    "over" };
static const uint8_t phase_len[] = { 4, 6, 6, 4, 4 };	/* for jw_kword */
/* Marker positions: "A".."L", then "crashed" (NY_CRASHED and beyond). */
static const char *const positions[] = { "A", "B", "C", "D", "E", "F", "G",
    "H", "I", "J", "K", "L", "crashed" };

static void	pos_write(struct jw *, int);
static void	colour_write(struct jw *, const int *);
static void	marks_write(struct jw *, const uint8_t [NY_COLOURS][NY_MARKS],
		    int);
static void	holding_write(struct jw *, const struct nyse *, int, int);
static void	pile_write(struct jw *, const struct nyse *, int, int);
static void	special_write(struct jw *, int);
static void	outcome_write(struct jw *, const struct nyse *);
static void	swaps_write(struct jw *, const struct nyse *, int);
static void	nones_write(struct jw *, const struct nyse *);
static int	field(const json_t *, const char *, const char *const *,
		    int *, char *, size_t);
static int	setup_marks(const json_t *, struct nyse_setup *, int, char *,
		    size_t);

/* Writes a marker position: "A".."L", or "crashed". */
static void
pos_write(struct jw *w, int pos)
{
	pos = pos < 0 ? 0 : pos > NY_CRASHED ? NY_CRASHED : pos;
	/* "A".."L" a letter, "crashed" 7 (no scan) */
	jw_word(w, positions[pos], pos == NY_CRASHED ? 7 : 1);
}

/* Writes {"blue": v[0], "black": v[1], ...}. */
static void
colour_write(struct jw *w, const int *v)
{
	int c;

	jw_obj(w);
	for (c = 0; c < NY_COLOURS; c++)
		jw_kintn(w, COLOUR_W(c), v[c]);
	jw_end(w);
}

/* Writes {"blue": {"plain": k, ...}, ...}, from the mark `from` on. */
static void
marks_write(struct jw *w, const uint8_t k[NY_COLOURS][NY_MARKS], int from)
{
	int c, m;

	jw_obj(w);
	for (c = 0; c < NY_COLOURS; c++) {
		jw_kobjn(w, COLOUR_W(c));
		for (m = from; m < NY_MARKS; m++)
			jw_kintn(w, MARK_W(m), k[c][m]);
		jw_end(w);
	}
	jw_end(w);
}

/* Writes player p's holdings as seat sees them. */
static void
holding_write(struct jw *w, const struct nyse *st, int p, int seat)
{
	int v[NY_COLOURS], c;

	jw_obj(w);
	jw_kint(w, "chips", nyse_chips(st, p));
	if (st->open || seat == SEAT_ALL || seat == p ||
	    st->phase == NY_OVER) {
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = nyse_colour_count(st, p, c);
		jw_key(w, "colours");
		colour_write(w, v);
	}
	if (seat == SEAT_ALL || seat == p) {
		jw_key(w, "marks");
		marks_write(w, st->held[p], 0);
	}
	if (!st->open) {
		/* What everyone was told: chips taken, specials used. */
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = st->taken[p][c];
		jw_key(w, "taken");
		colour_write(w, v);
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = st->spent[p][c];
		jw_key(w, "used");
		colour_write(w, v);
	}
	jw_end(w);
}

/* Writes the top k marks of pile c, top first. */
static void
pile_write(struct jw *w, const struct nyse *st, int c, int k)
{
	int i;

	jw_arr(w);
	for (i = 0; i < k; i++)
		jw_word(w, MARK_W(st->pile[c][st->plen[c] - 1 - i]));
	jw_end(w);
}

/* Writes a solitaire special chip (colour * 4 + mark) as an object. */
static void
special_write(struct jw *w, int chip)
{
	jw_obj(w);
	jw_kword(w, "colour", COLOUR_W(chip / NY_MARKS));
	jw_kword(w, "mark", MARK_W(chip % NY_MARKS));
	jw_end(w);
}

/* Writes the "scores" and "places" keys of a finished game. */
static void
outcome_write(struct jw *w, const struct nyse *st)
{
	double scores[NY_MAXP];
	int places[NY_MAXP], p;

	nyse_scores(st, scores, places);
	jw_karr(w, "scores");
	for (p = 0; p < st->n; p++)
		jw_int(w, (long long)scores[p]);
	jw_end(w);
	jw_karr(w, "places");
	for (p = 0; p < st->n; p++)
		jw_int(w, places[p]);
	jw_end(w);
}

/*
 * Writes "swaps": every swap made, oldest first, with the colour given and
 * the two marks where seat was told them (the colour to all once over).
 */
static void
swaps_write(struct jw *w, const struct nyse *st, int seat)
{
	const int8_t *s;
	int i, party;

	jw_karr(w, "swaps");
	for (i = 0; i < st->nswaps; i++) {
		s = st->swaps[i];
		party = seat == SEAT_ALL || seat == s[0] || seat == s[1];
		jw_obj(w);
		jw_kint(w, "player", s[0]);
		jw_kint(w, "target", s[1]);
		jw_kword(w, "chip", COLOUR_W(s[2] & 3));
		if (party || st->phase == NY_OVER)
			jw_kword(w, "give_colour", COLOUR_W(s[3] & 3));
		jw_kword(w, "colour", COLOUR_W(s[4] & 3));
		if (party) {
			jw_kword(w, "give_mark", MARK_W(s[5] & 3));
			jw_kword(w, "mark", MARK_W(s[6] & 3));
		}
		jw_end(w);
	}
	jw_end(w);
}

/* Writes "nones": every "none" answer of the game, in turn order. */
static void
nones_write(struct jw *w, const struct nyse *st)
{
	int i, p, c;

	jw_karr(w, "nones");
	for (i = 0; i < st->nnone; i++)
		for (p = 0; p < st->n; p++)
			for (c = 0; c < NY_COLOURS; c++) {
				if (!(st->none[i][p] & (1u << c)))
					continue;
				jw_obj(w);
				jw_kint(w, "target", p);
				jw_kword(w, "colour", COLOUR_W(c));
				jw_kint(w, "player", st->none_by[i]);
				jw_kint(w, "turn", st->none_turn[i]);
				jw_end(w);
			}
	jw_end(w);
}

/* Writes the view of seat (SEAT_ALL: everything), from the visibility rules. */
void
nyse_view_write(const void *vst, int seat, struct jw *w)
{
	const struct nyse *st = vst;
	int k[NY_COLOURS], c, p, i, f;

	jw_obj(w);
	jw_kstr(w, "game", "nyse");
	jw_kint(w, "players", st->n);
	if (seat != SEAT_ALL)
		jw_kint(w, "seat", seat);
	jw_karr(w, "board");
	for (i = 0; i < NY_GREYS; i++)
		jw_int(w, st->board[i]);
	jw_end(w);
	jw_kobj(w, "markers");
	for (c = 0; c < NY_COLOURS; c++) {
		jw_kobjn(w, COLOUR_W(c));
		jw_key(w, "position");
		pos_write(w, st->pos[c]);
		jw_kint(w, "value", nyse_value(st, c));
		jw_kbool(w, "crashed", st->pos[c] >= NY_CRASHED);
		jw_end(w);
	}
	jw_end(w);
	for (c = 0; c < NY_COLOURS; c++)
		k[c] = st->plen[c];
	jw_key(w, "supply");
	colour_write(w, k);
	jw_key(w, "used");
	marks_write(w, st->used, NY_SPECULATE);
	for (c = 0; c < NY_COLOURS; c++)
		k[c] = st->gone[c][0] + st->gone[c][1] + st->gone[c][2] +
		    st->gone[c][3];
	jw_key(w, "discarded");
	colour_write(w, k);
	jw_karr(w, "holdings");
	for (p = 0; p < st->n; p++)
		holding_write(w, st, p, seat);
	jw_end(w);
	jw_kword(w, "phase", phases[st->phase], phase_len[st->phase]);
	jw_kint(w, "turn", st->turn);
	jw_kint(w, "turns", st->turns);
	if (st->phase == NY_INVESTING)
		jw_kint(w, "takes_left", st->left);
	if (st->phase == NY_ANSWER || st->phase == NY_SWAPPING) {
		jw_kobj(w, "committed");
		jw_kint(w, "player", st->turn);
		jw_kword(w, "chip", COLOUR_W(st->sw_chip));
		jw_end(w);
	}
	if (st->phase == NY_ANSWER) {
		jw_kobj(w, "request");
		jw_kint(w, "player", st->turn);
		jw_kint(w, "target", st->sw_target);
		jw_kword(w, "colour", COLOUR_W(st->sw_ac));
		jw_kword(w, "chip", COLOUR_W(st->sw_chip));
		if (st->open || seat == SEAT_ALL || seat == st->turn ||
		    seat == st->sw_target)
			jw_kword(w, "give_colour", COLOUR_W(st->sw_gc));
		if (seat == SEAT_ALL || seat == st->turn)
			jw_kword(w, "give_mark", MARK_W(st->sw_gm));
		jw_end(w);
	}
	if (!st->open) {
		swaps_write(w, st, seat);
		nones_write(w, st);
	}
	jw_karr(w, "refused");
	for (p = 0; p < st->n; p++)
		for (c = 0; c < NY_COLOURS; c++)
			if (st->refused[p] & (1u << c)) {
				jw_obj(w);
				jw_kint(w, "target", p);
				jw_kword(w, "colour", COLOUR_W(c));
				jw_end(w);
			}
	jw_end(w);
	if (st->n == 1) {
		jw_karr(w, "specials");
		for (i = 0; i < st->sqn; i++)
			special_write(w, st->sq[i]);
		jw_end(w);
		jw_key(w, "forced");
		if ((f = nyse_forced(st)) < 0)
			jw_null(w);
		else
			special_write(w, st->sq[f]);
		jw_kobj(w, "known");
		for (c = 0; c < NY_COLOURS; c++) {
			jw_keyn(w, COLOUR_W(c));
			pile_write(w, st, c, st->known[c]);
		}
		jw_end(w);
	}
	if (st->phase == NY_OVER) {
		outcome_write(w, st);
		jw_kint(w, "next", nyse_next(st));
	}
	if (seat == SEAT_ALL) {
		jw_kobj(w, "piles");
		for (c = 0; c < NY_COLOURS; c++) {
			jw_keyn(w, COLOUR_W(c));
			pile_write(w, st, c, st->plen[c]);
		}
		jw_end(w);
		jw_kobj(w, "marker_marks");
		for (c = 0; c < NY_COLOURS; c++)
			jw_kstr(w, nyse_colours[c], nyse_marks[st->marker[c]]);
		jw_end(w);
		jw_key(w, "discarded_marks");
		marks_write(w, st->gone, 0);
		jw_kint(w, "start", st->start);
		jw_kbool(w, "capped", 0);
	}
	jw_end(w);
}

/* Writes an action as the protocol shows it (no action of NYSE is ranged). */
void
nyse_action_write(const void *vst, int player, struct action a,
    struct jw *w)
{
	const struct nyse *st = vst;
	int64_t code = a.code;
	int f[5], i;

	(void)player;
	for (i = 0; i < 5; i++)
		f[i] = NY_F(code, i) % NY_COLOURS;
	jw_obj(w);
	switch (code < 0 || (code >> 28) ? 0 : NY_KIND(code)) {
	case NY_A_TAKE:
		jw_kstr(w, "type", "take");
		jw_kword(w, "colour", COLOUR_W(f[0]));
		break;
	case NY_A_DISCARD:
		jw_kstr(w, "type", "discard");
		jw_kword(w, "colour", COLOUR_W(f[0]));
		break;
	case NY_A_SPECULATE:
		jw_kstr(w, "type", "speculate");
		jw_kword(w, "chip", COLOUR_W(f[0]));
		jw_kword(w, "marker", COLOUR_W(f[1]));
		break;
	case NY_A_INVEST:
		jw_kstr(w, "type", "invest");
		jw_kword(w, "chip", COLOUR_W(f[0]));
		break;
	case NY_A_SWAP:
		jw_kstr(w, "type", "swap");
		jw_kword(w, "chip", COLOUR_W(f[0]));
		jw_kword(w, "give_colour", COLOUR_W(f[1]));
		jw_kword(w, "give_mark", MARK_W(f[2]));
		/* Solitaire, two such specials to give: which one. */
		if (st->n == 1 && f[2] != NY_PLAIN &&
		    st->held[0][f[1]][f[2]] - (f[1] == f[0] &&
		    f[2] == NY_SWAP) >= 2)
			jw_kword(w, "give_age", NY_AGE(code) ? "newer" :
			    "older", 5);
		if (NY_F(code, 3) == NY_SUPPLY || st->n == 1)
			jw_kword(w, "pile", COLOUR_W(f[4]));
		else {
			jw_kint(w, "target", NY_F(code, 3));
			jw_kword(w, "colour", COLOUR_W(f[4]));
		}
		break;
	case NY_A_GIVE:
		jw_kstr(w, "type", "give");
		jw_kword(w, "colour", COLOUR_W(f[0]));
		jw_kword(w, "mark", MARK_W(f[1]));
		break;
	case NY_A_NONE:
		jw_kstr(w, "type", "none");
		break;
	default:
		jw_kstr(w, "type", "unknown");
		jw_kint(w, "code", code);
		break;
	}
	jw_end(w);
}

/* Reads the name field key of o among names into *out; -1 + cause. */
static int
field(const json_t *o, const char *key, const char *const *names, int *out,
    char *cause, size_t len)
{
	const json_t *j;

	j = json_object_get(o, key);
	if ((*out = word_index(names, j)) == -1) {
		snprintf(cause, len, "\"%s\" must be one of %s, %s, %s, %s",
		    key, names[0], names[1], names[2], names[3]);
		return -1;
	}
	return 0;
}

/* Parses an action object (as nyse_action_write writes it); -1 + cause. */
int
nyse_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	static const char *const kinds[] = { "", "take", "discard",
	    "speculate", "invest", "swap", "give", "none", NULL };
	static const char *const ages[] = { "older", "newer", NULL };
	const struct nyse *st = vst;
	const json_t *t;
	int k, f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, age = 0;

	(void)player;
	a->code = 0;
	a->amount = 0;
	if (!json_is_object(j)) {
		snprintf(cause, len, "an action is an object with \"type\"");
		return -1;
	}
	if ((k = word_index(kinds, action_kind(j))) <= 0) {
		snprintf(cause, len, "\"type\" must be take, discard, "
		    "speculate, invest, swap, give or none");
		return -1;
	}
	switch (k) {
	case NY_A_TAKE:
	case NY_A_DISCARD:
		if (field(j, "colour", nyse_colours, &f0, cause, len) == -1)
			return -1;
		break;
	case NY_A_SPECULATE:
		if (field(j, "chip", nyse_colours, &f0, cause, len) == -1 ||
		    field(j, "marker", nyse_colours, &f1, cause, len) == -1)
			return -1;
		break;
	case NY_A_INVEST:
		if (field(j, "chip", nyse_colours, &f0, cause, len) == -1)
			return -1;
		break;
	case NY_A_SWAP:
		if (field(j, "chip", nyse_colours, &f0, cause, len) == -1 ||
		    field(j, "give_colour", nyse_colours, &f1, cause, len) ==
		    -1 ||
		    field(j, "give_mark", nyse_marks, &f2, cause, len) == -1)
			return -1;
		if (json_object_get(j, "give_age") != NULL &&
		    (age = word_index(ages, json_object_get(j, "give_age"))) ==
		    -1) {
			snprintf(cause, len, "\"give_age\" must be older or "
			    "newer");
			return -1;
		}
		if (json_object_get(j, "pile") != NULL) {
			f3 = NY_SUPPLY;
			if (field(j, "pile", nyse_colours, &f4, cause, len) ==
			    -1)
				return -1;
			break;
		}
		t = json_object_get(j, "target");
		if (!json_is_integer(t) || json_integer_value(t) < 0 ||
		    json_integer_value(t) >= NY_MAXP) {
			snprintf(cause, len, "a swap needs \"target\" (a seat) "
			    "and \"colour\", or \"pile\" in solitaire");
			return -1;
		}
		f3 = (int)json_integer_value(t);
		if (field(j, "colour", nyse_colours, &f4, cause, len) == -1)
			return -1;
		break;
	case NY_A_GIVE:
		/* The colour is the one asked: it may be left out. */
		if (json_object_get(j, "colour") == NULL && st != NULL &&
		    st->phase == NY_ANSWER)
			f0 = st->sw_ac;
		else if (field(j, "colour", nyse_colours, &f0, cause, len) ==
		    -1)
			return -1;
		if (field(j, "mark", nyse_marks, &f1, cause, len) == -1)
			return -1;
		break;
	}
	a->code = NY_CODE(k, f0, f1, f2, f3, f4) | (int64_t)age << 24;
	return 0;
}

/* Writes an event as the protocol shows it (the end event reads the scores). */
void
nyse_event_write(const void *vst, const struct event *e, struct jw *w)
{
	const struct nyse *st = vst;
	int v[NY_COLOURS], i, c;

#define COL(x)	COLOUR_W((x) & 3)
#define MARK(x)	MARK_W((x) & 3)
	jw_obj(w);
	switch (e->type) {
	case NY_EV_START:
		jw_kstr(w, "type", "start");
		jw_kint(w, "start", e->a[0]);
		jw_karr(w, "board");
		for (i = 0; i < NY_GREYS; i++)
			jw_int(w, (e->x >> (3 * i)) & 7);
		jw_end(w);
		break;
	case NY_EV_TURN:
		jw_kstr(w, "type", "turn");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "number", e->a[1]);
		jw_kint(w, "turn", e->a[1]);	/* protocol 1's name */
		break;
	case NY_EV_TAKE:
		jw_kstr(w, "type", "take");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "colour", COL(e->a[1]));
		jw_key(w, "from");
		pos_write(w, e->a[3]);
		jw_key(w, "to");
		pos_write(w, e->a[4]);
		jw_kint(w, "left", (int)e->x);
		if (e->a[2] >= 0)
			jw_kword(w, "mark", MARK(e->a[2]));
		break;
	case NY_EV_DISCARD:
		jw_kstr(w, "type", "discard");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "colour", COL(e->a[1]));
		jw_kint(w, "left", (int)e->x);
		break;
	case NY_EV_SPECULATE:
		jw_kstr(w, "type", "speculate");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "chip", COL(e->a[1]));
		jw_kword(w, "marker", COL(e->a[2]));
		jw_key(w, "from");
		pos_write(w, e->a[3]);
		jw_key(w, "to");
		pos_write(w, e->a[4]);
		break;
	case NY_EV_INVEST:
		jw_kstr(w, "type", "invest");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "chip", COL(e->a[1]));
		break;
	case NY_EV_ASK:
		jw_kstr(w, "type", "ask");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "target", e->a[1]);
		jw_kword(w, "colour", COL(e->a[2]));
		jw_kword(w, "chip", COL(e->a[3]));
		if (e->a[4] >= 0)
			jw_kword(w, "give_colour", COL(e->a[4]));
		break;
	case NY_EV_REFUSE:
		jw_kstr(w, "type", "none");
		jw_kint(w, "target", e->a[0]);
		jw_kword(w, "colour", COL(e->a[1]));
		jw_kint(w, "player", e->a[2]);
		break;
	case NY_EV_SWAP:
		jw_kstr(w, "type", "swap");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "target", e->a[1]);
		jw_kword(w, "chip", COL(e->a[2]));
		jw_kword(w, "colour", COL(e->a[4]));
		if (e->a[3] >= 0)
			jw_kword(w, "give_colour", COL(e->a[3]));
		if ((e->x & 15) != 0)
			jw_kword(w, "give_mark", MARK((e->x & 15) - 1));
		if (((e->x >> 4) & 15) != 0)
			jw_kword(w, "mark", MARK(((e->x >> 4) & 15) - 1));
		break;
	case NY_EV_PILESWAP:
		jw_kstr(w, "type", "swap");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "chip", COL(e->a[1]));
		jw_kword(w, "give_colour", COL(e->a[2]));
		jw_kword(w, "give_mark", MARK(e->a[3]));
		jw_kword(w, "pile", COL(e->a[4]));
		jw_kword(w, "mark", MARK(e->x));
		break;
	case NY_EV_VOID:
		jw_kstr(w, "type", "swap_void");
		jw_kint(w, "player", e->a[0]);
		jw_kword(w, "chip", COL(e->a[1]));
		break;
	case NY_EV_END:
		jw_kstr(w, "type", "end");
		jw_kint(w, "next", e->a[0]);
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = nyse_value(st, c);
		jw_key(w, "values");
		colour_write(w, v);
		outcome_write(w, st);
		break;
	default:
		jw_kstr(w, "type", "unknown");
		break;
	}
#undef COL
#undef MARK
	jw_end(w);
}

/* Reads "piles" or "markers" (which = 0 or 1) into su; -1 + cause. */
static int
setup_marks(const json_t *j, struct nyse_setup *su, int which, char *cause,
    size_t len)
{
	const char *key;
	json_t *v, *e;
	size_t i;
	int c, m;

	if (!json_is_object(j)) {
		snprintf(cause, len, "setup: \"%s\" must be an object by colour",
		    which ? "markers" : "piles");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		for (c = 0; nyse_colours[c] != NULL; c++)
			if (strcmp(key, nyse_colours[c]) == 0)
				break;
		if (nyse_colours[c] == NULL) {
			snprintf(cause, len, "setup: no colour \"%s\" (blue, "
			    "black, red, green)", key);
			return -1;
		}
		if (which) {
			if ((m = word_index(nyse_marks, v)) == -1) {
				snprintf(cause, len, "setup: markers.%s must be "
				    "plain, speculate, invest or swap", key);
				return -1;
			}
			su->marker[c] = (int8_t)m;
			continue;
		}
		if (!json_is_array(v) || json_array_size(v) > NY_PILE) {
			snprintf(cause, len, "setup: piles.%s must list at "
			    "most %d marks, from the top", key, NY_PILE);
			return -1;
		}
		json_array_foreach(v, i, e) {
			if ((m = word_index(nyse_marks, e)) == -1) {
				snprintf(cause, len, "setup: piles.%s[%zu] must "
				    "be plain, speculate, invest or swap", key,
				    i);
				return -1;
			}
			su->top[c][i] = (int8_t)m;
		}
		su->ntop[c] = (int8_t)json_array_size(v);
	}
	return 0;
}

/*
 * Parses a --setup document: {"piles": {colour: [marks from the top]},
 * "markers": {colour: mark}, "start": seat, "board": [six values]}, each
 * part optional (the rest is dealt from the seed); -1 + cause.
 */
int
nyse_setup_parse(const json_t *j, const struct opts *o, void *vsu,
    char *cause, size_t len)
{
	static const int8_t per_mark[NY_MARKS] = { 5, 2, 2, 2 };
	struct nyse_setup *su = vsu;
	const char *key;
	json_t *v, *e;
	long b[NY_GREYS];
	size_t i;
	int c, m, k, cnt[NY_MARKS];

	memset(su, 0, sizeof *su);
	memset(su->marker, -1, sizeof su->marker);
	su->start = -1;
	if (!json_is_object(j)) {
		snprintf(cause, len, "setup: not an object");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "piles") == 0 || strcmp(key, "markers") == 0) {
			if (setup_marks(v, su, key[0] == 'm', cause, len) == -1)
				return -1;
		} else if (strcmp(key, "start") == 0) {
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) >= o->players) {
				snprintf(cause, len, "setup: start must be a "
				    "seat from 0 to %d", o->players - 1);
				return -1;
			}
			su->start = (int8_t)json_integer_value(v);
		} else if (strcmp(key, "board") == 0) {
			if (!json_is_array(v) || json_array_size(v) != NY_GREYS)
				goto badboard;
			json_array_foreach(v, i, e) {
				if (!json_is_integer(e))
					goto badboard;
				b[i] = (long)json_integer_value(e);
			}
			if (!nyse_board_ok(b))
				goto badboard;
			k = NY_OPT_BOARD;
			if (o->given[k] && !o->keyword[k] &&
			    memcmp(o->list[k], b, sizeof b) != 0) {
				snprintf(cause, len, "setup: the board differs "
				    "from option board");
				return -1;
			}
			for (i = 0; i < NY_GREYS; i++)
				su->board[i] = (int8_t)b[i];
			su->has_board = 1;
		} else {
			snprintf(cause, len, "setup: unknown key \"%s\" (piles, "
			    "markers, start, board)", key);
			return -1;
		}
	}
	for (c = 0; c < NY_COLOURS; c++) {
		memset(cnt, 0, sizeof cnt);
		for (k = 0; k < su->ntop[c]; k++)
			cnt[su->top[c][k]]++;
		if (su->marker[c] >= 0)
			cnt[su->marker[c]]++;
		for (m = 0; m < NY_MARKS; m++)
			if (cnt[m] > per_mark[m]) {
				snprintf(cause, len, "setup: the %s pile and "
				    "marker hold %d %s chips; there are %d",
				    nyse_colours[c], cnt[m], nyse_marks[m],
				    per_mark[m]);
				return -1;
			}
	}
	return 0;

badboard:
	snprintf(cause, len, "setup: board must be six values, an order of "
	    "1,2,2,3,4,5");
	return -1;
}
