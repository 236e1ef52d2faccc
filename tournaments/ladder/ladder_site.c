/*
 * The ladder's static site, written after every refit: index.html (the
 * standing table: Elo, interval, games, faults, last played, owner; the
 * tables now in play, as a spectator may see them: their bots and how many
 * of their games are done, never a card nor a log; and the ratings over time
 * as an inline SVG chart with its values in a table), table.txt (report.c's
 * table, the bytes `ladder status` prints while the head-to-head matrix
 * stays small, then without it: n * n cells, a gigabyte at 10,000 bots),
 * results.html (report.c's full page, while the matrix stays small) and
 * bots/NAME.html per
 * bot (its versions, its results against each opponent, its recent games
 * with their logs and replays, each replay opened at its game, or why there
 * is none).  Every page links the others.  No scripts, no external assets.
 * The replays are not made here: ladder_replays (ladder_run.c) owns them.
 * The site is written into a new directory DIR/site.XXXXXX and then
 * published at once by renaming a symlink over DIR/site, so a reader never
 * sees a page half written nor a site half old; the generation before is
 * kept for readers still in it, older ones are removed.  Logs are linked as
 * ../logs/..., which resolves both from files and on `ladder serve`.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/replays.h"
#include "ladder/ladder_rate.h"
#include "ladder/ladder_site.h"
#include "ladder/ladder_store.h"
#include "rating/rate.h"
#include "rating/report.h"

#define CHART_LINES	10	/* versions drawn on the index chart */
#define CHART_POINTS	200	/* fits drawn at most */
#define RECENT_GAMES	20	/* per bot page */
#define FULL_REPORT_MAX	60	/* players for results.html */
#define LABEL_GAP	13	/* px between the chart's end labels */
#define REFRESH_S	30	/* the index reloads so often while a run plays */

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
	int			 live;		/* a run holds the ladder */
	int			 playing;	/* and has tables in play */
	int			 results;	/* results.html is written */
	long			 tried;		/* replays tried up to this table */
	/* each bot's versions: the first (by version index), and each
	 * version's next of the same bot, or -1 (its bot's newest) */
	int			*bfirst, *bnext;
	/* each rated player's opponents by rank: those of a at
	 * opp[ors[a]] .. opp[ors[a + 1] - 1] */
	long			*ors;
	int			*opp;
};

/* One line of the chart: a version's ratings at the fits. */
struct series {
	int	 v;		/* index in st->v */
	int	 n;
	long	*fit;
	double	*x, *y;		/* games, Elo */
	double	 ly;		/* its end label's y */
};

static const char style[] =
"<style>\n"
"body{font-family:sans-serif;margin:2em;color:#123;max-width:70em}\n"
"table{border-collapse:collapse;margin:1em 0}\n"
"td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}\n"
"td.l,th.l{text-align:left}\n.retired{color:#888}\n"
"a{color:#25a}\nsvg text{font:11px sans-serif}\n"
"nav.top{background:#eef2f7;padding:.4em .8em;border-radius:4px}\n"
"nav.top a{margin-right:1.2em}\n.why{color:#888;font-size:smaller}\n"
"progress{width:8em}\ndetails summary{cursor:pointer;color:#25a}\n"
"</style>\n";

static void	 head(FILE *, const char *, const char *, int);
static void	 nav(FILE *, const struct site *, const char *);
static char	*nav_string(const struct site *, const char *);
static void	 when(FILE *, int64_t);
static int	 run_live(const char *);
static void	 playing(FILE *, struct site *);
static int	 seat_names(struct site *, long, char *, size_t, int);
static void	 game_links(FILE *, struct site *, const struct jgame *, int);
static void	 chart(FILE *, struct site *, const int *, int);
static int	 chart_load(struct site *, struct series *, const int *, int);
static void	 chart_labels(struct series *, int, double, double, int,
		    int);
static void	 chart_axes(FILE *, double, double, double, int, int, int,
		    int, int);
static void	 chart_values(FILE *, struct site *, struct series *, int);
static int	 by_label(const void *, const void *);
static int	 index_page(struct site *, char *, size_t);
static int	 bot_page(struct site *, int, char *, size_t);
static int	 write_file(struct site *, const char *,
		    int (*)(struct site *, FILE *, const void *),
		    const void *, char *, size_t);
