/*
 * tournament gauntlet: a candidate bot against a pool on duplicate deals,
 * stopped by a sequential probability ratio test (sprt.h).  Each unit is
 * one bin/referee run: a deal played once from every seat (--duplicate)
 * by the candidate and k-1 pool bots taken in turn from the pool, or, with
 * --no-duplicate, one game on a deal of its own at a seat taken in turn.
 * A unit's score is the candidate's pairwise score summed over its games
 * (2 a win, 1 a tie per opponent); the units are fed to the test in their
 * order whatever order they finish in, so a seed gives one result.  The
 * runner keeps -j referees going, draws a progress line with the running
 * LLR and its bounds, and ends with the verdict and the Elo difference
 * with its 95% interval.
 */
#include <sys/prctl.h>
#include <sys/wait.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "game.h"
#include "rng.h"
#include "sprt.h"
#include "tournament.h"

#define G_MAXJOBS	256
#define G_MAXPOOL	256
#define G_MAXARGS	64
#define G_OUTMAX	(1 << 22)	/* a referee's results, at most */

struct gopts {
	const struct game *g;
	int		 seats;
	char		*optv[64];
	int		 nopt;
	uint64_t	 seed;
	double		 elo0, elo1, alpha, beta;
	long		 max_units;
	int		 dup;
	int		 jobs;
	int		 quiet;
	int		 progress;	/* -1: on a terminal */
	const char	*tpm, *bank, *on_fault, *logdir;
	char		*referee;
	char		*refargs[G_MAXARGS];
	int		 nrefargs;
	const char	*cand;
	const char	*pool[G_MAXPOOL];
	int		 npool;
};

struct gslot {
	int		 busy;
	pid_t		 pid;
	int		 fd;
	long		 unit;
	int		 cand;		/* the candidate's bot index */
	char		*out;
	size_t		 len, cap;
	FILE		*err;		/* the referee's stderr */
};

struct gunit {
	int		 done;
	int		 num;		/* the score numerator */
	long		 cfaults, pfaults;
};

static volatile sig_atomic_t g_stop;

static void	 g_usage(FILE *, int);
static void	 g_signal(int);
static double	 g_double(const char *, const char *, double, double);
static int	 g_start(struct gopts *, struct gslot *, long);
static int	 g_finish(struct gopts *, struct gslot *, struct gunit *);
static void	 g_show(const struct gopts *, const struct sprt *, long, int);
static void	 g_kill(struct gslot *, int);

/* Prints the gauntlet's usage and exits with status. */
static void
g_usage(FILE *fp, int status)
{
	fprintf(fp,
"usage: tournament gauntlet -g GAME [-n SEATS] [-o KEY=VALUE ...] [-s SEED]\n"
"                           [--elo0 E] [--elo1 E] [--alpha A] [--beta B]\n"
"                           [--max-deals N] [--no-duplicate] [-j N] [-q]\n"
"                           [--progress | --no-progress]\n"
"                           [--time-per-move MS] [--time-bank MS]\n"
"                           [--on-fault POLICY] [--log-dir DIR]\n"
"                           [--referee PATH] [--referee-arg ARG ...]\n"
"                           -c 'CANDIDATE' -p 'POOL BOT' [-p ...]\n"
"\n"
"Plays the candidate against the pool on duplicate deals (each deal once\n"
"from every seat, k-1 pool bots in turn at each table) until a sequential\n"
"probability ratio test decides between H0 (the candidate's Elo gain over\n"
"the pool is at most elo0) and H1 (at least elo1).  The unit of the test\n"
"is one deal's duplicate set, scored by the candidate's pairwise score\n"
"over its games; the LLR is the generalized one on the units' empirical\n"
"distribution.\n"
"\n"
"  -c, --candidate CMD  the candidate's command line (split like -b)\n"
"  -p, --pool CMD       a pool bot; repeatable\n"
"  -g, --game GAME      the game; -n SEATS players a table (default: the\n"
"                       game's); -o KEY=VALUE game options\n"
"  -s, --seed N         the master seed (default 1): deal u is dealt from\n"
"                       seed_derive(N, u)\n"
"  --elo0 E, --elo1 E   the hypotheses (default 0 and 10)\n"
"  --alpha A, --beta B  the error rates (default 0.05 each)\n"
"  --max-deals N        stop undecided after N units (default 100000)\n"
"  --no-duplicate       a unit is one game on its own deal (for comparison)\n"
"  -j N                 referees at once (default 1)\n"
"  -q                   no progress line\n"
"  --progress           the progress line even when stderr is not a\n"
"                       terminal (else a line every 10 units)\n"
"  --time-per-move MS, --time-bank MS, --on-fault POLICY  for the referee\n"
"  --log-dir DIR        keep each unit's match log DIR/dNNNNNN.jsonl\n"
"  --referee PATH       the referee (default: beside this program)\n"
"  --referee-arg ARG    one more referee argument; repeatable\n"
"\n"
"Prints \"result: H1\" (accepted: the candidate gains at least elo1),\n"
"\"result: H0\" or \"result: none\" (stopped undecided), the LLR and the\n"
"Elo difference with its 95%% interval.  Exit status 0 when the test\n"
"decided, 3 when it stopped undecided, 1 on failure, 2 for a bad command\n"
"line.\n");
	exit(status);
}

