/*
 * The pace of a referee run, for the runners that size their runs by it
 * (tournament run's chunks, the ladder's tables): how long a game takes,
 * apart from the bots' start-ups.  With duplicate every seat rotation of
 * a run is a lifetime of its own (new processes), so the time between
 * two games of one lifetime is a game's; a run of one game a lifetime
 * only tells its games with their start-ups.
 */
#ifndef CARDARENA_PACE_H
#define CARDARENA_PACE_H

#include "game.h"

struct pace {
	double	 t0;			/* the run's start */
	double	 tfirst, tlast;		/* its first and last result */
	double	 life_t[MAX_PLAYERS];	/* each lifetime's last result */
	double	 gaps;			/* between games of one lifetime */
	long	 ngaps;
	long	 games;
};

/* Starts timing a run now. */
void	 pace_start(struct pace *);
/*
 * Notes that game (its index in the match) ended now; lives is the
 * number of lifetimes that take turns (the seats with duplicate, else 1).
 */
void	 pace_game(struct pace *, long game, int lives);
/*
 * Seconds a game took: between games of one lifetime if there were two,
 * else between the first and last result, else since the start (which
 * then counts the start-ups); 0 for a run with no game.
 */
double	 pace_game_s(const struct pace *);
/*
 * Learns a deal's seconds from a run that played a game (a deal being
 * per_deal games): *deal_s, 0 before any, moves halfway to it.
 */
void	 pace_learn(double *deal_s, const struct pace *, double per_deal);

#endif
