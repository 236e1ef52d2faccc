/*
 * The determinization of daifugo: a seat's view read back into a state.
 * The other hands are hidden; what the seat knows of them is kept: their
 * sizes, every card played, the holder of 3D while the first play is due,
 * the cards it gave its partner that the partner has not played, and,
 * when its partner had to give its strongest cards, that the partner kept
 * none stronger than the weakest of them.  The unseen cards are dealt
 * uniformly among the completions that respect all of that: the partner's
 * share drawn first from the cards it may hold, the rest shuffled.  In the
 * exchange, a player who has chosen but not yet given is dealt its hand
 * before the gift, and gives its strongest cards (ties by a random suit)
 * or, when free, a random choice.  Gifts between two other players are
 * not known and left empty.
 */
#include <stdio.h>
#include <string.h>

#include "daifugo.h"
#include "vread.h"

static const char *const phase_names[] = { "exchange", "play", "over",
    NULL };
static const char *const class_names[] = { "commoner", "grand_millionaire",
    "millionaire", "poor", "very_poor", NULL };
static const char *const kind_names[] = { "none", "single", "set",
    "sequence", "joker", "joker_pair", NULL };

#define STRENGTH(b)	((b) % 13)	/* of a natural's bit, normal order */

static void	cards_read(struct vread *, const json_t *, uint64_t *,
		    uint8_t *);
static int	seats_read(struct vread *, const json_t *, int, uint8_t *);
static void	table_read(struct vread *, const json_t *, struct df_state *);
static void	exchange_read(struct vread *, const json_t *, int,
		    struct df_state *);
static void	give(struct df_state *, int, const int *, int);
static int	classes_read(struct vread *, const json_t *,
		    struct df_state *);
static void	counts_read(struct vread *, const json_t *, int,
		    struct df_state *, uint8_t *);
static void	trick_read(struct vread *, const json_t *, struct df_state *);
static int	unseen(struct vread *, int, struct df_state *,
		    const uint8_t *, int *, int *);
static int	partner_deal(struct vread *, int, struct df_state *, int *,
		    int *, int *, struct rng *);
static int	hands_deal(struct vread *, int, struct df_state *,
		    const uint8_t *, struct rng *);

/* Reads a card list into a naturals mask and a joker count. */
static void
cards_read(struct vread *v, const json_t *a, uint64_t *nat, uint8_t *jok)
{
	int cards[DF_MAXDECK], n, i;

	*nat = 0;
	*jok = 0;
	n = vr_cards(v, a, cards, DF_MAXDECK);
	for (i = 0; i < n; i++)
		if (IS_JOKER(cards[i]))
			(*jok)++;
		else
			*nat |= 1ULL << DF_BIT(cards[i]);
}

/* Reads an array of seat numbers (at most max); the count. */
static int
seats_read(struct vread *v, const json_t *a, int max, uint8_t *seats)
{
	int n, i;

	if (v->bad)
		return 0;
	if (!json_is_array(a) || (n = (int)json_array_size(a)) > max) {
		vr_fail(v, "view: a seat list of more than %d", max);
		return 0;
	}
	for (i = 0; i < n; i++)
		seats[i] = (uint8_t)vr_at(v, a, (size_t)i, 0, max - 1);
	return n;
}

/* Reads the table (or null) into st. */
static void
table_read(struct vread *v, const json_t *t, struct df_state *st)
{
	const char *s, *r;

	st->tkind = DK_NONE;
	if (v->bad || json_is_null(t))
		return;
	if (df_play_parse(t, &st->tcode, v->cause, v->len) == -1) {
		v->bad = 1;
		return;
	}
	st->tkind = (uint8_t)vr_word(v, t, "kind", kind_names);
	st->tcount = (uint8_t)vr_int(v, t, "count", 1, DF_MAXPLAY);
	st->last = (uint8_t)vr_int(v, t, "player", 0, st->np - 1);
	st->trank = 0;
	if ((s = json_string_value(json_object_get(t, "rank"))) != NULL &&
	    (r = strchr(df_rank_names, s[0])) != NULL && s[0] != '\0')
		st->trank = (uint8_t)(r - df_rank_names);
}

/* Reads seat's exchange (or null) into st. */
static void
exchange_read(struct vread *v, const json_t *x, int seat,
    struct df_state *st)
{
	const json_t *j;
	int q;

