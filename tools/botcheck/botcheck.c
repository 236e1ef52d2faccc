/*
 * bin/botcheck: the command line and the report.  For each game asked
 * for, the bot plays one match with the game's default options and a few
 * with random option sets (optgen.c), each against random bots, at a
 * random seat, through the referee's own match runner; each match log is
 * then read from the bot's side (logscan.c).  A fault retires the bot for
 * the rest of that game (--on-fault retire), so a hostile bot costs one
 * time limit per game at most, and --max-time bounds every match: the
 * check always ends.  botcheck is the child subreaper of what it starts,
 * so a process that escapes its bot's process group comes back to it
 * when the bot dies: it is reported and killed.  Exit status: 0 when the
 * bot passed every game, 1 when it did not, 2 for a bad command line.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "botcheck.h"
#include "cli.h"
#include "contain.h"
#include "match.h"
#include "proc.h"

#define DEFAULT_GAMES		2	/* games per match */
#define DEFAULT_SETS		2	/* random option sets per game */
#define DEFAULT_TPM		1000	/* ms per move */
#define DEFAULT_HELLO		5000	/* ms for the hello */
#define DEFAULT_MAX_TIME	120	/* s per match */
#define DEFAULT_STDERR		(1024 * 1024)	/* bytes per match */
#define STDERR_KEEP		(64 * 1024)	/* bytes of it saved */
#define ORPHAN_WAIT_MS		200	/* for killed processes to go */

enum {
	OPT_ALL = 256, OPT_TPM, OPT_BANK, OPT_HELLO, OPT_MAX_TIME,
	OPT_STDERR, OPT_OPPONENT, OPT_KEEP, OPT_DIR, OPT_ENV,
	OPT_LIMITS	/* cli_limit_longopts */
};

