/*
 * Tournaments beyond one machine: `tournament plan` writes a tournament's
 * work as self-contained jobs, one JSON line each (a table's bots with
 * their commands, the game, its options, seeds, limits and game indices,
 * the journal header, a fingerprint of it all), in the order a local run
 * plays them (chunk by chunk across the tables, as a run plays deal by
 * deal); `tournament job` runs one line through the runner's
 * own code (runner_run with a jobspec), writing DIR/job-NNNNNN.jsonl and the
 * match logs under DIR, resuming like a run (a job run twice or killed and
 * run again writes each game once, a torn line is cut off); `tournament
 * merge` gathers the job journals of many directories, checks every one
 * against its plan line (the fingerprint, the tournament, the games and
 * bots of the job), drops duplicates, writes OUT/journal.jsonl (the header
 * of a local run, then the games in plan order) and the reports, and lists
 * the jobs missing or failed with a command that reruns just those;
 * `tournament status` counts the same without writing.  Memory is bounded
 * by the tables and the jobs, not by the games.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/journal.h"
#include "base/paths.h"
#include "base/tfile.h"
#include "base/usage.h"
#include "cli.h"
#include "dist/dist.h"
#include "pool/jobline.h"
#include "pool/runner.h"

#define JOB_PREFIX	"job-"
#define OUT_BUF		(1 << 20)	/* bytes of the merged journal's buffer */

/* A job journal found in a directory. */
struct jobfile {
	long	 index;
	char	*path;
	char	*dir;		/* the directory its log paths start from */
	long	 table, lo, hi;	/* its games: lo .. hi-1 of table */
	json_t	*names;		/* the table's bots, by seat */
	int	 running;	/* a job holds its lock now */
};

/* What merge and status gather from the directories. */
struct gather {
	json_t		*header;	/* the tournament's journal header */
	const char	*hpath;		/* where it was first seen */
	long		 njobs, chunk, tables, gpt, jpt;
	int		 seats, duplicate;
	char		*file;		/* the tournament file, as planned */
	struct jobfile	*f;
	size_t		 nf, cap;
	struct doneset	 done;
	long		*have;		/* games done per job */
	char		*seen;		/* a journal of the job was found */
	long		 dups, refused, games;
	FILE		*out;		/* merge: the new journal, or NULL */
	char		*outbuf;	/* its buffer (OUT_BUF bytes) */
	char		*outdir;	/* merge: its absolute path */
	char		*rkey, *rreal;	/* a log directory and its realpath */
	struct jobfile	*lastf;		/* the last log path made: its job, */
	char		*lastlog, *lastrel;	/* its log and the new path */
	struct jobfile	*cur;		/* the job being read */
	long		 bad;		/* its lines refused */
};

/* The long options of a command that has no others. */
static const struct option help_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int	 parse_list(const char *, long, char **, char *, size_t);
static char	*list_text(long, int (*)(const struct gather *, long),
		    const struct gather *);
static void	 gather_dir(struct gather *, const char *);
static int	 cmp_jobfile(const void *, const void *);
static long	 job_of(const struct gather *, long, long);
static long	 job_games(const struct gather *, long);
static int	 take_game(void *, const struct jgame *, char *, size_t);
static int	 skip_header(void *, const json_t *, char *, size_t);
static void	 bad_line(void *, long, const char *);
static int	 gather(struct gather *, char **, int, const char *, int);
static char	*relpath(struct gather *, const char *);
static void	 write_game(struct gather *, const struct jgame *,
		    const char *);
static int	 is_failed(const struct gather *, long);
static int	 is_missing(const struct gather *, long);
static int	 summary(FILE *, struct gather *, const char *);
static void	 gather_free(struct gather *);

/*
 * Parses a list of job indices below n ("3,7-9") into a new mask of n
 * bytes; -1 and a cause.
 */