	if (v->bad || json_is_null(x))
		return;
	if (!json_is_object(x)) {
		vr_fail(v, "view: \"exchange\" is not an object or null");
		return;
	}
	q = (int)vr_int(v, x, "partner", 0, st->np - 1);
	if (!v->bad && q != st->partner[seat])
		vr_fail(v, "view: the exchange's partner is not the class's");
	if (!v->bad && !json_is_null(j = json_object_get(x, "gave")))
		cards_read(v, j, &st->gift[seat], &st->gjok[seat]);
	if (!v->bad && !json_is_null(j = json_object_get(x, "got"))) {
		cards_read(v, j, &st->gift[q], &st->gjok[q]);
		st->exchanged = 1;
	}
}

/*
 * Gives p its n cards (naturals as bits, DF_NNAT + k a joker) and, if p
 * has chosen its gift in the exchange, takes the gift out of them: the
 * strongest naturals (ties by a random suit) under the "strongest" rule,
 * any cards otherwise (the cards come shuffled).
 */
static void
give(struct df_state *st, int p, const int *cards, int n)
{
	int order[DF_MAXDECK], i, k, t, chosen, strongest;

	chosen = st->phase == DP_EXCHANGE && st->partner[p] >= 0 &&
	    !(st->pending & (1u << p));
	strongest = st->cls[p] == DC_POOR || st->cls[p] == DC_VERY_POOR;
	memcpy(order, cards, (size_t)n * sizeof *order);
	if (chosen && strongest)
		/* Naturals by strength, strongest first; a stable sort. */
		for (i = 1; i < n; i++)
			for (k = i; k > 0; k--) {
				if (order[k] >= DF_NNAT || (order[k - 1] <
				    DF_NNAT && STRENGTH(order[k - 1]) >=
				    STRENGTH(order[k])))
					break;
				t = order[k];
				order[k] = order[k - 1];
				order[k - 1] = t;
			}
	for (i = 0; i < n; i++) {
		if (chosen && i < st->ngive[p]) {
			if (order[i] >= DF_NNAT)
				st->gjok[p]++;
			else
				st->gift[p] |= 1ULL << order[i];
		} else if (order[i] >= DF_NNAT)
			st->jok[p]++;
		else
			st->hand[p] |= 1ULL << order[i];
	}
}

/*
 * Reads the players' classes into st and pairs the partners of the
 * exchange (the top two classes with the bottom two); -1 if a class is
 * not one.
 */
static int
classes_read(struct vread *v, const json_t *view, struct df_state *st)
{
	const json_t *a;
	const char *s;
	int p, q, k;

	a = vr_get(v, view, "classes", JSON_ARRAY);
	for (p = 0; p < st->np && !v->bad; p++) {
		st->partner[p] = -1;
		s = json_string_value(json_array_get(a, (size_t)p));
		for (k = 0; s != NULL && class_names[k] != NULL; k++)
			if (strcmp(s, class_names[k]) == 0)
				break;
		if (s == NULL || class_names[k] == NULL)
			return vr_fail(v, "view: a class is not one");
		st->cls[p] = (uint8_t)k;
	}
	for (p = 0; p < st->np; p++)
		for (q = 0; q < st->np; q++)
			if ((st->cls[p] == DC_GRAND && st->cls[q] ==
			    DC_VERY_POOR) || (st->cls[p] == DC_VERY_POOR &&
			    st->cls[q] == DC_GRAND) || (st->cls[p] == DC_RICH &&
			    st->cls[q] == DC_POOR) || (st->cls[p] == DC_POOR &&
			    st->cls[q] == DC_RICH)) {
				st->partner[p] = (int8_t)q;
				st->ngive[p] = st->cls[p] == DC_GRAND ||
				    st->cls[p] == DC_VERY_POOR ? 2 : 1;
			}
	return 0;
}

/*
 * Reads seat's hand, every hand's size (into size), the points and the
 * order the players finished the deal in.
 */
static void
counts_read(struct vread *v, const json_t *view, int seat,
    struct df_state *st, uint8_t *size)
{
	const json_t *a;
	int p, pts;

	cards_read(v, vr_get(v, view, "hand", JSON_ARRAY), &st->hand[seat],
	    &st->jok[seat]);
	a = vr_get(v, view, "hand_sizes", JSON_ARRAY);
	for (p = 0; p < st->np && !v->bad; p++)
		size[p] = (uint8_t)vr_at(v, a, (size_t)p, 0, DF_MAXDECK);
	a = vr_get(v, view, "points", JSON_ARRAY);
	for (p = 0; p < st->np && !v->bad; p++)
		st->total[p] = (int32_t)vr_at(v, a, (size_t)p, 0, INT32_MAX);
	a = vr_get(v, view, "deal_points", JSON_ARRAY);
	for (pts = 0, p = 0; p < st->np && !v->bad; p++) {
		st->dpts[p] = (int16_t)vr_at(v, a, (size_t)p, 0, INT16_MAX);
		pts += st->dpts[p];
	}
	for (st->done_sum = 0, p = 0; p < st->np; p++)
		st->done_sum += st->total[p];
	if (st->phase != DP_OVER)
		st->done_sum -= pts;
	st->nout = (uint8_t)seats_read(v, vr_get(v, view, "finished",
	    JSON_ARRAY), st->np, st->out);
}

