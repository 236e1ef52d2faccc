/*
 * The JSON codec of horserace: each seat's view built from the visibility
 * rules of horserace.md (the table is public, the stock order is hidden from
 * all, a bettor's sealed bets are hidden from the others until all bets are
 * in), the actions as JSON objects, the events, and the --setup document.
 * Views, actions and events are written once, through the JSON writer
 * (jw.h), which gives the referee their text and everyone else their tree.
 * The layout is documented in protocol.md, section "Game: horserace".
 */
#include <stdio.h>
#include <string.h>

#include "horserace.h"
#include "jw.h"

static const char *const kind_names[] = {
	"win", "exacta", "trifecta", "daily_double"
};
static const uint8_t kind_len[] = { 3, 6, 8, 12 };	/* for jw_word */
static const char *const phase_names[] = {
	"odds", "bet", "auction", "over"
};
static const uint8_t phase_len[] = { 4, 3, 7, 4 };	/* for jw_word */
static const char *const suit_names[] = { "S", "H", "D", "C" };
static const char suit_letters[] = "SHDC";

static void	 suit_write(struct jw *, int);
static void	 seat_or_null(struct jw *, int);
static void	 suits_mask_write(struct jw *, int);
static void	 target_write(struct jw *, int);
static void	 bet_write(struct jw *, int, int, int32_t);
static void	 cards8_write(struct jw *, const int8_t *, int);
static void	 last_race_write(const struct hr_state *, struct jw *);
static void	 auction_write(const struct hr_state *, struct jw *);
static void	 dd_write(const struct hr_state *, struct jw *);
static int	 suit_parse(const json_t *);
static int	 amount_parse(const json_t *, struct action *, char *, size_t);
static int	 deck_parse(const json_t *, int, int8_t *, int *, char *,
		    size_t);

/* Writes a suit as its letter. */
static void
suit_write(struct jw *w, int s)
{
	jw_word(w, suit_names[s & 3], 1);
}

/* Writes a seat number, or null for -1 (nobody). */
static void
seat_or_null(struct jw *w, int p)
{
	if (p >= 0)
		jw_int(w, p);
	else
		jw_null(w);
}

/* Writes the suits of a mask as an array of letters. */
static void
suits_mask_write(struct jw *w, int mask)
{
	int s;

	jw_arr(w);
	for (s = 0; s < 4; s++)
		if (mask & (1 << s))
			suit_write(w, s);
	jw_end(w);
}

/* Writes the "kind" and "suits" members of target t. */
static void
target_write(struct jw *w, int t)
{
	int s[3], n, i, k;

	n = hr_target_suits(t, s);
	k = hr_target_kind(t);
	jw_kword(w, "kind", kind_names[k], kind_len[k]);
	jw_karr(w, "suits");
	for (i = 0; i < n; i++)
		suit_write(w, s[i]);
	jw_end(w);
}

/* Writes one bet: {player, kind, suits, stake}; player -1 leaves it out. */
static void
bet_write(struct jw *w, int p, int t, int32_t stake)
{
	jw_obj(w);
	if (p >= 0)
		jw_kint(w, "player", p);
	target_write(w, t);
	jw_kint(w, "stake", stake);
	jw_end(w);
}

/*
 * Writes a bet (bet_write) for each of the HR_NT stakes above 0 of player
 * p; most are 0, skipped eight at a time.
 */
static void
bets_write(struct jw *w, int p, const int32_t *stake)
{
	uint32_t any;
	int t, u;

	_Static_assert(HR_NT % 8 == 0, "the stakes go by eight");
	for (t = 0; t < HR_NT; t += 8) {
		for (any = 0, u = t; u < t + 8; u++)
			any |= (uint32_t)stake[u];
		for (u = t; any != 0 && u < t + 8; u++)
			if (stake[u] > 0)
				bet_write(w, p, u, stake[u]);
	}
}

/* Writes an array of n cards kept as small integers. */
static void
cards8_write(struct jw *w, const int8_t *cards, int n)
{
	jw_cards_i8(w, cards, n);
}

