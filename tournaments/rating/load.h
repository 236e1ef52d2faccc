/*
 * Journals rated (load.c): read into a rating pool with their recent
 * games, their logs linked from where a report is written; the one
 * rating-and-reports step of tournament rate and of a run's results.
 */
#ifndef CARDARENA_RATING_LOAD_H
#define CARDARENA_RATING_LOAD_H

#include <jansson.h>

#include "rating/rate.h"
#include "rating/report.h"


struct jgame;

/* Where a journal's logs are, for a report written elsewhere. */
struct logbase {
	char	*dir;		/* the journal's directory */
	char	*absdir;	/* its absolute path, or NULL */
	int	 samedir;	/* the report is written there too */
};

/* The logs of a journal in dir, for a report in linkdir (NULL: "."). */
void	 logbase_init(struct logbase *, const char *dir, const char *linkdir);
void	 logbase_free(struct logbase *);
/* Keeps a game among the recent ones, its log linked as rate_load does. */
void	 logbase_recent(const struct logbase *, struct recent *,
	    const struct jgame *);

/*
 * Reads journals into a new rating pool (each game once per journal) and
 * a new ring of recent games, their log links made for a report written
 * in the directory linkdir.  -1 and a cause.
 */
int	 rate_load(struct rating *, const struct rate_opts *,
	    char *const *paths, int npaths, struct recent **,
	    const char *linkdir, char *, size_t);
/* Journals rated, ready for their reports. */
struct rated {
	struct rating	 r;
	struct recent	*rc;
	struct report	 rp;	/* its rating and recent games, a title */
};

/*
 * Rates journals (rate_load, rate_fit) for reports titled title, their
 * log links made for linkdir: 0, or 1 when they hold no game, or -1, with
 * a cause; after 0, rated_close frees it.  The one rating-and-reports
 * step of tournament rate and of a run's results files.
 */
int	 rated_open(struct rated *, const struct rate_opts *,
	    char *const *paths, int npaths, const char *linkdir,
	    const char *title, char *, size_t);
void	 rated_close(struct rated *);
/*
 * The name a bot of a journal whose header is h is rated under: the
 * original's when the header's "copies" names it a copy (a gauntlet's
 * copies of one pool bot are one program, one entry), else its own.
 */
const char *rated_name(const json_t *h, const char *name);

#endif
