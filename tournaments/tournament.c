/*
 * bin/tournament: the program people run to find out which bot is best.
 *
 *   tournament run [-j N] [-q] [--progress | --no-progress] FILE
 *   tournament rate [-f FORMAT] [-o FILE] [-t TITLE] [--anchor NAME=ELO]
 *                   [--prior N] [--boot N] [--seed N] JOURNAL...
 *   tournament schedule [-v] FILE
 *   tournament gauntlet -g GAME -c CANDIDATE -p POOL... (see gauntlet.c)
 *   tournament plan|job|merge|status ... (see dist.c)
 *   tournament ladder init|add|update|retire|inbox|run|status|export|
 *                     site|serve|synth DIR ... (see ladder.c)
 *
 * run plays (or resumes) the round robin a tournament file describes and
 * writes its journal and reports; rate fits ratings on journals; schedule
 * shows the tables and their balance without playing.  README.md
 * ("Tournaments") is the manual.
 */
#include <err.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "base/schedule.h"
#include "base/tfile.h"
#include "base/usage.h"
#include "cli.h"
#include "dist/dist.h"
#include "gauntlet/gauntlet.h"
#include "ladder/ladder.h"
#include "near.h"
#include "pool/runner.h"
#include "rating/load.h"
#include "rating/rate.h"
#include "rating/report.h"

/* The long options of a command that has no others. */
static int	 cmd_run(int, char **);
static int	 cmd_rate(int, char **);
static int	 cmd_schedule(int, char **);

/* tournament run */
static int
cmd_run(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "replays", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct runner_opts o;
	struct tour t;
	char cause[512];
	int ch, rc;

	memset(&o, 0, sizeof o);
	o.progress = -1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:j:qh", lopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o.jobs = (int)cli_whole(NULL, "-j", optarg, 1, 1024);
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
		case 'R':
			o.replays = 1;
			break;
		case 'h':
			tournament_usage(stdout, 0);
			break;
		default:
			cli_bad_option("tournament run", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament run", "give one tournament file");
	if (tour_load(&t, argv[optind], cause, sizeof cause) == -1)
		errx(2, "%s: %s", argv[optind], cause);
	if (t.gauntlet != NULL)
		errx(2, "%s: a gauntlet (its \"gauntlet\" object): run it with "
		    "tournament gauntlet %s", argv[optind], argv[optind]);
	rc = runner_run(&t, &o);
	tour_free(&t);
	return rc;
}

/* tournament rate */
static int
cmd_rate(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "anchor", required_argument, NULL, 'a' },
		{ "prior", required_argument, NULL, 'p' },
		{ "boot", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rate_opts ro = { 200, 2, NULL, 0, 1500, 1 };
	struct rated rd;
	enum report_fmt fmt = FMT_TEXT;
	const char *out = NULL;
	char cause[512], *eq, *end, *anchor = NULL, *copy, *linkdir = NULL;
	const char *title = NULL;
	FILE *fp = stdout;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:f:o:t:h", lopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 't':
			title = optarg;
			break;
		case 'f':
			if (report_fmt(optarg, &fmt) == -1)
				errx(2, "-f %s: text, csv, json, md or html",
				    optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			anchor = xstrdup(optarg);
			if ((eq = strchr(anchor, '=')) == NULL || eq == anchor)
				errx(2, "--anchor %s: NAME=ELO", optarg);
			*eq++ = '\0';
			ro.anchor = anchor;
			ro.anchor_elo = strtod(eq, &end);
			if (*eq == '\0' || *end != '\0' ||
			    !isfinite(ro.anchor_elo))
				errx(2, "--anchor %s: NAME=ELO", optarg);
			break;
		case 'p':
			ro.prior = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' ||
			    !(ro.prior >= 0 && ro.prior <= 1e6))
				errx(2, "--prior %s: a number from 0 to "
				    "1000000", optarg);
			break;
		case 'b':
			ro.boot = (int)cli_whole(NULL, "--boot", optarg, 0,
			    100000);
			break;
		case 's':
			ro.seed = (uint64_t)cli_whole(NULL, "--seed", optarg,
			    0, LLONG_MAX);
			break;
		case 'h':
			tournament_usage(stdout, 0);
			break;
		default:
			cli_bad_option("tournament rate", ch, argv);
		}
	}
	if (optind == argc)
		cli_usage_error("tournament rate", "no journal given");
	if (out != NULL) {
		copy = xstrdup(out);
		linkdir = xstrdup(dirname(copy));
		free(copy);
	}
	if (rated_open(&rd, &ro, argv + optind, argc - optind, linkdir,
	    title != NULL ? title : "cardarena ratings", cause,
	    sizeof cause) != 0)
		errx(1, "%s", cause);
	if (out != NULL && (fp = fopen(out, "w")) == NULL)
		err(1, "%s", out);
	rd.rp.color = fmt == FMT_TEXT && out == NULL && isatty(1);
	if (report_write(fp, &rd.rp, fmt, cause, sizeof cause) == -1)
		errx(1, "%s: %s", out != NULL ? out : "stdout", cause);
	if (out != NULL && fclose(fp) == EOF)
		err(1, "%s", out);
	rated_close(&rd);
	free(anchor);
	free(linkdir);
	return 0;
}

