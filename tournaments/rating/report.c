/*
 * The rating reports: the table (Rank, Name, Elo, +-, Games, pairwise
 * Score %, mean place, 1st places %, faults), the likelihood of superiority
 * between neighbours and the head-to-head matrix, as terminal text, CSV
 * (the table), JSON (everything), Markdown, or one self-contained HTML page
 * with an SVG chart of the ratings and their 95% intervals, the matrix
 * (its diagonal and the pairs that never met told apart) and links to the
 * recent games' match logs (and their HTML replays, opened at the game,
 * when bin/replay --html has made them; a log not there is said to be
 * missing).  No network, no scripts.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/journal.h"
#include "base/replays.h"
#include "rating/load.h"
#include "rating/report.h"

static double	 pct(double, double);
static double	 score_pct(const struct rplayer *);
static double	 mean_place(const struct rplayer *);
static double	 first_pct(const struct rplayer *);
static json_t	*jnum(double);
static void	 num(FILE *, int, double);
static void	 results_cols(FILE *, const struct rplayer *, int,
		    const char *);
static void	 losnum(FILE *, double);
static int	 fault_part(const struct rplayer *, char *, size_t);
static void	 fault_parts(FILE *, const struct rating *, int, const char *,
		    const char *);
static void	 csv_str(FILE *, const char *);
static int	 text(FILE *, const struct report *);
static void	 head_to_head(FILE *, const struct rating *, int);
static int	 h2h_cell(const struct rating *, int, int, char *, size_t);
static int	 csv(FILE *, const struct report *);
static int	 md(FILE *, const struct report *);
static int	 json(FILE *, const struct report *, char *, size_t);
static int	 html(FILE *, const struct report *);
static void	 svg_chart(FILE *, const struct rating *);
static void	 recent_html(FILE *, const struct report *);

static const struct {
	const char	*name;
	enum report_fmt	 fmt;
} fmts[] = {
	{ "text", FMT_TEXT }, { "txt", FMT_TEXT }, { "csv", FMT_CSV },
	{ "json", FMT_JSON }, { "md", FMT_MD }, { "markdown", FMT_MD },
	{ "html", FMT_HTML }, { NULL, FMT_TEXT }
};

/* Looks up a format by name; -1 if unknown. */
int
report_fmt(const char *s, enum report_fmt *f)
{
	int i;

	for (i = 0; fmts[i].name != NULL; i++)
		if (strcmp(fmts[i].name, s) == 0) {
			*f = fmts[i].fmt;
			return 0;
		}
	return -1;
}

/* a / b as a percentage, NaN when b is 0. */
static double
pct(double a, double b)
{
	return b > 0 ? 100 * a / b : NAN;
}

/* p's score as a percentage of what it could have scored, or NaN. */
static double
score_pct(const struct rplayer *p)
{
	return pct(p->pscore, p->pweight);
}

/* p's mean place, or NaN before its first game. */
static double
mean_place(const struct rplayer *p)
{
	return p->games ? p->place_sum / p->games : NAN;
}

/* The share of p's games it won, as a percentage, or NaN. */
static double
first_pct(const struct rplayer *p)
{
	return pct((double)p->firsts, (double)p->games);
}

/* Prints a number with prec decimals, or "-" when it is not one. */
static void
num(FILE *fp, int prec, double x)
{
	if (isnan(x))
		fputs("-", fp);
	else
		fprintf(fp, "%.*f", prec, x);
}

/*
 * Prints p's score %, mean place and 1st %, with sep between them: the
 * percentages with prec decimals, the place with one more (it moves
 * less).
 */
static void
results_cols(FILE *fp, const struct rplayer *p, int prec, const char *sep)
{
	num(fp, prec, score_pct(p));
	fputs(sep, fp);
	num(fp, prec + 1, mean_place(p));
	fputs(sep, fp);
	num(fp, prec, first_pct(p));
}

/* Prints a likelihood as a percentage, or "-". */
/*
 * Says which of p's timeouts were at the hello and which limits it hit,
 * e.g. "2 of its timeouts at the hello; limits hit: cpu 1, memory 3";
 * 0 when there is nothing to say.
 */
