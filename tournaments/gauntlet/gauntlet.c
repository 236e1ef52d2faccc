/*
 * tournament gauntlet: a candidate bot against a pool, stopped by a
 * sequential probability ratio test (sprt.h), played as a tournament on
 * the one runner (runner.c over pool.c) with another schedule and another
 * stop rule.  The tables are the pool's combinations in turn: combination
 * c seats the candidate with pool bots c(k-1) .. c(k-1)+k-2 (mod the pool);
 * with --no-duplicate, each combination once per seat of the candidate.
 * Unit u is deal u / T of table u % T (T tables): with duplicate deals its
 * games are the deal played once from every seat, else its one game.  A
 * unit's score is the candidate's pairwise score summed over its games (2
 * a win, 1 a tie per opponent); units are fed to the test in their order
 * whatever order they finish in, so a seed gives one verdict, and a
 * gauntlet stopped (even by SIGKILL) and run again on the same output
 * directory reads its journal back and reaches the same verdict on the
 * same units.  A gauntlet may be given on the command line or as a
 * tournament file with a "gauntlet" object (its "candidate" names one of
 * the file's bots; the others are the pool).  A command line's pool with
 * fewer bots than a table's other seats fills them with copies (pool-1.2
 * is pool-1's second), which the journal's header names so that the
 * ratings count them as the one program they are.  The verdict line says
 * what H0 or H1 means for the bounds given.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/journal.h"
#include "base/paths.h"
#include "base/tfile.h"
#include "cli.h"
#include "game.h"
#include "gauntlet/gauntlet.h"
#include "gauntlet/sprt.h"
#include "pool/runner.h"

#define G_MAXJOBS	1024
#define G_MAXPOOL	256
#define G_MAXARGS	64

/* What the command line or the file's "gauntlet" object says. */
struct gopts {
	double		 elo0, elo1, alpha, beta;
	long		 max_units;
	int		 quiet;
	int		 progress;	/* -1: on a terminal */
	int		 jobs;
	const char	*outdir;
	int		 npool;		/* -p given, before copies */
	json_t		*copies;	/* copy's name -> pool bot's, or NULL */
};

/* The tournament a command line describes, as it is read. */
struct gcli {
	json_t		*j, *bots, *optv, *refargs;
	const char	*game, *cand;
	int		 players, npool;
	int		 cli;		/* a flag only the command line form has */
};

struct gunit {
	int		 games;		/* reported so far */
	int		 num;		/* the score numerator */
	long		 cfaults, pfaults;
};

/* The state of the test, fed by the runner's game hook. */
struct gstate {
	struct sprt		 t;
	const struct tour	*tour;
	int			 cand;		/* the candidate's bot index */
	int			 seats, dup, tty, quiet;
	long			 ntables, max_units;
	struct gunit		*un;
	long			 nun, fed;
	long			 cfaults, pfaults;
	enum sprt_verdict	 v;
	const json_t		*copies;	/* gopts' */
};

static void	 g_usage(FILE *, int);
static double	 g_double(const char *, const char *, double, double);
static void	 g_show(const struct gstate *, FILE *, int);
static int	 g_game(void *, const struct jgame *);
static void	 g_header(void *, json_t *);
static void	 g_summary(const struct gstate *, const struct gopts *);
static int	 g_seats(const struct gopts *, const char *);
static size_t	 g_status(void *, char *, size_t);
static void	 g_schedule(struct schedule *, const struct tour *, int, int);
static int	 g_run_opt(int, struct gopts *);
static int	 g_game_opt(int, struct gcli *);
static int	 g_referee_opt(int, char **, struct gcli *);
static void	 g_parse(int, char **, struct gopts *, struct gcli *);
static json_t	*g_file(int, char **, struct gopts *);
static int	 g_settings(const json_t *, const struct tour *, struct gopts *,
		    int *, char *, size_t);

