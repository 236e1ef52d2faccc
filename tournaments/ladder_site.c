/*
 * The ladder's static site, written after every refit: index.html (the
 * standing table: Elo, interval, games, faults, last played; and the
 * ratings over time as an inline SVG chart), table.txt (report.c's table,
 * the bytes `ladder status` prints), results.html (report.c's full page,
 * while the head-to-head matrix stays small) and bots/NAME.html per bot
 * (its versions, its results against each opponent, its recent games with
 * their logs and replays).  No scripts, no external assets.  The site is
 * written into a new directory DIR/site.XXXXXX and then published at once
 * by renaming a symlink over DIR/site, so a reader never sees a page half
 * written nor a site half old; the generation before is kept for readers
 * still in it, older ones are removed.  Logs are linked as ../logs/...,
 * which resolves both from files and on `ladder serve`.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ladder.h"

#define CHART_LINES	10	/* versions drawn on the index chart */
#define CHART_POINTS	200	/* fits drawn at most */
#define RECENT_GAMES	20	/* per bot page */
#define FULL_REPORT_MAX	60	/* players for results.html */

/* What the site shows of one version. */
struct sv {
	const struct lversion	*v;
	int			 player;	/* in the rating, or -1 */
	int64_t			 last;		/* its last game */
};

struct site {
	struct lstore		*s;
	const struct lrating	*lr;
	struct lversion		*v;
	int			 nv;
	struct sv		*sv;
	char			*name;
	const char		*dir;		/* the new generation */
};

static const char style[] =
"<style>\n"
"body{font-family:sans-serif;margin:2em;color:#123;max-width:70em}\n"
"table{border-collapse:collapse;margin:1em 0}\n"
"td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}\n"
"td.l,th.l{text-align:left}\n.retired{color:#888}\n"
"a{color:#25a}\nsvg text{font:11px sans-serif}\n"
"</style>\n";

static void	 head(FILE *, const char *, const char *);
static void	 when(FILE *, int64_t);
static void	 chart(FILE *, struct site *, const long *, int);
static int	 index_page(struct site *, char *, size_t);
static int	 bot_page(struct site *, int, char *, size_t);
static int	 write_file(struct site *, const char *,
		    int (*)(struct site *, FILE *, const void *),
		    const void *, char *, size_t);
static int	 w_index(struct site *, FILE *, const void *);
static int	 w_bot(struct site *, FILE *, const void *);
static int	 w_report(struct site *, FILE *, const void *);
static void	 publish(const char *, const char *);
static int	 rm_tree(const char *);
static int	 by_rank(const void *, const void *);
static const struct lrating *sort_lr;
static const struct sv *sort_sv;

/* The page's head and title. */
static void
head(FILE *fp, const char *title, const char *sub)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
	    "\"utf-8\">\n<title>", fp);
	html_esc(fp, title);
	if (sub != NULL) {
		fputs(": ", fp);
		html_esc(fp, sub);
	}
	fputs("</title>\n<link rel=\"icon\" href=\"data:,\">\n", fp);
	fputs(style, fp);
	fputs("</head>\n<body>\n", fp);
}

/* A time as UTC, or "-". */
static void
when(FILE *fp, int64_t t)
{
	char buf[64];
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || gmtime_r(&tt, &tm) == NULL) {
		fputs("-", fp);
		return;
	}
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
	fputs(buf, fp);
}

/* Orders versions by rank (rated first), then by id. */
static int
by_rank(const void *a, const void *b)
{
	const struct sv *x = &sort_sv[*(const int *)a];
	const struct sv *y = &sort_sv[*(const int *)b];
	int rx = x->player >= 0 ? sort_lr->r.p[x->player].rank : INT_MAX;
	int ry = y->player >= 0 ? sort_lr->r.p[y->player].rank : INT_MAX;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return x->v->id < y->v->id ? -1 : x->v->id > y->v->id;
}

