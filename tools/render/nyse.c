/*
 * The nyse table: the turn and its phase, the valuation board with each
 * colour's marker on it, then the companies as rows (value, chips left in
 * the pile, discarded, specials used) against the seats as columns (chips
 * held of each colour), each seat's chips and worth at today's values;
 * the marks of the chips the view shows, the swap under way, the
 * solitaire's specials.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

static const char *const colours[] = { "blue", "black", "red", "green" };
static const char *const marks[] = { "plain", "speculate", "invest",
    "swap" };

static void	 put_head(struct draw *);
static void	 put_board(struct draw *);
static void	 put_companies(struct draw *);
static char	*marks_text(struct draw *, const json_t *);
static void	 put_marks(struct draw *);
static void	 put_swap(struct draw *);

/* The turn, who plays and what the phase asks. */
static void
put_head(struct draw *d)
{
	const char *phase = json_string_value(draw_get(d, "phase"));
	const json_t *r = json_object_get(d->view, "request");
	char *who = draw_who(d, draw_int(d->view, "turn", -1)), *what;

	draw_hide(d, "game", "players", "seat", "turn", "turns", "takes_left",
	    "capped", NULL);
	if (phase == NULL)
		phase = "?";
	if (strcmp(phase, "turn") == 0)
		what = draw_fmt(d, "%s to play: take, discard or use a special",
		    who);
	else if (strcmp(phase, "invest") == 0)
		what = draw_fmt(d, "%s takes %lld more chip(s) (invest)", who,
		    draw_int(d->view, "takes_left", 0));
	else if (strcmp(phase, "answer") == 0)
		what = draw_fmt(d, "%s answers %s's swap", draw_whoj(d,
		    json_object_get(r, "target")), who);
	else if (strcmp(phase, "swap") == 0)
		what = draw_fmt(d, "%s asks again (swap answered none)", who);
	else if (strcmp(phase, "over") == 0)
		what = draw_fmt(d, "the game is over");
	else
		what = draw_fmt(d, "%s: %s", phase, who);
	draw_line(d, "NYSE, turn %lld: %s", draw_int(d->view, "turns", 0),
	    what);
}

/* The board: positions A..L, their values, each colour's marker. */
static void
put_board(struct draw *d)
{
	const json_t *board = draw_get(d, "board"), *mk = draw_get(d,
	    "markers"), *m;
	const char *pos, *dot = draw_sym("\u00b7", "."), *at =
	    draw_sym("\u25cf", "*");
	char *row;
	size_t i, j;

	draw_line(d, "%s", "");
	row = draw_fmt(d, "board ");
	for (j = 0; j < 12; j++)
		row = draw_fmt(d, "%s  %c", row, (char)('A' + j));
	draw_line(d, "%s", row);
	row = draw_fmt(d, "value ");
	for (j = 0; j < 12; j++)
		row = draw_fmt(d, "%s %2lld", row, draw_at(board, j / 2, 0));
	draw_line(d, "%s", row);
	for (i = 0; i < 4; i++) {
		m = json_object_get(mk, colours[i]);
		pos = json_string_value(json_object_get(m, "position"));
		row = draw_fmt(d, "%-6s", colours[i]);
		for (j = 0; j < 12; j++)
			row = draw_fmt(d, "%s  %s", row, pos != NULL &&
			    strlen(pos) == 1 && pos[0] == (char)('A' + j) ?
			    at : dot);
		if (json_is_true(json_object_get(m, "crashed")))
			row = draw_fmt(d, "%s  crashed: worth 0", row);
		else
			row = draw_fmt(d, "%s  worth %lld", row, draw_int(m,
			    "value", 0));
		draw_line(d, "%s", row);
	}
}

/* Companies as rows, seats as columns: what each holds; chips; worth. */
static void
put_companies(struct draw *d)
{
	const json_t *mk = json_object_get(d->view, "markers"), *supply =
	    draw_get(d, "supply"), *disc = draw_get(d, "discarded"), *used =
	    draw_get(d, "used"), *hold = draw_get(d, "holdings"), *h, *c,
	    *scores = draw_get(d, "scores"), *places = draw_get(d, "places");
	int n = (int)json_array_size(hold), w, s;
	long long worth, u;
	char *row;
	size_t i, j;

	/* columns of 4 to 8, as the width allows */
	w = n > 0 ? (DRAW_WIDTH - d->indent - 33) / n : 8;
	w = w > 8 ? 8 : w < 4 ? 4 : w;
	draw_line(d, "%s", "");
	row = draw_fmt(d, "colour  value  pile  disc  used |");
	for (s = 0; s < n; s++)
		row = draw_fmt(d, "%s%s", row, draw_pad(d, s == d->seat ?
		    "you" : w >= 7 ? draw_fmt(d, "seat %d", s) :
		    draw_fmt(d, "s%d", s), -w));
	draw_line(d, "%s", row);
	for (i = 0; i < 4; i++) {
		u = 0;
		for (j = 0; j < 4; j++)
			if (strcmp(marks[j], "plain") != 0)
				u += draw_int(json_object_get(used, colours[i]),
				    marks[j], 0);
		row = draw_fmt(d, "%-6s  %5lld  %4lld  %4lld  %4lld |",
		    colours[i], draw_int(json_object_get(mk, colours[i]),
		    "value", 0), draw_int(supply, colours[i], 0),
		    draw_int(disc, colours[i], 0), u);
		json_array_foreach(hold, j, h) {
			c = json_object_get(json_object_get(h, "colours"),
			    colours[i]);
			row = draw_fmt(d, "%s%s", row, draw_pad(d,
			    json_is_integer(c) ? draw_fmt(d, "%lld",
			    (long long)json_integer_value(c)) : "?", -w));
		}
		draw_line(d, "%s", row);
	}
	row = draw_fmt(d, "%-32s|", "chips held");
	json_array_foreach(hold, j, h)
		row = draw_fmt(d, "%s%s", row, draw_pad(d, draw_fmt(d, "%lld",
		    draw_int(h, "chips", 0)), -w));
	draw_line(d, "%s", row);
	row = draw_fmt(d, "%-32s|", scores != NULL ? "score (millions)" :
	    "worth now (millions)");
	json_array_foreach(hold, j, h) {
		worth = 0;
		for (i = 0; i < 4; i++)
			worth += draw_int(json_object_get(h, "colours"),
			    colours[i], 0) * draw_int(json_object_get(mk,
			    colours[i]), "value", 0);
		if (json_is_array(scores))
			worth = draw_at(scores, j, 0);
		row = draw_fmt(d, "%s%s", row, draw_pad(d,
		    json_is_array(scores) || json_object_get(h, "colours") !=
		    NULL ? draw_fmt(d, "%lld", worth) : "?", -w));
	}
	draw_line(d, "%s", row);
	if (json_is_array(places)) {
		row = draw_fmt(d, "%-32s|", "place");
		for (j = 0; j < json_array_size(places); j++)
			row = draw_fmt(d, "%s%s", row, draw_pad(d, draw_fmt(d,
			    "%lld", draw_at(places, j, 0)), -w));
		draw_line(d, "%s", row);
	}
}

