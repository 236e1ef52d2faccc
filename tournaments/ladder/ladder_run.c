/*
 * tournament ladder run: the ladder as a table source of the pool (pool.h),
 * which alone starts the referees.  Each table is a chunk of the ladder's
 * duplicate deals (table_deals: sized by the pace of the tables so far, so
 * start-ups are paid once a table), its bots chosen by ladder_pair.c from
 * the last fit, recorded in the store before it starts; each finished game
 * is committed in its own transaction, keyed (table, game), so a kill -9
 * loses no committed game and doubles none (tables a killed run left open
 * are marked abandoned when the ladder starts again: their missing games are
 * never played, their played ones count).  Every refit_every games (spaced
 * by time too: refit_due) the new games are added to the rating, which is
 * refitted warm (from the last fit), saved in the store (ratings over time)
 * and published as the site; the inbox is looked into, and when the active
 * bots changed (an add, update or retire by another process), no new table
 * starts: the pool ends when its tables have, and the next one plays with
 * the new bots.  At the end (a signal, --games) the rating is made once more
 * from scratch, as tournament rate makes it, so the site at rest shows
 * exactly the table of `ladder status`.  The replays of ended tables are
 * rendered off the play path, one at a time in the background at a lower
 * priority (what a run leaves undone, the next run, `ladder site` or `ladder
 * serve` renders: ladder_replay).
 */
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/paths.h"
#include "base/tfile.h"
#include "ladder/ladder_entry.h"
#include "ladder/ladder_jobs.h"
#include "ladder/ladder_pair.h"
#include "ladder/ladder_rate.h"
#include "ladder/ladder_run.h"
#include "ladder/ladder_site.h"
#include "ladder/ladder_store.h"
#include "pool/pace.h"
#include "pool/pool.h"
#include "proc.h"
#include "rating/rate.h"
#include "rng.h"

#define REFIT_MIN_S	1.0	/* seconds between refits, at least */
#define REFIT_SPACING	10.0	/* times the last refit's cost, at least */
#define LQUARANTINE	4	/* failed tables in a row */
/* games a table at most (a killed run abandons a table's unplayed games) */
#define LTABLE_MAX_GAMES 10000

/*
 * The tables whose logs get a replay (SQL, t the table): no longer in
 * play (ended, or abandoned by a killed run) with a game whose log is in
 * the ladder's logs (the table's own, or a job's copied there by
 * ladder_jobs.c; not one a worker's spool holds).  The one rule for the
 * run, `ladder site` and `ladder serve`; a table's logs are its games'
 * (LOGS_OF, ?1 the table).
 */
#define REPLAYABLE "t.ended IS NOT NULL AND EXISTS (SELECT 1 FROM games " \
	"g WHERE g.tab = t.id AND g.log LIKE 'logs/%')"
#define LOGS_OF "SELECT DISTINCT log FROM games WHERE tab = ?1 AND log " \
	"LIKE 'logs/%' ORDER BY log"

/* What a run knows of a version's tables (across its pool rounds). */
struct health {
	long	 id;		/* versions.id */
	int	 fails;		/* its last tables that failed, in a row */
	long	 after;		/* backed off: not seated before table */
	long	 okmark;	/* tables that ended well at its first fail */
};

/* A table in play: its pace, its games not yet played. */
struct ltable {
	struct pace	 pace;
	long		 left;
	int		 adopted;	/* a killed run's: no pace to learn */
};

/* A replay rendered in the background. */
struct lrender {
	pid_t	 pid;		/* bin/replay --html, or 0 */
	long	 table;
	char	*log, *html;
	char	*tmp;		/* written, then renamed to html */
};

struct lrunner {
	struct lstore		*s;
	const struct lrun_opts	*o;
	struct tour		 t;		/* its bots: v's */
	struct lversion		*v;
	int			 nv;
	struct lrating		 lr;		/* warm */
	struct rng		 rng;
	uint64_t		 seed;		/* the master seed */
	long			 gpd;		/* games a deal */
	double			 deal_s;	/* seconds a deal took, or 0 */
	long			 started;	/* tables started */
	long			 fresh;		/* games this run */
	long			 handed;	/* games of tables in play, unplayed */
	int			 jobs;		/* the pool's slots */
	int			 inplay;	/* tables in play */
	long			 unfitted;	/* games since a fit */
	double			 fit_at;	/* when the last refit ended */
	double			 fit_cost;	/* the seconds it took */
	int			 redraw;	/* a replay made since */
	long			 print;		/* of active versions */
	int			 stop;		/* start no table */
	int			 broken;	/* the store failed */
	int			 aim;		/* --games reached */
	char			*replay;	/* bin/replay */
	struct lrender		 cur;		/* the render under way */
	long			*queue;		/* tables to render */
	long			 nq, qhead;
	int			 qfrom;		/* the head's next log */
	struct health		*h;
	int			 nh;
	long			 ok;		/* tables that ended well */
	long			 row;		/* tables failed in a row */
};

static volatile sig_atomic_t	 got_signal;

static void	 on_signal(int);
static long	 fingerprint(struct lstore *);
static int	 next_run(void *, struct pool_run *);
static int	 game_done(void *, const struct pool_run *,
		    const struct resline *, char *, size_t);
static int	 commit(void *, const struct pool_run *, const struct jgame *,
		    const int *, const long *, const json_t *, char *, size_t);