static int
fault_part(const struct rplayer *p, char *buf, size_t len)
{
	static const struct { enum tfault f; const char *name; } lim[] = {
		{ TF_CPU, "cpu" }, { TF_MEMORY, "memory" },
		{ TF_FSIZE, "file size" }
	};
	size_t i, n = 0;
	int first = 1;

	buf[0] = '\0';
	if (p->faults[TF_HELLO] > 0)
		n = (size_t)snprintf(buf, len, "%ld of its timeouts at the "
		    "hello", p->faults[TF_HELLO]);
	for (i = 0; i < sizeof lim / sizeof lim[0] && n < len; i++) {
		if (p->faults[lim[i].f] == 0)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %ld", !first ?
		    ", " : n > 0 ? "; limits hit: " : "limits hit: ",
		    lim[i].name, p->faults[lim[i].f]);
		first = 0;
	}
	return n > 0;
}

/* The fault parts of the first rows players of the table, a line each. */
static void
fault_parts(FILE *fp, const struct rating *r, int rows, const char *pre,
    const char *post)
{
	char buf[256];
	int i;

	for (i = 0; i < rows; i++)
		if (fault_part(&r->p[r->order[i]], buf, sizeof buf))
			fprintf(fp, "%s%s: %s%s", pre, r->p[r->order[i]].name,
			    buf, post);
}

static void
losnum(FILE *fp, double x)
{
	if (isnan(x))
		fputs("-", fp);
	else
		fprintf(fp, "%.1f%%", 100 * x);
}

/* Writes s with HTML's special characters escaped. */
void
html_esc(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			fputc(*s, fp);
		}
}

