/*
 * tournament ladder run --spool: the ladder's tables played as jobs by
 * workers it does not run itself (a Slurm array, GNU parallel here or over
 * ssh), the store, the pairing and the site staying on this host.  The
 * tables come from the same source as the pool's (ladder_run.c's next_run,
 * which records each in the store); each becomes a job line (jobline.h,
 * the format of `tournament plan`, with the build of the referee), the job
 * recorded in the store (table, games, line, fingerprint, when) before its
 * batch is written, SPOOL/batch-NNNNNN.jsonl (line i: array task i), and
 * the submit command run for it (sh -c, with PLAN, JOBS and OUT in its
 * environment; reaped, never waited for).  Workers run `tournament job`
 * into SPOOL/out/bNNNNNN/; the journals are read as they grow, each header
 * checked against the job the store holds (a journal of another job, or of
 * no job, is refused with one message and never read), each game committed
 * in its own transaction keyed by (table, game), so a game read twice
 * counts once.  A job whose journal stands still (or is missing) for the
 * timeout is lost: its table's games not yet in are planned again as a new
 * job; a table lost LREPLANS times ends as failed (its bots judged as a
 * failed table).  When a table ends, its games' logs are copied from the
 * spool into the ladder's logs (tab_logs), where the site links them and
 * replays are made of them as of a local table's log.  A submit command
 * that fails loses its batch's jobs that lack games at once (their tables'
 * losses not counted: no fault of their bots), and LSUBMIT_FAILS in a row
 * stop the run.  A run killed at any point leaves its jobs in the store:
 * the next run reads their journals and plans again what they lack, their
 * tables adopted by the source as its own (counted in play, judged at
 * their end); so are its tables with no job out that had not ended (their
 * games all in, their logs settling: they end, logs copied).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include "base/schedule.h"
#include "base/tfile.h"
#include "ladder/ladder_jobs.h"
#include "ladder/ladder_run.h"
#include "ladder/ladder_store.h"
#include "pool/jobline.h"
#include "proc.h"

#define LREPLANS	3	/* a table's jobs lost before it fails */
#define LPOLL_US	200000	/* between looks at the journals */
#define LSUBMIT_FAILS	3	/* submit commands failed in a row: stop */
#define LLOG_MAX	(256L << 20)	/* a job's log copied, at most */
#define LLOG_SETTLE	1.0	/* seconds a whole table's logs stand still */
#define LLOG_WAIT	10.0	/* (waited for at most) */

/* A table whose games are played as jobs. */
struct ltab {
	struct pool_run	 r;		/* the source's run, or made again */
	int		 mine;		/* r is the source's: its end is told */
	long		 ng;		/* its games */
	long		 have;		/* of them in the store */
	char		*taken;		/* ng flags: in the store */
	long		 vers[MAX_PLAYERS];	/* by seat of its tournament */
	char		*names[MAX_PLAYERS];
	int		 idx[MAX_PLAYERS];	/* loaded bot, or -1 */
	int		 out;		/* its jobs out */
	int		 lost;		/* its jobs lost */
	int		 again;		/* wants a job for what it lacks */
	double		 whole;		/* when its last game came in */
};

/* A job out. */
struct ljob {
	long		 id;		/* jobs.id */
	long		 lo, hi, batch, idx;
	char		*path;		/* its journal */
	json_t		*line;
	off_t		 size;		/* its journal's, when last read */
	ino_t		 ino;		/* its journal's file */
	off_t		 read;		/* the end of the lines taken */
	long		 readline;	/* (its line number) */
	double		 grew;		/* when it last grew (or was sent) */
	int		 refused;	/* its journal was refused (said) */
	struct ltab	*tb;
};

/* A submit command under way. */
struct lsub {
	pid_t		 pid;
	long		 batch;
};

struct spool {
	struct lstore		*s;
	struct tour		*t;
	int			 nv;
	const struct lrun_opts	*o;
	struct pool_source	*src;
	ljobs_commit		 commit;
	ljobs_adopt		 adopt;
	char			*dir, *out;	/* SPOOL, SPOOL/out: absolute */
	struct ljob		**j;
	int			 nj;
	struct ltab		**tb;
	int			 ntb;
	struct lsub		*sub;
	int			 nsub;
	long			 batch;		/* the next batch's number */
	long			 gpd;		/* games a deal */
	struct ljob		*cur;		/* the job being read */
	int			 aim;		/* the source asked to stop */
	int			 broken;	/* the store failed */
	char			**said;		/* journals refused, said once */
	int			 nsaid;
	int			 fails;		/* submit commands failed in a
						 * row */
	long			 nfails;	/* (in all) */
	char			 failed[160];	/* how the last failed */
};

static volatile sig_atomic_t	 got_signal;

static void	 on_signal(int);
static double	 now(void);
static struct ltab *tab_new(struct spool *, long, const struct pool_run *,
		    char *, size_t);
static void	 tab_free(struct spool *, struct ltab *, int);
static int	 resume(struct spool *, char *, size_t);
static int	 resume_ended(struct spool *, char *, size_t);
static int	 job_add(struct spool *, struct ltab *, json_t **, long *,
		    long *);
static json_t	*job_tournament(struct spool *, struct ltab *, json_t **,
		    char *, size_t);
static int	 submit(struct spool *, char *, size_t);
static int	 write_batch(struct spool *, int, json_t **, struct ltab **,
		    char *, size_t);
static void	 reap(struct spool *, int);
static void	 submit_failed(struct spool *, long, const char *);
static void	 look(struct spool *);
static int	 grew(struct spool *, struct ljob *);
static int	 read_job(struct spool *, struct ljob *);
static int	 take_header(void *, const json_t *, char *, size_t);
static int	 take_game(void *, const struct jgame *, char *, size_t);
static void	 bad_line(void *, long, const char *);
static void	 job_state(struct spool *, struct ljob *, const char *);
static void	 drop_job(struct spool *, int);
static void	 strangers(struct spool *, long);
static int	 said(struct spool *, const char *);
static const char *log_name(const char *);
static void	 tab_logs(struct spool *, struct ltab *);
static int	 copy_log(struct spool *, long, const char *);
static const char *log_src(long, const char *, long *);
static int	 settled(struct spool *, struct ltab *);