static void	 run_end(void *, const struct pool_run *, long, int);
static int	 adopt(void *, long, const int *, long, struct pool_run *);
static int	 refit(struct lrunner *, char *, size_t);
static void	 publish(struct lrunner *, double);
static long	 table_deals(const struct lrunner *);
static int	 load_bots(struct lrunner *, char *, size_t);
static void	 unload_bots(struct lrunner *);
static int	 finish(struct lstore *, int, char *, size_t);
static struct health *health(struct lrunner *, long);
static int	 preflight(struct lrunner *);
static void	 quarantine(struct lrunner *, struct lversion *, const char *);
static void	 judge(struct lrunner *, const struct pool_run *, long, int);
static void	 seatable(struct lrunner *, int *);
static void	 warn_once(struct tour *);
static int	 replay_start(struct lstore *, const char *, long, int *,
		    int, struct lrender *, char *, size_t);
static int	 stale(const char *, const char *);
static void	 replay_end(struct lrender *, int);
static void	 replay_free(struct lrender *);
static void	 stale_renders(const char *);
static long	 pending(struct lstore *, long **, char *, size_t);
static void	 renders(struct lrunner *, int);
static void	 tick(void *);
static double	 refit_due(const struct lrunner *);
static double	 due(void *);

/* Notes a signal while no pool runs. */
static void
on_signal(int sig)
{
	got_signal = sig;
}

/* A number that changes when the active versions do. */
static long
fingerprint(struct lstore *s)
{
	return lstore_scalar(s, "SELECT coalesce(sum(id), 0) * 4096 + "
	    "count(*) FROM versions WHERE retired IS NULL");
}

/* The active versions as the tournament's bots. */
static int
load_bots(struct lrunner *rn, char *cause, size_t len)
{
	struct lversion *all;
	int n, i;

	rn->print = fingerprint(rn->s);
	if (lstore_versions(rn->s, &all, &n, cause, len) == -1)
		return -1;
	rn->v = xcalloc((size_t)n + 1, sizeof *rn->v);
	rn->nv = 0;
	for (i = 0; i < n; i++) {
		if (!all[i].active || all[i].quarantine != NULL)
			continue;
		rn->v[rn->nv] = all[i];
		rn->v[rn->nv].fails = health(rn, all[i].id)->fails;
		rn->v[rn->nv++].after = health(rn, all[i].id)->after;
		memset(&all[i], 0, sizeof all[i]);
	}
	lversions_free(all, n);
	if (ladder_tour(rn->s, rn->v, rn->nv, &rn->t, cause, len) == -1) {
		tour_free(&rn->t);
		return -1;
	}
	/* a bot that cannot start is kept from play before any table */
	if (preflight(rn) > 0) {
		unload_bots(rn);
		return load_bots(rn, cause, len);
	}
	rn->gpd = rn->t.duplicate ? rn->t.seats : 1;
	/* the store and the bots' copies are the file's "hide"; the inbox
	 * holds the copies of entrants yet to come */
	if (rn->o->inbox != NULL)
		tour_hide(&rn->t, rn->o->inbox);
	return 0;
}

/* The run's record of version id (made when it has none). */
static struct health *
health(struct lrunner *rn, long id)
{
	int i;

	for (i = 0; i < rn->nh; i++)
		if (rn->h[i].id == id)
			return &rn->h[i];
	rn->h = xreallocarray(rn->h, (size_t)rn->nh + 1, sizeof *rn->h);
	memset(&rn->h[rn->nh], 0, sizeof *rn->h);
	rn->h[rn->nh].id = id;
	return &rn->h[rn->nh++];
}

/*
 * Quarantines every loaded bot that cannot be started (its program not
 * found, its directory gone); the number quarantined.
 */
static int
preflight(struct lrunner *rn)
{
	char cause[512], why[640];
	int i, n = 0;

	for (i = 0; i < rn->nv; i++)
		if (pool_bot_check(&rn->t, i, cause, sizeof cause) == -1) {
			snprintf(why, sizeof why, "it cannot be started: %s",
			    cause);
			quarantine(rn, &rn->v[i], why);
			n++;
		}
	return n;
}

/* Keeps v from play from now on, with its cause: in the store, once said. */
static void
quarantine(struct lrunner *rn, struct lversion *v, const char *why)
{
	char cause[512];

	if (v->quarantine != NULL)
		return;
	v->quarantine = xstrdup(why);
	if (lstore_quarantine(rn->s, v->id, why, cause, sizeof cause) == -1)
		warnx("%s", cause);
	warnx("%s is quarantined: %s (a new version, ladder update, plays "
	    "again)", v->player, why);
}

/*
 * Marks in ok the bots the next table may seat: those not quarantined
 * nor backed off whose tables did not fail last, and one of those whose
 * did (a failure at a table of bots that played well is then its own);
 * when that is not a table's worth, the suspects and the backed off that
 * waited longest.
 */
static void
seatable(struct lrunner *rn, int *ok)
{
	const struct lversion *v = rn->v;
	long key, best;
	int i, n = 0, one = 0, pick;

	for (i = 0; i < rn->nv; i++) {
		if (v[i].quarantine != NULL || v[i].after > rn->started)
			continue;
		if (v[i].fails == 0 || !one) {
			one |= v[i].fails > 0;
			ok[i] = 1;
			n++;
		}
	}
	while (n < rn->t.seats) {
		best = LONG_MAX;
		pick = -1;
		for (i = 0; i < rn->nv; i++) {
			if (ok[i] || v[i].quarantine != NULL)
				continue;
			key = v[i].after > rn->started ? v[i].after : 0;
			if (key < best) {
				best = key;
				pick = i;
			}
		}
		if (pick == -1)
			return;
		ok[pick] = 1;
		n++;
	}
}