/* Writes a CSV field, quoted when it needs to be. */
static void
csv_str(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* Writes the report in a format; see tournament.h. */
int
report_write(FILE *fp, const struct report *rp, enum report_fmt f,
    char *cause, size_t len)
{
	int rc = 0;

	switch (f) {
	case FMT_TEXT:
		rc = text(fp, rp);
		break;
	case FMT_CSV:
		rc = csv(fp, rp);
		break;
	case FMT_JSON:
		rc = json(fp, rp, cause, len);
		break;
	case FMT_MD:
		rc = md(fp, rp);
		break;
	case FMT_HTML:
		rc = html(fp, rp);
		break;
	}
	if (rc == 0 && (fflush(fp) == EOF || ferror(fp))) {
		snprintf(cause, len, "write error");
		rc = -1;
	}
	return rc;
}

/* The table as terminal text. */
static int
text(FILE *fp, const struct report *rp)
{
	const struct rating *r = rp->r;
	const struct rplayer *p;
	int i, w = 4, rows, flagged = 0;

	for (i = 0; i < r->n; i++)
		if ((int)strlen(r->p[i].name) > w)
			w = (int)strlen(r->p[i].name);
	rows = rp->top > 0 && rp->top < r->n ? rp->top : r->n;
	if (rp->title != NULL)
		fprintf(fp, "%s: %ld games, %d players\n", rp->title,
		    r->games, r->n);
	fprintf(fp, "%4s  %-*s %6s %5s %7s %7s %6s %6s %8s %7s %7s %6s\n",
	    "Rank", w, "Name", "Elo", "+-", "Games", "Score%", "Place", "1st%",
	    "Timeouts", "Crashes", "Illegal", "Limits");
	for (i = 0; i < rows; i++) {
		p = &r->p[r->order[i]];
		flagged |= p->flag;
		fprintf(fp, "%4d%c %s%-*s%s %6.0f ", p->rank,
		    p->flag ? '*' : ' ', rp->color && i == 0 ? "\033[1m" : "",
		    w, p->name, rp->color && i == 0 ? "\033[0m" : "", p->elo);
		if (isnan(p->pm))
			fprintf(fp, "%5s", "-");
		else
			fprintf(fp, "%5.0f", p->pm);
		fprintf(fp, " %7ld %7.1f %6.2f %6.1f %8ld %7ld %7ld %6ld\n",
		    p->games, score_pct(p), mean_place(p), first_pct(p),
		    p->faults[TF_TIMEOUT], p->faults[TF_CRASH],
		    p->faults[TF_ILLEGAL], p->faults[TF_LIMIT]);
	}
	if (rows < r->n)
		fprintf(fp, "  ... %d more\n", r->n - rows);
	if (flagged)
		fprintf(fp, "  * won or lost every pairing: the rating rests "
		    "on the prior\n");
	fault_parts(fp, r, rows, "  ", "\n");
	if (rp->top > 0)
		return 0;
	if (r->n > 1 && r->opts.boot > 1) {
		fprintf(fp, "\nLikelihood of superiority over the next:\n");
		for (i = 0; i + 1 < r->n; i++) {
			p = &r->p[r->order[i]];
			fprintf(fp, "  %-*s > %-*s ", w, p->name, w,
			    r->p[r->order[i + 1]].name);
			losnum(fp, p->los_next);
			fputc('\n', fp);
		}
	}
	if (r->n > 1 && rp->nogrid)
		fprintf(fp, "\nHead to head: not shown for %d players (a grid "
		    "of %ld cells)\n", r->n, (long)r->n * r->n);
	else if (r->n > 1)
		head_to_head(fp, r, w);
	return 0;
}

/*
 * The head-to-head grid of the text table: each cell the row's pairwise
 * score against the column in % and their games together, every column
 * as wide as its whole name (names are never cut: two bots must not look
 * alike).
 */
static void
head_to_head(FILE *fp, const struct rating *r, int w)
{
	char cell[64];
	int i, j, a, b, cw = 4;

	for (i = 0; i < r->n; i++) {
		if ((int)strlen(r->p[i].name) > cw)
			cw = (int)strlen(r->p[i].name);
		for (j = 0; j < r->n; j++)
			if (h2h_cell(r, i, j, cell, sizeof cell) > cw)
				cw = (int)strlen(cell);
	}
	fprintf(fp, "\nHead to head (pairwise score of the row against the "
	    "column, %%, and\ntheir games together):\n%-*s", w, "");
	for (j = 0; j < r->n; j++)
		fprintf(fp, "  %*s", cw, r->p[r->order[j]].name);
	fputc('\n', fp);
	for (i = 0; i < r->n; i++) {
		a = r->order[i];
		fprintf(fp, "%-*s", w, r->p[a].name);
		for (j = 0; j < r->n; j++) {
			b = r->order[j];
			h2h_cell(r, a, b, cell, sizeof cell);
			fprintf(fp, "  %*s", cw, cell);
		}
		fputc('\n', fp);
	}
}

/* One cell of the grid, "62.5 (16)" or "-", into buf; its length. */
static int
h2h_cell(const struct rating *r, int a, int b, char *buf, size_t len)
{
	double wab, wba;
	long met = rate_pair(r, a, b, &wab, &wba);

	if (met == 0)
		return snprintf(buf, len, "-");
	return snprintf(buf, len, "%.1f (%ld)", pct(wab, wab + wba), met);
}

/* The table as CSV. */
static int
csv(FILE *fp, const struct report *rp)
{
	const struct rating *r = rp->r;
	const struct rplayer *p;
	int i;

	fprintf(fp, "rank,name,elo,pm,lo,hi,games,score_pct,mean_place,"
	    "first_pct,timeouts,crashes,illegal,flagged,los_next,limits,"
	    "hello_timeouts,limit_cpu,limit_memory,limit_fsize\n");
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		fprintf(fp, "%d,", p->rank);
		csv_str(fp, p->name);
		fprintf(fp, ",%.1f,", p->elo);
		num(fp, 1, p->pm);
		fputc(',', fp);
		num(fp, 1, p->lo);
		fputc(',', fp);
		num(fp, 1, p->hi);
		fprintf(fp, ",%ld,", p->games);
		results_cols(fp, p, 2, ",");
		fprintf(fp, ",%ld,%ld,%ld,%d,", p->faults[TF_TIMEOUT],
		    p->faults[TF_CRASH], p->faults[TF_ILLEGAL], p->flag);
		num(fp, 4, p->los_next);
		fprintf(fp, ",%ld,%ld,%ld,%ld,%ld\n", p->faults[TF_LIMIT],
		    p->faults[TF_HELLO], p->faults[TF_CPU],
		    p->faults[TF_MEMORY], p->faults[TF_FSIZE]);
	}
	return 0;
}

