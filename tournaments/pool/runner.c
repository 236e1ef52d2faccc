/*
 * `tournament run` and `tournament job` as a table source of the pool
 * (pool.h): makes the schedule (or takes a plan's table, or the tables a
 * caller such as the gauntlet gives), reads the journal (resuming: games
 * already there are skipped, a torn last line is cut away), then hands
 * the pool one run per chunk of a table's deals: every table's first
 * chunk, then every table's second, and so on, so tables stay within one
 * chunk of each other.  A chunk is "deals_per_run" deals, or by default
 * ("auto") as many as take about CHUNK_SECONDS to play, measured on the
 * runs so far (the games of one bot process, apart from the start-ups;
 * before any run is timed, an open run: an even share of what is left,
 * which the runner ends on time as it plays, its referee finishing the
 * game, with duplicate the deal, in play; the deals it leaves are its
 * table's next, so no bot is started twice for the pace; with no more
 * tables than slots, an even share of what is left for each idle slot,
 * which needs no pace and starts each slot's bots once):
 * start-up is paid once per chunk, and a stopped tournament has every
 * table within a few seconds of play of the others.  The games of a
 * chunk that are not in the journal are its run's list, so a resumed
 * game is the same game (same deal, same seats) however the deals were
 * chunked.  Every game the pool hands back becomes one journal line,
 * written whole at once, so a kill -9 at any moment loses at most games
 * that will be played again; the journal is fsynced in groups (at most
 * COMMIT_GAMES games or COMMIT_MS ms after the first unsynced one, the
 * header and a new journal's name with the first group, and at the end)
 * by a thread of its own, so that a slow disk never holds the runner.
 * Progress goes to stderr (a live status line on a terminal, plain lines
 * otherwise); the whole journal is rated and every report format made
 * once the last game is in (while the referee shuts down) and written
 * at the end.  Memory is bounded by the bots, the tables and the
 * concurrency, not by the number of games.
 */
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/journal.h"
#include "base/paths.h"
#include "base/replays.h"
#include "contain.h"
#include "oneway.h"
#include "pool/pace.h"
#include "pool/pool.h"
#include "pool/runner.h"
#include "proc.h"
#include "rating/advice.h"
#include "rating/load.h"
#include "rng.h"

#define PLAIN_EVERY	10.0		/* seconds between plain log lines */
#define COMMIT_GAMES	100		/* games per journal fsync, at most */
#define COMMIT_MS	100		/* ms a written game waits for fsync */
#define COMMIT_RETRY_MS	5		/* while the last fsync still runs */
#define CHUNK_MIN_SECONDS 1.0		/* at least, to share the tail */
#define SHARE_MAX_DEALS	1000		/* a slot's share played at once */

#define NOUTS		5		/* report formats */

/* Reports rated and formatted in memory, to be written. */
struct reports {
	struct rated	 rd;
	int		 state;		/* 0 rated, 1 no game, -1 failed */
	char		*title;
	char		*text[NOUTS];	/* a format's bytes, or NULL */
	size_t		 len[NOUTS];
};

/* A chunk being played: deals d0 .. d0+n-1 of a table. */
struct chunk {
	long	 table;		/* in the schedule */
	long	 d0, n;
	struct pace pace;	/* its games' times */
	int	 running;
	int	 open;		/* no pace yet: ended on time */
	int	 ending;	/* told to end */
	int	 life0;		/* with duplicate, its first game's seat
				 * rotation (-1 before it) */
};

struct runner {
	struct tour		*t;
	const struct runner_opts	*o;
	const struct runner_hooks	*h;
	struct schedule		 own;
	const struct schedule	*s;
	struct doneset		 done;
	long			 gpt;
	long			 total, have, fresh;
	int			 jfd;
	long			 unsynced;	/* lines written, not fsynced */
	struct jsync		 js;		/* its commits */
	double			 sync_due;	/* when they must be */
	char			*jpath;
	char			*logdir;
	json_t			*header;
	int			 header_seen;
	int			 jobs;
	long			 per_round;	/* games of one deal */
	long			 deal_lo, deal_hi;	/* the deals to play */
	long			*next_deal;	/* per table: first not begun */
	struct chunk		*chunks;	/* jobs of them */
	long			 lead;		/* chunks a table may run ahead */
	double			 deal_s;	/* seconds a deal takes, or 0 */
	double			 chunk_s;	/* a chunk's play, in seconds */
	long			 fixed;		/* deals_per_run, 0: auto */
	int			 aim;		/* the hook's aim is reached */
	char			 full[512];	/* why the journal failed */
	struct rating		 live;
	int			*live_idx;	/* tournament bot -> live index */
	int			 tty;
	double			 start, last_show;
	double			 next_fit;	/* when to refit the live table */
	int			 live_ok;	/* it was fitted */
	long			 shown;		/* games at the last show */
	struct reports		 pre;		/* made at the last game */
	int			 made;		/* pre holds them */
};

static long	 table_id(const struct runner *, long);
static int	 read_journal(struct runner *, char *, size_t);
static int	 check_header(void *, const json_t *, char *, size_t);
static int	 resume_game(void *, const struct jgame *, char *, size_t);
static void	 skip_warn(void *, long, const char *);
static long	 chunk_size(const struct runner *);
static long	 deals_left(const struct runner *);
static int	 share_at_once(const struct runner *);
static int	 open_running(const struct runner *, long);
static int	 on_time(struct runner *, struct chunk *, long);
static long	 first_unplayed(const struct runner *, const struct chunk *);
static int	 src_next(void *, struct pool_run *);
static int	 src_game(void *, const struct pool_run *,
		    const struct resline *, char *, size_t);
static void	 src_end(void *, const struct pool_run *, long, int);
static void	 src_tick(void *);
static double	 src_due(void *);
static void	 show(struct runner *, int);
static int	 write_reports(struct runner *);
static int	 reports_make(struct reports *, const char *, const char *,
		    const char *);