static void
g_usage(FILE *fp, int status)
{
	fprintf(fp,
"usage: tournament gauntlet -g GAME [-n SEATS] [-o KEY=VALUE ...] [-s SEED]\n"
"                           [--elo0 E] [--elo1 E] [--alpha A] [--beta B]\n"
"                           [--max-deals N] [--no-duplicate] [-j N] [-q]\n"
"                           [-O DIR] [--logs] [--progress | --no-progress]\n"
"                           [--time-per-move MS] [--time-bank MS]\n"
"                           [--time-hello MS] [--max-decisions N]\n"
"                           [--deals-per-run N] [--on-fault POLICY]\n"
"                           [--sandbox] [--deal-book FILE] [--referee PATH]\n"
"                           [--referee-arg ARG ...]\n"
"                           -c 'CANDIDATE' -p 'POOL BOT' [-p ...]\n"
"       tournament gauntlet [-j N] [-q] [-O DIR] [--elo0 E] ... FILE\n"
"\n"
"Plays the candidate against the pool on duplicate deals (each deal once\n"
"from every seat, k-1 pool bots in turn at each table) until a sequential\n"
"probability ratio test decides between H0 (the candidate's Elo gain over\n"
"the pool is at most elo0) and H1 (at least elo1).  The unit of the test\n"
"is one deal's duplicate set, scored by the candidate's pairwise score\n"
"over its games; the LLR is the generalized one on the units' empirical\n"
"distribution.  It runs on the tournament runner: its games go to a\n"
"journal in the output directory, its bots live across a chunk of deals,\n"
"and a gauntlet stopped or killed and run again with the same output\n"
"directory resumes and reaches the same verdict.  FILE is a tournament\n"
"file (cardarena-tournament(5)) with a \"gauntlet\" object: \"candidate\"\n"
"(one of its bots' names; the others are the pool), and optionally\n"
"\"elo0\", \"elo1\", \"alpha\", \"beta\", \"max_deals\".\n"
"\n"
"  -c, --candidate CMD  the candidate's command line (split like -b)\n"
"  -p, --pool CMD       a pool bot; repeatable\n"
"  -g, --game GAME      the game; -n SEATS players a table (default: the\n"
"                       game's); -o KEY=VALUE game options\n"
"  -s, --seed N         the master seed (default: a fresh secret one, kept\n"
"                       in the journal and printed at the end)\n"
"  --elo0 E, --elo1 E   the hypotheses (default 0 and 10)\n"
"  --alpha A, --beta B  the error rates (default 0.05 each)\n"
"  --max-deals N        stop undecided after N units (default 100000)\n"
"  --no-duplicate       a unit is one game on its own deal (for comparison)\n"
"  -j N                 referees at once (default 1)\n"
"  -q                   no progress line, no rating table\n"
"  -O, --output DIR     the journal, logs and reports (default: a new\n"
"                       directory under $TMPDIR, named at the start)\n"
"  --logs               keep every run's match log in DIR/logs\n"
"  --log-dir DIR        the same as -O DIR --logs\n"
"  --progress           the progress line even when stderr is not a\n"
"                       terminal (else a line every 10 units)\n"
"  --time-per-move MS, --time-bank MS, --time-hello MS, --max-decisions N,\n"
"  --on-fault POLICY    for the referee, as in a tournament file\n"
"  --deals-per-run N    deals a referee run (one life of its bots) plays\n"
"                       (default: about 3 s of play)\n"
"  --sandbox            run the bots in the sandbox (SECURITY.md)\n"
"  --deal-book FILE     deal d of every table from line d mod N of FILE\n"
"                       (set-ups as the referee's --setup, one per line)\n"
"  --referee PATH       the referee (default: beside this program)\n"
"  --referee-arg ARG    one more referee argument (limits: --limit-mem 512\n"
"                       ...); repeatable\n"
"\n"
"Prints the rating table (unless -q; a pool bot seated more than once\n"
"for want of pool bots is one entry), the LLR, the Elo difference with\n"
"its 95%% interval, then the verdict: \"result: H1\" (the candidate gains more\n"
"than elo0, wrongly at most alpha of the time), \"result: H0\" (it gains\n"
"less than elo1, wrongly at most beta of the time: H0 beside an interval\n"
"above 0 says it gains something, but not elo1) or \"result: none\"\n"
"(stopped undecided).  Exit status 0 when the test decided, 3 when it\n"
"stopped undecided, 1 on failure, 2 for a bad command line or file.\n");
	exit(status);
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

/* Writes the progress line (final or plain: ended by a newline). */
static void
g_show(const struct gstate *g, FILE *fp, int tty)
{
	char line[512];

	g_status((void *)g, line, sizeof line);
	fprintf(fp, "%s%s%s", tty ? "\r\033[K" : "", line, tty ? "" : "\n");
	fflush(fp);
}

/* The test's part of a progress line. */
static size_t
g_status(void *arg, char *buf, size_t len)
{
	const struct gstate *g = arg;
	double e, lo, hi, s;
	int n;

	e = sprt_estimate(&g->t, &lo, &hi, &s);
	n = snprintf(buf, len, "gauntlet: %ld %s (%ld games)  score %.1f%%  "
	    "Elo %+.1f [%+.1f, %+.1f]  LLR %.2f (%.2f, %.2f)", g->t.n,
	    g->dup ? "deals" : "games", g->t.n * (g->dup ? g->seats : 1),
	    100 * s, e, lo, hi, sprt_llr(&g->t), g->t.lower, g->t.upper);
	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

/*
 * A game journalled or resumed: into its unit; whole units go to the test
 * in their order.  1 once the test decides or max_units are in.
 */
static int
g_game(void *arg, const struct jgame *jg)
{
	struct gstate *g = arg;
	struct gunit *un;
	long u, f;
	int s, c = -1, want = g->dup ? g->seats : 1;

	if (g->v != SPRT_CONTINUE || g->fed >= g->max_units)
		return 1;
	u = jg->deal * g->ntables + jg->table;
	if (u < 0 || u >= g->max_units)
		return 0;
	for (s = 0; s < jg->k; s++)
		if (strcmp(jg->bots[s], g->tour->bots[g->cand].name) == 0)
			c = s;
	if (c == -1)
		return 0;
	if (u >= g->nun) {
		f = g->nun;
		while (g->nun <= u)
			g->nun = g->nun ? 2 * g->nun : 256;
		g->un = xreallocarray(g->un, (size_t)g->nun, sizeof *g->un);
		memset(g->un + f, 0, (size_t)(g->nun - f) * sizeof *g->un);
	}
	un = &g->un[u];
	un->games++;
	for (s = 0; s < jg->k; s++) {
		for (f = 0; f < NTFAULT_MAIN; f++)
			*(s == c ? &un->cfaults : &un->pfaults) +=
			    jg->faults[s][f];
		if (s != c)
			un->num += jg->places[c] < jg->places[s] ? 2 :
			    jg->places[c] == jg->places[s];
	}
	while (g->fed < g->max_units && g->fed < g->nun &&
	    g->un[g->fed].games >= want && g->v == SPRT_CONTINUE) {
		un = &g->un[g->fed++];
		sprt_add(&g->t, un->num);
		g->cfaults += un->cfaults;
		g->pfaults += un->pfaults;
		g->v = sprt_decide(&g->t);
		if (!g->quiet && !g->tty && (g->fed % 10 == 0 ||
		    g->v != SPRT_CONTINUE))
			g_show(g, stderr, 0);
	}
	return g->v != SPRT_CONTINUE || g->fed >= g->max_units;
}

/* Names the pool's copies in the journal's header (rated_name). */
static void
g_header(void *arg, json_t *h)
{
	const struct gstate *g = arg;

	if (g->copies != NULL)
		json_object_set(h, "copies", (json_t *)g->copies);
}

/*
 * The tables: the pool's combinations in turn, the candidate (bot cand)
 * at the first seat (duplicate rotates it), or at every seat in turn.
 */
static void
g_schedule(struct schedule *s, const struct tour *t, int cand, int dup)
{
	int pool[MAX_BOTS], np = 0, k = t->seats, i, c, ncomb, a, b, r, seat;
	long tb;

	for (i = 0; i < t->nbots; i++)
		if (i != cand)
			pool[np++] = i;
	/* combinations until they repeat: np / gcd(np, k - 1) */
	for (a = np, b = k - 1; b != 0; r = a % b, a = b, b = r)
		;
	ncomb = np / a;
	memset(s, 0, sizeof *s);
	s->nbots = t->nbots;
	s->seats = k;
	s->ntables = ncomb * (dup ? 1 : k);
	s->tab = xcalloc((size_t)s->ntables * (size_t)k, sizeof *s->tab);
	for (tb = 0; tb < s->ntables; tb++) {
		c = (int)(tb % ncomb);
		seat = dup ? 0 : (int)(tb / ncomb);
		for (i = 0, r = 0; i < k; i++)
			s->tab[tb * k + i] = i == seat ? cand :
			    pool[((long)c * (k - 1) + r++) % np];
	}
}

/*
 * The gauntlet's settings of a file's "gauntlet" object (the command
 * line's flags, already in o, win); -1 and a cause.
 */
static int
g_settings(const json_t *gj, const struct tour *t, struct gopts *o,
    int *cand, char *cause, size_t len)
{
	static const char *const keys[] = { "candidate", "elo0", "elo1",
	    "alpha", "beta", "max_deals", NULL };
	const char *key, *name;
	json_t *v;
	int i;

	json_object_foreach((json_t *)gj, key, v) {
		for (i = 0; keys[i] != NULL && strcmp(keys[i], key) != 0; i++)
			;
		if (keys[i] == NULL) {
			snprintf(cause, len, "\"gauntlet\": unknown key \"%s\"",
			    key);
			return -1;
		}
		if (strcmp(key, "candidate") != 0 && strcmp(key, "max_deals") !=
		    0 && !json_is_number(v)) {
			snprintf(cause, len, "\"gauntlet\": \"%s\": a number",
			    key);
			return -1;
		}
	}
	name = json_string_value(json_object_get(gj, "candidate"));
	if (name == NULL) {
		snprintf(cause, len, "\"gauntlet\": \"candidate\" (a bot's "
		    "name) is required");
		return -1;
	}
	for (*cand = 0; *cand < t->nbots &&
	    strcmp(t->bots[*cand].name, name) != 0; (*cand)++)
		;
	if (*cand == t->nbots) {
		snprintf(cause, len, "\"gauntlet\": \"candidate\": no bot "
		    "called %s", name);
		return -1;
	}
	if (t->nbots < t->seats) {
		snprintf(cause, len, "\"gauntlet\": the pool (the other "
		    "bots) needs at least %d bots for tables of %d", t->seats -
		    1, t->seats);
		return -1;
	}
#define G_NUM(k, f, lo, hi) do {					\
	if (isnan(o->f) && (v = json_object_get(gj, k)) != NULL) {	\
		o->f = json_number_value(v);				\
		if (!(o->f >= (lo) && o->f <= (hi))) {			\
			snprintf(cause, len, "\"gauntlet\": \"%s\": "	\
			    "%g..%g", k, (double)(lo), (double)(hi));	\
			return -1;					\
		}							\
	}								\
} while (0)
	G_NUM("elo0", elo0, -2000, 2000);
	G_NUM("elo1", elo1, -2000, 2000);
	G_NUM("alpha", alpha, 1e-9, 0.499);
	G_NUM("beta", beta, 1e-9, 0.499);
#undef G_NUM
	if (o->max_units == 0 && (v = json_object_get(gj, "max_deals")) !=
	    NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 100000000) {
			snprintf(cause, len, "\"gauntlet\": \"max_deals\": "
			    "1..100000000");
			return -1;
		}
		o->max_units = (long)json_integer_value(v);
	}
	return 0;
}