/*
 * The ratings over time of versions ids (n), one line each, from the
 * store's fits (at most CHART_POINTS of them, evenly spread).
 */
static void
chart(FILE *fp, struct site *st, const long *ids, int n)
{
	static const char *const colour[] = { "#36c", "#c33", "#393",
	    "#f90", "#909", "#099", "#663", "#c6c", "#333", "#6c0" };
	sqlite3_stmt *q;
	char cause[256];
	double *x, *y, lo = INFINITY, hi = -INFINITY, gmax = 1, px, py;
	long fits, step, *cnt;
	int i, w = 720, h = 260, left = 50, right = 150, top = 15, bot = 25;
	int cap = 0, *np;

	if (n == 0)
		return;
	fits = lstore_scalar(st->s, "SELECT count(*) FROM fits");
	step = fits / CHART_POINTS + 1;
	if ((q = lstore_prep(st->s, "SELECT f.games, r.elo FROM ratings r "
	    "JOIN fits f ON f.id = r.fit WHERE r.version = ? AND (f.id % ? = "
	    "0 OR f.id = (SELECT max(id) FROM fits)) ORDER BY f.id", cause,
	    sizeof cause)) == NULL)
		return;
	cap = CHART_POINTS + 2;
	x = xcalloc((size_t)n * (size_t)cap, sizeof *x);
	y = xcalloc((size_t)n * (size_t)cap, sizeof *y);
	np = xcalloc((size_t)n, sizeof *np);
	cnt = NULL;
	for (i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, ids[i]);
		sqlite3_bind_int64(q, 2, step);
		while (sqlite3_step(q) == SQLITE_ROW && np[i] < cap) {
			x[i * cap + np[i]] = sqlite3_column_double(q, 0);
			y[i * cap + np[i]] = sqlite3_column_double(q, 1);
			if (y[i * cap + np[i]] < lo)
				lo = y[i * cap + np[i]];
			if (y[i * cap + np[i]] > hi)
				hi = y[i * cap + np[i]];
			if (x[i * cap + np[i]] > gmax)
				gmax = x[i * cap + np[i]];
			np[i]++;
		}
	}
	sqlite3_finalize(q);
	free(cnt);
	if (!isfinite(lo)) {
		free(x);
		free(y);
		free(np);
		return;
	}
	if (hi - lo < 100) {
		lo -= (100 - (hi - lo)) / 2;
		hi = lo + 100;
	}
	fprintf(fp, "<h2>Ratings over time</h2>\n<svg xmlns=\"http://www.w3."
	    "org/2000/svg\" id=\"history\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"ratings over "
	    "time\">\n", w, h, w, h);
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#999\"/>\n<text x=\"%d\" y=\"%d\">%.0f</text>"
	    "<text x=\"%d\" y=\"%d\">%.0f</text><text x=\"%d\" y=\"%d\" "
	    "text-anchor=\"end\">%.0f games</text>\n", left, h - bot,
	    w - right, h - bot, 2, top + 4, hi, 2, h - bot, lo, w - right,
	    h - 5, gmax);
	for (i = 0; i < n; i++) {
		int k;

		if (np[i] == 0)
			continue;
		fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\" points=\"", colour[i % 10]);
		for (k = 0; k < np[i]; k++) {
			px = left + x[i * cap + k] / gmax * (w - left - right);
			py = top + (hi - y[i * cap + k]) / (hi - lo) *
			    (h - top - bot);
			fprintf(fp, "%s%.1f,%.1f", k ? " " : "", px, py);
		}
		fprintf(fp, "\"/><text x=\"%d\" y=\"%.1f\" fill=\"%s\">",
		    w - right + 6, top + (hi - y[i * cap + np[i] - 1]) /
		    (hi - lo) * (h - top - bot) + 4, colour[i % 10]);
		for (k = 0; k < st->nv; k++)
			if (st->v[k].id == ids[i])
				html_esc(fp, st->v[k].player);
		fputs("</text>\n", fp);
	}
	fputs("</svg>\n", fp);
	free(x);
	free(y);
	free(np);
}