/* Notes a signal. */
static void
on_signal(int sig)
{
	got_signal = sig;
}

/* Monotonic seconds. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A table of the store (its seats, games and games already in): a new
 * ltab kept in the spool, the source's run r taken over (NULL: a table a
 * killed run left, which the source adopts when it can), or NULL and a
 * cause.
 */
static struct ltab *
tab_new(struct spool *sp, long table, const struct pool_run *r, char *cause,
    size_t len)
{
	sqlite3_stmt *st;
	struct ltab *tb;
	int i, k = 0;

	tb = xcalloc(1, sizeof *tb);
	if (r != NULL) {
		tb->r = *r;
		tb->mine = 1;
	}
	tb->r.table = table;
	if ((st = lstore_prep(sp->s, "SELECT hi FROM tables WHERE id = ?",
	    cause, len)) == NULL)
		goto bad;
	sqlite3_bind_int64(st, 1, table);
	if (sqlite3_step(st) == SQLITE_ROW)
		tb->ng = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	tb->taken = xcalloc((size_t)tb->ng + 1, 1);
	if ((st = lstore_prep(sp->s, "SELECT st.version, v.player FROM seats "
	    "st JOIN versions v ON v.id = st.version WHERE st.tab = ? ORDER "
	    "BY st.seat", cause, len)) == NULL)
		goto bad;
	sqlite3_bind_int64(st, 1, table);
	while (sqlite3_step(st) == SQLITE_ROW && k < MAX_PLAYERS) {
		tb->vers[k] = (long)sqlite3_column_int64(st, 0);
		tb->names[k] = xstrdup((const char *)sqlite3_column_text(st,
		    1));
		tb->idx[k] = -1;
		for (i = 0; i < sp->nv; i++)
			if (strcmp(sp->t->bots[i].name, tb->names[k]) == 0)
				tb->idx[k] = i;
		k++;
	}
	sqlite3_finalize(st);
	if (k != sp->t->seats || tb->ng <= 0) {
		snprintf(cause, len, "%s: table %ld has %d seats and %ld games, "
		    "not a table of this ladder", sp->s->path, table, k, tb->ng);
		goto bad;
	}
	if ((st = lstore_prep(sp->s, "SELECT game FROM games WHERE tab = ?",
	    cause, len)) == NULL)
		goto bad;
	sqlite3_bind_int64(st, 1, table);
	while (sqlite3_step(st) == SQLITE_ROW) {
		i = sqlite3_column_int(st, 0);
		if (i >= 0 && i < tb->ng && !tb->taken[i]) {
			tb->taken[i] = 1;
			tb->have++;
		}
	}
	sqlite3_finalize(st);
	/* counted in play and judged at its end as the source's own */
	if (r == NULL && sp->adopt(sp->src->arg, table, tb->idx, tb->ng -
	    tb->have, &tb->r) == 0)
		tb->mine = 1;
	sp->tb = xreallocarray(sp->tb, (size_t)sp->ntb + 1, sizeof *sp->tb);
	sp->tb[sp->ntb++] = tb;
	return tb;
bad:
	tb->mine = 0;
	tab_free(sp, tb, 0);
	return NULL;
}

/*
 * Ends a table (all its games in, or lost too often: failed): its games'
 * logs copied into the ladder's, the source told of its own, the store
 * of one a killed run left; freed.
 */
static void
tab_free(struct spool *sp, struct ltab *tb, int end)
{
	char cause[512];
	int i;

	if (end)
		tab_logs(sp, tb);
	if (end && tb->mine)
		sp->src->end(sp->src->arg, &tb->r, tb->ng - tb->have,
		    tb->have < tb->ng);
	else if (end && lstore_table_end(sp->s, tb->r.table, cause,
	    sizeof cause) == -1)
		warnx("%s", cause);
	for (i = 0; i < sp->ntb; i++)
		if (sp->tb[i] == tb) {
			sp->tb[i] = sp->tb[--sp->ntb];
			break;
		}
	for (i = 0; i < MAX_PLAYERS; i++)
		free(tb->names[i]);
	free(tb->r.list);
	free(tb->r.log);
	free(tb->taken);
	free(tb);
}

/*
 * Takes up the jobs a killed run left out (their tables from the store;
 * their journals are read at the next look): -1 and a cause.
 */
static int
resume(struct spool *sp, char *cause, size_t len)
{
	sqlite3_stmt *st;
	struct ljob *jb;
	struct ltab *tb;
	json_error_t je;
	long table;
	int i, rc = 0;

	sp->batch = lstore_scalar(sp->s, "SELECT coalesce(max(batch), 0) + 1 "
	    "FROM jobs");
	if ((st = lstore_prep(sp->s, "SELECT id, tab, lo, hi, batch, idx, "
	    "line FROM jobs WHERE state = 'out' ORDER BY id", cause,
	    len)) == NULL)
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		table = (long)sqlite3_column_int64(st, 1);
		for (tb = NULL, i = 0; i < sp->ntb; i++)
			if (sp->tb[i]->r.table == table)
				tb = sp->tb[i];
		if (tb == NULL && (tb = tab_new(sp, table, NULL, cause,
		    len)) == NULL) {
			rc = -1;
			break;
		}
		jb = xcalloc(1, sizeof *jb);
		jb->id = (long)sqlite3_column_int64(st, 0);
		jb->lo = (long)sqlite3_column_int64(st, 2);
		jb->hi = (long)sqlite3_column_int64(st, 3);
		jb->batch = (long)sqlite3_column_int64(st, 4);
		jb->idx = (long)sqlite3_column_int64(st, 5);
		jb->line = json_loads((const char *)sqlite3_column_text(st, 6),
		    0, &je);
		jb->tb = tb;
		jb->grew = now();
		tb->out++;
		if (asprintf(&jb->path, "%s/b%06ld/job-%06ld.jsonl", sp->out,
		    jb->batch, jb->idx) == -1)
			abort();
		sp->j = xreallocarray(sp->j, (size_t)sp->nj + 1,
		    sizeof *sp->j);
		sp->j[sp->nj++] = jb;
	}
	sqlite3_finalize(st);
	if (rc == 0 && sp->nj > 0 && !sp->o->quiet)
		fprintf(stderr, "ladder: %d job%s of a stopped run still out: "
		    "their journals are read, what they lack is played again "
		    "after %lds\n", sp->nj, sp->nj == 1 ? "" : "s",
		    LJOBS_TIMEOUT(sp->o));
	return rc == 0 ? resume_ended(sp, cause, len) : rc;
}

