/*
 * The JSON codec of horserace: each seat's view built from the visibility
 * rules of horserace.md (the table is public, the stock order is hidden from
 * all, a bettor's sealed bets are hidden from the others until all bets are
 * in), the actions as JSON objects, the events, and the --setup document.
 * The layout is documented in protocol.md, section "Game: horserace".
 */
#include <stdio.h>
#include <string.h>

#include "horserace.h"

static const char *const kind_names[] = {
	"win", "exacta", "trifecta", "daily_double"
};
static const char *const phase_names[] = {
	"odds", "bet", "auction", "over"
};
static const char suit_letters[] = "SHDC";

static json_t	*suit_json(int);
static json_t	*seat_or_null(int);
static json_t	*suits_mask_json(int);
static json_t	*target_json(json_t *, int);
static json_t	*bet_json(int, int, int32_t);
static json_t	*last_race_json(const struct hr_state *);
static json_t	*auction_json(const struct hr_state *);
static json_t	*dd_json(const struct hr_state *);
static int	 suit_parse(const json_t *);
static int	 amount_parse(const json_t *, struct action *, char *, size_t);
static int	 deck_parse(const json_t *, int, int8_t *, int *, char *,
		    size_t);

/* Returns a suit as its letter. */
static json_t *
suit_json(int s)
{
	char b[2] = { suit_letters[s & 3], '\0' };

	return json_string(b);
}

/* Returns a seat number, or null for -1 (nobody). */
static json_t *
seat_or_null(int p)
{
	return p >= 0 ? json_integer(p) : json_null();
}

/* Returns the suits of a mask as letters. */
static json_t *
suits_mask_json(int mask)
{
	json_t *a;
	int s;

	a = json_array();
	for (s = 0; s < 4; s++)
		if (mask & (1 << s))
			json_array_append_new(a, suit_json(s));
	return a;
}

/* Adds "kind" and "suits" of target t to o; returns o. */
static json_t *
target_json(json_t *o, int t)
{
	json_t *a;
	int s[3], n, i;

	n = hr_target_suits(t, s);
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, suit_json(s[i]));
	json_object_set_new(o, "kind", json_string(kind_names[
	    hr_target_kind(t)]));
	json_object_set_new(o, "suits", a);
	return o;
}

/* Returns one bet: {player, kind, suits, stake}; player -1 leaves it out. */
static json_t *
bet_json(int p, int t, int32_t stake)
{
	json_t *o;

	o = json_object();
	if (p >= 0)
		json_object_set_new(o, "player", json_integer(p));
	target_json(o, t);
	json_object_set_new(o, "stake", json_integer(stake));
	return o;
}

/* Returns the last race run: its cards, finishers and progress. */
static json_t *
last_race_json(const struct hr_state *st)
{
	json_t *o, *order, *prog, *cards, *odds, *bets;
	int i, p, t;

	if (!st->last_race_valid)
		return json_null();
	order = json_array();
	for (i = 0; i < st->last_nplaces; i++)
		json_array_append_new(order, suit_json(st->last_order[i]));
	prog = json_array();
	odds = json_array();
	for (i = 0; i < 4; i++) {
		json_array_append_new(prog, json_integer(st->last_progress[i]));
		json_array_append_new(odds, json_integer(st->last_odds[i]));
	}
	cards = json_array();
	for (i = 0; i < st->last_nturned; i++)
		json_array_append_new(cards, card_json(st->last_turned[i]));
	o = json_object();
	json_object_set_new(o, "dealer", json_integer(st->last_dealer));
	json_object_set_new(o, "odds_cards", json_array());
	for (i = 0; i < HR_NODDS; i++)
		json_array_append_new(json_object_get(o, "odds_cards"),
		    card_json(st->last_odds_cards[i]));
	if (!st->calcutta) {
		json_object_set_new(o, "odds", odds);
		bets = json_array();
		for (p = 0; p < st->players; p++)
			for (t = 0; t < HR_NT; t++)
				if (st->last_stake[p][t] > 0)
					json_array_append_new(bets, bet_json(p,
					    t, st->last_stake[p][t]));
		json_object_set_new(o, "bets", bets);
	} else {
		json_decref(odds);
		odds = json_array();
		bets = json_array();
		for (i = 0; i < 4; i++) {
			json_array_append_new(odds,
			    seat_or_null(st->last_owner[i]));
			json_array_append_new(bets,
			    json_integer(st->last_price[i]));
		}
		json_object_set_new(o, "owners", odds);
		json_object_set_new(o, "prices", bets);
	}
	json_object_set_new(o, "cards", cards);
	json_object_set_new(o, "order", order);
	json_object_set_new(o, "progress", prog);
	return o;
}

