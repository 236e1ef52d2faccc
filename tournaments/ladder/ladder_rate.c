/*
 * The ladder's ratings and its journal.  The store's games are added to a
 * rate.c pool exactly as `tournament rate` adds the lines of the ladder's
 * export (in commit order, every seat's player named as it first appears,
 * each duplicate deal a bootstrap block keyed as the first journal's), so
 * that the ladder's table, written by report.c, and `tournament rate` on
 * `ladder export` are the same bytes; a running ladder adds only the games
 * committed since its last fit and starts each fit from the last one
 * (warm), which moves the ratings by less than the fit's tolerance, its
 * bootstrap spaced by its cost (lrate_refit).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/tfile.h"
#include "ladder/ladder_rate.h"
#include "ladder/ladder_store.h"
#include "rating/load.h"
#include "rating/rate.h"
#include "rating/report.h"

static int	 add_game(void *, long, const struct jgame *, char *, size_t);
static int	 export_game(void *, long, const struct jgame *, char *,
		    size_t);

/* The rating options of a ladder; see ladder_rate.h. */
void
lrate_opts(struct lstore *s, struct rate_opts *o)
{
	char *v;

	memset(o, 0, sizeof *o);
	o->boot = 200;
	o->prior = 2;
	o->mean = 1500;
	o->seed = 1;
	if ((v = lstore_meta(s, "boot")) != NULL)
		o->boot = (int)strtol(v, NULL, 10);
	free(v);
}

/* Starts a rating of the store's games; see ladder_rate.h. */
void
lrate_init(struct lstore *s, struct lrating *lr, int warm)
{
	struct rate_opts o;

	memset(lr, 0, sizeof *lr);
	lrate_opts(s, &o);
	rate_init(&lr->r, &o);
	lr->r.warm = warm;
}

/* Adds one game as load.c adds a journal line (journal index 0). */
static int
add_game(void *arg, long id, const struct jgame *g, char *cause, size_t len)
{
	struct lrating *lr = arg;
	int pl[MAX_PLAYERS], s;

	for (s = 0; s < g->k; s++)
		pl[s] = rate_player(&lr->r, g->bots[s]);
	rate_add(&lr->r, rate_blockkey(0, g->table, g->deal), g->k, pl,
	    g->places, (const long (*)[NTFAULT])g->faults);
	lr->last_id = id;
	if (g->table > lr->max_table)
		lr->max_table = g->table;
	return 0;
}

/* Adds the games committed since the last update; see ladder_rate.h. */
int
lrate_update(struct lstore *s, struct lrating *lr, char *cause, size_t len)
{
	return lstore_games(s, lr->last_id, add_game, lr, cause, len);
}

/* Seconds on the monotonic clock. */
static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A running ladder's refit; see ladder_rate.h. */
int
lrate_refit(struct lrating *lr, char *cause, size_t len)
{
	double t0 = mono_now();
	int rc;

	lr->r.point_only = lr->booted && lr->r.opts.boot > 0 &&
	    t0 < lr->boot_at + LRATE_BOOT_SPACING * lr->boot_cost;
	rc = rate_fit(&lr->r, cause, len);
	if (rc == 0 && !lr->r.point_only) {
		lr->booted = 1;
		lr->boot_at = mono_now();
		lr->boot_cost = lr->boot_at - t0;
	}
	lr->r.point_only = 0;
	return rc;
}

/* Frees a rating. */
void
lrate_free(struct lrating *lr)
{
	rate_free(&lr->r);
}

/*
 * The store's last RECENT_MAX games, in commit order as `tournament rate`
 * keeps them from the export: linked as rate links them for the export
 * saved in the ladder's directory (pg NULL), or from pg->pre, without the
 * log of a table in play when pg->live.
 */
static void
recent_games(struct lstore *s, const struct lpage *pg, struct recent *rc)
{
	sqlite3_stmt *q;
	struct logbase lb;
	struct jgame g;
	json_t *line[RECENT_MAX];
	int open[RECENT_MAX], n = 0, i;
	char cause[256], *link, *path;

	if ((q = lstore_prep(s, "SELECT g.line, t.ended IS NULL AND "
	    "t.abandoned = 0 FROM games g JOIN tables t ON t.id = g.tab "
	    "ORDER BY g.id DESC LIMIT ?", cause, sizeof cause)) == NULL)
		return;
	sqlite3_bind_int(q, 1, RECENT_MAX);
	while (n < RECENT_MAX && sqlite3_step(q) == SQLITE_ROW) {
		line[n] = json_loads((const char *)sqlite3_column_text(q, 0),
		    0, NULL);
		open[n] = sqlite3_column_int(q, 1);
		if (line[n] != NULL)
			n++;
	}
	sqlite3_finalize(q);
	logbase_init(&lb, s->dir, NULL);
	for (i = n - 1; i >= 0; i--) {
		if (jgame_parse(line[i], &g, cause, sizeof cause) == 0) {
			if (pg == NULL || g.log == NULL)
				logbase_recent(&lb, rc, &g);
			else if (pg->live && open[i]) {
				recent_add(rc, &g, NULL, NULL);
				rc->g[(rc->head + RECENT_MAX - 1) %
				    RECENT_MAX].why = "in play";
			} else {
				if (asprintf(&link, "%s%s", pg->pre, g.log) ==
				    -1 || asprintf(&path, "%s/%s", s->dir,
				    g.log) == -1)
					abort();
				recent_add(rc, &g, link, path);
				free(link);
				free(path);
			}
		}
		json_decref(line[i]);
	}
	logbase_free(&lb);
}

