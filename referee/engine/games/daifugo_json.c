/*
 * The JSON codec of daifugo: the views (built from the visibility rules:
 * a seat sees its own hand, the exchange it takes part in, and everything
 * public; never a dump of the state), the actions (plays naming their cards
 * and what each joker stands for), the events and the --setup document.
 * Views, actions and events are written once, through the JSON writer
 * (jw.h), which gives the referee their text and everyone else their tree.
 * protocol.md's daifugo section documents every field.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "daifugo.h"
#include "jw.h"

static void	hand_write(struct jw *, uint64_t, int);
static void	seats_write(struct jw *, const uint8_t *, int);
static void	packed_write(struct jw *, int32_t, int, int);
static void	points_write(struct jw *, const struct event *, int);
static void	rank_write(struct jw *, int);
static void	play_write(struct jw *, int64_t, int, int);
static void	exchange_write(struct jw *, const struct df_state *, int,
		    int);
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
/* Their lengths: the text copies the words, no scan (fuzz checks them). */
static const uint8_t kind_len[] = { 4, 6, 3, 8, 5, 10 };
static const uint8_t class_len[] = { 8, 17, 11, 4, 9 };
static const uint8_t phase_len[] = { 8, 4, 4 };
static const char suit_letters[] = "SHDC";

/* The four bits of strength index 0, one a suit. */
#define COLUMN		(1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39)
/* For play_write: show the rank-deciding card's rank in the given order. */
#define RANK_DECIDING	INT_MIN

/*
 * Writes an array naming the cards of a mask in strength order (suits in
 * S H D C order within a rank), jokers last.
 */
static void
hand_write(struct jw *w, uint64_t nat, int jokers)
{
	uint8_t cards[64];
	uint32_t m[4], ranks;
	int n = 0, s, u, r;

	/* Each suit's 13 strengths; the ranks held, lowest first. */
	for (u = 0; u < 4; u++)
		m[u] = (uint32_t)(nat >> (13 * u)) & 0x1fff;
	ranks = m[0] | m[1] | m[2] | m[3];
	while (ranks != 0) {
		s = __builtin_ctz(ranks);
		ranks &= ranks - 1;
		/* As cards: strength s is rank (s + 2) % 13 (3 .. K, A, 2). */
		r = s < 11 ? s + 2 : s - 11;
		for (u = 0; u < 4; u++)
			if (m[u] & (1u << s))
				cards[n++] = (uint8_t)CARD(u, r);
	}
	while (jokers-- > 0 && n < 64)
		cards[n++] = JOKER;
	jw_cards_u8(w, cards, n);
}

/* Writes an array of n seat numbers. */
static void
seats_write(struct jw *w, const uint8_t *seats, int n)
{
	int i;

	jw_arr(w);
	for (i = 0; i < n; i++)
		jw_int(w, seats[i]);
	jw_end(w);
}

/* Writes an array of n 3-bit fields of v, as numbers or class names. */
static void
packed_write(struct jw *w, int32_t v, int n, int classes)
{
	int i, f;

	jw_arr(w);
	for (i = 0; i < n; i++) {
		f = (v >> (3 * i)) & 7;
		if (classes)
			jw_word(w, class_names[f > DC_VERY_POOR ? 0 : f],
			    class_len[f > DC_VERY_POOR ? 0 : f]);
		else
			jw_int(w, f);
	}
	jw_end(w);
}

/* Writes an array of the 16-bit points packed into an event. */
static void
points_write(struct jw *w, const struct event *e, int n)
{
	int i;
	uint32_t v;

	jw_arr(w);
	for (i = 0; i < n; i++) {
		if (i < 4)
			v = (uint32_t)((uint64_t)e->x >> (16 * i)) & 0xffff;
		else if (i < 6)
			v = ((uint32_t)e->a[3] >> (16 * (i - 4))) & 0xffff;
		else
			v = (uint32_t)e->a[4] & 0xffff;
		jw_int(w, v);
	}
	jw_end(w);
}

