/*
 * Speculation's JSON codec: the views (built from the visibility rules of
 * speculation.md: nobody, not even the holder, sees a face-down card, nor
 * the widow before the deal ends), the actions, the events and the --setup
 * document.  Views, actions and events are written once, through the JSON
 * writer (jw.h): the same code gives the referee's text and the trees of
 * the game table.  protocol.md's "Game: speculation" section documents
 * every field; the rules live in speculation.c.
 */
#include <stdio.h>
#include <string.h>

#include "jw.h"
#include "speculation.h"

static const char *const phase_names[] = {
	"trump", "turn", "found", "auction", "over"
};
static const char *const end_names[] = { "ace", "no_cards", "cap" };
static const char *const suit_names[] = { "S", "H", "D", "C" };
static const uint8_t phase_len[] = { 5, 4, 5, 7, 4 };	/* for jw_kword */
static const uint8_t end_len[] = { 3, 8, 3 };

/* inline: their keys are literals, no strlen */
JW_INLINE void	positions_write(struct jw *, const char *, uint64_t);
JW_INLINE void	card_or_null(struct jw *, const char *, int);
JW_INLINE void	seat_or_null(struct jw *, const char *, int);
JW_INLINE void	cards8_write(struct jw *, const char *, const int8_t *, int);
static void	card_or_positions(struct jw *, int, uint64_t);
static void	auction_write(const struct sp *, struct jw *);
static void	last_deal_write(const struct sp *, struct jw *);
static int	positions_parse(const json_t *, uint64_t *, char *, size_t);
static int	amount_parse(const json_t *, struct action *, char *, size_t);
static int	deck_parse(const json_t *, int8_t *, int *, const char *,
		    char *, size_t);

/* Writes key: the array of the positions set in mask, lowest first. */
JW_INLINE void
positions_write(struct jw *w, const char *key, uint64_t mask)
{
	jw_karr(w, key);
	while (mask != 0) {
		jw_int(w, __builtin_ctzll(mask));
		mask &= mask - 1;
	}
	jw_end(w);
}

/* Writes key: a card name, or null for -1. */
JW_INLINE void
card_or_null(struct jw *w, const char *key, int card)
{
	if (card >= 0)
		jw_kcard(w, key, card);
	else
		jw_knull(w, key);
}

/* Writes key: a seat number, or null for -1. */
JW_INLINE void
seat_or_null(struct jw *w, const char *key, int seat)
{
	if (seat >= 0)
		jw_kint(w, key, seat);
	else
		jw_knull(w, key);
}

/* Writes key: an array of the names of n cards stored as int8_t. */
JW_INLINE void
cards8_write(struct jw *w, const char *key, const int8_t *cards, int n)
{
	jw_key(w, key);
	jw_cards_i8(w, cards, n);
}

/* Writes the running auction's object (public: every bid is). */
static void
auction_write(const struct sp *st, struct jw *w)
{
	const struct auction *a = &st->auc;
	int i, p;

	jw_obj(w);
	jw_kint(w, "seller", a->seller);
	if (st->auc_up)
		jw_kstr(w, "item", "face_up");
	else
		jw_kstr(w, "item", "face_down");
	jw_kint(w, "min", a->min);
	jw_kint(w, "high", a->high);
	seat_or_null(w, "high_bidder", a->high_bidder);
	jw_kint(w, "next_min", auction_next_min(a));
	jw_karr(w, "in");
	for (i = 1; i < st->n; i++) {
		p = (a->seller + i) % st->n;
		if (a->in & (1u << p))
			jw_int(w, p);
	}
	jw_end(w);
	jw_kint(w, "turn", a->turn);
	/* Every player's high bid in this auction (0: none), by seat. */
	jw_karr(w, "bids");
	for (p = 0; p < st->n; p++)
		jw_int(w, st->auc_bid[p]);
	jw_end(w);
	if (st->auc_up)
		jw_kcard(w, "card", st->high);
	else
		positions_write(w, "positions", st->auc_lot);
	jw_end(w);
}

/* Writes the result of the previous deal as an object, or null. */
static void
last_deal_write(const struct sp *st, struct jw *w)
{
	if (st->last_end == SE_NONE) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kint(w, "deal", st->last_deal);
	jw_kint(w, "winner", st->last_winner);
	jw_kcard(w, "card", st->last_card);
	jw_kint(w, "amount", st->last_amount);
	jw_kbool(w, "carried", st->last_carried);
	jw_kword(w, "end", end_names[st->last_end], end_len[st->last_end]);
	cards8_write(w, "widow", st->last_widow, st->last_nwidow);
	jw_end(w);
}

/* Writes a seat's view: only what speculation.md's Visibility section
 * grants; SEAT_ALL adds every hidden card. */