/* Writes the table; see ladder_rate.h. */
int
lrate_report(struct lstore *s, const struct lrating *lr, FILE *fp,
    enum report_fmt f, char *cause, size_t len)
{
	return lrate_page(s, lr, fp, f, NULL, cause, len);
}

/* Writes the table or the site's page of it; see ladder_rate.h. */
int
lrate_page(struct lstore *s, const struct lrating *lr, FILE *fp,
    enum report_fmt f, const struct lpage *pg, char *cause, size_t len)
{
	struct report rp;
	struct recent *rc;
	char *name;
	int rc_;

	memset(&rp, 0, sizeof rp);
	name = lstore_meta(s, "name");
	rp.r = &lr->r;
	rp.title = name != NULL ? name : "ladder";
	rp.nav = pg != NULL ? pg->nav : NULL;
	rp.nogrid = pg != NULL && pg->nogrid;
	rc = xcalloc(1, sizeof *rc);
	if (f == FMT_HTML)
		recent_games(s, pg, rc);
	rp.recent = rc;
	rc_ = report_write(fp, &rp, f, cause, len);
	recent_free(rc);
	free(rc);
	free(name);
	return rc_;
}

/* Saves the fit in the store; see ladder_rate.h. */
int
lrate_save(struct lstore *s, const struct lrating *lr, char *cause,
    size_t len)
{
	struct lversion *v;
	sqlite3_stmt *st;
	char sql[128];
	long fit;
	int n, i, p, rc = 0;

	if (lstore_versions(s, &v, &n, cause, len) == -1)
		return -1;
	snprintf(sql, sizeof sql, "INSERT INTO fits (at, games) VALUES "
	    "(strftime('%%s','now'), %ld)", lr->r.games);
	if (lstore_exec(s, "BEGIN IMMEDIATE", cause, len) == -1) {
		lversions_free(v, n);
		return -1;
	}
	if (lstore_exec(s, sql, cause, len) == -1 ||
	    (st = lstore_prep(s, "INSERT INTO ratings VALUES (?, ?, ?, ?, "
	    "?)", cause, len)) == NULL) {
		lstore_exec(s, "ROLLBACK", cause, len);
		lversions_free(v, n);
		return -1;
	}
	fit = lstore_scalar(s, "SELECT max(id) FROM fits");
	for (i = 0; i < n && rc == 0; i++) {
		if ((p = rate_find(&lr->r, v[i].player)) < 0)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, fit);
		sqlite3_bind_int64(st, 2, v[i].id);
		sqlite3_bind_double(st, 3, lr->r.p[p].elo);
		if (isnan(lr->r.p[p].pm))
			sqlite3_bind_null(st, 4);
		else
			sqlite3_bind_double(st, 4, lr->r.p[p].pm);
		sqlite3_bind_int64(st, 5, lr->r.p[p].games);
		if (sqlite3_step(st) != SQLITE_DONE) {
			snprintf(cause, len, "ratings: %s",
			    sqlite3_errmsg(s->db));
			rc = -1;
		}
	}
	sqlite3_finalize(st);
	lversions_free(v, n);
	if (rc == 0)
		return lstore_exec(s, "COMMIT", cause, len);
	lstore_exec(s, "ROLLBACK", cause, len);
	return -1;
}

/* The journal header; see ladder_rate.h. */
json_t *
ladder_header(struct lstore *s)
{
	struct tour t;
	json_t *h;
	char cause[512];

	if (ladder_tour(s, NULL, 0, &t, cause, sizeof cause) == -1) {
		tour_free(&t);
		return NULL;
	}
	/* no seed: the ladder's master seed deals every future game */
	h = json_pack("{s:i,s:s,s:s,s:O,s:i,s:b,s:I,s:s,s:I,s:I,s:I}",
	    "journal", 1, "name", t.name, "game", t.game, "options", t.options,
	    "seats", t.seats, "duplicate", t.duplicate, "deals",
	    (json_int_t)t.deals, "schedule", "ladder", "tables",
	    (json_int_t)lstore_scalar(s, "SELECT coalesce(max(tab), 0) + 1 "
	    "FROM games"), "games_per_table",
	    (json_int_t)tour_games_per_table(&t), "max_decisions",
	    (json_int_t)t.max_decisions);
	tour_free(&t);
	return h;
}

/* Writes one stored line. */
static int
export_game(void *arg, long id, const struct jgame *g, char *cause,
    size_t len)
{
	char *text;
	int rc;

	if ((text = json_dumps(g->line, JSON_COMPACT)) == NULL) {
		snprintf(cause, len, "game %ld: cannot encode it", id);
		return -1;
	}
	rc = fprintf(arg, "%s\n", text);
	free(text);
	if (rc < 0) {
		snprintf(cause, len, "write error");
		return -1;
	}
	return 0;
}

/* Writes the ladder's journal; see ladder_rate.h. */
int
ladder_export(struct lstore *s, FILE *fp, char *cause, size_t len)
{
	json_t *h;
	char *text;

	if ((h = ladder_header(s)) == NULL ||
	    (text = json_dumps(h, JSON_COMPACT)) == NULL) {
		json_decref(h);
		snprintf(cause, len, "%s: cannot read its settings", s->path);
		return -1;
	}
	json_decref(h);
	fprintf(fp, "%s\n", text);
	free(text);
	if (lstore_games(s, 0, export_game, fp, cause, len) == -1)
		return -1;
	if (fflush(fp) == EOF || ferror(fp)) {
		snprintf(cause, len, "write error");
		return -1;
	}
	return 0;
}