/* Writes the last race run (its cards, finishers and progress), or null. */
static void
last_race_write(const struct hr_state *st, struct jw *w)
{
	int i, p;

	if (!st->last_race_valid) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kint(w, "dealer", st->last_dealer);
	jw_key(w, "odds_cards");
	cards8_write(w, st->last_odds_cards, HR_NODDS);
	if (!st->calcutta) {
		jw_karr(w, "odds");
		for (i = 0; i < 4; i++)
			jw_int(w, st->last_odds[i]);
		jw_end(w);
		jw_karr(w, "bets");
		for (p = 0; p < st->players; p++)
			bets_write(w, p, st->last_stake[p]);
		jw_end(w);
	} else {
		jw_karr(w, "owners");
		for (i = 0; i < 4; i++)
			seat_or_null(w, st->last_owner[i]);
		jw_end(w);
		jw_karr(w, "prices");
		for (i = 0; i < 4; i++)
			jw_int(w, st->last_price[i]);
		jw_end(w);
	}
	jw_key(w, "cards");
	cards8_write(w, st->last_turned, st->last_nturned);
	jw_karr(w, "order");
	for (i = 0; i < st->last_nplaces; i++)
		suit_write(w, st->last_order[i]);
	jw_end(w);
	jw_karr(w, "progress");
	for (i = 0; i < 4; i++)
		jw_int(w, st->last_progress[i]);
	jw_end(w);
	jw_end(w);
}

/* Writes the Calcutta auction under way. */
static void
auction_write(const struct hr_state *st, struct jw *w)
{
	const struct auction *a = &st->auc;
	int p;

	jw_obj(w);
	jw_key(w, "suit");
	suit_write(w, st->asuit);
	jw_kint(w, "high", a->high);
	jw_key(w, "high_bidder");
	seat_or_null(w, a->high_bidder);
	jw_kint(w, "next_min", auction_next_min(a));
	jw_key(w, "turn");
	seat_or_null(w, a->turn);
	jw_karr(w, "in");
	for (p = 0; p < st->players; p++)
		if ((a->in & (1u << p)) || p == a->high_bidder)
			jw_int(w, p);
	jw_end(w);
	jw_end(w);
}

/* Writes the daily double of the dealer's pair of races. */
static void
dd_write(const struct hr_state *st, struct jw *w)
{
	int p, i;

	jw_obj(w);
	jw_kint(w, "multiplier", st->dd_mult);
	jw_kbool(w, "first_race", st->race % 2 == 0);
	if (st->dd_w1 >= 0) {
		jw_key(w, "first_winner");
		suit_write(w, st->dd_w1);
		jw_kint(w, "first_odds", st->dd_o1);
	}
	jw_karr(w, "bets");
	for (p = 0; p < st->players; p++)
		for (i = 0; i < 16; i++)
			if (st->dd[p][i] > 0)
				bet_write(w, p, HR_T_DD + i, st->dd[p][i]);
	jw_end(w);
	jw_end(w);
}

/*
 * Writes what seat may see (SEAT_ALL: everything, the stock order and
 * every sealed bet included).  Written field by field from the visibility
 * rules, never by dumping the state.
 */