/* Returns the Calcutta auction under way. */
static json_t *
auction_json(const struct hr_state *st)
{
	const struct auction *a = &st->auc;
	json_t *o, *in;
	int p;

	in = json_array();
	for (p = 0; p < st->players; p++)
		if ((a->in & (1u << p)) || p == a->high_bidder)
			json_array_append_new(in, json_integer(p));
	o = json_object();
	json_object_set_new(o, "suit", suit_json(st->asuit));
	json_object_set_new(o, "high", json_integer(a->high));
	json_object_set_new(o, "high_bidder", seat_or_null(a->high_bidder));
	json_object_set_new(o, "next_min", json_integer(auction_next_min(a)));
	json_object_set_new(o, "turn", seat_or_null(a->turn));
	json_object_set_new(o, "in", in);
	return o;
}

/* Returns the daily double of the dealer's pair of races. */
static json_t *
dd_json(const struct hr_state *st)
{
	json_t *o, *bets;
	int p, i;

	o = json_object();
	json_object_set_new(o, "multiplier", json_integer(st->dd_mult));
	json_object_set_new(o, "first_race", json_boolean(st->race % 2 == 0));
	if (st->dd_w1 >= 0) {
		json_object_set_new(o, "first_winner", suit_json(st->dd_w1));
		json_object_set_new(o, "first_odds", json_integer(st->dd_o1));
	}
	bets = json_array();
	for (p = 0; p < st->players; p++)
		for (i = 0; i < 16; i++)
			if (st->dd[p][i] > 0)
				json_array_append_new(bets, bet_json(p,
				    HR_T_DD + i, st->dd[p][i]));
	json_object_set_new(o, "bets", bets);
	return o;
}

/*
 * Returns what seat may see (SEAT_ALL: everything, the stock order and
 * every sealed bet included).  Built field by field from the visibility
 * rules, never by dumping the state.
 */
