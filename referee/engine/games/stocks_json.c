/*
 * The JSON codec of stocks (see stocks.c and protocol.md's "Game: stocks"):
 * a seat's view written from the visibility rules of the brief (own hand
 * private, the stock's order hidden from all, everything else public), the
 * all-seeing view for logs, actions as {"type": ...} objects, events, and
 * the --setup document.  Views, actions and events are written once,
 * through the JSON writer (jw.h): the referee gets them as text, the tree
 * functions of struct game come from the same writers.
 */
#include <stdio.h>
#include <string.h>

#include "jw.h"
#include "stocks.h"

static void	card_list(struct jw *, const char *, const uint8_t *, int);
static void	company_write(const struct stocks *, int, struct jw *);
static void	seat_write(const struct stocks *, int, struct jw *);
static int	setup_cards(const json_t *, const char *, uint8_t *, int,
		    int, int *, char *, size_t);

static const char *const phase_names[] = { "unused", "open", "closed" };
static const char *const company_names[ST_NCOMP] = { "spades", "hearts",
    "diamonds", "clubs" };
/* Their lengths: the text copies the words, no scan (fuzz checks them). */
static const uint8_t phase_len[] = { 6, 4, 6 };
static const uint8_t company_len[ST_NCOMP] = { 6, 6, 8, 5 };
static const char *const suit_keys[ST_NCOMP] = { "S", "H", "D", "C" };
static const char *const drawn_why[] = { "deal", "refill" };
static const char *const over_reason[] = { "joker", "max_turns" };

/*
 * Each event's shape: its "type", then a key for each of a[0], a[1], ...
 * in order, the value written as a number, a card, or the word of a table
 * at that index (null for -1).  The events differ only in these, so one
 * loop writes them all (stocks_event_write).
 */
enum { VK_NUM, VK_CARD, VK_WORD };

struct field {
	const char		*key;
	uint8_t			 klen;
	uint8_t			 kind;
	const char *const	*words;		/* VK_WORD */
};

#define F_NUM(k)	{ k, sizeof(k) - 1, VK_NUM, NULL }
#define F_CARD(k)	{ k, sizeof(k) - 1, VK_CARD, NULL }
#define F_WORD(k, t)	{ k, sizeof(k) - 1, VK_WORD, t }

static const struct evshape {
	const char	*type;
	struct field	 f[5];
} evshapes[] = {
	[EV_SETUP_CARD] = { "setup_card",
	    { F_CARD("card"), F_WORD("company", suit_keys) } },
	[EV_START] = { "start", { F_NUM("player") } },
	[EV_DRAW] = { "draw", { F_NUM("player"), F_CARD("card") } },
	[EV_DRAWN] = { "drawn",
	    { F_NUM("player"), F_NUM("count"), F_WORD("why", drawn_why) } },
	[EV_TURN] = { "turn", { F_NUM("player"), F_NUM("number") } },
	[EV_BUY] = { "buy",
	    { F_NUM("player"), F_CARD("card"), F_NUM("shares"),
	    F_NUM("cost") } },
	[EV_SELL] = { "sell",
	    { F_NUM("player"), F_CARD("card"), F_NUM("shares"),
	    F_NUM("proceeds"), F_NUM("debt_repaid") } },
	[EV_PRICE] = { "price",
	    { F_NUM("player"), F_CARD("card"), F_WORD("company", suit_keys),
	    F_NUM("old"), F_NUM("new") } },
	[EV_BANKRUPT] = { "bankrupt",
	    { F_WORD("company", suit_keys), F_NUM("certificates") } },
	[EV_LOSE] = { "shares_lost",
	    { F_NUM("player"), F_WORD("company", suit_keys),
	    F_NUM("shares") } },
	[EV_DISCARD] = { "discard", { F_NUM("player"), F_CARD("card") } },
	[EV_BANK_SHORT] = { "bank_short",
	    { F_NUM("needed"), F_NUM("bank") } },
	[EV_LEVY] = { "levy",
	    { F_NUM("player"), F_NUM("paid"), F_NUM("owed") } },
	[EV_RESHUFFLE] = { "reshuffle",
	    { F_NUM("stock"), F_NUM("jokers_added"), F_NUM("from_stock"),
	    F_NUM("from_discard"), F_NUM("from_price_stacks") } },
	[EV_JOKER] = { "joker", { F_NUM("player") } },
	[EV_END_TURN] = { "end_turn", { F_NUM("player"), F_NUM("turns") } },
	[EV_GAME_OVER] = { "game_over", { F_WORD("reason", over_reason) } }
};

