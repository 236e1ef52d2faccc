/*
 * The ladder's ratings and its journal (ladder_rate.c): the store's games
 * rated as `tournament rate` rates the ladder's export, the fits saved in
 * the store, the table written as report.c writes it (or as the site's
 * page), and the export itself.  Functions return -1 and write a cause.
 */
#ifndef CARDARENA_LADDER_RATE_H
#define CARDARENA_LADDER_RATE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "rating/rate.h"
#include "rating/report.h"

struct lstore;

struct lrating {
	struct rating	 r;
	long		 last_id;	/* the last game added */
	long		 max_table;	/* the highest table seen */
	/* lrate_refit's spacing of the bootstrap: when the last one ended
	 * (monotonic seconds) and what it cost */
	double		 boot_at, boot_cost;
	int		 booted;
};

/* What the site's page of the table adds. */
struct lpage {
	const char	*nav;	/* links atop the page */
	const char	*pre;	/* logs linked as PRE + "logs/..." */
	int		 live;	/* a run plays: no log of a table in play */
	int		 nogrid;	/* text: no head-to-head grid */
};

/* The rating options of a ladder (its meta boot, prior and seed). */
void	 lrate_opts(struct lstore *, struct rate_opts *);
/*
 * Starts a rating of the store's games; warm: each fit starts from the
 * last one's result (else every fit is the one tournament rate makes).
 */
void	 lrate_init(struct lstore *, struct lrating *, int warm);
/*
 * Adds every game committed after the last one added, as tournament
 * rate adds the export's lines; -1 and a cause.
 */
int	 lrate_update(struct lstore *, struct lrating *, char *, size_t);
/*
 * A running ladder's refit (warm, as lrate_init's warm): the point
 * ratings every time, the bootstrap's intervals again only when as long
 * as LRATE_BOOT_SPACING times the last bootstrap's cost has passed since
 * it ended (so that it takes about a tenth of the host at most; until
 * then the intervals are the last bootstrap's); -1 and a cause.
 */
#define LRATE_BOOT_SPACING	10.0
int	 lrate_refit(struct lrating *, char *, size_t);
void	 lrate_free(struct lrating *);
/*
 * Saves a fit in the store (a fits row, a ratings row per version): the
 * ratings over time; -1 and a cause.
 */
int	 lrate_save(struct lstore *, const struct lrating *, char *, size_t);
/*
 * Writes the rating's table as FORMAT to fp, the bytes `tournament rate`
 * writes to stdout of the export saved in the ladder's directory (the
 * html's recent games linking their logs as it does); -1 and a cause.
 */
int	 lrate_report(struct lstore *, const struct lrating *, FILE *,
	    enum report_fmt, char *, size_t);
/* The table as lrate_report writes it, or as the site's page (pg). */
int	 lrate_page(struct lstore *, const struct lrating *, FILE *,
	    enum report_fmt, const struct lpage *, char *, size_t);
/*
 * Writes the ladder's journal (a header, then every game in commit
 * order) to fp; -1 and a cause.
 */
int	 ladder_export(struct lstore *, FILE *, char *, size_t);
/* The journal header of a ladder: a new reference. */
json_t	*ladder_header(struct lstore *);

#endif