static int	 reports_put(struct reports *, const char *, const char *,
		    int, const struct tour *);
static void	 reports_free(struct reports *);
static void	 report_title(const struct runner *, char *, size_t);
static int	 reports_due(const struct runner *);
static void	 runner_last(struct runner *);
static void	 fmt_time(double, char *, size_t);
static void	 commit(struct runner *, int);
static double	 now(void);
static void	 runner_tables(struct runner *);
static void	 runner_checks(const struct tour *);
static int	 runner_open(struct runner *);
static enum pool_end runner_play(struct runner *, char *, size_t);
static int	 runner_finish(struct runner *, enum pool_end, const char *);
static void	 adopt_seed(struct runner *, struct tour *);
static double	 chunk_seconds(void);

/* The number of schedule table tb in the whole tournament. */
static long
table_id(const struct runner *rn, long tb)
{
	return rn->o->job != NULL ? rn->o->job->table : tb;
}

/*
 * A tournament whose file names no seed draws a fresh, secret one; when
 * it resumes, the journal's header holds the one its games were dealt
 * from, which it takes again (else nothing could be resumed).
 */
static void
adopt_seed(struct runner *rn, struct tour *t)
{
	char *line = NULL, *end;
	size_t cap = 0;
	json_t *h;
	const char *s;
	FILE *fp;
	unsigned long long v;

	if (t->seed_named || (fp = fopen(rn->jpath, "r")) == NULL)
		return;
	if (getline(&line, &cap, fp) > 0 &&
	    (h = json_loads(line, 0, NULL)) != NULL) {
		s = json_string_value(json_object_get(h, "seed"));
		if (s != NULL) {
			errno = 0;
			v = strtoull(s, &end, 10);
			if (errno == 0 && *end == '\0' && end != s)
				t->seed = v;
		}
		json_decref(h);
	}
	free(line);
	fclose(fp);
}

/* Seconds on the monotonic clock. */
static double
now(void)
{
	return pool_now();
}

/* Checks that the journal was written for this very tournament. */
static int
check_header(void *arg, const json_t *h, char *cause, size_t len)
{
	struct runner *rn = arg;
	const char *key;
	json_t *v;

	rn->header_seen = 1;
	json_object_foreach((json_t *)rn->header, key, v) {
		if (!json_equal(v, json_object_get(h, key))) {
			snprintf(cause, len, "written for another tournament "
			    "(its \"%s\" differs): use another output "
			    "directory, or remove the journal to start over",
			    key);
			return -1;
		}
	}
	return 0;
}

/* Counts a game of the journal as done (and into the live table). */
static int
resume_game(void *arg, const struct jgame *g, char *cause, size_t len)
{
	struct runner *rn = arg;
	const struct jobspec *job = rn->o->job;
	int pl[MAX_PLAYERS], s, b;
	long tb = g->table;

	if (!rn->header_seen) {
		snprintf(cause, len, "a game before the journal's header");
		return -1;
	}
	if (g->k != rn->t->seats) {
		snprintf(cause, len, "%d seats, not %d", g->k, rn->t->seats);
		return -1;
	}
	if (job != NULL && (g->table != job->table || g->game < job->lo ||
	    g->game >= job->hi)) {
		snprintf(cause, len, "table %ld game %ld is not one of this "
		    "job's games", g->table, g->game);
		return -1;
	}
	if (job != NULL)
		tb = 0;
	switch (doneset_add(&rn->done, tb, g->game)) {
	case -1:
		snprintf(cause, len, "table %ld game %ld is not in the "
		    "schedule", g->table, g->game);
		return -1;
	case 1:
		warnx("%s: table %ld game %ld is in the journal twice; "
		    "counted once", rn->jpath, g->table, g->game);
		return 0;
	}
	for (s = 0; s < g->k; s++) {
		for (b = 0; b < rn->t->nbots; b++)
			if (strcmp(rn->t->bots[b].name, g->bots[s]) == 0)
				break;
		if (b == rn->t->nbots) {
			snprintf(cause, len, "unknown bot %s", g->bots[s]);
			return -1;
		}
		pl[s] = rn->live_idx[b];
	}
	rate_add(&rn->live, 0, g->k, pl, g->places,
	    (const long (*)[NTFAULT])g->faults);
	rn->have++;
	if (rn->h != NULL && rn->h->game != NULL &&
	    rn->h->game(rn->h->arg, g) == 1)
		rn->aim = 1;
	return 0;
}

/* Reports a damaged journal line that is skipped (it will be replayed). */
static void
skip_warn(void *arg, long lineno, const char *cause)
{
	struct runner *rn = arg;

	warnx("%s:%ld: damaged line skipped (%s); its game will be played "
	    "again", rn->jpath, lineno, cause);
}

/* Reads the journal, if any, cutting a torn last line away. */
static int
read_journal(struct runner *rn, char *cause, size_t len)
{
	struct jreader r;
	struct stat sb;

	if (stat(rn->jpath, &sb) == -1)
		return errno == ENOENT ? 0 : -1;
	memset(&r, 0, sizeof r);
	r.header = check_header;
	r.game = resume_game;
	r.warn = skip_warn;
	r.arg = rn;
	r.repair = 1;
	if (journal_read(rn->jpath, &r, cause, len) == -1)
		return -1;
	if (r.torn)
		warnx("%s: a torn last line was dropped; its game will be "
		    "played again", rn->jpath);
	if (!rn->header_seen && r.lines > 0) {
		snprintf(cause, len, "%s: no header line", rn->jpath);
		return -1;
	}
	return 0;
}

/*
 * 1 if no chunk needs a pace: no more tables than slots and at most
 * SHARE_MAX_DEALS left a slot, so that an even share of what is left is
 * one run of a slot (chunking it finer would pay start-ups, timing it a
 * second start of the bots); a gauntlet's table of up to its SPRT's
 * bound is chunked by time.
 */