#undef F_NUM
#undef F_CARD
#undef F_WORD

/*
 * Whether any of n cards is a joker (52 or more), 8 at a time: adding 76
 * sets a byte's top bit from 52 up (no carry below 128; a byte of 128 or
 * more has it already, and is one).
 */
static int
any_joker(const uint8_t *cards, int n)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t x;
	int i, k;

	for (i = 0; i < n; i += 8) {
		k = n - i < 8 ? n - i : 8;
		x = 0;
		memcpy(&x, cards + i, (size_t)k);
		if (((x + 76 * ones) | x) & 0x80 * ones)
			return 1;
	}
	return 0;
}

/* Writes an array naming n cards, under key unless key is NULL. */
static void
card_list(struct jw *w, const char *key, const uint8_t *cards, int n)
{
	if (key != NULL)
		jw_key(w, key);
	jw_cards_u8(w, cards, n);
}

/* Writes the object describing company s: price, limits, stack. */
static void
company_write(const struct stocks *st, int s, struct jw *w)
{
	int top;

	top = st->pile[s][st->npile[s] - 1];
	jw_obj(w);
	jw_kword(w, "suit", suit_keys[s], 1);
	jw_kword(w, "name", company_names[s], company_len[s]);
	jw_kint(w, "price", st->value[s]);
	jw_kcard(w, "top", top);
	jw_kbool(w, "face_on_top", stocks_is_face(top));
	jw_kbool(w, "bankrupt", st->zero[s]);
	jw_kint(w, "up", stocks_up[s]);
	jw_kint(w, "down", stocks_down[s]);
	card_list(w, "stack", st->pile[s], st->npile[s]);
	jw_end(w);
}

/* Writes the object with the public facts of player p. */
static void
seat_write(const struct stocks *st, int p, struct jw *w)
{
	uint8_t certs[ST_CARDS];
	uint32_t four;
	int c, i, k, n, s;

	jw_obj(w);
	jw_kint(w, "money", st->money[p]);
	jw_kint(w, "debt", st->debt[p]);
	jw_kint(w, "hand", st->nhand[p]);
	/* Most of the 52 counts are 0: four at a time skip them. */
	for (n = 0, c = 0; c < 52; c += 4) {
		memcpy(&four, &st->cert[p][c], 4);
		for (i = c; four != 0 && i < c + 4; i++)
			for (k = 0; k < st->cert[p][i] && n < ST_CARDS; k++)
				certs[n++] = (uint8_t)i;
	}
	card_list(w, "certificates", certs, n);
	jw_kobj(w, "shares");
	for (s = 0; s < ST_NCOMP; s++)
		jw_kintn(w, suit_keys[s], 1, st->shares[p][s]);	/* a letter */
	jw_end(w);
	jw_kint(w, "wealth", stocks_wealth(st, p));
	jw_end(w);
}

/*
 * Writes the view of seat (SEAT_ALL: everything, hands and the stock's
 * order included), field by field from what the seat may see.
 */
