/*
 * bin/referee: runs one match of a registered game between bot programs
 * (match.c does the work), or lists and describes the games.  This file
 * only reads the command line, loads the --setup file, installs the signal
 * handling that guarantees no bot outlives the referee, and prints the
 * result line.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "contain.h"
#include "cpulease.h"
#include "match.h"
#include "matchlog.h"
#include "proc.h"

enum {
	OPT_GAMES = 256, OPT_SETUP, OPT_LOG, OPT_RESULTS, OPT_TPM, OPT_BANK,
	OPT_HELLO, OPT_FAULT, OPT_DUP, OPT_GLIST, OPT_STDERR_CAP, OPT_STATS,
	OPT_LIST_GAMES, OPT_DESCRIBE, OPT_GRACE, OPT_MAXDEC, OPT_LOGLEVEL,
	OPT_LOGMAX, OPT_NOREPLAY, OPT_LIMITS,	/* cli_limit_longopts */
	OPT_ENV = OPT_LIMITS + NLIMIT_FLAGS, OPT_BOT_USER,
	OPT_SANDBOX, OPT_SANDBOX_CHECKED, OPT_NO_SANDBOX, OPT_SBIND, OPT_SHIDE, OPT_MAX_FAULTS,
	OPT_MAX_BYTES, OPT_FIRST, OPT_BOOK, OPT_CPU, OPT_BOT_DIR
};

static const struct option longopts[] = {
	{ "game",		required_argument,	NULL, 'g' },
	{ "players",		required_argument,	NULL, 'n' },
	{ "seed",		required_argument,	NULL, 's' },
	{ "option",		required_argument,	NULL, 'o' },
	{ "bot",		required_argument,	NULL, 'b' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ "games",		required_argument,	NULL, OPT_GAMES },
	{ "setup",		required_argument,	NULL, OPT_SETUP },
	{ "log",		required_argument,	NULL, OPT_LOG },
	{ "results",		required_argument,	NULL, OPT_RESULTS },
	{ "time-per-move",	required_argument,	NULL, OPT_TPM },
	{ "time-bank",		required_argument,	NULL, OPT_BANK },
	{ "time-hello",		required_argument,	NULL, OPT_HELLO },
	{ "grace",		required_argument,	NULL, OPT_GRACE },
	{ "on-fault",		required_argument,	NULL, OPT_FAULT },
	{ "duplicate",		no_argument,		NULL, OPT_DUP },
	{ "game-list",		required_argument,	NULL, OPT_GLIST },
	{ "stderr-cap",		required_argument,	NULL, OPT_STDERR_CAP },
	{ "stats",		no_argument,		NULL, OPT_STATS },
	{ "max-decisions",	required_argument,	NULL, OPT_MAXDEC },
	{ "log-level",		required_argument,	NULL, OPT_LOGLEVEL },
	{ "log-max",		required_argument,	NULL, OPT_LOGMAX },
	{ "no-replay",		no_argument,		NULL, OPT_NOREPLAY },
	{ "first-game",		required_argument,	NULL, OPT_FIRST },
	{ "deal-book",		required_argument,	NULL, OPT_BOOK },
	{ "list-games",		no_argument,		NULL, OPT_LIST_GAMES },
	{ "describe",		required_argument,	NULL, OPT_DESCRIBE },
	{ "env",		required_argument,	NULL, OPT_ENV },
	{ "bot-user",		required_argument,	NULL, OPT_BOT_USER },
	{ "sandbox",		no_argument,		NULL, OPT_SANDBOX },
	{ "sandbox-checked",	no_argument,		NULL, OPT_SANDBOX_CHECKED },
	{ "no-sandbox",		no_argument,		NULL, OPT_NO_SANDBOX },
	{ "sandbox-bind",	required_argument,	NULL, OPT_SBIND },
	{ "sandbox-hide",	required_argument,	NULL, OPT_SHIDE },
	{ "bot-dir",		required_argument,	NULL, OPT_BOT_DIR },
	{ "cpu",		required_argument,	NULL, OPT_CPU },
	{ "max-faults",		required_argument,	NULL, OPT_MAX_FAULTS },
	{ "max-output",		required_argument,	NULL, OPT_MAX_BYTES },
	{ NULL,			0,			NULL, 0 }
};

/* What the command line says besides the match's configuration. */
struct args {
	const char	*gname, *setup_path, *list_arg, *first_arg, *book_path;
	char		**bots, **optv;	/* the -b and -o strings */
	int		 nbots, nopt, players, quiet, stats, seeded;
};

static volatile sig_atomic_t	stop;
static volatile sig_atomic_t	finish;	/* SIGUSR1: end after this game */