/*
 * Takes flag ch if it is one of the gauntlet's own settings (the test,
 * the jobs, the output); 0 if it is not.
 */
static int
g_run_opt(int ch, struct gopts *o)
{
	const char *errstr;

	switch (ch) {
	case 'E':
	case 'F':
		*(ch == 'E' ? &o->elo0 : &o->elo1) = g_double(ch == 'E' ?
		    "--elo0" : "--elo1", optarg, -2000, 2000);
		break;
	case 'A':
	case 'B':
		*(ch == 'A' ? &o->alpha : &o->beta) = g_double(ch == 'A' ?
		    "--alpha" : "--beta", optarg, 1e-9, 0.499);
		break;
	case 'M':
		o->max_units = cli_whole(NULL, "--max-deals", optarg, 1,
		    100000000);
		break;
	case 'j':
		o->jobs = (int)strtonum(optarg, 1, G_MAXJOBS, &errstr);
		if (errstr != NULL)
			errx(2, "-j %s: %s (1..%d)", optarg, errstr,
			    G_MAXJOBS);
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'P':
	case 'N':
		o->progress = ch == 'P';
		break;
	case 'O':
		o->outdir = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/*
 * Takes flag ch into c if it says what is played (the candidate, the
 * pool, the game, its seats and options, the seed, the deals); 0 if not.
 */
static int
g_game_opt(int ch, struct gcli *c)
{
	const char *errstr;
	char name[32];
	long long x;

	switch (ch) {
	case 'c':
		c->cand = optarg;
		break;
	case 'p':
		if (c->npool == G_MAXPOOL)
			errx(2, "-p: at most %d pool bots", G_MAXPOOL);
		snprintf(name, sizeof name, "pool-%d", ++c->npool);
		json_array_append_new(c->bots, json_pack("{s:s,s:s}", "name",
		    name, "command", optarg));
		break;
	case 'g':
		c->game = optarg;
		break;
	case 'n':
		c->players = (int)strtonum(optarg, 1, MAX_PLAYERS, &errstr);
		if (errstr != NULL)
			errx(2, "-n %s: %s (1..%d)", optarg, errstr,
			    MAX_PLAYERS);
		break;
	case 'o':
		json_array_append_new(c->optv, json_string(optarg));
		break;
	case 's':
		x = cli_whole(NULL, "-s", optarg, 0, LLONG_MAX);
		json_object_set_new(c->j, "seed", json_integer(x));
		break;
	case 'D':
		json_object_set_new(c->j, "duplicate", json_false());
		break;
	case 'b':
		json_object_set_new(c->j, "deal_book", json_string(optarg));
		break;
	default:
		return 0;
	}
	c->cli = 1;
	return 1;
}

/*
 * Takes flag ch into c if it says how the referee plays (the time limits,
 * the decisions cap, the deals a run, the fault policy, the sandbox, the
 * referee and its arguments); 0 if not.
 */
static int
g_referee_opt(int ch, char **argv, struct gcli *c)
{
	long long x;

	switch (ch) {
	case 'T':
	case 'K':
	case 'H':
	case 'X':
	case 'C':
		x = cli_whole(NULL, argv[optind - 1], optarg, ch == 'C' ||
		    ch == 'T' ? 1 : 0, ch == 'H' ? 3600000 : ch == 'X' ||
		    ch == 'C' ? 100000000 : 86400000);
		json_object_set_new(c->j, ch == 'T' ? "time_per_move_ms" :
		    ch == 'K' ? "time_bank_ms" : ch == 'H' ?
		    "time_hello_ms" : ch == 'X' ? "max_decisions" :
		    "deals_per_run", json_integer(x));
		c->cli |= ch != 'C';
		return 1;
	case 'f':
		json_object_set_new(c->j, "on_fault", json_string(optarg));
		break;
	case 'S':
		json_object_set_new(c->j, "sandbox", json_true());
		break;
	case 'R':
		json_object_set_new(c->j, "referee", json_string(optarg));
		break;
	case 'r':
		if (json_array_size(c->refargs) == G_MAXARGS)
			errx(2, "--referee-arg: at most %d", G_MAXARGS);
		json_array_append_new(c->refargs, json_string(optarg));
		break;
	default:
		return 0;
	}
	c->cli = 1;
	return 1;
}

/*
 * Reads the command line's flags: the gauntlet's own settings into o, the
 * tournament's into c (its JSON, bots, options and referee arguments).
 */
static void
g_parse(int argc, char **argv, struct gopts *o, struct gcli *c)
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
		{ "time-hello", required_argument, NULL, 'H' },
		{ "max-decisions", required_argument, NULL, 'X' },
		{ "deals-per-run", required_argument, NULL, 'C' },
		{ "on-fault", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'O' },
		{ "logs", no_argument, NULL, 'l' },
		{ "log-dir", required_argument, NULL, 'L' },
		{ "sandbox", no_argument, NULL, 'S' },
		{ "referee", required_argument, NULL, 'R' },
		{ "referee-arg", required_argument, NULL, 'r' },
		{ "deal-book", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	c->j = json_object();
	c->bots = json_array();
	c->optv = json_array();
	c->refargs = json_array();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:c:p:g:n:o:s:j:qO:h", lopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'L':
			o->outdir = optarg;
			/* FALLTHROUGH */
		case 'l':
			json_object_set_new(c->j, "logs", json_true());
			break;
		case 'h':
			g_usage(stdout, 0);
			break;
		default:
			if (!g_run_opt(ch, o) && !g_game_opt(ch, c) &&
			    !g_referee_opt(ch, argv, c))
				cli_bad_option("tournament gauntlet", ch, argv);
		}
	}
}

