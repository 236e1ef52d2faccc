/*
 * Speculation's JSON codec: the views (built from the visibility rules of
 * speculation.md: nobody, not even the holder, sees a face-down card, nor
 * the widow before the deal ends), the actions, the events and the --setup
 * document.  protocol.md's "Game: speculation" section documents every
 * field; the rules live in speculation.c.
 */
#include <stdio.h>
#include <string.h>

#include "speculation.h"

static const char *const phase_names[] = {
	"trump", "turn", "found", "auction", "over"
};
static const char *const end_names[] = { "ace", "no_cards", "cap" };
static const char suit_letters[] = "SHDC";

static json_t	*positions_json(uint64_t);
static json_t	*card_or_null(int);
static json_t	*seat_or_null(int);
static json_t	*auction_json(const struct sp *);
static json_t	*last_deal_json(const struct sp *);
static int	 positions_parse(const json_t *, uint64_t *, char *, size_t);
static int	 amount_parse(const json_t *, struct action *, char *, size_t);
static int	 deck_parse(const json_t *, int8_t *, int *, const char *,
		    char *, size_t);

/* Returns a new array of the positions set in mask, lowest first. */
static json_t *
positions_json(uint64_t mask)
{
	json_t *a;
	int i;

	a = json_array();
	for (i = 0; i < 64; i++)
		if (mask & (1ULL << i))
			json_array_append_new(a, json_integer(i));
	return a;
}

/* Returns a new card name, or null for -1. */
static json_t *
card_or_null(int card)
{
	return card >= 0 ? card_json(card) : json_null();
}

/* Returns a new seat number, or null for -1. */
static json_t *
seat_or_null(int seat)
{
	return seat >= 0 ? json_integer(seat) : json_null();
}

/* Returns the running auction as a new object (public: every bid is). */
static json_t *
auction_json(const struct sp *st)
{
	const struct auction *a = &st->auc;
	json_t *j, *in;
	int i, p;

	in = json_array();
	for (i = 1; i < st->n; i++) {
		p = (a->seller + i) % st->n;
		if (a->in & (1u << p))
			json_array_append_new(in, json_integer(p));
	}
	j = json_pack("{s:i,s:s,s:i,s:i,s:o,s:i,s:o,s:i}", "seller",
	    a->seller, "item", st->auc_up ? "face_up" : "face_down", "min",
	    a->min, "high", a->high, "high_bidder",
	    seat_or_null(a->high_bidder), "next_min", auction_next_min(a),
	    "in", in, "turn", a->turn);
	if (st->auc_up)
		json_object_set_new(j, "card", card_json(st->high));
	else
		json_object_set_new(j, "positions",
		    positions_json(st->auc_lot));
	return j;
}

/* Returns the result of the previous deal as a new object, or null. */
static json_t *
last_deal_json(const struct sp *st)
{
	int w[3], i;

	if (st->last_end == SE_NONE)
		return json_null();
	for (i = 0; i < st->last_nwidow; i++)
		w[i] = st->last_widow[i];
	return json_pack("{s:i,s:i,s:o,s:i,s:b,s:s,s:o}", "deal",
	    st->last_deal, "winner", st->last_winner, "card",
	    card_json(st->last_card), "amount", st->last_amount, "carried",
	    st->last_carried, "end", end_names[st->last_end], "widow",
	    cards_json(w, st->last_nwidow));
}

/* Returns a seat's view as a new object: only what speculation.md's
 * Visibility section grants; SEAT_ALL adds every hidden card. */
