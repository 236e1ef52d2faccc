/*
 * The JSON codec of daifugo: the views (built from the visibility rules:
 * a seat sees its own hand, the exchange it takes part in, and everything
 * public; never a dump of the state), the actions (plays naming their cards
 * and what each joker stands for), the events and the --setup document.
 * protocol.md's daifugo section documents every field.
 */
#include <stdio.h>
#include <string.h>

#include "daifugo.h"

static json_t	*hand_json(uint64_t, int);
static json_t	*seats_json(const uint8_t *, int);
static json_t	*packed_json(int32_t, int, int);
static json_t	*points_json(const struct event *, int);
static json_t	*rank_json(int);
static json_t	*jokers_as_json(int, uint64_t, int, int, int);
static json_t	*play_json(int64_t, int);
static json_t	*exchange_json(const struct df_state *, int);
static int	parse_cards(const json_t *, uint64_t *, int *, char *, size_t);
static int	parse_low(const json_t *, uint64_t, int, int *, char *,
		    size_t);
static int	parse_seats(const json_t *, int, uint8_t *, const char *,
		    char *, size_t);
static int	parse_deck(const json_t *, int, int8_t *, char *, size_t);

static const char *const kind_names[] = { "none", "single", "set",
    "sequence", "joker", "joker_pair" };
static const char *const class_names[] = { "commoner", "grand_millionaire",
    "millionaire", "poor", "very_poor" };
static const char *const phase_names[] = { "exchange", "play", "over" };

/* Returns a new array naming the cards of a mask (strength order), jokers last. */
static json_t *
hand_json(uint64_t nat, int jokers)
{
	int cards[DF_MAXDECK], n;

	n = df_nat_to_cards(nat, jokers, cards);
	return cards_json(cards, n);
}

/* Returns a new array of n seat numbers. */
static json_t *
seats_json(const uint8_t *seats, int n)
{
	json_t *a;
	int i;

	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(seats[i]));
	return a;
}

/* Returns a new array of n 3-bit fields of v, as numbers or class names. */
static json_t *
packed_json(int32_t v, int n, int classes)
{
	json_t *a;
	int i, f;

	a = json_array();
	for (i = 0; i < n; i++) {
		f = (v >> (3 * i)) & 7;
		json_array_append_new(a, classes ?
		    json_string(class_names[f > DC_VERY_POOR ? 0 : f]) :
		    json_integer(f));
	}
	return a;
}

/* Returns a new array of the 16-bit points packed into an event. */
static json_t *
points_json(const struct event *e, int n)
{
	json_t *a;
	int i;
	uint32_t v;

	a = json_array();
	for (i = 0; i < n; i++) {
		if (i < 4)
			v = (uint32_t)((uint64_t)e->x >> (16 * i)) & 0xffff;
		else if (i < 6)
			v = ((uint32_t)e->a[3] >> (16 * (i - 4))) & 0xffff;
		else
			v = (uint32_t)e->a[4] & 0xffff;
		json_array_append_new(a, json_integer(v));
	}
	return a;
}

/* Returns a rank letter for a strength index, or null for -1. */
static json_t *
rank_json(int s)
{
	char buf[2];

	if (s < 0 || s > 12)
		return json_null();
	buf[0] = df_rank_names[s];
	buf[1] = '\0';
	return json_string(buf);
}

/*
 * Returns what the jokers of a combination stand for: a set's rank letter
 * per joker, or the cards of a sequence's window it does not hold; NULL
 * when no joker stands in.
 */
static json_t *
jokers_as_json(int kind, uint64_t nat, int jokers, int low, int rank)
{
	json_t *a;
	char buf[3];
	int u, s, c;

	if (jokers == 0 || (kind != DK_SET && kind != DK_SEQ))
		return NULL;
	a = json_array();
	if (kind == DK_SET) {
		while (jokers-- > 0)
			json_array_append_new(a, rank_json(rank));
		return a;
	}
	u = __builtin_ctzll(nat) / 13;
	c = __builtin_popcountll(nat) + jokers;
	for (s = low; s < low + c; s++)
		if (!(nat & (1ULL << (u * 13 + s)))) {
			card_name(DF_CARD(u * 13 + s), buf);
			json_array_append_new(a, json_string(buf));
		}
	return a;
}