static int	 w_index(struct site *, FILE *, const void *);
static int	 w_bot(struct site *, FILE *, const void *);
static void	 standing_row(FILE *, const struct sv *, const struct rplayer *);
static void	 recent_rows(FILE *, struct site *, const struct lversion *);
static void	 h2h_rows(FILE *, const struct site *, const char *, int);
static int	 w_report(struct site *, FILE *, const void *);
static void	 publish(const char *, const char *);
static int	 rm_tree(const char *);
static int	 by_rank(const void *, const void *);
static int	 by_bot(const void *, const void *);
static int	 by_opp_rank(const void *, const void *);
static void	 bot_groups(struct site *);
static void	 opponents(struct site *);
static const struct lrating *sort_lr;
static const struct sv *sort_sv;
static const struct lversion *sort_v;

/* The page's head and title; refresh > 0: it reloads every so many s. */
static void
head(FILE *fp, const char *title, const char *sub, int refresh)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
	    "\"utf-8\">\n", fp);
	if (refresh > 0)
		fprintf(fp, "<meta http-equiv=\"refresh\" content=\"%d\">\n",
		    refresh);
	fputs("<title>", fp);
	html_esc(fp, title);
	if (sub != NULL) {
		fputs(": ", fp);
		html_esc(fp, sub);
	}
	fputs("</title>\n<link rel=\"icon\" href=\"data:,\">\n", fp);
	fputs(style, fp);
	fputs("</head>\n<body>\n", fp);
}

/* The links to every page, from a page pre ("" or "../") below the root. */
static char *
nav_string(const struct site *st, const char *pre)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		abort();
	fprintf(fp, "<nav class=\"top\"><a href=\"%sindex.html\">Standings"
	    "</a><a href=\"%sindex.html#playing\">Now playing</a><a href=\""
	    "%sindex.html#history\">Ratings over time</a>", pre, pre, pre);
	if (st->results)
		fprintf(fp, "<a href=\"%sresults.html\">Head to head</a>",
		    pre);
	if (st->lr->r.fitted)
		fprintf(fp, "<a href=\"%stable.txt\">The table as text</a>",
		    pre);
	fputs("</nav>\n", fp);
	if (fclose(fp) == EOF)
		abort();
	return buf;
}

/* Writes the links to every page. */
static void
nav(FILE *fp, const struct site *st, const char *pre)
{
	char *s = nav_string(st, pre);

	fputs(s, fp);
	free(s);
}

/* 1 if a run holds DIR/run.lock (this process's own run too). */
static int
run_live(const char *dir)
{
	char *path;
	int fd, live = 0;

	if (asprintf(&path, "%s/run.lock", dir) == -1)
		abort();
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
		if (flock(fd, LOCK_SH | LOCK_NB) == -1)
			live = errno == EWOULDBLOCK;
		close(fd);
	}
	free(path);
	return live;
}

/*
 * The players of table tab in seat order, comma-separated, into buf
 * (links: each as a link to its bot's page, HTML, written to buf as
 * text); the number of seats.
 */
static int
seat_names(struct site *st, long tab, char *buf, size_t len, int links)
{
	sqlite3_stmt *q;
	char cause[256];
	size_t n = 0;
	int k = 0;

	buf[0] = '\0';
	if ((q = lstore_prep(st->s, "SELECT v.player, b.name FROM seats s "
	    "JOIN versions v ON v.id = s.version JOIN bots b ON b.id = v.bot "
	    "WHERE s.tab = ? ORDER BY s.seat", cause, sizeof cause)) == NULL)
		return 0;
	sqlite3_bind_int64(q, 1, tab);
	while (sqlite3_step(q) == SQLITE_ROW && n < len) {
		if (links)
			n += (size_t)snprintf(buf + n, len - n, "%s<a href=\""
			    "bots/%s.html\">%s</a>", k ? ", " : "",
			    sqlite3_column_text(q, 1),
			    sqlite3_column_text(q, 0));
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    k ? "," : "", sqlite3_column_text(q, 0));
		k++;
	}
	sqlite3_finalize(q);
	return n < len ? k : 0;
}

/*
 * The tables in play, as a spectator may see them: their bots and how
 * many of their games are done (no log, no card).
 */