json_t *
sp_view_json(const void *vst, int seat)
{
	const struct sp *st = vst;
	json_t *j, *players, *pl, *a;
	int p, i, cards[52];
	char suit[2] = { 0, 0 };

	players = json_array();
	for (p = 0; p < st->n; p++) {
		pl = json_pack("{s:i,s:i,s:o}", "counters", st->counters[p],
		    "face_down", st->nfd[p], "out", st->out[p] ?
		    json_integer(st->out[p]) : json_null());
		json_array_append_new(players, pl);
	}
	for (i = 0; i < st->ndisc; i++)
		cards[i] = st->disc[i];
	if (st->trump >= 0 && st->high >= 0)
		suit[0] = suit_letters[st->trump];
	j = json_pack("{s:o,s:i,s:i,s:i,s:s,s:o,s:o,s:o,s:o,s:i,s:i,s:o,"
	    "s:o,s:i,s:i,s:i}",
	    "seat", seat == SEAT_ALL ? json_null() : json_integer(seat),
	    "deal", st->deal, "deals", st->deals, "dealer", st->dealer,
	    "phase", phase_names[st->phase <= SP_OVER ? st->phase : SP_OVER],
	    "turn", st->phase == SP_OVER ? json_null() :
	    json_integer(st->turn),
	    "trump", suit[0] ? json_string(suit) : json_null(),
	    "high", card_or_null(st->high),
	    "holder", seat_or_null(st->holder),
	    "pool", st->pool, "ante", st->ante,
	    "players", players,
	    "discards", cards_json(cards, st->ndisc),
	    "widow", st->nwidow,
	    "turns", st->turns, "max_turns", st->max_turns);
	if (st->phase == SP_TURN || (st->phase == SP_AUCTION &&
	    st->auc_from == SP_TURN)) {
		json_object_set_new(j, "offered", positions_json(st->offered));
		json_object_set_new(j, "lot", positions_json(st->lot));
	}
	json_object_set_new(j, "auction", st->phase == SP_AUCTION ?
	    auction_json(st) : json_null());
	json_object_set_new(j, "last_deal", last_deal_json(st));
	if (seat != SEAT_ALL)
		return j;

	/* The all-seeing view (logs, replay): every hidden card. */
	a = json_array();
	for (p = 0; p < st->n; p++) {
		for (i = 0; i < st->nfd[p]; i++)
			cards[i] = st->fd[p][i];
		json_array_append_new(a, cards_json(cards, st->nfd[p]));
	}
	json_object_set_new(j, "hands", a);
	for (i = 0; i < st->nwidow; i++)
		cards[i] = st->widow[i];
	json_object_set_new(j, "widow_cards", cards_json(cards, st->nwidow));
	for (i = 0; i < st->nstock; i++)
		cards[i] = st->stock[i];
	json_object_set_new(j, "stock", cards_json(cards, st->nstock));
	json_object_set_new(j, "capped", json_boolean(st->capped));
	return j;
}

/* Returns an action as the protocol shows it (a new object). */
json_t *
sp_action_json(const void *vst, int player, struct action a)
{
	const struct sp *st = vst;
	json_t *j;

	switch (SP_KIND(a.code)) {
	case AK_KEEP:
		return json_pack("{s:s}", "type", "keep");
	case AK_SELL_UP:
		j = json_pack("{s:s,s:i}", "type", "sell_up", "amount",
		    a.amount);
		if ((st->phase == SP_TRUMP || st->phase == SP_NEWHIGH) &&
		    st->high >= 0)
			json_object_set_new(j, "card", card_json(st->high));
		return j;
	case AK_SELL:
		return json_pack("{s:s,s:o,s:i}", "type", "sell", "positions",
		    positions_json(SP_ARG(a.code)), "amount", a.amount);
	case AK_LOT:
		return json_pack("{s:s,s:i}", "type", "lot", "position",
		    (int)SP_ARG(a.code));
	case AK_TURN:
		return json_pack("{s:s,s:i}", "type", "turn", "position",
		    (int)SP_ARG(a.code));
	case AK_PASS:
		return json_pack("{s:s}", "type", "pass");
	case AK_BID:
		return json_pack("{s:s,s:i}", "type", "bid", "amount",
		    a.amount);
	case AK_DROP:
		return json_pack("{s:s}", "type", "drop");
	default:
		return json_pack("{s:s,s:I}", "type", "unknown", "code",
		    (json_int_t)a.code);
	}
}

/* Reads "amount": a whole number; -1 + cause if absent or out of range. */
static int
amount_parse(const json_t *j, struct action *a, char *cause, size_t len)
{
	const json_t *v = json_object_get(j, "amount");
	json_int_t x;

	if (!json_is_integer(v)) {
		snprintf(cause, len, "\"amount\" must be a whole number");
		return -1;
	}
	x = json_integer_value(v);
	if (x < 0 || x > INT32_MAX) {
		snprintf(cause, len, "\"amount\" %lld is out of range",
		    (long long)x);
		return -1;
	}
	a->amount = (int32_t)x;
	return 0;
}

/* Reads an array of distinct face-down positions into a mask. */
static int
positions_parse(const json_t *v, uint64_t *mask, char *cause, size_t len)
{
	const json_t *e;
	json_int_t x;
	size_t i;

	*mask = 0;
	if (!json_is_array(v) || json_array_size(v) == 0) {
		snprintf(cause, len, "\"positions\" must be a non-empty array "
		    "of face-down positions");
		return -1;
	}
	json_array_foreach(v, i, e) {
		x = json_is_integer(e) ? json_integer_value(e) : -1;
		if (x < 0 || x >= SP_FD_MAX || (*mask & (1ULL << x))) {
			snprintf(cause, len, "\"positions\": entry %zu is not a "
			    "distinct position from 0 to %d", i, SP_FD_MAX - 1);
			return -1;
		}
		*mask |= 1ULL << x;
	}
	return 0;
}