/* Writes a rank letter for a strength index, or null outside 0-12. */
static void
rank_write(struct jw *w, int s)
{
	char buf[2];

	if (s < 0 || s > 12) {
		jw_null(w);
		return;
	}
	buf[0] = df_rank_names[s];
	buf[1] = '\0';
	jw_word(w, buf, 1);
}

/*
 * Writes the members describing play code, inside an open object: cards,
 * kind, rank (shown: a strength index, -1 for null, or RANK_DECIDING for
 * the rank-deciding card in the order reversed says) and, when a joker
 * stands in, jokers_as: a set's rank letter per joker, or the cards of a
 * sequence's window the naturals do not hold.
 */
static void
play_write(struct jw *w, int64_t code, int reversed, int shown)
{
	uint64_t nat = DA_NAT(code);
	int j = DA_JOK(code), low = DA_LOW(code), kind, rank, c, u, s;
	char name[3];

	kind = df_classify(nat, j, low, &rank);
	c = popcount64(nat) + j;
	jw_key(w, "cards");
	hand_write(w, nat, j);
	jw_kword(w, "kind", kind_names[kind], kind_len[kind]);
	jw_key(w, "rank");
	rank_write(w, shown == RANK_DECIDING ? df_deciding(kind, c, low, rank,
	    reversed) : shown);
	if (j == 0 || (kind != DK_SET && kind != DK_SEQ))
		return;
	jw_karr(w, "jokers_as");
	if (kind == DK_SET) {
		while (j-- > 0)
			rank_write(w, rank);
	} else {
		u = __builtin_ctzll(nat) / 13;
		name[1] = suit_letters[u];
		name[2] = '\0';
		for (s = low; s < low + c; s++)
			if (!(nat & (1ULL << (u * 13 + s)))) {
				name[0] = df_rank_names[s];
				jw_word(w, name, 2);
			}
	}
	jw_end(w);
}

/*
 * Writes the exchange seat takes part in: for seat's own view (player -1)
 * the object or null outside one; for the all-seeing list the object with
 * "player" last, or nothing outside one.
 */
static void
exchange_write(struct jw *w, const struct df_state *st, int seat, int player)
{
	int q = st->partner[seat], given;

	if (q < 0) {
		if (player == -1)
			jw_null(w);
		return;
	}
	given = !(st->pending & (1u << seat));
	jw_obj(w);
	jw_kint(w, "partner", q);
	jw_kint(w, "count", st->ngive[seat]);
	if (st->cls[seat] == DC_GRAND || st->cls[seat] == DC_RICH)
		jw_kstr(w, "rule", "free");
	else
		jw_kstr(w, "rule", "strongest");
	jw_key(w, "gave");
	if (given)
		hand_write(w, st->gift[seat], st->gjok[seat]);
	else
		jw_null(w);
	jw_key(w, "got");
	if (st->exchanged)
		hand_write(w, st->gift[q], st->gjok[q]);
	else
		jw_null(w);
	if (player != -1)
		jw_kint(w, "player", player);
	jw_end(w);
}

/*
 * Writes the view of seat (SEAT_ALL: everything, for logs and replay):
 * its own hand and exchange, and the public facts of the deal.
 */