/*
 * Takes a table's end into its bots' records: one that ended well clears
 * them; a failure is charged to its bots already failing, or to all when
 * none was.  A bot charged is backed off (1, 2, 4 ... tables) and, after
 * LQUARANTINE in a row while other tables ended well, quarantined.  Many
 * failed tables in a row, whoever sat at them, are no bot's: the run
 * stops.  A seat whose bot is not loaded (-1: a table a killed run left,
 * its bot retired or quarantined since) is nobody's to judge.
 */
static void
judge(struct lrunner *rn, const struct pool_run *r, long left, int failed)
{
	struct lversion *v;
	struct health *h;
	char why[512];
	int i, suspects = 0;

	if (!failed) {
		if (left == 0) {
			rn->ok++;
			rn->row = 0;
			for (i = 0; i < rn->t.seats; i++)
				if (r->bots[i] >= 0)
					rn->v[r->bots[i]].fails = 0;
		}
	} else {
		rn->row++;
		for (i = 0; i < rn->t.seats; i++)
			suspects += r->bots[i] >= 0 &&
			    rn->v[r->bots[i]].fails > 0;
		for (i = 0; i < rn->t.seats; i++) {
			if (r->bots[i] < 0)
				continue;
			v = &rn->v[r->bots[i]];
			if (suspects > 0 && v->fails == 0)
				continue;
			if (v->fails++ == 0)
				health(rn, v->id)->okmark = rn->ok;
			v->after = rn->started + (1L << (v->fails < 11 ?
			    v->fails - 1 : 10));
			if (v->fails >= LQUARANTINE && rn->ok >
			    health(rn, v->id)->okmark) {
				snprintf(why, sizeof why, "its last %d tables "
				    "failed (the last: logs/%s.referee."
				    "stderr)", v->fails, r->log != NULL ?
				    r->log : "");
				quarantine(rn, v, why);
			}
		}
		if (rn->row >= 2 * LQUARANTINE && !rn->broken) {
			warnx("the last %ld tables failed, whichever bots sat "
			    "at them: not a bot's fault; stopping (see "
			    "logs/%s.referee.stderr)", rn->row, r->log != NULL ?
			    r->log : "");
			rn->stop = rn->broken = 1;
		}
	}
	for (i = 0; i < rn->t.seats; i++) {
		if (r->bots[i] < 0)
			continue;
		v = &rn->v[r->bots[i]];
		h = health(rn, v->id);
		h->fails = v->fails;
		h->after = v->after;
	}
}

/* Frees the bots of a pool's round. */
static void
unload_bots(struct lrunner *rn)
{
	tour_free(&rn->t);
	lversions_free(rn->v, rn->nv);
	rn->v = NULL;
	rn->nv = 0;
}

/*
 * The deals of the next table: the settings' deals_per_run, or ("auto")
 * as many as take about LTABLE_SECONDS of play at the pace of the tables
 * so far (pace.h: start-ups apart, paid once a table and seat rotation;
 * two deals until a table has been timed), at least the settings' deals;
 * with --games, no more than an even share among the slots of the games
 * not yet handed to a table (so that the slots end together), and 0 when
 * none are left.  With --games and as many bots in play as seats, every
 * table would seat the same bots: each idle slot takes its share at once,
 * its bots started once and no pace to time (as tournament run does when it
 * has no more tables than slots); its games are committed and refitted
 * as they come all the same.  Never more than LTABLE_MAX_GAMES games: a
 * run killed mid-table abandons the rest of its table.  (It was also the
 * bound of the referee's --game-list as one argument, before the pool wrote
 * the list as ranges.)
 */
static long
table_deals(const struct lrunner *rn)
{
	long n = rn->t.deals, want, share, slots = rn->jobs > 0 ? rn->jobs : 1;

	if (rn->t.deals_per_run > 0)
		n = rn->t.deals_per_run;
	else if (rn->deal_s <= 0 && rn->o->max_games > 0 &&
	    rn->nv == rn->t.seats) {
		n = 1000000;		/* the share of the idle slots */
		slots = slots > rn->inplay ? slots - rn->inplay : 1;
	} else if (rn->deal_s <= 0)
		n = n > 2 ? n : 2;	/* a lifetime of two games to time */
	else if (LTABLE_SECONDS / rn->deal_s > (double)n)
		n = LTABLE_SECONDS / rn->deal_s < 1e6 ?
		    (long)(LTABLE_SECONDS / rn->deal_s) : 1000000;
	if (n * rn->gpd > LTABLE_MAX_GAMES)
		n = LTABLE_MAX_GAMES / rn->gpd > 0 ? LTABLE_MAX_GAMES / rn->gpd :
		    1;
	if (rn->o->max_games > 0) {
		want = rn->o->max_games - rn->fresh - rn->handed;
		if (want <= 0)
			return 0;
		share = (want + slots * rn->gpd - 1) / (slots * rn->gpd);
		if (n > share)
			n = share > 1 ? share : 1;
	}
	return n;
}