void
stocks_view_write(const void *vst, int seat, struct jw *w)
{
	const struct stocks *st = vst;
	int s, p, i;
	uint8_t top_first[ST_CARDS];

	jw_obj(w);
	jw_kint(w, "players", st->players);
	view_seat_write(w, seat);
	jw_kint(w, "start", st->start);
	jw_kint(w, "turn", st->turn);
	jw_kint(w, "turns", st->turns);
	jw_kint(w, "max_turns", st->max_turns);
	jw_kobj(w, "phase");
	jw_kword(w, "trade", phase_names[st->trade], phase_len[st->trade]);
	jw_kword(w, "price", phase_names[st->price], phase_len[st->price]);
	jw_kint(w, "buys", st->buys);
	jw_kint(w, "prices", st->prices);
	jw_kint(w, "discards", st->discards);
	jw_end(w);
	card_list(w, "bought", st->bought, st->nbought);
	jw_kint(w, "bank", st->bank);
	jw_karr(w, "companies");
	for (s = 0; s < ST_NCOMP; s++)
		company_write(st, s, w);
	jw_end(w);
	jw_karr(w, "seats");
	for (p = 0; p < st->players; p++)
		seat_write(st, p, w);
	jw_end(w);
	if (seat >= 0 && seat < st->players)
		card_list(w, "hand", st->hand[seat], st->nhand[seat]);
	jw_kint(w, "stock", st->nstock);
	jw_kbool(w, "jokers_in_stock", any_joker(st->stock, st->nstock));
	card_list(w, "discard", st->discard, st->ndiscard);
	jw_kbool(w, "over", st->over);
	jw_kbool(w, "capped", st->capped);
	if (st->joker_by >= 0)
		jw_kint(w, "joker_drawn_by", st->joker_by);
	else
		jw_knull(w, "joker_drawn_by");
	if (seat == SEAT_ALL) {
		jw_karr(w, "hands");
		for (p = 0; p < st->players; p++)
			card_list(w, NULL, st->hand[p], st->nhand[p]);
		jw_end(w);
		for (i = 0; i < st->nstock; i++)
			top_first[i] = st->stock[st->nstock - 1 - i];
		card_list(w, "stock_cards", top_first, st->nstock);
	}
	jw_end(w);
}

/*
 * Writes the object for an action code (with its price for a trade); no
 * stocks action is ranged, so none has an amount.
 */
void
stocks_action_write(const void *vst, int player, struct action a,
    struct jw *w)
{
	static const char *const kind_words[] = { [K_BUY] = "buy",
	    [K_SELL] = "sell", [K_PRICE] = "price", [K_ZERO] = "price",
	    [K_DISCARD] = "discard" };
	static const uint8_t kind_len[] = { [K_BUY] = 3, [K_SELL] = 4,
	    [K_PRICE] = 5, [K_ZERO] = 5, [K_DISCARD] = 7 };
	const struct stocks *st = vst;
	int c, kind, sh;

	jw_obj(w);
	if (a.code == ST_END) {
		jw_kstr(w, "type", "end");
		jw_end(w);
		return;
	}
	kind = ST_KIND(a.code);
	c = ST_CARD(a.code);
	if (a.code < 0 || c >= 52 || kind < K_BUY || kind > K_DISCARD) {
		jw_kstr(w, "type", "unknown");
		jw_kint(w, "code", a.code);
		jw_end(w);
		return;
	}
	/* Every card action: its type and card, then a trade's figures. */
	jw_kword(w, "type", kind_words[kind], kind_len[kind]);
	jw_kcard(w, "card", c);
	sh = stocks_card_shares(c);
	if (kind == K_BUY || kind == K_SELL) {
		jw_kint(w, "shares", sh);
		jw_kint(w, kind == K_BUY ? "cost" : "proceeds",
		    st->value[CARD_SUIT(c)] * sh);
	} else if (kind != K_DISCARD)
		jw_kint(w, "value", kind == K_ZERO ? 0 : CARD_RANK(c) + 1);
	jw_end(w);
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

/* Writes the object for an event: its type, then its values by its shape. */
void
stocks_event_write(const void *vst, const struct event *e, struct jw *w)
{
	const struct evshape *sh;
	const struct field *f;
	int32_t x;
	int i;

	jw_obj(w);
	if (e->type < 0 || (size_t)e->type >= sizeof evshapes /
	    sizeof evshapes[0]) {
		jw_kstr(w, "type", "unknown");
		jw_kint(w, "code", e->type);
		jw_end(w);
		return;
	}
	sh = &evshapes[e->type];
	jw_key(w, "type");
	jw_word(w, sh->type, strlen(sh->type));
	for (i = 0; i < 5 && sh->f[i].key != NULL; i++) {
		f = &sh->f[i];
		x = e->a[i];
		jw_keyn(w, f->key, f->klen);
		if (f->kind == VK_CARD)
			jw_card(w, x);
		else if (f->kind == VK_NUM)
			jw_int(w, x);
		else if (x >= 0)
			jw_word(w, f->words[x], strlen(f->words[x]));
		else
			jw_null(w);
	}
	jw_end(w);
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