void
df_view_write(const void *vst, int seat, struct jw *w)
{
	const struct df_state *st = vst;
	int p, play = st->phase == DP_PLAY, rev;

	rev = st->revolution ^ st->coup;
	jw_obj(w);
	jw_kint(w, "deal", st->deal + 1);
	jw_kint(w, "deals", st->deals);
	jw_kword(w, "phase", phase_names[st->phase], phase_len[st->phase]);
	if (seat != SEAT_ALL)
		jw_kint(w, "seat", seat);
	jw_key(w, "seating");
	seats_write(w, st->seat, st->np);
	jw_karr(w, "classes");
	for (p = 0; p < st->np; p++)
		jw_word(w, class_names[st->cls[p]], class_len[st->cls[p]]);
	jw_end(w);
	jw_key(w, "previous");
	if (st->has_prev)
		seats_write(w, st->prev, st->np);
	else
		jw_null(w);
	if (seat != SEAT_ALL) {
		jw_key(w, "hand");
		hand_write(w, st->hand[seat], st->jok[seat]);
	} else {
		jw_karr(w, "hands");
		for (p = 0; p < st->np; p++)
			hand_write(w, st->hand[p], st->jok[p]);
		jw_end(w);
	}
	jw_karr(w, "hand_sizes");
	for (p = 0; p < st->np; p++)
		jw_int(w, popcount64(st->hand[p]) + st->jok[p]);
	jw_end(w);
	jw_karr(w, "points");
	for (p = 0; p < st->np; p++)
		jw_int(w, st->total[p]);
	jw_end(w);
	jw_karr(w, "deal_points");
	for (p = 0; p < st->np; p++)
		jw_int(w, st->dpts[p]);
	jw_end(w);
	jw_key(w, "finished");
	seats_write(w, st->out, st->nout);
	if (play)
		jw_kint(w, "turn", st->turn);
	else
		jw_knull(w, "turn");
	if (play && st->tkind != DK_NONE) {
		jw_kobj(w, "table");
		play_write(w, st->tcode, 0, st->tkind == DK_JOKER ||
		    st->tkind == DK_JPAIR ? -1 : st->trank);
		jw_kint(w, "count", st->tcount);
		jw_kint(w, "player", st->last);
		jw_end(w);
	} else
		jw_knull(w, "table");
	jw_karr(w, "passed");
	for (p = 0; p < st->np; p++)
		if (play && (st->passed & (1u << p)))
			jw_int(w, p);
	jw_end(w);
	jw_kbool(w, "revolution", st->revolution);
	jw_kbool(w, "coup", st->coup);
	if (rev)
		jw_kstr(w, "order", "reversed");
	else
		jw_kstr(w, "order", "normal");
	jw_kbool(w, "first_play", play && st->first);
	jw_karr(w, "played");
	for (p = 0; p < st->np; p++)
		hand_write(w, st->played[p], st->pjok[p]);
	jw_end(w);
	jw_karr(w, "waiting");
	for (p = 0; p < st->np; p++)
		if (st->phase == DP_EXCHANGE && (st->pending & (1u << p)))
			jw_int(w, p);
	jw_end(w);
	if (seat != SEAT_ALL) {
		jw_key(w, "exchange");
		exchange_write(w, st, seat, -1);
	} else {
		jw_karr(w, "exchanges");
		for (p = 0; p < st->np; p++)
			exchange_write(w, st, p, p);
		jw_end(w);
		jw_kbool(w, "capped", 0);
	}
	jw_end(w);
}

