/*
 * bin/replay: replays match logs.  Shows a match in the terminal (from the
 * all-seeing view, or as exactly what one seat's bot received), verifies a
 * log (or a directory of them) by re-running the rules, prints the lines a
 * bot received so that they can be fed to it again, and writes a
 * self-contained HTML viewer.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "render.h"
#include "replay.h"

enum mode { SHOW, VERIFY, EMIT, HTML, TABLE };

static int	quiet;

static void	usage(FILE *);
/* What --verify counted. */
struct tally {
	int	ok, bad, empty;
};

static int	verify_path(const char *, struct tally *);
static int	headless(const char *);
static int	verify_one(const char *);
static int	load(struct rlog *, struct replay *, const char *, int);
static int	emit(const struct replay *, int, long);
static int	write_html(const struct replay *, const char *);
static void	set_names(struct rlog *, const char *, int);
static int	draw_views(const char *, const char *);

/* Prints the usage. */
static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: replay [--seat N] [--step K] [--full] [--ascii] [--no-keys]\n"
	    "              [--names A,B,...] LOG\n"
	    "       replay --verify [-q] LOG|DIR...\n"
	    "       replay --emit --seat N [--upto K] LOG\n"
	    "       replay --html OUT [--names A,B,...] LOG\n"
	    "       replay --table GAME [--ascii] FILE\n"
	    "Replays a cardarena match log: step K is the K-th point of the "
	    "match\n(each game's deal, then the state after each action), "
	    "numbered over\nthe whole match as the replay prints it.\n"
	    "  --seat N     what the bot at seat N received, nothing more\n"
	    "  --step K     start at step K\n"
	    "  --full       the whole view at every step, not what changed\n"
	    "  --ascii      suit letters instead of symbols\n"
	    "  --no-keys    print the whole match even on a terminal\n"
	    "  --verify     re-run the rules and check every message and "
	    "result\n"
	    "  --emit       print the lines the bot at seat N received, up to "
	    "and\n               including the request answered by step K\n"
	    "  --html OUT   write a self-contained HTML viewer to OUT "
	    "(- for stdout)\n"
	    "  --names A,B  call the bots so (in the log's order), e.g. "
	    "by their\n               tournament names\n"
	    "  --table GAME draw each view of FILE (a JSON object a line, as "
	    "a\n               request's \"view\" or a log's \"deal\"; - for "
	    "stdin) as\n               GAME's table, as bin/human draws it\n"
	    "  --version    the version of replay and of the protocol\n"
	    "Exit status: 0 on success (--verify: every log verified), 1 when "
	    "a log\ncannot be read or does not verify, 2 for a bad command "
	    "line.\n");
}

/*
 * Reads and re-runs a log; warns about a torn last line and (unless
 * silent) a divergence.  -1 (after a warning) if it cannot be used.
 */
static int
load(struct rlog *l, struct replay *rp, const char *path, int silent)
{
	char cause[1024];

	if (rlog_read(l, path, cause, sizeof cause) == -1) {
		warnx("%s", cause);
		rlog_free(l);
		return -1;
	}
	if (l->torn && !silent)
		warnx("%s", l->torn_why);
	if (replay_run(rp, l, cause, sizeof cause) == -1) {
		warnx("%s", cause);
		rlog_free(l);
		return -1;
	}
	if (rp->diverged && !silent)
		warnx("the log does not verify, so the replay stops there:\n%s",
		    rp->why);
	else if (rp->stopped[0] != '\0' && !silent)
		fprintf(stderr, "replay: note: %s: the match was stopped before "
		    "its end (%s); the replay shows it up to there\n", path,
		    rp->stopped);
	return 0;
}

/*
 * Names the bots as the comma-separated list says (in the order of the
 * log's header, the referee's -b order), or exits.
 */
static void
set_names(struct rlog *l, const char *list, int players)
{
	json_t *bots;
	char *copy, *p, *name;
	int i = 0;

	bots = json_object_get(l->header, "bots");
	p = copy = xstrdup(list);
	while ((name = strsep(&p, ",")) != NULL) {
		if (*name == '\0' || i == players)
			errx(2, "--names %s: give %d names, one per bot, "
			    "separated by commas", list, players);
		json_object_set_new(json_array_get(bots, (size_t)i++),
		    "name", json_string(name));
	}
	if (i != players)
		errx(2, "--names %s: give %d names, one per bot, separated "
		    "by commas", list, players);
	free(copy);
}