/*
 * Returns a new object describing play code as played in the given order:
 * cards, kind, count, rank (of the rank-deciding card) and jokers_as.
 */
static json_t *
play_json(int64_t code, int reversed)
{
	uint64_t nat = DA_NAT(code);
	int j = DA_JOK(code), low = DA_LOW(code), kind, rank, c;
	json_t *o, *ja;

	kind = df_classify(nat, j, low, &rank);
	c = __builtin_popcountll(nat) + j;
	o = json_object();
	json_object_set_new(o, "action", json_string("play"));
	json_object_set_new(o, "cards", hand_json(nat, j));
	json_object_set_new(o, "kind", json_string(kind_names[kind]));
	json_object_set_new(o, "rank", rank_json(df_deciding(kind, c, low,
	    rank, reversed)));
	if ((ja = jokers_as_json(kind, nat, j, low, rank)) != NULL)
		json_object_set_new(o, "jokers_as", ja);
	return o;
}

/* Returns the exchange as seat sees it, or NULL outside one. */
static json_t *
exchange_json(const struct df_state *st, int seat)
{
	json_t *o;
	int q = st->partner[seat], given;

	if (q < 0 || st->phase == DP_OVER)
		return NULL;
	given = !(st->pending & (1u << seat));
	o = json_object();
	json_object_set_new(o, "partner", json_integer(q));
	json_object_set_new(o, "count", json_integer(st->ngive[seat]));
	json_object_set_new(o, "rule", json_string(st->cls[seat] ==
	    DC_GRAND || st->cls[seat] == DC_RICH ? "free" : "strongest"));
	json_object_set_new(o, "gave", given ? hand_json(st->gift[seat],
	    st->gjok[seat]) : json_null());
	json_object_set_new(o, "got", st->exchanged ? hand_json(st->gift[q],
	    st->gjok[q]) : json_null());
	return o;
}

/*
 * Returns the view of seat (SEAT_ALL: everything, for logs and replay):
 * its own hand and exchange, and the public facts of the deal.
 */