/* Parses what sp_action_json() produces; -1 + cause if malformed (legality
 * is apply()'s business). */
int
sp_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	static const char *const kinds[] = { "", "keep", "sell_up", "sell",
	    "lot", "turn", "pass", "bid", "drop" };
	const char *type;
	const json_t *v;
	json_int_t x;
	uint64_t mask;
	int k;

	a->code = 0;
	a->amount = 0;
	if (!json_is_object(j) ||
	    (type = json_string_value(json_object_get(j, "type"))) == NULL) {
		snprintf(cause, len, "an action is an object with a \"type\"");
		return -1;
	}
	for (k = AK_KEEP; k <= AK_DROP; k++)
		if (strcmp(type, kinds[k]) == 0)
			break;
	if (k > AK_DROP) {
		snprintf(cause, len, "unknown action type \"%s\"", type);
		return -1;
	}
	a->code = SP_CODE(k, 0);
	switch (k) {
	case AK_SELL_UP:
	case AK_BID:
		return amount_parse(j, a, cause, len);
	case AK_SELL:
		if (positions_parse(json_object_get(j, "positions"), &mask,
		    cause, len) == -1)
			return -1;
		a->code = SP_CODE(k, mask);
		return amount_parse(j, a, cause, len);
	case AK_LOT:
	case AK_TURN:
		v = json_object_get(j, "position");
		x = json_is_integer(v) ? json_integer_value(v) : -1;
		if (x < 0 || x >= SP_FD_MAX) {
			snprintf(cause, len, "\"position\" must be a face-down "
			    "position from 0 to %d", SP_FD_MAX - 1);
			return -1;
		}
		a->code = SP_CODE(k, x);
		return 0;
	default:
		return 0;
	}
}

/* Returns an event as a new object; it depends on the event alone. */
json_t *
sp_event_json(const void *vst, const struct event *e)
{
	json_t *j;
	uint64_t m = (uint64_t)e->x;
	int i, k;

	switch (e->type) {
	case SV_DEAL:
		return json_pack("{s:s,s:I,s:i}", "type", "deal", "deal",
		    (json_int_t)e->x, "dealer", e->a[0]);
	case SV_OUT:
		return json_pack("{s:s,s:i,s:i,s:I}", "type", "out", "player",
		    e->a[0], "counters", e->a[1], "deal", (json_int_t)e->x);
	case SV_ANTE:
		return json_pack("{s:s,s:i,s:i,s:i}", "type", "ante", "player",
		    e->a[0], "amount", e->a[1], "pool", e->a[2]);
	case SV_DEALT:
		return json_pack("{s:s,s:I,s:i,s:i}", "type", "dealt", "deal",
		    (json_int_t)e->x, "face_down", e->a[0], "widow", e->a[1]);
	case SV_TRUMP:
		return json_pack("{s:s,s:i,s:o,s:s#}", "type", "trump",
		    "dealer", e->a[0], "card", card_json(e->a[1]), "suit",
		    &suit_letters[CARD_SUIT(e->a[1])], 1);
	case SV_KEEP:
		return json_pack("{s:s,s:i,s:o}", "type", "keep", "player",
		    e->a[0], "card", card_json(e->a[1]));
	case SV_AUCTION:
		j = json_pack("{s:s,s:i,s:i}", "type", "auction", "seller",
		    e->a[0], "min", e->a[1]);
		if (e->a[2] >= 0)
			json_object_set_new(j, "card", card_json(e->a[2]));
		else
			json_object_set_new(j, "positions", positions_json(m));
		return j;
	case SV_BID:
		return json_pack("{s:s,s:i,s:i}", "type", "bid", "player",
		    e->a[0], "amount", e->a[1]);
	case SV_DROP:
		return json_pack("{s:s,s:i,s:b}", "type", "drop", "player",
		    e->a[0], "skipped", e->a[1]);
	case SV_SOLD:
		j = json_pack("{s:s,s:i,s:i,s:i}", "type", "sold", "seller",
		    e->a[0], "buyer", e->a[1], "price", e->a[2]);
		if (e->a[3] >= 0)
			json_object_set_new(j, "card", card_json(e->a[3]));
		else {
			json_object_set_new(j, "positions", positions_json(m));
			k = __builtin_popcountll(m);
			json_object_set_new(j, "new_positions",
			    positions_json(((1ULL << k) - 1) << e->a[4]));
		}
		return j;
	case SV_UNSOLD:
		j = json_pack("{s:s,s:i}", "type", "unsold", "seller",
		    e->a[0]);
		if (e->a[2] >= 0)
			json_object_set_new(j, "card", card_json(e->a[2]));
		else
			json_object_set_new(j, "positions", positions_json(m));
		return j;
	case SV_LOT:
		return json_pack("{s:s,s:i,s:i}", "type", "lot", "player",
		    e->a[0], "position", e->a[1]);
	case SV_TURNUP:
		return json_pack("{s:s,s:i,s:i,s:o,s:b,s:o}", "type",
		    "turn_up", "player", e->a[0], "position", e->a[1], "card",
		    card_json(e->a[2]), "high", e->a[3], "discarded",
		    card_or_null(e->a[4]));
	case SV_FINE:
		return json_pack("{s:s,s:i,s:i}", "type", "fine", "player",
		    e->a[0], "amount", e->a[1]);
	case SV_PASS:
		return json_pack("{s:s,s:i}", "type", "pass", "player",
		    e->a[0]);
	case SV_WIDOW:
		j = json_array();
		for (i = 0; i < 3; i++)
			json_array_append_new(j, card_json(e->a[i]));
		return json_pack("{s:s,s:o}", "type", "widow", "cards", j);
	case SV_DEAL_END:
		return json_pack("{s:s,s:I,s:i,s:o,s:i,s:b,s:s}", "type",
		    "deal_end", "deal", (json_int_t)e->x, "winner", e->a[0],
		    "card", card_json(e->a[4]), "amount", e->a[1], "carried",
		    e->a[3], "end", end_names[e->a[2]]);
	case SV_GAME_END:
		return json_pack("{s:s,s:I}", "type", "game_end", "deals",
		    (json_int_t)e->x);
	default:
		return json_pack("{s:s,s:i}", "type", "unknown", "event",
		    e->type);
	}
}