/* The pool's next: the bots a game tells most about; see pool.h. */
static int
next_run(void *arg, struct pool_run *r)
{
	struct lrunner *rn = arg;
	struct ltable *lt;
	struct lcand *c;
	char cause[512], *log;
	long vers[MAX_PLAYERS], id, g, ng;
	int i, n, k = rn->t.seats, pick[MAX_PLAYERS], p, *ok;

	if (rn->stop || rn->nv < k)
		return -1;
	/* --games all handed out: a table that fails hands some back */
	if ((ng = table_deals(rn) * rn->gpd) == 0)
		return 0;
	c = xcalloc((size_t)rn->nv, sizeof *c);
	ok = xcalloc((size_t)rn->nv, sizeof *ok);
	seatable(rn, ok);
	for (i = n = 0; i < rn->nv; i++) {
		if (!ok[i])
			continue;
		c[n].idx = i;
		c[n].pm = NAN;
		p = rn->lr.r.fitted ? rate_find(&rn->lr.r, rn->v[i].player) :
		    -1;
		if (p >= 0) {
			c[n].elo = rn->lr.r.p[p].elo;
			c[n].pm = rn->lr.r.p[p].pm;
			c[n].games = rn->lr.r.p[p].games;
		}
		c[n].games += rn->v[i].games;
		c[n].since = rn->started - rn->v[i].last;
		c[n].fresh = c[n].games == 0;
		c[n++].inflight = rn->v[i].inflight;
	}
	free(ok);
	if (n < k) {
		/* quarantined during this round: the next has fewer bots */
		free(c);
		rn->stop = 1;
		return -1;
	}
	pair_choose(c, n, k, &rn->rng, pick);
	for (i = 0; i < k; i++)
		pick[i] = c[pick[i]].idx;
	free(c);
	for (i = 0; i < k; i++)
		vers[i] = rn->v[pick[i]].id;
	memset(r, 0, sizeof *r);
	/* a job's logs are the workers' (ladder_jobs.c) */
	if ((id = lstore_table(rn->s, k, vers, 0, ng, rn->seed,
	    rn->t.logs && rn->o->spool == NULL, &r->seed, &log, cause,
	    sizeof cause)) == -1) {
		warnx("%s", cause);
		rn->stop = rn->broken = 1;
		return -1;
	}
	/* the pool's is in the output, DIR/logs; the store's in DIR */
	if (log != NULL)
		r->log = xstrdup(log + strlen("logs/"));
	free(log);
	r->table = id;
	r->games = ng;
	r->nlist = ng;
	r->list = xcalloc((size_t)ng, sizeof *r->list);
	for (g = 0; g < ng; g++)
		r->list[g] = g;
	lt = xcalloc(1, sizeof *lt);
	pace_start(&lt->pace);
	lt->left = ng;
	rn->handed += ng;
	r->ctx = lt;
	for (i = 0; i < k; i++) {
		r->bots[i] = pick[i];
		rn->v[pick[i]].inflight++;
		rn->v[pick[i]].last = rn->started;
	}
	rn->started++;
	rn->inplay++;
	return 1;
}

/* The pool's game: commits it; see pool.h. */
static int
game_done(void *arg, const struct pool_run *r, const struct resline *res,
    char *cause, size_t len)
{
	struct lrunner *rn = arg;
	struct jgame g;
	json_t *line, *seed;
	const char *names[MAX_PLAYERS];
	char *log = NULL;
	long vers[MAX_PLAYERS];
	int s, rc, idx[MAX_PLAYERS];

	if (r->log != NULL && asprintf(&log, "logs/%s", r->log) == -1)
		abort();
	for (s = 0; s < rn->t.seats; s++)
		names[s] = rn->v[r->bots[s]].player;
	jgame_of_result(&g, r->table, res, rn->t.seats, rn->t.duplicate,
	    names, log);
	for (s = 0; s < g.k; s++) {
		idx[s] = r->bots[res->seats[s]];
		vers[s] = rn->v[idx[s]].id;
	}
	seed = json_integer(res->seed);
	line = jgame_json(&g, seed);
	json_decref(seed);
	rc = commit(rn, r, &g, idx, vers, line, cause, len);
	json_decref(line);
	free(log);
	return rc;
}

/*
 * Commits game g of run r (its journal line, the versions at its seats,
 * idx the loaded bots at them or -1) and counts it: 0, 1 when --games is
 * reached, -1 and a cause.  The pool's games and the spool's journals'
 * (ladder_jobs.c) alike.
 */
static int
commit(void *arg, const struct pool_run *r, const struct jgame *g,
    const int *idx, const long *vers, const json_t *line, char *cause,
    size_t len)
{
	struct lrunner *rn = arg;
	struct ltable *lt;
	int s, rc;

	rc = lstore_game(rn->s, g, vers, line, cause, len);
	if (rc == -1)
		return -1;
	if (rc == 1) {
		warnx("table %ld game %ld reported twice; kept once", g->table,
		    g->game);
		return 0;
	}
	for (s = 0; s < g->k; s++)
		if (idx[s] >= 0)
			rn->v[idx[s]].games++;
	lt = r->ctx;
	if (lt != NULL)
		pace_game(&lt->pace, g->game, (int)rn->gpd);
	if (lt != NULL) {
		lt->left--;
		rn->handed--;
	}
	rn->fresh++;
	rn->unfitted++;
	if (refit_due(rn) == 0 && refit(rn, cause, len) == -1)
		return -1;
	if (rn->o->max_games > 0 && rn->fresh >= rn->o->max_games) {
		rn->stop = rn->aim = 1;
		return 1;
	}
	return 0;
}