static int
share_at_once(const struct runner *rn)
{
	if (rn->fixed != 0 || rn->s->ntables > rn->jobs)
		return 0;
	return deals_left(rn) <= SHARE_MAX_DEALS * (long)rn->jobs;
}

/* The deals not yet handed to a run, over every table. */
static long
deals_left(const struct runner *rn)
{
	long left = 0, tb;

	for (tb = 0; tb < rn->s->ntables; tb++)
		left += rn->deal_hi - rn->next_deal[tb];
	return left;
}

/*
 * The deals of the next chunk: deals_per_run, else enough for about
 * CHUNK_SECONDS of play (before any run has been timed, an even share of
 * what is left for the slots: an open run, ended on time), no more than
 * an even share of what is left for the slots unless that share is under
 * CHUNK_MIN_SECONDS of play (cutting the tail finer would pay more
 * start-ups than it saves).
 */
static long
chunk_size(const struct runner *rn)
{
	long n, min, left;
	int i, idle;

	if (rn->fixed > 0)
		return rn->fixed;
	left = deals_left(rn);
	/* no more tables than slots: an even share among the idle slots
	 * at once, its bots started once, no pace to time */
	if (share_at_once(rn)) {
		for (i = 0, idle = rn->jobs; i < rn->jobs; i++)
			idle -= rn->chunks[i].running;
		n = (left + idle - 1) / (idle > 0 ? idle : 1);
		return n < 1 ? 1 : n;
	}
	left = (left + rn->jobs - 1) / rn->jobs;
	if (rn->deal_s <= 0)
		return left < 1 ? 1 : left;	/* an open run */
	n = (long)(rn->chunk_s / rn->deal_s);
	min = (long)(CHUNK_MIN_SECONDS / rn->deal_s);
	if (n > left)
		n = left > min ? left : min;
	return n < 1 ? 1 : n;
}

/* 1 if an open run of table tb is being played. */
static int
open_running(const struct runner *rn, long tb)
{
	int i;

	for (i = 0; i < rn->jobs; i++)
		if (rn->chunks[i].running && rn->chunks[i].open &&
		    rn->chunks[i].table == tb)
			return 1;
	return 0;
}

/*
 * 1 if open chunk c, whose game g has just ended, has played for its
 * time: CHUNK_SECONDS since it started, counting with duplicate each
 * seat rotation still to play as long as its first (the later ones play
 * up to the deal where it ends); never past its first rotation, nor when
 * a later chunk of its table has begun (the deals it leaves must be the
 * table's next).
 */
static int
on_time(struct runner *rn, struct chunk *c, long g)
{
	int lives = 1;

	if (!c->open || c->ending ||
	    rn->next_deal[c->table] != c->d0 + c->n)
		return 0;
	if (rn->t->duplicate && rn->t->seats > 1) {
		if (c->life0 == -1)
			c->life0 = (int)(g % rn->t->seats);
		if (g % rn->t->seats != c->life0)
			return 0;
		lives = rn->t->seats - c->life0;
	}
	return (now() - c->pace.t0) * lives >= rn->chunk_s;
}

/*
 * The first deal of chunk c with a game not in the journal, or the
 * chunk's end: where its table goes on after it ended on time.
 */
static long
first_unplayed(const struct runner *rn, const struct chunk *c)
{
	long d, g;

	for (d = c->d0; d < c->d0 + c->n; d++)
		for (g = d * rn->per_round; g < (d + 1) * rn->per_round &&
		    g < rn->done.gpt; g++)
			if (!doneset_has(&rn->done, c->table, g))
				return d;
	return c->d0 + c->n;
}

/*
 * The next run: the chunk of the table that is least far along, if it
 * begins at most lead chunks beyond the oldest chunk still being played
 * (before the pace is known, an open run, and none other of its table
 * while it plays).
 */
static int
src_next(void *arg, struct pool_run *r)
{
	struct runner *rn = arg;
	struct chunk *c = NULL;
	long tb, best = -1, oldest = LONG_MAX, n, g, d, k;
	int i, s, open, waiting;
	char *log, *p, *e;

	if (rn->aim)
		return -1;
	for (i = 0; i < rn->jobs; i++) {
		if (rn->chunks[i].running && rn->chunks[i].d0 < oldest)
			oldest = rn->chunks[i].d0;
		if (!rn->chunks[i].running)
			c = &rn->chunks[i];
	}
	if (c == NULL)
		return 0;
	for (;;) {
		best = -1;
		waiting = 0;
		for (tb = 0; tb < rn->s->ntables; tb++) {
			if (rn->next_deal[tb] >= rn->deal_hi)
				continue;
			if (open_running(rn, tb))
				waiting = 1;	/* it ends where it ends */
			else if (best == -1 ||
			    rn->next_deal[tb] < rn->next_deal[best])
				best = tb;
		}
		if (best == -1)
			return waiting ? 0 : -1;
		n = chunk_size(rn);
		if (oldest != LONG_MAX && rn->next_deal[best] > oldest +
		    rn->lead * n)
			return 0;
		d = rn->next_deal[best];
		open = rn->fixed == 0 && rn->deal_s <= 0 && !share_at_once(rn);
		/* a fixed size keeps to its grid (a job may begin off it), so
		 * that a chunk resumed is the chunk begun */
		if (rn->fixed > 0)
			n = rn->fixed - d % rn->fixed;
		if (n > rn->deal_hi - d)
			n = rn->deal_hi - d;
		rn->next_deal[best] += n;
		/* the games of these deals not yet in the journal */
		r->list = xcalloc((size_t)(n * rn->per_round), sizeof *r->list);
		r->nlist = 0;
		for (g = d * rn->per_round; g < (d + n) * rn->per_round &&
		    g < rn->done.gpt; g++)
			if (!doneset_has(&rn->done, best, g))
				r->list[r->nlist++] = g;
		if (r->nlist > 0)
			break;
		free(r->list);
		r->list = NULL;
	}
	tb = best;
	r->table = table_id(rn, tb);
	for (s = 0; s < rn->t->seats; s++)
		r->bots[s] = rn->s->tab[tb * rn->t->seats + s];
	r->seed = seed_oneway(rn->t->seed, "table",
	    (uint64_t)table_id(rn, tb));
	r->games = rn->gpt;
	r->first = d * rn->per_round;
	/* a fresh log name for each run (logs are truncated) */
	for (k = 1;; k++) {
		if (rn->o->job != NULL)
			i = k == 1 ? asprintf(&log, "%s.d%03ld.jsonl",
			    rn->o->job->logbase, d) : asprintf(&log,
			    "%s.d%03ld-%ld.jsonl", rn->o->job->logbase, d, k);
		else
			i = k == 1 ? asprintf(&log, "logs/t%05ld.d%03ld.jsonl",
			    tb, d) : asprintf(&log,
			    "logs/t%05ld.d%03ld-%ld.jsonl", tb, d, k);
		if (i == -1 || asprintf(&p, "%s/%s", rn->t->outdir,
		    log) == -1 || asprintf(&e, "%s.referee.stderr", p) == -1)
			err(1, "asprintf");
		i = access(p, F_OK) == -1 && access(e, F_OK) == -1;
		free(p);
		free(e);
		if (i)
			break;
		free(log);
	}
	r->log = log;
	memset(c, 0, sizeof *c);
	c->table = tb;
	c->d0 = d;
	c->n = n;
	c->open = open;
	c->life0 = -1;
	pace_start(&c->pace);
	c->running = 1;
	r->ctx = c;
	return 1;
}