static void
playing(FILE *fp, struct site *st)
{
	sqlite3_stmt *q;
	char cause[256], names[MAX_PLAYERS * (2 * LNAME_MAX + 40)];
	long open, done, all;
	int n = 0;

	fputs("<h2 id=\"playing\">Now playing</h2>\n", fp);
	open = lstore_scalar(st->s, "SELECT count(*) FROM tables WHERE "
	    "ended IS NULL AND abandoned = 0");
	if (open == 0) {
		fputs("<p>No table is in play right now.</p>\n", fp);
		return;
	}
	if (!st->live) {
		fputs("<p>No run is playing. The tables a stopped run left "
		    "open are marked abandoned when it starts again; their "
		    "games played count.</p>\n", fp);
		return;
	}
	if ((q = lstore_prep(st->s, "SELECT t.id, t.hi - t.lo, (SELECT "
	    "count(*) FROM games g WHERE g.tab = t.id), t.started FROM "
	    "tables t WHERE t.ended IS NULL AND t.abandoned = 0 ORDER BY t.id",
	    cause, sizeof cause)) == NULL)
		return;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n++ == 0)
			fputs("<table id=\"inplay\">\n<tr><th>Table</th>"
			    "<th class=\"l\">Bots (by seat)</th><th>Games done"
			    "</th><th class=\"l\">Progress</th>"
			    "<th class=\"l\">Started</th></tr>\n", fp);
		all = sqlite3_column_int64(q, 1);
		done = sqlite3_column_int64(q, 2);
		seat_names(st, sqlite3_column_int64(q, 0), names, sizeof names,
		    1);
		fprintf(fp, "<tr><td>%lld</td><td class=\"l\">%s</td>"
		    "<td>%ld of %ld</td><td class=\"l\"><progress value=\"%ld\""
		    " max=\"%ld\">%ld/%ld</progress></td><td class=\"l\">",
		    (long long)sqlite3_column_int64(q, 0), names, done, all,
		    done, all, done, all);
		when(fp, sqlite3_column_int64(q, 3));
		fputs("</td></tr>\n", fp);
	}
	sqlite3_finalize(q);
	if (n > 0)
		fputs("</table>\n<p class=\"why\">What a spectator may see: "
		    "a table's logs and replays are published when it ends, "
		    "never while its games are played (they hold every hand)."
		    "</p>\n", fp);
}

/*
 * The log and replay links of game g on a bot page (open: its table is
 * in play), or why there are none.
 */
static void
game_links(FILE *fp, struct site *st, const struct jgame *g, int open)
{
	struct stat sb;
	char *path, *html;
	long step;

	if (g->log == NULL) {
		fputs("<span class=\"why\">no log kept</span>", fp);
		return;
	}
	if (open && st->live) {
		fputs("<span class=\"why\">in play: its log and replay come "
		    "when its table ends</span>", fp);
		return;
	}
	/* a job's log is copied into logs at its table's end (ladder_jobs.c);
	 * an older run's stayed in the spool, beside the plans (the seeds) */
	if (strncmp(g->log, "logs/", 5) != 0) {
		fputs("<span class=\"why\">played by a worker of an older "
		    "build: its log stayed in the spool, not published</span>",
		    fp);
		return;
	}
	if (asprintf(&path, "%s/%s", st->s->dir, g->log) == -1 ||
	    asprintf(&html, "%s.html", path) == -1)
		abort();
	if (stat(path, &sb) == -1)
		fputs("<span class=\"why\">its log is gone</span>", fp);
	else {
		fputs("<a href=\"../../", fp);
		html_esc(fp, g->log);
		fputs("\">log</a> ", fp);
		if (stat(html, &sb) == -1 && st->live)
			fputs("<span class=\"why\">its replay is being made"
			    "</span>", fp);
		else if (stat(html, &sb) == -1 && g->table > st->tried)
			fputs("<span class=\"why\">its replay is not made "
			    "yet: ladder site makes it (ladder serve when it "
			    "is asked for)</span>", fp);
		else if (stat(html, &sb) == -1)
			fputs("<span class=\"why\">no replay: bin/replay "
			    "cannot read the log (replay --verify says why)"
			    "</span>", fp);
		else {
			fputs("<a class=\"replay\" href=\"../../", fp);
			html_esc(fp, g->log);
			fputs(".html", fp);
			if ((step = replay_game_step(path, g->game)) >= 0)
				fprintf(fp, "#step=%ld", step);
			fprintf(fp, "\" data-game=\"%ld\">replay</a>", g->game);
		}
	}
	free(path);
	free(html);
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

/* Orders version indices by bot, then index (qsort; sort_v). */
static int
by_bot(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (sort_v[x].bot != sort_v[y].bot)
		return sort_v[x].bot < sort_v[y].bot ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Orders players by rank (qsort; sort_lr). */
static int
by_opp_rank(const void *a, const void *b)
{
	int x = sort_lr->r.p[*(const int *)a].rank;
	int y = sort_lr->r.p[*(const int *)b].rank;

	return x < y ? -1 : x > y;
}

/*
 * Each bot's versions, once for all pages (bfirst, bnext): a scan of
 * every version for each bot's page was quadratic in the versions.
 */
static void
bot_groups(struct site *st)
{
	int *ord, i, j, n = st->nv;

	ord = xcalloc((size_t)n + 1, sizeof *ord);
	st->bfirst = xcalloc((size_t)n + 1, sizeof *st->bfirst);
	st->bnext = xcalloc((size_t)n + 1, sizeof *st->bnext);
	for (i = 0; i < n; i++)
		ord[i] = i;
	sort_v = st->v;
	qsort(ord, (size_t)n, sizeof *ord, by_bot);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && st->v[ord[j]].bot == st->v[ord[i]].bot;
		    j++) {
			st->bfirst[ord[j]] = ord[i];
			st->bnext[ord[j]] = j + 1 < n && st->v[ord[j +
			    1]].bot == st->v[ord[i]].bot ? ord[j + 1] : -1;
		}
	}
	free(ord);
}