static int
parse_list(const char *s, long n, char **mask, char *cause, size_t len)
{
	const char *p = s;
	char *end;
	long a, b, i;

	*mask = xcalloc((size_t)n + 1, 1);
	while (*p != '\0') {
		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (end != p && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		if (end == p || errno != 0 || a < 0 || b < a ||
		    (*end != ',' && *end != '\0')) {
			snprintf(cause, len, "%s: job numbers and ranges, "
			    "e.g. 3,7-9", s);
			return -1;
		}
		if (b >= n) {
			snprintf(cause, len, "%s: job %ld does not exist (the "
			    "plan has jobs 0 to %ld)", s, b, n - 1);
			return -1;
		}
		for (i = a; i <= b; i++)
			(*mask)[i] = 1;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* The jobs below n for which pick() holds, as "3,7-9": a new string. */
static char *
list_text(long n, int (*pick)(const struct gather *, long),
    const struct gather *g)
{
	char *buf = NULL;
	size_t sz = 0;
	FILE *fp;
	long i, j;
	int first = 1;

	if ((fp = open_memstream(&buf, &sz)) == NULL)
		err(1, "open_memstream");
	for (i = 0; i < n; i = j) {
		if (!pick(g, i)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < n && pick(g, j); j++)
			;
		fprintf(fp, "%s%ld", first ? "" : ",", i);
		if (j - 1 > i)
			fprintf(fp, "%s%ld", j - 1 > i + 1 ? "-" : ",", j - 1);
		first = 0;
	}
	fclose(fp);
	return buf;
}

/* tournament plan FILE [--chunk N] [--only LIST] */
int
cmd_plan(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "chunk", required_argument, NULL, 'c' },
		{ "only", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const drop[] = { "bots", "output", "concurrency",
	    "schedule", "rounds", "tables", "max_tables", "comment", NULL };
	struct tour t;
	struct schedule s;
	json_t *file, *base, *tb, *bots, *job, *header;
	const char *only = NULL;
	char cause[512], *mask = NULL, seedtxt[32];
	long chunk = 0, gpt, per, jpt, njobs, table, c, lo, hi, idx;
	int ch, i;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			chunk = (long)cli_whole(NULL, "--chunk", optarg, 1,
			    INT_MAX);
			break;
		case 'o':
			only = optarg;
			break;
		case 'h':
			tournament_usage(stdout, 0);
		default:
			cli_bad_option("tournament plan", ch, argv);
		}
	}
	if (argc - optind != 1)
		errx(2, "usage: tournament plan FILE [--chunk N] [--only LIST]");
	if (tour_load(&t, argv[optind], cause, sizeof cause) == -1)
		errx(2, "%s: %s", argv[optind], cause);
	file = tour_read(argv[optind], cause, sizeof cause);
	if (file == NULL)
		errx(2, "%s: %s", argv[optind], cause);
	if (schedule_make(&s, t.nbots, t.seats, t.mode, t.count, t.max_tables,
	    t.seed, cause, sizeof cause) == -1)
		errx(1, "%s: %s", argv[optind], cause);
	gpt = tour_games_per_table(&t);
	per = t.duplicate ? t.seats : 1;
	if (chunk == 0 || chunk > gpt)
		chunk = gpt;
	if (chunk < per)
		errx(2, "--chunk %ld: at least %ld games (a deal is played "
		    "from every seat in one job)", chunk, per);
	chunk = chunk / per * per;
	jpt = (gpt + chunk - 1) / chunk;
	njobs = (long)s.ntables * jpt;
	if (only != NULL && parse_list(only, njobs, &mask, cause,
	    sizeof cause) == -1)
		errx(2, "--only %s", cause);
	header = tour_header(&t, &s);
	base = json_deep_copy(file);
	for (i = 0; drop[i] != NULL; i++)
		json_object_del(base, drop[i]);
	json_object_set_new(base, "name", json_string(t.name));
	/* the seed drawn for this plan when the file names none: every job
	 * plays from it (a plan holds every seed: keep it from the bots) */
	if (!t.seed_named) {
		snprintf(seedtxt, sizeof seedtxt, "%" PRIu64, t.seed);
		json_object_set_new(base, "seed", json_string(seedtxt));
	}
	/* chunk by chunk across the tables, as a run plays deal by deal */
	idx = 0;
	for (c = 0; c < jpt; c++) {
		for (table = 0; table < s.ntables; table++, idx++) {
			if (mask != NULL && !mask[idx])
				continue;
			tb = json_copy(base);
			bots = json_array();
			for (i = 0; i < t.seats; i++)
				json_array_append(bots, json_array_get(
				    json_object_get(file, "bots"),
				    (size_t)s.tab[table * t.seats + i]));
			json_object_set_new(tb, "bots", bots);
			lo = c * chunk;
			hi = lo + chunk < gpt ? lo + chunk : gpt;
			job = jobline_make(idx, njobs, chunk, argv[optind],
			    table, lo, hi, tb, header, jobline_build(
			    t.referee));
			if (json_dumpf(job, stdout, JSON_COMPACT) == -1 ||
			    putchar('\n') == EOF)
				err(1, "stdout");
			json_decref(job);
			json_decref(tb);
		}
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	fprintf(stderr, "tournament plan: %ld jobs (%d tables, %ld job%s of "
	    "at most %ld games each), %ld games; Slurm: sbatch --array=0-%ld\n",
	    njobs, s.ntables, jpt, jpt == 1 ? "" : "s", chunk,
	    (long)s.ntables * gpt, njobs - 1);
	free(mask);
	json_decref(header);
	json_decref(base);
	json_decref(file);
	schedule_free(&s);
	tour_free(&t);
	return 0;
}

/* tournament job [--out DIR] [-v] [< LINE | --from PLAN --index I] */
int
cmd_job(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'f' },
		{ "index", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct runner_opts o;
	struct jobspec js;
	struct tour t;
	json_t *j, *h, *plan;
	json_error_t je;
	json_int_t lo, hi;
	FILE *fp = stdin;
	const char *out = ".", *from = NULL;
	char cause[512], *line = NULL, *jpath, *logbase, what[64];
	size_t cap = 0;
	ssize_t n;
	long index = -1, k, gpt;
	int ch, verbose = 0, rc;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:o:vh", lopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			from = optarg;
			break;
		case 'i':
			index = (long)cli_whole(NULL, "--index", optarg, 0,
			    LONG_MAX);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			tournament_usage(stdout, 0);
		default:
			cli_bad_option("tournament job", ch, argv);
		}
	}
	if (argc != optind || (from == NULL) != (index == -1))
		errx(2, "usage: tournament job [--out DIR] [-v] < LINE | "
		    "--from PLAN --index I");
	if (from != NULL && (fp = fopen(from, "r")) == NULL)
		err(2, "%s", from);
	/* the plan's line I (0-based), or the one line on stdin */
	for (k = 0;; k++) {
		if ((n = getline(&line, &cap, fp)) == -1) {
			if (ferror(fp))
				err(2, "%s", from != NULL ? from : "stdin");
			if (from != NULL)
				errx(2, "%s: no line %ld (the plan has %ld "
				    "jobs)", from, index, k);
			errx(2, "stdin: no job line (pipe one line of "
			    "`tournament plan` in)");
		}
		if (from == NULL || k == index)
			break;
	}
	if (from != NULL)
		fclose(fp);
	snprintf(what, sizeof what, from != NULL ? "%s:%ld" : "%s",
	    from != NULL ? from : "the job line", index + 1);
	if ((j = json_loadb(line, (size_t)n, 0, &je)) == NULL)
		errx(2, "%s: not JSON (%s)", what, je.text);
	free(line);
	if (jobline_check(j, cause, sizeof cause) == -1)
		errx(2, "%s: %s", what, cause);
	memset(&js, 0, sizeof js);
	js.index = (long)json_integer_value(json_object_get(j, "job"));
	if (from != NULL && js.index != index)
		errx(2, "%s: the line is job %ld, not %ld", what, js.index,
		    index);
	js.table = (long)json_integer_value(json_object_get(j, "table"));
	json_unpack(json_object_get(j, "games"), "[II]", &lo, &hi);
	js.lo = (long)lo;
	js.hi = (long)hi;
	snprintf(what, sizeof what, "job %ld", js.index);
	if (tour_parse(&t, json_object_get(j, "tournament"), what, cause,
	    sizeof cause) == -1)
		errx(2, "%s: %s", what, cause);
	/* a worker of another build would play other games */
	if (jobline_check_build(j, t.referee, cause, sizeof cause) == -1)
		errx(2, "%s: %s", what, cause);
	t.plan = from;
	gpt = tour_games_per_table(&t);
	h = json_object_get(j, "header");
	if (t.nbots != t.seats || gpt != json_integer_value(
	    json_object_get(h, "games_per_table")))
		errx(2, "%s: its tournament is not one table of its header",
		    what);
	/* the journal header: the tournament's, and the plan line */
	h = json_deep_copy(h);
	plan = json_deep_copy(j);
	json_object_del(plan, "header");
	json_object_set_new(h, "plan", plan);
	free(t.outdir);
	t.outdir = xstrdup(out);
	if (asprintf(&jpath, "%s/%s%06ld.jsonl", out, JOB_PREFIX,
	    js.index) == -1)
		err(1, "asprintf");
	if (js.lo == 0 && js.hi == gpt)
		rc = asprintf(&logbase, "logs/t%05ld", js.table);
	else
		rc = asprintf(&logbase, "logs/t%05ld.g%ld", js.table, js.lo);
	if (rc == -1)
		err(1, "asprintf");
	js.header = h;
	js.journal = jpath;
	js.logbase = logbase;
	memset(&o, 0, sizeof o);
	o.jobs = 1;
	o.quiet = !verbose;
	o.progress = 0;
	o.argv0 = "tournament";
	o.job = &js;
	rc = runner_run(&t, &o);
	free(jpath);
	free(logbase);
	json_decref(h);
	json_decref(j);
	tour_free(&t);
	return rc;
}

