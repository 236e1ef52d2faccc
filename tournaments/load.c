/*
 * Loading results journals into a rating pool: every game line of every
 * journal, streamed (memory bounded by the players, not the games), each
 * game counted once per journal, its duplicate block keyed by (journal,
 * table, deal) for the bootstrap; the last games are kept for the HTML
 * report, linked relative to it when it is written beside the journal,
 * else by absolute path.
 */
#include <err.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tournament.h"

struct loader {
	struct rating	*r;
	struct recent	*rc;
	const char	*path;
	char		*dir;		/* the journal's directory */
	int		 samedir;	/* the report is written there too */
	char		*absdir;	/* its absolute path, or NULL */
	int		 index;		/* of the journal */
	struct doneset	 done;
	int		 have_done;
};

static int	 load_header(void *, const json_t *, char *, size_t);
static int	 load_game(void *, const struct jgame *, char *, size_t);
static void	 load_warn(void *, long, const char *);

/* Takes the journal's shape from its header, to count each game once. */
static int
load_header(void *arg, const json_t *h, char *cause, size_t len)
{
	struct loader *l = arg;
	json_t *t, *g;

	t = json_object_get(h, "tables");
	g = json_object_get(h, "games_per_table");
	if (json_is_integer(t) && json_is_integer(g) &&
	    json_integer_value(t) > 0 && json_integer_value(t) <= MAX_TABLES &&
	    json_integer_value(g) > 0 && json_integer_value(g) <= INT32_MAX) {
		doneset_init(&l->done, (long)json_integer_value(t),
		    (long)json_integer_value(g));
		l->have_done = 1;
	}
	return 0;
}

/* Adds one game to the pool (once). */
static int
load_game(void *arg, const struct jgame *g, char *cause, size_t len)
{
	struct loader *l = arg;
	int pl[MAX_PLAYERS], s;
	char *path = NULL, *link = NULL;

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
		}
	}
	for (s = 0; s < g->k; s++)
		pl[s] = rate_player(l->r, g->bots[s]);
	rate_add(l->r, rate_blockkey((uint64_t)l->index, g->table, g->deal),
	    g->k, pl, g->places, (const long (*)[NTFAULT])g->faults);
	if (l->rc != NULL && g->log != NULL) {
		if (g->log[0] == '/')
			path = xstrdup(g->log);
		else if (asprintf(&path, "%s/%s", l->dir, g->log) == -1)
			err(1, "asprintf");
		if (g->log[0] == '/' || l->samedir)
			link = xstrdup(g->log);
		else if (asprintf(&link, "%s/%s", l->absdir != NULL ?
		    l->absdir : l->dir, g->log) == -1)
			err(1, "asprintf");
		recent_add(l->rc, g, link, path);
		free(path);
		free(link);
	} else if (l->rc != NULL)
		recent_add(l->rc, g, NULL, NULL);
	return 0;
}

/* Reports a damaged line that is skipped. */
static void
load_warn(void *arg, long lineno, const char *cause)
{
	struct loader *l = arg;

	warnx("%s:%ld: damaged line skipped (%s)", l->path, lineno, cause);
}

/* Reads journals into a new pool; see tournament.h. */
int
rate_load(struct rating *r, const struct rate_opts *o, char *const *paths,
    int npaths, struct recent **rcp, const char *linkdir, char *cause,
    size_t len)
{
	struct loader l;
	struct jreader jr;
	char *copy, *there;
	int i, rc = 0;

	rate_init(r, o);
	*rcp = xcalloc(1, sizeof **rcp);
	for (i = 0; i < npaths && rc == 0; i++) {
		memset(&l, 0, sizeof l);
		l.r = r;
		l.rc = *rcp;
		l.path = paths[i];
		l.index = i;
		copy = xstrdup(paths[i]);
		l.dir = xstrdup(dirname(copy));
		free(copy);
		l.absdir = realpath(l.dir, NULL);
		there = realpath(linkdir != NULL ? linkdir : ".", NULL);
		l.samedir = l.absdir != NULL && there != NULL &&
		    strcmp(l.absdir, there) == 0;
		free(there);
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
		free(l.dir);
		free(l.absdir);
	}
	return rc;
}