/* A game of a run: one journal line, the live table, the hook. */
static int
src_game(void *arg, const struct pool_run *r, const struct resline *res,
    char *cause, size_t len)
{
	struct runner *rn = arg;
	struct chunk *c = r->ctx;
	struct jgame g;
	json_t *seed;
	const char *names[MAX_PLAYERS];
	int s, pl[MAX_PLAYERS];
	double t = now();

	for (s = 0; s < rn->t->seats; s++)
		names[s] = rn->t->bots[r->bots[s]].name;
	jgame_of_result(&g, r->table, res, rn->t->seats, rn->t->duplicate,
	    names, rn->t->logs ? r->log : NULL);
	for (s = 0; s < g.k; s++)
		pl[s] = rn->live_idx[r->bots[res->seats[s]]];
	if (rn->full[0] != '\0') {
		snprintf(cause, len, "%s", rn->full);
		return -1;
	}
	switch (doneset_add(&rn->done, c->table, g.game)) {
	case 1:
		warnx("table %ld game %ld reported twice; kept once",
		    r->table, g.game);
		return 0;
	case -1:
		return 0;
	}
	seed = json_integer(res->seed);
	if (jgame_write(rn->jfd, &g, seed, cause, len) == -1) {
		/* whatever the cause, no later game could be kept */
		json_decref(seed);
		return -1;
	}
	json_decref(seed);
	if (rn->unsynced++ == 0)
		rn->sync_due = t + COMMIT_MS / 1000.0;
	rate_add(&rn->live, 0, g.k, pl, g.places,
	    (const long (*)[NTFAULT])g.faults);
	rn->have++;
	rn->fresh++;
	if (rn->have == rn->total)
		runner_last(rn);
	/* with duplicate each seat rotation is a lifetime of its own */
	pace_game(&c->pace, res->game, rn->t->duplicate ? rn->t->seats : 1);
	if (rn->h != NULL && rn->h->game != NULL &&
	    rn->h->game(rn->h->arg, &g) == 1) {
		rn->aim = 1;
		return 1;
	}
	if (on_time(rn, c, res->game)) {
		c->ending = 1;
		return POOL_ENOUGH;
	}
	return 0;
}

/*
 * A run ended: its timing teaches the chunk size; the deals an open run
 * left are its table's next.
 */
static void
src_end(void *arg, const struct pool_run *r, long left, int failed)
{
	struct runner *rn = arg;
	struct chunk *c = r->ctx;

	c->running = 0;
	if (failed)
		return;
	pace_learn(&rn->deal_s, &c->pace, (double)rn->per_round);
	if (c->open && left > 0 && rn->next_deal[c->table] == c->d0 + c->n)
		rn->next_deal[c->table] = first_unplayed(rn, c);
}

/* The group commit and the progress line, between polls. */
static void
src_tick(void *arg)
{
	struct runner *rn = arg;

	commit(rn, 0);
	show(rn, 0);
}

/* Seconds until the group commit is due, or -1 if none waits. */
static double
src_due(void *arg)
{
	struct runner *rn = arg;
	double d;

	if (rn->unsynced == 0)
		return -1;
	d = rn->sync_due - now();
	return d > 0 ? d : 0;
}

/*
 * The group commit: when COMMIT_GAMES lines wait for it or the first of
 * them has waited COMMIT_MS, the committing thread fsyncs the journal
 * (while the runner goes on; a commit still running is waited for, its
 * next kick COMMIT_RETRY_MS later); with force, every line now, here.
 */
static void
commit(struct runner *rn, int force)
{
	char cause[256];

	if (jsync_failed(&rn->js, cause, sizeof cause) == -1 &&
	    rn->full[0] == '\0')
		snprintf(rn->full, sizeof rn->full, "%s: %s", rn->jpath, cause);
	if (rn->unsynced == 0 || (!force && rn->unsynced < COMMIT_GAMES &&
	    now() < rn->sync_due))
		return;
	if (!force && !jsync_kick(&rn->js)) {
		rn->sync_due = now() + COMMIT_RETRY_MS / 1000.0;
		return;
	}
	if (force && jsync_flush(&rn->js, cause, sizeof cause) == -1 &&
	    rn->full[0] == '\0')
		snprintf(rn->full, sizeof rn->full, "%s: %s", rn->jpath, cause);
	rn->unsynced = 0;
}