/* Orders job journals by job number. */
static int
cmp_jobfile(const void *a, const void *b)
{
	const struct jobfile *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Finds the job journals of a directory and checks their headers: the
 * plan line matches its fingerprint and every job is of one tournament.
 */
static void
gather_dir(struct gather *g, const char *dir)
{
	DIR *d;
	struct dirent *de;
	struct jobfile *f;
	json_t *h, *plan, *line, *tour, *b;
	json_int_t lo, hi;
	json_error_t je;
	char *path, cause[256];
	const char *key;
	json_t *v;
	FILE *fp;
	size_t len, i;
	int lk, found = 0;

	if ((d = opendir(dir)) == NULL)
		err(1, "%s", dir);
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (strncmp(de->d_name, JOB_PREFIX, strlen(JOB_PREFIX)) != 0 ||
		    len < 6 || strcmp(de->d_name + len - 6, ".jsonl") != 0)
			continue;
		found = 1;
		if (asprintf(&path, "%s/%s", dir, de->d_name) == -1)
			err(1, "asprintf");
		if ((fp = fopen(path, "r")) == NULL)
			err(1, "%s", path);
		h = json_loadf(fp, JSON_DISABLE_EOF_CHECK, &je);
		/* a job that holds its lock is running */
		lk = flock(fileno(fp), LOCK_SH | LOCK_NB) == -1 &&
		    errno == EWOULDBLOCK;
		fclose(fp);
		if (h == NULL) {
			/* created, killed before its header: nothing yet */
			free(path);
			continue;
		}
		plan = json_object_get(h, "plan");
		line = plan != NULL ? jobline_of_header(plan, h) : NULL;
		if (line == NULL || jobline_check(line, cause,
		    sizeof cause) == -1) {
			warnx("%s: not a job journal of `tournament job` (%s); "
			    "skipped", path, line == NULL ? "no plan in its "
			    "header" : cause);
			json_decref(line);
			json_decref(h);
			free(path);
			g->refused++;
			continue;
		}
		json_decref(line);
		tour = json_copy(h);
		json_object_del(tour, "plan");
		if (g->header == NULL) {
			g->header = json_incref(tour);
			g->hpath = xstrdup(path);
			g->njobs = (long)json_integer_value(json_object_get(plan,
			    "jobs"));
			g->chunk = (long)json_integer_value(
			    json_object_get(plan, "chunk"));
			g->file = xstrdup(json_string_value(
			    json_object_get(plan, "file")));
		} else {
			json_object_foreach(g->header, key, v)
				if (!json_equal(v, json_object_get(tour, key)))
					break;
			if (key != NULL || json_object_size(tour) !=
			    json_object_size(g->header))
				errx(1, "%s: a job of another tournament than "
				    "%s (its \"%s\" differs)", path, g->hpath,
				    key != NULL ? key : "header");
			if (json_integer_value(json_object_get(plan,
			    "chunk")) != g->chunk)
				errx(1, "%s: planned with --chunk %lld, %s "
				    "with --chunk %ld: merge jobs of one plan",
				    path, json_integer_value(json_object_get(
				    plan, "chunk")), g->hpath, g->chunk);
		}
		json_decref(tour);
		if (g->nf == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 64;
			g->f = xreallocarray(g->f, g->cap, sizeof *g->f);
		}
		f = &g->f[g->nf++];
		f->index = (long)json_integer_value(json_object_get(plan,
		    "job"));
		f->path = path;
		f->dir = xstrdup(dir);
		f->table = (long)json_integer_value(json_object_get(plan,
		    "table"));
		json_unpack(json_object_get(plan, "games"), "[II]", &lo, &hi);
		f->lo = (long)lo;
		f->hi = (long)hi;
		f->names = json_array();
		json_array_foreach(json_object_get(json_object_get(plan,
		    "tournament"), "bots"), i, b)
			json_array_append(f->names, json_object_get(b, "name"));
		f->running = lk;
		json_decref(h);
	}
	closedir(d);
	if (!found)
		warnx("%s: no job journals (%s*.jsonl) here", dir, JOB_PREFIX);
}