static const struct option longopts[] = {
	{ "game",		required_argument,	NULL, 'g' },
	{ "all",		no_argument,		NULL, OPT_ALL },
	{ "games",		required_argument,	NULL, 'n' },
	{ "option-sets",	required_argument,	NULL, 'r' },
	{ "seed",		required_argument,	NULL, 's' },
	{ "time-per-move",	required_argument,	NULL, OPT_TPM },
	{ "time-bank",		required_argument,	NULL, OPT_BANK },
	{ "time-hello",		required_argument,	NULL, OPT_HELLO },
	{ "max-time",		required_argument,	NULL, OPT_MAX_TIME },
	{ "stderr-limit",	required_argument,	NULL, OPT_STDERR },
	{ "opponent",		required_argument,	NULL, OPT_OPPONENT },
	{ "keep",		required_argument,	NULL, OPT_KEEP },
	{ "dir",		required_argument,	NULL, OPT_DIR },
	{ "env",		required_argument,	NULL, OPT_ENV },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

/* The check asked for on the command line. */
struct check {
	const struct game	*games[64];
	int			 ngames;
	char			*bot;		/* the bot's command */
	char			*opponent;	/* NULL: our bin/random */
	char			 referee[PATH_MAX];	/* beside botcheck */
	char			 random[PATH_MAX];
	int			 per_match;	/* games per match */
	int			 sets;		/* random option sets */
	uint64_t		 seed;
	long			 tpm, bank, hello;
	unsigned int		 max_time;	/* s per match */
	size_t			 stderr_limit;
	char			 dir[PATH_MAX];	/* where the logs go */
	int			 keep;
	int			 quiet;
	struct contain		 ct;		/* the bot's limits */
};

/* One match of the check. */
struct run {
	int		 number;	/* 1-based within its game */
	int		 players;
	int		 bot;		/* the checked bot's index */
	uint64_t	 seed;
	char		**kv;		/* its options, KEY=VALUE */
	char		 log[PATH_MAX];
};

static volatile sig_atomic_t	stop;

static void	usage(FILE *, int) __attribute__((noreturn));
static char	*with_env(char *, const char *, char *const *, int);
static char	*join_words(int, char **);
static void	add_game(struct check *, const struct game *);
static char	*opponent_command(const struct check *, int);
static char	*reproduce(const struct check *, const struct game *,
		    const struct run *);
static long	reap_orphans(struct botstats *);
static void	remove_files(const struct run *);
static void	run_match(struct check *, const struct game *, struct run *,
		    struct botstats *);
static int	check_game(struct check *, const struct game *, int);
static void	print_row(const char *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	print_notes(const struct botstats *, int);
static void	limit_advice(const struct check *, const struct botstats *);
static void	find_programs(struct check *);
static void	work_dir(struct check *);
static int	check_all(struct check *);

/* Prints the usage (the whole help with --help) and exits. */
static void
usage(FILE *fp, int status)
{
	fprintf(fp,
"usage: botcheck [-g GAME ... | --all] [-n GAMES] [-r SETS] [-s SEED]\n"
"                [--time-per-move MS] [--time-bank MS] [--time-hello MS]\n"
"                [--max-time S] [--stderr-limit BYTES] [--opponent 'CMD']\n"
"                [--keep DIR] [--dir DIR] [--env KEY=VALUE ...]\n"
"                [--limit-cpu S] [--limit-mem MIB] [--limit-nproc N]\n"
"                [--limit-fsize MIB] [--limit-nofile N] [--limit-scratch MIB]\n"
"                [-q]\n"
"                -- 'BOT COMMAND' | BOT ARGS...\n");
	if (status != 0) {
		fprintf(fp, "Try 'botcheck --help' for more.\n");
		exit(status);
	}
	fprintf(fp, "\n"
"Checks a bot before it enters a tournament: plays it against random bots\n"
"in each game, with the game's default options and with random option sets,\n"
"at a random seat, and reports per game whether its handshake was right,\n"
"its answers came in time, it wrote no malformed lines and no illegal\n"
"actions, it did not exit early or run into a resource limit, how much it\n"
"wrote to stderr, whether it left processes behind, and its mean and max\n"
"decision time.\n"
"\n"
"  -g, --game GAME        check this game (repeatable); default: every game\n"
"      --all              check every game\n"
"  -n, --games N          games per match (default %d)\n"
"  -r, --option-sets N    random option sets per game (default %d)\n"
"  -s, --seed SEED        the check's seed, so it can be repeated\n"
"      --time-per-move MS time for each answer (default %d)\n"
"      --time-bank MS     extra time per game drawn on by slow answers\n"
"                         (default 0: every answer within the move's time)\n"
"      --time-hello MS    time for the hello answer (default %d)\n"
"      --max-time S       longest a match may take (default %d)\n"
"      --stderr-limit B   most bytes of stderr per match (default %d)\n"
"      --opponent 'CMD'   the other seats' bot (default: bin/random)\n"
"      --keep DIR         keep the match logs in DIR (replay them with\n"
"                         bin/replay); default: a temporary directory\n"
"      --dir DIR          run the bot in DIR (a tournament file's \"dir\")\n"
"      --env KEY=VALUE    set this in the bot's environment; repeatable\n"
"                         (a tournament file's \"env\")\n"
"      --limit-cpu S, --limit-mem MIB, --limit-nproc N, --limit-fsize MIB,\n"
"      --limit-nofile N, --limit-scratch MIB\n"
"                         the bot's resource limits, as the referee's flags\n"
"                         (a tournament file's \"limits\"; defaults: see\n"
"                         bin/referee --help)\n"
"  -q, --quiet            only each game's verdict and the summary\n"
"  -V, --version          the version of botcheck and of the protocol\n"
"\n"
"The bot is one command string, split into words as the referee's -b is,\n"
"or several words after --.  Everything the bot wrote is shown through\n"
"vis(3).  A failing run prints a shell command that replays it with the\n"
"same limits, directory and environment.  Exit status: 0 when the bot passed every game, 1 when it did\n"
"not, 2 for a bad command line.\n", DEFAULT_GAMES, DEFAULT_SETS,
	    DEFAULT_TPM, DEFAULT_HELLO, DEFAULT_MAX_TIME, DEFAULT_STDERR);
	exit(0);
}

/* Returns a new command string of n words, each quoted. */
static char *
join_words(int n, char **words)
{
	char *s = NULL, *q;
	size_t len = 0, k;
	int i;

	for (i = 0; i < n; i++) {
		q = argv_quote(words[i]);
		k = strlen(q);
		s = xreallocarray(s, len + k + 2, 1);
		if (i > 0)
			s[len++] = ' ';
		memcpy(s + len, q, k + 1);
		len += k;
		free(q);
	}
	return s;
}

/* Adds a game to the check once. */
static void
add_game(struct check *ck, const struct game *g)
{
	int i;

	for (i = 0; i < ck->ngames; i++)
		if (ck->games[i] == g)
			return;
	if (ck->ngames == (int)(sizeof ck->games / sizeof ck->games[0]))
		errx(2, "too many games");
	ck->games[ck->ngames++] = g;
}

/* Returns the new command of opponent number i (0-based). */
static char *
opponent_command(const struct check *ck, int i)
{
	char *q, *cmd;
	size_t len;

	if (ck->opponent != NULL)
		return xstrdup(ck->opponent);
	q = argv_quote(ck->random);
	len = strlen(q) + 32;
	cmd = xmalloc(len);
	snprintf(cmd, len, "%s --seed %d", q, i + 1);
	free(q);
	return cmd;
}

/*
 * Returns cmd (freed) run through env(1) in directory dir (or NULL) with
 * the KEY=VALUE settings, as a tournament runs a bot with "dir" and "env".
 */
static char *
with_env(char *cmd, const char *dir, char *const *kv, int n)
{
	struct buf b = { NULL, 0, 0 };
	char *q;
	int i;

	buf_printf(&b, "env");
	if (dir != NULL) {
		q = argv_quote(dir);
		buf_printf(&b, " -C %s", q);
		free(q);
	}
	for (i = 0; i < n; i++) {
		q = argv_quote(kv[i]);
		buf_printf(&b, " %s", q);
		free(q);
	}
	buf_printf(&b, " %s", cmd);
	free(cmd);
	q = xstrdup(b.p);
	buf_free(&b);
	return q;
}

/*
 * Returns the new shell command that replays run r: in this directory,
 * bin/referee with the same limits, the bot with its directory and
 * environment.
 */
static char *
reproduce(const struct check *ck, const struct game *g, const struct run *r)
{
	struct buf b = { NULL, 0, 0 };
	char path[PATH_MAX + 16], *q, *cmd;
	int i;

	if (getcwd(path, sizeof path) != NULL) {
		q = argv_quote(path);
		buf_printf(&b, "cd %s && ", q);
		free(q);
	}
	q = argv_quote(ck->referee);
	buf_printf(&b, "%s -g %s -s %llu --games %d", q, g->name,
	    (unsigned long long)r->seed, ck->per_match);
	free(q);
	for (i = 0; r->kv[i] != NULL; i++) {
		q = argv_quote(r->kv[i]);
		buf_printf(&b, " -o %s", q);
		free(q);
	}
	buf_printf(&b, " --time-per-move %ld --time-bank %ld --time-hello %ld "
	    "--on-fault retire --log match.log", ck->tpm, ck->bank, ck->hello);
	path[0] = '\0';
	contain_limit_args(&ck->ct, path, sizeof path);
	buf_printf(&b, "%s", path);
	for (i = 0; i < r->players; i++) {
		cmd = i == r->bot ? xstrdup(ck->bot) : opponent_command(ck, i);
		q = argv_quote(cmd);
		buf_printf(&b, " -b %s", q);
		free(q);
		free(cmd);
	}
	/* Through vis(3) only when it holds a byte a terminal would act on:
	 * else it is the very command to paste. */
	for (i = 0; (size_t)i < b.len && b.p[i] >= 0x20 && b.p[i] < 0x7f; i++)
		;
	q = (size_t)i == b.len ? xstrdup(b.p) : vis_text(b.p, b.len, b.len);
	buf_free(&b);
	return q;
}

/*
 * Kills and reaps the processes that came back to us (we are their
 * subreaper) after a match: its bots are reaped by then, so a child that
 * is still alive a moment later escaped its bot's process group.  Returns
 * how many were left behind, noting them in *s.
 */
static long
reap_orphans(struct botstats *s)
{
	DIR *d;
	struct dirent *de;
	FILE *fp;
	char path[64], stat[512], note[BC_NOTE_LEN], *p, *v;
	long left = 0, ppid;
	pid_t pid, me = getpid();
	int tries, live;

	for (tries = 0; tries < ORPHAN_WAIT_MS / 10 * 2 + 1; tries++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if ((d = opendir("/proc")) == NULL)
			return left;
		live = 0;
		while ((de = readdir(d)) != NULL) {
			if ((pid = (pid_t)strtol(de->d_name, &p, 10)) <= 0 ||
			    *p != '\0')
				continue;
			snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
			if ((fp = fopen(path, "r")) == NULL)
				continue;
			stat[0] = '\0';
			if (fgets(stat, sizeof stat, fp) == NULL)
				stat[0] = '\0';
			fclose(fp);
			if ((p = strrchr(stat, ')')) == NULL ||
			    sscanf(p + 1, " %*c %ld", &ppid) != 1 ||
			    (pid_t)ppid != me)
				continue;
			live++;
			/* Past the grace: an escapee.  Kill it and its own. */
			if (tries >= ORPHAN_WAIT_MS / 10) {
				*p = '\0';
				v = strchr(stat, '(');
				v = vis_text(v ? v + 1 : "?", strlen(v ? v + 1 :
				    "?"), 32);
				snprintf(note, sizeof note, "process %d (%s) "
				    "outlived the bot's process group",
				    (int)pid, v);
				free(v);
				if (s->nnotes[NOTE_LEFT] < BC_NOTES)
					strlcpy(s->notes[NOTE_LEFT]
					    [s->nnotes[NOTE_LEFT]++], note,
					    BC_NOTE_LEN);
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				left++;
			}
		}
		closedir(d);
		if (live == 0)
			break;
		usleep(10000);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return left;
}

/* Removes a run's log and stderr files. */
static void
remove_files(const struct run *r)
{
	char path[PATH_MAX + 32];
	int i;

	unlink(r->log);
	for (i = 0; i < r->players; i++) {
		snprintf(path, sizeof path, "%s.bot%d.stderr", r->log, i);
		unlink(path);
	}
}

/* Plays run r of game g and reads its log into *s. */
static void
run_match(struct check *ck, const struct game *g, struct run *r,
    struct botstats *s)
{
	struct match_config cf;
	struct match_result res;
	char **cmds, cause[1024], path[PATH_MAX + 32], *v;
	int i, rc;

	match_config_init(&cf);
	cf.game = g;
	opts_defaults(g, &cf.opts, r->players);
	for (i = 0; r->kv[i] != NULL; i++)
		if (opts_set(g, &cf.opts, r->kv[i], cause, sizeof cause) == -1)
			errx(1, "%s", cause);
	if (opts_finish(g, &cf.opts, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	cmds = xcalloc((size_t)r->players + 1, sizeof *cmds);
	for (i = 0; i < r->players; i++)
		cmds[i] = i == r->bot ? xstrdup(ck->bot) :
		    opponent_command(ck, i);
	if (snprintf(r->log, sizeof r->log, "%s/%s-%d.log", ck->dir, g->name,
	    r->number) >= (int)sizeof r->log)
		errx(1, "%s: the path is too long", ck->dir);
	cf.seed = r->seed;
	cf.games = ck->per_match;
	cf.nbots = r->players;
	cf.commands = cmds;
	cf.log_path = r->log;
	cf.stderr_cap = STDERR_KEEP;
	cf.time_per_move_ms = ck->tpm;
	cf.time_bank_ms = ck->bank;
	cf.time_hello_ms = ck->hello;
	cf.policy = POLICY_RETIRE;
	cf.stop = &stop;

	alarm(ck->max_time);
	rc = match_run(&cf, &res, cause, sizeof cause);
	alarm(0);
	if (rc == -1 && res.aborted != 0 && res.aborted != SIGALRM) {
		warnx("%s; every bot was killed", cause);
		if (!ck->keep) {
			remove_files(r);
			rmdir(ck->dir);
		}
		signal(res.aborted, SIG_DFL);
		raise(res.aborted);
		exit(1);
	}
	if (stop == SIGALRM)
		stop = 0;
	if (logscan(r->log, r->bot, ck->tpm, s, path, sizeof path) == -1)
		memset(s, 0, sizeof *s);
	if (rc == -1) {
		if (res.aborted == SIGALRM)
			snprintf(cause, sizeof cause, "the match took longer "
			    "than %u s (--max-time)", ck->max_time);
		if (s->aborted == 0)
			s->aborted = 1;
		v = vis_text(cause, strlen(cause), BC_NOTE_LEN / 2);
		strlcpy(s->error, v, sizeof s->error);
		free(v);
		/* "bot N: CAUSE": the checked bot itself could not start */
		if (res.unstarted == r->bot + 1 &&
		    (v = strchr(s->error, ':')) != NULL)
			strlcpy(s->unstarted, v + 2, sizeof s->unstarted);
	}
	snprintf(path, sizeof path, "%s.bot%d.stderr", r->log, r->bot);
	s->stderr_bytes = stderr_size(path);
	s->stderr_over = s->stderr_bytes > ck->stderr_limit;
	s->leftovers = reap_orphans(s);
	for (i = 0; i < NNOTE; i++)
		for (rc = 0; rc < s->nnotes[i]; rc++) {
			snprintf(cause, sizeof cause, "run %d, %s", r->number,
			    s->notes[i][rc]);
			strlcpy(s->notes[i][rc], cause, BC_NOTE_LEN);
		}
	if (s->error[0] != '\0') {
		snprintf(cause, sizeof cause, "run %d: %s", r->number,
		    s->error);
		strlcpy(s->error, cause, sizeof s->error);
	}
	if (!ck->keep)
		remove_files(r);
	for (i = 0; i < r->players; i++)
		free(cmds[i]);
	free(cmds);
}

/* Prints one row of a game's report. */
static void
print_row(const char *what, int ok, const char *fmt, ...)
{
	va_list ap;

	printf("  %-16s %-4s ", what, ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Prints the notes kept under kind k. */
static void
print_notes(const struct botstats *s, int k)
{
	int i;

	for (i = 0; i < s->nnotes[k]; i++)
		printf("  %-16s      %s\n", "", s->notes[k][i]);
}

/*
 * Checks the bot in game g, whose runs are drawn from the check's seed and
 * the game's index gi in the games table; returns 1 if it passed.
 */
/* For each limit the bot hit, the flag (and tournament key) to raise. */
static void
limit_advice(const struct check *ck, const struct botstats *sum)
{
	const struct limit_flag *f;

	for (f = limit_flags; f->key != NULL; f++) {
		if (f->limit == -1 || sum->limits[f->limit] == 0)
			continue;
		printf("  %-16s      needs more? raise %s (now %ld; \"%s\" "
		    "in a\n  %-16s      tournament file's \"limits\")\n", "",
		    f->flag, contain_limit_value(&ck->ct, (int)(f -
		    limit_flags)), f->key, "");
	}
}

static int
check_game(struct check *ck, const struct game *g, int gi)
{
	struct botstats sum, one;
	struct run r;
	struct rng rng;
	char *line, reasons[512];
	long bad, nmalformed, nlimits;
	int i, n, failed, hello_ok;

	memset(&sum, 0, sizeof sum);
	printf("%s: %d match%s of %d game%s (defaults, %d random option "
	    "set%s)\n", g->name, ck->sets + 1, ck->sets ? "es" : "",
	    ck->per_match, ck->per_match == 1 ? "" : "s", ck->sets,
	    ck->sets == 1 ? "" : "s");
	fflush(stdout);
	rng_seed(&rng, seed_derive(ck->seed, (uint64_t)gi));
	for (n = 0; n <= ck->sets; n++) {
		memset(&r, 0, sizeof r);
		r.number = n + 1;
		if (n == 0) {
			r.players = g->default_players;
			r.kv = xcalloc(1, sizeof *r.kv);
		} else
			r.kv = optgen_random(g, &rng, &r.players);
		r.seed = rng_next(&rng) & INT64_MAX;
		r.bot = (int)rng_below(&rng, (uint32_t)r.players);
		run_match(ck, g, &r, &one);
		failed = one.hello_faults || one.aborted || one.leftovers ||
		    one.stderr_over;
		for (bad = 0; bad < NFAULT; bad++)
			failed |= one.faults[bad] != 0;
		if (!ck->quiet) {
			printf("  run %d: %d player%s, seat %d, seed %llu, ",
			    r.number, r.players, r.players == 1 ? "" : "s",
			    r.bot, (unsigned long long)r.seed);
			if (r.kv[0] == NULL)
				printf("default options");
			for (bad = 0; r.kv[bad] != NULL; bad++)
				printf("%s-o %s", bad ? " " : "", r.kv[bad]);
			printf(": %ld game%s, %ld request%s, %s\n", one.games,
			    one.games == 1 ? "" : "s", one.requests,
			    one.requests == 1 ? "" : "s", failed ? "FAILED" :
			    "clean");
			if (failed) {
				line = reproduce(ck, g, &r);
				printf("    reproduce: %s\n", line);
				free(line);
				if (ck->keep)
					printf("    log: %s\n", r.log);
			}
			fflush(stdout);
		}
		stats_add(&sum, &one);
		argv_free(r.kv);
	}

	reasons[0] = '\0';
	nmalformed = sum.faults[FAULT_MALFORMED] + sum.faults[FAULT_LONG_LINE] +
	    sum.faults[FAULT_WRONG_ID];
#define REASON(cond, text) do {						\
	if (cond) {							\
		if (reasons[0] != '\0')					\
			strlcat(reasons, ", ", sizeof reasons);		\
		strlcat(reasons, text, sizeof reasons);			\
	}								\
} while (0)
	for (i = 0, nlimits = 0; i < NLIMIT; i++)
		nlimits += sum.limits[i];
	hello_ok = sum.hello_faults == 0 && sum.name[0] != '\0';
	REASON(!hello_ok, "handshake");
	REASON(sum.faults[FAULT_TIMEOUT], "timeout");
	REASON(nmalformed, "malformed");
	REASON(sum.faults[FAULT_ILLEGAL], "illegal");
	REASON(sum.faults[FAULT_EXIT], "exit");
	REASON(nlimits, "limit");
	REASON(sum.stderr_over, "stderr");
	REASON(sum.leftovers, "leftovers");
	REASON(sum.aborted, "unfinished");
#undef REASON
	if (!ck->quiet) {
		print_row("handshake", hello_ok, "%s%s%s",
		    sum.name[0] ? "name \"" : "no name", sum.name,
		    sum.name[0] ? "\"" : "");
		print_notes(&sum, NOTE_HELLO);
		if (sum.hello_timeouts > 0)
			printf("  %-16s      a slow starter? raise --time-hello "
			    "(now %ld ms; \"time_hello_ms\"\n  %-16s      in "
			    "a tournament file)\n", "", ck->hello, "");
		print_row("answers in time", sum.faults[FAULT_TIMEOUT] == 0,
		    "%ld timeout%s in %ld request%s (%ld ms each%s)",
		    sum.faults[FAULT_TIMEOUT],
		    sum.faults[FAULT_TIMEOUT] == 1 ? "" : "s", sum.requests,
		    sum.requests == 1 ? "" : "s", ck->tpm, ck->bank ?
		    " + the bank" : "");
		print_notes(&sum, FAULT_TIMEOUT);
		if (sum.faults[FAULT_TIMEOUT] > 0)
			printf("  %-16s      slow rather than stuck? raise "
			    "--time-per-move or --time-bank\n  %-16s      (now "
			    "%ld and %ld ms; \"time_per_move_ms\" and "
			    "\"time_bank_ms\" in a\n  %-16s      tournament "
			    "file)\n", "", "", ck->tpm, ck->bank, "");
		print_row("malformed lines", nmalformed == 0, "%ld (malformed "
		    "%ld, too long %ld, wrong id %ld)", nmalformed,
		    sum.faults[FAULT_MALFORMED], sum.faults[FAULT_LONG_LINE],
		    sum.faults[FAULT_WRONG_ID]);
		print_notes(&sum, FAULT_MALFORMED);
		print_notes(&sum, FAULT_LONG_LINE);
		print_notes(&sum, FAULT_WRONG_ID);
		print_row("illegal actions", sum.faults[FAULT_ILLEGAL] == 0,
		    "%ld", sum.faults[FAULT_ILLEGAL]);
		print_notes(&sum, FAULT_ILLEGAL);
		print_row("early exits", sum.faults[FAULT_EXIT] == 0, "%ld",
		    sum.faults[FAULT_EXIT]);
		print_notes(&sum, FAULT_EXIT);
		print_row("resource limits", nlimits == 0, "%ld hit (cpu %ld, "
		    "memory %ld, file size %ld)", nlimits,
		    sum.limits[LIMIT_CPU], sum.limits[LIMIT_MEMORY],
		    sum.limits[LIMIT_FSIZE]);
		print_notes(&sum, FAULT_LIMIT);
		limit_advice(ck, &sum);
		print_row("stderr", sum.stderr_over == 0, "%zu bytes (limit "
		    "%zu a match)", sum.stderr_bytes, ck->stderr_limit);
		print_row("leftovers", sum.leftovers == 0, "%ld process%s left "
		    "behind", sum.leftovers, sum.leftovers == 1 ? "" : "es");
		print_notes(&sum, NOTE_LEFT);
		print_row("matches", sum.aborted == 0, "%ld finished, %ld "
		    "not%s%s", sum.matches, sum.aborted, sum.error[0] ? ": " :
		    "", sum.error);
		if (sum.answered > 0)
			printf("  %-16s      mean %.2f ms, max %.2f ms over "
			    "%ld answer%s\n", "decision time",
			    (double)sum.time_sum_us / (double)sum.answered /
			    1000.0, (double)sum.time_max_us / 1000.0,
			    sum.answered, sum.answered == 1 ? "" : "s");
		else
			printf("  %-16s      no answer\n", "decision time");
		if (sum.slow > 0)
			printf("  %-16s      %ld answer%s drew on the time "
			    "bank\n", "", sum.slow, sum.slow == 1 ? "" : "s");
	}
	if (sum.unstarted[0] != '\0')
		printf("  %-16s FAIL could not start: %s\n", "start",
		    sum.unstarted);
	if (reasons[0] == '\0')
		printf("  %-16s PASS\n", "verdict");
	else
		printf("  %-16s FAIL (%s)\n", "verdict", reasons);
	fflush(stdout);
	return reasons[0] == '\0';
}

/*
 * Finds bin/referee and bin/random beside botcheck, and checks the
 * --opponent command's program; exits 2 if an opponent cannot be run.
 */
static void
find_programs(struct check *ck)
{
	char failed[1024], **words;

	cli_beside("referee", ck->referee, sizeof ck->referee);
	if (cli_beside("random", ck->random, sizeof ck->random) == -1 &&
	    ck->opponent == NULL)
		errx(2, "%s: %s (build it with make, or give --opponent)",
		    ck->random, strerror(errno));
	if (ck->opponent != NULL) {
		if (argv_split(ck->opponent, &words, failed, sizeof failed) ==
		    -1)
			errx(2, "--opponent: %s", failed);
		if (strchr(words[0], '/') != NULL &&
		    access(words[0], X_OK) == -1)
			err(2, "--opponent: %s", words[0]);
		argv_free(words);
	}
}

/* Makes the --keep directory, or a fresh one under $TMPDIR; exits if not. */
static void
work_dir(struct check *ck)
{
	struct stat sb;

	if (ck->keep) {
		if (mkdir(ck->dir, 0755) == -1 && errno != EEXIST)
			err(2, "--keep %s", ck->dir);
		if (stat(ck->dir, &sb) == -1)
			err(2, "--keep %s", ck->dir);
		if (!S_ISDIR(sb.st_mode))
			errx(2, "--keep %s: not a directory", ck->dir);
	} else {
		snprintf(ck->dir, sizeof ck->dir, "%s/botcheck.XXXXXX",
		    getenv("TMPDIR") != NULL && *getenv("TMPDIR") != '\0' ?
		    getenv("TMPDIR") : "/tmp");
		if (mkdtemp(ck->dir) == NULL)
			err(1, "mkdtemp %s", ck->dir);
	}
}

/*
 * Plays every game's checks and prints the verdict; returns the number
 * of games passed.
 */
static int
check_all(struct check *ck)
{
	char failed[1024], *v;
	int c, i, passed;

	v = vis_text(ck->bot, strlen(ck->bot), strlen(ck->bot));
	printf("botcheck: %s\nseed %llu, %d ms a move, bank %ld ms, hello %ld "
	    "ms, --on-fault retire\n\n", v, (unsigned long long)ck->seed,
	    (int)ck->tpm, ck->bank, ck->hello);
	free(v);
	failed[0] = '\0';
	for (i = 0, passed = 0; i < ck->ngames; i++) {
		for (c = 0; games[c] != NULL && games[c] != ck->games[i]; c++)
			;
		if (check_game(ck, ck->games[i], c))
			passed++;
		else {
			if (failed[0] != '\0')
				strlcat(failed, ", ", sizeof failed);
			strlcat(failed, ck->games[i]->name, sizeof failed);
		}
		putchar('\n');
	}
	if (!ck->keep)
		rmdir(ck->dir);
	if (passed == ck->ngames)
		printf("botcheck: PASS (%d game%s)\n", passed,
		    passed == 1 ? "" : "s");
	else
		printf("botcheck: FAIL in %s (%d of %d games passed)\n", failed,
		    passed, ck->ngames);
	return passed;
}

int
main(int argc, char **argv)
{
	struct check ck;
	const struct game *g;
	struct stat sb;
	char failed[1024], hint[96], **words, *v, **envv = NULL;
	struct option *lo;
	const char *botdir = NULL;
	int c, i, passed, seeded = 0, nenv = 0;

	memset(&ck, 0, sizeof ck);
	contain_init(&ck.ct);
	ck.per_match = DEFAULT_GAMES;
	ck.sets = DEFAULT_SETS;
	ck.tpm = DEFAULT_TPM;
	ck.hello = DEFAULT_HELLO;
	ck.max_time = DEFAULT_MAX_TIME;
	ck.stderr_limit = DEFAULT_STDERR;
	opterr = 0;
	lo = cli_limit_longopts(longopts, OPT_LIMITS);
	while ((c = getopt_long(argc, argv, ":g:n:r:s:qhV", lo,
	    NULL)) != -1) {
		if (cli_limit_option(&ck.ct, c, OPT_LIMITS, optarg))
			continue;
		switch (c) {
		case 'g':
			if ((g = game_find(optarg)) == NULL)
				errx(2, "no game '%s' (%ssee bin/referee "
				    "--list-games)", optarg,
				    game_near(optarg, hint, sizeof hint));
			add_game(&ck, g);
			break;
		case OPT_ALL:
			for (i = 0; games[i] != NULL; i++)
				add_game(&ck, games[i]);
			break;
		case 'n':
			ck.per_match = (int)cli_number("-n", optarg, 1, 1000);
			break;
		case 'r':
			ck.sets = (int)cli_number("-r", optarg, 0, 100);
			break;
		case 's':
			ck.seed =
			    (uint64_t)cli_number("-s", optarg, 0, LLONG_MAX);
			seeded = 1;
			break;
		case OPT_TPM:
			ck.tpm = (long)cli_number("--time-per-move", optarg, 1,
			    3600000);
			break;
		case OPT_BANK:
			ck.bank = (long)cli_number("--time-bank", optarg, 0,
			    86400000);
			break;
		case OPT_HELLO:
			ck.hello = (long)cli_number("--time-hello", optarg, 1,
			    3600000);
			break;
		case OPT_MAX_TIME:
			ck.max_time =
			    (unsigned int)cli_number("--max-time", optarg,
			    1, 86400);
			break;
		case OPT_STDERR:
			ck.stderr_limit = (size_t)cli_number("--stderr-limit",
			    optarg, 0, 1LL << 30);
			break;
		case OPT_OPPONENT:
			ck.opponent = optarg;
			break;
		case OPT_DIR:
			if (stat(optarg, &sb) == -1)
				err(2, "--dir %s", optarg);
			if (!S_ISDIR(sb.st_mode))
				errx(2, "--dir %s: not a directory", optarg);
			botdir = optarg;
			break;
		case OPT_ENV:
			if ((v = strchr(optarg, '=')) == NULL || v == optarg)
				errx(2, "--env %s: not KEY=VALUE", optarg);
			envv = xreallocarray(envv, (size_t)nenv + 1,
			    sizeof *envv);
			envv[nenv++] = optarg;
			break;
		case OPT_KEEP:
			if (strlen(optarg) >= sizeof ck.dir - 64)
				errx(2, "--keep %s: too long", optarg);
			strlcpy(ck.dir, optarg, sizeof ck.dir);
			ck.keep = 1;
			break;
		case 'q':
			ck.quiet = 1;
			break;
		case 'h':
			usage(stdout, 0);
		case 'V':
			cli_version("botcheck");
		default:
			cli_bad_option("botcheck", c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		errx(2, "no bot: give its command after --, e.g. botcheck -- "
		    "'python3 mybot.py'");
	ck.bot = argc == 1 ? xstrdup(argv[0]) : join_words(argc, argv);
	if (argv_split(ck.bot, &words, failed, sizeof failed) == -1)
		errx(2, "the bot's command: %s", failed);
	argv_free(words);
	if (botdir != NULL || nenv > 0)
		ck.bot = with_env(ck.bot, botdir, envv, nenv);
	free(envv);
	if (ck.ngames == 0)
		for (i = 0; games[i] != NULL; i++)
			add_game(&ck, games[i]);
	if (!seeded)
		ck.seed = seed_fresh() & INT64_MAX;
	find_programs(&ck);
	work_dir(&ck);
#ifdef __linux__
	/* Stragglers are ours to find and report (leftovers), not swept. */
	ck.ct.no_sweep = 1;
	contain_set(&ck.ct);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1)
		warn("PR_SET_CHILD_SUBREAPER: escaped processes go unnoticed");
#endif
	if (proc_guard(&stop, SIGALRM) == -1)
		errx(1, "atexit failed");

	passed = check_all(&ck);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	free(ck.bot);
	return passed == ck.ngames ? 0 : 1;
}