static void	usage(FILE *, int) __attribute__((noreturn));
static int	contain_option(struct contain *, int, char *);
static void	bot_dir(struct contain *, const char *);
static void	bots_own(struct contain *, struct args *);
static void	parse_args(int, char **, struct match_config *,
		    struct contain *, struct args *);
static void	configure(struct match_config *, struct args *, json_t **);
static void	read_setup(struct match_config *, const char *, json_t **,
		    void **);
static char	*hide_log(struct contain *, const struct match_config *, int);
static void	open_std_fds(void);
static void	list_games(void);
static void	describe(const char *);
static int	*parse_game_list(const char *, int, int *);
static void	print_stats(const struct match_result *, int);
static void	memcheck(struct contain *, char **, int, const char *);
static void	on_finish(int);

/* SIGUSR1: the match ends after the game (the deal) in play. */
static void
on_finish(int sig)
{
	finish = 1;
}

/* Prints the usage (the whole help with --help) and exits. */
static void
usage(FILE *fp, int status)
{
	fprintf(fp,
"usage: referee -g GAME [-n PLAYERS] [-s SEED] [--games K] [-o KEY=VALUE ...]\n"
"               [--setup FILE] [--log FILE] [--results FILE]\n"
"               [--time-per-move MS] [--time-bank MS] [--time-hello MS]\n"
"               [--on-fault random|default|retire] [--duplicate]\n"
"               [--game-list LIST [--no-replay]] [--max-decisions N]\n"
"               [--log-level full|lean]\n"
"               [--log-max BYTES] [--stderr-cap BYTES] [--stats] [-q]\n"
"               [--limit-cpu S] [--limit-mem MIB] [--limit-nproc N]\n"
"               [--limit-fsize MIB] [--limit-nofile N] [--limit-scratch MIB]\n"
"               [--env KEY=VALUE] [--bot-user auto|same]\n"
"               [--sandbox | --sandbox-checked | --no-sandbox]\n"
"               [--sandbox-bind DIR] [--bot-dir N=DIR]\n"
"               [--sandbox-hide DIR] [--max-faults N] [--max-output BYTES]\n"
"               [--cpu N|auto|none]\n"
"               -b 'COMMAND ARGS' -b ...\n"
"       referee --list-games\n"
"       referee --describe GAME\n"
"       referee --version\n");
	if (status != 0) {
		fprintf(fp, "Try 'referee --help' for more.\n");
		exit(status);
	}
	fprintf(fp, "\n"
"Runs one match of GAME between bot programs speaking the cardarena bot\n"
"protocol (protocol.md) on their stdin and stdout, and prints the result\n"
"as one JSON line.\n"
"\n"
"  -g, --game GAME        the game id (see --list-games)\n"
"  -n, --players N        seats; default: the number of -b bots (must agree)\n"
"  -s, --seed SEED        the match seed, 0..2^63-1; default: a fresh one\n"
"                         (or $CARDARENA_SEED: a command line is public,\n"
"                         and the seed gives every hidden card)\n"
"      --games K          games in the match (default 1); bots stay alive\n"
"  -o, --option KEY=VALUE a game option (see --describe GAME); repeatable\n"
"      --setup FILE       a JSON file fixing the deal (card order, ...)\n"
"      --log FILE         the match log (JSON lines); bots' stderr goes to\n"
"                         FILE.botN.stderr (else to the referee's stderr)\n"
"      --results FILE     append one JSON line per game ('-' = stdout)\n"
"      --time-per-move MS time for each decision (default 1000)\n"
"      --time-bank MS     extra time per bot per game, drawn on when a\n"
"                         decision takes longer (default 10000)\n"
"      --time-hello MS    time to answer the hello (default 10000)\n"
"      --grace MS         time to exit after \"bye\" before a kill (500)\n"
"      --on-fault POLICY  what replaces a faulty answer: random (a seeded\n"
"                         random legal move, the default), default (the\n"
"                         game's default move) or retire (default moves\n"
"                         for the rest of the game)\n"
"      --duplicate        deal d is played P times, bot b at seat (b+g)%%P;\n"
"                         each seat rotation with new bot processes\n"
"      --game-list LIST   report only these game indices, e.g. 3,7-9 (the\n"
"                         games before them in their bots' lifetime are\n"
"                         replayed first, so each is the same game)\n"
"      --first-game G     the bots' lifetimes begin at game G (a runner's\n"
"                         chunk of deals: a listed game is replayed from\n"
"                         there); with --duplicate, a deal's first game\n"
"      --deal-book FILE   deal d is dealt from line d mod N of FILE (N\n"
"                         set-ups as --setup takes, one JSON per line;\n"
"                         blank lines and # comments skipped)\n"
"      --no-replay        with --game-list: play only the listed games, new\n"
"                         bot processes at the first of each lifetime (for\n"
"                         a runner whose lists are whole lifetimes)\n"
"      --max-decisions N  stop a game after N decisions (default 100000;\n"
"                         0: no cap): it is capped and scored a draw\n"
"                         (every seat first, score 0)\n"
"      --log-level LEVEL  full (the default: every message's text) or lean\n"
"                         (no text of the messages sent; replay rebuilds it)\n"
"      --log-max BYTES    stop logging at this size (a log_capped line ends\n"
"                         the log; the match goes on)\n"
"      --stderr-cap BYTES bytes of each bot's stderr kept (default 1 MiB)\n"
"      --stats            timing figures on stderr at the end\n"
"      --limit-cpu S      CPU seconds per bot process (default 3600)\n"
"      --limit-mem MIB    address space per bot process (default 2048)\n"
"      --limit-nproc N    processes and threads per bot (default 64)\n"
"      --limit-fsize MIB  largest file a bot may write (default 64)\n"
"      --limit-nofile N   open files per bot process (default 64)\n"
"      --limit-scratch MIB each writable tmpfs a bot gets: the sandbox's\n"
"                         /tmp and /dev/shm, an isolated bot's " BOT_SCRATCH "\n"
"                         (default 64)\n"
"                         (0 for any limit: none; a bot killed by one has\n"
"                         a \"limit\" fault naming it)\n"
"      --env KEY=VALUE    set in every bot's environment, which is else\n"
"                         only PATH=" BOT_PATH ", HOME=/tmp\n"
"                         (isolated: HOME and TMPDIR are " BOT_SCRATCH ")\n"
"                         and LANG, LC_ALL, LC_CTYPE, TZ, and the\n"
"                         variables $CARDARENA_BOT_ENV names (NAME,NAME)\n"
"                         from the referee's; repeatable\n"
"      --bot-user MODE    auto (default): as root, each bot runs as a\n"
"                         user id of its own, isolated without the\n"
"                         sandbox: the files read-only but a private\n"
"                         " BOT_SCRATCH ", its own IPC and PID namespaces;\n"
"                         same: as the referee's (not isolated)\n"
"                         (no bot takes a file lock or opens a socket,\n"
"                         sandboxed or not; socketpair stays)\n"
"      --sandbox          every bot in a sandbox (the default where it\n"
"                         works; with --sandbox, an error where not): no\n"
"                         network, its own PID/IPC/UTS namespaces, the\n"
"                         system read-only, of the files its own alone\n"
"                         (read-only: what its command names, its\n"
"                         --bot-dir, else the working directory), a\n"
"                         private /tmp\n"
"      --sandbox-checked  --sandbox, which the caller (a tournament's\n"
"                         runner) has just checked works here: the\n"
"                         referee does not check it again\n"
"      --no-sandbox       no sandbox: as root the bots are isolated,\n"
"                         else they are not protected from each other\n"
"      --sandbox-bind DIR also show DIR (read-only) to every sandboxed bot\n"
"      --bot-dir N=DIR    DIR is bot N's own (the Nth -b, from 0): shown\n"
"                         (read-only) to it alone under the sandbox, where\n"
"                         it then sees not the working directory; hidden\n"
"                         from the other bots, sandboxed or isolated (as\n"
"                         are the directories their commands name);\n"
"                         repeatable\n"
"      --cpu N|auto|none  the referee and its bots on CPU N alone; auto\n"
"                         (default): on one no other cardarena process\n"
"                         holds, but not a slow starter's short match\n"
"      --sandbox-hide DIR hide DIR (or a file) from sandboxed and isolated\n"
"                         bots, even where a command names a path in it\n"
"                         (the log's directory and files are hidden)\n"
"                         ($CARDARENA_BWRAP: bwrap makes the sandbox)\n"
"      --max-faults N     faults per bot per game before it is retired\n"
"                         for the game (default 100; 0: no cap)\n"
"      --max-output BYTES stdout bytes a bot may send per request before\n"
"                         the rest is dropped as a fault (default 4 MiB)\n"
"  -q, --quiet            no result line on stdout\n"
"  -b, --bot 'COMMAND'    a bot, one per seat in order; repeatable\n"
"      --list-games       one line per game: id, players, title\n"
"      --describe GAME    the game's players and options, as JSON\n"
"  -V, --version          the version and the protocol's\n"
"\n"
"A -b string is split into words without a shell: blanks separate words;\n"
"'single quotes' keep everything literally; \"double quotes\" keep\n"
"everything but \\\" and \\\\; a backslash outside quotes keeps the next\n"
"character.  There is no expansion, globbing or redirection.  The first\n"
"word is searched in PATH.  Example: -b 'python3 bot.py --seed 7'.\n"
"\n"
"Exit status: 0 when the match completed (whatever the bots did), 1 when\n"
"the referee failed, 2 for a bad command line, 3 when a write failed for\n"
"want of space (the disk, a quota or the file size limit is full); killed\n"
"by a signal it re-raises that signal after killing every bot.  SIGUSR1\n"
"ends it after the game (--duplicate: the deal) in play, with status 0.\n"
"\n"
"CARDARENA_MEMCHECK=1 runs a match under valgrind (make memcheck): bots\n"
"without the seccomp filter, namespaces or sandbox, as the referee's own\n"
"user, which valgrind needs; refused for any bot that is not a program in\n"
"the referee's own directory (the project's bots, trusted).\n");
	exit(0);
}

