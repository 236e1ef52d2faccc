/*
 * The runner of `tournament run`: makes the schedule, reads the journal
 * (resuming: games already there are skipped, a torn last line is cut
 * away), then plays round by round across the tables, as fastchess plays
 * rounds: one bin/referee per (table, deal), deal 0 of every table, then
 * deal 1 of every table, and so on, at most `jobs` at once, each with the
 * games of that deal that are left (--game-list), its bots spawned once
 * for them.  No deal is begun more than one deal beyond the oldest still
 * being played (ceil(jobs / tables) deals when there are more jobs than
 * tables), so a slow table holds the others back instead of falling
 * behind: a stopped or still-running tournament has played every table
 * about equally far and its standings are fair at any moment.  Each
 * referee writes one --results line per
 * finished game to a pipe; every complete line becomes one journal line,
 * written whole at once, so a kill -9 at any moment loses at most games
 * that will be played again.  The journal is fsynced in groups (group
 * commit): at most COMMIT_GAMES games or COMMIT_MS milliseconds after the
 * first game not yet synced, and before the run ends, so a crash of the
 * machine loses at most that much, played again on resume.  A referee
 * dies with us (PR_SET_PDEATHSIG).  Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops
 * cleanly: the referees are told to stop (their unfinished game is
 * discarded), the games they finished are kept, and the run can be
 * resumed; a second one kills them at once.  A full disk (a journal line
 * that cannot be written, a referee that exits with status 3) stops the
 * run the same way at once, keeping what is journalled.  Progress goes to
 * stderr: a
 * live status line on a terminal, plain log lines otherwise.  At the end
 * the whole journal is rated and every report format is written into the
 * output directory.  Memory is bounded by the bots, the tables and the
 * concurrency, not by the number of games.
 */
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"
#include "tournament.h"
#include "match.h"

#define RLINE_MAX	65536		/* longest --results line we take */
#define TICK_MS		250
#define PLAIN_EVERY	10.0		/* seconds between plain log lines */
#define COMMIT_GAMES	100		/* games per journal fsync, at most */
#define COMMIT_MS	100		/* ms a written game waits for fsync */

static const char *const ref_faults[] = {
	"timeout", "exit", "malformed", "line_too_long", "wrong_id", "illegal",
	"limit", NULL
};
static const enum tfault ref_fault_kind[] = {
	TF_TIMEOUT, TF_CRASH, TF_ILLEGAL, TF_ILLEGAL, TF_ILLEGAL, TF_ILLEGAL,
	TF_LIMIT
};

struct slot {
	int	 busy;
	long	 table;
	long	 deal;
	pid_t	 pid;
	int	 fd;		/* the referee's --results pipe */
	char	*buf;
	size_t	 len;
	int	 skipping;	/* inside an over-long line */
	long	 left;		/* games of this run not yet reported */
	char	*log;		/* relative to the output directory */
	char	*errpath;
};

struct runner {
	struct tour		*t;
	const struct run_opts	*o;
	struct schedule		 s;
	struct doneset		 done;
	long			 gpt;
	long			 total, have, fresh;
	int			 jfd;
	long			 unsynced;	/* games written, not fsynced */
	double			 sync_due;	/* when they must be */
	char			*jpath;
	char			*logdir;
	char			*referee;
	json_t			*header;
	int			 header_seen;
	struct slot		*slots;
	int			 jobs, running;
	long			 per_round;	/* games of one deal */
	long			 cursor;	/* next (deal, table) to play */
	long			 lead;		/* deals a table may run ahead */
	long			 failures;
	struct rating		 live;
	int			*live_idx;	/* tournament bot -> live index */
	int			 tty, stopping;
	char			 full[512];	/* why the disk is full */
	double			 start, last_show;
	double			 next_fit;	/* when to refit the live table */
	int			 live_ok;	/* it was fitted */
	long			 shown;		/* games at the last show */
};

static volatile sig_atomic_t	 got_signal;

static long	 table_id(const struct runner *, long);
static void	 on_signal(int);
static double	 now(void);
static int	 read_journal(struct runner *, char *, size_t);
static int	 check_header(void *, const json_t *, char *, size_t);
static int	 resume_game(void *, const struct jgame *, char *, size_t);
static void	 skip_warn(void *, long, const char *);
static char	*quote(const char *);
static char	*bot_command(const struct tbot *);
static long	 round_left(const struct runner *, long, long);
static long	 oldest_deal(const struct runner *);
static int	 start_table(struct runner *, struct slot *, long, long);
static void	 read_slot(struct runner *, struct slot *);
static void	 results_line(struct runner *, struct slot *, char *);
static int	 running_referee(pid_t);