/* Writes a duration as 1h02m, 3m05s or 12s. */
static void
fmt_time(double s, char *buf, size_t len)
{
	long x = (long)(s + 0.5);

	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "?");
	else if (x >= 3600)
		snprintf(buf, len, "%ldh%02ldm", x / 3600, x / 60 % 60);
	else if (x >= 60)
		snprintf(buf, len, "%ldm%02lds", x / 60, x % 60);
	else
		snprintf(buf, len, "%lds", x);
}

/*
 * Shows the progress: games done of total, games per second, time left
 * and the top of the live table; a status line redrawn on a terminal,
 * a plain line every few seconds otherwise.
 */
static void
show(struct runner *rn, int final)
{
	struct winsize ws;
	char line[1024], eta[32], cause[128];
	double t = now(), el = t - rn->start, rate;
	int i, cols = 100, n;
	size_t off;

	if (rn->o->quiet)
		return;
	if (!final && t - rn->last_show < (rn->tty ? 0.5 : PLAIN_EVERY))
		return;
	if (!rn->tty && !final && rn->have == rn->shown)
		return;
	rn->last_show = t;
	rn->shown = rn->have;
	if (rn->h != NULL && rn->h->status != NULL) {
		/* the caller's line (it writes its plain lines itself) */
		if (rn->tty) {
			rn->h->status(rn->h->arg, line, sizeof line);
			fprintf(stderr, "\r\033[K%s", line);
			fflush(stderr);
		}
		return;
	}
	rate = el > 0 ? rn->fresh / el : 0;
	fmt_time(rate > 0 ? (rn->total - rn->have) / rate : NAN, eta,
	    sizeof eta);
	off = (size_t)snprintf(line, sizeof line, "%ld/%ld games  %.1f/s  "
	    "%s left", rn->have, rn->total, rate, eta);
	/* refit the live table, but spend at most a twentieth of the time */
	if (rn->live.n > 0 && rn->have > 0 && (final || t >= rn->next_fit)) {
		rn->live_ok = rate_fit(&rn->live, cause, sizeof cause) == 0;
		rn->next_fit = now() + 19 * (now() - t);
	}
	if (rn->live_ok) {
		off += (size_t)snprintf(line + off, sizeof line - off, "  |");
		for (i = 0; i < rn->live.n && i < 5 &&
		    off < sizeof line - 80; i++)
			off += (size_t)snprintf(line + off, sizeof line - off,
			    " %d. %s %.0f", i + 1,
			    rn->live.p[rn->live.order[i]].name,
			    rn->live.p[rn->live.order[i]].elo);
	}
	if (rn->tty) {
		if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
			cols = ws.ws_col;
		n = (int)strlen(line);
		if (n > cols - 1)
			line[cols - 1] = '\0';
		fprintf(stderr, "\r\033[K%s%s", line, final ? "\n" : "");
	} else
		fprintf(stderr, "tournament: %s\n", line);
	fflush(stderr);
}

/* The report formats, each a file results.<ext>. */
static const struct {
	const char	*ext;
	enum report_fmt	 fmt;
} outs[NOUTS] = {
	{ "txt", FMT_TEXT }, { "csv", FMT_CSV }, { "json", FMT_JSON },
	{ "md", FMT_MD }, { "html", FMT_HTML }
};

/*
 * Rates the whole journal and formats every report in memory, for
 * reports_put: 0, or 1 when there is no game, or -1 (said).
 */
static int
reports_make(struct reports *rs, const char *outdir, const char *jpath,
    const char *title)
{
	struct rate_opts ro = { 200, 2, NULL, 0, 1500, 1 };
	char cause[256], *jp = (char *)jpath;
	FILE *fp;
	int i;

	memset(rs, 0, sizeof *rs);
	rs->title = xstrdup(title);
	switch ((rs->state = rated_open(&rs->rd, &ro, &jp, 1, outdir,
	    rs->title, cause, sizeof cause))) {
	case 1:
		return 1;
	case -1:
		warnx("%s", cause);
		return -1;
	}
	/* a format that fails here is written (and said) by reports_put */
	for (i = 0; i < NOUTS; i++)
		if ((fp = open_memstream(&rs->text[i], &rs->len[i])) == NULL ||
		    report_write(fp, &rs->rd.rp, outs[i].fmt, cause,
		    sizeof cause) == -1 || fclose(fp) == EOF) {
			free(rs->text[i]);
			rs->text[i] = NULL;
		}
	return 0;
}

/*
 * Writes the reports reports_make made into outdir (and the table on
 * stdout unless quiet), names the limits of t (if not NULL) that bots
 * which timed out need, frees them; -1 if a report could not be written.
 */
static int
reports_put(struct reports *rs, const char *outdir, const char *jpath,
    int quiet, const struct tour *t)
{
	char cause[256], *path, *tmp;
	FILE *fp;
	int i, rcode = rs->state == -1 ? -1 : 0;

	if (rs->state != 0) {
		reports_free(rs);
		return rcode;
	}
	for (i = 0; i < NOUTS; i++) {
		if (asprintf(&path, "%s/results.%s", outdir,
		    outs[i].ext) == -1 || asprintf(&tmp, "%s.tmp", path) == -1)
			err(1, "asprintf");
		if ((fp = fopen(tmp, "w")) == NULL ||
		    (rs->text[i] != NULL ? fwrite(rs->text[i], 1, rs->len[i],
		    fp) != rs->len[i] : report_write(fp, &rs->rd.rp,
		    outs[i].fmt, cause, sizeof cause) == -1) ||
		    fclose(fp) == EOF || rename(tmp, path) == -1) {
			warn("%s", path);
			rcode = -1;
		}
		free(path);
		free(tmp);
	}
	if (!quiet) {
		printf("\n");
		rs->rd.rp.color = isatty(1);
		report_write(stdout, &rs->rd.rp, FMT_TEXT, cause, sizeof cause);
		printf("\njournal: %s\nlogs:    %s/logs/\nreport:  %s/results."
		    "html (also .txt .csv .json .md)\n", jpath, outdir,
		    outdir);
	}
	fflush(stdout);
	if (t != NULL)
		limits_advice(stderr, t, &rs->rd.r);
	reports_free(rs);
	return rcode;
}

