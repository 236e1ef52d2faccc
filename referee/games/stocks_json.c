/*
 * The JSON codec of stocks (see stocks.c and protocol.md's "Game: stocks"):
 * a seat's view built from the visibility rules of the brief (own hand
 * private, the stock's order hidden from all, everything else public), the
 * all-seeing view for logs, actions as {"type": ...} objects, events, and
 * the --setup document.
 */
#include <stdio.h>
#include <string.h>

#include "stocks.h"

static json_t	*card_list(const uint8_t *, int);
static json_t	*company_json(const struct stocks *, int);
static json_t	*seat_json(const struct stocks *, int);
static int	 setup_cards(const json_t *, const char *, uint8_t *, int,
		    int, int *, char *, size_t);

static const char *const phase_names[] = { "unused", "open", "closed" };
static const char *const company_names[ST_NCOMP] = { "spades", "hearts",
    "diamonds", "clubs" };
static const char *const suit_keys[ST_NCOMP] = { "S", "H", "D", "C" };

/* Returns a new JSON array naming n cards. */
static json_t *
card_list(const uint8_t *cards, int n)
{
	json_t *a;
	int i;

	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, card_json(cards[i]));
	return a;
}

/* Returns a new object describing company s: price, limits, stack. */
static json_t *
company_json(const struct stocks *st, int s)
{
	int top;

	top = st->pile[s][st->npile[s] - 1];
	return json_pack("{s:s,s:s,s:i,s:o,s:b,s:b,s:i,s:i,s:o}",
	    "suit", suit_keys[s], "name", company_names[s],
	    "price", (int)st->value[s], "top", card_json(top),
	    "face_on_top", stocks_is_face(top), "bankrupt", (int)st->zero[s],
	    "up", (int)stocks_up[s], "down", (int)stocks_down[s],
	    "stack", card_list(st->pile[s], st->npile[s]));
}

/* Returns a new object with the public facts of player p. */
static json_t *
seat_json(const struct stocks *st, int p)
{
	json_t *certs, *shares;
	int c, k, s;

	certs = json_array();
	for (c = 0; c < 52; c++)
		for (k = 0; k < st->cert[p][c]; k++)
			json_array_append_new(certs, card_json(c));
	shares = json_object();
	for (s = 0; s < ST_NCOMP; s++)
		json_object_set_new(shares, suit_keys[s],
		    json_integer(st->shares[p][s]));
	return json_pack("{s:i,s:i,s:i,s:o,s:o,s:i}",
	    "money", (int)st->money[p], "debt", (int)st->debt[p],
	    "hand", (int)st->nhand[p], "certificates", certs,
	    "shares", shares, "wealth", (int)stocks_wealth(st, p));
}

/*
 * Returns a new view for seat (SEAT_ALL: everything, hands and the stock's
 * order included).  Built field by field from what the seat may see.
 */
json_t *
stocks_view_json(const void *vst, int seat)
{
	const struct stocks *st = vst;
	json_t *j, *a, *h;
	int s, p, i, jokers;
	uint8_t top_first[ST_CARDS];

	j = json_object();
	json_object_set_new(j, "players", json_integer(st->players));
	json_object_set_new(j, "seat", seat == SEAT_ALL ? json_null() :
	    json_integer(seat));
	json_object_set_new(j, "start", json_integer(st->start));
	json_object_set_new(j, "turn", json_integer(st->turn));
	json_object_set_new(j, "turns", json_integer(st->turns));
	json_object_set_new(j, "max_turns", json_integer(st->max_turns));
	json_object_set_new(j, "phase", json_pack("{s:s,s:s,s:i,s:i,s:i}",
	    "trade", phase_names[st->trade], "price", phase_names[st->price],
	    "buys", (int)st->buys, "prices", (int)st->prices,
	    "discards", (int)st->discards));
	json_object_set_new(j, "bought", card_list(st->bought, st->nbought));
	json_object_set_new(j, "bank", json_integer(st->bank));
	a = json_array();
	for (s = 0; s < ST_NCOMP; s++)
		json_array_append_new(a, company_json(st, s));
	json_object_set_new(j, "companies", a);
	a = json_array();
	for (p = 0; p < st->players; p++)
		json_array_append_new(a, seat_json(st, p));
	json_object_set_new(j, "seats", a);
	if (seat >= 0 && seat < st->players)
		json_object_set_new(j, "hand",
		    card_list(st->hand[seat], st->nhand[seat]));
	json_object_set_new(j, "stock", json_integer(st->nstock));
	for (jokers = 0, i = 0; i < st->nstock; i++)
		jokers += IS_JOKER(st->stock[i]);
	json_object_set_new(j, "jokers_in_stock", json_boolean(jokers > 0));
	json_object_set_new(j, "discard", card_list(st->discard,
	    st->ndiscard));
	json_object_set_new(j, "over", json_boolean(st->over));
	json_object_set_new(j, "capped", json_boolean(st->capped));
	json_object_set_new(j, "joker_drawn_by", st->joker_by >= 0 ?
	    json_integer(st->joker_by) : json_null());
	if (seat == SEAT_ALL) {
		a = json_array();
		for (p = 0; p < st->players; p++) {
			h = card_list(st->hand[p], st->nhand[p]);
			json_array_append_new(a, h);
		}
		json_object_set_new(j, "hands", a);
		for (i = 0; i < st->nstock; i++)
			top_first[i] = st->stock[st->nstock - 1 - i];
		json_object_set_new(j, "stock_cards", card_list(top_first,
		    st->nstock));
	}
	return j;
}