json_t *
hr_view_json(const void *vst, int seat)
{
	const struct hr_state *st = vst;
	json_t *v, *a, *b;
	int p, s, t, k, live;

	live = st->phase != HP_OVER;
	v = json_object();
	if (seat != SEAT_ALL)
		json_object_set_new(v, "seat", json_integer(seat));
	json_object_set_new(v, "players", json_integer(st->players));
	json_object_set_new(v, "phase", json_string(phase_names[st->phase]));
	json_object_set_new(v, "race", json_integer(live ? st->race + 1 :
	    st->races));
	json_object_set_new(v, "races", json_integer(st->races));
	json_object_set_new(v, "dealer", json_integer(live ? st->dealer :
	    st->last_dealer));
	a = json_array();
	for (p = 0; p < st->players; p++)
		json_array_append_new(a, json_integer(st->chips[p]));
	json_object_set_new(v, "chips", a);
	if (!st->calcutta) {
		json_object_set_new(v, "bet_limit", json_integer(st->bet_limit));
		a = json_array();
		for (k = HR_WIN; k <= HR_DD; k++)
			if (st->bets & (1 << k))
				json_array_append_new(a,
				    json_string(kind_names[k]));
		json_object_set_new(v, "bets_offered", a);
	}
	if (live) {
		json_object_set_new(v, "odds_cards", json_array());
		for (k = 0; k < HR_NODDS; k++)
			json_array_append_new(json_object_get(v, "odds_cards"),
			    card_json(st->deck[k]));
		a = json_array();
		b = json_array();
		for (s = 0; s < 4; s++) {
			json_array_append_new(a, json_integer(st->count[s]));
			json_array_append_new(b,
			    json_integer(12 - st->count[s]));
		}
		json_object_set_new(v, "odds_counts", a);
		json_object_set_new(v, "relays", json_integer(st->relays));
		json_object_set_new(v, "stock", json_pack("{s:i,s:o,s:i}",
		    "cards", st->ndeck - st->top, "suits", b, "jokers",
		    st->joker));
	}
	if (live && !st->calcutta) {
		a = json_array();
		for (s = 0; s < 4; s++)
			json_array_append_new(a, st->phase == HP_ODDS &&
			    s >= st->odds_suit ? json_null() :
			    json_integer(st->odds[s]));
		json_object_set_new(v, "odds", a);
		if (st->phase == HP_ODDS)
			json_object_set_new(v, "odds_to_set",
			    suit_json(st->odds_suit));
		json_object_set_new(v, "bets_now", a = json_array());
		for (k = HR_WIN; k <= HR_DD; k++)
			if (hr_kind_offered(st, k))
				json_array_append_new(a,
				    json_string(kind_names[k]));
	}
	if (live && st->phase == HP_BET) {
		a = json_array();
		for (p = 0; p < st->players; p++)
			if (st->waiting & (1u << p))
				json_array_append_new(a, json_integer(p));
		json_object_set_new(v, "waiting", a);
		if (seat >= 0 && seat < st->players && seat != st->dealer) {
			a = json_array();
			for (t = 0; t < HR_NT; t++)
				if (st->stake[seat][t] > 0)
					json_array_append_new(a, bet_json(-1, t,
					    st->stake[seat][t]));
			json_object_set_new(v, "my_bets", a);
			json_object_set_new(v, "my_left",
			    json_integer(hr_left(st, seat)));
		}
		if (seat == SEAT_ALL) {
			a = json_array();
			for (p = 0; p < st->players; p++)
				for (t = 0; t < HR_NT; t++)
					if (st->stake[p][t] > 0)
						json_array_append_new(a,
						    bet_json(p, t,
						    st->stake[p][t]));
			json_object_set_new(v, "sealed_bets", a);
		}
	}
	if (live && !st->calcutta && (st->bets & HR_BETS_DD))
		json_object_set_new(v, "daily_double", dd_json(st));
	if (st->calcutta) {
		json_object_set_new(v, "pot", json_integer(st->pot));
		if (live) {
			a = json_array();
			b = json_array();
			for (s = 0; s < 4; s++) {
				json_array_append_new(a,
				    seat_or_null(st->owner[s]));
				json_array_append_new(b,
				    json_integer(st->price[s]));
			}
			json_object_set_new(v, "owners", a);
			json_object_set_new(v, "prices", b);
		}
		if (st->phase == HP_AUCTION)
			json_object_set_new(v, "auction", auction_json(st));
	}
	json_object_set_new(v, "last_race", last_race_json(st));
	if (seat == SEAT_ALL) {
		if (live)
			json_object_set_new(v, "stock_order",
			    json_array());
		for (k = st->top; live && k < st->ndeck; k++)
			json_array_append_new(json_object_get(v, "stock_order"),
			    card_json(st->deck[k]));
		json_object_set_new(v, "capped", json_false());
	}
	return v;
}

/* Returns an action as the protocol writes it. */
json_t *
hr_action_json(const void *vst, int player, struct action a)
{
	json_t *o;
	int64_t c = a.code;

	if (c == HA_DONE)
		return json_pack("{s:s}", "type", "done");
	if (c == HA_PASS)
		return json_pack("{s:s}", "type", "pass");
	if (c == HA_BID)
		return json_pack("{s:s,s:i}", "type", "bid", "amount",
		    (json_int_t)a.amount);
	if (c >= HA_ODDS && c < HA_ODDS + 4) {
		o = json_pack("{s:s}", "type", "odds");
		json_object_set_new(o, "suit", suit_json((int)(c - HA_ODDS)));
		json_object_set_new(o, "amount", json_integer(a.amount));
		return o;
	}
	if (c >= HA_BET && c < HA_BET + HR_NT) {
		o = json_pack("{s:s}", "type", "bet");
		target_json(o, (int)(c - HA_BET));
		json_object_set_new(o, "amount", json_integer(a.amount));
		return o;
	}
	return json_pack("{s:s,s:I}", "type", "invalid", "code",
	    (json_int_t)c);
}