/* The table, the likelihoods and the matrix as Markdown. */
static int
md(FILE *fp, const struct report *rp)
{
	const struct rating *r = rp->r;
	const struct rplayer *p;
	double wab, wba;
	int i, j, a, b, flagged = 0;

	if (rp->title != NULL)
		fprintf(fp, "# %s\n\n%ld games, %d players.\n\n", rp->title,
		    r->games, r->n);
	fprintf(fp, "| Rank | Name | Elo | ± | Games | Score %% | Place | "
	    "1st %% | Timeouts | Crashes | Illegal | Limits |\n"
	    "|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		flagged |= p->flag;
		fprintf(fp, "| %d%s | %s | %.0f | ", p->rank,
		    p->flag ? "\\*" : "", p->name, p->elo);
		num(fp, 0, p->pm);
		fprintf(fp, " | %ld | ", p->games);
		results_cols(fp, p, 1, " | ");
		fprintf(fp, " | %ld | %ld | %ld | %ld |\n",
		    p->faults[TF_TIMEOUT], p->faults[TF_CRASH],
		    p->faults[TF_ILLEGAL], p->faults[TF_LIMIT]);
	}
	if (flagged)
		fprintf(fp, "\n\\* won or lost every pairing: the rating "
		    "rests on the prior.\n");
	fault_parts(fp, r, r->n, "\n", "\n");
	if (r->n > 1 && r->opts.boot > 1) {
		fprintf(fp, "\n## Likelihood of superiority over the next\n\n"
		    "| Player | Next | LOS |\n|:---|:---|---:|\n");
		for (i = 0; i + 1 < r->n; i++) {
			p = &r->p[r->order[i]];
			fprintf(fp, "| %s | %s | ", p->name,
			    r->p[r->order[i + 1]].name);
			losnum(fp, p->los_next);
			fputs(" |\n", fp);
		}
	}
	if (r->n > 1) {
		fprintf(fp, "\n## Head to head\n\nPairwise score of the row "
		    "against the column, %%.\n\n|  |");
		for (j = 0; j < r->n; j++)
			fprintf(fp, " %s |", r->p[r->order[j]].name);
		fputs("\n|:---|", fp);
		for (j = 0; j < r->n; j++)
			fputs("---:|", fp);
		fputc('\n', fp);
		for (i = 0; i < r->n; i++) {
			a = r->order[i];
			fprintf(fp, "| %s |", r->p[a].name);
			for (j = 0; j < r->n; j++) {
				b = r->order[j];
				if (rate_pair(r, a, b, &wab, &wba) == 0)
					fputs(" - |", fp);
				else
					fprintf(fp, " %.1f |",
					    pct(wab, wab + wba));
			}
			fputc('\n', fp);
		}
	}
	return 0;
}