/*
 * Reads the trick under way: whose turn, the table, who passed, the
 * revolution and coup flags, the cards played, who has still to give.
 */
static void
trick_read(struct vread *v, const json_t *view, struct df_state *st)
{
	const json_t *a;
	int p, i;

	st->turn = (uint8_t)vr_nint(v, view, "turn", 0, st->np - 1, 0);
	table_read(v, json_object_get(view, "table"), st);
	if (st->tkind == DK_NONE)
		st->last = st->turn;
	a = vr_get(v, view, "passed", JSON_ARRAY);
	for (i = 0; !v->bad && i < (int)json_array_size(a); i++)
		st->passed |= (uint8_t)(1u << vr_at(v, a, (size_t)i, 0,
		    st->np - 1));
	st->revolution = (uint8_t)vr_bool(v, view, "revolution");
	st->coup = (uint8_t)vr_bool(v, view, "coup");
	st->first = (uint8_t)vr_bool(v, view, "first_play");
	a = vr_get(v, view, "played", JSON_ARRAY);
	for (p = 0; p < st->np && !v->bad; p++)
		cards_read(v, json_array_get(a, (size_t)p), &st->played[p],
		    &st->pjok[p]);
	a = vr_get(v, view, "waiting", JSON_ARRAY);
	for (i = 0; !v->bad && i < (int)json_array_size(a); i++)
		st->pending |= (uint8_t)(1u << vr_at(v, a, (size_t)i, 0,
		    st->np - 1));
}

/*
 * Puts into the other hands the cards seat knows they hold, sets in need
 * how many more each is dealt (with its gift where it has chosen one) and
 * lists the unseen cards in pool; their count, or -1 if the counts do not
 * add up.
 */
static int
unseen(struct vread *v, int seat, struct df_state *st, const uint8_t *size,
    int *need, int *pool)
{
	uint64_t known, keep[DF_MAXP];
	int n, p, q, k, b, jokers, kj[DF_MAXP];

	memset(keep, 0, sizeof keep);
	memset(kj, 0, sizeof kj);
	q = st->partner[seat];
	if (st->phase != DP_EXCHANGE && st->exchanged && q >= 0) {
		keep[q] = st->gift[seat] & ~st->played[q];
		k = st->gjok[seat] - st->pjok[q];
		kj[q] = k < 0 ? 0 : k;
	}
	if (st->phase == DP_PLAY && st->first && st->turn != seat)
		keep[st->turn] |= 1ULL << DF_BIT3D;
	known = st->hand[seat];
	jokers = st->jok[seat];
	if (st->phase == DP_EXCHANGE) {
		known |= st->gift[seat];
		jokers += st->gjok[seat];
	}
	for (p = 0; p < st->np; p++) {
		known |= st->played[p] | keep[p];
		jokers += st->pjok[p] + kj[p];
		if (p == seat)
			continue;
		need[p] = size[p] - popcount64(keep[p]) - kj[p];
		if (st->phase == DP_EXCHANGE && st->partner[p] >= 0 &&
		    !(st->pending & (1u << p)))
			need[p] += st->ngive[p];
		st->hand[p] = keep[p];
		st->jok[p] = (uint8_t)kj[p];
	}
	for (n = 0, b = 0; b < DF_NNAT; b++)
		if (!(known & (1ULL << b)))
			pool[n++] = b;
	for (k = 0; k < st->jokers - jokers; k++)
		pool[n++] = DF_NNAT + k;
	for (k = 0, p = 0; p < st->np; p++)
		if (p != seat) {
			if (need[p] < 0)
				return vr_fail(v, "view: player %d holds "
				    "fewer cards than known", p);
			k += need[p];
		}
	if (k != n || jokers > st->jokers)
		return vr_fail(v, "view: %d unseen cards for %d places", n, k);
	return n;
}

/*
 * Deals partner q its share of the shuffled pool (*n cards) when it gave
 * its strongest: it holds nothing stronger than the weakest of them but
 * what the seat gave it.  The rest of the pool is shuffled again; -1 if
 * too few cards are allowed.
 */