/* Frees what reports_make made (the state says whether it rated). */
static void
reports_free(struct reports *rs)
{
	int i;

	if (rs->state == 0)
		rated_close(&rs->rd);
	for (i = 0; i < NOUTS; i++)
		free(rs->text[i]);
	free(rs->title);
	memset(rs->text, 0, sizeof rs->text);
	rs->title = NULL;
	rs->state = 1;
}

/* The reports' title: the tournament's name, game and seats. */
static void
report_title(const struct runner *rn, char *title, size_t len)
{
	snprintf(title, len, "%s (%s, %d seats%s)", rn->t->name,
	    rn->t->game, rn->t->seats, rn->t->duplicate ? ", duplicate" : "");
}

/*
 * 1 if the reports are written when the run ends and could be made once
 * its last game is journalled: no replays to render first, no journal
 * failure.
 */
static int
reports_due(const struct runner *rn)
{
	return rn->o->job == NULL && (rn->h == NULL || !rn->h->no_reports) &&
	    !((rn->o->replays || rn->t->replays) && rn->t->logs) &&
	    rn->full[0] == '\0';
}

/*
 * The tournament's last game is journalled: its group commit and its
 * reports made now, while the referee and its bots shut down (written
 * once the run has ended).
 */
static void
runner_last(struct runner *rn)
{
	char title[512];

	commit(rn, 1);
	if (!reports_due(rn) || rn->made)
		return;
	report_title(rn, title, sizeof title);
	reports_make(&rn->pre, rn->t->outdir, rn->jpath, title);
	rn->made = 1;
}

/* Rates the whole journal and writes every report format. */
static int
write_reports(struct runner *rn)
{
	char title[512];

	if (!rn->made) {
		report_title(rn, title, sizeof title);
		reports_make(&rn->pre, rn->t->outdir, rn->jpath, title);
	}
	rn->made = 0;
	return reports_put(&rn->pre, rn->t->outdir, rn->jpath, rn->o->quiet,
	    rn->t);
}

/* Rates a journal and writes every report format; see runner.h. */
int
runner_reports(const char *outdir, const char *jpath, const char *title,
    int quiet, const struct tour *t)
{
	struct reports rs;

	reports_make(&rs, outdir, jpath, title);
	return reports_put(&rs, outdir, jpath, quiet, t);
}

/*
 * The tables of a run: a job's one table, the caller's (the gauntlet's)
 * or the file's schedule; each table's first deal, the lead.
 */
static void
runner_tables(struct runner *rn)
{
	struct tour *t = rn->t;
	struct sched_stats st;
	char cause[512];
	long tb;
	int i;

	rn->s = &rn->own;
	if (rn->o->job == NULL) {
		if (asprintf(&rn->jpath, "%s/%s", rn->t->outdir, JOURNAL_NAME) == -1)
			err(1, "asprintf");
		adopt_seed(rn, rn->t);
	}
	if (rn->o->job != NULL) {
		/* a job: one table, its bots given in seat order */
		rn->own.nbots = rn->own.seats = rn->t->seats;
		rn->own.ntables = rn->own.all = 1;
		rn->own.tab = xcalloc((size_t)t->seats, sizeof *rn->own.tab);
		for (i = 0; i < rn->t->seats; i++)
			rn->own.tab[i] = i;
		rn->total = rn->o->job->hi - rn->o->job->lo;
		/* its deals only (a job holds whole deals) */
		rn->deal_lo = rn->o->job->lo / rn->per_round;
		rn->deal_hi = (rn->o->job->hi + rn->per_round - 1) /
		    rn->per_round;
		/* a job is already a chunk of its table: one run, unless the
		 * file sets deals_per_run */
		if (rn->fixed == 0)
			rn->fixed = rn->deal_hi - rn->deal_lo;
	} else {
		if (rn->h != NULL && rn->h->sched != NULL)
			rn->s = rn->h->sched;
		else {
			if (schedule_make(&rn->own, rn->t->nbots, rn->t->seats,
			    rn->t->mode, rn->t->count, rn->t->max_tables, rn->t->seed, cause,
			    sizeof cause) == -1)
				errx(1, "%s: %s", rn->t->path, cause);
			schedule_stats(&rn->own, rn->t->duplicate, &st);
			if (st.pair_max - st.pair_min > 1 ||
			    st.seat_spread > 1)
				warnx("schedule: pairs share %ld to %ld "
				    "tables, seats within %ld (not balanced "
				    "within one; try another \"tables\")",
				    st.pair_min, st.pair_max, st.seat_spread);
		}
		rn->total = (long)rn->s->ntables * rn->gpt;
		rn->deal_hi = rn->t->deals;
	}
	rn->next_deal = xcalloc((size_t)rn->s->ntables, sizeof *rn->next_deal);
	for (tb = 0; tb < rn->s->ntables; tb++)
		rn->next_deal[tb] = rn->deal_lo;
	rn->chunks = xcalloc((size_t)rn->jobs, sizeof *rn->chunks);
	/* enough chunks open to keep every slot busy (one when tables >=
	 * jobs) */
	rn->lead = (rn->jobs + rn->s->ntables - 1) / rn->s->ntables;
}

/*
 * Refuses at the start what would only fail at every table: a referee or
 * a bot command that cannot be executed, a missing working directory.
 */