/*
 * Reads the command line: a tournament file's JSON (the file form), or
 * one made of the flags; the gauntlet's own settings go into o.
 */
static json_t *
g_file(int argc, char **argv, struct gopts *o)
{
	struct gcli c;
	const struct game *g = NULL;
	struct opts gopt;
	json_t *j;
	char cause[512], name[32];
	int i;

	memset(&c, 0, sizeof c);
	g_parse(argc, argv, o, &c);
	if (optind < argc) {
		/* the file form: the flags above only steer the run */
		if (c.cli || optind + 1 != argc)
			errx(2, "gauntlet: a tournament file takes no bots, "
			    "game or referee flags (they are its keys): "
			    "tournament gauntlet [-j N] [-q] [-O DIR] FILE");
		json_decref(c.j);
		json_decref(c.bots);
		json_decref(c.optv);
		json_decref(c.refargs);
		if ((j = tour_read(argv[optind], cause, sizeof cause)) == NULL)
			errx(2, "%s", cause);
		if (json_object_get(j, "gauntlet") == NULL)
			errx(2, "%s: no \"gauntlet\" object (it is a round "
			    "robin: tournament run %s)", argv[optind],
			    argv[optind]);
		return j;
	}
	if (c.game == NULL)
		errx(2, "gauntlet: -g GAME is required (bin/referee "
		    "--list-games)");
	if ((g = game_find(c.game)) == NULL)
		errx(2, "-g %s: no such game (bin/referee --list-games)",
		    c.game);
	if (c.cand == NULL || *c.cand == '\0')
		errx(2, "gauntlet: -c 'CANDIDATE' is required");
	if (c.npool == 0)
		errx(2, "gauntlet: at least one pool bot (-p 'COMMAND') is "
		    "required");
	o->npool = c.npool;
	if (c.players == 0)
		c.players = g->default_players;
	if (c.players < 2 || c.players < g->min_players ||
	    c.players > g->max_players)
		errx(2, "gauntlet: %s needs %d..%d players, and a gauntlet "
		    "at least 2", g->name, g->min_players < 2 ? 2 :
		    g->min_players, g->max_players);
	/* the options checked here, for the command line's messages */
	opts_defaults(g, &gopt, c.players);
	for (i = 0; i < (int)json_array_size(c.optv); i++)
		if (opts_set(g, &gopt, json_string_value(json_array_get(c.optv,
		    (size_t)i)), cause, sizeof cause) == -1)
			errx(2, "-o %s: %s", json_string_value(json_array_get(
			    c.optv, (size_t)i)), cause);
	if (opts_finish(g, &gopt, cause, sizeof cause) == -1)
		errx(2, "%s options: %s", g->name, cause);
	/* a pool smaller than a table's k-1 seats: copies of its bots
	 * (pool-1.2 is pool-1's second copy), each a seat of its own, rated
	 * as the bot they copy (the journal header's "copies") */
	for (i = 0; c.npool + i < c.players - 1; i++) {
		snprintf(name, sizeof name, "pool-%d.%d", i % c.npool + 1,
		    i / c.npool + 2);
		json_array_append_new(c.bots, json_pack("{s:s,s:O}", "name",
		    name, "command", json_object_get(json_array_get(c.bots,
		    (size_t)(i % c.npool)), "command")));
		if (o->copies == NULL)
			o->copies = json_object();
		json_object_set_new(o->copies, name, json_sprintf("pool-%d",
		    i % c.npool + 1));
	}
	j = c.j;
	json_array_insert_new(c.bots, 0, json_pack("{s:s,s:s}", "name",
	    "candidate", "command", c.cand));
	json_object_set_new(j, "name", json_string("gauntlet"));
	json_object_set_new(j, "game", json_string(g->name));
	json_object_set_new(j, "seats", json_integer(c.players));
	json_object_set_new(j, "options", c.optv);
	json_object_set_new(j, "bots", c.bots);
	json_object_set_new(j, "referee_args", c.refargs);
	json_object_set_new(j, "gauntlet", json_pack("{s:s}", "candidate",
	    "candidate"));
	return j;
}

