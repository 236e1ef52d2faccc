/*
 * The determinization of stocks: a seat's view read back into a state.
 * Everything is public but the other hands and the stock's order, so the
 * cards nobody shows the seat (two decks less the price stacks, the
 * discards, the certificates and the seat's hand) are dealt to the other
 * hands and the stock, jokers where the view says, and perturb() shuffles
 * them uniformly among those places (it re-deals exactly what the seat
 * cannot see).
 */
#include <stdio.h>
#include <string.h>

#include "stocks.h"
#include "vread.h"

static const char *const phase_names[] = { "unused", "open", "closed", NULL };
static const char *const suit_keys[ST_NCOMP] = { "S", "H", "D", "C" };

/* Reads seat's view of stocks into st and completes it at random. */
int
stocks_determinize(void *vst, const struct opts *o, int seat,
    const json_t *view, struct rng *r, char *cause, size_t len)
{
	struct stocks *st = vst;
	struct vread v;
	const json_t *ph, *comps, *seats, *c, *s, *certs, *sh;
	int left[52], cards[ST_CARDS], n, p, i, k, q, jokers, need;
	int32_t money;

	vr_init(&v, cause, len);
	memset(st, 0, sizeof *st);
	st->players = (int8_t)vr_int(&v, view, "players", 2, ST_MAXP);
	if (seat < 0 || seat >= st->players)
		return vr_fail(&v, "seat %d is not at the table", seat);
	st->sell_same = (uint8_t)o->v[OPT_SELL_SAME];
	st->start = (int8_t)vr_int(&v, view, "start", 0, st->players - 1);
	st->turn = (int8_t)vr_int(&v, view, "turn", 0, st->players - 1);
	st->turns = (int32_t)vr_int(&v, view, "turns", 0, 100000);
	st->max_turns = (int32_t)vr_int(&v, view, "max_turns", 1, 100000);
	ph = vr_get(&v, view, "phase", JSON_OBJECT);
	st->trade = (uint8_t)vr_word(&v, ph, "trade", phase_names);
	st->price = (uint8_t)vr_word(&v, ph, "price", phase_names);
	st->buys = (uint8_t)vr_int(&v, ph, "buys", 0, ST_MAXBUYS);
	st->prices = (uint8_t)vr_int(&v, ph, "prices", 0, ST_MAXPRICES);
	st->discards = (uint8_t)vr_int(&v, ph, "discards", 0, ST_MAXDISCARD);
	st->nbought = (uint8_t)vr_cards8(&v, vr_get(&v, view, "bought",
	    JSON_ARRAY), st->bought, ST_MAXBUYS);
	st->bank = (int32_t)vr_int(&v, view, "bank", 0, INT32_MAX);
	st->over = (uint8_t)vr_bool(&v, view, "over");
	st->capped = (uint8_t)vr_bool(&v, view, "capped");
	st->joker_by = (int8_t)vr_nint(&v, view, "joker_drawn_by", 0,
	    st->players - 1, -1);
	st->ndiscard = (uint8_t)vr_cards8(&v, vr_get(&v, view, "discard",
	    JSON_ARRAY), st->discard, ST_CARDS);
	st->nstock = (uint8_t)vr_int(&v, view, "stock", 0, ST_CARDS);
	jokers = vr_bool(&v, view, "jokers_in_stock");
	st->jokers_out = st->joker_by >= 0;
	st->jokers_in = jokers || st->jokers_out;
	jokers = st->jokers_in ? 2 - st->jokers_out : 0;

	comps = vr_get(&v, view, "companies", JSON_ARRAY);
	for (k = 0; k < ST_NCOMP && !v.bad; k++) {
		c = json_array_get(comps, (size_t)k);
		st->value[k] = (int8_t)vr_int(&v, c, "price", 0, 20);
		st->zero[k] = (uint8_t)vr_bool(&v, c, "bankrupt");
		st->npile[k] = (uint8_t)vr_cards8(&v, vr_get(&v, c, "stack",
		    JSON_ARRAY), st->pile[k], ST_CARDS);
		if (!v.bad && st->npile[k] == 0)
			vr_fail(&v, "view: company %d has no price card", k);
	}
	seats = vr_get(&v, view, "seats", JSON_ARRAY);
	money = st->bank;
	for (p = 0; p < st->players && !v.bad; p++) {
		s = json_array_get(seats, (size_t)p);
		st->money[p] = (int32_t)vr_int(&v, s, "money", 0, INT32_MAX);
		st->debt[p] = (int32_t)vr_int(&v, s, "debt", 0, INT32_MAX);
		st->nhand[p] = (uint8_t)vr_int(&v, s, "hand", 0, ST_HAND);
		certs = vr_get(&v, s, "certificates", JSON_ARRAY);
		n = vr_cards(&v, certs, cards, ST_CARDS);
		for (i = 0; i < n; i++)
			if (cards[i] < 52)
				st->cert[p][cards[i]]++;
		sh = vr_get(&v, s, "shares", JSON_OBJECT);
		for (k = 0; k < ST_NCOMP; k++)
			st->shares[p][k] = (uint8_t)vr_int(&v, sh,
			    suit_keys[k], 0, ST_MAXSHARES);
		money += st->money[p];
	}
	st->total = money;
	n = vr_cards(&v, vr_get(&v, view, "hand", JSON_ARRAY), cards,
	    ST_HAND);
	if (v.bad)
		return -1;
	if (n != st->nhand[seat])
		return vr_fail(&v, "view: the hand holds %d cards, not %d", n,
		    st->nhand[seat]);

	/* The cards the seat sees; the rest are hidden. */
	for (k = 0; k < 52; k++)
		left[k] = 2;
	for (i = 0; i < n; i++)
		left[cards[i] % 52]--;
	for (i = 0; i < n; i++)
		st->hand[seat][i] = (uint8_t)cards[i];
	for (k = 0; k < ST_NCOMP; k++)
		for (i = 0; i < st->npile[k]; i++)
			left[st->pile[k][i] % 52]--;
	for (i = 0; i < st->ndiscard; i++)
		left[st->discard[i] % 52]--;
	for (p = 0; p < st->players; p++)
		for (k = 0; k < 52; k++)
			left[k] -= st->cert[p][k];
	for (need = 0, p = 0; p < st->players; p++)
		if (p != seat)
			need += st->nhand[p];
	need += st->nstock - jokers;
	for (n = 0, k = 0; k < 52; k++) {
		if (left[k] < 0)
			return vr_fail(&v, "view: card %d shows %d times", k,
			    2 - left[k]);
		for (i = 0; i < left[k]; i++)
			cards[n++] = k;
	}
	if (n != need || st->nstock < jokers)
		return vr_fail(&v, "view: %d hidden cards for %d places", n,
		    need);

	/* Any completion (hands sorted), then a uniform re-deal. */
	for (i = 0, p = 0; p < st->players; p++)
		if (p != seat)
			for (q = 0; q < st->nhand[p]; q++)
				st->hand[p][q] = (uint8_t)cards[i++];
	for (k = 0; k < st->nstock - jokers; k++)
		st->stock[k] = (uint8_t)cards[i++];
	for (q = 0; q < jokers; q++)
		st->stock[k++] = (uint8_t)(JOKER + 1 - q);
	game_stocks.perturb(st, seat, r);
	return 0;
}
