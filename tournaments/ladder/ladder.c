/*
 * tournament ladder: the command line of the self-hosted ladder.
 *
 *   tournament ladder init DIR (FILE | -g GAME) [--boot N]
 *   tournament ladder add DIR NAME -c COMMAND [--dir BOTDIR] [--owner WHO]
 *                         [--env KEY=VALUE ...]
 *   tournament ladder update DIR NAME [-c COMMAND] [--dir BOTDIR] ...
 *   tournament ladder retire DIR NAME
 *   tournament ladder inbox DIR INBOX
 *   tournament ladder run DIR [-j N] [--games N] [--refit N] [-q]
 *                         [--spool SPOOL [--workers K] [--submit CMD] ...]
 *   tournament ladder status|export|site|serve|synth DIR ...
 *
 * Entering a bot copies its directory into the ladder (DIR/bots/NAME/vN),
 * so that its author's later edits change nothing, and runs bin/botcheck
 * on the copy with the ladder's game and limits first: a bot that fails
 * is refused with botcheck's report.  The manual is
 * cardarena-tournament-ladder(1).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/paths.h"
#include "base/tfile.h"
#include "cli.h"
#include "ladder/ladder.h"
#include "ladder/ladder_entry.h"
#include "ladder/ladder_rate.h"
#include "ladder/ladder_run.h"
#include "ladder/ladder_serve.h"
#include "ladder/ladder_site.h"
#include "ladder/ladder_store.h"
#include "ladder/ladder_synth.h"
#include "proc.h"
#include "rating/rate.h"
#include "rating/report.h"
#include "rng.h"

static void	 usage(FILE *, int) __attribute__((noreturn));
static void	 open_store(struct lstore *, const char *);
static int	 parse_entry(int, char **, const char *, struct lentry *, int);
static int	 settings_check(const json_t *, char *, size_t);
static int	 l_init(int, char **);
static int	 l_add(int, char **);
static int	 l_retire(int, char **);
static int	 l_inbox(int, char **);
static int	 l_status(int, char **);
static int	 l_export(int, char **);
static int	 l_site(int, char **);
static int	 no_games(struct lstore *, FILE *);
static double	 cpu_now(void);
static int	 l_serve(int, char **);
static int	 l_run(int, char **);
static int	 l_synth(int, char **);

static const struct option help_only[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const char usage_text[] =
"usage: tournament ladder init DIR (FILE | -g GAME) [--boot N]\n"
"       tournament ladder add DIR NAME -c COMMAND [--dir BOTDIR]\n"
"                             [--owner WHO] [--env KEY=VALUE ...]\n"
"       tournament ladder update DIR NAME [-c COMMAND] [--dir BOTDIR]\n"
"                             [--owner WHO] [--env KEY=VALUE ...]\n"
"       tournament ladder retire DIR NAME\n"
"       tournament ladder inbox DIR INBOX\n"
"       tournament ladder run DIR [-j N] [--games N] [--refit N]\n"
"                             [--inbox INBOX] [-q]\n"
"                             [--spool SPOOL [--workers K] [--submit CMD]\n"
"                              [--job-timeout SECONDS]]\n"
"       tournament ladder status DIR [-f FORMAT]\n"
"       tournament ladder export DIR [-o FILE]\n"
"       tournament ladder site [-v] DIR\n"
"       tournament ladder serve DIR [--port P] [--idle S]\n"
"       tournament ladder synth DIR (--bots N | --append) --games N\n"
"                             [--seed N] [--command CMD]\n"
"\n"
"A ladder plays for ever while bots enter, are updated and retire; DIR\n"
"holds its store (ladder.db, SQLite), the bots' copies, the match logs\n"
"and the site.\n"
"init      makes the ladder: FILE is a tournament file (its game, options,\n"
"          seats, deals per table, limits, containment; its bots, if any,\n"
"          are entered); -g GAME takes the game's defaults\n"
"          (its \"ladder\": {\"bot_max_bytes\", \"bot_max_files\"} bound\n"
"          what a bot may bring in: 256 MiB, 10000 files by default)\n"
"  --boot N          bootstrap replicates of the intervals (default 200)\n"
"add       enters a bot after bin/botcheck passed it (refused with the\n"
"          report otherwise); its directory is copied into the ladder\n"
"  -c, --command CMD its command, run in its directory\n"
"  --dir BOTDIR      its directory (copied); none: CMD as given\n"
"  --owner WHO       who entered it\n"
"  --env KEY=VALUE   set in its environment; repeatable\n"
"update    enters a new version of a bot (the old one retires, its games\n"
"          kept): the same options, a new -c or --dir or both (without\n"
"          -c, the last version's command in the new directory)\n"
"retire    takes a bot out of play; its games and rating stay\n"
"inbox     enters every new subdirectory of INBOX holding a bot.json\n"
"          ({\"name\", \"command\", \"owner\", \"env\"}) as add or update\n"
"          do, and leaves INBOX/SUB/ladder.txt saying what happened\n"
"run       plays table after table until stopped (SIGINT, SIGTERM); a\n"
"          bot whose tables keep failing is quarantined\n"
"  -j N              tables at once (default: the file's concurrency)\n"
"  --games N         stop after N new games\n"
"  --refit N         refit and write the site every N games (default 20)\n"
"  --inbox INBOX     look into INBOX for new bots at every refit\n"
"  -q                no progress lines\n"
"status    prints the table of every version that has played (the same\n"
"          bytes as tournament rate -t NAME on the export)\n"
"  -f FORMAT         text (default), csv, json, md or html\n"
"export    writes the ladder's games as a tournament journal\n"
"  -o FILE           there instead of stdout\n"
"site      fits the ratings (saved with the others) and writes DIR/site\n"
"  -v                the CPU time of each step, then a warm refit's\n"
"serve     serves the published site (DIR/site, the logs of tables\n"
"          ended) read-only on 127.0.0.1\n"
"  --port P          the port (default 8080)\n"
"  --idle S          close a connection idle for S seconds (default 10)\n"
"synth     fills a new ladder with N synthetic bots and games (for\n"
"          measuring; no bot is run), or --append adds games to one and\n"
"          says their CPU time\n"
"  --command CMD     the synthetic bots' command (default true; not\n"
"                    checked: a run of the ladder plays them with it)\n"
"\n"
"Exit status: 0 on success; 1 when the ladder cannot be used or a bot is\n"
"refused; 2 for a bad command line or settings; 130 when run was stopped\n"
"by a signal (run again to go on).\n";

/* Prints the usage and exits with status. */
static void
usage(FILE *fp, int status)
{
	fputs(usage_text, fp);
	exit(status);
}