/*
 * Takes up the tables a killed run left with no job out but not ended
 * (killed while their logs settled, or before a lost job's games were
 * planned again): the first end here, their logs copied and their bots
 * judged; the others are planned again for what they lack.  -1 and a
 * cause.
 */
static int
resume_ended(struct spool *sp, char *cause, size_t len)
{
	sqlite3_stmt *st;
	int n = 0, rc = 0;

	/* (those with a job out resume took up) */
	if ((st = lstore_prep(sp->s, "SELECT id FROM tables WHERE ended IS "
	    "NULL AND id IN (SELECT tab FROM jobs) AND id NOT IN (SELECT tab "
	    "FROM jobs WHERE state = 'out') ORDER BY id", cause, len)) == NULL)
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		if (tab_new(sp, (long)sqlite3_column_int64(st, 0), NULL, cause,
		    len) == NULL)
			rc = -1;
		else
			n++;
	}
	sqlite3_finalize(st);
	if (rc == 0 && n > 0 && !sp->o->quiet)
		fprintf(stderr, "ladder: %d table%s of a stopped run with no "
		    "job out taken up: ended when whole (logs copied, bots "
		    "judged), else what %s lack%s is played again\n", n,
		    n == 1 ? "" : "s", n == 1 ? "it" : "they", n == 1 ? "s" :
		    "");
	return rc;
}

/*
 * The tournament of table tb as a job plays it (the settings, its bots
 * in seat order, its deals and the ladder's seed) and in *header its
 * journal header: new references, or NULL and a cause.
 */
static json_t *
job_tournament(struct spool *sp, struct ltab *tb, json_t **header,
    char *cause, size_t len)
{
	const struct lversion *vp[MAX_PLAYERS];
	struct lversion *all;
	struct schedule sch;
	struct tour t1;
	json_t *j = NULL;
	char seed[32], *in;
	int n, i, k, seats = sp->t->seats, one[MAX_PLAYERS];

	if (lstore_versions(sp->s, &all, &n, cause, len) == -1)
		return NULL;
	for (k = 0; k < seats; k++) {
		for (i = 0; i < n && all[i].id != tb->vers[k]; i++)
			;
		if (i == n) {
			snprintf(cause, len, "table %ld: version %ld is not "
			    "in the store", tb->r.table, tb->vers[k]);
			goto out;
		}
		vp[k] = &all[i];
	}
	if ((j = ladder_file(sp->s, vp, seats, cause, len)) == NULL)
		goto out;
	json_object_del(j, "output");
	/* and the spool (its plans hold the seed) and the inbox */
	json_array_append_new(json_object_get(j, "hide"),
	    json_string(sp->dir));
	if (sp->o->inbox != NULL && (in = realpath(sp->o->inbox, NULL)) !=
	    NULL) {
		json_array_append_new(json_object_get(j, "hide"),
		    json_string(in));
		free(in);
	}
	json_object_set_new(j, "name", json_string(sp->t->name));
	json_object_set_new(j, "deals", json_integer(tb->ng / sp->gpd));
	snprintf(seed, sizeof seed, "%" PRIu64, sp->t->seed);
	json_object_set_new(j, "seed", json_string(seed));
	if (tour_parse(&t1, j, sp->s->path, cause, len) == -1) {
		json_decref(j);
		j = NULL;
		goto out;
	}
	memset(&sch, 0, sizeof sch);
	sch.nbots = sch.seats = seats;
	sch.ntables = 1;
	for (k = 0; k < seats; k++)
		one[k] = k;
	sch.tab = one;
	*header = tour_header(&t1, &sch);
	/* the ladder's table numbers: its tables so far */
	json_object_set_new(*header, "tables", json_integer(tb->r.table + 1));
	tour_free(&t1);
out:
	lversions_free(all, n);
	return j;
}

/*
 * Adds to a batch a job for what table tb lacks (all its games when new):
 * its tournament and header in tj[0..1], its games in *lo, *hi; -1 when it
 * lacks nothing or cannot be made (said).
 */
static int
job_add(struct spool *sp, struct ltab *tb, json_t **tj, long *lo, long *hi)
{
	char cause[512];
	long g;

	for (g = 0; g < tb->ng && tb->taken[g]; g++)
		;
	if (g == tb->ng)
		return -1;
	*lo = g / sp->gpd * sp->gpd;
	for (g = tb->ng; g > *lo && tb->taken[g - 1]; g--)
		;
	*hi = (g + sp->gpd - 1) / sp->gpd * sp->gpd;
	if (*hi > tb->ng)
		*hi = tb->ng;
	if ((tj[0] = job_tournament(sp, tb, &tj[1], cause,
	    sizeof cause)) == NULL) {
		warnx("%s", cause);
		sp->broken = 1;
		return -1;
	}
	return 0;
}

/*
 * Plans the next batch: tables that lost a job first, then new ones from
 * the source, until LJOBS_WORKERS jobs are out; records the jobs in the
 * store, then writes the plan and runs the submit command.  -1 and a
 * cause (the store).
 */