/*
 * CARDARENA_MEMCHECK: the bots are trusted (valgrind cannot follow the
 * filter, the namespaces or a change of user), so each must be a program
 * in the directory of the referee itself (self, its argv[0]), or this
 * exits; so is --sandbox.
 */
static void
memcheck(struct contain *ct, char **bots, int nbots, const char *self)
{
	char own[PATH_MAX], real[PATH_MAX], cause[256], **av;
	char *slash;
	int i;

	if (ct->sandbox == 1)
		errx(2, "CARDARENA_MEMCHECK runs trusted bots without the "
		    "sandbox: not with --sandbox");
	if (strchr(self, '/') == NULL || realpath(self, own) == NULL)
		errx(2, "CARDARENA_MEMCHECK: run the referee by its path "
		    "(bin/referee), whose directory holds the trusted bots");
	*strrchr(own, '/') = '\0';
	for (i = 0; i < nbots; i++) {
		if (argv_split(bots[i], &av, cause, sizeof cause) == -1)
			errx(2, "-b '%s': %s", bots[i], cause);
		if (strchr(av[0], '/') == NULL ||
		    realpath(av[0], real) == NULL ||
		    (slash = strrchr(real, '/')) == NULL ||
		    (*slash = '\0', strcmp(real, own) != 0))
			errx(2, "CARDARENA_MEMCHECK runs only the bots of %s, "
			    "trusted: not '%s' (bots written by others need "
			    "the filter and namespaces valgrind cannot follow)",
			    own, bots[i]);
		argv_free(av);
	}
	ct->trusted = 1;
	ct->sandbox = 0;
	ct->user = BOT_USER_SAME;
}

