/*
 * The pool of referees that every bin/tournament runner plays on; see
 * pool.h.  One command line builder (run_argv), one spawner (proc_helper),
 * one reader of results lines (resline_decode), one poll loop.  Each
 * referee's stdout is its --results pipe, its stderr a file beside its
 * log that is removed when it stays empty; its seed goes in the
 * environment (CARDARENA_SEED), never on a command line every process can
 * read in /proc.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#define LIBBSD_OPENBSD_VIS	/* strvis only */
#include <vis.h>

#include "base/paths.h"
#include "contain.h"
#include "match.h"
#include "pool/pin.h"
#include "pool/pool.h"
#include "proc.h"

#define TICK_MS		250
#define GAP_MS		2	/* between two reads of the results */
#define PIPE_BYTES	(1 << 20)	/* a results pipe: some 1,000 lines */

struct pslot {
	int		 busy;
	struct pool_run	 run;
	pid_t		 pid;
	int		 fd;		/* the referee's --results pipe */
	char		*buf;
	size_t		 len;
	int		 skipping;	/* inside an over-long line */
	long		 left;		/* games of the run not yet reported */
	int		 ending;	/* told to end on time (SIGUSR1) */
	char		*errpath;
	off_t		 legend;	/* bytes of its head (legend()) */
};

struct pool {
	struct tour		*t;
	const struct pool_opts	*o;
	struct pool_source	*src;
	char			*referee;
	struct pslot		*slots;
	int			 running;
	int			 stopping;	/* referees told to stop */
	enum pool_end		 end;
	char			*cause;
	size_t			 clen;
	struct pin		 pin;		/* the slots' CPUs */
};

static volatile sig_atomic_t	 got_signal;
static long			 failures;
static struct pool		*sweeping;	/* for running_referee */

static void	 on_signal(int);
static char	*bot_command(const struct tbot *);
static char    **run_argv(struct pool *, const struct pool_run *,
		    const char *, int);
static int	 start_run(struct pool *, struct pslot *);
static void	 read_slot(struct pool *, struct pslot *);
static void	 take_line(struct pool *, struct pslot *, const char *, size_t);
static void	 end_slot(struct pool *, struct pslot *);
static void	 stop_all(struct pool *, enum pool_end, int);
static int	 running_referee(pid_t);
static int	 closing(const struct pool *);
static void	 free_run(struct pool_run *);
static off_t	 legend(struct pool *, const struct pool_run *, int);
static void	 last_line(const char *, off_t, char *, size_t);
static void	 name_bots(struct pool *, const struct pool_run *,
		    const char *, char *, size_t);

static void
on_signal(int sig)
{
	got_signal = sig;
}

double
pool_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

