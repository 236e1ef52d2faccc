/*
 * The drawn tables: render_table picks the game's drawer (<game>.c), which
 * draws its view as a person would see the table with the helpers of
 * draw.c, then lists whatever of the view it did not draw (the
 * all-seeing view's hidden parts, fields a later version adds) as
 * render_view would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "card.h"
#include "draw.h"
#include "render.h"

static const struct {
	const char	*game;
	void		(*draw)(struct draw *);
} drawers[] = {
	{ "horserace", draw_horserace },
	{ "nyse", draw_nyse },
	{ "stocks", draw_stocks },
	{ "speculation", draw_speculation },
	{ "daifugo", draw_daifugo },
};

static int	 is_cards(const json_t *);
static void	 leftover(struct draw *, const char *, const json_t *);

/* Draws view as game's table, or as render_view for an unknown game. */
void
render_table(FILE *fp, const char *game, const json_t *view, int indent,
    int players)
{
	struct draw d;
	const char *k;
	json_t *x;
	size_t i;

	for (i = 0; i < sizeof drawers / sizeof drawers[0]; i++)
		if (game != NULL && strcmp(game, drawers[i].game) == 0)
			break;
	if (i == sizeof drawers / sizeof drawers[0] ||
	    !json_is_object(view)) {
		render_view(fp, view, indent, players);
		return;
	}
	memset(&d, 0, sizeof d);
	d.fp = fp;
	d.view = view;
	d.shown = json_object();
	d.indent = indent;
	d.players = players;
	x = json_object_get(view, "seat");
	d.seat = json_is_integer(x) ? (int)json_integer_value(x) : -1;
	drawers[i].draw(&d);
	json_object_foreach((json_t *)view, k, x)
		if (json_object_get(d.shown, k) == NULL)
			leftover(&d, k, x);
	json_decref(d.shown);
	for (i = 0; i < d.nstr; i++)
		free(d.str[i]);
	free(d.str);
}

/* Is j a non-empty array of card names? */
static int
is_cards(const json_t *j)
{
	const json_t *c;
	size_t i;

	if (json_array_size(j) == 0)
		return 0;
	json_array_foreach(j, i, c)
		if (card_from_json(c) == -1)
			return 0;
	return 1;
}

/*
 * Lists key k of the view, not drawn, as render_view would, a line too
 * wide for the table cut between its cards or its items.
 */
static void
leftover(struct draw *d, const char *k, const json_t *x)
{
	char *buf = NULL, *head;
	size_t len = 0;
	FILE *fp;

	if (is_cards(x)) {
		draw_wrap(d, draw_fmt(d, "%s: ", k), draw_cards(d, x), " ");
		return;
	}
	if ((fp = open_memstream(&buf, &len)) == NULL)
		abort();
	render_view_key(fp, k, x, 0, d->players);
	fclose(fp);
	draw_own(d, buf);
	head = draw_fmt(d, "%s: ", k);
	if (strchr(buf, '\n') == buf + len - 1 && strncmp(buf, head,
	    strlen(head)) == 0 && d->indent + draw_width(buf) > DRAW_WIDTH) {
		buf[len - 1] = '\0';
		draw_wrap(d, head, buf + strlen(head), ", ");
		return;
	}
	render_view_key(d->fp, k, x, d->indent, d->players);
}

