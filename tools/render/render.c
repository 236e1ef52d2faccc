/*
 * The terminal renderer of bin/replay and bin/human: draws views, actions
 * and events as readable text, cards with their suit symbols (red hearts
 * and diamonds on a colour terminal), one line per seat, money as plain
 * numbers.  render_view knows no game: every game's view is a JSON
 * object, drawn by its shape; render_table (draw.c) draws the known games'
 * tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "card.h"
#include "draw.h"
#include "render.h"

static int	tr_colour;	/* ANSI colours */
static int	tr_utf8 = 1;	/* suit symbols rather than letters */
static int	render_full;	/* every frame's whole view, not changes */

static int	is_card_list(const json_t *);
static int	is_flat(const json_t *);
static int	is_scalars(const json_t *);
static void	put_scalar(FILE *, const json_t *);
static int	per_seat(const char *);
static void	put_block(FILE *, const json_t *, int, int);

/* Chooses colours, suit symbols and whole views for what follows. */
void
render_init(int colour, int utf8, int full)
{
	tr_colour = colour;
	tr_utf8 = utf8;
	render_full = full;
}

/* Is j a non-empty array of card names? */
static int
is_card_list(const json_t *j)
{
	size_t i;
	json_t *v;

	if (!json_is_array(j) || json_array_size(j) == 0)
		return 0;
	json_array_foreach(j, i, v)
		if (card_from_json(v) == -1)
			return 0;
	return 1;
}

/*
 * Is j drawn on one line: a scalar, an array of scalars, or an object of at
 * most twelve keys whose values are scalars, arrays of scalars or small
 * objects of scalars?
 */
static int
is_flat(const json_t *j)
{
	const char *k;
	json_t *v, *x;
	size_t i;

	if (json_is_array(j)) {
		json_array_foreach(j, i, x)
			if (json_is_array(x) || json_is_object(x))
				return 0;
		return 1;
	}
	if (!json_is_object(j))
		return 1;
	if (json_object_size(j) > 12)
		return 0;
	json_object_foreach((json_t *)j, k, v) {
		if (json_is_array(v) && !is_flat(v))
			return 0;
		if (json_is_object(v) && (json_object_size(v) > 6 ||
		    !is_scalars(v)))
			return 0;
	}
	return 1;
}

/* Is j an object whose values are all scalars? */
static int
is_scalars(const json_t *j)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)j, k, v)
		if (json_is_object(v) || json_is_array(v))
			return 0;
	return 1;
}

/* Writes one card: rank and suit symbol, red in colour for H and D. */
void
render_card(FILE *fp, const char *name)
{
	static const char *const sym[] = { "\u2660", "\u2665", "\u2666",
	    "\u2663" };
	int c, red;

	if ((c = card_parse(name)) == -1) {
		fputs(name, fp);
		return;
	}
	if (IS_JOKER(c)) {
		fputs(tr_colour ? "\033[35mJK\033[0m" : "JK", fp);
		return;
	}
	red = CARD_SUIT(c) == HEARTS || CARD_SUIT(c) == DIAMONDS;
	if (tr_colour && red)
		fputs("\033[31m", fp);
	if (CARD_RANK(c) == 9)
		fputs("10", fp);
	else
		fputc(name[0], fp);
	if (tr_utf8)
		fputs(sym[CARD_SUIT(c)], fp);
	else
		fputc(name[1], fp);
	if (tr_colour && red)
		fputs("\033[0m", fp);
}

/* Writes a number, string (a card drawn as one), boolean or null. */
static void
put_scalar(FILE *fp, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		render_card(fp, json_string_value(v));
		break;
	case JSON_INTEGER:
		fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		fprintf(fp, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
		fputs("yes", fp);
		break;
	case JSON_FALSE:
		fputs("no", fp);
		break;
	default:
		fputs("-", fp);
		break;
	}
}

/* Writes any value on one line: cards as "K♣ 9♠", objects as "k v, k v". */
void
render_inline(FILE *fp, const json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;
	int first = 1, cards;

	if (json_is_array(v)) {
		if (json_array_size(v) == 0) {
			fputs("-", fp);
			return;
		}
		cards = is_card_list(v);
		if (!cards)
			fputc('[', fp);
		json_array_foreach(v, i, x) {
			if (i > 0)
				fputs(cards ? " " : ", ", fp);
			render_inline(fp, x);
		}
		if (!cards)
			fputc(']', fp);
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x) {
			fprintf(fp, "%s%s ", first ? "" : ", ", k);
			first = 0;
			if (json_is_object(x)) {
				fputc('{', fp);
				render_inline(fp, x);
				fputc('}', fp);
			} else
				render_inline(fp, x);
		}
	} else
		put_scalar(fp, v);
}

