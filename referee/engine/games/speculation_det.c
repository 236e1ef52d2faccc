/*
 * The determinization of speculation: a seat's view read back into a
 * state.  Nobody sees a face-down card, the widow or the stock, so the
 * cards not face up nor discarded are dealt to those places in any order
 * and perturb() re-deals them uniformly (it shuffles exactly those).  The
 * rest of the state is public and read field by field; what the view does
 * not say is derived (the widow dealt, the players out) or, where no rule
 * reads it (the phase an auction of the face-up card came from), set.
 */
#include <stdio.h>
#include <string.h>

#include "speculation.h"
#include "vread.h"

static const char *const phase_names[] = {
	"trump", "turn", "found", "auction", "over", NULL
};
static const char *const end_names[] = { "ace", "no_cards", "cap", NULL };
static const char *const suit_names[] = { "S", "H", "D", "C", NULL };
static const char *const item_names[] = { "face_down", "face_up", NULL };

static uint64_t	positions(struct vread *, const json_t *, const char *);
static int	card_or_null(struct vread *, const json_t *, const char *);
static void	last_deal(struct vread *, const json_t *, struct sp *);
static void	auction(struct vread *, const json_t *, struct sp *);

/* The positions listed under key of o as a mask. */
static uint64_t
positions(struct vread *v, const json_t *o, const char *key)
{
	const json_t *a;
	uint64_t m = 0;
	size_t i;

	a = vr_get(v, o, key, JSON_ARRAY);
	for (i = 0; !v->bad && i < json_array_size(a); i++)
		m |= 1ULL << vr_at(v, a, i, 0, SP_FD_MAX - 1);
	return m;
}

/* The card named under key of o, or -1 for null. */
static int
card_or_null(struct vread *v, const json_t *o, const char *key)
{
	const json_t *j;
	int c;

	if (v->bad || json_is_null(j = json_object_get(o, key)))
		return -1;
	if ((c = card_from_json(j)) < 0 || c >= 52)
		vr_fail(v, "view: \"%s\" is not a card", key);
	return c;
}

/* Reads the previous deal's result (or null) into st. */
static void
last_deal(struct vread *v, const json_t *view, struct sp *st)
{
	const json_t *l;
	int w[3], i, n;

	st->last_winner = -1;
	st->last_end = SE_NONE;
	st->last_card = -1;
	if (v->bad || json_is_null(l = json_object_get(view, "last_deal")))
		return;
	if (!json_is_object(l)) {
		vr_fail(v, "view: \"last_deal\" is not an object");
		return;
	}
	st->last_deal = (int16_t)vr_int(v, l, "deal", 0, 10000);
	st->last_winner = (int8_t)vr_int(v, l, "winner", 0, st->n - 1);
	st->last_card = (int8_t)card_or_null(v, l, "card");
	st->last_amount = (int32_t)vr_int(v, l, "amount", 0, INT32_MAX);
	st->last_carried = (int8_t)vr_bool(v, l, "carried");
	st->last_end = (int8_t)vr_word(v, l, "end", end_names);
	n = vr_cards(v, vr_get(v, l, "widow", JSON_ARRAY), w, 3);
	for (i = 0; i < n; i++)
		st->last_widow[i] = (int8_t)w[i];
	st->last_nwidow = (int8_t)n;
}

/* Reads the running auction into st. */
static void
auction(struct vread *v, const json_t *a, struct sp *st)
{
	const json_t *in, *bids;
	size_t i;
	int p;

	st->auc.n = st->n;
	st->auc.seller = (int8_t)vr_int(v, a, "seller", 0, st->n - 1);
	st->auc_up = (int8_t)vr_word(v, a, "item", item_names);
	st->auc.min = (int32_t)vr_int(v, a, "min", 1, INT32_MAX);
	st->auc.high = (int32_t)vr_int(v, a, "high", 0, INT32_MAX);
	st->auc.high_bidder = (int8_t)vr_nint(v, a, "high_bidder", 0,
	    st->n - 1, -1);
	st->auc.turn = (int8_t)vr_int(v, a, "turn", 0, st->n - 1);
	in = vr_get(v, a, "in", JSON_ARRAY);
	for (i = 0; !v->bad && i < json_array_size(in); i++)
		st->auc.in |= 1u << vr_at(v, in, i, 0, st->n - 1);
	bids = vr_get(v, a, "bids", JSON_ARRAY);
	for (p = 0; p < st->n && !v->bad; p++)
		st->auc_bid[p] = (int32_t)vr_at(v, bids, (size_t)p, 0,
		    INT32_MAX);
	if (!st->auc_up)
		st->auc_lot = positions(v, a, "positions");
}