/* index.html: the standing table and the chart. */
static int
w_index(struct site *st, FILE *fp, const void *arg)
{
	const struct rating *r = &st->lr->r;
	const struct rplayer *p;
	const struct sv *e;
	long ids[CHART_LINES];
	int *ord, i, nids = 0, active = 0;

	(void)arg;
	ord = xcalloc((size_t)st->nv + 1, sizeof *ord);
	for (i = 0; i < st->nv; i++) {
		ord[i] = i;
		active += st->v[i].active;
	}
	sort_lr = st->lr;
	sort_sv = st->sv;
	qsort(ord, (size_t)st->nv, sizeof *ord, by_rank);
	head(fp, st->name, "standings");
	fputs("<h1>", fp);
	html_esc(fp, st->name);
	fprintf(fp, "</h1>\n<p>%ld games; %d bots in play, %d versions in "
	    "all. Elo scale, pool mean 1500; ± is the 95%% interval from %d "
	    "bootstrap resamples of whole duplicate deals. Updated ", r->games,
	    active, st->nv, r->opts.boot);
	when(fp, (int64_t)time(NULL));
	fputs(" UTC. <a href=\"table.txt\">The table as text</a>", fp);
	if (r->n > 0 && r->n <= FULL_REPORT_MAX)
		fputs(", <a href=\"results.html\">head to head</a>", fp);
	fputs(".</p>\n<table id=\"standings\">\n<tr><th>Rank</th>"
	    "<th class=\"l\">Bot</th><th>Elo</th><th>±</th><th>Games</th>"
	    "<th>Faults</th><th class=\"l\">Last played</th>"
	    "<th class=\"l\">Status</th></tr>\n", fp);
	for (i = 0; i < st->nv; i++) {
		e = &st->sv[ord[i]];
		p = e->player >= 0 ? &r->p[e->player] : NULL;
		fprintf(fp, "<tr%s><td>", e->v->active ? "" :
		    " class=\"retired\"");
		if (p != NULL)
			fprintf(fp, "%d", p->rank);
		fputs("</td><td class=\"l\"><a href=\"bots/", fp);
		html_esc(fp, e->v->bot_name);
		fputs(".html\">", fp);
		html_esc(fp, e->v->player);
		fputs("</a></td>", fp);
		if (p != NULL) {
			fprintf(fp, "<td>%.0f</td><td>", p->elo);
			if (isnan(p->pm))
				fputs("-", fp);
			else
				fprintf(fp, "%.0f", p->pm);
			fprintf(fp, "</td><td>%ld</td><td>%ld</td>", p->games,
			    p->faults[TF_TIMEOUT] + p->faults[TF_CRASH] +
			    p->faults[TF_ILLEGAL] + p->faults[TF_LIMIT]);
		} else
			fputs("<td>-</td><td>-</td><td>0</td><td>0</td>", fp);
		fputs("<td class=\"l\">", fp);
		when(fp, e->last);
		fprintf(fp, "</td><td class=\"l\">%s</td></tr>\n",
		    !e->v->active ? "retired" : e->v->quarantine != NULL ?
		    "quarantined" : "in play");
		if (e->v->active && p != NULL && nids < CHART_LINES)
			ids[nids++] = e->v->id;
	}
	fputs("</table>\n", fp);
	chart(fp, st, ids, nids);
	fputs("</body>\n</html>\n", fp);
	free(ord);
	return 0;
}