/* The seats a bot holds at every table: 1 + its copies; 0 for a copy. */
static int
g_seats(const struct gopts *o, const char *name)
{
	const char *copy;
	json_t *v;
	int n = 1;

	if (json_object_get(o->copies, name) != NULL)
		return 0;
	json_object_foreach(o->copies, copy, v)
		n += strcmp(json_string_value(v), name) == 0;
	return n;
}

/*
 * Prints the end: what was played, the test and its estimate, the
 * faults, the pool's copies, the seed, and the verdict with what it says
 * of the candidate for the bounds given (H0 beside an interval above 0
 * is no contradiction: it rejects elo1, not every gain).
 */
static void
g_summary(const struct gstate *g, const struct gopts *o)
{
	const struct tour *t = g->tour;
	double e, lo, hi, sc;
	int i, n;

	e = sprt_estimate(&g->t, &lo, &hi, &sc);
	printf("gauntlet: %s against %d pool bot%s, %d-player %s, %s\n",
	    t->bots[g->cand].command, o->npool > 0 ? o->npool : t->nbots - 1,
	    (o->npool > 0 ? o->npool : t->nbots - 1) == 1 ? "" : "s",
	    t->seats, t->game, t->duplicate ? "duplicate deals" :
	    "single games");
	printf("SPRT: elo0 %g, elo1 %g, alpha %g, beta %g; LLR %.3f, bounds "
	    "(%.3f, %.3f)\n", o->elo0, o->elo1, o->alpha, o->beta,
	    sprt_llr(&g->t), g->t.lower, g->t.upper);
	printf("%ld %s, %ld games; score %.2f%%; Elo %+.1f [%+.1f, %+.1f] "
	    "(95%%)\n", g->t.n, t->duplicate ? "deals" : "units", g->t.n *
	    (t->duplicate ? t->seats : 1), 100 * sc, e, lo, hi);
	printf("faults: candidate %ld, pool %ld\n", g->cfaults, g->pfaults);
	for (i = 0; i < t->nbots; i++)
		if ((n = g_seats(o, t->bots[i].name)) > 1)
			printf("copies: %s sits at %d seats of every table "
			    "(one program, so one entry in the table: its "
			    "games and meetings count each seat)\n",
			    t->bots[i].name, n);
	if (!o->quiet)
		printf("seed: %" PRIu64 "%s\n", t->seed, t->seed_named ? "" :
		    " (drawn fresh, secret until now)");
	if (g->v == SPRT_H1)
		printf("result: H1: the candidate gains more than elo0 %+g "
		    "Elo (one that gains %+g or less ends here at most alpha "
		    "%g of the time)\n", o->elo0, o->elo0, o->alpha);
	else if (g->v == SPRT_H0)
		printf("result: H0: the candidate gains less than elo1 %+g "
		    "Elo (one that gains %+g or more ends here at most beta "
		    "%g of the time); a smaller gain is not ruled out: see "
		    "the interval\n", o->elo1, o->elo1, o->beta);
	else
		printf("result: none: undecided between elo0 %+g and elo1 "
		    "%+g Elo after %ld %s (%s)\n", o->elo0, o->elo1, g->t.n,
		    t->duplicate ? "deals" : "units", g->fed >= g->max_units ?
		    "--max-deals" : "stopped");
}

