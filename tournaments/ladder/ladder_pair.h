/*
 * The ladder's pairing (ladder_pair.c): who sits at the next table.  It
 * knows nothing of the store: the run (and tests/sim_ladder.c, which
 * measures it against random tables) hands it the candidates.
 */
#ifndef CARDARENA_LADDER_PAIR_H
#define CARDARENA_LADDER_PAIR_H

struct rng;

/* A bot that may be seated, as the pairing sees it. */
struct lcand {
	int	 idx;		/* the caller's index */
	double	 elo, pm;	/* pm NaN: not rated yet */
	long	 games;
	long	 since;		/* tables since it last played */
	int	 fresh;		/* a new version */
	int	 inflight;
};

/*
 * Chooses k of the n candidates for one table (k <= n): the one a game
 * tells most about first (new, few games, wide interval, long unplayed),
 * then opponents near its rating and uncertain themselves; writes their
 * positions in cands into out, in seat order.  -1 if n < k.
 */
int	 pair_choose(const struct lcand *, int n, int k, struct rng *,
	    int *out);

#endif
