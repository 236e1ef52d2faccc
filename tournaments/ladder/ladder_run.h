/*
 * tournament ladder run (ladder_run.c): the ladder played as a table
 * source of the pool, table after table until stopped, and the HTML
 * replays of its ended tables, rendered off the play path.
 */
#ifndef CARDARENA_LADDER_RUN_H
#define CARDARENA_LADDER_RUN_H

#include <stddef.h>

/* play a table when auto: long enough that its bots' start-ups (a
 * sandbox each, some 0.1-0.2 s of CPU here) cost a few percent, short
 * enough that the pairing follows the ratings and a new version soon
 * plays (a run's chunks are shorter: CHUNK_SECONDS) */
#define LTABLE_SECONDS	20.0

struct lstore;

struct lrun_opts {
	int	 jobs;
	long	 max_games;	/* stop after so many games; 0: never */
	int	 refit_every;	/* games between refits */
	const char *inbox;	/* looked into at every refit, or NULL */
	int	 quiet;
	/* tables as jobs (ladder_jobs.c): written into spool, or NULL */
	const char *spool;
	const char *submit;	/* run for each batch (sh -c), or NULL */
	int	 workers;	/* jobs kept out; 0: 2 */
	long	 job_timeout;	/* seconds a journal may stand still; 0: 600 */
};

/*
 * Renders the HTML replay (LOG.html, bin/replay --html) of a table no
 * longer in play whose log holds a game (ended, stopped by a signal or
 * abandoned) when it has none as new as its log, whole or not at all: 1
 * rendered, 0 nothing to render (or it failed, said), -1 and a cause.
 * The run renders them in the background, after play.
 */
int	 ladder_replay(struct lstore *, long table, char *, size_t);
/*
 * Renders every replay missing (the one owner of that list, with the
 * run's background queue: `ladder site`, and the count a run's end
 * says), and notes in the store's meta "replays_upto" the table before
 * the first one in play: the number rendered, or -1 and a cause.
 */
long	 ladder_replays(struct lstore *, char *, size_t);
/* Plays the ladder until stopped; the exit status for main. */
int	 ladder_run(struct lstore *, const struct lrun_opts *);

#endif