/* Opens /dev/null on any of 0, 1, 2 that is closed. */
static void
open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) != -1 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/* --list-games: "id  players  title", one line per game. */
static void
list_games(void)
{
	char range[16];
	int i;

	for (i = 0; games[i] != NULL; i++) {
		snprintf(range, sizeof range, "%d-%d", games[i]->min_players,
		    games[i]->max_players);
		printf("%-12s %-6s %s\n", games[i]->name, range,
		    games[i]->title);
	}
}

/* --describe GAME: the game's document, indented JSON. */
static void
describe(const char *name)
{
	const struct game *g;
	json_t *j;
	char hint[96];

	if ((g = game_find(name)) == NULL)
		errx(2, "no game '%s' (%ssee --list-games)", name,
		    game_near(name, hint, sizeof hint));
	j = game_describe(g);
	if (json_dumpf(j, stdout, JSON_INDENT(2)) == -1)
		errx(1, "cannot encode the description");
	putchar('\n');
	json_decref(j);
}

/*
 * Parses "3,7-9": distinct game indices in [0, games), a range A-B for
 * A..B (so a runner's chunk of any length is one short argument); exits
 * on a bad one.
 */
static int *
parse_game_list(const char *s, int ngames, int *n)
{
	char *copy, *p, *tok, *dash;
	unsigned char *seen;
	int a, b, g, cap = 0, *list = NULL;

	*n = 0;
	seen = xcalloc((size_t)ngames / 8 + 1, 1);
	copy = xstrdup(s);
	for (p = copy; (tok = strsep(&p, ",")) != NULL; ) {
		if ((dash = strchr(tok, '-')) != NULL && dash != tok)
			*dash++ = '\0';
		else
			dash = NULL;
		a = (int)cli_number("--game-list", tok, 0, ngames - 1);
		b = dash != NULL ? (int)cli_number("--game-list", dash, 0,
		    ngames - 1) : a;
		if (b < a)
			errx(2, "--game-list: %d-%d runs downward", a, b);
		for (g = a; g <= b; g++) {
			if (seen[g / 8] & 1 << g % 8)
				errx(2, "--game-list: game %d is given twice",
				    g);
			seen[g / 8] |= 1 << g % 8;
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				list = xreallocarray(list, (size_t)cap,
				    sizeof *list);
			}
			list[(*n)++] = g;
		}
	}
	free(copy);
	free(seen);
	return list;
}