/* Returns a new object for an action code (with its price for a trade). */
json_t *
stocks_action_json(const void *vst, int player, struct action a)
{
	const struct stocks *st = vst;
	int c, kind, sh, s;

	if (a.code == ST_END)
		return json_pack("{s:s}", "type", "end");
	kind = ST_KIND(a.code);
	c = ST_CARD(a.code);
	if (a.code < 0 || c >= 52 || kind < K_BUY || kind > K_DISCARD)
		return json_pack("{s:s,s:I}", "type", "unknown", "code",
		    (json_int_t)a.code);
	s = CARD_SUIT(c);
	sh = stocks_card_shares(c);
	switch (kind) {
	case K_BUY:
		return json_pack("{s:s,s:o,s:i,s:i}", "type", "buy", "card",
		    card_json(c), "shares", sh, "cost", st->value[s] * sh);
	case K_SELL:
		return json_pack("{s:s,s:o,s:i,s:i}", "type", "sell", "card",
		    card_json(c), "shares", sh, "proceeds", st->value[s] * sh);
	case K_PRICE:
		return json_pack("{s:s,s:o,s:i}", "type", "price", "card",
		    card_json(c), "value", CARD_RANK(c) + 1);
	case K_ZERO:
		return json_pack("{s:s,s:o,s:i}", "type", "price", "card",
		    card_json(c), "value", 0);
	default:
		return json_pack("{s:s,s:o}", "type", "discard", "card",
		    card_json(c));
	}
}

/* Parses {"type": "end"|"buy"|"sell"|"price"|"discard", "card", "value"}. */
int
stocks_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	const char *type;
	json_t *jv;
	int c, kind, v;

	if (!json_is_object(j) ||
	    (type = json_string_value(json_object_get(j, "type"))) == NULL) {
		snprintf(cause, len, "an action is an object with a \"type\"");
		return -1;
	}
	a->amount = 0;
	if (strcmp(type, "end") == 0) {
		a->code = ST_END;
		return 0;
	}
	if (strcmp(type, "buy") == 0)
		kind = K_BUY;
	else if (strcmp(type, "sell") == 0)
		kind = K_SELL;
	else if (strcmp(type, "price") == 0)
		kind = K_PRICE;
	else if (strcmp(type, "discard") == 0)
		kind = K_DISCARD;
	else {
		snprintf(cause, len, "unknown action type \"%s\" (end, buy, "
		    "sell, price, discard)", type);
		return -1;
	}
	c = card_from_json(json_object_get(j, "card"));
	if (c < 0 || IS_JOKER(c)) {
		snprintf(cause, len, "%s: \"card\" must name a card such as "
		    "\"7H\"", type);
		return -1;
	}
	if (kind == K_PRICE) {
		jv = json_object_get(j, "value");
		if (jv == NULL && stocks_is_face(c)) {
			snprintf(cause, len, "price: a face card needs "
			    "\"value\": %d or 0", CARD_RANK(c) + 1);
			return -1;
		}
		v = jv == NULL ? CARD_RANK(c) + 1 : (int)json_integer_value(jv);
		if (jv != NULL && !json_is_integer(jv))
			v = -1;
		if (v == 0 && stocks_is_face(c))
			kind = K_ZERO;
		else if (v != CARD_RANK(c) + 1) {
			snprintf(cause, len, "price: %s can only mean %d%s",
			    json_string_value(json_object_get(j, "card")),
			    CARD_RANK(c) + 1, stocks_is_face(c) ? " or 0" : "");
			return -1;
		}
	}
	a->code = ST_CODE(kind, c);
	return 0;
}

