/*
 * The match runner: spawns the bots of one match, runs its games through
 * the rules engine and the bot protocol (protocol.md) in one poll(2) loop,
 * handles every bot fault by the fault policy, writes the match log and
 * the per-game results lines, and always ends with a result unless the
 * referee itself fails or is stopped.  It never exits the process: errors
 * come back as -1 and a cause, with every bot process group killed and
 * reaped.  bin/referee is a thin command line around match_run(), and
 * bin/botcheck (tools/botcheck) calls it directly; the tournament runner
 * never does: it runs bin/referee.
 */
#ifndef CARDARENA_MATCH_H
#define CARDARENA_MATCH_H

#include "config.h"

/*
 * Ranks the bots of a result: by scores summed over the games, equal sums
 * parted by summed places (place_sum), then shared.
 */
void	 match_places(struct match_result *);
/* Fills the defaults every field but game, opts, nbots and commands. */
/*
 * Runs the match.  0 when it completed (whatever the bots did); -1 and a
 * cause when it could not start or the referee failed or was stopped
 * (result->aborted then holds the signal).
 */
int	 match_run(const struct match_config *, struct match_result *, char *,
	    size_t);
/* Returns 1 if a write error e means the disk (or the file size) is full. */
int	 match_disk_full(int);

/*
 * The result of a game stopped by --max-decisions: a draw, every seat
 * first with a score of 0.
 */
void	 match_adjudicate(int, int *, double *);

#endif
