/*
 * The JSON codec of NYSE (see nyse.c and protocol.md's "Game: nyse"): a
 * seat's view built from the visibility rules (the marks of one's own chips,
 * everyone's colour counts only with open_holdings, never the piles or the
 * markers' marks), the all-seeing view for logs, the actions as objects,
 * the events and the --setup document.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "nyse.h"

static const char *const phases[] = { "turn", "invest", "answer", "over" };

static int	name_index(const char *const *, const json_t *);
static json_t	*pos_json(int);
static json_t	*colour_obj(const int *);
static json_t	*marks_obj(const uint8_t [NY_COLOURS][NY_MARKS], int);
static json_t	*holding_json(const struct nyse *, int, int);
static json_t	*pile_json(const struct nyse *, int, int);
static int	field(const json_t *, const char *, const char *const *,
		    int *, char *, size_t);
static int	setup_marks(const json_t *, struct nyse_setup *, int, char *,
		    size_t);

/* Returns the index of the JSON string j among names, or -1. */
static int
name_index(const char *const *names, const json_t *j)
{
	int i;

	if (!json_is_string(j))
		return -1;
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], json_string_value(j)) == 0)
			return i;
	return -1;
}

/* A marker position: "A".."L", or "crashed". */
static json_t *
pos_json(int pos)
{
	char s[2];

	if (pos >= NY_CRASHED)
		return json_string("crashed");
	s[0] = (char)('A' + pos);
	s[1] = '\0';
	return json_string(s);
}

/* {"blue": v[0], "black": v[1], ...}. */
static json_t *
colour_obj(const int *v)
{
	json_t *j;
	int c;

	j = json_object();
	for (c = 0; c < NY_COLOURS; c++)
		json_object_set_new(j, nyse_colours[c], json_integer(v[c]));
	return j;
}

/* {"blue": {"plain": k, ...}, ...}, from the mark `from` on. */
static json_t *
marks_obj(const uint8_t k[NY_COLOURS][NY_MARKS], int from)
{
	json_t *j, *o;
	int c, m;

	j = json_object();
	for (c = 0; c < NY_COLOURS; c++) {
		o = json_object();
		for (m = from; m < NY_MARKS; m++)
			json_object_set_new(o, nyse_marks[m],
			    json_integer(k[c][m]));
		json_object_set_new(j, nyse_colours[c], o);
	}
	return j;
}

/* Player p's holdings as seat sees them. */
static json_t *
holding_json(const struct nyse *st, int p, int seat)
{
	json_t *j;
	int v[NY_COLOURS], c;

	j = json_pack("{s:i}", "chips", nyse_chips(st, p));
	if (st->open || seat == SEAT_ALL || seat == p ||
	    st->phase == NY_OVER) {
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = nyse_colour_count(st, p, c);
		json_object_set_new(j, "colours", colour_obj(v));
	}
	if (seat == SEAT_ALL || seat == p)
		json_object_set_new(j, "marks", marks_obj(st->held[p], 0));
	return j;
}

/* The top k marks of pile c, top first. */
static json_t *
pile_json(const struct nyse *st, int c, int k)
{
	json_t *a;
	int i;

	a = json_array();
	for (i = 0; i < k; i++)
		json_array_append_new(a, json_string(
		    nyse_marks[st->pile[c][st->plen[c] - 1 - i]]));
	return a;
}