static struct runner	*sweeping;	/* for running_referee */
static void	 end_slot(struct runner *, struct slot *);
static void	 stop_full(struct runner *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	 show(struct runner *, int);
static int	 write_reports(struct runner *);
static void	 fmt_time(double, char *, size_t);
static void	 commit(struct runner *, int);

/* The number of schedule table tb in the whole tournament. */
static long
table_id(const struct runner *rn, long tb)
{
	return rn->o->job != NULL ? rn->o->job->table : tb;
}

/* Notes a stopping signal (ppoll wakes up for it). */
static void
on_signal(int sig)
{
	got_signal = sig;
}

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Makes a directory and its parents; -1 and errno. */
int
mkdirs(const char *path)
{
	char *p, *q, c;
	int rc = 0;

	p = xstrdup(path);
	for (q = p + 1; rc == 0; q++) {
		if (*q != '/' && *q != '\0')
			continue;
		c = *q;
		*q = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			rc = -1;
		*q = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

void
isolation_warn(char *const *args, int n, const char *remedy)
{
	char cause[256];
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(args[i], "--sandbox") == 0 ||
		    strcmp(args[i], "--bot-user=same") == 0 ||
		    (strcmp(args[i], "--bot-user") == 0 && i + 1 < n &&
		    strcmp(args[i + 1], "same") == 0))
			return;
	if (contain_isolation_check(cause, sizeof cause) == -1)
		warnx("%s; %s", cause, remedy);
}

/*
 * The referee to run: the one given (a file's "referee", a command line's
 * --referee), else $CARDARENA_REFEREE, else the referee beside this
 * program, else "referee" from PATH.
 */
char *
referee_path(const char *given)
{
	char *path;

	if (given != NULL)
		return xstrdup(given);
	if ((path = getenv("CARDARENA_REFEREE")) != NULL && *path != '\0')
		return xstrdup(path);
	return beside_self("referee");
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

/* Quotes a word for the referee's -b splitter ('...', ' as '\''). */
static char *
quote(const char *s)
{
	size_t n = 3;
	const char *p;
	char *q, *o;

	for (p = s; *p != '\0'; p++)
		n += *p == '\'' ? 4 : 1;
	o = q = xmalloc(n);
	*o++ = '\'';
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = *p;
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/*
 * The -b string of a bot: its command, run through env(1) when it has a
 * working directory or environment of its own.
 */
static char *
bot_command(const struct tbot *b)
{
	char *s, *q, *t;
	int i;

	if (b->dir == NULL && b->nenv == 0)
		return xstrdup(b->command);
	s = xstrdup("env");
	if (b->dir != NULL) {
		q = quote(b->dir);
		if (asprintf(&t, "%s -C %s", s, q) == -1)
			err(1, "asprintf");
		free(q);
		free(s);
		s = t;
	}
	for (i = 0; i < b->nenv; i++) {
		q = quote(b->env[i]);
		if (asprintf(&t, "%s %s", s, q) == -1)
			err(1, "asprintf");
		free(q);
		free(s);
		s = t;
	}
	if (asprintf(&t, "%s %s", s, b->command) == -1)
		err(1, "asprintf");
	free(s);
	return t;
}

/*
 * The games of deal rd of table tb that are not played yet (a job's own
 * games end at its done set's end).
 */
static long
round_left(const struct runner *rn, long tb, long rd)
{
	long g, n = 0;

	for (g = rd * rn->per_round; g < (rd + 1) * rn->per_round &&
	    g < rn->done.gpt; g++)
		n += !doneset_has(&rn->done, tb, g);
	return n;
}

/*
 * The lowest deal being played, or LONG_MAX - lead when none is.  A deal
 * is begun only within rn->lead deals of it: a table whose deal is slow
 * (a slow bot, a loaded machine) holds the others back instead of being
 * left behind, so every table is within lead deals of every other.
 */
static long
oldest_deal(const struct runner *rn)
{
	long lo = LONG_MAX - rn->lead;
	int i;

	for (i = 0; i < rn->jobs; i++)
		if (rn->slots[i].busy && rn->slots[i].deal < lo)
			lo = rn->slots[i].deal;
	return lo;
}

/*
 * Starts the referee of table tb with the games of its deal rd that are
 * left; -1 if it cannot be started (reported).
 */
static int
start_table(struct runner *rn, struct slot *sl, long tb, long rd)
{
	struct tour *t = rn->t;
	char **argv, *list = NULL, *log, *p, num[32], seed[32], tpm[32],
	    bank[32], hello[32], ngames[32], seats[32], maxdec[32], logmax[32];
	size_t lsz = 0, llen = 0;
	int ac = 0, i, n, pfd[2], efd;
	long g;
	pid_t pid;
	FILE *lf;
	sigset_t none;

	/* a fresh log name for each run of a deal (logs are truncated) */
	for (n = 1;; n++) {
		if (rn->o->job != NULL && n == 1)
			i = asprintf(&log, "%s.jsonl", rn->o->job->logbase);
		else if (rn->o->job != NULL)
			i = asprintf(&log, "%s-%d.jsonl", rn->o->job->logbase,
			    n);
		else if (n == 1)
			i = asprintf(&log, "logs/t%05ld.d%03ld.jsonl", tb, rd);
		else
			i = asprintf(&log, "logs/t%05ld.d%03ld-%d.jsonl", tb,
			    rd, n);
		if (i == -1 || asprintf(&p, "%s/%s", t->outdir, log) == -1 ||
		    asprintf(&sl->errpath, "%s.referee.stderr", p) == -1)
			err(1, "asprintf");
		if (access(p, F_OK) == -1 && access(sl->errpath, F_OK) == -1)
			break;
		free(p);
		free(log);
		free(sl->errpath);
	}
	sl->log = log;
	if ((lf = open_memstream(&list, &lsz)) == NULL)
		err(1, "open_memstream");
	for (g = rd * rn->per_round; g < (rd + 1) * rn->per_round &&
	    g < rn->done.gpt; g++)
		if (!doneset_has(&rn->done, tb, g))
			fprintf(lf, "%s%ld", llen++ ? "," : "", g);
	fclose(lf);
	snprintf(seed, sizeof seed, "%" PRIu64,
	    seed_derive(t->seed, (uint64_t)table_id(rn, tb)) & INT64_MAX);
	snprintf(ngames, sizeof ngames, "%ld", rn->gpt);
	snprintf(seats, sizeof seats, "%d", t->seats);
	argv = xcalloc((size_t)(48 + 2 * t->nopt + t->nrefargs + 4 * t->seats),
	    sizeof *argv);
	argv[ac++] = rn->referee;
	argv[ac++] = (char *)"-g";
	argv[ac++] = t->game;
	argv[ac++] = (char *)"-n";
	argv[ac++] = seats;
	argv[ac++] = (char *)"--games";
	argv[ac++] = ngames;
	if (t->duplicate)
		argv[ac++] = (char *)"--duplicate";
	argv[ac++] = (char *)"--game-list";
	argv[ac++] = list;
	/* a deal's run is its bots' whole life: nothing before it replayed */
	argv[ac++] = (char *)"--no-replay";
	for (i = 0; i < t->nopt; i++) {
		argv[ac++] = (char *)"-o";
		argv[ac++] = t->optv[i];
	}
	if (t->time_per_move > 0) {
		snprintf(tpm, sizeof tpm, "%ld", t->time_per_move);
		argv[ac++] = (char *)"--time-per-move";
		argv[ac++] = tpm;
	}
	if (t->time_bank > 0) {
		snprintf(bank, sizeof bank, "%ld", t->time_bank);
		argv[ac++] = (char *)"--time-bank";
		argv[ac++] = bank;
	}
	if (t->time_hello > 0) {
		snprintf(hello, sizeof hello, "%ld", t->time_hello);
		argv[ac++] = (char *)"--time-hello";
		argv[ac++] = hello;
	}
	if (t->on_fault != NULL) {
		argv[ac++] = (char *)"--on-fault";
		argv[ac++] = t->on_fault;
	}
	snprintf(maxdec, sizeof maxdec, "%ld", t->max_decisions);
	argv[ac++] = (char *)"--max-decisions";
	argv[ac++] = maxdec;
	if (t->logs) {
		snprintf(logmax, sizeof logmax, "%lld", t->log_max);
		argv[ac++] = (char *)"--log";
		argv[ac++] = p;
		argv[ac++] = (char *)"--log-level";
		argv[ac++] = (char *)(t->log_full ? "full" : "lean");
		argv[ac++] = (char *)"--log-max";
		argv[ac++] = logmax;
	}
	argv[ac++] = (char *)"--results";
	argv[ac++] = (char *)"-";
	argv[ac++] = (char *)"-q";
	for (i = 0; i < t->nrefargs; i++)
		argv[ac++] = t->refargs[i];
	/* the tournament's files out of sight of sandboxed or isolated bots
	 * (its file holds the seed that gives every card) */
	argv[ac++] = (char *)"--sandbox-hide";
	argv[ac++] = t->outdir;
	if (t->path != NULL && access(t->path, F_OK) == 0) {
		argv[ac++] = (char *)"--sandbox-hide";
		argv[ac++] = t->path;
	}
	if (t->plan != NULL && access(t->plan, F_OK) == 0) {
		argv[ac++] = (char *)"--sandbox-hide";
		argv[ac++] = (char *)t->plan;
	}
	if (t->sandbox) {
		/* the bots' own dirs in */
		for (i = 0; i < t->seats; i++) {
			if (t->bots[rn->s.tab[tb * t->seats + i]].dir == NULL)
				continue;
			argv[ac++] = (char *)"--sandbox-bind";
			argv[ac++] = t->bots[rn->s.tab[tb * t->seats + i]].dir;
		}
	}
	for (i = 0; i < t->seats; i++) {
		argv[ac++] = (char *)"-b";
		argv[ac++] = bot_command(&t->bots[rn->s.tab[tb * t->seats +
		    i]]);
	}
	argv[ac] = NULL;

	efd = open(sl->errpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644);
	if (efd == -1 && match_disk_full(errno)) {
		stop_full(rn, "%s: %s", sl->errpath, strerror(errno));
		pid = -1;
		goto out;
	}
	if (efd == -1 || pipe2(pfd, O_CLOEXEC) == -1) {
		warn("table %ld: %s", tb, efd == -1 ? sl->errpath : "pipe");
		if (efd != -1)
			close(efd);
		pid = -1;
		goto out;
	}
	snprintf(num, sizeof num, "%d", (int)getpid());
	switch (pid = fork()) {
	case -1:
		warn("fork");
		close(pfd[0]);
		close(pfd[1]);
		close(efd);
		goto out;
	case 0:
		/* the child: its own group, dies with us, no stdin */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != (pid_t)strtol(num, NULL, 10))
			_exit(1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		i = open("/dev/null", O_RDONLY);
		/* the seed gives every card: never on a command line, which
		 * every process (a bot's too) can read in /proc */
		if (i == -1 || dup2(i, 0) == -1 || dup2(pfd[1], 1) == -1 ||
		    dup2(efd, 2) == -1 || setenv("CARDARENA_SEED", seed, 1) == -1)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "tournament: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	close(efd);
	setpgid(pid, pid);
	fcntl(pfd[0], F_SETFL, fcntl(pfd[0], F_GETFL) | O_NONBLOCK);
	sl->busy = 1;
	sl->table = tb;
	sl->deal = rd;
	sl->pid = pid;
	sl->fd = pfd[0];
	sl->len = 0;
	sl->skipping = 0;
	sl->left = (long)llen;
	rn->running++;
out:
	for (i = 0; i < t->seats; i++)
		free(argv[ac - 1 - 2 * i]);
	free(argv);
	free(list);
	free(p);
	if (pid == -1) {
		free(sl->log);
		free(sl->errpath);
		sl->log = sl->errpath = NULL;
		rn->failures++;
		return -1;
	}
	return 0;
}

/*
 * Turns one --results line of a table's referee into a journal line:
 * bots by seat, places, scores and faults from per bot to per seat.
 */
static void
results_line(struct runner *rn, struct slot *sl, char *line)
{
	struct tour *t = rn->t;
	struct jgame g;
	json_t *j, *seats, *places, *scores, *kinds, *hello, *limits, *v, *k;
	json_error_t je;
	char cause[256];
	int s, b, f, tb = (int)sl->table, pl[MAX_PLAYERS];
	long game;

	if ((j = json_loads(line, 0, &je)) == NULL) {
		warnx("table %ld: a results line that is not JSON (%s); "
		    "skipped", sl->table, je.text);
		return;
	}
	memset(&g, 0, sizeof g);
	v = json_object_get(j, "game");
	seats = json_object_get(j, "seats");
	places = json_object_get(j, "places");
	scores = json_object_get(j, "scores");
	kinds = json_object_get(j, "fault_kinds");
	hello = json_object_get(j, "hello_timeouts");
	limits = json_object_get(j, "limits");
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) >= rn->gpt || !json_is_array(seats) ||
	    (int)json_array_size(seats) != t->seats ||
	    !json_is_array(places) ||
	    (int)json_array_size(places) != t->seats) {
		warnx("table %ld: a results line without a valid game, seats "
		    "and places; skipped", sl->table);
		goto out;
	}
	game = (long)json_integer_value(v);
	g.table = table_id(rn, sl->table);
	g.game = game;
	g.deal = t->duplicate ? game / t->seats : game;
	g.k = t->seats;
	g.capped = json_is_true(json_object_get(j, "capped"));
	g.log = t->logs ? sl->log : NULL;
	for (s = 0; s < t->seats; s++) {
		v = json_array_get(seats, (size_t)s);
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= t->seats) {
			warnx("table %ld game %ld: bad seats; skipped",
			    sl->table, game);
			goto out;
		}
		b = (int)json_integer_value(v);
		g.bots[s] = t->bots[rn->s.tab[tb * t->seats + b]].name;
		v = json_array_get(places, (size_t)b);
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > t->seats) {
			warnx("table %ld game %ld: bad places; skipped",
			    sl->table, game);
			goto out;
		}
		g.places[s] = (int)json_integer_value(v);
		g.scores[s] = json_number_value(json_array_get(scores,
		    (size_t)b));
		k = json_array_get(kinds, (size_t)b);
		if (json_is_object(k)) {
			for (f = 0; ref_faults[f] != NULL; f++)
				g.faults[s][ref_fault_kind[f]] += (long)
				    json_integer_value(json_object_get(k,
				    ref_faults[f]));
			g.faults[s][TF_HELLO] = (long)json_integer_value(
			    json_array_get(hello, (size_t)b));
			k = json_array_get(limits, (size_t)b);
			for (f = 0; f < NLIMIT; f++)
				g.faults[s][TF_CPU + f] = (long)
				    json_integer_value(json_object_get(k,
				    limit_names[f]));
			for (f = 0; f < NTFAULT; f++)
				if (g.faults[s][f] < 0)
					g.faults[s][f] = 0;
		} else {
			/* only a total: counted as bad answers */
			g.faults[s][TF_ILLEGAL] = (long)json_integer_value(
			    json_array_get(json_object_get(j, "faults"),
			    (size_t)b));
		}
		pl[s] = rn->live_idx[rn->s.tab[tb * t->seats + b]];
	}
	switch (doneset_add(&rn->done, sl->table, g.game)) {
	case 1:
		warnx("table %ld game %ld reported twice; kept once",
		    sl->table, game);
		goto out;
	case -1:
		goto out;
	}
	v = jgame_json(&g, json_object_get(j, "seed"));
	if (journal_write(rn->jfd, v, cause, sizeof cause) == -1) {
		/* whatever the cause, no later game could be kept */
		json_decref(v);
		stop_full(rn, "%s: %s", rn->jpath, cause);
		goto out;
	}
	json_decref(v);
	if (rn->unsynced++ == 0)
		rn->sync_due = now() + COMMIT_MS / 1000.0;
	rate_add(&rn->live, 0, g.k, pl, g.places,
	    (const long (*)[NTFAULT])g.faults);
	rn->have++;
	rn->fresh++;
	sl->left--;
out:
	json_decref(j);
}

/* Reads what a referee wrote; complete lines become journal lines. */
static void
read_slot(struct runner *rn, struct slot *sl)
{
	char *nl, *start;
	ssize_t n;

	for (;;) {
		n = read(sl->fd, sl->buf + sl->len, RLINE_MAX - sl->len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n <= 0) {
			end_slot(rn, sl);
			return;
		}
		sl->len += (size_t)n;
		start = sl->buf;
		while ((nl = memchr(start, '\n', sl->len -
		    (size_t)(start - sl->buf))) != NULL) {
			*nl = '\0';
			if (!sl->skipping)
				results_line(rn, sl, start);
			sl->skipping = 0;
			start = nl + 1;
		}
		sl->len -= (size_t)(start - sl->buf);
		memmove(sl->buf, start, sl->len);
		if (sl->len == RLINE_MAX) {
			warnx("table %ld: a results line over %d bytes; "
			    "skipped", sl->table, RLINE_MAX);
			sl->skipping = 1;
			sl->len = 0;
		}
	}
}

/*
 * Stops the run at once because nothing more can be written (the cause);
 * the games journalled are kept.
 */
static void
stop_full(struct runner *rn, const char *fmt, ...)
{
	va_list ap;
	int i;

	if (rn->full[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(rn->full, sizeof rn->full, fmt, ap);
	va_end(ap);
	rn->stopping = 1;
	for (i = 0; i < rn->jobs; i++)
		if (rn->slots[i].busy)
			kill(rn->slots[i].pid, SIGTERM);
}

/* Returns 1 if pid is one of the running referees (spared by a sweep). */
static int
running_referee(pid_t pid)
{
	int i;

	for (i = 0; sweeping != NULL && i < sweeping->jobs; i++)
		if (sweeping->slots[i].busy && sweeping->slots[i].pid == pid)
			return 1;
	return 0;
}

/* Reaps a table's referee at the end of its output. */
static void
end_slot(struct runner *rn, struct slot *sl)
{
	char see[PATH_MAX + 16];
	struct stat sb;
	int status;
	pid_t r;

	close(sl->fd);
	while ((r = waitpid(sl->pid, &status, 0)) == -1 && errno == EINTR)
		;
	/* What its bots left (we are their subreaper once it is gone). */
	sl->busy = 0;
	sweeping = rn;
	contain_sweep((uid_t)-1, running_referee);
	if (sl->len > 0 && !rn->stopping)
		warnx("table %ld: the referee's last line was cut; its game "
		    "will be played again", sl->table);
	if (r == -1)
		status = 0;
	/* an empty stderr file says nothing: it is not kept nor named */
	if (stat(sl->errpath, &sb) == 0 && sb.st_size == 0) {
		unlink(sl->errpath);
		snprintf(see, sizeof see, "it wrote no message");
	} else
		snprintf(see, sizeof see, "see %s", sl->errpath);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		stop_full(rn, "table %ld: the referee could not write (%s)",
		    sl->table, see);
	else if (WIFSIGNALED(status) && rn->stopping)
		;	/* we stopped it */
	else if (WIFSIGNALED(status) || WEXITSTATUS(status) != 0) {
		warnx("table %ld: the referee %s %d; %s", sl->table,
		    WIFSIGNALED(status) ? "was killed by signal" :
		    "exited with status", WIFSIGNALED(status) ?
		    WTERMSIG(status) : WEXITSTATUS(status), see);
		rn->failures++;
	} else if (sl->left > 0) {
		warnx("table %ld: the referee ended with %ld games unplayed; "
		    "%s", sl->table, sl->left, see);
		rn->failures++;
	}
	free(sl->log);
	free(sl->errpath);
	sl->log = sl->errpath = NULL;
	sl->busy = 0;
	rn->running--;
}

/*
 * The group commit: fsyncs the journal when COMMIT_GAMES games wait for it
 * or the first of them has waited COMMIT_MS, or now when force is set.
 */
static void
commit(struct runner *rn, int force)
{
	char cause[256];

	if (rn->unsynced == 0 || (!force && rn->unsynced < COMMIT_GAMES &&
	    now() < rn->sync_due))
		return;
	if (journal_sync(rn->jfd, cause, sizeof cause) == -1)
		stop_full(rn, "%s: %s", rn->jpath, cause);
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

/* Rates the whole journal and writes every report format. */
static int
write_reports(struct runner *rn)
{
	char title[512];

	snprintf(title, sizeof title, "%s (%s, %d seats%s)", rn->t->name,
	    rn->t->game, rn->t->seats, rn->t->duplicate ? ", duplicate" : "");
	return tour_reports(rn->t->outdir, rn->jpath, title, rn->o->quiet,
	    rn->t);
}

/* Rates a journal and writes every report format; see tournament.h. */
int
tour_reports(const char *outdir, const char *jpath, const char *title,
    int quiet, const struct tour *t)
{
	static const struct {
		const char	*ext;
		enum report_fmt	 fmt;
	} outs[] = {
		{ "txt", FMT_TEXT }, { "csv", FMT_CSV }, { "json", FMT_JSON },
		{ "md", FMT_MD }, { "html", FMT_HTML }
	};
	struct rate_opts ro = { 200, 2, NULL, 0, 1500, 1 };
	struct rating r;
	struct report rp;
	struct recent *rc;
	char cause[256], *path, *tmp, *jp = (char *)jpath;
	FILE *fp;
	size_t i;
	int rcode = 0;

	if (rate_load(&r, &ro, &jp, 1, &rc, outdir, cause,
	    sizeof cause) == -1) {
		warnx("%s", cause);
		return -1;
	}
	if (r.n == 0 || rate_fit(&r, cause, sizeof cause) == -1) {
		if (r.n > 0)
			warnx("rating: %s", cause);
		rate_free(&r);
		recent_free(rc);
		free(rc);
		return r.n == 0 ? 0 : -1;
	}
	memset(&rp, 0, sizeof rp);
	rp.r = &r;
	rp.title = title;
	rp.recent = rc;
	for (i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		if (asprintf(&path, "%s/results.%s", outdir,
		    outs[i].ext) == -1 || asprintf(&tmp, "%s.tmp", path) == -1)
			err(1, "asprintf");
		if ((fp = fopen(tmp, "w")) == NULL ||
		    report_write(fp, &rp, outs[i].fmt, cause,
		    sizeof cause) == -1 || fclose(fp) == EOF ||
		    rename(tmp, path) == -1) {
			warn("%s", path);
			rcode = -1;
		}
		free(path);
		free(tmp);
	}
	if (!quiet) {
		printf("\n");
		rp.color = isatty(1);
		report_write(stdout, &rp, FMT_TEXT, cause, sizeof cause);
		printf("\njournal: %s\nlogs:    %s/logs/\nreport:  %s/results."
		    "html (also .txt .csv .json .md)\n", jpath, outdir,
		    outdir);
	}
	fflush(stdout);
	if (t != NULL)
		limits_advice(stderr, t, &r);
	rate_free(&r);
	recent_free(rc);
	free(rc);
	return rcode;
}

/* Runs or resumes a tournament; see tournament.h. */
int
tour_run(struct tour *t, const struct run_opts *o)
{
	struct runner rn;
	struct rate_opts lo = { 0, 2, NULL, 0, 1500, 1 };
	struct sigaction sa;
	struct sched_stats st;
	struct stat sb;
	struct pollfd *pfd;
	struct timespec ts;
	sigset_t block, old;
	char cause[512];
	double wait;
	long tb, units;
	int i, n, created, lockfd, status = 0, *map;

	memset(&rn, 0, sizeof rn);
	rn.t = t;
	rn.o = o;
	rn.jobs = o->jobs > 0 ? o->jobs : t->jobs;
	rn.gpt = tour_games_per_table(t);
	rn.per_round = rn.gpt / t->deals;
	if (o->job != NULL) {
		/* a job: one table, its bots given in seat order */
		rn.s.nbots = rn.s.seats = t->seats;
		rn.s.ntables = rn.s.all = 1;
		rn.s.tab = xcalloc((size_t)t->seats, sizeof *rn.s.tab);
		for (i = 0; i < t->seats; i++)
			rn.s.tab[i] = i;
		rn.total = o->job->hi - o->job->lo;
		/* its deals only (a job holds whole deals) */
		rn.cursor = o->job->lo / rn.per_round;
		units = (o->job->hi + rn.per_round - 1) / rn.per_round;
	} else {
		if (schedule_make(&rn.s, t->nbots, t->seats, t->mode,
		    t->count, t->max_tables, t->seed, cause,
		    sizeof cause) == -1)
			errx(1, "%s: %s", t->path, cause);
		schedule_stats(&rn.s, t->duplicate, &st);
		if (st.pair_max - st.pair_min > 1 || st.seat_spread > 1)
			warnx("schedule: pairs share %ld to %ld tables, seats "
			    "within %ld (not balanced within one; try another "
			    "\"tables\")", st.pair_min, st.pair_max,
			    st.seat_spread);
		rn.total = (long)rn.s.ntables * rn.gpt;
		units = (long)rn.s.ntables * t->deals;
	}
	/* enough deals open to keep every slot busy (one when tables >= jobs) */
	rn.lead = (rn.jobs + rn.s.ntables - 1) / rn.s.ntables;
	/* A missing working directory would only show as a crash per game. */
	for (i = 0; i < t->nbots; i++) {
		if (t->bots[i].dir == NULL)
			continue;
		if (stat(t->bots[i].dir, &sb) == -1)
			err(1, "bot %s: \"dir\" %s", t->bots[i].name,
			    t->bots[i].dir);
		if (!S_ISDIR(sb.st_mode))
			errx(1, "bot %s: \"dir\" %s: not a directory",
			    t->bots[i].name, t->bots[i].dir);
	}
	if (o->job != NULL) {
		rn.header = json_incref(o->job->header);
		rn.jpath = xstrdup(o->job->journal);
	} else {
		rn.header = tour_header(t, &rn.s);
		if (asprintf(&rn.jpath, "%s/%s", t->outdir, JOURNAL_NAME) == -1)
			err(1, "asprintf");
	}
	if (asprintf(&rn.logdir, "%s/logs", t->outdir) == -1)
		err(1, "asprintf");
	if (mkdirs(rn.logdir) == -1)
		err(1, "%s", rn.logdir);
	if (o->job != NULL) {
		/* Jobs share an output directory: one run per job. */
		if ((lockfd = open(rn.jpath, O_RDONLY | O_CREAT | O_CLOEXEC,
		    0644)) == -1)
			err(1, "%s", rn.jpath);
		if (flock(lockfd, LOCK_EX | LOCK_NB) == -1) {
			if (errno == EWOULDBLOCK)
				errx(1, "%s: job %ld is being run by another "
				    "process", rn.jpath, o->job->index);
			err(1, "%s: lock", rn.jpath);
		}
	} else {
		/* One run at a time per output directory: two would play
		 * every game twice and write over each other's logs. */
		if ((lockfd = open(t->outdir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			err(1, "%s", t->outdir);
		if (flock(lockfd, LOCK_EX | LOCK_NB) == -1) {
			if (errno == EWOULDBLOCK)
				errx(1, "%s: another tournament run is using "
				    "this output directory", t->outdir);
			err(1, "%s: lock", t->outdir);
		}
	}
	rn.referee = referee_path(t->referee);
	if (o->job != NULL) {
		/* the games before lo count as done, those from hi on do
		 * not exist */
		doneset_init(&rn.done, 1, o->job->hi);
		rn.done.next[0] = o->job->lo;
	} else
		doneset_init(&rn.done, rn.s.ntables, rn.gpt);
	rate_init(&rn.live, &lo);
	rn.live_idx = xcalloc((size_t)t->nbots, sizeof *rn.live_idx);
	for (i = 0; i < t->nbots; i++)
		rn.live_idx[i] = rate_player(&rn.live, t->bots[i].name);
	if (read_journal(&rn, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	if ((rn.jfd = journal_open(rn.jpath, &created, cause,
	    sizeof cause)) == -1)
		errx(1, "%s", cause);
	if (!rn.header_seen && journal_append(rn.jfd, rn.header, cause,
	    sizeof cause) == -1)
		errx(1, "%s: %s", rn.jpath, cause);
	if (!o->quiet)
		fprintf(stderr, "tournament %s: %s, %d bots, %d tables of %d "
		    "(%s), %ld games each, %ld games; %d at once\n",
		    t->name, t->game, t->nbots, rn.s.ntables, t->seats,
		    rn.s.all ? "every subset" : "balanced", rn.gpt, rn.total,
		    rn.jobs);
	if (rn.have > 0 && !o->quiet)
		fprintf(stderr, "resuming: %ld games already in %s\n",
		    rn.have, rn.jpath);

	/* signals are blocked except while waiting in ppoll */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit must show as a write error (EFBIG), not kill */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);

	rn.tty = o->progress == -1 ? isatty(2) : o->progress;
	rn.start = now();
	rn.slots = xcalloc((size_t)rn.jobs, sizeof *rn.slots);
	contain_self();
	if (t->sandbox == 2) {
		/* "auto": the sandbox where bwrap works here */
		if (contain_check(cause, sizeof cause) == 0) {
			tour_refarg(t, "--sandbox", NULL);
			t->sandbox = 1;
		} else {
			warnx("%s; the bots run without the sandbox", cause);
			t->sandbox = 0;
		}
	}
	/* the referees say it in their stderr files, where no one looks
	 * (a sandbox, true or found by "auto", is --sandbox in refargs) */
	isolation_warn(t->refargs, t->nrefargs,
	    "\"sandbox\": true isolates them");
	for (i = 0; i < rn.jobs; i++)
		rn.slots[i].buf = xmalloc(RLINE_MAX);
	pfd = xcalloc((size_t)rn.jobs, sizeof *pfd);
	map = xcalloc((size_t)rn.jobs, sizeof *map);
	for (;;) {
		if (got_signal && !rn.stopping) {
			rn.stopping = 1;
			got_signal = 0;
			if (!o->quiet)
				fprintf(stderr, "%sstopping: the games being "
				    "played are discarded (again to kill at "
				    "once)\n", rn.tty ? "\r\033[K" : "");
			for (i = 0; i < rn.jobs; i++)
				if (rn.slots[i].busy)
					kill(rn.slots[i].pid, SIGTERM);
		} else if (got_signal && rn.stopping) {
			got_signal = 0;
			for (i = 0; i < rn.jobs; i++)
				if (rn.slots[i].busy)
					kill(-rn.slots[i].pid, SIGKILL);
		}
		for (i = 0; i < rn.jobs && !rn.stopping; i++) {
			if (rn.slots[i].busy)
				continue;
			/* deal by deal, each over every table */
			while (rn.cursor < units && round_left(&rn, rn.cursor %
			    rn.s.ntables, rn.cursor / rn.s.ntables) == 0)
				rn.cursor++;
			if (rn.cursor == units || rn.cursor / rn.s.ntables >
			    oldest_deal(&rn) + rn.lead)
				break;
			tb = rn.cursor % rn.s.ntables;
			start_table(&rn, &rn.slots[i], tb, rn.cursor++ /
			    rn.s.ntables);
		}
		if (rn.running == 0)
			break;
		for (i = n = 0; i < rn.jobs; i++)
			if (rn.slots[i].busy) {
				pfd[n].fd = rn.slots[i].fd;
				pfd[n].events = POLLIN;
				map[n++] = i;
			}
		wait = TICK_MS / 1000.0;
		if (rn.unsynced > 0 && rn.sync_due - now() < wait)
			wait = rn.sync_due > now() ? rn.sync_due - now() : 0;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(wait * 1e9);
		if (ppoll(pfd, (nfds_t)n, &ts, &old) == -1) {
			if (errno != EINTR)
				err(1, "ppoll");
			continue;
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents != 0)
				read_slot(&rn, &rn.slots[map[i]]);
		commit(&rn, 0);
		show(&rn, 0);
	}
	commit(&rn, 1);
	show(&rn, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(rn.jfd);
	if (rn.full[0] != '\0') {
		fprintf(stderr, "tournament: stopped at once: the disk is full "
		    "or cannot be written (%s); %ld of %ld games are kept in "
		    "%s; make room and run the same file again to resume\n",
		    rn.full, rn.have, rn.total, rn.jpath);
		status = 1;
	} else if (rn.stopping) {
		fprintf(stderr, "stopped: %ld of %ld games in %s; run the same "
		    "%s again to resume\n", rn.have, rn.total, rn.jpath,
		    o->job != NULL ? "job" : "file");
		status = 130;
	} else if (rn.failures > 0 || rn.have < rn.total) {
		if (o->job != NULL)
			fprintf(stderr, "tournament: job %ld: %ld of %ld games "
			    "played (see the warnings above); run the job "
			    "again to retry\n", o->job->index, rn.have,
			    rn.total);
		else
			fprintf(stderr, "tournament: %ld of %ld games played; "
			    "%ld table%s failed (see the warnings above); run "
			    "again to retry\n", rn.have, rn.total,
			    rn.failures, rn.failures == 1 ? "" : "s");
		status = 1;
	}
	if (o->job == NULL && (o->replays || t->replays) && t->logs) {
		n = render_replays(t, &rn.s, rn.logdir);
		if (!o->quiet && n > 0)
			fprintf(stderr, "replays: %d match log%s rendered as HTML "
			    "(%s/*.jsonl.html)\n", n, n == 1 ? "" : "s",
			    rn.logdir);
	}
	if (rn.full[0] == '\0' && o->job == NULL && write_reports(&rn) == -1 &&
	    status == 0)
		status = 1;
	for (i = 0; i < rn.jobs; i++)
		free(rn.slots[i].buf);
	free(rn.slots);
	free(pfd);
	free(map);
	free(rn.jpath);
	free(rn.logdir);
	free(rn.referee);
	free(rn.live_idx);
	json_decref(rn.header);
	rate_free(&rn.live);
	doneset_free(&rn.done);
	schedule_free(&rn.s);
	close(lockfd);
	return status;
}