static int
partner_deal(struct vread *v, int q, struct df_state *st, int *pool,
    int *n, int *need, struct rng *r)
{
	int na, i, k, b, thr;

	for (thr = 12, b = 0; b < DF_NNAT; b++)
		if ((st->gift[q] & (1ULL << b)) && STRENGTH(b) < thr)
			thr = STRENGTH(b);
	for (na = 0, i = 0; i < *n; i++)
		if (pool[i] >= DF_NNAT || STRENGTH(pool[i]) <= thr) {
			k = pool[na];
			pool[na++] = pool[i];
			pool[i] = k;
		}
	if (na < need[q])
		return vr_fail(v, "view: the partner cannot hold its %d cards",
		    need[q]);
	/* A uniform need[q] of the na allowed, then the rest. */
	deck_shuffle(pool, na, r);
	give(st, q, pool, need[q]);
	memmove(pool, pool + need[q], (size_t)(*n - need[q]) * sizeof *pool);
	*n -= need[q];
	deck_shuffle(pool, *n, r);
	need[q] = 0;
	return 0;
}

/*
 * Deals the cards seat does not see to the other hands, keeping what it
 * knows of them (size gives each hand's size); -1 if none can be dealt.
 */
static int
hands_deal(struct vread *v, int seat, struct df_state *st,
    const uint8_t *size, struct rng *r)
{
	int pool[DF_MAXDECK], cards[DF_MAXDECK], need[DF_MAXP];
	int n, p, q, i;

	if ((n = unseen(v, seat, st, size, need, pool)) == -1)
		return -1;
	deck_shuffle(pool, n, r);
	q = st->partner[seat];
	if (q >= 0 && st->phase != DP_EXCHANGE && st->exchanged &&
	    (st->cls[q] == DC_POOR || st->cls[q] == DC_VERY_POOR) &&
	    st->gift[q] != 0 && partner_deal(v, q, st, pool, &n, need,
	    r) == -1)
		return -1;
	for (i = 0, p = 0; p < st->np; p++) {
		if (p == seat || need[p] == 0)
			continue;
		memcpy(cards, pool + i, (size_t)need[p] * sizeof *cards);
		i += need[p];
		give(st, p, cards, need[p]);
	}
	return 0;
}

/* Reads seat's view of daifugo into st and completes it at random. */
int
df_determinize(void *vst, const struct opts *o, int seat,
    const json_t *view, struct rng *r, char *cause, size_t len)
{
	struct df_state *st = vst;
	struct vread v;
	const json_t *a, *j;
	uint8_t size[DF_MAXP];
	int p, i;

	vr_init(&v, cause, len);
	memset(st, 0, sizeof *st);
	a = vr_get(&v, view, "seating", JSON_ARRAY);
	st->np = (uint8_t)json_array_size(a);
	if (v.bad || st->np < 4 || st->np > DF_MAXP || seat < 0 ||
	    seat >= st->np)
		return vr_fail(&v, "view: %d players, seat %d", st->np, seat);
	st->jokers = (uint8_t)o->v[DO_JOKERS];
	st->unlimited = (uint8_t)o->v[DO_PASS_LIMIT];
	st->eight_cut = (uint8_t)o->v[DO_EIGHT_CUT];
	st->eleven_back = (uint8_t)o->v[DO_ELEVEN_BACK];
	st->deal = (uint8_t)(vr_int(&v, view, "deal", 1, DF_MAXDEALS) - 1);
	st->deals = (uint8_t)vr_int(&v, view, "deals", 1, DF_MAXDEALS);
	st->phase = (uint8_t)vr_word(&v, view, "phase", phase_names);
	seats_read(&v, a, st->np, st->seat);
	for (i = 0; i < st->np; i++)
		st->pos[st->seat[i]] = (uint8_t)i;
	if (classes_read(&v, view, st) == -1)
		return -1;
	if (!json_is_null(j = json_object_get(view, "previous"))) {
		st->has_prev = 1;
		if (seats_read(&v, j, st->np, st->prev) != st->np && !v.bad)
			return vr_fail(&v, "view: \"previous\" is short");
	}
	counts_read(&v, view, seat, st, size);
	trick_read(&v, view, st);
	exchange_read(&v, json_object_get(view, "exchange"), seat, st);
	if (v.bad)
		return -1;
	if (st->phase == DP_PLAY) {
		st->active = (uint8_t)((1u << st->np) - 1);
		for (p = 0; p < st->nout; p++)
			st->active &= (uint8_t)~(1u << st->out[p]);
	}
	return hands_deal(&v, seat, st, size, r);
}