/* The view of seat (SEAT_ALL: everything), from the visibility rules. */
json_t *
nyse_view_json(const void *vst, int seat)
{
	const struct nyse *st = vst;
	json_t *v, *o, *a, *r;
	double scores[NY_MAXP];
	int places[NY_MAXP], k[NY_COLOURS], c, p, i, f;

	v = json_pack("{s:s,s:i}", "game", "nyse", "players", st->n);
	if (seat != SEAT_ALL)
		json_object_set_new(v, "seat", json_integer(seat));
	a = json_array();
	for (i = 0; i < NY_GREYS; i++)
		json_array_append_new(a, json_integer(st->board[i]));
	json_object_set_new(v, "board", a);
	o = json_object();
	for (c = 0; c < NY_COLOURS; c++)
		json_object_set_new(o, nyse_colours[c], json_pack("{s:o,s:i,"
		    "s:b}", "position", pos_json(st->pos[c]), "value",
		    nyse_value(st, c), "crashed", st->pos[c] >= NY_CRASHED));
	json_object_set_new(v, "markers", o);
	for (c = 0; c < NY_COLOURS; c++)
		k[c] = st->plen[c];
	json_object_set_new(v, "supply", colour_obj(k));
	json_object_set_new(v, "used", marks_obj(st->used, NY_SPECULATE));
	for (c = 0; c < NY_COLOURS; c++)
		k[c] = st->gone[c][0] + st->gone[c][1] + st->gone[c][2] +
		    st->gone[c][3];
	json_object_set_new(v, "discarded", colour_obj(k));
	a = json_array();
	for (p = 0; p < st->n; p++)
		json_array_append_new(a, holding_json(st, p, seat));
	json_object_set_new(v, "holdings", a);
	json_object_set_new(v, "phase", json_string(phases[st->phase]));
	json_object_set_new(v, "turn", json_integer(st->turn));
	json_object_set_new(v, "turns", json_integer(st->turns));
	if (st->phase == NY_INVESTING)
		json_object_set_new(v, "takes_left", json_integer(st->left));
	if (st->phase == NY_ANSWER) {
		r = json_pack("{s:i,s:i,s:s,s:s}", "player", st->turn,
		    "target", st->sw_target, "colour", nyse_colours[st->sw_ac],
		    "chip", nyse_colours[st->sw_chip]);
		if (st->open || seat == SEAT_ALL || seat == st->turn ||
		    seat == st->sw_target)
			json_object_set_new(r, "give_colour",
			    json_string(nyse_colours[st->sw_gc]));
		if (seat == SEAT_ALL || seat == st->turn)
			json_object_set_new(r, "give_mark",
			    json_string(nyse_marks[st->sw_gm]));
		json_object_set_new(v, "request", r);
	}
	a = json_array();
	for (p = 0; p < st->n; p++)
		for (c = 0; c < NY_COLOURS; c++)
			if (st->refused[p] & (1u << c))
				json_array_append_new(a, json_pack("{s:i,s:s}",
				    "target", p, "colour", nyse_colours[c]));
	json_object_set_new(v, "refused", a);
	if (st->n == 1) {
		a = json_array();
		for (i = 0; i < st->sqn; i++)
			json_array_append_new(a, json_pack("{s:s,s:s}",
			    "colour", nyse_colours[st->sq[i] / NY_MARKS],
			    "mark", nyse_marks[st->sq[i] % NY_MARKS]));
		json_object_set_new(v, "specials", a);
		f = nyse_forced(st);
		json_object_set_new(v, "forced", f < 0 ? json_null() :
		    json_pack("{s:s,s:s}", "colour",
		    nyse_colours[st->sq[f] / NY_MARKS], "mark",
		    nyse_marks[st->sq[f] % NY_MARKS]));
		o = json_object();
		for (c = 0; c < NY_COLOURS; c++)
			json_object_set_new(o, nyse_colours[c],
			    pile_json(st, c, st->known[c]));
		json_object_set_new(v, "known", o);
	}
	if (st->phase == NY_OVER) {
		nyse_scores(st, scores, places);
		a = json_array();
		r = json_array();
		for (p = 0; p < st->n; p++) {
			json_array_append_new(a, json_integer((json_int_t)
			    scores[p]));
			json_array_append_new(r, json_integer(places[p]));
		}
		json_object_set_new(v, "scores", a);
		json_object_set_new(v, "places", r);
		json_object_set_new(v, "next", json_integer(nyse_next(st)));
	}
	if (seat == SEAT_ALL) {
		o = json_object();
		r = json_object();
		for (c = 0; c < NY_COLOURS; c++) {
			json_object_set_new(o, nyse_colours[c],
			    pile_json(st, c, st->plen[c]));
			json_object_set_new(r, nyse_colours[c],
			    json_string(nyse_marks[st->marker[c]]));
		}
		json_object_set_new(v, "piles", o);
		json_object_set_new(v, "marker_marks", r);
		json_object_set_new(v, "discarded_marks",
		    marks_obj(st->gone, 0));
		json_object_set_new(v, "start", json_integer(st->start));
		json_object_set_new(v, "capped", json_false());
	}
	return v;
}