/*
 * The pool's end of a run: the table ends; its replay is queued (a run
 * stopped before its end has a log that does not verify: none).
 */
static void
run_end(void *arg, const struct pool_run *r, long left, int failed)
{
	struct lrunner *rn = arg;
	struct ltable *lt = r->ctx;
	char cause[512];
	int i;

	if (lstore_table_end(rn->s, r->table, cause, sizeof cause) == -1)
		warnx("%s", cause);
	/* its pace sizes the next tables */
	if (!failed && !lt->adopted)
		pace_learn(&rn->deal_s, &lt->pace, (double)rn->gpd);
	rn->handed -= lt->left;
	rn->inplay--;
	free(lt);
	judge(rn, r, left, failed);
	for (i = 0; i < rn->t.seats; i++)
		if (r->bots[i] >= 0)
			rn->v[r->bots[i]].inflight--;
	/* stopped or failed too: its games played are replayed (a job's,
	 * from the logs ladder_jobs.c copied) */
	if (r->log != NULL ? left < r->nlist : rn->o->spool != NULL) {
		rn->queue = xreallocarray(rn->queue, (size_t)rn->nq + 1,
		    sizeof *rn->queue);
		rn->queue[rn->nq++] = r->table;
	}
	renders(rn, 0);
}

/*
 * Takes up a table a killed run left with jobs out (ladder_jobs.c) as a
 * run of this one's: its bots (idx, -1 for one not loaded: retired or
 * quarantined since) counted in play as the pairing counts a table it
 * chose, its games not yet in (left) as handed out, its end judged by
 * run_end; 0.
 */
static int
adopt(void *arg, long table, const int *idx, long left, struct pool_run *r)
{
	struct lrunner *rn = arg;
	struct ltable *lt;
	int i;

	memset(r, 0, sizeof *r);
	r->table = table;
	lt = xcalloc(1, sizeof *lt);
	pace_start(&lt->pace);
	lt->left = left;
	lt->adopted = 1;
	rn->handed += left;
	r->ctx = lt;
	for (i = 0; i < rn->t.seats; i++) {
		r->bots[i] = idx[i];
		if (idx[i] >= 0)
			rn->v[idx[i]].inflight++;
	}
	rn->inplay++;
	return 0;
}

/* The pool's tick: a refit that came due, the background renders. */
static void
tick(void *arg)
{
	struct lrunner *rn = arg;
	char cause[512];

	if (!rn->broken && refit_due(rn) == 0 && refit(rn, cause,
	    sizeof cause) == -1) {
		warnx("%s", cause);
		rn->stop = rn->broken = 1;
	}
	renders(rn, 0);
}

/*
 * Seconds until a refit is due (0: now), or -1 while fewer than
 * refit_every games wait for one and no replay made since wants a link
 * on the site (a refit of no new game only rewrites the site): refits
 * are spaced by games, and by
 * time too, so that they take at most about a tenth of the host (no
 * sooner than REFIT_SPACING times the last one's cost, nor than
 * REFIT_MIN_S after it).
 */
static double
refit_due(const struct lrunner *rn)
{
	double at;

	if (rn->unfitted < rn->o->refit_every && !rn->redraw)
		return -1;
	at = rn->fit_at + fmax(REFIT_MIN_S, REFIT_SPACING * rn->fit_cost) -
	    pool_now();
	return at > 0 ? at : 0;
}

/* The pool's due: the next refit's time, if one waits. */
static double
due(void *arg)
{
	return refit_due(arg);
}

/*
 * Starts rendering a replay of table's (its logs from *from on, *from
 * then past it) when it is no longer in play and the log has none as
 * new as itself: its LOG.html is written to a file of its own, renamed
 * over LOG.html when done (replay_end), so a replay is whole or missing,
 * never cut; in the background (idle), it takes only a CPU that nothing
 * else wants; 1 started, 0 nothing (more) to do, -1 and a cause.
 */