/*
 * Each rated player's opponents by rank (ors, opp), from the pairs that
 * met, once for all pages: a look at every player for each version's
 * page was quadratic in the versions.
 */
static void
opponents(struct site *st)
{
	const struct rating *r = &st->lr->r;
	long *at, p;
	int i;

	st->ors = xcalloc((size_t)r->n + 1, sizeof *st->ors);
	st->opp = xcalloc((size_t)(2 * r->npair + 1), sizeof *st->opp);
	if (!r->fitted)
		return;
	for (p = 0; p < r->npair; p++) {
		st->ors[r->pr[p].lo + 1]++;
		st->ors[r->pr[p].hi + 1]++;
	}
	for (i = 0; i < r->n; i++)
		st->ors[i + 1] += st->ors[i];
	at = xcalloc((size_t)r->n + 1, sizeof *at);
	memcpy(at, st->ors, (size_t)r->n * sizeof *at);
	for (p = 0; p < r->npair; p++) {
		st->opp[at[r->pr[p].lo]++] = r->pr[p].hi;
		st->opp[at[r->pr[p].hi]++] = r->pr[p].lo;
	}
	free(at);
	sort_lr = st->lr;
	for (i = 0; i < r->n; i++)
		qsort(st->opp + st->ors[i], (size_t)(st->ors[i + 1] -
		    st->ors[i]), sizeof *st->opp, by_opp_rank);
}

/*
 * Loads the ratings over time of versions vi (n) from the store's fits
 * (at most CHART_POINTS of them, evenly spread, and the last) into ser;
 * the number of series with a point.
 */
static int
chart_load(struct site *st, struct series *ser, const int *vi, int n)
{
	sqlite3_stmt *q;
	char cause[256];
	long step;
	int i, k = 0, cap = CHART_POINTS + 2;

	step = lstore_scalar(st->s, "SELECT count(*) FROM fits") /
	    CHART_POINTS + 1;
	if ((q = lstore_prep(st->s, "SELECT f.id, f.games, r.elo FROM "
	    "ratings r JOIN fits f ON f.id = r.fit WHERE r.version = ? AND "
	    "(f.id % ? = 0 OR f.id = (SELECT max(id) FROM fits)) ORDER BY "
	    "f.id", cause, sizeof cause)) == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		ser[k].v = vi[i];
		ser[k].n = 0;
		ser[k].fit = xcalloc((size_t)cap, sizeof *ser[k].fit);
		ser[k].x = xcalloc((size_t)cap, sizeof *ser[k].x);
		ser[k].y = xcalloc((size_t)cap, sizeof *ser[k].y);
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, st->v[vi[i]].id);
		sqlite3_bind_int64(q, 2, step);
		while (sqlite3_step(q) == SQLITE_ROW && ser[k].n < cap) {
			ser[k].fit[ser[k].n] = sqlite3_column_int64(q, 0);
			ser[k].x[ser[k].n] = sqlite3_column_double(q, 1);
			ser[k].y[ser[k].n] = sqlite3_column_double(q, 2);
			ser[k].n++;
		}
		if (ser[k].n > 0)
			k++;
		else {
			free(ser[k].fit);
			free(ser[k].x);
			free(ser[k].y);
		}
	}
	sqlite3_finalize(q);
	return k;
}

/* Orders series by their end label's y. */
static int
by_label(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	return x->ly < y->ly ? -1 : x->ly > y->ly;
}