/* Verifies one log, printing its verdict; 0 if it verifies. */
static int
verify_one(const char *path)
{
	struct rlog l;
	struct replay rp;
	int ok;

	if (load(&l, &rp, path, 1) == -1) {
		printf("%s: FAILED\n", path);
		return -1;
	}
	ok = !rp.diverged && (rp.complete || rp.capped ||
	    rp.stopped[0] != '\0') && !l.torn;
	if (ok && !quiet)
		printf("%s: ok (%zu games, %zu steps, %ld messages "
		    "identical%s%s%s)\n", path, rp.ngames, rp.nf - rp.ngames,
		    rp.messages, rp.capped ? "; the log stops at its size cap, "
		    "what it holds is verified" : "", rp.stopped[0] ?
		    "; the match was stopped before its end, " : "",
		    rp.stopped[0] ? rp.stopped : "");
	else if (!ok)
		printf("%s: FAILED\n  %s\n", path, rp.diverged ? rp.why :
		    l.torn_why);
	replay_free(&rp);
	rlog_free(&l);
	return ok ? 0 : -1;
}

/* Is path the log of a match that ended before its first game? */
static int
headless(const char *path)
{
	char *why = rlog_headless(path);
	int is = why != NULL;

	free(why);
	return is;
}

/*
 * Verifies a log, or every log in a directory (and below); a log of a
 * match that ended before its first game is named and counted apart.
 */
static int
verify_path(const char *path, struct tally *t)
{
	struct dirent **ents;
	struct stat sb;
	char sub[PATH_MAX], *why;
	int i, n;

	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if ((n = scandir(path, &ents, NULL, alphasort)) == -1) {
			warn("%s", path);
			t->bad++;
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (ents[i]->d_name[0] != '.') {
				snprintf(sub, sizeof sub, "%s/%s", path,
				    ents[i]->d_name);
				if (stat(sub, &sb) == 0 && (S_ISDIR(sb.st_mode)
				    || rlog_is_log(sub) || headless(sub)))
					verify_path(sub, t);
			}
			free(ents[i]);
		}
		free(ents);
		return 0;
	}
	if ((why = rlog_headless(path)) != NULL) {
		printf("%s: no game (the match ended before its first game: "
		    "%s)\n", path, why);
		free(why);
		t->empty++;
	} else if (verify_one(path) == 0)
		t->ok++;
	else
		t->bad++;
	return 0;
}

/*
 * Prints the lines the bot at seat received, exactly as sent: all of them,
 * or (upto >= 0) those sent before step upto was taken, so the last one is
 * the request that step answered.
 */
static int
emit(const struct replay *rp, int seat, long upto)
{
	const struct rlog *l = rp->log;
	const char *msg;
	size_t i, end = l->n, len;
	int bot = seat;

	if (upto >= 0) {
		if ((size_t)upto >= rp->nf)
			errx(1, "--upto %ld: the replay has steps 0 to %zu",
			    upto, rp->nf - 1);
		end = rp->f[upto].emit_end;
		bot = rp->games[rp->f[upto].game].seats[seat];
	} else if (rp->ngames > 0)
		bot = rp->games[0].seats[seat];
	for (i = 1; i < end; i++) {
		if (strcmp(l->r[i].type, "send") != 0 || l->r[i].bot != bot)
			continue;
		msg = rlog_msg(&l->r[i], &len);
		if (fwrite(msg, 1, len, stdout) != len || putchar('\n') == EOF)
			err(1, "stdout");
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}

/* Writes the HTML viewer of the replay to path ("-": stdout). */
static int
write_html(const struct replay *rp, const char *path)
{
	char cause[256];
	json_t *doc;
	FILE *fp;
	int rc;

	if (strcmp(path, "-") == 0)
		fp = stdout;
	else if ((fp = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	doc = html_document(rp);
	rc = html_write(fp, doc, cause, sizeof cause);
	json_decref(doc);
	if (rc == -1)
		errx(1, "%s: %s", path, cause);
	if ((fp == stdout ? fflush(fp) : fclose(fp)) == EOF)
		err(1, "%s", path);
	return 0;
}

/*
 * Draws each view of path (one JSON object a line; "-" for stdin) as
 * game's table; 0, or 1 (with a message) when a line is not a view.
 */
static int
draw_views(const char *game, const char *path)
{
	json_error_t je;
	json_t *v;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0, n = 0;
	int players;

	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	while (getline(&line, &cap, fp) != -1) {
		n++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if ((v = json_loads(line, 0, &je)) == NULL ||
		    !json_is_object(v))
			errx(1, "%s:%zu: not a view (a JSON object): %s", path,
			    n, v == NULL ? je.text : "another value");
		players = (int)json_integer_value(json_object_get(v,
		    "players"));
		render_table(stdout, game, v, 0, players);
		json_decref(v);
	}
	if (ferror(fp))
		err(1, "%s", path);
	free(line);
	if (fp != stdin)
		fclose(fp);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}

/* The command line. */
struct args {
	enum mode	 mode;
	const char	*html, *names, *game;
	long		 seat, step, upto;
	int		 keys, ascii, full;
};

/* Reads the options into a; returns the index of the first operand. */
static int
parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "seat", required_argument, NULL, 's' },
		{ "step", required_argument, NULL, 'k' },
		{ "upto", required_argument, NULL, 'u' },
		{ "verify", no_argument, NULL, 'V' },
		{ "emit", no_argument, NULL, 'E' },
		{ "html", required_argument, NULL, 'H' },
		{ "ascii", no_argument, NULL, 'a' },
		{ "no-keys", no_argument, NULL, 'n' },
		{ "full", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'R' },
		{ "names", required_argument, NULL, 'N' },
		{ "table", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	enum mode want;
	int ch;

	memset(a, 0, sizeof *a);
	a->mode = SHOW;
	a->seat = a->upto = -1;
	a->keys = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			a->seat = cli_whole(NULL, "--seat", optarg, 0,
			    MAX_PLAYERS - 1);
			break;
		case 'k':
			a->step = cli_whole(NULL, "--step", optarg, 0,
			    LONG_MAX);
			break;
		case 'u':
			a->upto = cli_whole(NULL, "--upto", optarg, 0,
			    LONG_MAX);
			break;
		case 'V':
		case 'E':
		case 'H':
		case 'T':
			want = ch == 'V' ? VERIFY : ch == 'E' ? EMIT : ch == 'H' ?
			    HTML : TABLE;
			if (a->mode != SHOW && a->mode != want)
				errx(2, "give one of --verify, --emit, --html "
				    "and --table");
			a->mode = want;
			if (ch == 'H')
				a->html = optarg;
			if (ch == 'T')
				a->game = optarg;
			break;
		case 'a':
			a->ascii = 1;
			break;
		case 'n':
			a->keys = 0;
			break;
		case 'f':
			a->full = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'N':
			a->names = optarg;
			break;
		case 'R':
			cli_version("replay");
		default:
			cli_bad_option("replay", ch, argv);
		}
	}
	return optind;
}

