/*
 * The pool: the one runner of bin/tournament.  It alone turns a referee
 * run (a chunk of one table's games) into a bin/referee command line,
 * starts and reaps the referees (at most `jobs` at once), reads their
 * --results lines through the one decoder (results.h), and hands each
 * finished game to a table source.  `tournament run` and `job` (the
 * schedule, a plan's slice), the gauntlet (its pairings, stopped by the
 * SPRT) and the ladder (pairing by information, never stopped) are table
 * sources over it; what differs between them is which run comes next and
 * when to stop.
 *
 * A run's bots live for the whole run: a referee plays the run's games
 * with --first-game at the chunk's first game, so without --duplicate its
 * bots are started once for the chunk, and with it once per seat rotation
 * of the chunk (no process meets a deal twice); a chunk resumed after a
 * stop replays its games already journalled, unreported, so that bots
 * which keep state across games meet the same history.  A source may end
 * a run on time (POOL_ENOUGH): its referee gets SIGUSR1, finishes the
 * game in play and ends as if its list ended there.  Signals (SIGINT,
 * SIGTERM, SIGHUP) stop the pool: the first tells the referees to stop
 * (their unfinished game is lost, their finished ones were handed over),
 * a second kills them at once.
 */
#ifndef CARDARENA_POOL_H
#define CARDARENA_POOL_H

#include <sys/types.h>

#include "base/tfile.h"
#include "results.h"

/* One referee run, as a source describes it. */
struct pool_run {
	long		 table;		/* the source's number, for messages */
	int		 bots[MAX_PLAYERS];	/* tournament bot by -b index */
	uint64_t	 seed;		/* the table's seed (kept secret) */
	long		 games;		/* the table's games (--games) */
	long		 first;		/* the run's first game: its bots'
					 * lives begin there (--first-game) */
	long		*list;		/* the games to play, increasing */
	long		 nlist;
	char		*log;		/* the log, relative to the output
					 * directory, or NULL */
	void		*ctx;		/* the source's */
};

#define POOL_ENOUGH	2	/* source's game(): end this run on time */

/* How a pool ended. */
enum pool_end {
	POOL_DONE,	/* the source had no more runs */
	POOL_AIM,	/* the source asked to stop (a decided SPRT) */
	POOL_SIGNAL,	/* stopped by a signal */
	POOL_FULL	/* nothing more could be written (see cause) */
};

struct pool_source {
	/*
	 * Fills the next run to start (list and log malloc'ed, freed by the
	 * pool): 1, or 0 when none can start until a run ends, or -1 when
	 * no run will ever start again.
	 */
	int	(*next)(void *, struct pool_run *);
	/*
	 * A game of run r finished: 0 to go on, 1 to stop the pool (the aim
	 * is reached), -1 to stop because nothing more can be written (a
	 * cause said in cause), POOL_ENOUGH to end run r on time: its
	 * referee finishes the game (with duplicate the deal) in play and
	 * ends as if its list ended there, the rest left unplayed.
	 */
	int	(*game)(void *, const struct pool_run *, const struct resline *,
		    char *, size_t);
	/*
	 * Run r ended: left games not reported; failed 1 if its referee
	 * failed (said), 0 if it was fine, ended on time or stopped by us.
	 */
	void	(*end)(void *, const struct pool_run *, long left, int failed);
	/* Called at least every tick: progress, group commits.  May be NULL. */
	void	(*tick)(void *);
	/* Seconds until tick is due (a group commit), or < 0; may be NULL. */
	double	(*due)(void *);
	void	*arg;
};

struct pool_opts {
	int		 jobs;		/* referees at once */
	int		 quiet;
	int		 tty;		/* status lines redrawn in place */
	const char	*what;		/* "table" or "unit", for messages */
};

/*
 * Plays the source's runs of tournament t (its game, options, limits,
 * times, sandbox, logs, hidden paths, bots) until it has no more, asks
 * to stop, or a signal stops it; cause says why it stopped when full.
 */
enum pool_end pool_play(struct tour *, const struct pool_opts *,
	    struct pool_source *, char *, size_t);
/*
 * Checks that bot i of t can be executed (its command's program found,
 * relative to its "dir" if it has one); -1 and a cause.
 */
int	 pool_bot_check(const struct tour *, int, char *, size_t);
/* The number of runs that failed (a referee that failed) so far. */
long	 pool_failures(void);
/* Monotonic seconds. */
double	 pool_now(void);

#endif