/*
 * Places the end labels of the n series (sorted by it) at their lines'
 * ends, moved apart to LABEL_GAP px at least within [top, bottom]: down
 * from the top, then up from the bottom.
 */
static void
chart_labels(struct series *ser, int n, double lo, double hi, int top,
    int bottom)
{
	int i;

	for (i = 0; i < n; i++)
		ser[i].ly = top + (hi - ser[i].y[ser[i].n - 1]) / (hi - lo) *
		    (bottom - top);
	qsort(ser, (size_t)n, sizeof *ser, by_label);
	for (i = 1; i < n; i++)
		if (ser[i].ly < ser[i - 1].ly + LABEL_GAP)
			ser[i].ly = ser[i - 1].ly + LABEL_GAP;
	if (n > 0 && ser[n - 1].ly > bottom)
		ser[n - 1].ly = bottom;
	for (i = n - 2; i >= 0; i--)
		if (ser[i].ly > ser[i + 1].ly - LABEL_GAP)
			ser[i].ly = ser[i + 1].ly - LABEL_GAP;
}

/*
 * The axes: Elo from lo to hi on the left, games from 0 to gmax below,
 * each with round ticks and a grid, for a plot of [left, right] x [top,
 * bottom] in an h px high picture.
 */
static void
chart_axes(FILE *fp, double lo, double hi, double gmax, int left, int right,
    int top, int bottom, int h)
{
	double v, p, step;

	step = axis_step(hi - lo);
	for (v = ceil(lo / step) * step; v <= hi + 1e-9; v += step) {
		p = top + (hi - v) / (hi - lo) * (bottom - top);
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		    "stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor="
		    "\"end\">%.0f</text>\n", left, p, right, p, left - 4,
		    p + 4, v);
	}
	step = axis_step(gmax);
	for (v = 0; v <= gmax + 1e-9; v += step) {
		p = left + v / gmax * (right - left);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		    "stroke=\"#999\"/><text x=\"%.1f\" y=\"%d\" text-anchor="
		    "\"middle\">%.0f</text>\n", p, bottom, p, bottom + 4, p,
		    bottom + 16, v);
	}
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#999\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#999\"/>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	    "games played</text><text x=\"12\" y=\"%d\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 12 %d)\">Elo</text>\n", left, bottom,
	    right, bottom, left, top, left, bottom, (left + right) / 2, h - 4,
	    (top + bottom) / 2, (top + bottom) / 2);
}