/* --verify: checks every log given; the exit status. */
static int
verify_all(int n, char **paths)
{
	struct tally t = { 0, 0, 0 };
	int i, all;

	for (i = 0; i < n; i++)
		verify_path(paths[i], &t);
	all = t.ok + t.bad + t.empty;
	if (all != 1 || t.bad > 0) {
		printf("verified %d logs: %d ok, %d failed", all, t.ok,
		    t.bad);
		if (t.empty > 0)
			printf(", %d with no game (a match stopped before its "
			    "first game)", t.empty);
		putchar('\n');
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	if (all == 0)
		warnx("no match log found (a log's first line is the "
		    "referee's header)");
	return t.bad > 0 || t.ok + t.empty == 0 ? 1 : 0;
}

/* Shows one log as a asks (emit, HTML, or on the terminal); the status. */
static int
show(const struct args *a, const char *path)
{
	struct rlog l;
	struct replay rp;
	const char *term;
	int colour, keys;

	term = getenv("TERM");
	colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
	    term != NULL && strcmp(term, "dumb") != 0;
	keys = a->keys && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	render_init(colour, !a->ascii, a->full || keys);
	if (load(&l, &rp, path, a->mode == EMIT && a->upto < 0) == -1)
		return 1;
	if (a->seat >= rp.players)
		errx(2, "--seat %ld: the match has seats 0 to %d", a->seat,
		    rp.players - 1);
	if (a->names != NULL)
		set_names(&l, a->names, rp.players);
	switch (a->mode) {
	case EMIT:
		emit(&rp, (int)a->seat, a->upto);
		break;
	case HTML:
		write_html(&rp, a->html);
		break;
	default:
		if (rp.nf == 0)
			errx(1, "%s: the log holds no game to show", path);
		if ((size_t)a->step >= rp.nf)
			errx(2, "--step %ld: the replay has steps 0 to %zu",
			    a->step, rp.nf - 1);
		if (keys)
			render_interactive(&rp, (size_t)a->step, (int)a->seat);
		else
			render_match(stdout, &rp, (size_t)a->step,
			    (int)a->seat);
		if (fflush(stdout) == EOF)
			err(1, "stdout");
		break;
	}
	replay_free(&rp);
	rlog_free(&l);
	return 0;
}

int
main(int argc, char **argv)
{
	struct args a;
	int i;

	i = parse_args(argc, argv, &a);
	argc -= i;
	argv += i;
	if (argc < 1)
		cli_usage_error("replay", "no log given");
	if (a.mode != VERIFY && argc != 1)
		cli_usage_error("replay", "one log at a time (--verify takes "
		    "several)");
	if (a.mode == VERIFY && a.names != NULL)
		errx(2, "--names goes with a replay to show, not --verify");
	if (a.mode == VERIFY)
		return verify_all(argc, argv);
	if (a.mode == TABLE) {
		if (game_find(a.game) == NULL)
			errx(2, "--table %s: no such game (see referee "
			    "--list-games)", a.game);
		render_init(0, !a.ascii, 1);
		return draw_views(a.game, argv[0]);
	}
	if (a.mode == EMIT && a.seat < 0)
		errx(2, "--emit needs --seat N");
	if (a.mode != EMIT && a.upto >= 0)
		errx(2, "--upto K goes with --emit");
	return show(&a, argv[0]);
}