/* A number for JSON: null when it is not a finite number. */
static json_t *
jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Everything as one JSON document. */
static int
json(FILE *fp, const struct report *rp, char *cause, size_t len)
{
	const struct rating *r = rp->r;
	const struct rplayer *p;
	json_t *j, *players, *names, *score, *gm, *row, *grow, *f, *lim;
	double wab, wba;
	long met;
	int i, k, a, b;

	players = json_array();
	names = json_array();
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		f = json_object();
		for (k = 0; k <= TF_HELLO; k++)
			json_object_set_new(f, tfault_names[k],
			    json_integer(p->faults[k]));
		lim = json_object();
		for (k = 0; k < NLIMIT; k++)
			json_object_set_new(lim, limit_names[k],
			    json_integer(p->faults[TF_CPU + k]));
		json_object_set_new(f, "limits", lim);
		json_array_append_new(players, json_pack("{s:i,s:s,s:o,s:o,"
		    "s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:b,s:o}", "rank", p->rank,
		    "name", p->name, "elo", jnum(p->elo), "pm", jnum(p->pm),
		    "lo", jnum(p->lo), "hi", jnum(p->hi), "games",
		    (json_int_t)p->games, "score", jnum(score_pct(p)),
		    "mean_place", jnum(mean_place(p)), "first",
		    jnum(first_pct(p)), "faults", f,
		    "flagged", p->flag, "los_next", jnum(p->los_next)));
		json_array_append_new(names, json_string(p->name));
	}
	score = json_array();
	gm = json_array();
	for (i = 0; i < r->n; i++) {
		a = r->order[i];
		row = json_array();
		grow = json_array();
		for (k = 0; k < r->n; k++) {
			b = r->order[k];
			met = rate_pair(r, a, b, &wab, &wba);
			json_array_append_new(row, met == 0 ? json_null() :
			    jnum(pct(wab, wab + wba)));
			json_array_append_new(grow, json_integer(met));
		}
		json_array_append_new(score, row);
		json_array_append_new(gm, grow);
	}
	j = json_pack("{s:s?,s:I,s:o,s:{s:o,s:o,s:o},s:{s:i,s:f,s:f,s:s?}}",
	    "title", rp->title, "games", (json_int_t)r->games,
	    "players", players, "head_to_head", "names", names, "score",
	    score, "games", gm, "fit", "bootstrap", r->opts.boot,
	    "prior", r->opts.prior, "mean", r->opts.mean,
	    "anchor", r->opts.anchor);
	if (j == NULL) {
		snprintf(cause, len, "cannot build the JSON report");
		return -1;
	}
	if (r->opts.anchor != NULL)
		json_object_set_new(json_object_get(j, "fit"), "anchor_elo",
		    json_real(r->opts.anchor_elo));
	if (json_dumpf(j, fp, JSON_INDENT(1)) == -1) {
		json_decref(j);
		snprintf(cause, len, "write error");
		return -1;
	}
	fputc('\n', fp);
	json_decref(j);
	return 0;
}

/* A round step for the ticks of an axis spanning span: 4 to 10 ticks. */
double
axis_step(double span)
{
	double step;

	if (!(span > 0))
		return 1;
	step = pow(10, floor(log10(span / 4)));
	if (span / step > 10)
		step *= 2.5;
	if (span / step > 10)
		step *= 2;
	return step;
}

/*
 * The ratings as an SVG chart: one row per player, a dot at the rating
 * and a bar over its 95% interval, on a common Elo axis.
 */
static void
svg_chart(FILE *fp, const struct rating *r)
{
	const struct rplayer *p;
	double lo = INFINITY, hi = -INFINITY, x0, x1, step, v, span;
	int i, width = 720, left = 170, right = 30, row = 24, top = 30;
	int height = top + row * r->n + 10, plot = width - left - right;

	for (i = 0; i < r->n; i++) {
		p = &r->p[i];
		x0 = isnan(p->pm) ? p->elo : p->elo - p->pm;
		x1 = isnan(p->pm) ? p->elo : p->elo + p->pm;
		if (x0 < lo)
			lo = x0;
		if (x1 > hi)
			hi = x1;
	}
	span = hi - lo;
	if (span < 50) {
		lo -= (50 - span) / 2;
		hi += (50 - span) / 2;
		span = 50;
	}
	lo -= span * 0.05;
	hi += span * 0.05;
	span = hi - lo;
	step = axis_step(span);
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-label=\"ratings with 95%% intervals\">\n", width, height,
	    width, height);
	fprintf(fp, "<style>text{font:12px sans-serif}.ax{stroke:#ccc}"
	    ".iv{stroke:#36c;stroke-width:4;stroke-linecap:round}"
	    ".pt{fill:#123}.fl{fill:#c33}</style>\n");
	for (v = ceil(lo / step) * step; v <= hi; v += step) {
		x0 = left + (v - lo) / span * plot;
		fprintf(fp, "<line class=\"ax\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"middle\">%.0f</text>\n", x0, top - 8, x0,
		    height - 5, x0, top - 12, v);
	}
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		v = top + row * i + row / 2.0;
		fprintf(fp, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		    left - 8, v + 4);
		html_esc(fp, p->name);
		fprintf(fp, "</text>");
		if (!isnan(p->pm))
			fprintf(fp, "<line class=\"iv\" x1=\"%.1f\" "
			    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			    left + (p->elo - p->pm - lo) / span * plot, v,
			    left + (p->elo + p->pm - lo) / span * plot, v);
		fprintf(fp, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"5\"><title>", p->flag ? "fl" : "pt",
		    left + (p->elo - lo) / span * plot, v);
		html_esc(fp, p->name);
		fprintf(fp, ": %.0f", p->elo);
		if (!isnan(p->pm))
			fprintf(fp, " ± %.0f", p->pm);
		fprintf(fp, "</title></circle>\n");
	}
	fprintf(fp, "</svg>\n");
}

