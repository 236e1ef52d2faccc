/*
 * Synthetic ladders (ladder_synth.c), for measuring the ladder's host on
 * a store of any size without playing: `tournament ladder synth`.
 */
#ifndef CARDARENA_LADDER_LADDER_SYNTH_H
#define CARDARENA_LADDER_LADDER_SYNTH_H

#include <stddef.h>
#include <stdint.h>

struct lstore;

/*
 * Fills the new ladder s (dir names it in messages) with nbots bots of
 * true strengths spread over 800 Elo and ngames games between random
 * tables of them, places drawn from the strengths (a Gumbel key per
 * seat), committed as the run commits them but in transactions of many
 * games; the same seed makes the same store.  With append, the games are
 * added to a synthetic ladder made before, between its bots (nbots is
 * theirs).  The bots' command is cmd (NULL: "true"; synth never runs
 * them, a run of the ladder does).  -1 and a cause (a ladder that has bots already, or none to
 * append to, fewer bots than seats, the store failing).
 */
int	 ladder_synth(struct lstore *s, const char *dir, long nbots,
	    long ngames, uint64_t seed, int append, const char *cmd, char *,
	    size_t);

#endif