void
hr_view_write(const void *vst, int seat, struct jw *w)
{
	const struct hr_state *st = vst;
	int p, s, k, live;

	live = st->phase != HP_OVER;
	jw_obj(w);
	if (seat != SEAT_ALL)
		jw_kint(w, "seat", seat);
	jw_kint(w, "players", st->players);
	jw_kword(w, "phase", phase_names[st->phase], phase_len[st->phase]);
	jw_kint(w, "race", live ? st->race + 1 : st->races);
	jw_kint(w, "races", st->races);
	jw_kint(w, "dealer", live ? st->dealer : st->last_dealer);
	jw_karr(w, "chips");
	for (p = 0; p < st->players; p++)
		jw_int(w, st->chips[p]);
	jw_end(w);
	if (!st->calcutta) {
		jw_kint(w, "bet_limit", st->bet_limit);
		jw_karr(w, "bets_offered");
		for (k = HR_WIN; k <= HR_DD; k++)
			if (st->bets & (1 << k))
				jw_word(w, kind_names[k], kind_len[k]);
		jw_end(w);
	}
	if (live) {
		jw_key(w, "odds_cards");
		cards8_write(w, st->deck, HR_NODDS);
		jw_karr(w, "odds_counts");
		for (s = 0; s < 4; s++)
			jw_int(w, st->count[s]);
		jw_end(w);
		jw_kint(w, "relays", st->relays);
		jw_kobj(w, "stock");
		jw_kint(w, "cards", st->ndeck - st->top);
		jw_karr(w, "suits");
		for (s = 0; s < 4; s++)
			jw_int(w, 12 - st->count[s]);
		jw_end(w);
		jw_kint(w, "jokers", st->joker);
		jw_end(w);
	}
	if (live && !st->calcutta) {
		jw_karr(w, "odds");
		for (s = 0; s < 4; s++)
			if (st->phase == HP_ODDS && s >= st->odds_suit)
				jw_null(w);
			else
				jw_int(w, st->odds[s]);
		jw_end(w);
		if (st->phase == HP_ODDS) {
			jw_key(w, "odds_to_set");
			suit_write(w, st->odds_suit);
		}
		jw_karr(w, "bets_now");
		for (k = HR_WIN; k <= HR_DD; k++)
			if (hr_kind_offered(st, k))
				jw_word(w, kind_names[k], kind_len[k]);
		jw_end(w);
	}
	if (live && st->phase == HP_BET) {
		/* A bettor knows only whether it is done itself. */
		jw_karr(w, "waiting");
		for (p = 0; p < st->players; p++)
			if (seat == SEAT_ALL || p == seat ?
			    (st->waiting & (1u << p)) :
			    (st->bettors & (1u << p)))
				jw_int(w, p);
		jw_end(w);
		if (seat >= 0 && seat < st->players && seat != st->dealer) {
			jw_karr(w, "my_bets");
			bets_write(w, -1, st->stake[seat]);
			jw_end(w);
			jw_kint(w, "my_left", hr_left(st, seat));
		}
		if (seat == SEAT_ALL) {
			jw_karr(w, "sealed_bets");
			for (p = 0; p < st->players; p++)
				bets_write(w, p, st->stake[p]);
			jw_end(w);
		}
	}
	if (live && !st->calcutta && (st->bets & HR_BETS_DD)) {
		jw_key(w, "daily_double");
		dd_write(st, w);
	}
	if (st->calcutta) {
		jw_kint(w, "pot", st->pot);
		if (live) {
			jw_karr(w, "owners");
			for (s = 0; s < 4; s++)
				seat_or_null(w, st->owner[s]);
			jw_end(w);
			jw_karr(w, "prices");
			for (s = 0; s < 4; s++)
				jw_int(w, st->price[s]);
			jw_end(w);
		}
		if (st->phase == HP_AUCTION) {
			jw_key(w, "auction");
			auction_write(st, w);
		}
	}
	jw_key(w, "last_race");
	last_race_write(st, w);
	if (seat == SEAT_ALL) {
		if (live) {
			jw_key(w, "stock_order");
			cards8_write(w, st->deck + st->top,
			    st->ndeck - st->top);
		}
		jw_kbool(w, "capped", 0);
	}
	jw_end(w);
}

/*
 * Writes an action as the protocol gives it; the amount of a bet, odds or
 * bid goes through jw_amount (a range in a legal list).
 */