/* An action as the protocol shows it. */
json_t *
nyse_action_json(const void *vst, int player, struct action a)
{
	const struct nyse *st = vst;
	int64_t code = a.code;
	int f[5], i;

	for (i = 0; i < 5; i++)
		f[i] = NY_F(code, i) % NY_COLOURS;
	switch (code < 0 || (code >> 24) ? 0 : NY_KIND(code)) {
	case NY_A_TAKE:
		return json_pack("{s:s,s:s}", "action", "take", "colour",
		    nyse_colours[f[0]]);
	case NY_A_DISCARD:
		return json_pack("{s:s,s:s}", "action", "discard", "colour",
		    nyse_colours[f[0]]);
	case NY_A_SPECULATE:
		return json_pack("{s:s,s:s,s:s}", "action", "speculate",
		    "chip", nyse_colours[f[0]], "marker", nyse_colours[f[1]]);
	case NY_A_INVEST:
		return json_pack("{s:s,s:s}", "action", "invest", "chip",
		    nyse_colours[f[0]]);
	case NY_A_SWAP:
		if (NY_F(code, 3) == NY_SUPPLY || st->n == 1)
			return json_pack("{s:s,s:s,s:s,s:s,s:s}", "action",
			    "swap", "chip", nyse_colours[f[0]], "give_colour",
			    nyse_colours[f[1]], "give_mark", nyse_marks[f[2]],
			    "pile", nyse_colours[f[4]]);
		return json_pack("{s:s,s:s,s:s,s:s,s:i,s:s}", "action", "swap",
		    "chip", nyse_colours[f[0]], "give_colour",
		    nyse_colours[f[1]], "give_mark", nyse_marks[f[2]],
		    "target", NY_F(code, 3), "colour", nyse_colours[f[4]]);
	case NY_A_GIVE:
		return json_pack("{s:s,s:s,s:s}", "action", "give", "colour",
		    nyse_colours[f[0]], "mark", nyse_marks[f[1]]);
	case NY_A_NONE:
		return json_pack("{s:s}", "action", "none");
	}
	(void)player;
	return json_pack("{s:s,s:I}", "action", "unknown", "code",
	    (json_int_t)code);
}

/* Reads the name field key of o among names into *out; -1 + cause. */
static int
field(const json_t *o, const char *key, const char *const *names, int *out,
    char *cause, size_t len)
{
	const json_t *j;

	j = json_object_get(o, key);
	if ((*out = name_index(names, j)) == -1) {
		snprintf(cause, len, "\"%s\" must be one of %s, %s, %s, %s",
		    key, names[0], names[1], names[2], names[3]);
		return -1;
	}
	return 0;
}

/* Parses an action object (as action_json writes it); -1 + cause. */
int
nyse_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	static const char *const kinds[] = { "", "take", "discard",
	    "speculate", "invest", "swap", "give", "none", NULL };
	const json_t *t;
	int k, f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0;

	(void)vst;
	(void)player;
	a->code = 0;
	a->amount = 0;
	if (!json_is_object(j)) {
		snprintf(cause, len, "an action is an object with \"action\"");
		return -1;
	}
	if ((k = name_index(kinds, json_object_get(j, "action"))) <= 0) {
		snprintf(cause, len, "\"action\" must be take, discard, "
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
		if (field(j, "colour", nyse_colours, &f0, cause, len) == -1 ||
		    field(j, "mark", nyse_marks, &f1, cause, len) == -1)
			return -1;
		break;
	}
	a->code = NY_CODE(k, f0, f1, f2, f3, f4);
	return 0;
}