/* Asks the run to stop (the first signal) or kills at once (the second). */
static void
g_signal(int sig)
{
	if (g_stop)
		signal(sig, SIG_DFL), raise(sig);
	g_stop = 1;
}

/* Parses a number of an option within [lo, hi]; exits 2 otherwise. */
static double
g_double(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < lo || v > hi)
		errx(2, "%s %s: not a number in %g..%g", opt, s, lo, hi);
	return v;
}

/* Starts the referee of unit u in slot sl; -1 if it could not start. */
static int
g_start(struct gopts *o, struct gslot *sl, long u)
{
	char *argv[G_MAXARGS * 2 + 200], seed[32], nseats[16], ngames[16],
	    *logp = NULL;
	int ac = 0, i, pfd[2], k = o->seats;

	snprintf(seed, sizeof seed, "%" PRIu64,
	    seed_derive(o->seed, (uint64_t)u) & INT64_MAX);
	snprintf(nseats, sizeof nseats, "%d", k);
	snprintf(ngames, sizeof ngames, "%d", o->dup ? k : 1);
	argv[ac++] = o->referee;
	argv[ac++] = (char *)"-g";
	argv[ac++] = (char *)o->g->name;
	argv[ac++] = (char *)"-n";
	argv[ac++] = nseats;
	argv[ac++] = (char *)"--games";
	argv[ac++] = ngames;
	if (o->dup)
		argv[ac++] = (char *)"--duplicate";
	for (i = 0; i < o->nopt; i++) {
		argv[ac++] = (char *)"-o";
		argv[ac++] = o->optv[i];
	}
	if (o->tpm != NULL) {
		argv[ac++] = (char *)"--time-per-move";
		argv[ac++] = (char *)o->tpm;
	}
	if (o->bank != NULL) {
		argv[ac++] = (char *)"--time-bank";
		argv[ac++] = (char *)o->bank;
	}
	if (o->on_fault != NULL) {
		argv[ac++] = (char *)"--on-fault";
		argv[ac++] = (char *)o->on_fault;
	}
	if (o->logdir != NULL) {
		if (asprintf(&logp, "%s/d%06ld.jsonl", o->logdir, u) == -1)
			err(1, "asprintf");
		argv[ac++] = (char *)"--log";
		argv[ac++] = logp;
	}
	argv[ac++] = (char *)"--results";
	argv[ac++] = (char *)"-";
	argv[ac++] = (char *)"-q";
	for (i = 0; i < o->nrefargs; i++)
		argv[ac++] = o->refargs[i];
	/* the candidate at bot index 0 (duplicate rotates the seats) */
	sl->cand = o->dup ? 0 : (int)(u % k);
	for (i = 0; i < k; i++) {
		argv[ac++] = (char *)"-b";
		if (i == sl->cand)
			argv[ac++] = (char *)o->cand;
		else
			argv[ac++] = (char *)o->pool[(u * (k - 1) +
			    (i < sl->cand ? i : i - 1)) % o->npool];
	}
	argv[ac] = NULL;

	if (sl->err == NULL && (sl->err = tmpfile()) == NULL)
		err(1, "tmpfile");
	if (ftruncate(fileno(sl->err), 0) == -1 ||
	    lseek(fileno(sl->err), 0, SEEK_SET) == -1)
		err(1, "the referee's stderr file");
	if (pipe2(pfd, O_CLOEXEC) == -1)
		err(1, "pipe");
	fflush(NULL);
	switch (sl->pid = fork()) {
	case -1:
		warn("fork");
		close(pfd[0]);
		close(pfd[1]);
		free(logp);
		return -1;
	case 0:
		/* its own group, dies with us, no stdin */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		i = open("/dev/null", O_RDONLY);
		/* the seed in the environment, not on the command line */
		if (i == -1 || dup2(i, 0) == -1 || dup2(pfd[1], 1) == -1 ||
		    dup2(fileno(sl->err), 2) == -1 ||
		    setenv("CARDARENA_SEED", seed, 1) == -1)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "tournament: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	setpgid(sl->pid, sl->pid);
	sl->busy = 1;
	sl->fd = pfd[0];
	sl->unit = u;
	sl->len = 0;
	free(logp);
	return 0;
}

/*
 * Waits for the referee of a slot whose output ended and scores its unit;
 * -1 (said) if the referee failed or its results are not what was asked.
 */
static int
g_finish(struct gopts *o, struct gslot *sl, struct gunit *un)
{
	json_t *j, *pl, *fa;
	json_error_t je;
	char *line, *nl, buf[4096];
	int status, ngames = 0, want = o->dup ? o->seats : 1, b, pc, po;
	size_t n;

	close(sl->fd);
	sl->busy = 0;
	while (waitpid(sl->pid, &status, 0) == -1)
		if (errno != EINTR)
			err(1, "waitpid");
	un->num = 0;
	un->cfaults = un->pfaults = 0;
	if (sl->len == sl->cap)
		sl->out = xreallocarray(sl->out, ++sl->cap, 1);
	sl->out[sl->len] = '\0';
	for (line = sl->out; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			break;
		*nl = '\0';
		if ((j = json_loads(line, 0, &je)) == NULL)
			continue;
		pl = json_object_get(j, "places");
		fa = json_object_get(j, "faults");
		if (json_array_size(pl) != (size_t)o->seats) {
			json_decref(j);
			continue;
		}
		pc = (int)json_integer_value(json_array_get(pl,
		    (size_t)sl->cand));
		for (b = 0; b < o->seats; b++) {
			if (json_is_integer(json_array_get(fa, (size_t)b)))
				*(b == sl->cand ? &un->cfaults : &un->pfaults) +=
				    json_integer_value(json_array_get(fa,
				    (size_t)b));
			if (b == sl->cand)
				continue;
			po = (int)json_integer_value(json_array_get(pl,
			    (size_t)b));
			un->num += pc < po ? 2 : pc == po;
		}
		ngames++;
		json_decref(j);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && ngames == want) {
		un->done = 1;
		return 0;
	}
	if (g_stop)
		return -1;
	if (WIFSIGNALED(status))
		warnx("deal %ld: the referee was killed by signal %d",
		    sl->unit, WTERMSIG(status));
	else
		warnx("deal %ld: the referee failed (exit status %d, %d of %d "
		    "games reported); its stderr:", sl->unit,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1, ngames, want);
	fflush(sl->err);
	if (fseek(sl->err, 0, SEEK_SET) == 0)
		while ((n = fread(buf, 1, sizeof buf, sl->err)) > 0)
			fwrite(buf, 1, n, stderr);
	return -1;
}

/* Draws the progress line (final: the last one, ended by a newline). */
static void
g_show(const struct gopts *o, const struct sprt *t, long running, int tty)
{
	double e, lo, hi, s;

	e = sprt_estimate(t, &lo, &hi, &s);
	fprintf(stderr, "%sgauntlet: %ld %s (%ld games)  score %.1f%%  "
	    "Elo %+.1f [%+.1f, %+.1f]  LLR %.2f (%.2f, %.2f)  running %ld%s",
	    tty ? "\r\033[K" : "", t->n, o->dup ? "deals" : "games",
	    t->n * (o->dup ? o->seats : 1), 100 * s, e, lo, hi, sprt_llr(t),
	    t->lower, t->upper, running, tty ? "" : "\n");
	fflush(stderr);
}

/* Stops every running referee (SIGTERM to its group) and reaps it. */
static void
g_kill(struct gslot *sl, int jobs)
{
	int i, status;

	for (i = 0; i < jobs; i++) {
		if (!sl[i].busy)
			continue;
		kill(-sl[i].pid, SIGTERM);
		while (waitpid(sl[i].pid, &status, 0) == -1 && errno == EINTR)
			;
		close(sl[i].fd);
		sl[i].busy = 0;
	}
}

/* tournament gauntlet */
int
cmd_gauntlet(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "candidate", required_argument, NULL, 'c' },
		{ "pool", required_argument, NULL, 'p' },
		{ "game", required_argument, NULL, 'g' },
		{ "players", required_argument, NULL, 'n' },
		{ "option", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "elo0", required_argument, NULL, 'E' },
		{ "elo1", required_argument, NULL, 'F' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "beta", required_argument, NULL, 'B' },
		{ "max-deals", required_argument, NULL, 'M' },
		{ "no-duplicate", no_argument, NULL, 'D' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "time-per-move", required_argument, NULL, 'T' },
		{ "time-bank", required_argument, NULL, 'K' },
		{ "on-fault", required_argument, NULL, 'f' },
		{ "log-dir", required_argument, NULL, 'L' },
		{ "referee", required_argument, NULL, 'R' },
		{ "referee-arg", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct gopts o;
	struct gslot *sl;
	struct gunit *un = NULL;
	struct pollfd pfd[G_MAXJOBS];
	struct sprt t;
	struct opts gopt;
	struct sigaction sa;
	const char *errstr, *game = NULL, *referee = NULL;
	char cause[512];
	long next = 0, fed = 0, running, cfaults = 0, pfaults = 0, nun = 0;
	int ch, i, np, tty, failed = 0, players = 0, slot[G_MAXJOBS];
	enum sprt_verdict v = SPRT_CONTINUE;
	double e, lo, hi, s;
	ssize_t r;

	memset(&o, 0, sizeof o);
	o.seed = 1;
	o.elo0 = 0;
	o.elo1 = 10;
	o.alpha = o.beta = 0.05;
	o.max_units = 100000;
	o.dup = 1;
	o.jobs = 1;
	o.progress = -1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:c:p:g:n:o:s:j:qh", lopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.cand = optarg;
			break;
		case 'p':
			if (o.npool == G_MAXPOOL)
				errx(2, "-p: at most %d pool bots", G_MAXPOOL);
			o.pool[o.npool++] = optarg;
			break;
		case 'g':
			game = optarg;
			break;
		case 'n':
			players = (int)strtonum(optarg, 1, MAX_PLAYERS,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s (1..%d)", optarg, errstr,
				    MAX_PLAYERS);
			break;
		case 'o':
			if (o.nopt == 64)
				errx(2, "-o: at most 64 options");
			o.optv[o.nopt++] = optarg;
			break;
		case 's':
			o.seed = (uint64_t)strtonum(optarg, 0, LLONG_MAX,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-s %s: %s", optarg, errstr);
			break;
		case 'E':
			o.elo0 = g_double("--elo0", optarg, -2000, 2000);
			break;
		case 'F':
			o.elo1 = g_double("--elo1", optarg, -2000, 2000);
			break;
		case 'A':
			o.alpha = g_double("--alpha", optarg, 1e-9, 0.499);
			break;
		case 'B':
			o.beta = g_double("--beta", optarg, 1e-9, 0.499);
			break;
		case 'M':
			o.max_units = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(2, "--max-deals %s: %s", optarg, errstr);
			break;
		case 'D':
			o.dup = 0;
			break;
		case 'j':
			o.jobs = (int)strtonum(optarg, 1, G_MAXJOBS, &errstr);
			if (errstr != NULL)
				errx(2, "-j %s: %s (1..%d)", optarg, errstr,
				    G_MAXJOBS);
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'P':
			o.progress = 1;
			break;
		case 'N':
			o.progress = 0;
			break;
		case 'T':
			strtonum(optarg, 1, INT_MAX, &errstr);
			if (errstr != NULL)
				errx(2, "--time-per-move %s: %s", optarg,
				    errstr);
			o.tpm = optarg;
			break;
		case 'K':
			strtonum(optarg, 0, INT_MAX, &errstr);
			if (errstr != NULL)
				errx(2, "--time-bank %s: %s", optarg, errstr);
			o.bank = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "random") != 0 &&
			    strcmp(optarg, "default") != 0 &&
			    strcmp(optarg, "retire") != 0)
				errx(2, "--on-fault %s: not random, default "
				    "or retire", optarg);
			o.on_fault = optarg;
			break;
		case 'L':
			o.logdir = optarg;
			break;
		case 'R':
			referee = optarg;
			break;
		case 'r':
			if (o.nrefargs == G_MAXARGS)
				errx(2, "--referee-arg: at most %d", G_MAXARGS);
			o.refargs[o.nrefargs++] = optarg;
			break;
		case 'h':
			g_usage(stdout, 0);
			break;
		default:
			cli_bad_option("tournament gauntlet", ch, argv);
		}
	}
	if (optind != argc)
		errx(2, "gauntlet: unexpected argument %s (the bots are given "
		    "with -c and -p)", argv[optind]);
	if (game == NULL)
		errx(2, "gauntlet: -g GAME is required (bin/referee "
		    "--list-games)");
	if ((o.g = game_find(game)) == NULL)
		errx(2, "-g %s: no such game (bin/referee --list-games)",
		    game);
	if (o.cand == NULL || *o.cand == '\0')
		errx(2, "gauntlet: -c 'CANDIDATE' is required");
	if (o.npool == 0)
		errx(2, "gauntlet: at least one pool bot (-p 'COMMAND') is "
		    "required");
	o.seats = players > 0 ? players : o.g->default_players;
	if (o.seats < 2 || o.seats < o.g->min_players ||
	    o.seats > o.g->max_players)
		errx(2, "gauntlet: %s needs %d..%d players, and a gauntlet "
		    "at least 2", o.g->name, o.g->min_players < 2 ? 2 :
		    o.g->min_players, o.g->max_players);
	opts_defaults(o.g, &gopt, o.seats);
	for (i = 0; i < o.nopt; i++)
		if (opts_set(o.g, &gopt, o.optv[i], cause, sizeof cause) == -1)
			errx(2, "-o %s: %s", o.optv[i], cause);
	if (opts_finish(o.g, &gopt, cause, sizeof cause) == -1)
		errx(2, "%s options: %s", o.g->name, cause);
	if (sprt_init(&t, o.elo0, o.elo1, o.alpha, o.beta,
	    2 * (o.seats - 1) * (o.dup ? o.seats : 1), cause,
	    sizeof cause) == -1)
		errx(2, "gauntlet: %s", cause);
	if (o.logdir != NULL && access(o.logdir, W_OK | X_OK) == -1)
		err(2, "--log-dir %s", o.logdir);
	o.referee = referee_path(referee);
	isolation_warn(o.refargs, o.nrefargs,
	    "--referee-arg --sandbox isolates them");
	tty = o.quiet ? 0 : o.progress == -1 ? isatty(2) : o.progress;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = g_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sl = xcalloc((size_t)o.jobs, sizeof *sl);

	while (!g_stop && !failed && v == SPRT_CONTINUE) {
		running = 0;
		for (i = 0; i < o.jobs; i++) {
			if (!sl[i].busy && next < o.max_units && !g_stop) {
				if (next == nun) {
					nun = nun ? 2 * nun : 64;
					un = xreallocarray(un, (size_t)nun,
					    sizeof *un);
					memset(un + next, 0, (size_t)(nun -
					    next) * sizeof *un);
				}
				if (g_start(&o, &sl[i], next) == -1) {
					failed = 1;
					break;
				}
				next++;
			}
			running += sl[i].busy;
		}
		if (failed || running == 0)
			break;
		for (np = 0, i = 0; i < o.jobs; i++)
			if (sl[i].busy) {
				pfd[np].fd = sl[i].fd;
				pfd[np].events = POLLIN;
				slot[np++] = i;
			}
		if (poll(pfd, (nfds_t)np, 1000) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		for (i = 0; i < np; i++) {
			struct gslot *g = &sl[slot[i]];

			if (pfd[i].revents == 0)
				continue;
			if (g->cap - g->len < 4096) {
				if (g->cap > G_OUTMAX)
					errx(1, "deal %ld: the referee wrote "
					    "too much", g->unit);
				g->cap = g->cap ? 2 * g->cap : 8192;
				g->out = xreallocarray(g->out, g->cap, 1);
			}
			r = read(g->fd, g->out + g->len, g->cap - g->len - 1);
			if (r > 0) {
				g->len += (size_t)r;
				continue;
			}
			if (r == -1 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (g_finish(&o, g, &un[g->unit]) == -1) {
				failed = !g_stop;
				break;
			}
		}
		/* feed the units in their order */
		while (fed < next && un[fed].done && v == SPRT_CONTINUE) {
			sprt_add(&t, un[fed].num);
			cfaults += un[fed].cfaults;
			pfaults += un[fed].pfaults;
			fed++;
			v = sprt_decide(&t);
			if (!o.quiet && (tty || fed % 10 == 0 ||
			    v != SPRT_CONTINUE))
				g_show(&o, &t, running, tty);
		}
	}
	g_kill(sl, o.jobs);
	if (tty)
		fputc('\n', stderr);
	if (failed) {
		sprt_free(&t);
		errx(1, "gauntlet: stopped after %ld units", t.n);
	}
	e = sprt_estimate(&t, &lo, &hi, &s);
	printf("gauntlet: %s against %d pool bot%s, %d-player %s, %s\n",
	    o.cand, o.npool, o.npool == 1 ? "" : "s", o.seats, o.g->name,
	    o.dup ? "duplicate deals" : "single games");
	printf("SPRT: elo0 %g, elo1 %g, alpha %g, beta %g; LLR %.3f, bounds "
	    "(%.3f, %.3f)\n", o.elo0, o.elo1, o.alpha, o.beta, sprt_llr(&t),
	    t.lower, t.upper);
	printf("%ld %s, %ld games; score %.2f%%; Elo %+.1f [%+.1f, %+.1f] "
	    "(95%%)\n", t.n, o.dup ? "deals" : "units", t.n * (o.dup ?
	    o.seats : 1), 100 * s, e, lo, hi);
	printf("faults: candidate %ld, pool %ld\n", cfaults, pfaults);
	printf("result: %s\n", v == SPRT_H1 ? "H1" : v == SPRT_H0 ? "H0" :
	    "none");
	sprt_free(&t);
	for (i = 0; i < o.jobs; i++) {
		free(sl[i].out);
		if (sl[i].err != NULL)
			fclose(sl[i].err);
	}
	free(sl);
	free(un);
	free(o.referee);
	return v == SPRT_CONTINUE ? 3 : 0;
}