/* The chart's values as a table (folded): a row per fit. */
static void
chart_values(FILE *fp, struct site *st, struct series *ser, int n)
{
	long fit;
	int i, *at;

	at = xcalloc((size_t)n, sizeof *at);
	fputs("<details><summary>The chart's values</summary>\n<table class="
	    "\"chartvals\">\n<tr><th>Games</th>", fp);
	for (i = 0; i < n; i++) {
		fputs("<th>", fp);
		html_esc(fp, st->v[ser[i].v].player);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (;;) {
		/* the next fit any series has a point at */
		fit = LONG_MAX;
		for (i = 0; i < n; i++)
			if (at[i] < ser[i].n && ser[i].fit[at[i]] < fit)
				fit = ser[i].fit[at[i]];
		if (fit == LONG_MAX)
			break;
		for (i = 0; i < n; i++)
			if (at[i] < ser[i].n && ser[i].fit[at[i]] == fit) {
				fprintf(fp, "<tr><td>%.0f</td>", ser[i].x[at[i]]);
				break;
			}
		for (i = 0; i < n; i++)
			if (at[i] < ser[i].n && ser[i].fit[at[i]] == fit)
				fprintf(fp, "<td>%.0f</td>", ser[i].y[at[i]++]);
			else
				fputs("<td></td>", fp);
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n</details>\n", fp);
	free(at);
}

/*
 * The ratings over time of versions vi (n), one line each (a retired
 * version's dashed), with round ticks on both axes, end labels that never
 * overlap, each point's value on hovering, and the values in a table.
 */
static void
chart(FILE *fp, struct site *st, const int *vi, int n)
{
	static const char *const colour[] = { "#36c", "#c33", "#393",
	    "#f90", "#909", "#099", "#663", "#c6c", "#333", "#6c0" };
	struct series *ser;
	const struct lversion *v;
	double lo = INFINITY, hi = -INFINITY, gmax = 1, px = 0, py = 0;
	int i, k, ns, w = 760, left = 56, right = 590, top = 12, bottom = 262;
	int h = 300;

	if (n == 0)
		return;
	ser = xcalloc((size_t)n, sizeof *ser);
	ns = chart_load(st, ser, vi, n);
	for (i = 0; i < ns; i++)
		for (k = 0; k < ser[i].n; k++) {
			lo = fmin(lo, ser[i].y[k]);
			hi = fmax(hi, ser[i].y[k]);
			gmax = fmax(gmax, ser[i].x[k]);
		}
	if (ns == 0) {
		free(ser);
		return;
	}
	if (hi - lo < 100) {
		lo -= (100 - (hi - lo)) / 2;
		hi = lo + 100;
	}
	px = axis_step(hi - lo);
	lo = floor(lo / px) * px;
	hi = ceil(hi / px) * px;
	chart_labels(ser, ns, lo, hi, top + 4, bottom);
	fprintf(fp, "<h2 id=\"history-title\">Ratings over time</h2>\n<svg "
	    "xmlns=\"http://www.w3.org/2000/svg\" id=\"history\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
	    "ratings over time\">\n", w, h, w, h);
	chart_axes(fp, lo, hi, gmax, left, right, top, bottom, h);
	for (i = 0; i < ns; i++) {
		v = &st->v[ser[i].v];
		fprintf(fp, "<g class=\"%s\"><polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\"%s points=\"", v->active ? "line" :
		    "line retired", colour[i % 10], v->active ? "" :
		    " stroke-dasharray=\"6 3\" stroke-opacity=\".75\"");
		for (k = 0; k < ser[i].n; k++)
			fprintf(fp, "%s%.1f,%.1f", k ? " " : "", left +
			    ser[i].x[k] / gmax * (right - left), top +
			    (hi - ser[i].y[k]) / (hi - lo) * (bottom - top));
		fputs("\"/>\n", fp);
		for (k = 0; k < ser[i].n; k++) {
			px = left + ser[i].x[k] / gmax * (right - left);
			py = top + (hi - ser[i].y[k]) / (hi - lo) *
			    (bottom - top);
			fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" "
			    "fill=\"%s\"><title>", px, py, k + 1 == ser[i].n ?
			    "3.5" : "2", colour[i % 10]);
			html_esc(fp, v->player);
			fprintf(fp, ": %.0f after %.0f games</title></circle>",
			    ser[i].y[k], ser[i].x[k]);
		}
		fprintf(fp, "\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
		    " stroke=\"%s\" stroke-opacity=\".5\"/><text x=\"%d\" "
		    "y=\"%.1f\" fill=\"%s\">", px, py, right + 14, ser[i].ly,
		    colour[i % 10], right + 16, ser[i].ly + 4, colour[i % 10]);
		html_esc(fp, v->player);
		fprintf(fp, " %.0f%s</text></g>\n", ser[i].y[ser[i].n - 1],
		    v->active ? "" : " (retired)");
	}
	fputs("</svg>\n", fp);
	chart_values(fp, st, ser, ns);
	for (i = 0; i < ns; i++) {
		free(ser[i].fit);
		free(ser[i].x);
		free(ser[i].y);
	}
	free(ser);
}

/* The standing table's row of version e (p: its rating, or NULL). */
static void
standing_row(FILE *fp, const struct sv *e, const struct rplayer *p)
{
	fprintf(fp, "<tr%s><td>", e->v->active ? "" : " class=\"retired\"");
	if (p != NULL)
		fprintf(fp, "%d", p->rank);
	fputs("</td><td class=\"l\"><a href=\"bots/", fp);
	html_esc(fp, e->v->bot_name);
	fputs(".html\">", fp);
	html_esc(fp, e->v->player);
	fputs("</a></td><td class=\"l\">", fp);
	html_esc(fp, e->v->owner != NULL ? e->v->owner : "");
	fputs("</td>", fp);
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
}

/* index.html: the standing table, the tables in play and the chart. */
static int
w_index(struct site *st, FILE *fp, const void *arg)
{
	const struct rating *r = &st->lr->r;
	const struct sv *e;
	int ids[CHART_LINES] = { 0 };
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
	head(fp, st->name, "standings", st->playing ? REFRESH_S : 0);
	nav(fp, st, "");
	fputs("<h1>", fp);
	html_esc(fp, st->name);
	fprintf(fp, "</h1>\n<p>%ld games; %d bots in play, %d versions in "
	    "all. Elo scale, pool mean 1500; ± is the 95%% interval from %d "
	    "bootstrap resamples of whole duplicate deals. Updated ", r->games,
	    active, st->nv, r->opts.boot);
	when(fp, (int64_t)time(NULL));
	fprintf(fp, " UTC%s.</p>\n<table id=\"standings\">\n<tr><th>Rank</th>"
	    "<th class=\"l\">Bot</th><th class=\"l\">Owner</th><th>Elo</th>"
	    "<th>±</th><th>Games</th><th>Faults</th><th class=\"l\">Last "
	    "played</th><th class=\"l\">Status</th></tr>\n", st->playing ?
	    "; this page reloads itself while the ladder plays" : "");
	for (i = 0; i < st->nv; i++) {
		e = &st->sv[ord[i]];
		standing_row(fp, e, e->player >= 0 ? &r->p[e->player] : NULL);
		if (e->player >= 0 && nids < CHART_LINES)
			ids[nids++] = ord[i];
	}
	fputs("</table>\n", fp);
	playing(fp, st);
	chart(fp, st, ids, nids);
	fputs("</body>\n</html>\n", fp);
	free(ord);
	return 0;
}

/* The bot page's recent games of bot b, with their logs and replays. */
static void
recent_rows(FILE *fp, struct site *st, const struct lversion *b)
{
	sqlite3_stmt *q;
	struct jgame g;
	json_t *j;
	char cause[256];
	int s;

	fputs("<h2>Recent games</h2>\n<table class=\"games\">\n<tr>"
	    "<th>Table</th><th>Game</th><th class=\"l\">Seats (place)</th>"
	    "<th class=\"l\">Log</th></tr>\n", fp);
	/* the last games' ids first: only theirs are read (a bot's every
	 * game was, 400 a page at 10,000 bots and 1,000,000 games); shown
	 * by table and game, not in the order workers' journals came in */
	if ((q = lstore_prep(st->s, "SELECT g.line, t.ended IS NULL AND "
	    "t.abandoned = 0 FROM (SELECT r.game FROM results r WHERE "
	    "r.version IN (SELECT id FROM versions WHERE bot = ?) ORDER BY "
	    "r.game DESC LIMIT ?) x JOIN games g ON g.id = x.game JOIN tables "
	    "t ON t.id = g.tab ORDER BY g.tab DESC, g.game DESC", cause,
	    sizeof cause)) == NULL) {
		fputs("</table>\n", fp);
		return;
	}
	sqlite3_bind_int64(q, 1, b->bot);
	sqlite3_bind_int(q, 2, RECENT_GAMES);
	while (sqlite3_step(q) == SQLITE_ROW) {
		j = json_loads((const char *)sqlite3_column_text(q, 0), 0,
		    NULL);
		if (j == NULL || jgame_parse(j, &g, cause, sizeof cause) ==
		    -1) {
			json_decref(j);
			continue;
		}
		fprintf(fp, "<tr><td>%ld</td><td>%ld</td><td class=\"l\">",
		    g.table, g.game);
		for (s = 0; s < g.k; s++) {
			if (s > 0)
				fputs(", ", fp);
			html_esc(fp, g.bots[s]);
			fprintf(fp, " (%d)", g.places[s]);
		}
		fputs("</td><td class=\"l\">", fp);
		game_links(fp, st, &g, sqlite3_column_int(q, 1));
		fputs("</td></tr>\n", fp);
		json_decref(j);
	}
	sqlite3_finalize(q);
	fputs("</table>\n", fp);
}

/*
 * A version's results against each opponent it met (a: its player), by
 * the opponents' rank.
 */
static void
h2h_rows(FILE *fp, const struct site *st, const char *name, int a)
{
	const struct rating *r = &st->lr->r;
	const struct rplayer *p;
	double wab, wba;
	long met, o;
	int b;

	fputs("<h2>", fp);
	html_esc(fp, name);
	fputs(" against each opponent</h2>\n<table class=\"h2h\">\n"
	    "<tr><th class=\"l\">Opponent</th><th>Games together</th>"
	    "<th>Pairwise score %</th></tr>\n", fp);
	for (o = st->ors[a]; o < st->ors[a + 1]; o++) {
		b = st->opp[o];
		p = &r->p[b];
		if ((met = rate_pair(r, a, b, &wab, &wba)) == 0)
			continue;
		fputs("<tr><td class=\"l\">", fp);
		html_esc(fp, p->name);
		fprintf(fp, "</td><td>%ld</td><td>%.1f</td></tr>\n",
		    met, 100 * wab / (wab + wba));
	}
	fputs("</table>\n", fp);
}

/* bots/NAME.html: the versions of bot st->v[*arg]'s bot. */
static int
w_bot(struct site *st, FILE *fp, const void *arg)
{
	const struct rating *r = &st->lr->r;
	const struct lversion *b = &st->v[*(const int *)arg];
	int ids[CHART_LINES] = { 0 };
	int i, a, nids = 0;

	head(fp, st->name, b->bot_name, 0);
	nav(fp, st, "../");
	fputs("<h1>", fp);
	html_esc(fp, b->bot_name);
	fputs("</h1>\n", fp);
	if (b->owner != NULL && b->owner[0] != '\0') {
		fputs("<p>Entered by <span class=\"owner\">", fp);
		html_esc(fp, b->owner);
		fputs("</span>.</p>\n", fp);
	}
	fputs("<h2>Versions</h2>\n<table class=\"versions\">\n"
	    "<tr><th class=\"l\">Version</th><th class=\"l\">Command</th>"
	    "<th class=\"l\">Entered</th><th class=\"l\">Retired</th>"
	    "<th>Elo</th><th>±</th><th>Games</th></tr>\n", fp);
	for (i = st->bfirst[b - st->v]; i != -1; i = st->bnext[i]) {
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
				ids[nids++] = i;
		} else
			fputs("<td>-</td><td>-</td><td>0</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	for (i = st->bfirst[b - st->v]; i != -1; i = st->bnext[i])
		if (st->v[i].active && st->v[i].quarantine != NULL) {
			fputs("<p class=\"quarantine\">", fp);
			html_esc(fp, st->v[i].player);
			fputs(" is quarantined: ", fp);
			html_esc(fp, st->v[i].quarantine);
			fputs("</p>\n", fp);
		}
	chart(fp, st, ids, nids);
	for (i = st->bfirst[b - st->v]; i != -1; i = st->bnext[i])
		if ((a = st->sv[i].player) >= 0)
			h2h_rows(fp, st, st->v[i].player, a);
	recent_rows(fp, st, b);
	fputs("</body>\n</html>\n", fp);
	return 0;
}

/*
 * table.txt or results.html: report.c's (the page with the site's links,
 * its recent games' logs as a spectator may see them).
 */
static int
w_report(struct site *st, FILE *fp, const void *arg)
{
	struct lpage pg;
	char cause[256];
	int rc;

	pg.nav = nav_string(st, "");
	pg.pre = "../";
	pg.live = st->live;
	pg.nogrid = !st->results;
	rc = lrate_page(st->s, st->lr, fp, *(const enum report_fmt *)arg,
	    &pg, cause, sizeof cause);
	free((char *)pg.nav);
	return rc;
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
	    cause, len) == -1 || (st->results &&
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

/* Writes the site; see ladder_site.h. */
int
ladder_site(struct lstore *s, const struct lrating *lr, int live, char *cause,
    size_t len)
{
	struct site st;
	sqlite3_stmt *q;
	char *gen, *bots, *v;
	long id;
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
		/* the versions are in id order: found by halves */
		while (sqlite3_step(q) == SQLITE_ROW) {
			id = (long)sqlite3_column_int64(q, 0);
			for (i = 0, k = st.nv; i < k; )
				if (st.v[(i + k) / 2].id < id)
					i = (i + k) / 2 + 1;
				else
					k = (i + k) / 2;
			if (i < st.nv && st.v[i].id == id)
				st.sv[i].last = sqlite3_column_int64(q, 1);
		}
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
	st.live = live >= 0 ? live : run_live(s->dir);
	if ((v = lstore_meta(s, "replays_upto")) != NULL)
		st.tried = strtol(v, NULL, 10);
	free(v);
	st.playing = st.live && lstore_scalar(s, "SELECT count(*) FROM "
	    "tables WHERE ended IS NULL AND abandoned = 0") > 0;
	st.results = lr->r.fitted && lr->r.n > 0 && lr->r.n <= FULL_REPORT_MAX;
	if (index_page(&st, cause, len) == -1)
		goto out;
	bot_groups(&st);
	opponents(&st);
	for (i = 0; i < st.nv; i++)
		/* one page per bot, written at its newest version */
		if (st.bnext[i] == -1 && bot_page(&st, i, cause, len) == -1)
			goto out;
	publish(s->dir, strrchr(gen, '/') + 1);
	rc = 0;
out:
	if (rc == -1 && st.dir != NULL)
		rm_tree(gen);
	free(gen);
	free(st.sv);
	free(st.name);
	free(st.bfirst);
	free(st.bnext);
	free(st.ors);
	free(st.opp);
	lversions_free(st.v, st.nv);
	return rc;
}