/* Returns the marks of one seat's chips: "blue plain 1, green swap 1". */
static char *
marks_text(struct draw *d, const json_t *m)
{
	char *t = NULL;
	long long k;
	size_t i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			k = draw_int(json_object_get(m, colours[i]), marks[j],
			    0);
			if (k > 0)
				t = draw_fmt(d, "%s%s%s %s %lld", t != NULL ?
				    t : "", t != NULL ? ", " : "", colours[i],
				    marks[j], k);
		}
	return t != NULL ? t : draw_fmt(d, "none");
}

/* The marks of the chips this view shows (yours; everyone's in a log). */
static void
put_marks(struct draw *d)
{
	const json_t *hold = json_object_get(d->view, "holdings"), *h, *m;
	size_t s;

	json_array_foreach(hold, s, h) {
		if ((m = json_object_get(h, "marks")) == NULL)
			continue;
		draw_wrap(d, (int)s == d->seat ? "your chips: " : draw_fmt(d,
		    "seat %zu's chips: ", s), marks_text(d, m), ", ");
	}
}

/* The swap under way, this turn's refusals, the solitaire's specials. */
static void
put_swap(struct draw *d)
{
	const json_t *r = draw_get(d, "request"), *c = draw_get(d,
	    "committed"), *ref = draw_get(d, "refused"), *sp =
	    draw_get(d, "specials"), *f = draw_get(d, "forced"), *x;
	const char *gc, *gm;
	char *t = NULL;
	size_t i;

	if (json_is_object(r)) {
		gc = json_string_value(json_object_get(r, "give_colour"));
		gm = json_string_value(json_object_get(r, "give_mark"));
		draw_line(d, "swap: %s gives a %s chip%s%s%s%s for one of %s's "
		    "%s chips", draw_whoj(d, json_object_get(r, "player")),
		    gc != NULL ? gc : "(unseen)", gm != NULL ? " (" : "",
		    gm != NULL ? gm : "", gm != NULL ? ")" : "",
		    draw_fmt(d, ", with a %s swap chip", json_string_value(
		    json_object_get(r, "chip")) != NULL ? json_string_value(
		    json_object_get(r, "chip")) : "?"),
		    draw_whoj(d, json_object_get(r, "target")),
		    json_string_value(json_object_get(r, "colour")) != NULL ?
		    json_string_value(json_object_get(r, "colour")) : "?");
	} else if (json_is_object(c))
		draw_line(d, "swap: %s committed a %s swap chip",
		    draw_whoj(d, json_object_get(c, "player")),
		    json_string_value(json_object_get(c, "chip")) != NULL ?
		    json_string_value(json_object_get(c, "chip")) : "?");
	json_array_foreach(ref, i, x)
		t = draw_fmt(d, "%s%s%s had no %s", t != NULL ? t : "",
		    t != NULL ? "; " : "", draw_whoj(d, json_object_get(x,
		    "target")), json_string_value(json_object_get(x,
		    "colour")) != NULL ? json_string_value(json_object_get(x,
		    "colour")) : "?");
	if (t != NULL)
		draw_wrap(d, "refused this turn: ", t, "; ");
	t = NULL;
	json_array_foreach(sp, i, x)
		t = draw_fmt(d, "%s%s%s %s", t != NULL ? t : "", t != NULL ?
		    ", " : "", draw_str(x, "colour"), draw_str(x, "mark"));
	if (sp != NULL)
		draw_wrap(d, "your specials (oldest first): ", t != NULL ? t :
		    "none", ", ");
	if (json_is_object(f))
		draw_line(d, "you must use now: %s %s", draw_str(f, "colour"),
		    draw_str(f, "mark"));
}

void
draw_nyse(struct draw *d)
{
	put_head(d);
	put_board(d);
	put_companies(d);
	put_marks(d);
	put_swap(d);
}