/* Returns a new object for an event. */
json_t *
stocks_event_json(const void *vst, const struct event *e)
{
	const int32_t *a = e->a;

	switch (e->type) {
	case EV_SETUP_CARD:
		return json_pack("{s:s,s:o,s:o}", "type", "setup_card",
		    "card", card_json(a[0]), "company", a[1] >= 0 ?
		    json_string(suit_keys[a[1]]) : json_null());
	case EV_START:
		return json_pack("{s:s,s:i}", "type", "start", "player", a[0]);
	case EV_DRAW:
		return json_pack("{s:s,s:i,s:o}", "type", "draw", "player",
		    a[0], "card", card_json(a[1]));
	case EV_DRAWN:
		return json_pack("{s:s,s:i,s:i,s:s}", "type", "drawn",
		    "player", a[0], "count", a[1], "why",
		    a[2] ? "refill" : "deal");
	case EV_TURN:
		return json_pack("{s:s,s:i,s:i}", "type", "turn", "player",
		    a[0], "number", a[1]);
	case EV_BUY:
		return json_pack("{s:s,s:i,s:o,s:i,s:i}", "type", "buy",
		    "player", a[0], "card", card_json(a[1]), "shares", a[2],
		    "cost", a[3]);
	case EV_SELL:
		return json_pack("{s:s,s:i,s:o,s:i,s:i,s:i}", "type", "sell",
		    "player", a[0], "card", card_json(a[1]), "shares", a[2],
		    "proceeds", a[3], "debt_repaid", a[4]);
	case EV_PRICE:
		return json_pack("{s:s,s:i,s:o,s:s,s:i,s:i}", "type", "price",
		    "player", a[0], "card", card_json(a[1]), "company",
		    suit_keys[a[2]], "old", a[3], "new", a[4]);
	case EV_BANKRUPT:
		return json_pack("{s:s,s:s,s:i}", "type", "bankrupt",
		    "company", suit_keys[a[0]], "certificates", a[1]);
	case EV_LOSE:
		return json_pack("{s:s,s:i,s:s,s:i}", "type", "shares_lost",
		    "player", a[0], "company", suit_keys[a[1]], "shares", a[2]);
	case EV_DISCARD:
		return json_pack("{s:s,s:i,s:o}", "type", "discard", "player",
		    a[0], "card", card_json(a[1]));
	case EV_BANK_SHORT:
		return json_pack("{s:s,s:i,s:i}", "type", "bank_short",
		    "needed", a[0], "bank", a[1]);
	case EV_LEVY:
		return json_pack("{s:s,s:i,s:i,s:i}", "type", "levy",
		    "player", a[0], "paid", a[1], "owed", a[2]);
	case EV_RESHUFFLE:
		return json_pack("{s:s,s:i,s:i,s:i,s:i,s:i}", "type",
		    "reshuffle", "stock", a[0], "jokers_added", a[1],
		    "from_stock", a[2], "from_discard", a[3],
		    "from_price_stacks", a[4]);
	case EV_JOKER:
		return json_pack("{s:s,s:i}", "type", "joker", "player", a[0]);
	case EV_END_TURN:
		return json_pack("{s:s,s:i,s:i}", "type", "end_turn",
		    "player", a[0], "turns", a[1]);
	case EV_GAME_OVER:
		return json_pack("{s:s,s:s}", "type", "game_over", "reason",
		    a[0] ? "max_turns" : "joker");
	}
	return json_pack("{s:s,s:i}", "type", "unknown", "code", e->type);
}

/*
 * Reads the array key of the setup into cards (at most max, jokers only if
 * jokers); *n gets the count.  -1 + cause.
 */
static int
setup_cards(const json_t *doc, const char *key, uint8_t *cards, int max,
    int jokers, int *n, char *cause, size_t len)
{
	const json_t *a, *v;
	size_t i;
	int c;

	*n = 0;
	if ((a = json_object_get(doc, key)) == NULL)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > (size_t)max) {
		snprintf(cause, len, "setup: \"%s\" must be an array of at most "
		    "%d card names", key, max);
		return -1;
	}
	json_array_foreach(a, i, v) {
		c = card_from_json(v);
		if (c < 0 || (IS_JOKER(c) && !jokers)) {
			snprintf(cause, len, "setup: \"%s\"[%zu] is not a "
			    "card%s", key, i, jokers ? "" : " (no jokers here)");
			return -1;
		}
		cards[(*n)++] = (uint8_t)c;
	}
	return 0;
}

