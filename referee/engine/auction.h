/*
 * The ascending auction shared by speculation (selling cards) and the
 * horserace Calcutta variant (selling horses), as speculation.md states it:
 * the seller (or nobody) names a minimum; starting at a given seat and going
 * clockwise, each player still in either bids (at least the minimum, more
 * than the high bid, at most their counters) or drops out for good.  A player
 * who cannot afford the next bid is skipped and counts as dropped out.  The
 * auction ends when every player but the high bidder has dropped out.
 *
 * The struct is flat and lives inside a game's state.  The game supplies the
 * counters of every player; it owns what is sold and the payment.
 */
#ifndef CARDARENA_AUCTION_H
#define CARDARENA_AUCTION_H

#include <stdint.h>

struct auction {
	int8_t		n;		/* players at the table */
	int8_t		seller;		/* -1: nobody sells (Calcutta) */
	int8_t		turn;		/* who decides now; -1 when over */
	int8_t		high_bidder;	/* -1: no bid yet */
	int32_t		min;		/* the minimum price */
	int32_t		high;		/* the high bid; 0 before any */
	uint32_t	in;		/* players still in */
};

/*
 * Starts an auction among the players of mask eligible (the seller is never
 * in it), the first decision at or clockwise after seat first.
 */
void	auction_start(struct auction *, int n, int seller, int first,
	    int32_t min, uint32_t eligible, const int32_t *counters);
/* 1 when the auction has ended (turn is -1). */
int	auction_over(const struct auction *);
/* The lowest bid now allowed. */
int32_t	auction_next_min(const struct auction *);
/* Applies a bid (amount > 0) or a drop (amount 0) by the player on turn;
 * -1 if it is not their turn or the bid is out of range. */
int	auction_act(struct auction *, int player, int32_t amount,
	    const int32_t *counters);

#endif