static int
submit(struct spool *sp, char *cause, size_t len)
{
	struct pool_run r;
	struct ltab **want, *tb;
	json_t **tj, **lines;
	long *lo, *hi;
	int n = 0, i, rc = 0, cap = LJOBS_WORKERS(sp->o) - sp->nj;

	if (cap <= 0)
		return 0;
	want = xcalloc((size_t)cap, sizeof *want);
	tj = xcalloc((size_t)cap * 2, sizeof *tj);
	lines = xcalloc((size_t)cap, sizeof *lines);
	lo = xcalloc((size_t)cap, sizeof *lo);
	hi = xcalloc((size_t)cap, sizeof *hi);
	for (i = 0; i < sp->ntb && n < cap; i++) {
		tb = sp->tb[i];
		if (!tb->again || tb->out > 0)
			continue;
		tb->again = 0;
		if (job_add(sp, tb, &tj[2 * n], &lo[n], &hi[n]) == 0)
			want[n++] = tb;
	}
	while (n < cap && !sp->aim && !sp->broken) {
		memset(&r, 0, sizeof r);
		/* the pairing counts the tables out (inflight) */
		if ((rc = sp->src->next(sp->src->arg, &r)) != 1) {
			if (rc == -1)
				sp->aim = 1;
			rc = 0;
			break;
		}
		if ((tb = tab_new(sp, r.table, &r, cause, len)) == NULL) {
			rc = -1;
			break;
		}
		if (job_add(sp, tb, &tj[2 * n], &lo[n], &hi[n]) == 0)
			want[n++] = tb;
	}
	if (rc == 0 && n > 0) {
		for (i = 0; i < n; i++)
			lines[i] = jobline_make(i, n, want[i]->ng, sp->s->path,
			    want[i]->r.table, lo[i], hi[i], tj[2 * i],
			    tj[2 * i + 1], jobline_build(sp->t->referee));
		rc = write_batch(sp, n, lines, want, cause, len);
	}
	for (i = 0; i < n; i++) {
		json_decref(tj[2 * i]);
		json_decref(tj[2 * i + 1]);
		json_decref(lines[i]);
	}
	free(want);
	free(tj);
	free(lines);
	free(lo);
	free(hi);
	return rc;
}

/*
 * Records a batch's n jobs in the store (one transaction), then writes
 * its plan (aside, renamed in) and runs the submit command for it; -1
 * and a cause when the store or the spool cannot be written.
 */
