/*
 * The determinization of horserace: a seat's view read back into a state.
 * The odds cards are public, so the stock is the rest of the race deck;
 * only its order is hidden, and the sample shuffles it uniformly.  The
 * other bettors' sealed bets of the race under way are hidden too, and so
 * is whether they are done: the sampled state leaves them undecided (no
 * bet, still waiting), the one completion that assumes nothing about how
 * they bet; a search then chooses their bets as their own moves.  The rest
 * is public and read field by field.
 */
#include <stdio.h>
#include <string.h>

#include "horserace.h"
#include "vread.h"

static const char *const phase_names[] = {
	"odds", "bet", "auction", "over", NULL
};
static const char *const kind_names[] = {
	"win", "exacta", "trifecta", "daily_double", NULL
};
static const char *const suit_names[] = { "S", "H", "D", "C", NULL };

static int	suit_or_null(struct vread *, const json_t *);
static int	target(struct vread *, const json_t *);
static void	stakes(struct vread *, const json_t *, int, int32_t *, int,
		    int);
static void	owners(struct vread *, const json_t *, int, int8_t *,
		    int32_t *);
static void	last_race(struct vread *, const json_t *, struct hr_state *);
static int	deck_read(struct vread *, const json_t *, struct hr_state *);
static void	odds_read(struct vread *, const json_t *, struct hr_state *);
static void	auction_read(struct vread *, const json_t *,
		    struct hr_state *);
static void	bets_read(struct vread *, const json_t *, int,
		    struct hr_state *);

/* A suit letter, or -1 for null or nothing. */
static int
suit_or_null(struct vread *v, const json_t *j)
{
	int i;

	if (v->bad || j == NULL || json_is_null(j))
		return -1;
	if ((i = word_index(suit_names, j)) >= 0)
		return i;
	vr_fail(v, "view: a suit is not S, H, D or C");
	return -1;
}

/* The target of a bet object {kind, suits}. */
static int
target(struct vread *v, const json_t *b)
{
	const json_t *a;
	int s[3] = { -1, -1, -1 }, n, i, t;

	if (v->bad)
		return 0;
	a = vr_get(v, b, "suits", JSON_ARRAY);
	n = (int)json_array_size(a);
	for (i = 0; i < n && i < 3; i++)
		s[i] = suit_or_null(v, json_array_get(a, (size_t)i));
	if (!v->bad && n >= 1 && n <= 3 && s[0] >= 0 && (t = hr_target_index(
	    vr_word(v, b, "kind", kind_names), s)) >= 0 && t < HR_NT)
		return t;
	vr_fail(v, "view: a bet's target is not one");
	return 0;
}

/*
 * Reads the bet objects of array a into stake (per player, width entries
 * from target base); player is the owner, or -1 to read "player".
 */
static void
stakes(struct vread *v, const json_t *a, int player, int32_t *stake,
    int width, int base)
{
	const json_t *b;
	size_t i;
	int p, t;

	for (i = 0; !v->bad && i < json_array_size(a); i++) {
		b = json_array_get(a, i);
		p = player >= 0 ? player : (int)vr_int(v, b, "player", 0,
		    HR_MAXP - 1);
		t = target(v, b) - base;
		if (!v->bad && (t < 0 || t >= width))
			vr_fail(v, "view: a bet of the wrong kind");
		if (!v->bad)
			stake[p * width + t] = (int32_t)vr_int(v, b, "stake",
			    1, INT32_MAX);
	}
}

/* Reads "owners" and "prices" of o (Calcutta). */
static void
owners(struct vread *v, const json_t *o, int players, int8_t *owner,
    int32_t *price)
{
	const json_t *ow, *pr, *j;
	int s;

	ow = vr_get(v, o, "owners", JSON_ARRAY);
	pr = vr_get(v, o, "prices", JSON_ARRAY);
	for (s = 0; s < 4 && !v->bad; s++) {
		j = json_array_get(ow, (size_t)s);
		owner[s] = (int8_t)(json_is_null(j) ? -1 : vr_at(v, ow,
		    (size_t)s, 0, players - 1));
		price[s] = (int32_t)vr_at(v, pr, (size_t)s, 0, INT32_MAX);
	}
}

