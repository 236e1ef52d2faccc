/*
 * The runner (runner.c): plays (or resumes) a tournament or one job of a
 * plan through the pool, journals its games and writes its reports.
 */
#ifndef CARDARENA_POOL_RUNNER_H
#define CARDARENA_POOL_RUNNER_H

#include <stddef.h>

#include <jansson.h>

struct tour;
struct schedule;

/*
 * One job of a plan (dist.c): games lo .. hi-1 of one table, whose bots
 * are the tournament's bots in seat order.
 */
struct jobspec {
	long		 index;
	long		 table;		/* in the whole tournament */
	long		 lo, hi;
	json_t		*header;	/* the job journal's header */
	const char	*journal;	/* its path */
	const char	*logbase;	/* "logs/t00003", from the output */
};

/*
 * What a caller that is not the schedule (the gauntlet) adds to a run:
 * its own tables, a stop rule, a progress line.
 */
struct jgame;
struct runner_hooks {
	const struct schedule *sched;	/* the tables; NULL: the file's */
	/* Adds the caller's keys to the journal header. */
	void	(*header)(void *, json_t *);
	/* Each game journalled or resumed: 1 when the aim is reached. */
	int	(*game)(void *, const struct jgame *);
	/* Appends to the progress line; returns the bytes written. */
	size_t	(*status)(void *, char *, size_t);
	void	*arg;
	int	 no_reports;	/* the caller writes the reports */
	const char *isolate;	/* what isolates the bots, for a warning */
};

struct runner_opts {
	int	 jobs;		/* 0: the file's */
	int	 quiet;
	int	 progress;	/* -1 auto (a terminal), 0 plain, 1 live */
	int	 replays;	/* render HTML replays (or the file's) */
	const char *argv0;
	const struct jobspec *job;	/* NULL: the whole tournament */
	const struct runner_hooks *hooks;	/* NULL: none */
};

/* Runs (or resumes) a tournament or one job; the exit status for main. */
int	 runner_run(struct tour *, const struct runner_opts *);
/*
 * Rates a journal and writes every report format into outdir (and the
 * table on stdout unless quiet); names the limits of tournament t (if
 * not NULL) that bots which timed out need; -1 if a report could not be
 * written.
 */
int	 runner_reports(const char *outdir, const char *journal,
	    const char *title, int quiet, const struct tour *t);

#endif
