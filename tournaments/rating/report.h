/*
 * The rating reports (report.c): the table in text, CSV, JSON, Markdown
 * and HTML, with the recent games.
 */
#ifndef CARDARENA_RATING_REPORT_H
#define CARDARENA_RATING_REPORT_H

#include <stdio.h>

#include "game.h"

struct jgame;
struct rating;

enum report_fmt {
	FMT_TEXT,
	FMT_CSV,
	FMT_JSON,
	FMT_MD,
	FMT_HTML
};

/* Recent games kept for the HTML report (a bounded ring). */
#define RECENT_MAX	200
struct recent {
	struct recent_game {
		long	 table, game;
		int	 k;
		char	*bots[MAX_PLAYERS];
		int	 places[MAX_PLAYERS];
		char	*log;		/* the link, from the report's place */
		char	*path;		/* the file, from where we run */
		const char *why;	/* no log linked: why (static) */
	}	 g[RECENT_MAX];
	int	 n, head;
};

struct report {
	const struct rating	*r;
	const char		*title;
	const struct recent	*recent;	/* or NULL */
	int			 color;		/* text: terminal colours */
	int			 top;		/* text: only the first rows; 0 all */
	int			 nogrid;	/* text: a note for the head-to-head
						 * grid (n * n cells) */
	const char		*nav;		/* html: links atop the page */
};

int	 report_fmt(const char *, enum report_fmt *);
/* Writes s with HTML's special characters escaped. */
void	 html_esc(FILE *, const char *);
/* A round step for the ticks of an axis spanning span: 4 to 10 ticks. */
double	 axis_step(double span);
/* Writes the report in a format; -1 and a cause on a write error. */
int	 report_write(FILE *, const struct report *, enum report_fmt,
	    char *, size_t);
/* Keeps a game; log is its link, path where its log is from here. */
void	 recent_add(struct recent *, const struct jgame *, const char *log,
	    const char *path);
void	 recent_free(struct recent *);

#endif