/* Reads the last race run (or null) into st. */
static void
last_race(struct vread *v, const json_t *view, struct hr_state *st)
{
	const json_t *l, *a;
	int cards[HR_DECK], i, n;

	if (v->bad || json_is_null(l = json_object_get(view, "last_race")))
		return;
	st->last_race_valid = 1;
	st->last_dealer = (int8_t)vr_int(v, l, "dealer", 0, st->players - 1);
	if (vr_cards(v, vr_get(v, l, "odds_cards", JSON_ARRAY), cards,
	    HR_NODDS) != HR_NODDS && !v->bad)
		vr_fail(v, "view: the last race's odds cards");
	for (i = 0; i < HR_NODDS && !v->bad; i++)
		st->last_odds_cards[i] = (int8_t)cards[i];
	if (!st->calcutta) {
		a = vr_get(v, l, "odds", JSON_ARRAY);
		for (i = 0; i < 4 && !v->bad; i++)
			st->last_odds[i] = (int32_t)vr_at(v, a, (size_t)i, 0,
			    INT32_MAX);
		stakes(v, vr_get(v, l, "bets", JSON_ARRAY), -1,
		    &st->last_stake[0][0], HR_NT, 0);
	} else
		owners(v, l, st->players, st->last_owner, st->last_price);
	n = vr_cards(v, vr_get(v, l, "cards", JSON_ARRAY), cards, HR_DECK);
	for (i = 0; i < n; i++)
		st->last_turned[i] = (int8_t)cards[i];
	st->last_nturned = (int8_t)n;
	a = vr_get(v, l, "order", JSON_ARRAY);
	st->last_nplaces = (int8_t)json_array_size(a);
	if (!v->bad && st->last_nplaces > 4)
		vr_fail(v, "view: the last race's order");
	for (i = 0; i < st->last_nplaces && !v->bad; i++)
		st->last_order[i] = (int8_t)suit_or_null(v,
		    json_array_get(a, (size_t)i));
	for (i = st->last_nplaces; i < 4; i++)
		st->last_order[i] = -1;
	a = vr_get(v, l, "progress", JSON_ARRAY);
	for (i = 0; i < 4 && !v->bad; i++)
		st->last_progress[i] = (int8_t)vr_at(v, a, (size_t)i, 0,
		    HR_GOAL);
}

/*
 * Reads the race deck of a game under way: the odds cards, the rest in
 * the stock (in order, for the caller to shuffle); -1 if the odds cards
 * are not.
 */
static int
deck_read(struct vread *v, const json_t *view, struct hr_state *st)
{
	int cards[HR_DECK], used[54], k, c;

	if (vr_cards(v, vr_get(v, view, "odds_cards", JSON_ARRAY), cards,
	    HR_NODDS) != HR_NODDS && !v->bad)
		return vr_fail(v, "view: not %d odds cards", HR_NODDS);
	memset(used, 0, sizeof used);
	for (k = 0; k < HR_NODDS && !v->bad; k++) {
		c = cards[k];
		if (IS_JOKER(c) || CARD_RANK(c) == 0 || used[c]++)
			return vr_fail(v, "view: a bad odds card");
		st->deck[k] = (int8_t)c;
		st->count[CARD_SUIT(c)]++;
	}
	for (c = 0; c < 52; c++)
		if (CARD_RANK(c) != 0 && !used[c])
			st->deck[k++] = (int8_t)c;
	if (st->joker)
		st->deck[k++] = JOKER;
	st->ndeck = (int8_t)k;
	st->top = HR_NODDS;
	return 0;
}

/*
 * Reads the odds of a game under way (the re-lays, the odds set and the
 * suit whose odds are due) and the daily double's first leg and bets.
 */
static void
odds_read(struct vread *v, const json_t *view, struct hr_state *st)
{
	const json_t *a, *dd;
	int s;

	st->relays = (int8_t)vr_int(v, view, "relays", 0, 127);
	if (!st->calcutta) {
		a = vr_get(v, view, "odds", JSON_ARRAY);
		for (s = 0; s < 4 && !v->bad; s++)
			if (!json_is_null(json_array_get(a, (size_t)s)))
				st->odds[s] = (int32_t)vr_at(v, a, (size_t)s,
				    0, INT32_MAX);
		if (st->phase == HP_ODDS)
			st->odds_suit = (int8_t)suit_or_null(v,
			    json_object_get(view, "odds_to_set"));
	}
	if (!st->calcutta && (st->bets & HR_BETS_DD)) {
		dd = vr_get(v, view, "daily_double", JSON_OBJECT);
		st->dd_w1 = (int8_t)suit_or_null(v, json_object_get(dd,
		    "first_winner"));
		if (st->dd_w1 >= 0)
			st->dd_o1 = (int32_t)vr_int(v, dd, "first_odds", 0,
			    INT32_MAX);
		stakes(v, vr_get(v, dd, "bets", JSON_ARRAY), -1,
		    &st->dd[0][0], 16, HR_T_DD);
	}
}

/* Reads a Calcutta auction under way: the ace, the high bid, who is in. */
static void
auction_read(struct vread *v, const json_t *view, struct hr_state *st)
{
	const json_t *a, *au;
	int k;

	au = vr_get(v, view, "auction", JSON_OBJECT);
	st->asuit = (int8_t)suit_or_null(v, json_object_get(au, "suit"));
	st->auc.n = st->players;
	st->auc.seller = -1;
	st->auc.min = 1;
	st->auc.high = (int32_t)vr_int(v, au, "high", 0, INT32_MAX);
	st->auc.high_bidder = (int8_t)vr_nint(v, au, "high_bidder", 0,
	    st->players - 1, -1);
	st->auc.turn = (int8_t)vr_nint(v, au, "turn", 0, st->players - 1,
	    -1);
	a = vr_get(v, au, "in", JSON_ARRAY);
	for (k = 0; !v->bad && k < (int)json_array_size(a); k++)
		st->auc.in |= 1u << vr_at(v, a, (size_t)k, 0,
		    st->players - 1);
}

