/*
 * The ladder's tables as jobs (ladder_jobs.c): `ladder run --spool` plays
 * through workers (Slurm, GNU parallel) instead of its own pool.
 */
#ifndef CARDARENA_LADDER_JOBS_H
#define CARDARENA_LADDER_JOBS_H

#include <stddef.h>

#include <jansson.h>

#include "pool/pool.h"

struct jgame;
struct lrun_opts;
struct lstore;

/* The jobs kept out by default, and a journal's default time to stand. */
#define LJOBS_WORKERS(o)	((o)->workers > 0 ? (o)->workers : 2)
#define LJOBS_TIMEOUT(o)	((o)->job_timeout > 0 ? (o)->job_timeout : 600)

/*
 * Commits a game read from a job journal: its run, journal game, the
 * loaded bots at its seats (-1: not loaded), their versions and its line
 * (log relative to the ladder's directory): 0, 1 to stop (the aim), -1
 * and a cause.
 */
typedef int (*ljobs_commit)(void *, const struct pool_run *,
    const struct jgame *, const int *, const long *, const json_t *,
    char *, size_t);
/*
 * Takes up as the source's own run *r a table a killed run left with jobs
 * out: its number, the loaded bots at its seats (-1: not loaded) and its
 * games not yet in; it is counted in play and its end told to the
 * source's end() as a run of the source's: 0, or -1 (then it ends
 * untold).
 */
typedef int (*ljobs_adopt)(void *, long, const int *, long,
    struct pool_run *);

/*
 * Plays the source's tables as jobs in the spool until the source has no
 * more and no job is out, asks to stop, or a signal stops it: the tables'
 * jobs are recorded in the store, written a batch at a time as a plan
 * (SPOOL/batch-NNNNNN.jsonl) and the submit command run for it; the
 * journals the workers write (SPOOL/out/bNNNNNN/) are read as they grow,
 * their games committed through commit; a job whose journal stands still
 * for the timeout is planned again for its games not yet in.  Jobs of a
 * killed run still out are taken up again, their tables through adopt.
 * t's first nv bots are the loaded versions.
 */
enum pool_end ljobs_play(struct lstore *, struct tour *t, int nv,
	    const struct lrun_opts *, struct pool_source *, ljobs_commit,
	    ljobs_adopt, char *, size_t);

#endif