/* Parses a suit letter; -1 if it is not one. */
static int
suit_parse(const json_t *j)
{
	const char *s, *p;

	if (!json_is_string(j))
		return -1;
	s = json_string_value(j);
	if (strlen(s) != 1 || (p = strchr(suit_letters, s[0])) == NULL)
		return -1;
	return (int)(p - suit_letters);
}

/* Reads the whole-number "amount" of an action object. */
static int
amount_parse(const json_t *j, struct action *a, char *cause, size_t len)
{
	const json_t *v = json_object_get(j, "amount");

	if (!json_is_integer(v) || json_integer_value(v) < INT32_MIN ||
	    json_integer_value(v) > INT32_MAX) {
		snprintf(cause, len, "\"amount\" must be a whole number");
		return -1;
	}
	a->amount = (int32_t)json_integer_value(v);
	return 0;
}

/* Parses an action given by value (what hr_action_json writes). */
int
hr_action_parse(const void *vst, int player, const json_t *j,
    struct action *a, char *cause, size_t len)
{
	const json_t *suits;
	const char *type, *kind;
	int s[3], n, k, i, t;

	type = json_string_value(json_object_get(j, "type"));
	if (!json_is_object(j) || type == NULL) {
		snprintf(cause, len, "an action is an object with a \"type\"");
		return -1;
	}
	a->amount = 0;
	if (strcmp(type, "done") == 0) {
		a->code = HA_DONE;
		return 0;
	}
	if (strcmp(type, "pass") == 0) {
		a->code = HA_PASS;
		return 0;
	}
	if (strcmp(type, "bid") == 0) {
		a->code = HA_BID;
		return amount_parse(j, a, cause, len);
	}
	if (strcmp(type, "odds") == 0) {
		if ((s[0] = suit_parse(json_object_get(j, "suit"))) == -1) {
			snprintf(cause, len, "odds: \"suit\" must be one of "
			    "S, H, D, C");
			return -1;
		}
		a->code = HA_ODDS + s[0];
		return amount_parse(j, a, cause, len);
	}
	if (strcmp(type, "bet") != 0) {
		snprintf(cause, len, "unknown action type \"%s\" (done, bet, "
		    "odds, bid, pass)", type);
		return -1;
	}
	kind = json_string_value(json_object_get(j, "kind"));
	for (k = 0; k < 4; k++)
		if (kind != NULL && strcmp(kind, kind_names[k]) == 0)
			break;
	if (k == 4) {
		snprintf(cause, len, "bet: \"kind\" must be win, exacta, "
		    "trifecta or daily_double");
		return -1;
	}
	n = k == HR_WIN ? 1 : k == HR_TRIFECTA ? 3 : 2;
	suits = json_object_get(j, "suits");
	if (!json_is_array(suits) || json_array_size(suits) != (size_t)n) {
		snprintf(cause, len, "bet: a %s bet names %d suit%s in "
		    "\"suits\"", kind_names[k], n, n == 1 ? "" : "s");
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((s[i] = suit_parse(json_array_get(suits, (size_t)i))) ==
		    -1) {
			snprintf(cause, len, "bet: suits are S, H, D or C");
			return -1;
		}
	if ((t = hr_target_index(k, s)) == -1) {
		snprintf(cause, len, "bet: the suits of a %s bet must differ",
		    kind_names[k]);
		return -1;
	}
	a->code = HA_BET + t;
	return amount_parse(j, a, cause, len);
}

/* Returns an event as the players are told it. */
json_t *
hr_event_json(const void *vst, const struct event *e)
{
	static const char *const names[] = {
		[HE_RACE] = "race", [HE_LAY] = "odds_cards",
		[HE_ODDS] = "odds", [HE_ODDS_SET] = "odds_set",
		[HE_BETTING] = "betting", [HE_BET_SEALED] = "my_bet",
		[HE_DONE] = "done", [HE_BET] = "bet", [HE_CARD] = "card",
		[HE_JOKER] = "joker", [HE_FINISH] = "finish",
		[HE_RACE_END] = "race_end", [HE_SETTLE] = "settle",
		[HE_AUCTION] = "auction", [HE_BID] = "bid", [HE_PASS] = "pass",
		[HE_SOLD] = "sold", [HE_SHARE] = "share", [HE_SPLIT] = "split",
		[HE_GAME_END] = "game_end"
	};
	json_t *o, *a;
	int8_t cards[HR_NODDS];
	int i;

	if (e->type < 0 || e->type > HE_GAME_END)
		return json_pack("{s:s}", "type", "unknown");
	o = json_pack("{s:s}", "type", names[e->type]);
	switch (e->type) {
	case HE_RACE:
		json_object_set_new(o, "race", json_integer(e->x + 1));
		json_object_set_new(o, "dealer", json_integer(e->a[0]));
		break;
	case HE_LAY:
		for (i = 0; i < HR_NODDS; i++)
			cards[i] = (int8_t)((uint64_t)e->x >> (6 * i) & 63);
		a = json_array();
		for (i = 0; i < HR_NODDS; i++)
			json_array_append_new(a, card_json(cards[i]));
		json_object_set_new(o, "cards", a);
		json_object_set_new(o, "void", json_boolean(e->a[0]));
		break;
	case HE_ODDS:
		a = json_array();
		for (i = 0; i < 4; i++)
			json_array_append_new(a, json_integer(e->a[i]));
		json_object_set_new(o, "odds", a);
		break;
	case HE_ODDS_SET:
		json_object_set_new(o, "suit", suit_json(e->a[0]));
		json_object_set_new(o, "odds", json_integer(e->a[1]));
		break;
	case HE_BETTING:
		a = json_array();
		for (i = 0; i < HR_MAXP; i++)
			if (e->x & (1 << i))
				json_array_append_new(a, json_integer(i));
		json_object_set_new(o, "bettors", a);
		break;
	case HE_BET_SEALED:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		target_json(o, e->a[1]);
		json_object_set_new(o, "amount", json_integer(e->a[2]));
		json_object_set_new(o, "stake", json_integer(e->a[3]));
		break;
	case HE_DONE:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		json_object_set_new(o, "auto", json_boolean(e->a[1]));
		break;
	case HE_BET:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		target_json(o, e->a[1]);
		json_object_set_new(o, "stake", json_integer(e->a[2]));
		break;
	case HE_CARD:
		json_object_set_new(o, "card", card_json(e->a[0]));
		if (e->a[1] >= 0)
			json_object_set_new(o, "progress",
			    json_integer(e->a[1]));
		else
			json_object_set_new(o, "set_aside", json_true());
		break;
	case HE_JOKER:
		json_object_set_new(o, "card", card_json(JOKER));
		json_object_set_new(o, "moved", suits_mask_json(e->a[0]));
		break;
	case HE_FINISH:
		json_object_set_new(o, "suit", suit_json(e->a[0]));
		json_object_set_new(o, "place", json_integer(e->a[1]));
		break;
	case HE_RACE_END:
		a = json_array();
		for (i = 0; i < e->a[0] && i < 3; i++)
			json_array_append_new(a, suit_json(e->a[1 + i]));
		json_object_set_new(o, "order", a);
		break;
	case HE_SETTLE:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		target_json(o, e->a[1]);
		json_object_set_new(o, "stake", json_integer(e->a[2]));
		json_object_set_new(o, "won", json_boolean(e->x > 0));
		json_object_set_new(o, "paid", json_integer(e->x));
		break;
	case HE_AUCTION:
		json_object_set_new(o, "suit", suit_json(e->a[0]));
		break;
	case HE_BID:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		json_object_set_new(o, "amount", json_integer(e->a[1]));
		break;
	case HE_PASS:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		break;
	case HE_SOLD:
		json_object_set_new(o, "suit", suit_json(e->a[0]));
		json_object_set_new(o, "player", seat_or_null(e->a[1]));
		json_object_set_new(o, "price", json_integer(e->a[2]));
		break;
	case HE_SHARE:
		json_object_set_new(o, "place", json_integer(e->a[1]));
		json_object_set_new(o, "suit", suit_json(e->a[2]));
		json_object_set_new(o, "player", seat_or_null(e->a[0]));
		json_object_set_new(o, "amount", json_integer(e->x));
		break;
	case HE_SPLIT:
		json_object_set_new(o, "player", json_integer(e->a[0]));
		json_object_set_new(o, "amount", json_integer(e->x));
		break;
	}
	return o;
}

/* Parses one deck (cards from the top) into d; -1 + cause. */
static int
deck_parse(const json_t *j, int joker, int8_t *d, int *len, char *cause,
    size_t clen)
{
	const json_t *v;
	int seen[54], c;
	size_t i;

	if (!json_is_array(j) || json_array_size(j) > (size_t)(48 + joker)) {
		snprintf(cause, clen, "a deck is an array of at most %d card "
		    "names, from the top", 48 + joker);
		return -1;
	}
	memset(seen, 0, sizeof seen);
	json_array_foreach(j, i, v) {
		if ((c = card_from_json(v)) == -1) {
			snprintf(cause, clen, "deck card %zu is not a card name "
			    "like 7H, TS or JK", i);
			return -1;
		}
		if (c < 52 && CARD_RANK(c) == 0) {
			snprintf(cause, clen, "deck card %zu: the aces are the "
			    "horses, never in the deck", i);
			return -1;
		}
		if (IS_JOKER(c) && (c != JOKER || !joker)) {
			snprintf(cause, clen, "deck card %zu: a joker needs "
			    "the joker option (and there is one)", i);
			return -1;
		}
		if (seen[c]++) {
			snprintf(cause, clen, "deck card %zu: %s twice", i,
			    json_string_value(v));
			return -1;
		}
		d[i] = (int8_t)c;
	}
	*len = (int)json_array_size(j);
	return 0;
}

/*
 * Parses --setup: {"dealer": SEAT, "deck": [cards from the top]} or
 * {"decks": [[...], ...]} fixing the top of successive shuffles (a re-lay
 * is a new shuffle); the rest of each deck is shuffled below.
 */
int
hr_setup_parse(const json_t *j, const struct opts *o, void *vsu,
    char *cause, size_t len)
{
	struct hr_setup *su = vsu;
	const json_t *v, *decks;
	const char *key;
	char sub[200];
	size_t i;
	int joker, players;

	memset(su, 0, sizeof *su);
	su->dealer = -1;
	joker = o->v[HO_JOKER] != 0;
	players = o->players;
	if (!json_is_object(j)) {
		snprintf(cause, len, "setup: not a JSON object");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "dealer") != 0 && strcmp(key, "deck") != 0 &&
		    strcmp(key, "decks") != 0) {
			snprintf(cause, len, "setup: unknown key \"%s\" "
			    "(dealer, deck, decks)", key);
			return -1;
		}
	}
	if ((v = json_object_get(j, "dealer")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= players) {
			snprintf(cause, len, "setup: \"dealer\" must be a seat "
			    "from 0 to %d", players - 1);
			return -1;
		}
		su->dealer = (int)json_integer_value(v);
	}
	if (json_object_get(j, "deck") != NULL &&
	    json_object_get(j, "decks") != NULL) {
		snprintf(cause, len, "setup: give \"deck\" or \"decks\", not "
		    "both");
		return -1;
	}
	if ((v = json_object_get(j, "deck")) != NULL) {
		if (deck_parse(v, joker, su->deck[0], &su->len[0], sub,
		    sizeof sub) == -1) {
			snprintf(cause, len, "setup: deck: %s", sub);
			return -1;
		}
		su->ndecks = 1;
	}
	if ((decks = json_object_get(j, "decks")) != NULL) {
		if (!json_is_array(decks) ||
		    json_array_size(decks) > HR_SDECKS) {
			snprintf(cause, len, "setup: \"decks\" is an array of "
			    "at most %d decks", HR_SDECKS);
			return -1;
		}
		json_array_foreach(decks, i, v) {
			if (deck_parse(v, joker, su->deck[i], &su->len[i], sub,
			    sizeof sub) == -1) {
				snprintf(cause, len, "setup: decks[%zu]: %s", i,
				    sub);
				return -1;
			}
		}
		su->ndecks = (int)json_array_size(decks);
	}
	return 0;
}