/* bots/NAME.html: the versions of bot st->v[*arg]'s bot. */
static int
w_bot(struct site *st, FILE *fp, const void *arg)
{
	const struct rating *r = &st->lr->r;
	const struct lversion *b = &st->v[*(const int *)arg];
	const struct rplayer *p;
	sqlite3_stmt *q;
	struct jgame g;
	json_t *j;
	struct stat sb;
	char cause[256], path[PATH_MAX];
	const char *log;
	long ids[CHART_LINES];
	int i, o, a, s, nids = 0;

	head(fp, st->name, b->bot_name);
	fputs("<p><a href=\"../index.html\">standings</a></p>\n<h1>", fp);
	html_esc(fp, b->bot_name);
	fputs("</h1>\n<h2>Versions</h2>\n<table class=\"versions\">\n"
	    "<tr><th class=\"l\">Version</th><th class=\"l\">Command</th>"
	    "<th class=\"l\">Entered</th><th class=\"l\">Retired</th>"
	    "<th>Elo</th><th>±</th><th>Games</th></tr>\n", fp);
	for (i = 0; i < st->nv; i++) {
		if (st->v[i].bot != b->bot)
			continue;
		fputs("<tr><td class=\"l\">", fp);
		html_esc(fp, st->v[i].player);
		fputs("</td><td class=\"l\"><code>", fp);
		html_esc(fp, st->v[i].command);
		fputs("</code></td><td class=\"l\">", fp);
		when(fp, st->v[i].entered);
		fputs("</td><td class=\"l\">", fp);
		when(fp, st->v[i].retired);
		fputs("</td>", fp);
		if ((a = st->sv[i].player) >= 0) {
			fprintf(fp, "<td>%.0f</td><td>", r->p[a].elo);
			if (isnan(r->p[a].pm))
				fputs("-", fp);
			else
				fprintf(fp, "%.0f", r->p[a].pm);
			fprintf(fp, "</td><td>%ld</td></tr>\n", r->p[a].games);
			if (nids < CHART_LINES)
				ids[nids++] = st->v[i].id;
		} else
			fputs("<td>-</td><td>-</td><td>0</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	for (i = 0; i < st->nv; i++)
		if (st->v[i].bot == b->bot && st->v[i].active &&
		    st->v[i].quarantine != NULL) {
			fputs("<p class=\"quarantine\">", fp);
			html_esc(fp, st->v[i].player);
			fputs(" is quarantined: ", fp);
			html_esc(fp, st->v[i].quarantine);
			fputs("</p>\n", fp);
		}
	chart(fp, st, ids, nids);
	for (i = 0; i < st->nv; i++) {
		if (st->v[i].bot != b->bot || (a = st->sv[i].player) < 0)
			continue;
		fputs("<h2>", fp);
		html_esc(fp, st->v[i].player);
		fputs(" against each opponent</h2>\n<table class=\"h2h\">\n"
		    "<tr><th class=\"l\">Opponent</th><th>Games together</th>"
		    "<th>Pairwise score %</th></tr>\n", fp);
		for (o = 0; o < r->n; o++) {
			p = &r->p[r->order[o]];
			if (r->order[o] == a ||
			    r->met[a * r->cap + r->order[o]] == 0)
				continue;
			fputs("<tr><td class=\"l\">", fp);
			html_esc(fp, p->name);
			fprintf(fp, "</td><td>%ld</td><td>%.1f</td></tr>\n",
			    r->met[a * r->cap + r->order[o]],
			    100 * r->w[a * r->cap + r->order[o]] /
			    (r->w[a * r->cap + r->order[o]] +
			    r->w[r->order[o] * r->cap + a]));
		}
		fputs("</table>\n", fp);
	}
	fputs("<h2>Recent games</h2>\n<table class=\"games\">\n<tr>"
	    "<th>Table</th><th>Game</th><th class=\"l\">Seats (place)</th>"
	    "<th class=\"l\">Log</th></tr>\n", fp);
	if ((q = lstore_prep(st->s, "SELECT g.line FROM results r JOIN games g "
	    "ON g.id = r.game WHERE r.version IN (SELECT id FROM versions "
	    "WHERE bot = ?) ORDER BY r.game DESC LIMIT ?", cause,
	    sizeof cause)) != NULL) {
		sqlite3_bind_int64(q, 1, b->bot);
		sqlite3_bind_int(q, 2, RECENT_GAMES);
		while (sqlite3_step(q) == SQLITE_ROW) {
			j = json_loads((const char *)sqlite3_column_text(q, 0),
			    0, NULL);
			if (j == NULL || jgame_parse(j, &g, cause,
			    sizeof cause) == -1) {
				json_decref(j);
				continue;
			}
			fprintf(fp, "<tr><td>%ld</td><td>%ld</td>"
			    "<td class=\"l\">", g.table, g.game);
			for (s = 0; s < g.k; s++) {
				if (s > 0)
					fputs(", ", fp);
				html_esc(fp, g.bots[s]);
				fprintf(fp, " (%d)", g.places[s]);
			}
			fputs("</td><td class=\"l\">", fp);
			if ((log = g.log) != NULL) {
				fputs("<a href=\"../../", fp);
				html_esc(fp, log);
				fputs("\">log</a>", fp);
				snprintf(path, sizeof path, "%s/%s.html",
				    st->s->dir, log);
				if (stat(path, &sb) == 0) {
					fputs(" <a class=\"replay\" href=\""
					    "../../", fp);
					html_esc(fp, log);
					fprintf(fp, ".html#step=%ld\">replay"
					    "</a>", (long)fmax(0,
					    (double)replay_game_step(path,
					    g.game)));
				}
			}
			fputs("</td></tr>\n", fp);
			json_decref(j);
		}
		sqlite3_finalize(q);
	}
	fputs("</table>\n</body>\n</html>\n", fp);
	return 0;
}

/* table.txt or results.html: report.c's. */
static int
w_report(struct site *st, FILE *fp, const void *arg)
{
	char cause[256];

	return lrate_report(st->s, st->lr, fp, *(const enum report_fmt *)arg,
	    cause, sizeof cause);
}

/* Writes the file name of the new generation with fn; -1 and a cause. */
static int
write_file(struct site *st, const char *name,
    int (*fn)(struct site *, FILE *, const void *), const void *arg,
    char *cause, size_t len)
{
	FILE *fp;
	char *path;
	int rc;

	if (asprintf(&path, "%s/%s", st->dir, name) == -1)
		abort();
	if ((fp = fopen(path, "w")) == NULL) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	rc = fn(st, fp, arg);
	if (fclose(fp) == EOF || rc == -1) {
		snprintf(cause, len, "%s: write error", path);
		rc = -1;
	}
	free(path);
	return rc;
}

/* index.html, table.txt and results.html. */
static int
index_page(struct site *st, char *cause, size_t len)
{
	enum report_fmt txt = FMT_TEXT, html = FMT_HTML;

	if (write_file(st, "index.html", w_index, NULL, cause, len) == -1)
		return -1;
	if (st->lr->r.fitted && (write_file(st, "table.txt", w_report, &txt,
	    cause, len) == -1 || (st->lr->r.n <= FULL_REPORT_MAX &&
	    write_file(st, "results.html", w_report, &html, cause,
	    len) == -1)))
		return -1;
	return 0;
}

/* bots/NAME.html for the bot of version i (its newest version). */
static int
bot_page(struct site *st, int i, char *cause, size_t len)
{
	char *name;
	int rc;

	if (asprintf(&name, "bots/%s.html", st->v[i].bot_name) == -1)
		abort();
	rc = write_file(st, name, w_bot, &i, cause, len);
	free(name);
	return rc;
}

/* Removes a directory tree (the site's: files and one level). */
static int
rm_tree(const char *path)
{
	DIR *d;
	struct dirent *de;
	struct stat sb;
	char *p;

	if ((d = opendir(path)) == NULL)
		return unlink(path);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") ==
		    0)
			continue;
		if (asprintf(&p, "%s/%s", path, de->d_name) == -1)
			abort();
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			rm_tree(p);
		else
			unlink(p);
		free(p);
	}
	closedir(d);
	return rmdir(path);
}