/*
 * --stats: decisions, timing and the referee's own CPU time; wall_us is
 * the whole match (the bots' starts, hellos and ends too), play_us its
 * games alone, as a poll loop over running children measures; cpu the
 * CPU the match was pinned to, or -1 (it floated).
 */
static void
print_stats(const struct match_result *r, int pinned)
{
	struct rusage ru;
	double cpu;

	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec +
	    (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
	fprintf(stderr, "{\"decisions\":%ld,\"actions\":%ld,\"wall_us\":%lld,"
	    "\"wait_us\":%lld,\"cpu_us\":%.0f,\"cpu_us_per_decision\":%.3f,"
	    "\"wall_us_per_decision\":%.3f,\"play_us\":%lld,"
	    "\"play_us_per_decision\":%.3f,\"cpu\":%d}\n", r->decisions,
	    r->actions,
	    (long long)r->wall_us, (long long)r->wait_us, cpu,
	    r->decisions ? cpu / (double)r->decisions : 0.0,
	    r->decisions ? (double)r->wall_us / (double)r->decisions : 0.0,
	    (long long)r->play_us,
	    r->decisions ? (double)r->play_us / (double)r->decisions : 0.0,
	    pinned);
}

/* --bot-dir N=DIR: DIR is bot N's own; exits 2 on a bad one. */
static void
bot_dir(struct contain *ct, const char *arg)
{
	char num[16], cause[PATH_MAX + 64];
	size_t k = strcspn(arg, "=");
	int n;

	if (arg[k] != '=' || k == 0 || k >= sizeof num || arg[k + 1] == '\0')
		errx(2, "--bot-dir %s: not N=DIR (N: the bot's -b, from 0)",
		    arg);
	memcpy(num, arg, k);
	num[k] = '\0';
	n = (int)cli_number("--bot-dir", num, 0, MAX_PLAYERS - 1);
	if (contain_bot_dir(ct, n, arg + k + 1, cause, sizeof cause) == -1)
		errx(2, "--bot-dir %s", cause);
}

/*
 * Takes c if it is one of the options that say how the bots are
 * contained; -1 if it is not.
 */
static int
contain_option(struct contain *ct, int c, char *arg)
{
	if (cli_limit_option(ct, c, OPT_LIMITS, arg))
		return 0;
	switch (c) {
	case OPT_ENV:
		if (strchr(arg, '=') == NULL || *arg == '=')
			errx(2, "--env %s: not KEY=VALUE", arg);
		ct->env = xreallocarray(ct->env, (size_t)ct->n_env + 1,
		    sizeof *ct->env);
		ct->env[ct->n_env++] = arg;
		break;
	case OPT_BOT_USER:
		if (strcmp(arg, "auto") == 0)
			ct->user = BOT_USER_AUTO;
		else if (strcmp(arg, "same") == 0)
			ct->user = BOT_USER_SAME;
		else
			errx(2, "--bot-user %s: not auto or same",
			    arg);
		break;
	case OPT_SANDBOX:
		ct->sandbox = 1;
		break;
	case OPT_SANDBOX_CHECKED:
		ct->sandbox = SANDBOX_CHECKED;
		break;
	case OPT_CPU:
		/* auto: chosen when the bots are known (main) */
		if (strcmp(arg, "auto") == 0)
			ct->cpu = CPU_AUTO;
		else if (strcmp(arg, "none") == 0)
			ct->cpu = -1;
		else if (arg[0] < '0' || arg[0] > '9')
			errx(2, "--cpu %s: a CPU's number (0 to 4095), auto or "
			    "none", arg);
		else
			ct->cpu = (int)cli_number("--cpu", arg, 0, 4095);
		break;
	case OPT_NO_SANDBOX:
		ct->sandbox = 0;
		break;
	case OPT_BOT_DIR:
		bot_dir(ct, arg);
		break;
	case OPT_SBIND:
	case OPT_SHIDE:
		if (access(arg, F_OK) == -1)
			err(2, "%s %s", c == OPT_SBIND ?
			    "--sandbox-bind" : "--sandbox-hide", arg);
		if (c == OPT_SBIND) {
			ct->bind = xreallocarray(ct->bind,
			    (size_t)ct->n_bind + 1, sizeof *ct->bind);
			ct->bind[ct->n_bind++] = arg;
		} else {
			ct->hide = xreallocarray(ct->hide,
			    (size_t)ct->n_hide + 2, sizeof *ct->hide);
			ct->hide[ct->n_hide++] = arg;
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * Reads the command line into cf, ct and a (the rest); exits 2 on a bad
 * option, 0 after --list-games or --describe.
 */
static void
parse_args(int argc, char **argv, struct match_config *cf,
    struct contain *ct, struct args *a)
{
	struct option *lo;
	long long v;
	int c, i;

	opterr = 0;
	lo = cli_limit_longopts(longopts, OPT_LIMITS);
	while ((c = getopt_long(argc, argv, ":g:n:s:o:b:qhV", lo,
	    NULL)) != -1) {
		switch (c) {
		case 'g':
			a->gname = optarg;
			break;
		case 'n':
			a->players = (int)cli_number("-n", optarg, 1,
			    MAX_PLAYERS);
			break;
		case 's':
			cf->seed =
			    (uint64_t)cli_number("-s", optarg, 0, LLONG_MAX);
			a->seeded = 1;
			break;
		case 'o':
			a->optv = xreallocarray(a->optv, (size_t)a->nopt + 1,
			    sizeof *a->optv);
			a->optv[a->nopt++] = optarg;
			break;
		case 'b':
			if (a->nbots == MAX_PLAYERS)
				errx(2, "at most %d bots", MAX_PLAYERS);
			a->bots = xreallocarray(a->bots, (size_t)a->nbots + 1,
			    sizeof *a->bots);
			a->bots[a->nbots++] = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'h':
			usage(stdout, 0);
		case 'V':
			cli_version("referee");
		case OPT_GAMES:
			cf->games =
			    (int)cli_number("--games", optarg, 1, 10000000);
			break;
		case OPT_SETUP:
			a->setup_path = optarg;
			break;
		case OPT_LOG:
			cf->log_path = optarg;
			break;
		case OPT_RESULTS:
			cf->results_path = optarg;
			break;
		case OPT_TPM:
			cf->time_per_move_ms =
			    (long)cli_number("--time-per-move",
			    optarg, 1, 3600000);
			break;
		case OPT_BANK:
			cf->time_bank_ms =
			    (long)cli_number("--time-bank", optarg,
			    0, 86400000);
			break;
		case OPT_HELLO:
			cf->time_hello_ms =
			    (long)cli_number("--time-hello", optarg,
			    1, 3600000);
			break;
		case OPT_GRACE:
			cf->grace_ms = (long)cli_number("--grace", optarg, 0,
			    3600000);
			break;
		case OPT_FAULT:
			if ((i = policy_parse(optarg)) == -1)
				errx(2, "--on-fault %s: not random, default or "
				    "retire", optarg);
			cf->policy = (enum policy)i;
			break;
		case OPT_DUP:
			cf->duplicate = 1;
			break;
		case OPT_GLIST:
			a->list_arg = optarg;
			break;
		case OPT_STDERR_CAP:
			v = cli_number("--stderr-cap", optarg, 0, 1LL << 30);
			cf->stderr_cap = (size_t)v;
			break;
		case OPT_STATS:
			a->stats = 1;
			break;
		case OPT_MAX_FAULTS:
			cf->max_faults =
			    (long)cli_number("--max-faults", optarg, 0,
			    LONG_MAX);
			break;
		case OPT_MAX_BYTES:
			cf->max_output =
			    (size_t)cli_number("--max-output", optarg,
			    MAX_LINE + 2, 1LL << 40);
			break;
		case OPT_MAXDEC:
			cf->max_decisions = (long)cli_number("--max-decisions",
			    optarg, 0, 1000000000);
			break;
		case OPT_LOGLEVEL:
			if (strcmp(optarg, "full") == 0)
				cf->log_lean = 0;
			else if (strcmp(optarg, "lean") == 0)
				cf->log_lean = 1;
			else
				errx(2, "--log-level %s: not full or lean",
				    optarg);
			break;
		case OPT_NOREPLAY:
			cf->no_replay = 1;
			break;
		case OPT_FIRST:
			a->first_arg = optarg;
			break;
		case OPT_BOOK:
			a->book_path = optarg;
			break;
		case OPT_LOGMAX:
			cf->log_max = cli_number("--log-max", optarg, 65536,
			    LLONG_MAX);
			break;
		case OPT_LIST_GAMES:
			list_games();
			exit(0);
		case OPT_DESCRIBE:
			describe(optarg);
			exit(0);
		default:
			if (contain_option(ct, c, optarg) == -1)
				cli_bad_option("referee", c, argv);
		}
	}
	if (optind < argc)
		errx(2, "unexpected argument '%s' (bots are given with -b)",
		    argv[optind]);
}

/*
 * Checks the command line against the game and fills cf's game, options,
 * first game, game list and deal book (its document in *book_json).
 */
static void
configure(struct match_config *cf, struct args *a, json_t **book_json)
{
	char cause[1024], hint[96];
	int i;

	if (a->gname == NULL)
		errx(2, "no game: use -g GAME (see --list-games)");
	if ((cf->game = game_find(a->gname)) == NULL)
		errx(2, "no game '%s' (%ssee --list-games)", a->gname,
		    game_near(a->gname, hint, sizeof hint));
	if (a->nbots == 0)
		errx(2, "no bots: give one -b 'COMMAND' per seat");
	if (a->players != 0 && a->players != a->nbots)
		errx(2, "-n %d players but %d bots (-b)", a->players, a->nbots);
	a->players = a->nbots;
	opts_defaults(cf->game, &cf->opts, a->players);
	for (i = 0; i < a->nopt; i++)
		if (opts_set(cf->game, &cf->opts, a->optv[i], cause,
		    sizeof cause) == -1)
			errx(2, "%s", cause);
	if (opts_finish(cf->game, &cf->opts, cause, sizeof cause) == -1)
		errx(2, "%s", cause);
	if (cf->duplicate && cf->games % a->players != 0)
		warnx("--duplicate: %d games is not a multiple of %d players; "
		    "the last deal is not played from every seat", cf->games,
		    a->players);
	if (a->first_arg != NULL) {
		cf->first_game = (int)cli_number("--first-game",
		    a->first_arg, 0, cf->games - 1);
		if (cf->duplicate && cf->first_game % a->players != 0)
			errx(2, "--first-game %d: with --duplicate, the first "
			    "game of a deal (a multiple of %d)", cf->first_game,
			    a->players);
	}
	if (a->list_arg != NULL) {
		cf->game_list = parse_game_list(a->list_arg, cf->games,
		    &cf->ngame_list);
		for (i = 0; i < cf->ngame_list; i++)
			if (cf->game_list[i] < cf->first_game)
				errx(2, "--game-list: game %d is before "
				    "--first-game %d", cf->game_list[i],
				    cf->first_game);
	}
	if (a->book_path != NULL && a->setup_path != NULL)
		errx(2, "--deal-book and --setup: one or the other");
	if (a->book_path != NULL) {
		if ((*book_json = deal_book_read(a->book_path, cause,
		    sizeof cause)) == NULL)
			errx(2, "--deal-book %s", cause);
		if ((cf->book = deal_book_parse(cf->game, &cf->opts, *book_json,
		    &cf->nbook, cause, sizeof cause)) == NULL)
			errx(2, "--deal-book %s: %s", a->book_path, cause);
		cf->book_json = *book_json;
	}
}

/* Reads the --setup file path into cf (its document in *json). */
static void
read_setup(struct match_config *cf, const char *path, json_t **json,
    void **setup)
{
	char cause[1024];
	json_error_t jerr;
	struct stat sb;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		err(2, "--setup %s", path);
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode))
		errx(2, "--setup %s: %s", path,
		    strerror(EISDIR));
	*json = json_loadf(fp, JSON_REJECT_DUPLICATES, &jerr);
	fclose(fp);
	if (*json == NULL)
		errx(2, "--setup %s: line %d, column %d: %s",
		    path, jerr.line, jerr.column, jerr.text);
	*setup = xcalloc(1, cf->game->setup_size);
	if (cf->game->setup_parse(*json, &cf->opts, *setup, cause,
	    sizeof cause) == -1)
		errx(2, "--setup %s: %s", path, cause);
	cf->setup = *setup;
	cf->setup_json = *json;
}

/*
 * Hides the log and the bots' stderr files from the bots (the paths
 * allocated last in ct->hide), and the log's directory unless it holds a
 * bot's own (ct->log_dir); returns the copy of the log's path its
 * directory is in, or NULL without a log.
 */
static char *
hide_log(struct contain *ct, const struct match_config *cf, int nbots)
{
	char *logdir;
	int i;

	if (cf->log_path == NULL)
		return NULL;
	/*
	 * The log and the bots' stderr files: out of the view of bots
	 * sandboxed or isolated (SECURITY.md).
	 */
	logdir = xstrdup(cf->log_path);
	ct->log_dir = dirname(logdir);
	ct->hide = xreallocarray(ct->hide, (size_t)ct->n_hide + 1 +
	    (size_t)nbots, sizeof *ct->hide);
	ct->hide[ct->n_hide++] = (char *)cf->log_path;
	for (i = 0; i < nbots; i++) {
		if (asprintf(&ct->hide[ct->n_hide], "%s.bot%d.stderr",
		    cf->log_path, i) == -1)
			err(1, "asprintf");
		ct->n_hide++;
	}
	return logdir;
}

/*
 * Takes the directories each bot's command names as its own (contain.h),
 * and checks the --bot-dir ones; exits 2 on a bad one.
 */
static void
bots_own(struct contain *ct, struct args *a)
{
	char cause[PATH_MAX + 128], **av;
	int i;

	for (i = 0; i < ct->n_own; i++)
		if (ct->own[i].bot >= a->nbots)
			errx(2, "--bot-dir %d=%s: there are %d bots (-b), "
			    "from 0", ct->own[i].bot, ct->own[i].path,
			    a->nbots);
	if (contain_own_check(ct, cause, sizeof cause) == -1)
		errx(2, "%s", cause);
	for (i = 0; i < a->nbots; i++) {
		if (argv_split(a->bots[i], &av, cause, sizeof cause) == -1)
			continue;	/* said when the match starts */
		contain_bot_argv(ct, i, av);
		argv_free(av);
	}
}

int
main(int argc, char **argv)
{
	struct match_config cf;
	struct match_result res;
	struct sigaction sa;
	struct contain ct;
	struct args a;
	char *logdir, cause[1024];
	const char *p;
	json_t *setup_json = NULL, *book_json = NULL, *rj;
	void *setup = NULL;
	int i, lease = -1;

	open_std_fds();
	match_config_init(&cf);
	contain_init(&ct);
	ct.cpu = CPU_AUTO;
	memset(&a, 0, sizeof a);
	parse_args(argc, argv, &cf, &ct, &a);
	configure(&cf, &a, &book_json);
	if (a.setup_path != NULL)
		read_setup(&cf, a.setup_path, &setup_json, &setup);
	/*
	 * The seed gives every hidden card, and a command line is public
	 * (/proc/PID/cmdline): bin/tournament passes it in the environment,
	 * which no bot can read (ours is closed to them, theirs is built
	 * afresh).
	 */
	if (!a.seeded && (p = getenv("CARDARENA_SEED")) != NULL) {
		cf.seed =
		    (uint64_t)cli_number("CARDARENA_SEED", p, 0, LLONG_MAX);
		a.seeded = 1;
	}
	unsetenv("CARDARENA_SEED");
	if (!a.seeded)
		cf.seed = seed_fresh() & INT64_MAX;
	cf.nbots = a.nbots;
	cf.commands = a.bots;
	cf.stop = &stop;
	cf.finish = &finish;
	if (proc_guard(&stop, 0) == -1)
		errx(1, "atexit failed");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_finish;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	/* a file size limit must show as a write error (EFBIG), not kill */
	signal(SIGXFSZ, SIG_IGN);
	logdir = hide_log(&ct, &cf, a.nbots);
	bots_own(&ct, &a);
	if ((p = getenv("CARDARENA_MEMCHECK")) != NULL && strcmp(p, "1") == 0)
		memcheck(&ct, a.bots, a.nbots, argv[0]);
	/* by default alone on a CPU leased machine-wide where that cannot
	 * hurt (cpulease.h: the games a bot's life, a seat rotation's with
	 * duplicate; not a game that asks its bots together); the lease
	 * held to the end, never inherited */
	if (ct.cpu == CPU_AUTO)
		ct.cpu = cpu_auto(a.nbots, (const char *const *)a.bots, NULL,
		    cf.duplicate && a.nbots > 0 ? cf.games / a.nbots : cf.games,
		    cpu_asks_together(cf.game, &cf.opts), &lease);
	contain_set(&ct);
	contain_self();
	contain_watchdog();
	if (contain_start(&ct, cause, sizeof cause) == -1)
		errx(1, "%s", cause);

	if (match_run(&cf, &res, cause, sizeof cause) == -1) {
		if (res.aborted) {
			warnx("%s; every bot was killed", cause);
			signal(res.aborted, SIG_DFL);
			raise(res.aborted);
		}
		if (res.disk_full)
			errx(3, "%s (the disk is full)", cause);
		errx(1, "%s", cause);
	}
	if (a.stats)
		print_stats(&res, ct.cpu);
	if (!a.quiet) {
		rj = match_result_json(&res);
		json_object_set_new(rj, "seed", json_integer((json_int_t)
		    cf.seed));
		if (json_dumpf(rj, stdout, JSON_COMPACT) == -1 ||
		    putchar('\n') == EOF || fflush(stdout) == EOF)
			err(1, "stdout");
		json_decref(rj);
	}
	json_decref(setup_json);
	free(setup);
	json_decref(book_json);
	free((void *)cf.book);
	free(a.bots);
	free(a.optv);
	free((void *)cf.game_list);
	free(ct.env);
	free(ct.bind);
	contain_clear(&ct);
	if (logdir != NULL)	/* the bots' stderr paths, last */
		for (i = ct.n_hide - a.nbots; i < ct.n_hide; i++)
			free(ct.hide[i]);
	free(ct.hide);
	free(logdir);
	if (lease != -1)
		close(lease);
	return 0;
}