/*
 * Reads the betting under way: who bets (public), seat's own bets and
 * whether it is done; the others' bets are left undecided.
 */
static void
bets_read(struct vread *v, const json_t *view, int seat,
    struct hr_state *st)
{
	const json_t *a;
	int p, k, any;

	for (any = 0, k = HR_WIN; k <= HR_DD; k++)
		any |= hr_kind_offered(st, k);
	for (p = 0; p < st->players; p++)
		if (p != st->dealer && any && hr_left(st, p) > 0)
			st->bettors |= 1u << p;
	st->waiting = st->bettors & ~(1u << seat);
	if (seat != st->dealer)
		stakes(v, vr_get(v, view, "my_bets", JSON_ARRAY), seat,
		    &st->stake[0][0], HR_NT, 0);
	for (k = 0; k < HR_NT; k++)
		st->ptotal[seat] += st->stake[seat][k];
	a = vr_get(v, view, "waiting", JSON_ARRAY);
	for (k = 0; !v->bad && k < (int)json_array_size(a); k++)
		if (vr_at(v, a, (size_t)k, 0, st->players - 1) == seat)
			st->waiting |= 1u << seat;
	if ((st->bettors & (1u << seat)) && !(st->waiting & (1u << seat))) {
		st->ndone = 1;
		st->done_order[0] = (int8_t)(seat | (hr_left(st, seat) == 0 ?
		    0x10 : 0));
	}
}

/* Reads seat's view of horserace into st and completes it at random. */
int
hr_determinize(void *vst, const struct opts *o, int seat,
    const json_t *view, struct rng *r, char *cause, size_t len)
{
	struct hr_state *st = vst;
	struct vread v;
	const json_t *a;
	int p, k, c, live;
	int64_t sum;

	vr_init(&v, cause, len);
	memset(st, 0, sizeof *st);
	hr_set_options(st, o);
	if (vr_int(&v, view, "players", 3, HR_MAXP) != st->players && !v.bad)
		return vr_fail(&v, "view: not %d players", st->players);
	if (!v.bad && (seat < 0 || seat >= st->players))
		return vr_fail(&v, "seat %d is not at the table", seat);
	st->dd_w1 = -1;
	st->auc.turn = -1;
	memset(st->owner, -1, sizeof st->owner);
	st->phase = (int8_t)vr_word(&v, view, "phase", phase_names);
	live = st->phase != HP_OVER;
	st->race = (int16_t)(vr_int(&v, view, "race", 1, st->races) -
	    (live ? 1 : 0));
	st->dealer = (int8_t)vr_int(&v, view, "dealer", 0, st->players - 1);
	k = !st->calcutta && (st->bets & HR_BETS_DD) ? st->race / 2 :
	    st->race;
	st->first_dealer = (int8_t)(((st->dealer - k) % st->players +
	    st->players) % st->players);
	a = vr_get(&v, view, "chips", JSON_ARRAY);
	for (p = 0; p < st->players && !v.bad; p++)
		st->chips[p] = vr_at(&v, a, (size_t)p, INT32_MIN, INT32_MAX);
	if (st->calcutta)
		st->pot = vr_int(&v, view, "pot", 0, INT32_MAX);
	last_race(&v, view, st);
	if (!live) {
		/* Over: the whole race deck, in order. */
		st->last_dealer = st->dealer;
		st->ndeck = (int8_t)(48 + st->joker);
		for (k = 0, c = 0; c < 52; c++)
			if (CARD_RANK(c) != 0)
				st->deck[k++] = (int8_t)c;
		if (st->joker)
			st->deck[k++] = JOKER;
	} else {
		if (deck_read(&v, view, st) == -1)
			return -1;
		odds_read(&v, view, st);
		if (st->calcutta)
			owners(&v, view, st->players, st->owner, st->price);
		if (st->phase == HP_AUCTION)
			auction_read(&v, view, st);
		if (st->phase == HP_BET)
			bets_read(&v, view, seat, st);
	}
	if (v.bad)
		return -1;
	for (sum = st->pot, p = 0; p < st->players; p++) {
		sum += st->chips[p];
		for (k = 0; k < 16; k++)
			sum += st->dd[p][k];
	}
	st->total = sum;
	/* The stock in a uniform order (Fisher-Yates). */
	for (k = st->ndeck - 1; live && k > st->top; k--) {
		c = st->top + (int)rng_below(r, (uint32_t)(k - st->top + 1));
		p = st->deck[k];
		st->deck[k] = st->deck[c];
		st->deck[c] = (int8_t)p;
	}
	return 0;
}