/* The job that plays game game of table table (chunk-major, as planned). */
static long
job_of(const struct gather *g, long table, long game)
{
	return game / g->chunk * g->tables + table;
}

/* The number of games of job idx. */
static long
job_games(const struct gather *g, long idx)
{
	long lo = idx / g->tables * g->chunk;

	return lo + g->chunk < g->gpt ? g->chunk : g->gpt - lo;
}

/* Journal headers are checked by gather_dir: nothing to do here. */
static int
skip_header(void *arg, const json_t *h, char *cause, size_t len)
{
	return 0;
}

/* A damaged line of a job journal: counted as refused. */
static void
bad_line(void *arg, long lineno, const char *cause)
{
	struct gather *g = arg;

	warnx("%s:%ld: damaged line skipped (%s)", g->cur != NULL ?
	    g->cur->path : "journal", lineno, cause);
	g->refused++;
}

/*
 * Writes a game to the new journal with log as its log path: a line in
 * the canonical form is copied through (its log replaced), any other is
 * encoded again from what was read.
 */
static void
write_game(struct gather *g, const struct jgame *jg, const char *log)
{
	struct jgame c;
	json_t *line, *j = NULL;
	json_error_t je;
	size_t n;
	char *text;

	if (jg->text != NULL && (log == NULL || json_plain(log))) {
		/* a canonical line ends with its log, if any: "log":"..."} */
		n = jg->textlen - (jg->log != NULL ? strlen(jg->log) + 3 : 1);
		if (fwrite(jg->text, 1, n, g->out) != n ||
		    (log != NULL && (fputc('"', g->out) == EOF ||
		    fputs(log, g->out) == EOF || fputc('"', g->out) == EOF)) ||
		    fputs("}\n", g->out) == EOF)
			err(1, "writing the merged journal");
		return;
	}
	/* its seed is carried as it was written */
	if (jg->line == NULL && (j = json_loadb(jg->text, jg->textlen, 0,
	    &je)) == NULL)
		errx(1, "a journal line read back: %s", je.text);
	c = *jg;
	c.log = log;
	line = jgame_json(&c, json_object_get(j != NULL ? j : jg->line,
	    "seed"));
	if ((text = json_dumps(line, JSON_COMPACT)) == NULL ||
	    fputs(text, g->out) == EOF || fputc('\n', g->out) == EOF)
		err(1, "writing the merged journal");
	free(text);
	json_decref(line);
	json_decref(j);
}