void
speculation_view_write(const void *vst, int seat, struct jw *w)
{
	const struct sp *st = vst;
	int p, i;

	jw_obj(w);
	view_seat_write(w, seat);
	jw_kint(w, "deal", st->deal);
	jw_kint(w, "deals", st->deals);
	jw_kint(w, "dealer", st->dealer);
	i = st->phase <= SP_OVER ? st->phase : SP_OVER;
	jw_kword(w, "phase", phase_names[i], phase_len[i]);
	if (st->phase == SP_OVER)
		jw_knull(w, "turn");
	else
		jw_kint(w, "turn", st->turn);
	if (st->trump >= 0 && st->high >= 0)
		jw_kword(w, "trump", suit_names[st->trump], 1);
	else
		jw_knull(w, "trump");
	card_or_null(w, "high", st->high);
	seat_or_null(w, "holder", st->holder);
	jw_kint(w, "pool", st->pool);
	jw_kint(w, "ante", st->ante);
	jw_karr(w, "players");
	for (p = 0; p < st->n; p++) {
		jw_obj(w);
		jw_kint(w, "counters", st->counters[p]);
		jw_kint(w, "face_down", st->nfd[p]);
		/* Per position, how the card came (never what it is). */
		jw_karr(w, "bought");
		for (i = 0; i < st->nfd[p]; i++) {
			if (st->fd_from[p][i] < 0) {
				jw_null(w);
				continue;
			}
			jw_obj(w);
			jw_kint(w, "from", st->fd_from[p][i]);
			jw_kint(w, "price", st->fd_price[p][i]);
			jw_kint(w, "cards", st->fd_lot[p][i]);
			jw_end(w);
		}
		jw_end(w);
		if (st->out[p])
			jw_kint(w, "out", st->out[p]);
		else
			jw_knull(w, "out");
		jw_end(w);
	}
	jw_end(w);
	cards8_write(w, "discards", st->disc, st->ndisc);
	jw_kint(w, "widow", st->nwidow);
	jw_kint(w, "turns", st->turns);
	jw_kint(w, "max_turns", st->max_turns);
	if (st->phase == SP_TURN || (st->phase == SP_AUCTION &&
	    st->auc_from == SP_TURN)) {
		positions_write(w, "offered", st->offered);
		positions_write(w, "lot", st->lot);
	}
	jw_key(w, "auction");
	if (st->phase == SP_AUCTION)
		auction_write(st, w);
	else
		jw_null(w);
	jw_key(w, "last_deal");
	last_deal_write(st, w);
	if (seat == SEAT_ALL) {
		/* The all-seeing view (logs, replay): every hidden card. */
		jw_karr(w, "hands");
		for (p = 0; p < st->n; p++)
			jw_cards_i8(w, st->fd[p], st->nfd[p]);
		jw_end(w);
		cards8_write(w, "widow_cards", st->widow, st->nwidow);
		cards8_write(w, "stock", st->stock, st->nstock);
		jw_kbool(w, "capped", st->capped);
	}
	jw_end(w);
}

/* Writes an action as the protocol shows it (an object; a ranged entry's
 * amount through jw_amount). */
void
speculation_action_write(const void *vst, int player, struct action a,
    struct jw *w)
{
	const struct sp *st = vst;