json_t *
df_view_json(const void *vst, int seat)
{
	const struct df_state *st = vst;
	json_t *v, *a, *t, *ex;
	int p, play = st->phase == DP_PLAY, rev;

	rev = st->revolution ^ st->coup;
	v = json_object();
	json_object_set_new(v, "deal", json_integer(st->deal + 1));
	json_object_set_new(v, "deals", json_integer(st->deals));
	json_object_set_new(v, "phase", json_string(phase_names[st->phase]));
	if (seat != SEAT_ALL)
		json_object_set_new(v, "seat", json_integer(seat));
	json_object_set_new(v, "seating", seats_json(st->seat, st->np));
	a = json_array();
	for (p = 0; p < st->np; p++)
		json_array_append_new(a, json_string(class_names[st->cls[p]]));
	json_object_set_new(v, "classes", a);
	json_object_set_new(v, "previous", st->has_prev ?
	    seats_json(st->prev, st->np) : json_null());
	if (seat != SEAT_ALL)
		json_object_set_new(v, "hand", hand_json(st->hand[seat],
		    st->jok[seat]));
	else {
		a = json_array();
		for (p = 0; p < st->np; p++)
			json_array_append_new(a, hand_json(st->hand[p],
			    st->jok[p]));
		json_object_set_new(v, "hands", a);
	}
	a = json_array();
	for (p = 0; p < st->np; p++)
		json_array_append_new(a, json_integer(
		    __builtin_popcountll(st->hand[p]) + st->jok[p]));
	json_object_set_new(v, "hand_sizes", a);
	a = json_array();
	for (p = 0; p < st->np; p++)
		json_array_append_new(a, json_integer(st->total[p]));
	json_object_set_new(v, "points", a);
	a = json_array();
	for (p = 0; p < st->np; p++)
		json_array_append_new(a, json_integer(st->dpts[p]));
	json_object_set_new(v, "deal_points", a);
	json_object_set_new(v, "finished", seats_json(st->out, st->nout));
	json_object_set_new(v, "turn", play ? json_integer(st->turn) :
	    json_null());
	if (play && st->tkind != DK_NONE) {
		t = play_json(st->tcode, 0);
		json_object_del(t, "action");
		json_object_set_new(t, "rank", rank_json(st->tkind == DK_JOKER ||
		    st->tkind == DK_JPAIR ? -1 : st->trank));
		json_object_set_new(t, "count", json_integer(st->tcount));
		json_object_set_new(t, "player", json_integer(st->last));
		json_object_set_new(v, "table", t);
	} else
		json_object_set_new(v, "table", json_null());
	a = json_array();
	for (p = 0; p < st->np; p++)
		if (play && (st->passed & (1u << p)))
			json_array_append_new(a, json_integer(p));
	json_object_set_new(v, "passed", a);
	json_object_set_new(v, "revolution", json_boolean(st->revolution));
	json_object_set_new(v, "coup", json_boolean(st->coup));
	json_object_set_new(v, "order", json_string(rev ? "reversed" :
	    "normal"));
	json_object_set_new(v, "first_play", json_boolean(play && st->first));
	a = json_array();
	for (p = 0; p < st->np; p++)
		json_array_append_new(a, hand_json(st->played[p], st->pjok[p]));
	json_object_set_new(v, "played", a);
	a = json_array();
	for (p = 0; p < st->np; p++)
		if (st->phase == DP_EXCHANGE && (st->pending & (1u << p)))
			json_array_append_new(a, json_integer(p));
	json_object_set_new(v, "waiting", a);
	if (seat != SEAT_ALL) {
		ex = exchange_json(st, seat);
		json_object_set_new(v, "exchange", ex ? ex : json_null());
	} else {
		a = json_array();
		for (p = 0; p < st->np; p++)
			if ((ex = exchange_json(st, p)) != NULL) {
				json_object_set_new(ex, "player",
				    json_integer(p));
				json_array_append_new(a, ex);
			}
		json_object_set_new(v, "exchanges", a);
		json_object_set_new(v, "capped", json_false());
	}
	return v;
}

/* Returns a new object for an action of player in st. */
json_t *
df_action_json(const void *vst, int player, struct action a)
{
	const struct df_state *st = vst;
	json_t *o;

	if (a.code == DA_PASS)
		return json_pack("{s:s}", "action", "pass");
	if (DA_TYPE(a.code) == DA_GIVE) {
		o = json_object();
		json_object_set_new(o, "action", json_string("give"));
		json_object_set_new(o, "cards", hand_json(DA_NAT(a.code),
		    DA_JOK(a.code)));
		return o;
	}
	return play_json(a.code, st->revolution ^ st->coup);
}

/* Reads a card list: a naturals mask and a joker count; -1 + cause. */
static int
parse_cards(const json_t *j, uint64_t *nat, int *jokers, char *cause,
    size_t len)
{
	const json_t *e;
	size_t i;
	int c, b;

	*nat = 0;
	*jokers = 0;
	if (!json_is_array(j)) {
		snprintf(cause, len, "\"cards\" must be an array of card names");
		return -1;
	}
	json_array_foreach(j, i, e) {
		if ((c = card_from_json(e)) == -1) {
			snprintf(cause, len, "cards[%zu] is not a card name "
			    "(like \"7H\", \"TS\", \"JK\")", i);
			return -1;
		}
		if (IS_JOKER(c)) {
			if (++*jokers > 2) {
				snprintf(cause, len, "more than two jokers");
				return -1;
			}
			continue;
		}
		b = DF_BIT(c);
		if (*nat & (1ULL << b)) {
			snprintf(cause, len, "cards[%zu] is given twice", i);
			return -1;
		}
		*nat |= 1ULL << b;
	}
	return 0;
}