/*
 * Takes one game line: checks it against its job's plan (its table and
 * games, the bots at each seat), drops a game already taken, writes the
 * rest to the new journal with the log's path made from the output.
 */
static int
take_game(void *arg, const struct jgame *jg, char *cause, size_t len)
{
	struct gather *g = arg;
	struct jobfile *f = g->cur;
	const char *name, *rel = NULL;
	char *abs;
	int s, b;

	if (f != NULL) {
		if (jg->table != f->table || jg->game < f->lo ||
		    jg->game >= f->hi || jg->k != g->seats ||
		    (int)json_array_size(f->names) != jg->k) {
			snprintf(cause, len, "table %ld game %ld is not one "
			    "of job %ld's games", jg->table, jg->game,
			    g->cur->index);
			goto refuse;
		}
		for (s = 0; s < jg->k; s++) {
			b = g->duplicate ? (int)((s - jg->game % jg->k +
			    jg->k) % jg->k) : s;
			name = json_string_value(json_array_get(f->names,
			    (size_t)b));
			if (name == NULL || strcmp(jg->bots[s], name) != 0) {
				snprintf(cause, len, "game %ld: %s at seat %d, "
				    "the plan seats another bot there",
				    jg->game, jg->bots[s], s);
				goto refuse;
			}
		}
	}
	switch (doneset_add(&g->done, jg->table, jg->game)) {
	case -1:
		snprintf(cause, len, "table %ld game %ld is not in the "
		    "tournament", jg->table, jg->game);
		goto refuse;
	case 1:
		g->dups++;
		return 0;
	}
	g->have[job_of(g, jg->table, jg->game)]++;
	g->games++;
	if (g->out == NULL)
		return 0;
	if (g->cur != NULL && jg->log != NULL) {
		/* a job's games share a log per referee run */
		if (g->lastf != g->cur || strcmp(g->lastlog, jg->log) != 0) {
			if (asprintf(&abs, "%s/%s", g->cur->dir, jg->log) == -1)
				err(1, "asprintf");
			free(g->lastlog);
			free(g->lastrel);
			g->lastlog = xstrdup(jg->log);
			g->lastrel = relpath(g, abs);
			g->lastf = g->cur;
			free(abs);
		}
		rel = g->lastrel;
	}
	write_game(g, jg, rel != NULL ? rel : jg->log);
	return 0;
refuse:
	warnx("%s: %s; refused", g->cur != NULL ? g->cur->path : "journal",
	    cause);
	g->refused++;
	return 0;
}

