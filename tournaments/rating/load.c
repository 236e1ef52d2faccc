/*
 * Loading results journals into a rating pool: every game line of every
 * journal, streamed (memory bounded by the players, not the games), each
 * game counted once per journal, its duplicate block keyed by (journal,
 * table, deal) for the bootstrap; the last games are kept for the HTML
 * report, linked relative to it when it is written beside the journal,
 * else by absolute path.  Journals rated together must be of one game
 * with one set of options, each given once, and no game may be in two of
 * them (journals of one tournament, by the seed and schedule of their
 * headers, may hold different games of it).  A bot its journal's header
 * names a copy of another (a gauntlet's "copies") is rated as that one.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/journal.h"
#include "base/tfile.h"
#include "rating/load.h"

/* The journals of one tournament (one seed and schedule) read so far. */
struct tgroup {
	json_t		*id;		/* game, options, seed, schedule */
	const char	*first;		/* the first journal of it */
	struct doneset	 done;		/* their games */
};

/* What is checked across the journals. */
struct across {
	json_t		*game;		/* the first header's game, options */
	json_t		*options;
	const char	*first;		/* and its journal */
	struct tgroup	*g;
	int		 ng;
};

struct loader {
	struct across	*ax;
	struct tgroup	*grp;		/* this journal's tournament */
	struct rating	*r;
	struct recent	*rc;
	const char	*path;
	struct logbase	 lb;		/* where its logs are */
	int		 index;		/* of the journal */
	struct doneset	 done;
	int		 have_done;
	json_t		*header;	/* this journal's */
};

static int	 same_journal(char *const *, int, char *, size_t);
static int	 check_across(struct loader *, const json_t *, char *,
		    size_t);
static int	 load_header(void *, const json_t *, char *, size_t);
static int	 load_game(void *, const struct jgame *, char *, size_t);
static void	 load_warn(void *, long, const char *);

/* Refuses a journal given twice (the same file, by any path). */
static int
same_journal(char *const *paths, int n, char *cause, size_t len)
{
	struct stat *sb;
	int i, k, rc = 0;

	sb = xcalloc((size_t)n, sizeof *sb);
	for (i = 0; i < n && rc == 0; i++) {
		if (stat(paths[i], &sb[i]) == -1) {
			snprintf(cause, len, "%s: %s", paths[i],
			    strerror(errno));
			rc = -1;
		}
		for (k = 0; k < i && rc == 0; k++)
			if (sb[k].st_dev == sb[i].st_dev &&
			    sb[k].st_ino == sb[i].st_ino) {
				snprintf(cause, len, "%s is given twice%s%s%s: "
				    "its games would count twice", paths[i],
				    strcmp(paths[k], paths[i]) != 0 ?
				    " (as " : "", strcmp(paths[k], paths[i]) !=
				    0 ? paths[k] : "", strcmp(paths[k],
				    paths[i]) != 0 ? ")" : "");
				rc = -1;
			}
	}
	free(sb);
	return rc;
}

/*
 * Checks a journal's header against the first journal's (the same game
 * and options) and finds the tournament it belongs to.
 */