/* An event as the protocol shows it (the end event reads the scores). */
json_t *
nyse_event_json(const void *vst, const struct event *e)
{
	const struct nyse *st = vst;
	json_t *j, *a, *pl;
	double scores[NY_MAXP];
	int places[NY_MAXP], v[NY_COLOURS], i, c;

#define COL(x)	(nyse_colours[(x) & 3])
#define MARK(x)	(nyse_marks[(x) & 3])
	switch (e->type) {
	case NY_EV_START:
		a = json_array();
		for (i = 0; i < NY_GREYS; i++)
			json_array_append_new(a, json_integer((e->x >> (3 * i))
			    & 7));
		return json_pack("{s:s,s:i,s:o}", "type", "start", "start",
		    e->a[0], "board", a);
	case NY_EV_TURN:
		return json_pack("{s:s,s:i,s:i}", "type", "turn", "player",
		    e->a[0], "turn", e->a[1]);
	case NY_EV_TAKE:
		j = json_pack("{s:s,s:i,s:s,s:o,s:o,s:i}", "type", "take",
		    "player", e->a[0], "colour", COL(e->a[1]), "from",
		    pos_json(e->a[3]), "to", pos_json(e->a[4]), "left",
		    (int)e->x);
		if (e->a[2] >= 0)
			json_object_set_new(j, "mark",
			    json_string(MARK(e->a[2])));
		return j;
	case NY_EV_DISCARD:
		return json_pack("{s:s,s:i,s:s,s:i}", "type", "discard",
		    "player", e->a[0], "colour", COL(e->a[1]), "left",
		    (int)e->x);
	case NY_EV_SPECULATE:
		return json_pack("{s:s,s:i,s:s,s:s,s:o,s:o}", "type",
		    "speculate", "player", e->a[0], "chip", COL(e->a[1]),
		    "marker", COL(e->a[2]), "from", pos_json(e->a[3]), "to",
		    pos_json(e->a[4]));
	case NY_EV_INVEST:
		return json_pack("{s:s,s:i,s:s}", "type", "invest", "player",
		    e->a[0], "chip", COL(e->a[1]));
	case NY_EV_ASK:
		j = json_pack("{s:s,s:i,s:i,s:s,s:s}", "type", "ask", "player",
		    e->a[0], "target", e->a[1], "colour", COL(e->a[2]), "chip",
		    COL(e->a[3]));
		if (e->a[4] >= 0)
			json_object_set_new(j, "give_colour",
			    json_string(COL(e->a[4])));
		return j;
	case NY_EV_REFUSE:
		return json_pack("{s:s,s:i,s:s,s:i}", "type", "none", "target",
		    e->a[0], "colour", COL(e->a[1]), "player", e->a[2]);
	case NY_EV_SWAP:
		j = json_pack("{s:s,s:i,s:i,s:s,s:s}", "type", "swap",
		    "player", e->a[0], "target", e->a[1], "chip", COL(e->a[2]),
		    "colour", COL(e->a[4]));
		if (e->a[3] >= 0)
			json_object_set_new(j, "give_colour",
			    json_string(COL(e->a[3])));
		if ((e->x & 15) != 0)
			json_object_set_new(j, "give_mark",
			    json_string(MARK((e->x & 15) - 1)));
		if (((e->x >> 4) & 15) != 0)
			json_object_set_new(j, "mark",
			    json_string(MARK(((e->x >> 4) & 15) - 1)));
		return j;
	case NY_EV_PILESWAP:
		return json_pack("{s:s,s:i,s:s,s:s,s:s,s:s,s:s}", "type",
		    "swap", "player", e->a[0], "chip", COL(e->a[1]),
		    "give_colour", COL(e->a[2]), "give_mark", MARK(e->a[3]),
		    "pile", COL(e->a[4]), "mark", MARK(e->x));
	case NY_EV_END:
		nyse_scores(st, scores, places);
		a = json_array();
		pl = json_array();
		for (i = 0; i < st->n; i++) {
			json_array_append_new(a, json_integer((json_int_t)
			    scores[i]));
			json_array_append_new(pl, json_integer(places[i]));
		}
		for (c = 0; c < NY_COLOURS; c++)
			v[c] = nyse_value(st, c);
		return json_pack("{s:s,s:i,s:o,s:o,s:o}", "type", "end",
		    "next", e->a[0], "values", colour_obj(v), "scores", a,
		    "places", pl);
	}
#undef COL
#undef MARK
	return json_pack("{s:s}", "type", "unknown");
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
			if ((m = name_index(nyse_marks, v)) == -1) {
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
			if ((m = name_index(nyse_marks, e)) == -1) {
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