/* tournament schedule */
static int
cmd_schedule(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "settings", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tour t;
	struct schedule s;
	struct sched_stats st;
	json_t *j;
	char cause[512];
	int ch, verbose = 0, settings = 0, i, k;
	long gpt;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:vh", lopts, NULL)) != -1) {
		switch (ch) {
		case 'v':
			verbose = 1;
			break;
		case 'S':
			settings = 1;
			break;
		case 'h':
			tournament_usage(stdout, 0);
			break;
		default:
			cli_bad_option("tournament schedule", ch, argv);
		}
	}
	if (argc - optind != 1)
		cli_usage_error("tournament schedule", "give one tournament "
		    "file");
	if (tour_load(&t, argv[optind], cause, sizeof cause) == -1)
		errx(2, "%s: %s", argv[optind], cause);
	if (settings) {
		j = tour_settings(&t);
		json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		printf("\n");
		json_decref(j);
		tour_free(&t);
		return 0;
	}
	if (schedule_make(&s, t.nbots, t.seats, t.mode, t.count, t.max_tables,
	    t.seed, cause, sizeof cause) == -1)
		errx(1, "%s: %s", argv[optind], cause);
	schedule_stats(&s, t.duplicate, &st);
	gpt = tour_games_per_table(&t);
	printf("%s: %s, %d bots, %d seats: %d tables (%s), %ld games each "
	    "(%ld deals%s), %ld games\n", t.name, t.game, t.nbots, t.seats,
	    s.ntables, s.all ? "every subset" : "balanced", gpt, t.deals,
	    t.duplicate ? " x every seat rotation" : "",
	    (long)s.ntables * gpt);
	printf("pairs share %ld to %ld tables; bots sit at %ld to %ld; "
	    "seat counts within %ld\n", st.pair_min, st.pair_max, st.app_min,
	    st.app_max, st.seat_spread);
	if (verbose)
		for (i = 0; i < s.ntables; i++) {
			printf("t%05d", i);
			for (k = 0; k < t.seats; k++)
				printf(" %s", t.bots[s.tab[i * t.seats +
				    k]].name);
			printf("\n");
		}
	schedule_free(&s);
	tour_free(&t);
	return 0;
}

/* The commands: each named once, with the function that runs it. */
static const struct command {
	const char	*name;
	int		(*run)(int, char **);
} commands[] = {
	{ "run",	cmd_run },
	{ "rate",	cmd_rate },
	{ "schedule",	cmd_schedule },
	{ "plan",	cmd_plan },
	{ "job",	cmd_job },
	{ "merge",	cmd_merge },
	{ "status",	cmd_status },
	{ "gauntlet",	cmd_gauntlet },
	{ "ladder",	cmd_ladder },
};

int
main(int argc, char **argv)
{
	struct near nr;
	char hint[128];
	size_t i;

	if (argc < 2)
		cli_usage_error("tournament", "no command given");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		tournament_usage(stdout, 0);
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		cli_version("tournament");
	optind = 1;
	near_init(&nr, argv[1]);
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
		near_offer(&nr, commands[i].name);
	}
	near_say(&nr, hint, sizeof hint);
	if ((i = strlen(hint)) > 0)
		hint[i - 1] = '\0';	/* its trailing space */
	cli_usage_error("tournament", "unknown command %s%s%s", argv[1],
	    hint[0] != '\0' ? "; " : "", hint);
}