static int
check_across(struct loader *l, const json_t *h, char *cause, size_t len)
{
	struct across *ax = l->ax;
	json_t *game, *opts, *id, *v;
	const char *key, *differ;
	int i;

	game = json_object_get(h, "game");
	opts = json_object_get(h, "options");
	if (ax->first == NULL) {
		ax->game = json_incref(game);
		ax->options = json_incref(opts);
		ax->first = l->path;
	} else if (!json_equal(game, ax->game)) {
		snprintf(cause, len, "a journal of %s, but %s is of %s: rate "
		    "one game at a time", json_is_string(game) ?
		    json_string_value(game) : "?", ax->first,
		    json_is_string(ax->game) ? json_string_value(ax->game) :
		    "?");
		return -1;
	} else if (!json_equal(opts, ax->options)) {
		differ = "?";
		json_object_foreach(opts, key, v)
			if (!json_equal(v, json_object_get(ax->options, key))) {
				differ = key;
				break;
			}
		json_object_foreach(ax->options, key, v)
			if (strcmp(differ, "?") == 0 &&
			    json_object_get(opts, key) == NULL) {
				differ = key;
				break;
			}
		snprintf(cause, len, "its options differ from those of %s "
		    "(option %s): rate games of one set of options together",
		    ax->first, differ);
		return -1;
	}
	id = json_pack("{s:O?,s:O?,s:O?,s:O?}", "game", game, "options",
	    opts, "seed", json_object_get(h, "seed"), "schedule",
	    json_object_get(h, "schedule"));
	for (i = 0; i < ax->ng; i++)
		if (json_equal(ax->g[i].id, id))
			break;
	if (i == ax->ng) {
		ax->g = xreallocarray(ax->g, (size_t)ax->ng + 1,
		    sizeof *ax->g);
		memset(&ax->g[i], 0, sizeof ax->g[i]);
		ax->g[i].id = json_incref(id);
		ax->g[i].first = l->path;
		ax->ng++;
	}
	json_decref(id);
	l->grp = &ax->g[i];
	return 0;
}

/* Takes the journal's shape from its header, to count each game once. */
static int
load_header(void *arg, const json_t *h, char *cause, size_t len)
{
	struct loader *l = arg;
	json_t *t, *g;

	if (check_across(l, h, cause, len) == -1)
		return -1;
	json_decref(l->header);
	l->header = json_incref((json_t *)h);

	t = json_object_get(h, "tables");
	g = json_object_get(h, "games_per_table");
	if (json_is_integer(t) && json_is_integer(g) &&
	    json_integer_value(t) > 0 && json_integer_value(t) <= MAX_TABLES &&
	    json_integer_value(g) > 0 && json_integer_value(g) <= INT32_MAX) {
		doneset_init(&l->done, (long)json_integer_value(t),
		    (long)json_integer_value(g));
		l->have_done = 1;
		if (l->grp->done.next == NULL)
			doneset_init(&l->grp->done, (long)json_integer_value(t),
			    (long)json_integer_value(g));
	}
	return 0;
}

/* Adds one game to the pool (once). */
static int
load_game(void *arg, const struct jgame *g, char *cause, size_t len)
{
	struct loader *l = arg;
	int pl[MAX_PLAYERS], s;

	if (l->have_done) {
		switch (doneset_add(&l->done, g->table, g->game)) {
		case 1:
			warnx("%s: table %ld game %ld is there twice; counted "
			    "once", l->path, g->table, g->game);
			return 0;
		case -1:
			warnx("%s: table %ld game %ld is outside its header's "
			    "schedule; counted", l->path, g->table, g->game);
			break;
		default:
			if (doneset_add(&l->grp->done, g->table, g->game) ==
			    1) {
				snprintf(cause, len, "table %ld game %ld is "
				    "also in %s: the same games given twice "
				    "would count twice", g->table, g->game,
				    l->grp->first);
				return -1;
			}
		}
	}
	for (s = 0; s < g->k; s++)
		pl[s] = rate_player(l->r, rated_name(l->header, g->bots[s]));
	rate_add(l->r, rate_blockkey((uint64_t)l->index, g->table, g->deal),
	    g->k, pl, g->places, (const long (*)[NTFAULT])g->faults);
	if (l->rc != NULL)
		logbase_recent(&l->lb, l->rc, g);
	return 0;
}

/* The name a bot is rated under; see tournament.h. */
const char *
rated_name(const json_t *h, const char *name)
{
	const char *s;

	s = json_string_value(json_object_get(json_object_get(h, "copies"),
	    name));
	return s != NULL ? s : name;
}

/* Where the logs of a journal in dir are for a report in linkdir. */
void
logbase_init(struct logbase *lb, const char *dir, const char *linkdir)
{
	char *there;

	lb->dir = xstrdup(dir);
	lb->absdir = realpath(dir, NULL);
	there = realpath(linkdir != NULL ? linkdir : ".", NULL);
	lb->samedir = lb->absdir != NULL && there != NULL &&
	    strcmp(lb->absdir, there) == 0;
	free(there);
}

