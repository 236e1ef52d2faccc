/*
 * The shared ascending auction; see auction.h.
 */
#include "auction.h"

static void	advance(struct auction *, int, const int32_t *);

/* Drops every player in (but the high bidder) who cannot afford the next
 * bid, so `in` is always the players who can still bid; then moves the
 * turn to the next of them at or clockwise after from; ends when none is
 * left. */
static void
advance(struct auction *a, int from, const int32_t *counters)
{
	int32_t need;
	int i, p;

	need = auction_next_min(a);
	for (p = 0; p < a->n; p++)
		if ((a->in & (1u << p)) && p != a->high_bidder &&
		    counters[p] < need)
			a->in &= ~(1u << p);
	for (i = 0; i < a->n; i++) {
		p = (from + i) % a->n;
		if ((a->in & (1u << p)) && p != a->high_bidder) {
			a->turn = (int8_t)p;
			return;
		}
	}
	a->turn = -1;
}

void
auction_start(struct auction *a, int n, int seller, int first, int32_t min,
    uint32_t eligible, const int32_t *counters)
{
	a->n = (int8_t)n;
	a->seller = (int8_t)seller;
	a->high_bidder = -1;
	a->min = min < 1 ? 1 : min;
	a->high = 0;
	a->in = eligible & (n >= 32 ? ~0u : (1u << n) - 1);
	if (seller >= 0)
		a->in &= ~(1u << seller);
	advance(a, first % n, counters);
}

int
auction_over(const struct auction *a)
{
	return a->turn < 0;
}

int32_t
auction_next_min(const struct auction *a)
{
	return a->high >= a->min ? a->high + 1 : a->min;
}

int
auction_act(struct auction *a, int player, int32_t amount,
    const int32_t *counters)
{
	if (a->turn < 0 || player != a->turn)
		return -1;
	if (amount == 0)
		a->in &= ~(1u << player);
	else {
		if (amount < auction_next_min(a) || amount > counters[player])
			return -1;
		a->high = amount;
		a->high_bidder = (int8_t)player;
	}
	advance(a, (player + 1) % a->n, counters);
	return 0;
}