/* Reads seat's view of speculation into st and completes it at random. */
int
speculation_determinize(void *vst, const struct opts *o, int seat,
    const json_t *view, struct rng *r, char *cause, size_t len)
{
	struct sp *st = vst;
	struct vread v;
	const json_t *pl, *pj, *b, *bi, *au;
	int used[52], disc[52], p, i, k, n, c;

	vr_init(&v, cause, len);
	memset(st, 0, sizeof *st);
	pl = vr_get(&v, view, "players", JSON_ARRAY);
	st->n = (int8_t)json_array_size(pl);
	if (v.bad || st->n < 3 || st->n > MAX_PLAYERS || seat < 0 ||
	    seat >= st->n)
		return vr_fail(&v, "view: %d players, seat %d", st->n, seat);
	st->stack = (int32_t)o->v[SO_STACK];
	st->flags = (int8_t)((o->v[SO_PAY_5_JACK] ? SF_PAY_5_JACK : 0) |
	    (o->v[SO_WIDOW] ? SF_WIDOW : 0) |
	    (o->v[SO_ALL_CARDS_RANK] ? SF_ALL_CARDS : 0) |
	    (o->v[SO_STACKED] ? SF_STACKED : 0));
	st->deal = (int16_t)vr_int(&v, view, "deal", 0, 10000);
	st->deals = (int16_t)vr_int(&v, view, "deals", 1, 10000);
	st->dealer = (int8_t)vr_int(&v, view, "dealer", 0, st->n - 1);
	st->phase = (int8_t)vr_word(&v, view, "phase", phase_names);
	st->turn = (int8_t)vr_nint(&v, view, "turn", 0, st->n - 1, -1);
	st->trump = json_is_null(json_object_get(view, "trump")) ? -1 :
	    (int8_t)vr_word(&v, view, "trump", suit_names);
	st->high = (int8_t)card_or_null(&v, view, "high");
	st->holder = (int8_t)vr_nint(&v, view, "holder", 0, st->n - 1, -1);
	st->pool = (int32_t)vr_int(&v, view, "pool", 0, INT32_MAX);
	st->ante = (int32_t)vr_int(&v, view, "ante", 0, INT32_MAX);
	st->turns = (int16_t)vr_int(&v, view, "turns", 0, INT16_MAX);
	st->max_turns = (int32_t)vr_int(&v, view, "max_turns", 1, INT32_MAX);
	st->nwidow = (int8_t)vr_int(&v, view, "widow", 0, 3);
	st->widow_dealt = st->nwidow > 0;
	for (p = 0; p < st->n && !v.bad; p++) {
		pj = json_array_get(pl, (size_t)p);
		st->counters[p] = (int32_t)vr_int(&v, pj, "counters", 0,
		    INT32_MAX);
		st->nfd[p] = (int8_t)vr_int(&v, pj, "face_down", 0,
		    SP_FD_MAX);
		st->out[p] = (int16_t)vr_nint(&v, pj, "out", 1, 10000, 0);
		st->outs += st->out[p] != 0;
		b = vr_get(&v, pj, "bought", JSON_ARRAY);
		if (!v.bad && json_array_size(b) != (size_t)st->nfd[p])
			vr_fail(&v, "view: player %d's \"bought\" is not one "
			    "per face-down card", p);
		for (i = 0; i < st->nfd[p] && !v.bad; i++) {
			bi = json_array_get(b, (size_t)i);
			st->fd_from[p][i] = -1;
			if (json_is_null(bi))
				continue;
			st->fd_from[p][i] = (int8_t)vr_int(&v, bi, "from", 0,
			    st->n - 1);
			st->fd_price[p][i] = (int32_t)vr_int(&v, bi, "price",
			    0, INT32_MAX);
			st->fd_lot[p][i] = (int8_t)vr_int(&v, bi, "cards", 1,
			    SP_FD_MAX);
		}
	}
	st->ndisc = (int8_t)vr_cards(&v, vr_get(&v, view, "discards",
	    JSON_ARRAY), disc, 52);
	for (i = 0; i < st->ndisc; i++)
		st->disc[i] = (int8_t)disc[i];
	if (json_object_get(view, "offered") != NULL) {
		st->offered = positions(&v, view, "offered");
		st->lot = positions(&v, view, "lot");
	}
	au = json_object_get(view, "auction");
	if (st->phase == SP_AUCTION) {
		if (!json_is_object(au))
			return vr_fail(&v, "view: no \"auction\" object");
		auction(&v, au, st);
		st->auc_from = json_object_get(view, "offered") != NULL ?
		    SP_TURN : SP_NEWHIGH;
	} else
		st->auc.turn = -1;
	last_deal(&v, view, st);
	if (v.bad)
		return -1;

	/* The hidden cards: all but the face-up and the discarded. */
	memset(used, 0, sizeof used);
	for (i = 0; i < st->ndisc; i++)
		used[disc[i]]++;
	if (st->high >= 0)
		used[st->high]++;
	for (n = 0, c = 0; c < 52; c++) {
		if (used[c] > 1)
			return vr_fail(&v, "view: card %d shows twice", c);
		if (!used[c])
			disc[n++] = c;
	}
	for (k = 0, p = 0; p < st->n; p++)
		k += st->nfd[p];
	if (k + st->nwidow > n)
		return vr_fail(&v, "view: %d face-down cards, %d unseen",
		    k + st->nwidow, n);
	for (k = 0, p = 0; p < st->n; p++)
		for (i = 0; i < st->nfd[p]; i++)
			st->fd[p][i] = (int8_t)disc[k++];
	for (i = 0; i < st->nwidow; i++)
		st->widow[i] = (int8_t)disc[k++];
	for (st->nstock = 0; k < n; k++)
		st->stock[st->nstock++] = (int8_t)disc[k];
	game_speculation.perturb(st, seat, r);
	return 0;
}