/*
 * A path to target from the output directory (both made absolute):
 * relative when they share a root, as a log's link from the merged
 * journal.  The target's directory last resolved is kept (a job's logs
 * share one).
 */
static char *
relpath(struct gather *g, const char *target)
{
	const char *a = g->outdir, *slash;
	char *t, *r, *p, *q;
	size_t n, up = 0;

	slash = strrchr(target, '/');
	n = (size_t)(slash - target);
	if (g->rkey == NULL || strlen(g->rkey) != n ||
	    memcmp(g->rkey, target, n) != 0) {
		free(g->rkey);
		free(g->rreal);
		g->rkey = xcalloc(n + 1, 1);
		memcpy(g->rkey, target, n);
		/* the directory may be gone: resolve what is there */
		g->rreal = realpath(n > 0 ? g->rkey : "/", NULL);
	}
	if (a == NULL || g->rreal == NULL)
		return xstrdup(target);
	if (asprintf(&r, "%s/%s", g->rreal, slash + 1) == -1)
		err(1, "asprintf");
	/* the longest common prefix of whole components */
	for (n = 0, p = (char *)a, q = r; *p != '\0' && *p == *q; p++, q++)
		if (*p == '/')
			n = (size_t)(p - a);
	if (*p == '\0' && *q == '/')
		n = (size_t)(p - a);
	for (p = (char *)a + n; *p != '\0'; p++)
		up += *p == '/';
	n++;
	t = xcalloc(up * 3 + strlen(r + n) + 1, 1);
	while (up-- > 0)
		strcat(t, "../");
	strcat(t, r + n);
	free(r);
	return t;
}

/*
 * Gathers the job journals of dirs (and outdir's journal, if any): every
 * game once.  With write, the games go to outdir/journal.jsonl (written
 * aside and renamed in at the end).  -1 if there is nothing to gather.
 */