long
pool_failures(void)
{
	return failures;
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
		q = argv_quote(b->dir);
		if (asprintf(&t, "%s -C %s", s, q) == -1)
			err(1, "asprintf");
		free(q);
		free(s);
		s = t;
	}
	for (i = 0; i < b->nenv; i++) {
		q = argv_quote(b->env[i]);
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
 * Resolves path, relative to base unless absolute, into out (PATH_MAX):
 * its longest existing prefix made real (as the kernel would follow it),
 * the rest appended; with lex, after removing ".", ".." and empty
 * components by their text first (".." past a component that does not
 * exist yet, as a fresh run's output directory, is followed so).
 */
static void
path_resolve(const char *path, const char *base, int lex, char *out)
{
	char full[2 * PATH_MAX + 2], norm[2 * PATH_MAX + 2], head[PATH_MAX];
	char *p, *q, *w;
	size_t n;

	if (path[0] == '/')
		strlcpy(full, path, sizeof full);
	else
		snprintf(full, sizeof full, "%s/%s", base, path);
	norm[0] = '\0';
	for (p = full; (w = strsep(&p, "/")) != NULL; ) {
		if (*w == '\0' || (lex && strcmp(w, ".") == 0))
			continue;
		if (lex && strcmp(w, "..") == 0) {
			if ((q = strrchr(norm, '/')) != NULL)
				*q = '\0';
			continue;
		}
		strlcat(norm, "/", sizeof norm);
		strlcat(norm, w, sizeof norm);
	}
	/* the longest existing prefix (norm up to n), made real */
	for (n = strlen(norm); n > 0; n = (size_t)(q - norm)) {
		strlcpy(head, norm, n + 1 < sizeof head ? n + 1 : sizeof head);
		if (realpath(head, out) != NULL)
			break;
		head[0] = '\0';
		for (q = norm + n - 1; q > norm && *q != '/'; q--)
			;
	}
	if (n == 0)
		strlcpy(out, "", PATH_MAX);
	else if (strcmp(out, "/") == 0)
		out[0] = '\0';
	strlcat(out, norm + n, PATH_MAX);
	if (out[0] == '\0')
		strlcpy(out, "/", PATH_MAX);
}

/*
 * Returns 1 if path, relative to base, lies inside hidden (a file or a
 * directory, relative to the working directory), which then stays hidden
 * from every bot: compared as the kernel resolves them and by their text
 * (.., //, a part not made yet), whichever finds it inside.
 */
static int
inside(const char *path, const char *base, const char *hidden)
{
	char cwd[PATH_MAX], in[2 * PATH_MAX + 2], a[PATH_MAX], h[PATH_MAX];
	size_t n;
	int i, j;

	if (hidden == NULL)
		return 0;
	if (getcwd(cwd, sizeof cwd) == NULL)
		strlcpy(cwd, "/", sizeof cwd);
	if (base == NULL || base[0] == '/')
		strlcpy(in, base != NULL ? base : cwd, sizeof in);
	else
		snprintf(in, sizeof in, "%s/%s", cwd, base);
	for (i = 0; i < 2; i++) {
		path_resolve(hidden, cwd, i, h);
		n = strcmp(h, "/") == 0 ? 0 : strlen(h);
		for (j = 0; j < 2; j++) {
			path_resolve(path, in, j, a);
			if (strncmp(a, h, n) == 0 && (a[n] == '\0' ||
			    a[n] == '/'))
				return 1;
		}
	}
	return 0;
}

/*
 * The paths hidden from the bots that a bot's word w names, relative to
 * the working directory or to the bot's dir (where it runs); or NULL.
 */
static const char *
names_hidden(const struct tour *t, const char *w, const char *dir)
{
	int i;

	for (i = 0; i < (dir != NULL ? 2 : 1); i++) {
		if (inside(w, i ? dir : NULL, t->outdir))
			return "the output directory (its journal holds every "
			    "deal's seed)";
		if (inside(w, i ? dir : NULL, t->path))
			return "the tournament file";
		if (inside(w, i ? dir : NULL, t->plan))
			return "the plan (it holds every seed)";
		if (inside(w, i ? dir : NULL, t->deal_book))
			return "the deal book (it holds every card)";
	}
	return NULL;
}

int
pool_bot_check(const struct tour *t, int i, char *cause, size_t len)
{
	const struct tbot *b = &t->bots[i];
	const char *path = getenv("PATH"), *what, *w;
	char **argv, *full = NULL;
	int rc = 0, k;

	if (argv_split(b->command, &argv, cause, len) == -1)
		return -1;
	/* what the bots may not see stays hidden: a bot naming it would
	 * be given it; and a bot runs in the working directory or its dir */
	if ((what = names_hidden(t, ".", NULL)) != NULL) {
		snprintf(cause, len, "it would run in the working directory, "
		    "inside %s, which is hidden from every bot: run the "
		    "tournament from elsewhere or move the output", what);
		argv_free(argv);
		return -1;
	}
	if (b->dir != NULL && (what = names_hidden(t, b->dir, NULL)) != NULL) {
		snprintf(cause, len, "its \"dir\" %s lies inside %s, which is "
		    "hidden from every bot: move the bot or the output",
		    b->dir, what);
		argv_free(argv);
		return -1;
	}
	for (k = 0; argv[k] != NULL; k++)
		if ((what = names_hidden(t, argv[k], b->dir)) != NULL) {
			snprintf(cause, len, "its command names %s, inside %s, "
			    "which is hidden from every bot: move the bot or "
			    "the output", argv[k], what);
			argv_free(argv);
			return -1;
		}
	for (k = 0; k < b->nenv; k++)
		if ((w = strchr(b->env[k], '=')) != NULL &&
		    (what = names_hidden(t, w + 1, b->dir)) != NULL) {
			snprintf(cause, len, "its \"env\" %s names a path "
			    "inside %s, which is hidden from every bot: move "
			    "the bot or the output", b->env[k], what);
			argv_free(argv);
			return -1;
		}
	if (strchr(argv[0], '/') != NULL) {
		if (argv[0][0] != '/' && b->dir != NULL &&
		    asprintf(&full, "%s/%s", b->dir, argv[0]) == -1)
			err(1, "asprintf");
		if (access(full != NULL ? full : argv[0], X_OK) == -1) {
			snprintf(cause, len, "cannot execute '%s'%s%s: %s",
			    argv[0], full != NULL ? " in " : "",
			    full != NULL ? b->dir : "", strerror(errno));
			rc = -1;
		}
	} else if (!proc_findable(argv[0], BOT_PATH) &&
	    (path == NULL || !proc_findable(argv[0], path))) {
		snprintf(cause, len, "cannot execute '%s': not found in the "
		    "bots' PATH (%s) nor in yours; give its path", argv[0],
		    BOT_PATH);
		rc = -1;
	}
	free(full);
	argv_free(argv);
	return rc;
}

/*
 * Returns 1 if path is, or holds, the dir of a bot seated at run r (or
 * cannot be resolved): what must not be hidden from the table's bots.
 */
static int
holds_seated(const struct tour *t, const struct pool_run *r,
    const char *path)
{
	char a[PATH_MAX], b[PATH_MAX];
	size_t n;
	int s;

	if (realpath(path, a) == NULL)
		return 1;
	n = strlen(a);
	for (s = 0; s < t->seats; s++)
		if (t->bots[r->bots[s]].dir != NULL &&
		    realpath(t->bots[r->bots[s]].dir, b) != NULL &&
		    strncmp(b, a, n) == 0 && (b[n] == '\0' || b[n] == '/' ||
		    n == 1))
			return 1;
	return 0;
}

/*
 * Returns 1 if bot i has a dir, not seated at run r, that holds no seated
 * bot's (nor is one): a dir to hide from the table's bots.
 */
static int
unseated_dir(const struct tour *t, const struct pool_run *r, int i)
{
	int s;

	if (t->bots[i].dir == NULL)
		return 0;
	for (s = 0; s < t->seats; s++)
		if (r->bots[s] == i)
			return 0;
	return !holds_seated(t, r, t->bots[i].dir);
}

/* Appends a copy of a word to an argv being built. */
#define ARG(s)	(argv[ac++] = xstrdup(s))

/*
 * The referee command line of a run (every string its own, freed with
 * argv_free); logpath is where its log goes.
 */
static char **
run_argv(struct pool *pl, const struct pool_run *r, const char *logpath,
    int cpu)
{
	struct tour *t = pl->t;
	char **argv, num[32], *list = NULL;
	size_t lsz = 0;
	FILE *lf;
	long i, j;
	int ac = 0, s;

	argv = xcalloc((size_t)(64 + 2 * t->nopt + t->nrefargs +
	    4 * t->seats + 2 * t->nbots + 2 * t->nhide), sizeof *argv);
	if ((lf = open_memstream(&list, &lsz)) == NULL)
		err(1, "open_memstream");
	/* runs of three or more as ranges: a chunk of any length is one
	 * short argument (the kernel refuses one over 128 KiB: E2BIG) */
	for (i = 0; i < r->nlist; i = j) {
		for (j = i + 1; j < r->nlist && r->list[j] == r->list[j - 1] + 1;
		    j++)
			;
		if (j - i >= 3)
			fprintf(lf, "%s%ld-%ld", i ? "," : "", r->list[i],
			    r->list[j - 1]);
		else
			for (; i < j; i++)
				fprintf(lf, "%s%ld", i ? "," : "", r->list[i]);
	}
	fclose(lf);
	ARG(pl->referee);
	ARG("-g");
	ARG(t->game);
	ARG("-n");
	snprintf(num, sizeof num, "%d", t->seats);
	ARG(num);
	ARG("--games");
	snprintf(num, sizeof num, "%ld", r->games);
	ARG(num);
	if (t->duplicate)
		ARG("--duplicate");
	ARG("--game-list");
	argv[ac++] = list;
	/* a run is its bots' whole life: its games before a listed one
	 * (journalled by an earlier run) are replayed, nothing before it */
	ARG("--first-game");
	snprintf(num, sizeof num, "%ld", r->first);
	ARG(num);
	/* a run the pool floats floats: not the lone referee's default */
	ARG("--cpu");
	if (cpu >= 0) {
		snprintf(num, sizeof num, "%d", cpu);
		ARG(num);
	} else
		ARG("none");
	for (s = 0; s < t->nopt; s++) {
		ARG("-o");
		ARG(t->optv[s]);
	}
	if (t->time_per_move > 0) {
		ARG("--time-per-move");
		snprintf(num, sizeof num, "%ld", t->time_per_move);
		ARG(num);
	}
	if (t->time_bank > 0) {
		ARG("--time-bank");
		snprintf(num, sizeof num, "%ld", t->time_bank);
		ARG(num);
	}
	if (t->time_hello > 0) {
		ARG("--time-hello");
		snprintf(num, sizeof num, "%ld", t->time_hello);
		ARG(num);
	}
	if (t->on_fault != NULL) {
		ARG("--on-fault");
		ARG(t->on_fault);
	}
	ARG("--max-decisions");
	snprintf(num, sizeof num, "%ld", t->max_decisions);
	ARG(num);
	if (t->logs) {
		ARG("--log");
		ARG(logpath);
		ARG("--log-level");
		ARG(t->log_full ? "full" : "lean");
		ARG("--log-max");
		snprintf(num, sizeof num, "%lld", t->log_max);
		ARG(num);
	}
	ARG("--results");
	ARG("-");
	ARG("-q");
	for (s = 0; s < t->nrefargs; s++)
		ARG(t->refargs[s]);
	if (t->sandbox_checked)
		ARG("--sandbox-checked");
	/* the tournament's files out of sight of sandboxed or isolated bots
	 * (its journal and file hold the seed that gives every card) */
	ARG("--sandbox-hide");
	ARG(t->outdir);
	if (t->path != NULL && access(t->path, F_OK) == 0) {
		ARG("--sandbox-hide");
		ARG(t->path);
	}
	if (t->plan != NULL && access(t->plan, F_OK) == 0) {
		ARG("--sandbox-hide");
		ARG(t->plan);
	}
	if (t->deal_book != NULL) {
		/* its deals are every hidden card: out of the bots' sight */
		ARG("--deal-book");
		ARG(t->deal_book);
		ARG("--sandbox-hide");
		ARG(t->deal_book);
	}
	/* each bot's dir its own, hidden from the others (seated or not) */
	for (s = 0; s < t->seats; s++) {
		if (t->bots[r->bots[s]].dir == NULL)
			continue;
		ARG("--bot-dir");
		if (asprintf(&argv[ac++], "%d=%s", s,
		    t->bots[r->bots[s]].dir) == -1)
			err(1, "asprintf");
	}
	for (i = 0; i < t->nbots; i++)
		if (unseated_dir(t, r, (int)i)) {
			ARG("--sandbox-hide");
			ARG(t->bots[i].dir);
		}
	/* the file's "hide": what is there now, but a seated bot's dir */
	for (i = 0; i < t->nhide; i++)
		if (access(t->hide[i], F_OK) == 0 &&
		    !holds_seated(t, r, t->hide[i])) {
			ARG("--sandbox-hide");
			ARG(t->hide[i]);
		}
	for (s = 0; s < t->seats; s++) {
		ARG("-b");
		argv[ac++] = bot_command(&t->bots[r->bots[s]]);
	}
	argv[ac] = NULL;
	return argv;
}

/* Starts the referee of the run in sl->run; -1 if it cannot (said). */
static int
start_run(struct pool *pl, struct pslot *sl)
{
	struct tour *t = pl->t;
	char **argv, *logpath, seed[48];
	int pfd[2], efd;

	if (asprintf(&logpath, "%s/%s", t->outdir, sl->run.log) == -1 ||
	    asprintf(&sl->errpath, "%s.referee.stderr", logpath) == -1)
		err(1, "asprintf");
	argv = run_argv(pl, &sl->run, logpath, pin_cpu(&pl->pin, t,
	    (int)(sl - pl->slots), &sl->run));
	efd = open(sl->errpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644);
	if (efd == -1 && match_disk_full(errno)) {
		snprintf(pl->cause, pl->clen, "%s: %s", sl->errpath,
		    strerror(errno));
		stop_all(pl, POOL_FULL, SIGTERM);
		goto fail;
	}
	if (efd == -1 || pipe2(pfd, O_CLOEXEC) == -1) {
		warn("%s %ld: %s", pl->o->what, sl->run.table, efd == -1 ?
		    sl->errpath : "pipe");
		if (efd != -1)
			close(efd);
		goto fail;
	}
	sl->legend = legend(pl, &sl->run, efd);
	snprintf(seed, sizeof seed, "CARDARENA_SEED=%" PRIu64,
	    sl->run.seed & INT64_MAX);
	sl->pid = proc_helper(argv, -1, pfd[1], efd, seed);
	explicit_bzero(seed, sizeof seed);
	close(pfd[1]);
	close(efd);
	if (sl->pid == -1) {
		warn("fork");
		close(pfd[0]);
		goto fail;
	}
	setpgid(sl->pid, sl->pid);
	fcntl(pfd[0], F_SETFL, fcntl(pfd[0], F_GETFL) | O_NONBLOCK);
	/* a default pipe holds some 60 results lines (of ~900 bytes), a
	 * few tens of ms of short games: the referee would wait while the
	 * runner is in the journal's fsync; a failure (over the system's
	 * pipe-max-size, or the user's pipe pages) leaves the default */
	(void)fcntl(pfd[0], F_SETPIPE_SZ, PIPE_BYTES);
	sl->busy = 1;
	sl->fd = pfd[0];
	sl->len = 0;
	sl->skipping = 0;
	sl->ending = 0;
	sl->left = sl->run.nlist;
	pl->running++;
	argv_free(argv);
	free(logpath);
	return 0;
fail:
	argv_free(argv);
	free(logpath);
	free(sl->errpath);
	sl->errpath = NULL;
	failures++;
	if (pl->src->end != NULL)
		pl->src->end(pl->src->arg, &sl->run, sl->run.nlist, 1);
	free_run(&sl->run);
	return -1;
}

/*
 * Heads a referee's stderr file with the tournament's names of the bots
 * its messages number ("bot 2"); returns the bytes written.
 */
static off_t
legend(struct pool *pl, const struct pool_run *r, int fd)
{
	char *text = NULL, *x;
	off_t n;
	int s;

	for (s = 0; s < pl->t->seats; s++) {
		if (asprintf(&x, "%s%s bot %d: %s", text != NULL ? text :
		    "# the referee's bots:", s > 0 ? "," : "", s,
		    pl->t->bots[r->bots[s]].name) == -1)
			err(1, "asprintf");
		free(text);
		text = x;
	}
	n = dprintf(fd, "%s\n", text);
	free(text);
	return n > 0 ? n : 0;
}

/* The last line of the file path, past its first skip bytes, or "". */
static void
last_line(const char *path, off_t skip, char *out, size_t len)
{
	char buf[1024], *p;
	ssize_t n;
	off_t at;
	int fd;

	out[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	at = lseek(fd, 0, SEEK_END) - (off_t)sizeof buf + 1;
	if (at < skip)
		at = skip;
	n = pread(fd, buf, sizeof buf - 1, at);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	p = strrchr(buf, '\n');
	strlcpy(out, p != NULL ? p + 1 : buf, len);
}

/* Copies text with each "bot N" of run r followed by its name. */
static void
name_bots(struct pool *pl, const struct pool_run *r, const char *text,
    char *out, size_t len)
{
	const char *p = text;
	char *end;
	size_t n = 0;
	long b;

	while (*p != '\0' && n + 1 < len) {
		if (strncmp(p, "bot ", 4) == 0 && p[4] >= '0' && p[4] <= '9' &&
		    (p == text || p[-1] == ' ' || p[-1] == '"')) {
			b = strtol(p + 4, &end, 10);
			n += (size_t)snprintf(out + n, len - n, "%.*s",
			    (int)(end - p), p);
			if (b < pl->t->seats && n < len)
				n += (size_t)snprintf(out + n, len - n, " (%s)",
				    pl->t->bots[r->bots[b]].name);
			p = end;
		} else
			out[n++] = *p++;
		if (n >= len)
			n = len - 1;
	}
	out[n] = '\0';
}

/* Hands one results line of a run to the source. */
static void
take_line(struct pool *pl, struct pslot *sl, const char *line, size_t len)
{
	struct resline r;
	char cause[512];
	long i;

	if (pl->end == POOL_FULL)
		return;
	if (resline_decode(line, len, pl->t->seats, &r, cause,
	    sizeof cause) == -1) {
		warnx("%s %ld: a results line with %s; skipped (its game will "
		    "be played again)", pl->o->what, sl->run.table, cause);
		return;
	}
	for (i = 0; i < sl->run.nlist && sl->run.list[i] != r.game; i++)
		;
	if (i == sl->run.nlist) {
		warnx("%s %ld: game %ld reported, which it was not asked to "
		    "play; skipped", pl->o->what, sl->run.table, r.game);
		return;
	}
	sl->left--;
	switch (pl->src->game(pl->src->arg, &sl->run, &r, cause,
	    sizeof cause)) {
	case 1:
		if (pl->end == POOL_DONE)
			stop_all(pl, POOL_AIM, SIGTERM);
		break;
	case -1:
		snprintf(pl->cause, pl->clen, "%s", cause);
		stop_all(pl, POOL_FULL, SIGTERM);
		break;
	case POOL_ENOUGH:
		if (!sl->ending && sl->left > 0 && !pl->stopping)
			kill(sl->pid, SIGUSR1);
		sl->ending = 1;
		break;
	}
}

/* Reads what a referee wrote; complete lines go to the source. */
static void
read_slot(struct pool *pl, struct pslot *sl)
{
	char *nl, *start;
	ssize_t n;

	for (;;) {
		n = read(sl->fd, sl->buf + sl->len, RES_LINE_MAX - sl->len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n <= 0) {
			end_slot(pl, sl);
			return;
		}
		sl->len += (size_t)n;
		start = sl->buf;
		while ((nl = memchr(start, '\n', sl->len -
		    (size_t)(start - sl->buf))) != NULL) {
			if (!sl->skipping)
				take_line(pl, sl, start, (size_t)(nl - start));
			sl->skipping = 0;
			start = nl + 1;
		}
		sl->len -= (size_t)(start - sl->buf);
		memmove(sl->buf, start, sl->len);
		if (sl->len == RES_LINE_MAX) {
			warnx("%s %ld: a results line over %d bytes; skipped",
			    pl->o->what, sl->run.table, RES_LINE_MAX);
			sl->skipping = 1;
			sl->len = 0;
		}
	}
}

/* 1 if a running referee has at most its last game to report. */
static int
closing(const struct pool *pl)
{
	int i;

	for (i = 0; i < pl->o->jobs; i++)
		if (pl->slots[i].busy && pl->slots[i].left <= 1)
			return 1;
	return 0;
}

/* Returns 1 if pid is one of the running referees (spared by a sweep). */
static int
running_referee(pid_t pid)
{
	int i;

	for (i = 0; sweeping != NULL && i < sweeping->o->jobs; i++)
		if (sweeping->slots[i].busy && sweeping->slots[i].pid == pid)
			return 1;
	return 0;
}

/* Reaps a run's referee at the end of its output and tells the source. */
static void
end_slot(struct pool *pl, struct pslot *sl)
{
	char see[PATH_MAX + 4096 + 64], said[512], vis[4 * 512 + 1];
	char named[4096];
	struct stat sb;
	int status, failed = 0;
	pid_t r;

	close(sl->fd);
	while ((r = waitpid(sl->pid, &status, 0)) == -1 && errno == EINTR)
		;
	/* What its bots left (we are their subreaper once it is gone). */
	sl->busy = 0;
	sweeping = pl;
	contain_sweep((uid_t)-1, running_referee);
	if (sl->len > 0 && !pl->stopping)
		warnx("%s %ld: the referee's last line was cut; its game "
		    "will be played again", pl->o->what, sl->run.table);
	if (r == -1)
		status = 0;
	/* an empty stderr file says nothing: it is not kept nor named */
	if (stat(sl->errpath, &sb) == 0 && sb.st_size <= sl->legend) {
		unlink(sl->errpath);
		snprintf(see, sizeof see, "it wrote no message");
	} else {
		/* its last word, safe to show, and where the rest is */
		last_line(sl->errpath, sl->legend, said, sizeof said);
		strvis(vis, said, VIS_SAFE | VIS_OCTAL);
		name_bots(pl, &sl->run, vis, named, sizeof named);
		snprintf(see, sizeof see, "%s%s%ssee %s", named[0] != '\0' ?
		    "\"" : "", named, named[0] != '\0' ? "\"; " : "",
		    sl->errpath);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		snprintf(pl->cause, pl->clen, "%s %ld: the referee could not "
		    "write (%s)", pl->o->what, sl->run.table, see);
		stop_all(pl, POOL_FULL, SIGTERM);
	} else if (WIFSIGNALED(status) && pl->stopping)
		;	/* we stopped it */
	else if (WIFSIGNALED(status) || WEXITSTATUS(status) != 0) {
		warnx("%s %ld: the referee %s %d; %s", pl->o->what,
		    sl->run.table, WIFSIGNALED(status) ?
		    "was killed by signal" : "exited with status",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status), see);
		failed = 1;
	} else if (sl->left > 0 && !pl->stopping && !sl->ending) {
		warnx("%s %ld: the referee ended with %ld games unplayed; %s",
		    pl->o->what, sl->run.table, sl->left, see);
		failed = 1;
	}
	failures += failed;
	if (pl->src->end != NULL)
		pl->src->end(pl->src->arg, &sl->run, sl->left, failed);
	free_run(&sl->run);
	free(sl->errpath);
	sl->errpath = NULL;
	pl->running--;
}

/* Stops the pool for why: every running referee gets sig. */
static void
stop_all(struct pool *pl, enum pool_end why, int sig)
{
	int i;

	if (pl->end == POOL_DONE || why == POOL_FULL)
		pl->end = why;
	pl->stopping = 1;
	for (i = 0; i < pl->o->jobs; i++)
		if (pl->slots[i].busy)
			kill(sig == SIGKILL ? -pl->slots[i].pid :
			    pl->slots[i].pid, sig);
}

static void
free_run(struct pool_run *r)
{
	free(r->list);
	free(r->log);
	r->list = NULL;
	r->log = NULL;
}

enum pool_end
pool_play(struct tour *t, const struct pool_opts *o, struct pool_source *src,
    char *cause, size_t clen)
{
	struct pool pl;
	struct pollfd *pfd;
	struct timespec ts;
	sigset_t block, old;
	double wait, due, woke = 0;
	int i, n, more = 1, *map;

	memset(&pl, 0, sizeof pl);
	pl.t = t;
	pl.o = o;
	pl.src = src;
	pl.cause = cause;
	pl.clen = clen;
	pl.end = POOL_DONE;
	cause[0] = '\0';
	pl.referee = referee_path(t->referee);
	pin_take(&pl.pin, t, o->jobs);

	/* signals are blocked except while waiting in ppoll */
	got_signal = 0;
	proc_catch(on_signal);
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit must show as a write error (EFBIG), not kill */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);

	pl.slots = xcalloc((size_t)o->jobs, sizeof *pl.slots);
	for (i = 0; i < o->jobs; i++)
		pl.slots[i].buf = xmalloc(RES_LINE_MAX);
	pfd = xcalloc((size_t)o->jobs, sizeof *pfd);
	map = xcalloc((size_t)o->jobs, sizeof *map);
	for (;;) {
		if (got_signal && !pl.stopping) {
			got_signal = 0;
			if (!o->quiet)
				fprintf(stderr, "%sstopping: the games being "
				    "played are discarded (again to kill at "
				    "once)\n", o->tty ? "\r\033[K" : "");
			stop_all(&pl, POOL_SIGNAL, SIGTERM);
		} else if (got_signal && pl.stopping) {
			got_signal = 0;
			stop_all(&pl, POOL_SIGNAL, SIGKILL);
		}
		for (i = 0; i < o->jobs && more && !pl.stopping; i++) {
			if (pl.slots[i].busy)
				continue;
			memset(&pl.slots[i].run, 0, sizeof pl.slots[i].run);
			n = src->next(src->arg, &pl.slots[i].run);
			if (n == -1)
				more = 0;
			if (n != 1)
				break;
			start_run(&pl, &pl.slots[i]);
		}
		if (pl.running == 0 && (!more || pl.stopping))
			break;
		/* no slot to fill: the results are read in batches, so
		 * that the runner wakes less often on the tables' CPUs (a
		 * pipe holds a thousand lines, no referee waits); but a
		 * run's last game is read, and its referee's end seen, at
		 * once (the source may act on it while the referee and its
		 * bots shut down, a slot is filled again sooner) */
		wait = woke + GAP_MS / 1000.0 - pool_now();
		if ((pl.running == o->jobs || !more) && !pl.stopping &&
		    wait > 0 && !closing(&pl)) {
			ts.tv_sec = 0;
			ts.tv_nsec = (long)(wait * 1e9);
			if (ppoll(NULL, 0, &ts, &old) == -1 && errno != EINTR)
				err(1, "ppoll");
			continue;
		}
		for (i = n = 0; i < o->jobs; i++)
			if (pl.slots[i].busy) {
				pfd[n].fd = pl.slots[i].fd;
				pfd[n].events = POLLIN;
				map[n++] = i;
			}
		wait = TICK_MS / 1000.0;
		if (src->due != NULL && (due = src->due(src->arg)) >= 0 &&
		    due < wait)
			wait = due;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(wait * 1e9);
		if (ppoll(pfd, (nfds_t)n, &ts, &old) == -1) {
			if (errno != EINTR)
				err(1, "ppoll");
			continue;
		}
		woke = pool_now();
		for (i = 0; i < n; i++)
			if (pfd[i].revents != 0)
				read_slot(&pl, &pl.slots[map[i]]);
		if (src->tick != NULL)
			src->tick(src->arg);
	}
	if (src->tick != NULL)
		src->tick(src->arg);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < o->jobs; i++)
		free(pl.slots[i].buf);
	free(pl.slots);
	free(pfd);
	free(map);
	free(pl.referee);
	pin_release(&pl.pin);
	return pl.end;
}