/* Reads one deck (card names from the top, distinct, no jokers). */
static int
deck_parse(const json_t *v, int8_t *deck, int *n, const char *what,
    char *cause, size_t len)
{
	const json_t *e;
	int seen[52], c;
	size_t i;

	if (!json_is_array(v) || json_array_size(v) > 52) {
		snprintf(cause, len, "setup: %s must be an array of at most 52 "
		    "card names, from the top", what);
		return -1;
	}
	memset(seen, 0, sizeof seen);
	json_array_foreach(v, i, e) {
		c = card_from_json(e);
		if (c < 0 || IS_JOKER(c)) {
			snprintf(cause, len, "setup: %s[%zu] is not a card of a "
			    "52-card deck (like \"7H\", \"TS\")", what, i);
			return -1;
		}
		if (seen[c]++) {
			snprintf(cause, len, "setup: %s[%zu]: %s is there twice",
			    what, i, json_string_value(e));
			return -1;
		}
		deck[i] = (int8_t)c;
	}
	*n = (int)json_array_size(v);
	return 0;
}

/* Parses the --setup document (deck or decks, dealer); -1 + cause. */
int
sp_setup_parse(const json_t *j, const struct opts *o, void *vsetup,
    char *cause, size_t len)
{
	struct sp_setup *s = vsetup;
	const char *key;
	const json_t *v, *e;
	json_int_t d;
	char what[32];
	size_t i;

	memset(s, 0, sizeof *s);
	s->dealer = -1;
	if (!json_is_object(j)) {
		snprintf(cause, len, "setup: not a JSON object");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "deck") != 0 && strcmp(key, "decks") != 0 &&
		    strcmp(key, "dealer") != 0) {
			snprintf(cause, len, "setup: unknown key \"%s\" (deck, "
			    "decks, dealer)", key);
			return -1;
		}
	}
	if (json_object_get(j, "deck") && json_object_get(j, "decks")) {
		snprintf(cause, len, "setup: give \"deck\" or \"decks\", not "
		    "both");
		return -1;
	}
	if ((v = json_object_get(j, "deck")) != NULL) {
		if (deck_parse(v, s->deck[0], &s->ndeck[0], "deck", cause,
		    len) == -1)
			return -1;
		s->ndecks = 1;
	}
	if ((v = json_object_get(j, "decks")) != NULL) {
		if (!json_is_array(v) || json_array_size(v) > SP_PRESETS) {
			snprintf(cause, len, "setup: decks must be an array of "
			    "at most %d decks (one per deal)", SP_PRESETS);
			return -1;
		}
		json_array_foreach(v, i, e) {
			snprintf(what, sizeof what, "decks[%zu]", i);
			if (deck_parse(e, s->deck[i], &s->ndeck[i], what, cause,
			    len) == -1)
				return -1;
		}
		s->ndecks = (int)json_array_size(v);
	}
	if ((v = json_object_get(j, "dealer")) != NULL) {
		d = json_is_integer(v) ? json_integer_value(v) : -1;
		if (d < 0 || d >= o->players) {
			snprintf(cause, len, "setup: dealer must be a seat from "
			    "0 to %d", o->players - 1);
			return -1;
		}
		s->dealer = (int)d;
	}
	return 0;
}