static void
runner_checks(const struct tour *t)
{
	struct stat sb;
	char cause[512], *p;
	int i;

	p = referee_path(t->referee);
	if (!proc_findable(p, getenv("PATH") != NULL ? getenv("PATH") :
	    BOT_PATH))
		errx(1, "the referee %s cannot be executed (\"referee\", "
		    "--referee or CARDARENA_REFEREE name another)", p);
	free(p);
	/* A missing working directory or command would only show as a
	 * crash per game, or a referee failing at every table. */
	for (i = 0; i < t->nbots; i++) {
		if (pool_bot_check(t, i, cause, sizeof cause) == -1)
			errx(1, "bot %s: %s", t->bots[i].name, cause);
		if (t->bots[i].dir == NULL)
			continue;
		if (stat(t->bots[i].dir, &sb) == -1)
			err(1, "bot %s: \"dir\" %s", t->bots[i].name,
			    t->bots[i].dir);
		if (!S_ISDIR(sb.st_mode))
			errx(1, "bot %s: \"dir\" %s: not a directory",
			    t->bots[i].name, t->bots[i].dir);
	}
}

/*
 * Takes the output directory (or the job's journal) for this run, reads
 * the journal back (resuming) and opens it for appending; the lock's
 * descriptor.
 */
static int
runner_open(struct runner *rn)
{
	struct tour *t = rn->t;
	struct rate_opts lo = { 0, 2, NULL, 0, 1500, 1 };
	char cause[512];
	int i, created, lockfd;

	if (rn->o->job != NULL) {
		rn->header = json_incref(rn->o->job->header);
		rn->jpath = xstrdup(rn->o->job->journal);
	} else {
		rn->header = tour_header(rn->t, rn->s);
		if (rn->h != NULL && rn->h->header != NULL)
			rn->h->header(rn->h->arg, rn->header);
	}
	if (asprintf(&rn->logdir, "%s/logs", rn->t->outdir) == -1)
		err(1, "asprintf");
	if (mkdirs(rn->logdir) == -1)
		err(1, "%s", rn->logdir);
	if (rn->o->job != NULL) {
		/* Jobs share an output directory: one run per job. */
		if ((lockfd = open(rn->jpath, O_RDONLY | O_CREAT | O_CLOEXEC,
		    0600)) == -1)
			err(1, "%s", rn->jpath);
		if (flock(lockfd, LOCK_EX | LOCK_NB) == -1) {
			if (errno == EWOULDBLOCK)
				errx(1, "%s: job %ld is being run by another "
				    "process", rn->jpath, rn->o->job->index);
			err(1, "%s: lock", rn->jpath);
		}
	} else {
		/* One run at a time per output directory: two would play
		 * every game twice and write over each other's logs. */
		if ((lockfd = open(rn->t->outdir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			err(1, "%s", rn->t->outdir);
		if (flock(lockfd, LOCK_EX | LOCK_NB) == -1) {
			if (errno == EWOULDBLOCK)
				errx(1, "%s: another tournament run is using "
				    "this output directory", rn->t->outdir);
			err(1, "%s: lock", rn->t->outdir);
		}
	}
	if (rn->o->job != NULL) {
		/* the games before lo count as done, those from hi on do
		 * not exist */
		doneset_init(&rn->done, 1, rn->o->job->hi);
		rn->done.next[0] = rn->o->job->lo;
	} else
		doneset_init(&rn->done, rn->s->ntables, rn->gpt);
	rate_init(&rn->live, &lo);
	rn->live_idx = xcalloc((size_t)t->nbots, sizeof *rn->live_idx);
	for (i = 0; i < rn->t->nbots; i++)
		rn->live_idx[i] = rate_player(&rn->live,
		    rated_name(rn->header, rn->t->bots[i].name));
	if (read_journal(rn, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	if ((rn->jfd = journal_open(rn->jpath, &created, cause,
	    sizeof cause)) == -1)
		errx(1, "%s", cause);
	/* the header and a new journal's name are made durable by the
	 * first group commit, while the first referees start: a crash
	 * before it loses no game (an empty or torn journal is read as
	 * one not begun) */
	jsync_start(&rn->js, rn->jfd, rn->jpath, created);
	if (!rn->header_seen) {
		if (journal_write(rn->jfd, rn->header, cause,
		    sizeof cause) == -1)
			errx(1, "%s: %s", rn->jpath, cause);
		rn->unsynced = 1;
		rn->sync_due = now() + COMMIT_MS / 1000.0;
	}
	if (!rn->o->quiet && (rn->h == NULL || rn->h->sched == NULL))
		fprintf(stderr, "tournament %s: %s, %d bots, %d tables of %d "
		    "(%s), %ld games each, %ld games; %d at once\n",
		    rn->t->name, rn->t->game, rn->t->nbots, rn->s->ntables, rn->t->seats,
		    rn->s->all ? "every subset" : "balanced", rn->gpt, rn->total,
		    rn->jobs);
	if (rn->have > 0 && !rn->o->quiet)
		fprintf(stderr, "resuming: %ld games already in %s\n",
		    rn->have, rn->jpath);
	return lockfd;
}

/* Plays the runs left on the pool; how it ended (cause if full). */
static enum pool_end
runner_play(struct runner *rn, char *cause, size_t len)
{
	struct pool_source src;
	struct pool_opts po;

	rn->tty = rn->o->progress == -1 ? isatty(2) : rn->o->progress;
	rn->start = now();
	if (rn->t->seed_named && !rn->o->quiet && rn->o->job == NULL)
		warnx("%s names the seed %" PRIu64 ": whoever knows it (a bot's "
		    "author too) can compute every deal; leave \"seed\" out "
		    "for a fresh secret one", rn->t->path, rn->t->seed);
	contain_self();
	if (rn->t->sandbox == 2) {
		/* "auto": the sandbox where it can be made here */
		if (contain_check(cause, len) == 0) {
			tour_refarg(rn->t, "--sandbox", NULL);
			rn->t->sandbox = 1;
			rn->t->sandbox_checked = 1;
		} else {
			warnx("%s; the bots run without the sandbox", cause);
			rn->t->sandbox = 0;
		}
	} else if (rn->t->sandbox == 1 && contain_check(cause, len) == 0)
		/* checked once here, not by every referee run (where it
		 * does not work, each referee says so) */
		rn->t->sandbox_checked = 1;
	/* the referees say it in their stderr files, where no one looks
	 * (a sandbox, true or found by "auto", is --sandbox in refargs) */
	isolation_warn(rn->t->refargs, rn->t->nrefargs,
	    rn->h != NULL && rn->h->isolate != NULL ? rn->h->isolate :
	    "\"sandbox\": true isolates them");
	memset(&src, 0, sizeof src);
	src.next = src_next;
	src.game = src_game;
	src.end = src_end;
	src.tick = src_tick;
	src.due = src_due;
	src.arg = rn;
	memset(&po, 0, sizeof po);
	po.jobs = rn->jobs;
	po.quiet = rn->o->quiet;
	po.tty = rn->tty;
	po.what = "table";
	if (rn->aim)
		return POOL_AIM;
	return pool_play(rn->t, &po, &src, cause, len);
}

/*
 * Ends a run: says how it ended, renders the replays, writes the reports;
 * the exit status for main.
 */
static int
runner_finish(struct runner *rn, enum pool_end end, const char *cause)
{
	int n, status = 0;

	commit(rn, 1);
	jsync_stop(&rn->js);
	show(rn, 1);
	close(rn->jfd);
	if (end == POOL_FULL || rn->full[0] != '\0') {
		fprintf(stderr, "tournament: stopped at once: the disk is full "
		    "or cannot be written (%s); %ld of %ld games are kept in "
		    "%s; make room and run the same %s again to resume\n",
		    rn->full[0] != '\0' ? rn->full : cause, rn->have, rn->total,
		    rn->jpath, rn->o->job != NULL ? "job" : rn->h != NULL ? "command" :
		    "file");
		status = 1;
	} else if (end == POOL_SIGNAL) {
		fprintf(stderr, "stopped: %ld of %ld games in %s; run the same "
		    "%s again to resume\n", rn->have, rn->total, rn->jpath,
		    rn->o->job != NULL ? "job" : rn->h != NULL ? "command" : "file");
		status = 130;
	} else if (end != POOL_AIM && (pool_failures() > 0 ||
	    rn->have < rn->total)) {
		if (rn->o->job != NULL)
			fprintf(stderr, "tournament: job %ld: %ld of %ld games "
			    "played; the warnings above say why: once that "
			    "is mended, run the job again to play the rest\n",
			    rn->o->job->index, rn->have, rn->total);
		else
			fprintf(stderr, "tournament: %ld of %ld games played; "
			    "%ld run%s failed; the warnings above say why: "
			    "once that is mended, run the same file again to "
			    "play the rest\n", rn->have, rn->total,
			    pool_failures(), pool_failures() == 1 ? "" : "s");
		status = 1;
	}
	if (rn->o->job == NULL && (rn->o->replays || rn->t->replays) && rn->t->logs) {
		n = render_replays(rn->t, rn->s, rn->logdir);
		if (!rn->o->quiet && n > 0)
			fprintf(stderr, "replays: %d match log%s rendered as HTML "
			    "(%s/*.jsonl.html)\n", n, n == 1 ? "" : "s",
			    rn->logdir);
	}
	if (rn->full[0] == '\0' && end != POOL_FULL && rn->o->job == NULL &&
	    (rn->h == NULL || !rn->h->no_reports) && write_reports(rn) == -1 &&
	    status == 0)
		status = 1;
	if (!rn->o->quiet && rn->o->job == NULL && rn->h == NULL)
		printf("seed:    %" PRIu64 "%s\n", rn->t->seed, rn->t->seed_named ?
		    " (named in the file)" : " (drawn fresh, secret until now; "
		    "the journal keeps it)");
	return status;
}

/*
 * A chunk's play in seconds when "deals_per_run" is "auto":
 * $CARDARENA_RUN_SECONDS (0 ends an open run after its first game: the
 * tests' way to end runs on time without a clock), else CHUNK_SECONDS.
 */
static double
chunk_seconds(void)
{
	const char *v = getenv("CARDARENA_RUN_SECONDS");
	char *end;
	double x;

	if (v == NULL || *v == '\0')
		return CHUNK_SECONDS;
	errno = 0;
	x = strtod(v, &end);
	if (errno != 0 || *end != '\0' || !isfinite(x) || x < 0 || x > 86400)
		errx(2, "CARDARENA_RUN_SECONDS=%s: not a number of seconds "
		    "from 0 to 86400", v);
	return x;
}

/* Runs or resumes a tournament; see tournament.h. */
int
runner_run(struct tour *t, const struct runner_opts *o)
{
	struct runner rn;
	enum pool_end end;
	char cause[512];
	int lockfd, status;

	memset(&rn, 0, sizeof rn);
	rn.t = t;
	rn.o = o;
	rn.h = o->hooks;
	rn.jobs = o->jobs > 0 ? o->jobs : t->jobs;
	rn.gpt = tour_games_per_table(t);
	rn.per_round = rn.gpt / t->deals;
	rn.fixed = t->deals_per_run;
	rn.chunk_s = chunk_seconds();
	runner_tables(&rn);
	runner_checks(t);
	lockfd = runner_open(&rn);
	end = runner_play(&rn, cause, sizeof cause);
	status = runner_finish(&rn, end, cause);
	free(rn.jpath);
	free(rn.logdir);
	free(rn.live_idx);
	free(rn.next_deal);
	free(rn.chunks);
	if (rn.made)
		reports_free(&rn.pre);
	json_decref(rn.header);
	rate_free(&rn.live);
	doneset_free(&rn.done);
	schedule_free(&rn.own);
	close(lockfd);
	return status;
}