/* The recent games, linking their logs and HTML replays. */
static void
recent_html(FILE *fp, const struct report *rp)
{
	const struct recent *rc = rp->recent;
	const struct recent_game *g;
	struct stat sb;
	char path[4096];
	long step;
	int i, s, idx;

	if (rc == NULL || rc->n == 0)
		return;
	fprintf(fp, "<h2>Recent games</h2>\n<table class=\"games\">\n"
	    "<tr><th>Table</th>"
	    "<th>Game</th><th>Seats (place)</th><th>Log</th></tr>\n");
	for (i = 0; i < rc->n; i++) {
		idx = (rc->head - 1 - i + RECENT_MAX) % RECENT_MAX;
		g = &rc->g[idx];
		fprintf(fp, "<tr><td>%ld</td><td>%ld</td><td>", g->table,
		    g->game);
		for (s = 0; s < g->k; s++) {
			if (s > 0)
				fputs(", ", fp);
			html_esc(fp, g->bots[s]);
			fprintf(fp, " (%d)", g->places[s]);
		}
		fputs("</td><td>", fp);
		if (g->log != NULL && stat(g->path, &sb) == -1)
			fputs("<span class=\"why\">log not found</span>", fp);
		else if (g->log != NULL) {
			fputs("<a href=\"", fp);
			html_esc(fp, g->log);
			fputs("\">log</a>", fp);
			snprintf(path, sizeof path, "%s.html", g->path);
			if (stat(path, &sb) == 0) {
				fputs(" <a class=\"replay\" href=\"", fp);
				html_esc(fp, g->log);
				fputs(".html", fp);
				if ((step = replay_game_step(g->path,
				    g->game)) >= 0)
					fprintf(fp, "#step=%ld", step);
				fputs("\">replay</a>", fp);
			}
		} else if (g->why != NULL) {
			fputs("<span class=\"why\">", fp);
			html_esc(fp, g->why);
			fputs("</span>", fp);
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

/* One self-contained HTML page. */
static int
html(FILE *fp, const struct report *rp)
{
	const struct rating *r = rp->r;
	const struct rplayer *p;
	double s, wab, wba;
	char buf[256];
	long met;
	int i, j, a, b, flagged = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>", fp);
	html_esc(fp, rp->title != NULL ? rp->title : "cardarena ratings");
	fputs("</title>\n<style>\n"
	    "body{font-family:sans-serif;margin:2em;color:#123}\n"
	    "table{border-collapse:collapse;margin:1em 0}\n"
	    "td,th{padding:.2em .6em;border-bottom:1px solid #ddd;"
	    "text-align:right}\n"
	    "td:nth-child(2),th:nth-child(2){text-align:left}\n"
	    ".h2h td{text-align:center}\n.flag{color:#c33}\n"
	    ".games td,.games th{text-align:left}\n"
	    ".h2h td.self{background:#ccc}\nnav a{margin-right:1.2em}\n"
	    ".h2h td.nm,.why{color:#888;font-size:smaller}\n"
	    "</style>\n</head>\n<body>\n", fp);
	if (rp->nav != NULL)
		fputs(rp->nav, fp);
	fputs("<h1>", fp);
	html_esc(fp, rp->title != NULL ? rp->title : "cardarena ratings");
	fprintf(fp, "</h1>\n<p>%ld games, %d players. Elo scale (400 log10), "
	    "pool mean %.0f%s; ± is the 95%% interval from %d bootstrap "
	    "resamples of whole duplicate blocks.</p>\n", r->games, r->n,
	    r->opts.mean, r->opts.anchor != NULL ? " (anchored)" : "",
	    r->opts.boot);
	svg_chart(fp, r);
	fputs("<table>\n<tr><th>Rank</th><th>Name</th><th>Elo</th>"
	    "<th>±</th><th>Games</th><th>Score %</th><th>Place</th>"
	    "<th>1st %</th><th>Timeouts</th><th>Crashes</th>"
	    "<th>Illegal</th><th>Limits</th><th>LOS next</th></tr>\n", fp);
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		flagged |= p->flag;
		fprintf(fp, "<tr><td>%d%s</td><td>", p->rank,
		    p->flag ? "<span class=\"flag\">*</span>" : "");
		html_esc(fp, p->name);
		fprintf(fp, "</td><td>%.0f</td><td>", p->elo);
		num(fp, 0, p->pm);
		fprintf(fp, "</td><td>%ld</td><td>", p->games);
		results_cols(fp, p, 1, "</td><td>");
		fprintf(fp, "</td><td>%ld</td><td>%ld</td><td>%ld</td><td>%ld"
		    "</td><td>", p->faults[TF_TIMEOUT], p->faults[TF_CRASH],
		    p->faults[TF_ILLEGAL], p->faults[TF_LIMIT]);
		losnum(fp, p->los_next);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (flagged)
		fputs("<p><span class=\"flag\">*</span> won or lost every "
		    "pairing: the rating rests on the prior.</p>\n", fp);
	for (i = 0; i < r->n; i++) {
		p = &r->p[r->order[i]];
		if (!fault_part(p, buf, sizeof buf))
			continue;
		fputs("<p class=\"faults\">", fp);
		html_esc(fp, p->name);
		fputs(": ", fp);
		html_esc(fp, buf);
		fputs("</p>\n", fp);
	}
	if (r->n > 1) {
		fputs("<h2>Head to head</h2>\n<p>Pairwise score of the row "
		    "against the column, %, and their games together on "
		    "hovering; grey: the bot itself.</p>\n<table class=\"h2h\">\n"
		    "<tr><th></th><th></th>", fp);
		for (j = 0; j < r->n; j++) {
			fputs("<th>", fp);
			html_esc(fp, r->p[r->order[j]].name);
			fputs("</th>", fp);
		}
		fputs("</tr>\n", fp);
		for (i = 0; i < r->n; i++) {
			a = r->order[i];
			fprintf(fp, "<tr><td>%d</td><td>", i + 1);
			html_esc(fp, r->p[a].name);
			fputs("</td>", fp);
			for (j = 0; j < r->n; j++) {
				b = r->order[j];
				if (a == b) {
					fputs("<td class=\"self\"></td>", fp);
					continue;
				}
				if ((met = rate_pair(r, a, b, &wab,
				    &wba)) == 0) {
					fputs("<td class=\"nm\">never met</td>",
					    fp);
					continue;
				}
				s = pct(wab, wab + wba);
				fprintf(fp, "<td style=\"background:hsl(%.0f,"
				    "60%%,85%%)\" title=\"%ld games\">%.1f"
				    "</td>", s * 1.2, met, s);
			}
			fputs("</tr>\n", fp);
		}
		fputs("</table>\n", fp);
	}
	recent_html(fp, rp);
	fputs("</body>\n</html>\n", fp);
	return 0;
}

/* Keeps a finished game among the recent ones (a bounded ring). */
void
recent_add(struct recent *rc, const struct jgame *g, const char *log,
    const char *path)
{
	struct recent_game *e = &rc->g[rc->head];
	int s;

	for (s = 0; s < e->k; s++)
		free(e->bots[s]);
	free(e->log);
	free(e->path);
	e->table = g->table;
	e->game = g->game;
	e->k = g->k;
	for (s = 0; s < g->k; s++) {
		e->bots[s] = xstrdup(g->bots[s]);
		e->places[s] = g->places[s];
	}
	e->log = log != NULL ? xstrdup(log) : NULL;
	e->path = path != NULL ? xstrdup(path) : NULL;
	e->why = NULL;
	rc->head = (rc->head + 1) % RECENT_MAX;
	if (rc->n < RECENT_MAX)
		rc->n++;
}

/* Frees the recent games. */
void
recent_free(struct recent *rc)
{
	int i, s;

	for (i = 0; i < RECENT_MAX; i++) {
		for (s = 0; s < rc->g[i].k; s++)
			free(rc->g[i].bots[s]);
		free(rc->g[i].log);
		free(rc->g[i].path);
	}
	memset(rc, 0, sizeof *rc);
}