/*
 * Points DIR/site at the generation gen (its base name) by renaming a new
 * symlink over it, then removes the generations but gen and the one it
 * replaced.
 */
static void
publish(const char *dir, const char *gen)
{
	DIR *d;
	struct dirent *de;
	char *link, *tmp, old[PATH_MAX], *p;
	ssize_t n;

	if (asprintf(&link, "%s/site", dir) == -1 ||
	    asprintf(&tmp, "%s/site.new", dir) == -1)
		abort();
	n = readlink(link, old, sizeof old - 1);
	old[n > 0 ? n : 0] = '\0';
	unlink(tmp);
	if (symlink(gen, tmp) == -1 || rename(tmp, link) == -1)
		warn("%s", link);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "site.", 5) != 0 ||
			    strcmp(de->d_name, gen) == 0 ||
			    strcmp(de->d_name, old) == 0 ||
			    strcmp(de->d_name, "site.new") == 0)
				continue;
			if (asprintf(&p, "%s/%s", dir, de->d_name) == -1)
				abort();
			rm_tree(p);
			free(p);
		}
		closedir(d);
	}
	free(link);
	free(tmp);
}

/* Writes the site; see ladder.h. */
int
ladder_site(struct lstore *s, const struct lrating *lr, char *cause,
    size_t len)
{
	struct site st;
	sqlite3_stmt *q;
	char *gen, *bots;
	int i, k, rc = -1;

	memset(&st, 0, sizeof st);
	st.s = s;
	st.lr = lr;
	if (lstore_versions(s, &st.v, &st.nv, cause, len) == -1)
		return -1;
	st.sv = xcalloc((size_t)st.nv + 1, sizeof *st.sv);
	for (i = 0; i < st.nv; i++) {
		st.sv[i].v = &st.v[i];
		st.sv[i].player = -1;
		if (lr->r.fitted)
			st.sv[i].player = rate_find(&lr->r, st.v[i].player);
	}
	if ((q = lstore_prep(s, "SELECT m.version, g.played FROM (SELECT "
	    "version, max(game) AS last FROM results GROUP BY version) m JOIN "
	    "games g ON g.id = m.last", cause, len)) != NULL) {
		while (sqlite3_step(q) == SQLITE_ROW)
			for (i = 0; i < st.nv; i++)
				if (st.v[i].id == sqlite3_column_int64(q, 0))
					st.sv[i].last = sqlite3_column_int64(q,
					    1);
		sqlite3_finalize(q);
	}
	st.name = lstore_meta(s, "name");
	if (st.name == NULL)
		st.name = xstrdup("ladder");
	if (asprintf(&gen, "%s/site.XXXXXX", s->dir) == -1)
		abort();
	if (mkdtemp(gen) == NULL) {
		snprintf(cause, len, "%s: %s", gen, strerror(errno));
		goto out;
	}
	chmod(gen, 0755);
	st.dir = gen;
	if (asprintf(&bots, "%s/bots", gen) == -1)
		abort();
	k = mkdir(bots, 0755);
	free(bots);
	if (k == -1) {
		snprintf(cause, len, "%s/bots: %s", gen, strerror(errno));
		goto out;
	}
	if (index_page(&st, cause, len) == -1)
		goto out;
	for (i = 0; i < st.nv; i++) {
		/* one page per bot, written at its newest version */
		for (k = i + 1; k < st.nv; k++)
			if (st.v[k].bot == st.v[i].bot)
				break;
		if (k == st.nv && bot_page(&st, i, cause, len) == -1)
			goto out;
	}
	publish(s->dir, strrchr(gen, '/') + 1);
	rc = 0;
out:
	if (rc == -1 && st.dir != NULL)
		rm_tree(gen);
	free(gen);
	free(st.sv);
	free(st.name);
	lversions_free(st.v, st.nv);
	return rc;
}
