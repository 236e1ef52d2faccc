/*
 * The job line (jobline.c): one job of work as one JSON line, the one
 * format of `tournament plan`/`job`/`merge` (dist.c) and of the ladder's
 * spool (ladder_jobs.c): {"job", "jobs", "chunk", "file", "table",
 * "games": [lo, hi], "tournament": one table, "header", "build"?,
 * "fingerprint"}.  Its maker, its fingerprint, its check, and the build
 * a line may carry (a hash of the referee a runner would use).
 */
#ifndef CARDARENA_POOL_JOBLINE_H
#define CARDARENA_POOL_JOBLINE_H

#include <stddef.h>

#include <jansson.h>

/*
 * A new job line: job idx of njobs (chunks of chunk games), games lo..hi-1
 * of table, the table's tournament tb and the journal header (both
 * borrowed), the build (NULL: none) and the fingerprint of it all.
 */
json_t	*jobline_make(long idx, long njobs, long chunk, const char *file,
	    long table, long lo, long hi, const json_t *tb,
	    const json_t *header, const char *build);
/* The fingerprint of a job line without its "fingerprint" key: new text. */
char	*jobline_fingerprint(const json_t *);
/* Checks a job line's shape and fingerprint; -1 and a cause. */
int	 jobline_check(const json_t *, char *, size_t);
/*
 * Checks a line's "build" (if it has one) against this program's for the
 * referee ref (NULL: the usual one); -1 and a cause naming both.
 */
int	 jobline_check_build(const json_t *, const char *ref, char *, size_t);
/*
 * The build of this program's referee ref (NULL: the usual one, as the
 * runner finds it): a 64-bit hash of its executable, as 16 hex digits,
 * computed once per process (static text), or "unknown".
 */
const char *jobline_build(const char *ref);
/* The job line (a new one) a job journal's header was made from. */
json_t	*jobline_of_header(const json_t *plan, const json_t *header);

#endif