/* tournament gauntlet */
int
cmd_gauntlet(int argc, char **argv)
{
	struct gopts o;
	struct gstate gs;
	struct tour t;
	struct schedule s;
	struct runner_hooks h;
	struct runner_opts ro;
	json_t *j;
	char cause[512], *tmp = NULL;
	const char *path;
	long k;
	int rc, cand, i, n;

	memset(&o, 0, sizeof o);
	o.elo0 = o.elo1 = o.alpha = o.beta = NAN;
	o.jobs = 1;
	o.progress = -1;
	j = g_file(argc, argv, &o);
	path = optind < argc ? argv[optind] : "the command line";
	if (json_object_get(j, "output") == NULL && o.outdir == NULL) {
		if (asprintf(&tmp, "%s/cardarena-gauntlet.XXXXXX",
		    getenv("TMPDIR") != NULL && *getenv("TMPDIR") != '\0' ?
		    getenv("TMPDIR") : "/tmp") == -1)
			err(1, "asprintf");
		if (mkdtemp(tmp) == NULL)
			err(1, "%s", tmp);
		o.outdir = tmp;
	}
	if (o.outdir != NULL)
		json_object_set_new(j, "output", json_string(o.outdir));
	/* deals come from max_deals below; a placeholder to parse */
	json_object_set_new(j, "deals", json_integer(1));
	if (json_object_get(j, "concurrency") == NULL)
		json_object_set_new(j, "concurrency", json_integer(o.jobs));
	if (tour_parse(&t, j, path, cause, sizeof cause) == -1)
		errx(2, "%s: %s", path, cause);
	if (g_settings(t.gauntlet, &t, &o, &cand, cause, sizeof cause) == -1)
		errx(2, "%s: %s", path, cause);
	if (isnan(o.elo0))
		o.elo0 = 0;
	if (isnan(o.elo1))
		o.elo1 = 10;
	if (isnan(o.alpha))
		o.alpha = 0.05;
	if (isnan(o.beta))
		o.beta = 0.05;
	if (o.max_units == 0)
		o.max_units = 100000;
	memset(&gs, 0, sizeof gs);
	if (sprt_init(&gs.t, o.elo0, o.elo1, o.alpha, o.beta,
	    2 * (t.seats - 1) * (t.duplicate ? t.seats : 1), cause,
	    sizeof cause) == -1)
		errx(2, "gauntlet: %s", cause);
	g_schedule(&s, &t, cand, t.duplicate);
	k = s.ntables;
	t.deals = (o.max_units + k - 1) / k;
	if (mkdirs(t.outdir) == -1)
		err(1, "%s", t.outdir);
	gs.tour = &t;
	gs.cand = cand;
	gs.seats = t.seats;
	gs.dup = t.duplicate;
	gs.ntables = k;
	gs.max_units = o.max_units;
	gs.quiet = o.quiet;
	gs.copies = o.copies;
	gs.tty = o.quiet ? 0 : o.progress == -1 ? isatty(2) : o.progress;
	if (!o.quiet) {
		fprintf(stderr, "gauntlet: %s (%s) against", t.bots[cand].name,
		    t.bots[cand].command);
		for (i = 0; i < t.nbots; i++) {
			if (i == cand || (n = g_seats(&o, t.bots[i].name)) == 0)
				continue;
			fprintf(stderr, " %s (%s)", t.bots[i].name,
			    t.bots[i].command);
			if (n > 1)
				fprintf(stderr, " at %d seats", n);
		}
		fprintf(stderr, "; %ld table%s of %d; output %s\n", k,
		    k == 1 ? "" : "s", t.seats, t.outdir);
	}
	memset(&h, 0, sizeof h);
	h.sched = &s;
	h.game = g_game;
	h.header = g_header;
	h.status = g_status;
	h.arg = &gs;
	h.no_reports = o.quiet;
	h.isolate = optind < argc ? "\"sandbox\": true isolates them" :
	    "--sandbox or --referee-arg --sandbox isolates them";
	memset(&ro, 0, sizeof ro);
	ro.jobs = o.jobs;
	ro.quiet = o.quiet;
	ro.progress = gs.tty;
	ro.hooks = &h;
	ro.argv0 = argv[0];
	rc = runner_run(&t, &ro);
	if (gs.tty)
		fputc('\n', stderr);
	if (rc != 0 && rc != 130 && gs.v == SPRT_CONTINUE &&
	    gs.fed < gs.max_units) {
		sprt_free(&gs.t);
		errx(1, "gauntlet: stopped after %ld units", gs.t.n);
	}
	g_summary(&gs, &o);
	sprt_free(&gs.t);
	free(gs.un);
	schedule_free(&s);
	tour_free(&t);
	json_decref(j);
	json_decref(o.copies);
	free(tmp);
	return gs.v == SPRT_CONTINUE ? 3 : 0;
}