/* Writes an action of player in st. */
void
df_action_write(const void *vst, int player, struct action a, struct jw *w)
{
	const struct df_state *st = vst;

	(void)player;
	jw_obj(w);
	if (a.code == DA_PASS)
		jw_kstr(w, "type", "pass");
	else if (DA_TYPE(a.code) == DA_GIVE) {
		jw_kstr(w, "type", "give");
		jw_key(w, "cards");
		hand_write(w, DA_NAT(a.code), DA_JOK(a.code));
	} else {
		jw_kstr(w, "type", "play");
		play_write(w, a.code, st->revolution ^ st->coup,
		    RANK_DECIDING);
	}
	jw_end(w);
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
	int c, lo, hi, b, m = popcount64(nat), s0;

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
	int jokers;

	a->code = DA_PASS;
	a->amount = 0;
	if (!json_is_object(j) ||
	    (kind = json_string_value(action_kind(j))) == NULL) {
		snprintf(cause, len, "an action is an object with \"type\": "
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
	return df_play_parse(j, &a->code, cause, len);
}

/*
 * Reads a play's code from an object with "cards" and "jokers_as" (an
 * action, or the table of a view); -1 + cause.
 */
int
df_play_parse(const json_t *j, int64_t *code, char *cause, size_t len)
{
	uint64_t nat;
	int jokers, low;

	if (parse_cards(json_object_get(j, "cards"), &nat, &jokers, cause,
	    len) == -1)
		return -1;
	if (nat == 0 && jokers == 0) {
		snprintf(cause, len, "a play needs at least one card");
		return -1;
	}
	if (parse_low(json_object_get(j, "jokers_as"), nat, jokers, &low,
	    cause, len) == -1)
		return -1;
	*code = DA_MAKE(DA_PLAY, nat, jokers, low > 12 ? 0 : low);
	return 0;
}

/* Writes an event. */
void
df_event_write(const void *vst, const struct event *e, struct jw *w)
{
	const struct df_state *st = vst;

	jw_obj(w);
	switch (e->type) {
	case DE_DEAL:
		jw_kstr(w, "type", "deal");
		jw_kint(w, "deal", e->a[0] + 1);
		jw_key(w, "seating");
		packed_write(w, e->a[1], st->np, 0);
		jw_key(w, "classes");
		packed_write(w, e->a[2], st->np, 1);
		break;
	case DE_HAND:
		jw_kstr(w, "type", "hand");
		jw_kint(w, "player", e->a[0]);
		jw_key(w, "cards");
		hand_write(w, (uint64_t)e->x, e->a[1]);
		break;
	case DE_GIVE:
		jw_kstr(w, "type", "exchange");
		jw_kint(w, "from", e->a[0]);
		jw_kint(w, "to", e->a[1]);
		jw_key(w, "cards");
		hand_write(w, (uint64_t)e->x, e->a[2]);
		break;
	case DE_SWAP:
		jw_kstr(w, "type", "exchange");
		jw_kint(w, "from", e->a[0]);
		jw_kint(w, "to", e->a[1]);
		jw_kint(w, "count", e->a[2]);
		break;
	case DE_TRICK:
		jw_kstr(w, "type", "trick");
		jw_kint(w, "leader", e->a[0]);
		jw_kbool(w, "first_play", e->a[1]);
		break;
	case DE_PLAY:
		play_write(w, e->x, 0, e->a[2]);
		jw_kstr(w, "type", "play");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "left", e->a[3]);
		break;
	case DE_PASS:
		jw_kstr(w, "type", "pass");
		jw_kint(w, "player", e->a[0]);
		if (e->a[1] >= 0)
			jw_kbool(w, "auto", e->a[1]);
		break;
	case DE_REVOLUTION:
		jw_kstr(w, "type", "revolution");
		jw_kbool(w, "on", e->a[0]);
		break;
	case DE_COUP:
		jw_kstr(w, "type", "coup");
		jw_kbool(w, "on", e->a[0]);
		break;
	case DE_TRICK_END:
		jw_kstr(w, "type", "trick_end");
		jw_kint(w, "last", e->a[0]);
		jw_kbool(w, "trump", e->a[1]);
		jw_kint(w, "leader", e->a[2]);
		break;
	case DE_OUT:
		jw_kstr(w, "type", "out");
		jw_kint(w, "player", e->a[0]);
		jw_kint(w, "place", e->a[1]);
		jw_kint(w, "points", e->a[2]);
		break;
	case DE_DEAL_END:
		jw_kstr(w, "type", "deal_end");
		jw_kint(w, "deal", e->a[0] + 1);
		jw_key(w, "order");
		packed_write(w, e->a[1], st->np, 0);
		jw_key(w, "points");
		points_write(w, e, st->np);
		break;
	case DE_GAME_END:
		jw_kstr(w, "type", "game_end");
		jw_key(w, "points");
		points_write(w, e, st->np);
		break;
	default:
		jw_kstr(w, "type", "unknown");
		break;
	}
	jw_end(w);
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