/*
 * Works out a play's reading: the low end of a sequence from jokers_as (or
 * from the naturals when they leave no choice), 0 for other plays.
 */
static int
parse_low(const json_t *ja, uint64_t nat, int jokers, int *low, char *cause,
    size_t len)
{
	const json_t *e;
	const char *s, *r;
	uint64_t all = nat;
	size_t i;
	int c, lo, hi, b, m = __builtin_popcountll(nat), s0;

	*low = 0;
	if (ja != NULL && (!json_is_array(ja) ||
	    json_array_size(ja) != (size_t)jokers)) {
		snprintf(cause, len, "\"jokers_as\" must list what each joker "
		    "stands for");
		return -1;
	}
	if (m == 0)
		return 0;
	s0 = __builtin_ctzll(nat) % 13;
	if ((nat & ~((1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39) << s0)) ==
	    0) {
		/* A single or a set: each joker stands for its rank. */
		json_array_foreach(ja, i, e) {
			s = json_string_value(e);
			if (s == NULL || strlen(s) < 1 ||
			    (r = strchr(df_rank_names, s[0])) == NULL ||
			    (int)(r - df_rank_names) != s0 ||
			    (strlen(s) != 1 && (c = card_parse(s)) == -1)) {
				snprintf(cause, len, "jokers_as[%zu]: a joker in "
				    "a set stands for its rank \"%c\"", i,
				    df_rank_names[s0]);
				return -1;
			}
		}
		return 0;
	}
	if (ja == NULL) {
		lo = 13;
		hi = -1;
		for (b = 0; b < DF_NNAT; b++)
			if (nat & (1ULL << b)) {
				if (b % 13 < lo)
					lo = b % 13;
				if (b % 13 > hi)
					hi = b % 13;
			}
		if (jokers > 0 && hi - lo + 1 != m + jokers) {
			snprintf(cause, len, "a sequence whose jokers could "
			    "stand for different cards needs \"jokers_as\"");
			return -1;
		}
		*low = lo;
		return 0;
	}
	json_array_foreach(ja, i, e) {
		if ((c = card_from_json(e)) == -1 || IS_JOKER(c)) {
			snprintf(cause, len, "jokers_as[%zu] is not a card "
			    "name", i);
			return -1;
		}
		b = DF_BIT(c);
		if (all & (1ULL << b)) {
			snprintf(cause, len, "jokers_as[%zu] names a card "
			    "already in the play", i);
			return -1;
		}
		all |= 1ULL << b;
	}
	lo = 13;
	for (b = 0; b < DF_NNAT; b++)
		if ((all & (1ULL << b)) && b % 13 < lo)
			lo = b % 13;
	*low = lo;
	return 0;
}

/* Parses an action given by value; -1 + cause if malformed. */
int
df_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	const char *kind;
	uint64_t nat;
	int jokers, low;

	a->code = DA_PASS;
	a->amount = 0;
	if (!json_is_object(j) ||
	    (kind = json_string_value(json_object_get(j, "action"))) ==
	    NULL) {
		snprintf(cause, len, "an action is an object with \"action\": "
		    "\"play\", \"pass\" or \"give\"");
		return -1;
	}
	if (strcmp(kind, "pass") == 0)
		return 0;
	if (strcmp(kind, "play") != 0 && strcmp(kind, "give") != 0) {
		snprintf(cause, len, "unknown action \"%s\"", kind);
		return -1;
	}
	if (parse_cards(json_object_get(j, "cards"), &nat, &jokers, cause,
	    len) == -1)
		return -1;
	if (strcmp(kind, "give") == 0) {
		a->code = DA_MAKE(DA_GIVE, nat, jokers, 0);
		return 0;
	}
	if (nat == 0 && jokers == 0) {
		snprintf(cause, len, "a play needs at least one card");
		return -1;
	}
	if (parse_low(json_object_get(j, "jokers_as"), nat, jokers, &low,
	    cause, len) == -1)
		return -1;
	a->code = DA_MAKE(DA_PLAY, nat, jokers, low > 12 ? 0 : low);
	return 0;
}