static int
replay_start(struct lstore *s, const char *prog, long table, int *from,
    int idle, struct lrender *out, char *cause, size_t len)
{
	sqlite3_stmt *st;
	char *rel = NULL, *names = NULL, *x;
	int rc, i = 0;

	if ((st = lstore_prep(s, "SELECT 1 FROM tables t WHERE id = ?1 AND "
	    REPLAYABLE, cause, len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, table);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return 0;
	if ((st = lstore_prep(s, LOGS_OF, cause, len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, table);
	for (; sqlite3_step(st) == SQLITE_ROW; i++)
		if (i >= *from && stale(s->dir, (const char *)
		    sqlite3_column_text(st, 0))) {
			rel = xstrdup((const char *)sqlite3_column_text(st, 0));
			break;
		}
	sqlite3_finalize(st);
	*from = i + 1;
	if (rel == NULL)
		return 0;
	if ((st = lstore_prep(s, "SELECT v.player FROM seats st JOIN versions "
	    "v ON v.id = st.version WHERE st.tab = ? ORDER BY st.seat", cause,
	    len)) == NULL) {
		free(rel);
		return -1;
	}
	sqlite3_bind_int64(st, 1, table);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (asprintf(&x, "%s%s%s", names != NULL ? names : "",
		    names != NULL ? "," : "",
		    (const char *)sqlite3_column_text(st, 0)) == -1)
			abort();
		free(names);
		names = x;
	}
	sqlite3_finalize(st);
	memset(out, 0, sizeof *out);
	out->table = table;
	if (asprintf(&out->log, "%s/%s", s->dir, rel) == -1 ||
	    asprintf(&out->html, "%s.html", out->log) == -1 ||
	    asprintf(&out->tmp, "%s.%ld.tmp", out->html, (long)getpid()) == -1)
		abort();
	free(rel);
	rc = 0;
	if (names != NULL) {
		char *argv[] = { (char *)prog, (char *)"--html", out->tmp,
		    (char *)"--names", names, out->log, NULL };

		if ((out->pid = proc_helper(argv, -1, -1, -1, NULL)) == -1)
			err(1, "fork");
		/* play comes first: the replays take what it leaves (the
		 * idle class: a CPU no table wants; a table's start-ups and
		 * ping-pong leave gaps on a busy one) */
		if (idle) {
			struct sched_param sp = { 0 };

			if (sched_setscheduler(out->pid, SCHED_IDLE,
			    &sp) == -1)
				setpriority(PRIO_PROCESS, (id_t)out->pid, 19);
		}
		rc = 1;
	}
	free(names);
	if (rc == 0)
		replay_free(out);
	return rc;
}

/* 1 if log (rel, from dir) is there and has no replay as new as itself. */
static int
stale(const char *dir, const char *rel)
{
	struct stat lsb, hsb;
	char *log;
	int rc;

	if (asprintf(&log, "%s/%s.html", dir, rel) == -1)
		abort();
	rc = stat(log, &hsb) == -1;
	log[strlen(log) - 5] = '\0';
	if (stat(log, &lsb) == -1)
		rc = 0;
	else if (!rc)
		rc = hsb.st_mtime < lsb.st_mtime;
	free(log);
	return rc;
}

/* Ends a render that exited with status: its replay in place, or said. */
static void
replay_end(struct lrender *r, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (rename(r->tmp, r->html) == -1)
			warn("%s", r->html);
	} else {
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM)
			warnx("%s: no HTML replay", r->log);
		unlink(r->tmp);
	}
	replay_free(r);
}

/*
 * Removes the half-written replays (LOG.html.PID.tmp, replay_start's)
 * that a renderer killed with SIGKILL left in logs: those whose PID no
 * longer runs (a live one may be a ladder serve or site rendering).
 */
static void
stale_renders(const char *logs)
{
	DIR *d;
	struct dirent *de;
	const char *p;
	char *end;
	long pid;
	int fd;

	if ((d = opendir(logs)) == NULL)
		return;
	fd = dirfd(d);
	while ((de = readdir(d)) != NULL) {
		if ((p = strstr(de->d_name, ".html.")) == NULL)
			continue;
		errno = 0;
		pid = strtol(p + strlen(".html."), &end, 10);
		if (errno != 0 || pid <= 0 || strcmp(end, ".tmp") != 0)
			continue;
		if (kill((pid_t)pid, 0) == -1 && errno == ESRCH)
			unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
}

/* Frees a render's names. */
static void
replay_free(struct lrender *r)
{
	free(r->log);
	free(r->html);
	free(r->tmp);
	memset(r, 0, sizeof *r);
}

/* Renders table's replay when it has none up to date; see ladder_run.h. */
int
ladder_replay(struct lstore *s, long table, char *cause, size_t len)
{
	struct lrender r;
	char *prog = beside_self("replay");
	int rc, status, from = 0, done = 0;

	while ((rc = replay_start(s, prog, table, &from, 0, &r, cause,
	    len)) == 1) {
		while (waitpid(r.pid, &status, 0) == -1)
			;
		done |= WIFEXITED(status) && WEXITSTATUS(status) == 0;
		replay_end(&r, status);
	}
	free(prog);
	return rc == -1 ? -1 : done;
}

/* Renders every replay missing; see ladder_run.h. */
long
ladder_replays(struct lstore *s, char *cause, size_t len)
{
	char upto[32];
	long *ids, n, i, done = 0;
	int rc;

	if ((n = pending(s, &ids, cause, len)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((rc = ladder_replay(s, ids[i], cause, len)) == -1) {
			free(ids);
			return -1;
		}
		done += rc;
	}
	free(ids);
	/* every table before the first one in play is done with */
	snprintf(upto, sizeof upto, "%ld", lstore_scalar(s, "SELECT "
	    "coalesce((SELECT min(id) - 1 FROM tables WHERE ended IS NULL), "
	    "(SELECT max(id) FROM tables), 0)"));
	if (lstore_set_meta(s, "replays_upto", upto, cause, len) == -1)
		return -1;
	return done;
}

/*
 * The tables past the store's meta "replays_upto" that have a replay to
 * make (REPLAYABLE) and none as new as their log, in order (*ids, the
 * caller's); -1 and a cause.
 */
static long
pending(struct lstore *s, long **ids, char *cause, size_t len)
{
	sqlite3_stmt *st, *lg;
	char *v;
	long n = 0, from;

	*ids = NULL;
	v = lstore_meta(s, "replays_upto");
	from = v != NULL ? strtol(v, NULL, 10) : 0;
	free(v);
	if ((st = lstore_prep(s, "SELECT id FROM tables t WHERE id > ? "
	    "AND " REPLAYABLE " ORDER BY id", cause, len)) == NULL)
		return -1;
	if ((lg = lstore_prep(s, LOGS_OF, cause, len)) == NULL) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_int64(st, 1, from);
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_reset(lg);
		sqlite3_bind_int64(lg, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(lg) == SQLITE_ROW)
			if (stale(s->dir, (const char *)sqlite3_column_text(lg,
			    0))) {
				*ids = xreallocarray(*ids, (size_t)n + 1,
				    sizeof **ids);
				(*ids)[n++] = sqlite3_column_int64(st, 0);
				break;
			}
	}
	sqlite3_finalize(lg);
	sqlite3_finalize(st);
	return n;
}

/*
 * Moves the background renders on: reaps the one done and starts the
 * next table queued (one at a time, niced: play keeps the cores); with
 * stop, kills the one under way (its table is rendered later).
 */
static void
renders(struct lrunner *rn, int stop)
{
	char cause[512];
	int status, rc;
	pid_t p;

	if (rn->cur.pid > 0) {
		if (stop)
			kill(rn->cur.pid, SIGTERM);	/* rendered later */
		while ((p = waitpid(rn->cur.pid, &status, stop ? 0 : WNOHANG)) ==
		    -1 && errno == EINTR)
			;
		if (p == 0)
			return;
		if (p == -1) {
			unlink(rn->cur.tmp);
			replay_free(&rn->cur);
		} else {
			/* the site links it from its next writing */
			rn->redraw |= WIFEXITED(status) &&
			    WEXITSTATUS(status) == 0;
			replay_end(&rn->cur, status);
		}
	}
	if (rn->qhead == rn->nq)
		rn->qhead = rn->nq = rn->qfrom = 0;
	/* a table's logs one after the other, then the next table's */
	while (!stop && rn->qhead < rn->nq) {
		rc = replay_start(rn->s, rn->replay, rn->queue[rn->qhead],
		    &rn->qfrom, 1, &rn->cur, cause, sizeof cause);
		if (rc == 1)
			return;
		if (rc == -1)
			warnx("%s", cause);
		rn->qhead++;
		rn->qfrom = 0;
	}
}

/*
 * Adds the new games and refits warm, saving the fit (with no new game:
 * a replay made since wants its link, or the start, the fit stands);
 * then publishes.
 */
static int
refit(struct lrunner *rn, char *cause, size_t len)
{
	double t0 = pool_now();
	long ng = rn->unfitted;
	int i;

	rn->unfitted = 0;
	rn->redraw = 0;
	/* the games counted since the last fit are in this one */
	for (i = 0; i < rn->nv; i++)
		rn->v[i].games = 0;
	if (lrate_update(rn->s, &rn->lr, cause, len) == -1)
		return -1;
	if (rn->lr.r.n > 0 && (ng > 0 || !rn->lr.r.fitted)) {
		if (lrate_refit(&rn->lr, cause, len) == -1 ||
		    lrate_save(rn->s, &rn->lr, cause, len) == -1)
			return -1;
	}
	publish(rn, t0);
	return 0;
}

/*
 * Writes the site, looks into the inbox, stops starting tables when the
 * active bots changed, and says the standing; the refit begun at t0 is
 * timed (its cost spaces the next).
 */
static void
publish(struct lrunner *rn, double t0)
{
	const struct rplayer *p;
	char fresh[32], cause[512];

	if (ladder_site(rn->s, &rn->lr, 1, cause, sizeof cause) == -1)
		warnx("%s", cause);
	if (rn->o->inbox != NULL)
		ladder_inbox(rn->s, rn->o->inbox, rn->o->quiet ?
		    LINBOX_QUIET : 0);
	if (fingerprint(rn->s) != rn->print)
		rn->stop = 1;
	rn->fit_at = pool_now();
	rn->fit_cost = rn->fit_at - t0;
	if (!rn->o->quiet && rn->lr.r.n > 0) {
		p = &rn->lr.r.p[rn->lr.r.order[0]];
		/* at the start no bots are loaded yet: the store's count */
		snprintf(fresh, sizeof fresh, rn->fresh > 0 ? " (%ld new)" :
		    " so far", rn->fresh);
		fprintf(stderr, "ladder: %ld games%s, %ld bots in play; first "
		    "%s %.0f +- %.0f\n", rn->lr.r.games, fresh, rn->nv > 0 ?
		    (long)rn->nv : lstore_scalar(rn->s, "SELECT count(*) FROM "
		    "versions WHERE retired IS NULL AND quarantine IS NULL"),
		    p->name, p->elo, p->pm);
	}
}

/*
 * The rating from scratch (as tournament rate's) and the site at rest;
 * the replays left to make are said, not made (a stop is prompt: a
 * table of many games takes a while to render; ladder site, serve or the
 * next run makes them).
 */
static int
finish(struct lstore *s, int quiet, char *cause, size_t len)
{
	struct lrating lr;
	long left, *ids = NULL;
	int rc = 0;

	lrate_init(s, &lr, 0);
	if ((left = pending(s, &ids, cause, len)) == -1 ||
	    lrate_update(s, &lr, cause, len) == -1 ||
	    (lr.r.n > 0 && rate_fit(&lr.r, cause, len) == -1) ||
	    ladder_site(s, &lr, 0, cause, len) == -1)
		rc = -1;
	lrate_free(&lr);
	free(ids);
	if (left > 0 && !quiet)
		fprintf(stderr, "ladder: %ld replay%s left to render (ladder "
		    "site renders them; ladder serve one when it is asked "
		    "for; the next run in the background)\n", left,
		    left == 1 ? "" : "s");
	return rc;
}

/*
 * Stops a run that cannot start a referee (one message, not one per
 * table), and says once what the referees would say only in their
 * stderr files: that the bots run unprotected.
 */
static void
warn_once(struct tour *t)
{
	char *ref = referee_path(t->referee);

	if (strchr(ref, '/') != NULL && access(ref, X_OK) == -1)
		err(1, "%s: the referee cannot be run", ref);
	free(ref);
	if (t->sandbox == 0 && geteuid() != 0)
		warnx("WARNING: the ladder's settings say \"sandbox\": false: "
		    "its bots run neither sandboxed nor isolated, as this "
		    "user, and can read and write what it can (the logs of "
		    "tables in play, every other entrant's copy)");
	else if (t->sandbox == 0)
		isolation_warn(t->refargs, t->nrefargs, "\"sandbox\": true "
		    "isolates them");
}

/* Plays the ladder until stopped; see ladder_run.h. */
int
ladder_run(struct lstore *s, const struct lrun_opts *o)
{
	struct lrunner rn;
	struct pool_opts po;
	struct pool_source src;
	enum pool_end end;
	char cause[512], *logs;
	long n;
	int rc = 0, waiting = 0, warned = 0, lock;

	/* one run a ladder: a second would abandon the first's tables */
	if (asprintf(&logs, "%s/run.lock", s->dir) == -1)
		abort();
	if ((lock = open(logs, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1)
		err(1, "%s", logs);
	/* a run killed a moment ago may leave a child between its fork and
	 * its exec holding the lock's descriptor for some milliseconds (a
	 * restart at once found "running already"): a second's grace */
	for (n = 0; flock(lock, LOCK_EX | LOCK_NB) == -1; n++) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || n == 50)
			errx(1, "%s: the ladder is running already", s->dir);
		usleep(20000);
	}
	free(logs);
	memset(&rn, 0, sizeof rn);
	rn.s = s;
	rn.o = o;
	rn.replay = beside_self("replay");
	if ((n = lstore_abandon(s, o->spool != NULL)) > 0 && !o->quiet)
		fprintf(stderr, "ladder: %ld table%s of a stopped run "
		    "abandoned (their games kept)\n", n, n == 1 ? "" : "s");
	if (asprintf(&logs, "%s/logs", s->dir) == -1)
		abort();
	if (mkdirs(logs) == -1)
		err(1, "%s", logs);
	stale_renders(logs);
	free(logs);
	/* replays a killed run left unmade are made in the background */
	if ((rn.nq = pending(s, &rn.queue, cause, sizeof cause)) == -1)
		errx(1, "%s", cause);
	lrate_init(s, &rn.lr, 1);
	if (refit(&rn, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	rn.stop = 0;
	for (;;) {
		if (load_bots(&rn, cause, sizeof cause) == -1)
			errx(1, "%s", cause);
		if (!warned++)
			warn_once(&rn.t);
		rn.seed = rn.t.seed;
		rng_seed(&rn.rng, seed_derive(rn.seed, (uint64_t)time(NULL)));
		rn.stop = 0;
		if (rn.nv < rn.t.seats && o->max_games > 0) {
			/* --games always ends: no waiting for bots */
			warnx("%d bots in play, a table needs %d: stopping "
			    "before --games %ld", rn.nv, rn.t.seats,
			    o->max_games);
			unload_bots(&rn);
			rc = 1;
			break;
		}
		if (rn.nv < rn.t.seats) {
			if (!waiting && !o->quiet)
				fprintf(stderr, "ladder: %d bots in play, a "
				    "table needs %d: waiting for bots\n",
				    rn.nv, rn.t.seats);
			waiting = 1;
			unload_bots(&rn);
			proc_catch(on_signal);
			while (!got_signal &&
			    fingerprint(s) == rn.print) {
				if (o->inbox != NULL)
					ladder_inbox(s, o->inbox,
					    o->quiet ? LINBOX_QUIET : 0);
				usleep(200000);
			}
			if (got_signal) {
				rc = 130;
				break;
			}
			continue;
		}
		waiting = 0;
		memset(&po, 0, sizeof po);
		po.jobs = rn.jobs = o->spool != NULL ? LJOBS_WORKERS(o) :
		    o->jobs > 0 ? o->jobs : rn.t.jobs;
		po.quiet = 1;
		po.what = "table";
		memset(&src, 0, sizeof src);
		src.next = next_run;
		src.game = game_done;
		src.end = run_end;
		src.tick = tick;
		src.due = due;
		src.arg = &rn;
		if (o->spool != NULL)
			end = ljobs_play(s, &rn.t, rn.nv, o, &src, commit,
			    adopt, cause, sizeof cause);
		else
			end = pool_play(&rn.t, &po, &src, cause, sizeof cause);
		unload_bots(&rn);
		if (end == POOL_SIGNAL) {
			rc = 130;
			break;
		}
		if (end == POOL_FULL) {
			warnx("%s", cause);
			rc = 1;
			break;
		}
		if (rn.aim)
			break;
		if (rn.broken) {
			rc = 1;
			break;
		}
	}
	renders(&rn, 1);
	free(rn.queue);
	/* one rating in memory at a time: they grow as bots squared */
	lrate_free(&rn.lr);
	if (finish(s, o->quiet, cause, sizeof cause) == -1) {
		warnx("%s", cause);
		rc = rc ? rc : 1;
	}
	if (!o->quiet)
		fprintf(stderr, "ladder: stopped after %ld new games\n",
		    rn.fresh);
	free(rn.replay);
	free(rn.h);
	close(lock);
	return rc;
}