	jw_obj(w);
	switch (SP_KIND(a.code)) {
	case AK_KEEP:
		jw_kstr(w, "type", "keep");
		break;
	case AK_SELL_UP:
		jw_kstr(w, "type", "sell_up");
		jw_amount(w, a.amount);
		if ((st->phase == SP_TRUMP || st->phase == SP_NEWHIGH) &&
		    st->high >= 0)
			jw_kcard(w, "card", st->high);
		break;
	case AK_SELL:
		jw_kstr(w, "type", "sell");
		positions_write(w, "positions", SP_ARG(a.code));
		jw_amount(w, a.amount);
		break;
	case AK_LOT:
		jw_kstr(w, "type", "lot");
		jw_kint(w, "position", (int)SP_ARG(a.code));
		break;
	case AK_TURN:
		jw_kstr(w, "type", "turn");
		jw_kint(w, "position", (int)SP_ARG(a.code));
		break;
	case AK_PASS:
		jw_kstr(w, "type", "pass");
		break;
	case AK_BID:
		jw_kstr(w, "type", "bid");
		jw_amount(w, a.amount);
		break;
	case AK_DROP:
		jw_kstr(w, "type", "drop");
		break;
	default:
		jw_kstr(w, "type", "unknown");
		jw_kint(w, "code", a.code);
		break;
	}
	jw_end(w);
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

/* Parses what speculation_action_write() produces; -1 + cause if malformed
 * (legality is apply()'s business). */
int
speculation_action_parse(const void *vst, int player, const json_t *j,
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

/* Writes the face-up card (card >= 0) or else the positions of mask. */
static void
card_or_positions(struct jw *w, int card, uint64_t mask)
{
	if (card >= 0)
		jw_kcard(w, "card", card);
	else
		positions_write(w, "positions", mask);
}

/* Writes an event's object; it depends on the event alone. */
void
speculation_event_write(const void *vst, const struct event *e,
    struct jw *w)
{
	uint64_t m = (uint64_t)e->x;
	int i, k;

	jw_obj(w);
	switch (e->type) {
	case SV_DEAL:
		jw_kstr(w, "type", "deal");
		jw_kint(w, "deal", e->x);
		jw_kint(w, "dealer", e->a[0]);
		break;
	case SV_OUT:
		jw_kstr(w, "type", "out");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "counters", e->a[1]);
		jw_kint(w, "deal", e->x);
		break;
	case SV_ANTE:
		jw_kstr(w, "type", "ante");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->a[1]);
		jw_kint(w, "pool", e->a[2]);
		break;
	case SV_DEALT:
		jw_kstr(w, "type", "dealt");
		jw_kint(w, "deal", e->x);
		jw_kint(w, "face_down", e->a[0]);
		jw_kint(w, "widow", e->a[1]);
		break;
	case SV_TRUMP:
		jw_kstr(w, "type", "trump");
		jw_kint(w, "dealer", e->a[0]);
		jw_kcard(w, "card", e->a[1]);
		jw_kstr(w, "suit", suit_names[CARD_SUIT(e->a[1])]);
		break;
	case SV_KEEP:
		jw_kstr(w, "type", "keep");
		jw_kint(w, "player", e->a[0]);
		jw_kcard(w, "card", e->a[1]);
		break;
	case SV_AUCTION:
		jw_kstr(w, "type", "auction");
		jw_kint(w, "seller", e->a[0]);
		jw_kint(w, "min", e->a[1]);
		card_or_positions(w, e->a[2], m);
		break;
	case SV_BID:
		jw_kstr(w, "type", "bid");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->a[1]);
		break;
	case SV_DROP:
		jw_kstr(w, "type", "drop");
		jw_kint(w, "player", e->a[0]);
		jw_kbool(w, "skipped", e->a[1]);
		break;
	case SV_SOLD:
		jw_kstr(w, "type", "sold");
		jw_kint(w, "seller", e->a[0]);
		jw_kint(w, "buyer", e->a[1]);
		jw_kint(w, "price", e->a[2]);
		card_or_positions(w, e->a[3], m);
		if (e->a[3] < 0) {
			k = popcount64(m);
			positions_write(w, "new_positions",
			    ((1ULL << k) - 1) << e->a[4]);
		}
		break;
	case SV_UNSOLD:
		jw_kstr(w, "type", "unsold");
		jw_kint(w, "seller", e->a[0]);
		card_or_positions(w, e->a[2], m);
		break;
	case SV_LOT:
		jw_kstr(w, "type", "lot");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "position", e->a[1]);
		break;
	case SV_TURNUP:
		jw_kstr(w, "type", "turn_up");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "position", e->a[1]);
		jw_kcard(w, "card", e->a[2]);
		jw_kbool(w, "high", e->a[3]);
		card_or_null(w, "discarded", e->a[4]);
		break;
	case SV_FINE:
		jw_kstr(w, "type", "fine");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->a[1]);
		break;
	case SV_PASS:
		jw_kstr(w, "type", "pass");
		jw_kint(w, "player", e->a[0]);
		break;
	case SV_WIDOW:
		jw_kstr(w, "type", "widow");
		jw_karr(w, "cards");
		for (i = 0; i < 3; i++)
			jw_card(w, e->a[i]);
		jw_end(w);
		break;
	case SV_DEAL_END:
		jw_kstr(w, "type", "deal_end");
		jw_kint(w, "deal", e->x);
		jw_kint(w, "winner", e->a[0]);
		jw_kcard(w, "card", e->a[4]);
		jw_kint(w, "amount", e->a[1]);
		jw_kbool(w, "carried", e->a[3]);
		jw_kstr(w, "end", end_names[e->a[2]]);
		break;
	case SV_POOL_PAID:
		jw_kstr(w, "type", "pool_paid");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->a[1]);
		jw_kint(w, "pool", e->a[2]);
		break;
	case SV_GAME_END:
		jw_kstr(w, "type", "game_end");
		jw_kint(w, "deals", e->x);
		break;
	default:
		jw_kstr(w, "type", "unknown");
		jw_kint(w, "event", e->type);
		break;
	}
	jw_end(w);
}

/* The tree forms of the game table, from the same writers. */
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
speculation_setup_parse(const json_t *j, const struct opts *o, void *vsetup,
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