/* Returns a new object for an event. */
json_t *
df_event_json(const void *vst, const struct event *e)
{
	const struct df_state *st = vst;
	json_t *o;

	switch (e->type) {
	case DE_DEAL:
		return json_pack("{s:s,s:i,s:o,s:o}", "type", "deal", "deal",
		    e->a[0] + 1, "seating", packed_json(e->a[1], st->np, 0),
		    "classes", packed_json(e->a[2], st->np, 1));
	case DE_HAND:
		return json_pack("{s:s,s:i,s:o}", "type", "hand", "player",
		    e->a[0], "cards", hand_json((uint64_t)e->x, e->a[1]));
	case DE_GIVE:
		return json_pack("{s:s,s:i,s:i,s:o}", "type", "exchange",
		    "from", e->a[0], "to", e->a[1], "cards",
		    hand_json((uint64_t)e->x, e->a[2]));
	case DE_SWAP:
		return json_pack("{s:s,s:i,s:i,s:i}", "type", "exchange",
		    "from", e->a[0], "to", e->a[1], "count", e->a[2]);
	case DE_TRICK:
		return json_pack("{s:s,s:i,s:b}", "type", "trick", "leader",
		    e->a[0], "first_play", e->a[1]);
	case DE_PLAY:
		o = play_json(e->x, 0);
		json_object_set_new(o, "type", json_string("play"));
		json_object_del(o, "action");
		json_object_set_new(o, "player", json_integer(e->a[0]));
		json_object_set_new(o, "rank", rank_json(e->a[2]));
		json_object_set_new(o, "left", json_integer(e->a[3]));
		return o;
	case DE_PASS:
		if (e->a[1] < 0)
			return json_pack("{s:s,s:i}", "type", "pass", "player",
			    e->a[0]);
		return json_pack("{s:s,s:i,s:b}", "type", "pass", "player",
		    e->a[0], "auto", e->a[1]);
	case DE_REVOLUTION:
		return json_pack("{s:s,s:b}", "type", "revolution", "on",
		    e->a[0]);
	case DE_COUP:
		return json_pack("{s:s,s:b}", "type", "coup", "on", e->a[0]);
	case DE_TRICK_END:
		return json_pack("{s:s,s:i,s:b,s:i}", "type", "trick_end",
		    "last", e->a[0], "trump", e->a[1], "leader", e->a[2]);
	case DE_OUT:
		return json_pack("{s:s,s:i,s:i,s:i}", "type", "out", "player",
		    e->a[0], "place", e->a[1], "points", e->a[2]);
	case DE_DEAL_END:
		return json_pack("{s:s,s:i,s:o,s:o}", "type", "deal_end",
		    "deal", e->a[0] + 1, "order", packed_json(e->a[1], st->np,
		    0), "points", points_json(e, st->np));
	case DE_GAME_END:
		return json_pack("{s:s,s:o}", "type", "game_end", "points",
		    points_json(e, st->np));
	}
	return json_pack("{s:s}", "type", "unknown");
}

/* Reads a permutation of the n seats; -1 + cause. */
static int
parse_seats(const json_t *j, int n, uint8_t *out, const char *what,
    char *cause, size_t len)
{
	const json_t *e;
	size_t i;
	unsigned seen = 0;
	json_int_t v;

	if (!json_is_array(j) || json_array_size(j) != (size_t)n) {
		snprintf(cause, len, "setup: \"%s\" must list the %d seats", what,
		    n);
		return -1;
	}
	json_array_foreach(j, i, e) {
		v = json_integer_value(e);
		if (!json_is_integer(e) || v < 0 || v >= n ||
		    (seen & (1u << v))) {
			snprintf(cause, len, "setup: \"%s\" must be a "
			    "permutation of the seats 0-%d", what, n - 1);
			return -1;
		}
		seen |= 1u << v;
		out[i] = (uint8_t)v;
	}
	return 0;
}