/*
 * Parses the --setup document: "turn" (the first shuffle's top cards, up to
 * the fourth price card), "deck" (the dealing deck's top cards), "start",
 * "stock" (a test position: the stock keeps only its top N cards, the rest
 * goes to the discard pile) and "reshuffle" (the first reshuffle's top
 * cards).  -1 + cause.
 */
int
stocks_setup_parse(const json_t *doc, const struct opts *o, void *vsu,
    char *cause, size_t len)
{
	static const char *const keys[] = { "turn", "deck", "start", "stock",
	    "reshuffle", NULL };
	struct stocks_setup *su = vsu;
	const char *key;
	const json_t *v;
	int used[54], has[ST_NCOMP], found, i, c, s, k, ok, rest;
	char name[3];

	memset(su, 0, sizeof *su);
	su->start = su->stock = -1;
	if (!json_is_object(doc)) {
		snprintf(cause, len, "setup: not a JSON object");
		return -1;
	}
	json_object_foreach((json_t *)doc, key, v) {
		for (k = 0; keys[k] != NULL && strcmp(keys[k], key) != 0; k++)
			;
		if (keys[k] == NULL) {
			snprintf(cause, len, "setup: unknown key \"%s\" (turn, "
			    "deck, start, stock, reshuffle)", key);
			return -1;
		}
	}
	if (setup_cards(doc, "turn", su->turn, ST_DECK, 0, &su->nturn, cause,
	    len) == -1 ||
	    setup_cards(doc, "deck", su->deck, ST_DECK - ST_NCOMP, 0,
	    &su->ndeck, cause, len) == -1 ||
	    setup_cards(doc, "reshuffle", su->resh, ST_CARDS, 1, &su->nresh,
	    cause, len) == -1)
		return -1;

	/* The turned cards must give every suit a price card, then stop. */
	memset(used, 0, sizeof used);
	memset(has, 0, sizeof has);
	found = 0;
	for (i = 0; i < su->nturn; i++) {
		c = su->turn[i];
		if (found == ST_NCOMP) {
			snprintf(cause, len, "setup: \"turn\" goes on after the "
			    "fourth price card (%d cards are turned)", i);
			return -1;
		}
		if (++used[c] > 2) {
			card_name(c, name);
			snprintf(cause, len, "setup: \"turn\" has %s more than "
			    "twice", name);
			return -1;
		}
		s = CARD_SUIT(c);
		if (!stocks_is_face(c) && !has[s]) {
			has[s] = 1;
			found++;
		}
	}
	if (su->nturn > 0 && found < ST_NCOMP) {
		snprintf(cause, len, "setup: \"turn\" ends before every suit "
		    "has a price card (A-10)");
		return -1;
	}

	/* The deck may hold what the price cards leave of two decks. */
	memset(used, 0, sizeof used);
	for (i = 0; i < su->nturn; i++) {
		c = su->turn[i];
		s = CARD_SUIT(c);
		if (!stocks_is_face(c) && has[s] == 1) {
			used[c]++;
			has[s] = 2;
		}
	}
	for (i = 0; i < su->ndeck; i++)
		if (++used[su->deck[i]] > 2) {
			snprintf(cause, len, "setup: \"deck\"[%d] is a third "
			    "copy of a card (two decks; price cards count)", i);
			return -1;
		}
	if (su->nturn == 0)
		for (s = 0; s < ST_NCOMP; s++) {
			for (ok = 0, k = 0; k < 10; k++)
				ok |= used[CARD(s, k)] < 2;
			if (!ok) {
				snprintf(cause, len, "setup: without \"turn\", "
				    "the cards \"deck\" leaves must hold an "
				    "A-10 of every suit");
				return -1;
			}
		}

	if ((v = json_object_get(doc, "start")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= o->players) {
			snprintf(cause, len, "setup: \"start\" must be a seat "
			    "from 0 to %d", o->players - 1);
			return -1;
		}
		su->start = (int)json_integer_value(v);
	}
	rest = ST_DECK - ST_NCOMP - ST_HAND * o->players;
	if ((v = json_object_get(doc, "stock")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > rest) {
			snprintf(cause, len, "setup: \"stock\" must be a count "
			    "from 0 to %d", rest);
			return -1;
		}
		su->stock = (int)json_integer_value(v);
	}
	memset(used, 0, sizeof used);
	for (i = 0; i < su->nresh; i++) {
		c = IS_JOKER(su->resh[i]) ? JOKER : su->resh[i];
		if (++used[c] > 2) {
			snprintf(cause, len, "setup: \"reshuffle\"[%d] is a "
			    "third copy of a card", i);
			return -1;
		}
	}
	return 0;
}