/* Opens an existing ladder or exits with its cause. */
static void
open_store(struct lstore *s, const char *dir)
{
	char cause[512];

	if (lstore_open(s, dir, 0, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
}

/*
 * Reads the options of add and update (argv[0] the subcommand) into e;
 * returns the index of the first operand.
 */
static int
parse_entry(int argc, char **argv, const char *prog, struct lentry *e,
    int need_command)
{
	static const struct option lopts[] = {
		{ "command", required_argument, NULL, 'c' },
		{ "dir", required_argument, NULL, 'd' },
		{ "owner", required_argument, NULL, 'o' },
		{ "env", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *eq;
	int ch;

	memset(e, 0, sizeof *e);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:h", lopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			e->command = optarg;
			break;
		case 'd':
			e->dir = optarg;
			break;
		case 'o':
			e->owner = optarg;
			break;
		case 'e':
			if ((eq = strchr(optarg, '=')) == NULL || eq == optarg)
				cli_usage_error(prog, "--env %s: KEY=VALUE",
				    optarg);
			if (e->env == NULL)
				e->env = json_object();
			*eq = '\0';
			json_object_set_new(e->env, optarg,
			    json_string(eq + 1));
			*eq = '=';
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option(prog, ch, argv);
		}
	}
	if (argc - optind != 2)
		cli_usage_error(prog, "give the ladder's directory and the "
		    "bot's name");
	if (need_command && e->command == NULL)
		cli_usage_error(prog, "give the bot's command (-c)");
	e->name = argv[optind + 1];
	return optind;
}

/* tournament ladder add and update */
static int
l_add(int argc, char **argv)
{
	struct lstore s;
	struct lentry e;
	char cause[65536];
	int update = strcmp(argv[0], "update") == 0, i, ver;

	i = parse_entry(argc, argv, update ? "tournament ladder update" :
	    "tournament ladder add", &e, !update);
	open_store(&s, argv[i]);
	ver = lentry_open(&e, cause, sizeof cause) == -1 ? -1 : ladder_enter(&s, &e,
	    update, cause, sizeof cause);
	lstore_close(&s);
	json_decref(e.env);
	if (e.dirfd != -1)
		close(e.dirfd);
	if (ver == -1) {
		fprintf(stderr, "tournament ladder: %s\n", cause);
		return 1;
	}
	printf("%s.v%d entered\n", e.name, ver);
	return 0;
}

/* tournament ladder retire */
static int
l_retire(int argc, char **argv)
{
	struct lstore s;
	char cause[512];
	int rc;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		usage(stdout, 0);
	if (argc != 3)
		cli_usage_error("tournament ladder retire", "give the ladder's "
		    "directory and the bot's name");
	open_store(&s, argv[1]);
	rc = lstore_retire(&s, argv[2], cause, sizeof cause);
	lstore_close(&s);
	if (rc == -1)
		errx(1, "%s", cause);
	printf("%s retired\n", argv[2]);
	return 0;
}

/* tournament ladder inbox */
static int
l_inbox(int argc, char **argv)
{
	struct lstore s;
	int n;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		usage(stdout, 0);
	if (argc != 3)
		cli_usage_error("tournament ladder inbox", "give the ladder's "
		    "directory and the inbox");
	open_store(&s, argv[1]);
	n = ladder_inbox(&s, argv[2], LINBOX_SKIPS);
	lstore_close(&s);
	return n == -1 ? 1 : 0;
}

/*
 * Checks what a ladder's settings add to a tournament file's: its
 * "ladder" limits, and a "comment" of at most LDESC_MAX bytes (the
 * settings are read at every command); -1 and a cause.
 */
static int
settings_check(const json_t *j, char *cause, size_t len)
{
	struct llimits lim;
	const json_t *c = json_object_get(j, "comment");

	if (json_is_string(c) && json_string_length(c) > LDESC_MAX) {
		snprintf(cause, len, "\"comment\": %zu bytes, at most %d "
		    "bytes in a ladder's settings", json_string_length(c),
		    LDESC_MAX);
		return -1;
	}
	return llimits_parse(json_object_get(j, "ladder"), &lim, cause, len);
}

/* tournament ladder init */
static int
l_init(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "game", required_argument, NULL, 'g' },
		{ "boot", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const dropped[] = { "output", "schedule", "rounds",
	    "tables", "max_tables", NULL };
	struct lstore s;
	struct tour t;
	struct stat sb;
	struct lentry e;
	json_t *j, *bots, *b;
	const char *game = NULL, *dir;
	char cause[65536], *text, seed[32], *copy, boot[16] = "200";
	size_t i;
	int ch, k;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":g:h", lopts, NULL)) != -1) {
		switch (ch) {
		case 'g':
			game = optarg;
			break;
		case 'b':
			(void)cli_whole("tournament ladder init", "--boot",
			    optarg, 0, 10000);
			snprintf(boot, sizeof boot, "%s", optarg);
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder init", ch, argv);
		}
	}
	if (argc - optind != (game != NULL ? 1 : 2))
		cli_usage_error("tournament ladder init", "give the ladder's "
		    "directory and a tournament file or -g GAME");
	dir = argv[optind];
	if (asprintf(&text, "%s/%s", dir, LADDER_DB) == -1)
		abort();
	if (stat(text, &sb) == 0)
		errx(1, "%s: a ladder already", dir);
	free(text);
	if (game != NULL)
		j = json_pack("{s:s}", "game", game);
	else if ((j = tour_read(argv[optind + 1], cause, sizeof cause)) ==
	    NULL)
		errx(2, "%s: %s", argv[optind + 1], cause);
	if (settings_check(j, cause, sizeof cause) == -1)
		errx(2, "%s: %s", game != NULL ? game : argv[optind + 1],
		    cause);
	bots = json_incref(json_object_get(j, "bots"));
	json_object_del(j, "bots");
	for (k = 0; dropped[k] != NULL; k++)
		json_object_del(j, dropped[k]);
	if (json_object_get(j, "seed") == NULL) {
		snprintf(seed, sizeof seed, "%" PRIu64, seed_fresh() &
		    INT64_MAX);
		json_object_set_new(j, "seed", json_string(seed));
	}
	if (json_object_get(j, "sandbox") == NULL)
		json_object_set_new(j, "sandbox", json_string("auto"));
	if (json_object_get(j, "name") == NULL) {
		copy = xstrdup(dir);
		while (strlen(copy) > 1 && copy[strlen(copy) - 1] == '/')
			copy[strlen(copy) - 1] = '\0';
		json_object_set_new(j, "name", json_string(strrchr(copy,
		    '/') != NULL ? strrchr(copy, '/') + 1 : copy));
		free(copy);
	}
	if (mkdirs(dir) == -1)
		err(1, "%s", dir);
	if (lstore_open(&s, dir, 1, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	if (lstore_set_meta(&s, "settings", text, cause, sizeof cause) ==
	    -1 || lstore_set_meta(&s, "name", json_string_value(
	    json_object_get(j, "name")), cause, sizeof cause) == -1 ||
	    lstore_set_meta(&s, "boot", boot, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	free(text);
	json_decref(j);
	if (ladder_tour(&s, NULL, 0, &t, cause, sizeof cause) == -1) {
		tour_free(&t);
		json_decref(bots);
		lstore_close(&s);
		if (asprintf(&text, "%s/%s", dir, LADDER_DB) == -1)
			abort();
		unlink(text);
		free(text);
		errx(2, "%s: %s", game != NULL ? game : argv[optind + 1],
		    cause);
	}
	if (t.deals_per_run > 0)
		printf("%s: a ladder of %s, %d seats, %ld games a table\n",
		    dir, t.game, t.seats, t.deals_per_run *
		    (t.duplicate ? t.seats : 1));
	else
		printf("%s: a ladder of %s, %d seats, tables of about %.0f s "
		    "of play (at least %ld games)\n", dir, t.game, t.seats,
		    LTABLE_SECONDS, tour_games_per_table(&t));
	tour_free(&t);
	for (i = 0; json_is_array(bots) && i < json_array_size(bots); i++) {
		b = json_array_get(bots, i);
		memset(&e, 0, sizeof e);
		e.name = json_string_value(json_object_get(b, "name"));
		e.command = json_string_value(json_object_get(b, "command"));
		e.dir = json_string_value(json_object_get(b, "dir"));
		e.env = json_object_get(b, "env");
		if (e.name == NULL || e.command == NULL) {
			warnx("bot %zu: needs a name and a command", i);
			continue;
		}
		if (lentry_open(&e, cause, sizeof cause) == -1 ||
		    (k = ladder_enter(&s, &e, 0, cause, sizeof cause)) == -1)
			warnx("%s", cause);
		else
			printf("%s.v%d entered\n", e.name, k);
		if (e.dirfd != -1)
			close(e.dirfd);
	}
	json_decref(bots);
	lstore_close(&s);
	return 0;
}

/* tournament ladder status */
static int
l_status(int argc, char **argv)
{
	struct lstore s;
	struct lrating lr;
	struct lversion *v;
	enum report_fmt fmt = FMT_TEXT;
	char cause[512];
	int ch, i, n;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:h", help_only, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (report_fmt(optarg, &fmt) == -1)
				cli_usage_error("tournament ladder status",
				    "-f %s: text, csv, json, md or html",
				    optarg);
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder status", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament ladder status", "give the "
		    "ladder's directory");
	open_store(&s, argv[optind]);
	lrate_init(&s, &lr, 0);
	if (lrate_update(&s, &lr, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	if (lr.r.n == 0 && fmt == FMT_TEXT) {
		/* nothing to rate yet: who is entered */
		lrate_free(&lr);
		return no_games(&s, stdout);
	}
	if (lr.r.n == 0) {
		/* a table of no one in the format asked, who is beside it */
		if (lrate_report(&s, &lr, stdout, fmt, cause,
		    sizeof cause) == -1)
			errx(1, "%s", cause);
		lrate_free(&lr);
		return no_games(&s, stderr);
	}
	if (rate_fit(&lr.r, cause, sizeof cause) == -1 ||
	    lrate_report(&s, &lr, stdout, fmt, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	lrate_free(&lr);
	/* beside the table (stdout is tournament rate's bytes) */
	if (lstore_versions(&s, &v, &n, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	for (i = 0; i < n; i++)
		if (v[i].active && v[i].quarantine != NULL)
			warnx("%s is quarantined: %s", v[i].player,
			    v[i].quarantine);
	lversions_free(v, n);
	lstore_close(&s);
	return 0;
}

/* What ladder status says before any game, on fp: the bots entered; 0. */
static int
no_games(struct lstore *s, FILE *fp)
{
	struct lversion *v;
	char cause[512];
	int i, n, k = 0;

	if (lstore_versions(s, &v, &n, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	for (i = 0; i < n; i++)
		k += v[i].active;
	fprintf(fp, "no games played yet; %d bot%s entered%s\n", k,
	    k == 1 ? "" : "s", k > 0 ? ":" : "");
	for (i = 0; i < n; i++)
		if (v[i].active)
			fprintf(fp, "  %-*s %s%s%s%s\n", LNAME_MAX + 4,
			    v[i].player,
			    v[i].owner != NULL ? "owner " : "",
			    v[i].owner != NULL ? v[i].owner : "",
			    v[i].quarantine != NULL ? " quarantined: " : "",
			    v[i].quarantine != NULL ? v[i].quarantine : "");
	lversions_free(v, n);
	lstore_close(s);
	return 0;
}

/* tournament ladder export */
static int
l_export(int argc, char **argv)
{
	struct lstore s;
	const char *out = NULL;
	char cause[512], *tmp = NULL;
	FILE *fp = stdout;
	int ch, fd;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:h", help_only, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder export", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament ladder export", "give the "
		    "ladder's directory");
	open_store(&s, argv[optind]);
	if (out != NULL) {
		if (asprintf(&tmp, "%s.XXXXXX", out) == -1)
			abort();
		if ((fd = mkstemp(tmp)) == -1 || (fp = fdopen(fd, "w")) ==
		    NULL)
			err(1, "%s", out);
	}
	if (ladder_export(&s, fp, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	if (out != NULL) {
		if (fchmod(fileno(fp), 0644) == -1 || fclose(fp) == EOF ||
		    rename(tmp, out) == -1)
			err(1, "%s", out);
		free(tmp);
	}
	lstore_close(&s);
	return 0;
}

/* Seconds of CPU time this process used so far. */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * tournament ladder site [-v]: with -v, the CPU time of each step and,
 * after the site, a second fit warm-started from the first and its site
 * (what a running ladder's refit costs when few games came since), and
 * a third without the bootstrap (a refit between two bootstraps).
 */
static int
l_site(int argc, char **argv)
{
	struct lstore s;
	struct lrating lr;
	char cause[512];
	double t0, t1, t2, t3;
	int ch, verbose = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":vh", help_only, NULL)) != -1) {
		switch (ch) {
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder site", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament ladder site", "give the ladder's "
		    "directory");
	open_store(&s, argv[optind]);
	/* the replays a run left to render */
	if (ladder_replays(&s, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	lrate_init(&s, &lr, verbose);
	t0 = cpu_now();
	if (lrate_update(&s, &lr, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	t1 = cpu_now();
	if (lr.r.n > 0 && (rate_fit(&lr.r, cause, sizeof cause) == -1 ||
	    lrate_save(&s, &lr, cause, sizeof cause) == -1))
		errx(1, "%s", cause);
	t2 = cpu_now();
	if (ladder_site(&s, &lr, -1, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	t3 = cpu_now();
	if (verbose) {
		fprintf(stderr, "site: %ld games of %d versions read in %.2f s,"
		    " fitted (%d bootstrap replicates) in %.2f s, the site "
		    "written in %.2f s (CPU)\n", lr.r.games, lr.r.n, t1 - t0,
		    lr.r.opts.boot, t2 - t1, t3 - t2);
		if (lr.r.n > 0 && rate_fit(&lr.r, cause, sizeof cause) == -1)
			errx(1, "%s", cause);
		t0 = cpu_now();
		if (lr.r.n > 0 && ladder_site(&s, &lr, -1, cause, sizeof cause) ==
		    -1)
			errx(1, "%s", cause);
		fprintf(stderr, "site: refitted warm in %.2f s, written again "
		    "in %.2f s (CPU)\n", t0 - t3, cpu_now() - t0);
		/* a running ladder's refit between two bootstraps */
		lr.r.point_only = 1;
		t0 = cpu_now();
		if (lr.r.n > 0 && rate_fit(&lr.r, cause, sizeof cause) == -1)
			errx(1, "%s", cause);
		fprintf(stderr, "site: refitted warm without the bootstrap in "
		    "%.2f s (CPU)\n", cpu_now() - t0);
	}
	lrate_free(&lr);
	lstore_close(&s);
	return 0;
}

/* tournament ladder serve */
static int
l_serve(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "idle", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lstore s;
	char cause[512];
	int ch, port = 8080, idle = LSERVE_IDLE;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":p:h", lopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			port = (int)cli_whole("tournament ladder serve",
			    "--port", optarg, 0, 65535);
			break;
		case 'i':
			idle = (int)cli_whole("tournament ladder serve",
			    "--idle", optarg, 1, 3600);
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder serve", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament ladder serve", "give the ladder's "
		    "directory");
	open_store(&s, argv[optind]);
	if (ladder_serve(&s, port, idle, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	lstore_close(&s);
	return 0;
}

/* tournament ladder run */
static int
l_run(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "games", required_argument, NULL, 'G' },
		{ "refit", required_argument, NULL, 'R' },
		{ "inbox", required_argument, NULL, 'I' },
		{ "spool", required_argument, NULL, 'S' },
		{ "submit", required_argument, NULL, 'C' },
		{ "workers", required_argument, NULL, 'W' },
		{ "job-timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lrun_opts o;
	struct lstore s;
	int ch, rc;

	memset(&o, 0, sizeof o);
	o.refit_every = 20;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":j:qh", lopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o.jobs = (int)cli_whole("tournament ladder run", "-j",
			    optarg, 1, 1024);
			break;
		case 'G':
			o.max_games = (long)cli_whole("tournament ladder run",
			    "--games", optarg, 1, LONG_MAX);
			break;
		case 'R':
			o.refit_every = (int)cli_whole("tournament ladder run",
			    "--refit", optarg, 1, 1000000);
			break;
		case 'I':
			o.inbox = optarg;
			break;
		case 'S':
			o.spool = optarg;
			break;
		case 'C':
			o.submit = optarg;
			break;
		case 'W':
			o.workers = (int)cli_whole("tournament ladder run",
			    "--workers", optarg, 1, 100000);
			break;
		case 'T':
			o.job_timeout = (long)cli_whole("tournament ladder run",
			    "--job-timeout", optarg, 1, 10000000);
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder run", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament ladder run", "give the ladder's "
		    "directory");
	if (o.spool == NULL && (o.submit != NULL || o.workers > 0 ||
	    o.job_timeout > 0))
		cli_usage_error("tournament ladder run", "--submit, --workers "
		    "and --job-timeout go with --spool");
	if (o.spool != NULL && o.jobs > 0)
		cli_usage_error("tournament ladder run", "-j plays tables "
		    "here; with --spool the workers play (--workers K)");
	open_store(&s, argv[optind]);
	rc = ladder_run(&s, &o);
	lstore_close(&s);
	return rc;
}

/*
 * tournament ladder synth: N bots of true strengths spread over 800 Elo
 * and M games between random tables of them, places drawn from the
 * strengths, committed as the run commits them (in transactions of many
 * games here, for speed).
 */
static int
l_synth(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bots", required_argument, NULL, 'b' },
		{ "games", required_argument, NULL, 'g' },
		{ "seed", required_argument, NULL, 's' },
		{ "append", no_argument, NULL, 'a' },
		{ "command", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lstore s;
	const char *cmd = NULL;
	char cause[512];
	long nbots = 0, ngames = 0;
	uint64_t seed = 1;
	double t0;
	int ch, append = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			nbots = (long)cli_whole("tournament ladder synth",
			    "--bots", optarg, 2, LADDER_MAX_BOTS);
			break;
		case 'g':
			ngames = (long)cli_whole("tournament ladder synth",
			    "--games", optarg, 1, 100000000);
			break;
		case 's':
			seed = (uint64_t)cli_whole("tournament ladder synth",
			    "--seed", optarg, 0, LLONG_MAX);
			break;
		case 'a':
			append = 1;
			break;
		case 'c':
			if (*optarg == '\0')
				cli_usage_error("tournament ladder synth",
				    "--command: a command, not an empty one");
			cmd = optarg;
			break;
		case 'h':
			usage(stdout, 0);
		default:
			cli_bad_option("tournament ladder synth", ch, argv);
		}
	}
	if (argc - optind != 1 || (nbots == 0) != append || ngames == 0)
		cli_usage_error("tournament ladder synth", "give the ladder's "
		    "directory, --bots (or --append) and --games");
	if (append && cmd != NULL)
		cli_usage_error("tournament ladder synth", "--command names "
		    "the bots synth makes, not those --append plays");
	open_store(&s, argv[optind]);
	t0 = cpu_now();
	if (ladder_synth(&s, argv[optind], nbots, ngames, seed, append, cmd,
	    cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	if (append)
		printf("%s: %ld games appended in %.2f s (CPU)\n",
		    argv[optind], ngames, cpu_now() - t0);
	else
		printf("%s: %ld synthetic bots, %ld games\n", argv[optind],
		    nbots, ngames);
	lstore_close(&s);
	return 0;
}

/* tournament ladder SUBCOMMAND ... */
int
cmd_ladder(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*fn)(int, char **);
	} cmds[] = {
		{ "init", l_init }, { "add", l_add }, { "update", l_add },
		{ "retire", l_retire }, { "inbox", l_inbox },
		{ "run", l_run }, { "status", l_status },
		{ "export", l_export }, { "site", l_site },
		{ "serve", l_serve }, { "synth", l_synth }, { NULL, NULL }
	};
	int i;

	if (argc < 2)
		cli_usage_error("tournament ladder", "no ladder command given");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		usage(stdout, 0);
	for (i = 0; cmds[i].name != NULL; i++)
		if (strcmp(cmds[i].name, argv[1]) == 0) {
			optind = 1;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	cli_usage_error("tournament ladder", "unknown ladder command %s",
	    argv[1]);
}