void
logbase_free(struct logbase *lb)
{
	free(lb->dir);
	free(lb->absdir);
	memset(lb, 0, sizeof *lb);
}

/*
 * Keeps g among the recent games, its log linked from the report's place:
 * as given when absolute or when the report is beside the journal, else
 * by the journal directory's absolute path.
 */
void
logbase_recent(const struct logbase *lb, struct recent *rc,
    const struct jgame *g)
{
	char *path, *link;

	if (g->log == NULL) {
		recent_add(rc, g, NULL, NULL);
		return;
	}
	if (g->log[0] == '/')
		path = xstrdup(g->log);
	else if (asprintf(&path, "%s/%s", lb->dir, g->log) == -1)
		err(1, "asprintf");
	if (g->log[0] == '/' || lb->samedir)
		link = xstrdup(g->log);
	else if (asprintf(&link, "%s/%s", lb->absdir != NULL ? lb->absdir :
	    lb->dir, g->log) == -1)
		err(1, "asprintf");
	recent_add(rc, g, link, path);
	free(path);
	free(link);
}

/* Reports a damaged line that is skipped. */
static void
load_warn(void *arg, long lineno, const char *cause)
{
	struct loader *l = arg;

	warnx("%s:%ld: damaged line skipped (%s)", l->path, lineno, cause);
}

/* Rates journals for their reports; see tournament.h. */
int
rated_open(struct rated *rd, const struct rate_opts *o, char *const *paths,
    int npaths, const char *linkdir, const char *title, char *cause,
    size_t len)
{
	int rc = 0;

	memset(rd, 0, sizeof *rd);
	if (rate_load(&rd->r, o, paths, npaths, &rd->rc, linkdir, cause,
	    len) == -1)
		return -1;
	if (rd->r.n == 0) {
		snprintf(cause, len, "no games to rate");
		rc = 1;
	} else if (rate_fit(&rd->r, cause, len) == -1)
		rc = -1;
	if (rc != 0) {
		rate_free(&rd->r);
		recent_free(rd->rc);
		free(rd->rc);
		return rc;
	}
	rd->rp.r = &rd->r;
	rd->rp.title = title;
	rd->rp.recent = rd->rc;
	return 0;
}

/* Frees what rated_open made. */
void
rated_close(struct rated *rd)
{
	rate_free(&rd->r);
	recent_free(rd->rc);
	free(rd->rc);
}

/* Reads journals into a new pool; see tournament.h. */
int
rate_load(struct rating *r, const struct rate_opts *o, char *const *paths,
    int npaths, struct recent **rcp, const char *linkdir, char *cause,
    size_t len)
{
	struct loader l;
	struct across ax;
	struct jreader jr;
	char *copy;
	int i, rc;

	rate_init(r, o);
	*rcp = xcalloc(1, sizeof **rcp);
	memset(&ax, 0, sizeof ax);
	rc = same_journal(paths, npaths, cause, len);
	for (i = 0; i < npaths && rc == 0; i++) {
		memset(&l, 0, sizeof l);
		l.ax = &ax;
		l.r = r;
		l.rc = *rcp;
		l.path = paths[i];
		l.index = i;
		copy = xstrdup(paths[i]);
		logbase_init(&l.lb, dirname(copy), linkdir);
		free(copy);
		memset(&jr, 0, sizeof jr);
		jr.header = load_header;
		jr.game = load_game;
		jr.warn = load_warn;
		jr.arg = &l;
		rc = journal_read(paths[i], &jr, cause, len);
		if (rc == 0 && jr.torn)
			warnx("%s: a torn last line was left out", paths[i]);
		if (l.have_done)
			doneset_free(&l.done);
		json_decref(l.header);
		logbase_free(&l.lb);
	}
	for (i = 0; i < ax.ng; i++) {
		json_decref(ax.g[i].id);
		if (ax.g[i].done.next != NULL)
			doneset_free(&ax.g[i].done);
	}
	free(ax.g);
	json_decref(ax.game);
	json_decref(ax.options);
	return rc;
}