/*
 * Writes one key of an object as indented lines: a flat value on the key's
 * line, a per-seat array ("players", "hands"...) a "seat N" line each.
 */
void
render_view_key(FILE *fp, const char *k, const json_t *x, int indent,
    int players)
{
	json_t *y;
	size_t i;

	fprintf(fp, "%*s%s:", indent, "", k);
	if (is_flat(x) || is_card_list(x)) {
		fputc(' ', fp);
		render_inline(fp, x);
		fputc('\n', fp);
	} else if (json_is_array(x)) {
		fputc('\n', fp);
		json_array_foreach(x, i, y) {
			if (json_array_size(x) == (size_t)players &&
			    per_seat(k))
				fprintf(fp, "%*sseat %zu: ", indent + 2, "", i);
			else
				fprintf(fp, "%*s- ", indent + 2, "");
			if (json_is_object(y) && !is_flat(y)) {
				fputc('\n', fp);
				put_block(fp, y, indent + 4, players);
			} else {
				render_inline(fp, y);
				fputc('\n', fp);
			}
		}
	} else {
		fputc('\n', fp);
		put_block(fp, x, indent + 2, players);
	}
}

/* Does an array under key k hold one entry per seat (by the views' names)? */
static int
per_seat(const char *k)
{
	static const char *const keys[] = { "players", "seats", "hands",
	    "holdings", "played", "chips", "hand_sizes", "points",
	    "deal_points", "classes", "marks", NULL };
	int i;

	for (i = 0; keys[i] != NULL; i++)
		if (strcmp(k, keys[i]) == 0)
			return 1;
	return 0;
}

/* Writes every key of an object as indented lines. */
static void
put_block(FILE *fp, const json_t *v, int indent, int players)
{
	const char *k;
	json_t *x;

	json_object_foreach((json_t *)v, k, x)
		render_view_key(fp, k, x, indent, players);
}

/* Writes the keys of view that differ from prev (a removed key as "-"). */
void
render_view_changes(FILE *fp, const json_t *prev, const json_t *view,
    int indent, int players)
{
	const char *k;
	json_t *x;

	if (!json_is_object(prev) || !json_is_object(view)) {
		render_view(fp, view, indent, players);
		return;
	}
	json_object_foreach((json_t *)view, k, x)
		if (!json_equal(x, json_object_get(prev, k)))
			render_view_key(fp, k, x, indent, players);
	json_object_foreach((json_t *)prev, k, x)
		if (json_object_get(view, k) == NULL)
			fprintf(fp, "%*s%s: -\n", indent, "", k);
}

/* Writes a view (any JSON object) as indented lines. */
void
render_view(FILE *fp, const json_t *view, int indent, int players)
{
	if (json_is_object(view))
		put_block(fp, view, indent, players);
	else {
		fprintf(fp, "%*s", indent, "");
		render_inline(fp, view);
		fputc('\n', fp);
	}
}

/*
 * Writes an action or event on one line: its "type" (or "action") first,
 * then the other keys ("bet: kind win, suits [D], amount 5").
 */
void
render_action(FILE *fp, const json_t *a)
{
	const char *k, *type, *head, *sep = "";
	json_t *x;

	if (!json_is_object(a)) {
		render_inline(fp, a);
		return;
	}
	head = "type";
	if ((type = json_string_value(json_object_get(a, head))) == NULL)
		type = json_string_value(json_object_get(a, head = "action"));
	if (type != NULL) {
		fputs(type, fp);
		sep = ": ";
	}
	json_object_foreach((json_t *)a, k, x) {
		if (type != NULL && strcmp(k, head) == 0)
			continue;
		fprintf(fp, "%s%s ", sep, k);
		sep = ", ";
		render_inline(fp, x);
	}
}

/* Returns an action or event as a new one-line string (labels, HTML). */
char *
render_action_text(const json_t *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int colour = tr_colour;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		return xstrdup("?");
	tr_colour = 0;
	render_action(fp, a);
	tr_colour = colour;
	fclose(fp);
	return buf;
}

/* Are suits drawn as symbols? */
int
render_utf8(void)
{
	return tr_utf8;
}

/* Are colours on? */
int
render_colour(void)
{
	return tr_colour;
}

/* Is every frame drawn whole (not as changes)? */
int
render_whole(void)
{
	return render_full;
}