void
hr_action_write(const void *vst, int player, struct action a, struct jw *w)
{
	int64_t c = a.code;

	jw_obj(w);
	if (c == HA_DONE)
		jw_kstr(w, "type", "done");
	else if (c == HA_PASS)
		jw_kstr(w, "type", "pass");
	else if (c == HA_BID) {
		jw_kstr(w, "type", "bid");
		jw_amount(w, a.amount);
	} else if (c >= HA_ODDS && c < HA_ODDS + 4) {
		jw_kstr(w, "type", "odds");
		jw_key(w, "suit");
		suit_write(w, (int)(c - HA_ODDS));
		jw_amount(w, a.amount);
	} else if (c >= HA_BET && c < HA_BET + HR_NT) {
		jw_kstr(w, "type", "bet");
		target_write(w, (int)(c - HA_BET));
		jw_amount(w, a.amount);
	} else {
		jw_kstr(w, "type", "invalid");
		jw_kint(w, "code", c);
	}
	jw_end(w);
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

/* Parses an action given by value (what hr_action_write writes). */
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

/* Writes an event as the players are told it. */
void
hr_event_write(const void *vst, const struct event *e, struct jw *w)
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
	int i;

	jw_obj(w);
	if (e->type < 0 || e->type > HE_GAME_END) {
		jw_kstr(w, "type", "unknown");
		jw_end(w);
		return;
	}
	jw_kstr(w, "type", names[e->type]);
	switch (e->type) {
	case HE_RACE:
		jw_kint(w, "race", e->x + 1);
		jw_kint(w, "dealer", e->a[0]);
		break;
	case HE_LAY:
		jw_karr(w, "cards");
		for (i = 0; i < HR_NODDS; i++)
			jw_card(w, (int)((uint64_t)e->x >> (6 * i) & 63));
		jw_end(w);
		jw_kbool(w, "void", e->a[0]);
		break;
	case HE_ODDS:
		jw_karr(w, "odds");
		for (i = 0; i < 4; i++)
			jw_int(w, e->a[i]);
		jw_end(w);
		break;
	case HE_ODDS_SET:
		jw_key(w, "suit");
		suit_write(w, e->a[0]);
		jw_kint(w, "odds", e->a[1]);
		break;
	case HE_BETTING:
		jw_karr(w, "bettors");
		for (i = 0; i < HR_MAXP; i++)
			if (e->x & (1 << i))
				jw_int(w, i);
		jw_end(w);
		break;
	case HE_BET_SEALED:
		jw_kint(w, "player", e->a[0]);
		target_write(w, e->a[1]);
		jw_kint(w, "amount", e->a[2]);
		jw_kint(w, "stake", e->a[3]);
		break;
	case HE_DONE:
		jw_kint(w, "player", e->a[0]);
		jw_kbool(w, "auto", e->a[1]);
		break;
	case HE_BET:
		jw_kint(w, "player", e->a[0]);
		target_write(w, e->a[1]);
		jw_kint(w, "stake", e->a[2]);
		break;
	case HE_CARD:
		jw_kcard(w, "card", e->a[0]);
		if (e->a[1] >= 0)
			jw_kint(w, "progress", e->a[1]);
		else
			jw_kbool(w, "set_aside", 1);
		break;
	case HE_JOKER:
		jw_kcard(w, "card", JOKER);
		jw_key(w, "moved");
		suits_mask_write(w, e->a[0]);
		break;
	case HE_FINISH:
		jw_key(w, "suit");
		suit_write(w, e->a[0]);
		jw_kint(w, "place", e->a[1]);
		break;
	case HE_RACE_END:
		jw_karr(w, "order");
		for (i = 0; i < e->a[0] && i < 3; i++)
			suit_write(w, e->a[1 + i]);
		jw_end(w);
		break;
	case HE_SETTLE:
		jw_kint(w, "player", e->a[0]);
		target_write(w, e->a[1]);
		jw_kint(w, "stake", e->a[2]);
		jw_kbool(w, "won", e->x > 0);
		jw_kint(w, "paid", e->x);
		break;
	case HE_AUCTION:
		jw_key(w, "suit");
		suit_write(w, e->a[0]);
		break;
	case HE_BID:
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->a[1]);
		break;
	case HE_PASS:
		jw_kint(w, "player", e->a[0]);
		break;
	case HE_SOLD:
		jw_key(w, "suit");
		suit_write(w, e->a[0]);
		jw_key(w, "player");
		seat_or_null(w, e->a[1]);
		jw_kint(w, "price", e->a[2]);
		break;
	case HE_SHARE:
		jw_kint(w, "place", e->a[1]);
		jw_key(w, "suit");
		suit_write(w, e->a[2]);
		jw_key(w, "player");
		seat_or_null(w, e->a[0]);
		jw_kint(w, "amount", e->x);
		break;
	case HE_SPLIT:
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "amount", e->x);
		break;
	}
	jw_end(w);
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