static int
write_batch(struct spool *sp, int n, json_t **lines, struct ltab **want,
    char *cause, size_t len)
{
	sqlite3_stmt *st;
	struct ljob *jb;
	json_int_t lo, hi;
	char *plan, *tmp, *out, *text, num[32], how[128];
	FILE *fp;
	int i, fd;
	long b = sp->batch++;

	if (asprintf(&plan, "%s/batch-%06ld.jsonl", sp->dir, b) == -1 ||
	    asprintf(&tmp, "%s.tmp", plan) == -1 ||
	    asprintf(&out, "%s/b%06ld", sp->out, b) == -1)
		abort();
	if (lstore_exec(sp->s, "BEGIN IMMEDIATE", cause, len) == -1)
		return -1;
	if ((st = lstore_prep(sp->s, "INSERT INTO jobs (tab, lo, hi, batch, "
	    "idx, line, fingerprint, submitted) VALUES (?, ?, ?, ?, ?, ?, ?, "
	    "strftime('%s','now'))", cause, len)) == NULL) {
		lstore_exec(sp->s, "ROLLBACK", cause, len);
		return -1;
	}
	for (i = 0; i < n; i++) {
		json_unpack(json_object_get(lines[i], "games"), "[II]", &lo,
		    &hi);
		text = json_dumps(lines[i], JSON_COMPACT);
		jb = xcalloc(1, sizeof *jb);
		jb->lo = (long)lo;
		jb->hi = (long)hi;
		jb->batch = b;
		jb->idx = i;
		jb->line = json_incref(lines[i]);
		jb->tb = want[i];
		jb->grew = now();
		want[i]->out++;
		if (asprintf(&jb->path, "%s/job-%06d.jsonl", out, i) == -1)
			abort();
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, want[i]->r.table);
		sqlite3_bind_int64(st, 2, lo);
		sqlite3_bind_int64(st, 3, hi);
		sqlite3_bind_int64(st, 4, b);
		sqlite3_bind_int(st, 5, i);
		sqlite3_bind_text(st, 6, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 7, json_string_value(json_object_get(
		    lines[i], "fingerprint")), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE) {
			snprintf(cause, len, "%s: jobs: %s", sp->s->path,
			    sqlite3_errmsg(sp->s->db));
			free(text);
			sqlite3_finalize(st);
			lstore_exec(sp->s, "ROLLBACK", num, sizeof num);
			return -1;
		}
		jb->id = (long)sqlite3_last_insert_rowid(sp->s->db);
		free(text);
		sp->j = xreallocarray(sp->j, (size_t)sp->nj + 1,
		    sizeof *sp->j);
		sp->j[sp->nj++] = jb;
	}
	sqlite3_finalize(st);
	if (lstore_exec(sp->s, "COMMIT", cause, len) == -1)
		return -1;
	/* the plan holds the seeds: the spool is the ladder's alone */
	if (mkdirs(out) == -1) {
		snprintf(cause, len, "%s: %s", out, strerror(errno));
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		snprintf(cause, len, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (json_dumpf(lines[i], fp, JSON_COMPACT) == -1 ||
		    fputc('\n', fp) == EOF)
			break;
	if (i < n || fflush(fp) == EOF || fsync(fileno(fp)) == -1 ||
	    fclose(fp) == EOF || rename(tmp, plan) == -1) {
		snprintf(cause, len, "%s: %s", plan, strerror(errno));
		return -1;
	}
	if (!sp->o->quiet)
		fprintf(stderr, "ladder: batch %ld: %d job%s in %s\n", b, n,
		    n == 1 ? "" : "s", plan);
	if (sp->o->submit != NULL) {
		char *argv[] = { (char *)"/bin/sh", (char *)"-c",
		    (char *)sp->o->submit, (char *)"sh", NULL };

		snprintf(num, sizeof num, "%d", n);
		/* what the command is given, in its environment */
		if (setenv("PLAN", plan, 1) == -1 || setenv("JOBS", num,
		    1) == -1 || setenv("OUT", out, 1) == -1)
			err(1, "setenv");
		sp->sub = xreallocarray(sp->sub, (size_t)sp->nsub + 1,
		    sizeof *sp->sub);
		sp->sub[sp->nsub].batch = b;
		/* what it says (sbatch: the job's number) goes to our stderr */
		if ((sp->sub[sp->nsub].pid = proc_helper(argv, -1,
		    STDERR_FILENO, -1, NULL)) == -1) {
			snprintf(how, sizeof how, "could not be started (%s)",
			    strerror(errno));
			submit_failed(sp, b, how);
		} else
			sp->nsub++;
	}
	free(plan);
	free(tmp);
	free(out);
	return 0;
}

/*
 * Reaps the submit commands that ended (with wait, all of them): one
 * that failed is submit_failed's, one that did not ends a row of
 * failures.
 */
static void
reap(struct spool *sp, int wait)
{
	char how[128];
	long b;
	int i, status;
	pid_t p;

	for (i = 0; i < sp->nsub; i++) {
		while ((p = waitpid(sp->sub[i].pid, &status, wait ? 0 :
		    WNOHANG)) == -1 && errno == EINTR)
			;
		if (p == 0)
			continue;
		b = sp->sub[i].batch;
		sp->sub[i--] = sp->sub[--sp->nsub];
		if (p > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			sp->fails = 0;
			continue;
		}
		if (p == -1)
			snprintf(how, sizeof how, "could not be waited for "
			    "(%s)", strerror(errno));
		else if (WIFEXITED(status))
			snprintf(how, sizeof how, "exited with status %d",
			    WEXITSTATUS(status));
		else
			snprintf(how, sizeof how, "was killed by signal %d",
			    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		submit_failed(sp, b, how);
	}
}

/*
 * Takes batch b's submit command's failure (how: its exit status, or
 * why it could not start), said and counted at once: the batch's
 * journals are read once more and its jobs that lack games are lost and
 * planned again now, not after the timeout (their games in are kept, a
 * game played twice counts once; a table's losses count only timeouts,
 * no fault of its bots).  The LSUBMIT_FAILS-th failure in a row leaves
 * its jobs out, for the next run, and stops the run (the caller).
 */
static void
submit_failed(struct spool *sp, long b, const char *how)
{
	struct ljob *jb;
	int i, n = 0;

	sp->fails++;
	sp->nfails++;
	snprintf(sp->failed, sizeof sp->failed, "batch %ld: it %s", b, how);
	if (sp->fails >= LSUBMIT_FAILS) {
		warnx("batch %ld: the submit command %s (%d failures in a "
		    "row)", b, how, sp->fails);
		return;
	}
	for (i = 0; i < sp->nj && !sp->broken; i++) {
		jb = sp->j[i];
		if (jb->batch != b || grew(sp, jb) == -1)
			continue;
		if (memchr(jb->tb->taken + jb->lo, 0, (size_t)(jb->hi -
		    jb->lo)) == NULL)
			continue;
		job_state(sp, jb, "lost");
		jb->tb->again = 1;
		drop_job(sp, i--);
		n++;
	}
	warnx("batch %ld: the submit command %s (%d failure%s in a row, %ld "
	    "in all): its %d job%s with games missing %s planned again now",
	    b, how, sp->fails, sp->fails == 1 ? "" : "s", sp->nfails, n,
	    n == 1 ? "" : "s", n == 1 ? "is" : "are");
}

/*
 * Reads job jb's journal on when it grew (from its start when it is
 * another file, or cut): 0, -1 when refused or the store failed.
 */
static int
grew(struct spool *sp, struct ljob *jb)
{
	struct stat sb;

	if (jb->refused || stat(jb->path, &sb) == -1 || sb.st_size ==
	    jb->size)
		return 0;
	jb->grew = now();
	/* another file, or cut: read from its start */
	if (sb.st_ino != jb->ino || sb.st_size < jb->size)
		jb->read = jb->readline = 0;
	jb->ino = sb.st_ino;
	jb->size = sb.st_size;
	return read_job(sp, jb);
}

/*
 * Looks at every job out: reads the journals that grew, marks the jobs
 * done whose games are all in, the tables ended whose games are, and
 * the jobs lost whose journal stood still for the timeout.
 */
static void
look(struct spool *sp)
{
	struct ljob *jb;
	struct ltab *tb;
	long lastb = -1;
	int i;

	for (i = 0; i < sp->nj && !sp->broken; i++) {
		jb = sp->j[i];
		if (jb->batch != lastb)
			strangers(sp, lastb = jb->batch);
		if (grew(sp, jb) == -1)
			continue;
		tb = jb->tb;
		if (tb->have == tb->ng || memchr(tb->taken + jb->lo, 0,
		    (size_t)(jb->hi - jb->lo)) == NULL) {
			job_state(sp, jb, "done");
			drop_job(sp, i--);
		} else if (now() - jb->grew > (double)LJOBS_TIMEOUT(sp->o)) {
			if (!sp->o->quiet)
				fprintf(stderr, "ladder: job %ld (batch %ld "
				    "line %ld, table %ld) %s for %lds: its "
				    "games missing are played again\n", jb->id,
				    jb->batch, jb->idx, tb->r.table, jb->size >
				    0 ? "stood still" : "wrote no journal",
				    LJOBS_TIMEOUT(sp->o));
			job_state(sp, jb, "lost");
			tb->lost++;
			tb->again = 1;
			drop_job(sp, i--);
		}
	}
	for (i = 0; i < sp->ntb; i++) {
		tb = sp->tb[i];
		if (tb->out > 0)
			continue;
		if (tb->have == tb->ng || tb->lost >= LREPLANS) {
			/* whole: its logs copied when whole too */
			if (tb->have == tb->ng && !settled(sp, tb))
				continue;
			if (tb->have < tb->ng)
				warnx("table %ld: %d jobs lost, %ld of its %ld "
				    "games not played; it ends as failed",
				    tb->r.table, tb->lost, tb->ng - tb->have,
				    tb->ng);
			tab_free(sp, tb, 1);
			i--;
		} else
			tb->again = 1;
	}
}

/*
 * Reads what a job's journal gained since it was last read: its header
 * (on a first read) must be its job's, then each game not yet in is
 * committed; -1 when refused (said once) or the store failed.
 */
static int
read_job(struct spool *sp, struct ljob *jb)
{
	struct jreader jr;
	char cause[1024];
	int rc;

	memset(&jr, 0, sizeof jr);
	jr.header = take_header;
	jr.game = take_game;
	jr.warn = bad_line;
	jr.arg = sp;
	jr.from = jb->read;
	jr.from_line = jb->readline;
	sp->cur = jb;
	rc = journal_read(jb->path, &jr, cause, sizeof cause);
	sp->cur = NULL;
	if (rc == 0) {
		jb->read = jr.upto;
		jb->readline = jr.upto_line;
		return 0;
	}
	if (jb->refused) {
		warnx("%s", cause);
		return -1;
	}
	if (errno == ENOENT)
		return 0;
	warnx("%s", cause);
	sp->broken = 1;
	return -1;
}

/* A journal's header: the job the store holds, or refused. */
static int
take_header(void *arg, const json_t *h, char *cause, size_t len)
{
	struct spool *sp = arg;
	struct ljob *jb = sp->cur;
	json_t *plan, *line;
	int same;

	plan = json_object_get(h, "plan");
	line = plan != NULL ? jobline_of_header(plan, h) : NULL;
	same = line != NULL && json_equal(line, jb->line);
	json_decref(line);
	if (same)
		return 0;
	jb->refused = 1;
	snprintf(cause, len, "%s: refused: its header's plan line is not the "
	    "one of job %ld (batch %ld line %ld, table %ld games %ld-%ld) "
	    "that the ladder wrote; it is not read, the job is played again "
	    "after %lds", jb->path, jb->id, jb->batch, jb->idx,
	    jb->tb->r.table, jb->lo, jb->hi - 1, LJOBS_TIMEOUT(sp->o));
	return -1;
}

/*
 * A journal's game: one of its job's, with the bots its table seats
 * (rotated by deal when duplicate), committed unless already in.
 */
static int
take_game(void *arg, const struct jgame *jg, char *cause, size_t len)
{
	struct spool *sp = arg;
	struct ljob *jb = sp->cur;
	struct ltab *tb = jb->tb;
	struct jgame c;
	json_t *line, *j = NULL;
	json_error_t je;
	long vers[MAX_PLAYERS];
	int idx[MAX_PLAYERS], s, b, rc;
	char *log = NULL;

	if (jg->table != tb->r.table || jg->game < jb->lo ||
	    jg->game >= jb->hi || jg->k != sp->t->seats) {
		warnx("%s: table %ld game %ld is not one of its job's; "
		    "refused", jb->path, jg->table, jg->game);
		return 0;
	}
	if (tb->taken[jg->game])
		return 0;
	for (s = 0; s < jg->k; s++) {
		b = sp->t->duplicate ? (int)((s - jg->game % jg->k + jg->k) %
		    jg->k) : s;
		if (strcmp(jg->bots[s], tb->names[b]) != 0) {
			warnx("%s: game %ld: %s at seat %d, its table seats "
			    "%s there; refused", jb->path, jg->game,
			    jg->bots[s], s, tb->names[b]);
			return 0;
		}
		vers[s] = tb->vers[b];
		idx[s] = tb->idx[b];
	}
	/* its seed as it was written; its log the name of the copy its
	 * table's end makes (tab_logs) */
	if (jg->line == NULL && (j = json_loadb(jg->text, jg->textlen, 0,
	    &je)) == NULL) {
		snprintf(cause, len, "%s: %s", jb->path, je.text);
		return -1;
	}
	c = *jg;
	if (jg->log != NULL && log_name(jg->log) != NULL &&
	    strlen(jg->log) <= 200 && asprintf(&log, "logs/t%06ld.b%06ld.%s",
	    tb->r.table, jb->batch, log_name(jg->log)) == -1)
		abort();
	c.log = log;
	line = jgame_json(&c, json_object_get(j != NULL ? j : jg->line,
	    "seed"));
	rc = sp->commit(sp->src->arg, &tb->r, &c, idx, vers, line, cause,
	    len);
	json_decref(line);
	json_decref(j);
	free(log);
	if (rc == -1) {
		sp->broken = 1;
		return -1;
	}
	tb->taken[jg->game] = 1;
	tb->have++;
	if (rc == 1)
		sp->aim = 2;
	return 0;
}

/* A damaged line of a journal: said, skipped. */
static void
bad_line(void *arg, long lineno, const char *cause)
{
	struct spool *sp = arg;

	warnx("%s:%ld: damaged line skipped (%s)", sp->cur->path, lineno,
	    cause);
}

/* Sets a job's state in the store. */
static void
job_state(struct spool *sp, struct ljob *jb, const char *state)
{
	sqlite3_stmt *st;
	char cause[512];

	if ((st = lstore_prep(sp->s, "UPDATE jobs SET state = ? WHERE id = ?",
	    cause, sizeof cause)) == NULL) {
		warnx("%s", cause);
		return;
	}
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, jb->id);
	if (sqlite3_step(st) != SQLITE_DONE)
		warnx("%s: jobs: %s", sp->s->path, sqlite3_errmsg(sp->s->db));
	sqlite3_finalize(st);
}

/* Takes job i off the jobs out. */
static void
drop_job(struct spool *sp, int i)
{
	struct ljob *jb = sp->j[i];

	jb->tb->out--;
	memmove(&sp->j[i], &sp->j[i + 1], (size_t)(sp->nj - i - 1) *
	    sizeof *sp->j);
	sp->nj--;
	free(jb->path);
	json_decref(jb->line);
	free(jb);
}

/*
 * Refuses, once each, the journals in batch b's directory that are no
 * job of the store (another table, another ladder's): never read.
 */
static void
strangers(struct spool *sp, long b)
{
	sqlite3_stmt *st;
	struct dirent *de;
	char *dir, *path, *end, cause[512];
	long idx;
	DIR *d;
	int known;

	if (asprintf(&dir, "%s/b%06ld", sp->out, b) == -1)
		abort();
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "job-", 4) != 0)
			continue;
		idx = strtol(de->d_name + 4, &end, 10);
		if (strcmp(end, ".jsonl") != 0)
			continue;
		if ((st = lstore_prep(sp->s, "SELECT count(*) FROM jobs WHERE "
		    "batch = ? AND idx = ?", cause, sizeof cause)) == NULL)
			break;
		sqlite3_bind_int64(st, 1, b);
		sqlite3_bind_int64(st, 2, idx);
		known = sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int(st, 0) > 0;
		sqlite3_finalize(st);
		if (known)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) == -1)
			abort();
		if (!said(sp, path))
			warnx("%s: refused: no job of the ladder writes it (a "
			    "table the ladder does not know, or another "
			    "ladder's); it is not read", path);
		free(path);
	}
	closedir(d);
	free(dir);
}