static int
gather(struct gather *g, char **dirs, int ndirs, const char *outdir,
    int write)
{
	struct jreader jr;
	struct stat sb;
	json_t *oh = NULL;
	json_error_t je;
	const char *key;
	json_t *v;
	char *jpath, *tmp, cause[512];
	FILE *fp;
	size_t i;
	int fd;

	for (i = 0; i < (size_t)ndirs; i++)
		gather_dir(g, dirs[i]);
	if (asprintf(&jpath, "%s/%s", outdir, JOURNAL_NAME) == -1 ||
	    asprintf(&tmp, "%s.merge", jpath) == -1)
		err(1, "asprintf");
	if (stat(jpath, &sb) == 0 && (fp = fopen(jpath, "r")) != NULL) {
		oh = json_loadf(fp, JSON_DISABLE_EOF_CHECK, &je);
		fclose(fp);
	}
	if (g->header == NULL && oh != NULL)
		errx(1, "no job journals in %s%s: nothing to merge into %s",
		    dirs[0], ndirs > 1 ? " ..." : "", jpath);
	if (g->header == NULL)
		errx(1, "no job journals in %s%s (run `tournament job --out "
		    "DIR` first)", dirs[0], ndirs > 1 ? " ..." : "");
	if (oh != NULL) {
		json_object_foreach(g->header, key, v)
			if (!json_equal(v, json_object_get(oh, key)))
				errx(1, "%s: written for another tournament "
				    "(its \"%s\" differs): merge into another "
				    "directory", jpath, key);
	}
	g->tables = (long)json_integer_value(json_object_get(g->header,
	    "tables"));
	g->gpt = (long)json_integer_value(json_object_get(g->header,
	    "games_per_table"));
	g->seats = (int)json_integer_value(json_object_get(g->header,
	    "seats"));
	g->duplicate = json_is_true(json_object_get(g->header, "duplicate"));
	g->jpt = (g->gpt + g->chunk - 1) / g->chunk;
	if (g->tables * g->jpt != g->njobs)
		errx(1, "%s: %ld jobs do not cover %ld tables of %ld games in "
		    "chunks of %ld", g->hpath, g->njobs, g->tables, g->gpt,
		    g->chunk);
	qsort(g->f, g->nf, sizeof *g->f, cmp_jobfile);
	doneset_init(&g->done, g->tables, g->gpt);
	g->have = xcalloc((size_t)g->njobs, sizeof *g->have);
	g->seen = xcalloc((size_t)g->njobs, 1);
	if (write) {
		if (mkdirs(outdir) == -1)
			err(1, "%s", outdir);
		g->outdir = realpath(outdir, NULL);
		if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644)) == -1 || (g->out = fdopen(fd, "w")) == NULL)
			err(1, "%s", tmp);
		/* written in big blocks (memory stays bounded: one buffer,
		 * given: glibc sizes no buffer of its own but 4 KB) */
		g->outbuf = xmalloc(OUT_BUF);
		if (setvbuf(g->out, g->outbuf, _IOFBF, OUT_BUF) != 0)
			err(1, "%s", tmp);
		if (json_dumpf(g->header, g->out, JSON_COMPACT) == -1 ||
		    fputc('\n', g->out) == EOF)
			err(1, "%s", tmp);
	}
	memset(&jr, 0, sizeof jr);
	jr.header = skip_header;
	jr.game = take_game;
	jr.warn = bad_line;
	jr.arg = g;
	/* what an earlier merge (or a local run) put there is kept */
	if (oh != NULL && journal_read(jpath, &jr, cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	json_decref(oh);
	for (i = 0; i < g->nf; i++) {
		g->cur = &g->f[i];
		if (g->cur->index >= g->njobs)
			errx(1, "%s: job %ld of %ld", g->cur->path,
			    g->cur->index, g->njobs);
		g->seen[g->cur->index] = 1;
		if (journal_read(g->cur->path, &jr, cause, sizeof cause) == -1)
			errx(1, "%s", cause);
		if (jr.torn && !g->cur->running)
			warnx("%s: a torn last line was left out (the job was "
			    "killed while writing it)", g->cur->path);
	}
	g->cur = NULL;
	if (write) {
		if (fflush(g->out) == EOF || fsync(fileno(g->out)) == -1 ||
		    fclose(g->out) == EOF)
			err(1, "%s", tmp);
		g->out = NULL;
		free(g->outbuf);
		g->outbuf = NULL;
		if (rename(tmp, jpath) == -1)
			err(1, "%s", jpath);
	}
	free(jpath);
	free(tmp);
	return 0;
}

/* 1 if job idx has a journal but not all its games. */
static int
is_failed(const struct gather *g, long idx)
{
	return g->seen[idx] && g->have[idx] < job_games(g, idx);
}

/* 1 if job idx has no journal and its games are not all there. */
static int
is_missing(const struct gather *g, long idx)
{
	return !g->seen[idx] && g->have[idx] < job_games(g, idx);
}

/*
 * Says how many jobs and games are done, running, failed and missing,
 * and how to rerun the others; 0 if every game is there, else 1.
 */
static int
summary(FILE *fp, struct gather *g, const char *dir)
{
	long i, done = 0, failed = 0, missing = 0, running = 0;
	size_t f;
	char *fl, *ml, *all;

	for (f = 0; f < g->nf; f++)
		if (g->f[f].running && g->have[g->f[f].index] <
		    job_games(g, g->f[f].index))
			running++;
	for (i = 0; i < g->njobs; i++) {
		if (g->have[i] == job_games(g, i))
			done++;
		else if (g->seen[i])
			failed++;
		else
			missing++;
	}
	failed -= running;
	fprintf(fp, "%s: %ld jobs: %ld done, %ld running, %ld failed, %ld "
	    "missing; %ld of %ld games", json_string_value(json_object_get(
	    g->header, "name")), g->njobs, done, running, failed, missing,
	    g->games, g->tables * g->gpt);
	if (g->dups > 0 || g->refused > 0)
		fprintf(fp, " (%ld duplicate%s dropped, %ld line%s "
		    "refused)", g->dups, g->dups == 1 ? "" : "s", g->refused,
		    g->refused == 1 ? "" : "s");
	fprintf(fp, "\n");
	if (done == g->njobs)
		return 0;
	fl = list_text(g->njobs, is_failed, g);
	ml = list_text(g->njobs, is_missing, g);
	if (*fl != '\0')
		fprintf(fp, "failed or running (a journal, not every "
		    "game): jobs %s\n", fl);
	if (*ml != '\0')
		fprintf(fp, "missing (no journal): jobs %s\n", ml);
	if (asprintf(&all, "%s%s%s", fl, *fl != '\0' && *ml != '\0' ? "," :
	    "", ml) == -1)
		err(1, "asprintf");
	fprintf(fp, "rerun them: tournament plan %s --chunk %ld --only %s "
	    "| parallel --pipe -N1 tournament job --out %s\n"
	    "  (or one by one: tournament job --from PLAN --index I --out %s; "
	    "Slurm: sbatch --array=%s)\n", g->file, g->chunk, all, dir, dir,
	    all);
	free(fl);
	free(ml);
	free(all);
	return 1;
}

/* Frees what gather collected. */
static void
gather_free(struct gather *g)
{
	size_t i;

	for (i = 0; i < g->nf; i++) {
		free(g->f[i].path);
		free(g->f[i].dir);
		json_decref(g->f[i].names);
	}
	free(g->f);
	if (g->have != NULL)
		doneset_free(&g->done);
	free(g->have);
	free(g->seen);
	free(g->file);
	free((char *)g->hpath);
	free(g->outdir);
	free(g->rkey);
	free(g->rreal);
	free(g->lastlog);
	free(g->lastrel);
	json_decref(g->header);
}

/* tournament merge [-q] OUT DIR... */
int
cmd_merge(int argc, char **argv)
{
	struct gather g;
	char *jpath, title[512];
	int ch, quiet = 0, rc, lockfd;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:qh", help_opts, NULL)) != -1) {
		switch (ch) {
		case 'q':
			quiet = 1;
			break;
		case 'h':
			tournament_usage(stdout, 0);
		default:
			cli_bad_option("tournament merge", ch, argv);
		}
	}
	if (argc - optind < 2)
		errx(2, "usage: tournament merge [-q] OUT DIR...");
	if (mkdirs(argv[optind]) == -1)
		err(1, "%s", argv[optind]);
	/* a run or another merge on OUT would write over the journal */
	if ((lockfd = open(argv[optind], O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		err(1, "%s", argv[optind]);
	if (flock(lockfd, LOCK_EX | LOCK_NB) == -1)
		errx(1, "%s: a tournament run or merge is using this output "
		    "directory", argv[optind]);
	memset(&g, 0, sizeof g);
	gather(&g, argv + optind + 1, argc - optind - 1, argv[optind], 1);
	rc = summary(stderr, &g, argv[optind + 1]);
	if (asprintf(&jpath, "%s/%s", argv[optind], JOURNAL_NAME) == -1)
		err(1, "asprintf");
	snprintf(title, sizeof title, "%s (%s, %d seats%s)",
	    json_string_value(json_object_get(g.header, "name")),
	    json_string_value(json_object_get(g.header, "game")), g.seats,
	    g.duplicate ? ", duplicate" : "");
	if (g.games > 0 && runner_reports(argv[optind], jpath, title,
	    quiet, NULL) == -1)
		rc = 1;
	free(jpath);
	gather_free(&g);
	close(lockfd);
	return rc;
}

/* tournament status OUT DIR... */
int
cmd_status(int argc, char **argv)
{
	struct gather g;
	int ch, rc;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:h", help_opts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			tournament_usage(stdout, 0);
		default:
			cli_bad_option("tournament status", ch, argv);
		}
	}
	if (argc - optind < 2)
		errx(2, "usage: tournament status OUT DIR...");
	memset(&g, 0, sizeof g);
	gather(&g, argv + optind + 1, argc - optind - 1, argv[optind], 0);
	rc = summary(stdout, &g, argv[optind + 1]);
	gather_free(&g);
	return rc;
}