/* Reads one deck (every card once, JK as often as there are jokers). */
static int
parse_deck(const json_t *j, int jokers, int8_t *out, char *cause,
    size_t len)
{
	const json_t *e;
	uint64_t seen = 0;
	size_t i, n = DF_NNAT + (size_t)jokers;
	int c, jk = 0;

	if (!json_is_array(j) || json_array_size(j) != n) {
		snprintf(cause, len, "setup: a deck lists all %zu cards (52 and "
		    "%d jokers), from the top", n, jokers);
		return -1;
	}
	json_array_foreach(j, i, e) {
		if ((c = card_from_json(e)) == -1) {
			snprintf(cause, len, "setup: deck[%zu] is not a card "
			    "name", i);
			return -1;
		}
		if (IS_JOKER(c)) {
			if (++jk > jokers) {
				snprintf(cause, len, "setup: the deck has more "
				    "than %d jokers", jokers);
				return -1;
			}
			out[i] = (int8_t)(JOKER + jk - 1);
			continue;
		}
		if (seen & (1ULL << c)) {
			snprintf(cause, len, "setup: deck[%zu] %s is there "
			    "twice", i, json_string_value(e));
			return -1;
		}
		seen |= 1ULL << c;
		out[i] = (int8_t)c;
	}
	return 0;
}

/* Parses a --setup document; -1 + cause if invalid. */
int
df_setup_parse(const json_t *j, const struct opts *o, void *vsu,
    char *cause, size_t len)
{
	struct df_setup *su = vsu;
	const json_t *e, *decks;
	const char *key;
	size_t i;
	int jokers = (int)o->v[DO_JOKERS];

	memset(su, 0, sizeof *su);
	if (!json_is_object(j)) {
		snprintf(cause, len, "setup: must be a JSON object");
		return -1;
	}
	json_object_foreach((json_t *)j, key, e)
		if (strcmp(key, "deck") != 0 && strcmp(key, "decks") != 0 &&
		    strcmp(key, "seating") != 0 &&
		    strcmp(key, "previous") != 0) {
			snprintf(cause, len, "setup: unknown key \"%s\" (deck, "
			    "decks, seating, previous)", key);
			return -1;
		}
	if ((e = json_object_get(j, "deck")) != NULL) {
		if (json_object_get(j, "decks") != NULL) {
			snprintf(cause, len, "setup: give \"deck\" or \"decks\", "
			    "not both");
			return -1;
		}
		if (parse_deck(e, jokers, su->decks[0], cause, len) == -1)
			return -1;
		su->ndecks = 1;
	}
	if ((decks = json_object_get(j, "decks")) != NULL) {
		if (!json_is_array(decks) || json_array_size(decks) == 0 ||
		    json_array_size(decks) > DF_FIXED) {
			snprintf(cause, len, "setup: \"decks\" is a list of 1 to "
			    "%d decks, one a deal", DF_FIXED);
			return -1;
		}
		json_array_foreach(decks, i, e) {
			if (parse_deck(e, jokers, su->decks[i], cause, len) ==
			    -1)
				return -1;
		}
		su->ndecks = (int)json_array_size(decks);
	}
	if ((e = json_object_get(j, "seating")) != NULL) {
		if (json_object_get(j, "previous") != NULL) {
			snprintf(cause, len, "setup: \"previous\" seats the "
			    "players itself; give it or \"seating\"");
			return -1;
		}
		if (parse_seats(e, o->players, su->seating, "seating", cause,
		    len) == -1)
			return -1;
		su->has_seating = 1;
	}
	if ((e = json_object_get(j, "previous")) != NULL) {
		if (parse_seats(e, o->players, su->previous, "previous", cause,
		    len) == -1)
			return -1;
		su->has_previous = 1;
	}
	return 0;
}