/* 1 if path was said already (else it is noted, 0). */
static int
said(struct spool *sp, const char *path)
{
	int i;

	for (i = 0; i < sp->nsaid; i++)
		if (strcmp(sp->said[i], path) == 0)
			return 1;
	sp->said = xreallocarray(sp->said, (size_t)sp->nsaid + 1,
	    sizeof *sp->said);
	sp->said[sp->nsaid++] = xstrdup(path);
	return 0;
}

/*
 * The name of a worker's log (logs/NAME, as tournament job names it,
 * NAME of letters, digits, '.', '-' and '_', not beginning with '.',
 * ending in .jsonl), or NULL for any other: a journal names it, and a
 * journal is a worker's.
 */
static const char *
log_name(const char *log)
{
	const char *p;
	size_t n;

	if (strncmp(log, "logs/", 5) != 0)
		return NULL;
	log += 5;
	n = strlen(log);
	if (n <= 6 || n > 230 || log[0] == '.' ||
	    strcmp(log + n - 6, ".jsonl") != 0)
		return NULL;
	for (p = log; *p != '\0'; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789._-", *p) == NULL)
			return NULL;
	return log;
}

/*
 * Copies the logs of table tb's games, played by workers, from the spool
 * into the ladder's logs (the names their games' lines give), where the
 * site links them and their replays are made as a local table's: at its
 * end, as a local table's are published.
 */
static void
tab_logs(struct spool *sp, struct ltab *tb)
{
	sqlite3_stmt *st;
	char cause[512];

	if ((st = lstore_prep(sp->s, "SELECT DISTINCT log FROM games WHERE "
	    "tab = ? AND log LIKE 'logs/t%.b%'", cause, sizeof cause)) ==
	    NULL) {
		warnx("%s", cause);
		return;
	}
	sqlite3_bind_int64(st, 1, tb->r.table);
	while (sqlite3_step(st) == SQLITE_ROW)
		copy_log(sp, tb->r.table, (const char *)sqlite3_column_text(st,
		    0));
	sqlite3_finalize(st);
}

/*
 * Copies log (logs/tTTTTTT.bBBBBBB.NAME, a game's of the store) from
 * its job's batch directory (SPOOL/out/bBBBBBB/logs/NAME) into the
 * ladder's logs under that name: a regular file of at most LLOG_MAX
 * bytes, every part of its path below the spool's out opened without
 * following a link (a worker or a bot may have planted one), written
 * aside and renamed in; 0, or -1 (said).
 */
static int
copy_log(struct spool *sp, long table, const char *log)
{
	struct stat sb;
	char part[32], *dst = NULL, *tmp = NULL, buf[65536];
	const char *what = NULL, *name;
	ssize_t n;
	off_t total = 0;
	long batch;
	int dir, from = -1, to = -1, logs = -1, rc = -1;

	/* (log_name: no '/', only letters, digits and ._-) */
	if ((name = log_src(table, log, &batch)) == NULL)
		return -1;	/* not a job's log the ladder named */
	snprintf(part, sizeof part, "b%06ld", batch);
	if ((dir = open(sp->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (logs = openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		what = strerror(errno);
		goto out;
	}
	close(dir);
	dir = logs;
	if ((logs = openat(dir, "logs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (from = openat(logs, name,
	    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) == -1) {
		what = errno == ELOOP ? "a symbolic link" : strerror(errno);
		goto out;
	}
	if (fstat(from, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		what = "not a regular file";
		goto out;
	}
	if (sb.st_size > LLOG_MAX) {
		what = "larger than its bound";
		goto out;
	}
	if (asprintf(&dst, "%s/%s", sp->s->dir, log) == -1 ||
	    asprintf(&tmp, "%s.tmp", dst) == -1)
		abort();
	if ((to = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0644)) == -1) {
		warn("%s", tmp);
		goto out;
	}
	/* what it holds now, bounded: a worker may still write it */
	while ((n = read(from, buf, sizeof buf)) > 0 && total <= LLOG_MAX) {
		total += n;
		if (write(to, buf, (size_t)n) != n) {
			warn("%s", tmp);
			goto out;
		}
	}
	if (n == -1 || total > LLOG_MAX) {
		what = n == -1 ? strerror(errno) : "larger than its bound";
		goto out;
	}
	if (close(to) == -1 || rename(tmp, dst) == -1) {
		to = -1;
		warn("%s", dst);
		goto out;
	}
	to = -1;
	rc = 0;
out:
	if (what != NULL)
		warnx("%s/%s/logs/%s: not copied into the ladder's logs (%s; "
		    "a regular file of at most %ld MiB is): its games have no "
		    "log there", sp->out, part, name, what, LLOG_MAX >> 20);
	if (to != -1)
		close(to);
	if (rc == -1 && tmp != NULL)
		unlink(tmp);
	if (from != -1)
		close(from);
	if (logs != -1)
		close(logs);
	if (dir != -1)
		close(dir);
	free(dst);
	free(tmp);
	return rc;
}

/*
 * The worker's name of log (logs/tTTTTTT.bBBBBBB.NAME, a game's of table
 * in the store): NAME, its batch in *batch; NULL for any other.
 */
static const char *
log_src(long table, const char *log, long *batch)
{
	char *end;

	/* (log_name: no '/', only letters, digits and ._-) */
	if (log_name(log) == NULL || strncmp(log, "logs/t", 6) != 0 ||
	    strtol(log + 6, &end, 10) != table || strncmp(end, ".b", 2) != 0 ||
	    (*batch = strtol(end + 2, &end, 10)) <= 0 || *end != '.' ||
	    end[1] == '.' || strlen(end + 1) <= 6)
		return NULL;
	return end + 1;
}

/*
 * 1 when the logs of table tb, whose games are all in, are whole: a
 * worker's referee writes a log's end (the match's result) after its last
 * game, so they are copied when they have stood still for LLOG_SETTLE
 * seconds (or are gone), or LLOG_WAIT after its last game came in; else 0.
 */
static int
settled(struct spool *sp, struct ltab *tb)
{
	sqlite3_stmt *st;
	struct timespec ts;
	struct stat sb;
	const char *name;
	char cause[512], *path;
	long batch;
	int rc = 1;

	if (tb->whole == 0)
		tb->whole = now();
	if (now() - tb->whole > LLOG_WAIT)
		return 1;
	if ((st = lstore_prep(sp->s, "SELECT DISTINCT log FROM games WHERE "
	    "tab = ? AND log LIKE 'logs/t%.b%'", cause, sizeof cause)) ==
	    NULL)
		return 1;
	sqlite3_bind_int64(st, 1, tb->r.table);
	clock_gettime(CLOCK_REALTIME, &ts);
	while (rc && sqlite3_step(st) == SQLITE_ROW) {
		if ((name = log_src(tb->r.table, (const char *)
		    sqlite3_column_text(st, 0), &batch)) == NULL)
			continue;
		if (asprintf(&path, "%s/b%06ld/logs/%s", sp->out, batch,
		    name) == -1)
			abort();
		if (lstat(path, &sb) == 0 && (double)(ts.tv_sec -
		    sb.st_mtim.tv_sec) + (ts.tv_nsec - sb.st_mtim.tv_nsec) /
		    1e9 < LLOG_SETTLE)
			rc = 0;
		free(path);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Plays the tables as jobs; see ladder_jobs.h. */
enum pool_end
ljobs_play(struct lstore *s, struct tour *t, int nv,
    const struct lrun_opts *o, struct pool_source *src, ljobs_commit commit,
    ljobs_adopt adopt, char *cause, size_t len)
{
	struct spool sp;
	enum pool_end end;
	int i;

	memset(&sp, 0, sizeof sp);
	sp.s = s;
	sp.t = t;
	sp.nv = nv;
	sp.o = o;
	sp.src = src;
	sp.commit = commit;
	sp.adopt = adopt;
	sp.gpd = t->duplicate ? t->seats : 1;
	/* the plans hold the seeds: the spool is the ladder's alone */
	if (mkdirs(o->spool) == -1 || chmod(o->spool, 0700) == -1 ||
	    (sp.dir = realpath(o->spool, NULL)) == NULL) {
		snprintf(cause, len, "%s: %s", o->spool, strerror(errno));
		return POOL_FULL;
	}
	if (asprintf(&sp.out, "%s/out", sp.dir) == -1)
		abort();
	if (mkdirs(sp.out) == -1) {
		snprintf(cause, len, "%s: %s", sp.out, strerror(errno));
		end = POOL_FULL;
		goto out;
	}
	if (resume(&sp, cause, len) == -1) {
		end = POOL_FULL;
		goto out;
	}
	got_signal = 0;
	proc_catch(on_signal);
	for (;;) {
		reap(&sp, 0);
		if (sp.fails >= LSUBMIT_FAILS) {
			snprintf(cause, len, "the submit command failed %d "
			    "times in a row (the last, %s): stopping; the "
			    "jobs of its last batch stay out for the next run",
			    sp.fails, sp.failed);
			end = POOL_FULL;
			break;
		}
		look(&sp);
		if (sp.broken) {
			snprintf(cause, len, "%s: the ladder's store or spool "
			    "failed (said above)", s->dir);
			end = POOL_FULL;
			break;
		}
		if (sp.aim == 2) {
			end = POOL_AIM;
			break;
		}
		if (got_signal) {
			end = POOL_SIGNAL;
			break;
		}
		if (submit(&sp, cause, len) == -1) {
			end = POOL_FULL;
			break;
		}
		if (sp.aim && sp.nj == 0 && sp.ntb == 0) {
			end = POOL_DONE;
			break;
		}
		if (src->tick != NULL)
			src->tick(src->arg);
		usleep(LPOLL_US);
	}
	/* the jobs out stay in the store: the next run takes them up */
	while (sp.nj > 0) {
		sp.j[sp.nj - 1]->tb->out = 1;
		drop_job(&sp, sp.nj - 1);
	}
	/* a table whose games are all in ends, its logs copied when whole
	 * (as they are after a signal: a stop is prompt) */
	for (i = 0; i < sp.ntb; i++)
		if (end != POOL_SIGNAL && sp.tb[i]->have == sp.tb[i]->ng &&
		    !settled(&sp, sp.tb[i])) {
			usleep(LPOLL_US);
			i = -1;
		}
	while (sp.ntb > 0)
		tab_free(&sp, sp.tb[sp.ntb - 1], sp.tb[sp.ntb - 1]->have ==
		    sp.tb[sp.ntb - 1]->ng);
	if (!o->quiet && sp.nsub > 0)
		fprintf(stderr, "ladder: %d submit command%s still running "
		    "left to finish\n", sp.nsub, sp.nsub == 1 ? "" : "s");
out:
	for (i = 0; i < sp.nsaid; i++)
		free(sp.said[i]);
	free(sp.said);
	free(sp.sub);
	free(sp.j);
	free(sp.tb);
	free(sp.dir);
	free(sp.out);
	return end;
}
