/*
 * The daifugo table: the deal, the phase and the order in force; the
 * combination to beat and who passed; the seats in seating order
 * (clockwise) with their class, cards in hand, points and the cards they
 * played this deal; your hand and your exchange.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

static void	 put_head(struct draw *);
static void	 put_seats(struct draw *);
static void	 put_exchange(struct draw *, const char *, const json_t *);
static int	 in(const json_t *, long long);

/* Does array a hold the integer v? */
static int
in(const json_t *a, long long v)
{
	size_t i;

	for (i = 0; i < json_array_size(a); i++)
		if (draw_at(a, i, -1) == v)
			return 1;
	return 0;
}

/* The deal, the phase, the order; the combination to beat. */
static void
put_head(struct draw *d)
{
	const char *phase = json_string_value(draw_get(d, "phase"));
	const json_t *t = draw_get(d, "table"), *passed = draw_get(d,
	    "passed"), *x;
	char *who = NULL;
	size_t i;

	draw_hide(d, "seat", "deal", "deals", "turn", "revolution", "coup",
	    "order", "first_play", "waiting", "capped", NULL);
	if (phase == NULL)
		phase = "?";
	if (strcmp(phase, "play") == 0)
		draw_line(d, "Daifugo, deal %lld of %lld: %s to play%s",
		    draw_int(d->view, "deal", 0), draw_int(d->view, "deals", 0),
		    draw_who(d, draw_int(d->view, "turn", -1)),
		    json_is_true(json_object_get(d->view, "first_play")) ?
		    " (the first play must hold 3\u2666)" : "");
	else if (strcmp(phase, "exchange") == 0)
		draw_line(d, "Daifugo, deal %lld of %lld: the exchange of cards",
		    draw_int(d->view, "deal", 0), draw_int(d->view, "deals", 0));
	else
		draw_line(d, "Daifugo, deal %lld of %lld: %s", draw_int(d->view,
		    "deal", 0), draw_int(d->view, "deals", 0),
		    strcmp(phase, "over") == 0 ? "the game is over" : phase);
	draw_line(d, "order: %s%s%s", json_string_value(json_object_get(
	    d->view, "order")) != NULL ? json_string_value(json_object_get(
	    d->view, "order")) : "?", json_is_true(json_object_get(d->view,
	    "revolution")) ? " (revolution)" : "", json_is_true(
	    json_object_get(d->view, "coup")) ? " (coup: J played)" : "");
	if (json_is_object(t))
		draw_line(d, "to beat: %s  (%s of %lld, played by %s)",
		    draw_cards(d, json_object_get(t, "cards")),
		    json_string_value(json_object_get(t, "kind")) != NULL ?
		    json_string_value(json_object_get(t, "kind")) : "?",
		    draw_int(t, "count", 0), draw_whoj(d, json_object_get(t,
		    "player")));
	else if (strcmp(phase, "play") == 0)
		draw_line(d, "to beat: nothing (a new trick, led by %s)",
		    draw_who(d, draw_int(d->view, "turn", -1)));
	json_array_foreach(passed, i, x)
		who = draw_fmt(d, "%s%s%s", who != NULL ? who : "", who !=
		    NULL ? ", " : "", draw_whoj(d, x));
	if (who != NULL)
		draw_line(d, "passed: %s", who);
}

/* The seats in seating order: class, cards held, points, played. */
static void
put_seats(struct draw *d)
{
	const json_t *seating = draw_get(d, "seating"), *classes =
	    draw_get(d, "classes"), *sizes = draw_get(d, "hand_sizes"),
	    *points = draw_get(d, "points"), *dp = draw_get(d, "deal_points"),
	    *played = draw_get(d, "played"), *fin = draw_get(d, "finished"),
	    *hands = draw_get(d, "hands"), *waiting =
	    json_object_get(d->view, "waiting"), *prev = draw_get(d,
	    "previous");
	const char *cl;
	char *head, *mark;
	long long s;
	size_t i, j;

	draw_line(d, "%s", "");
	draw_line(d, "   seat          class              cards  points  deal  "
	    "played this deal");
	for (i = 0; i < json_array_size(seating); i++) {
		s = draw_at(seating, i, -1);
		cl = json_string_value(json_array_get(classes, (size_t)s));
		mark = draw_fmt(d, "%s", draw_int(d->view, "turn", -1) == s ?
		    draw_sym("\u25b6", ">") : " ");
		for (j = 0; j < json_array_size(fin); j++)
			if (draw_at(fin, j, -1) == s)
				mark = draw_fmt(d, "%zu", j + 1);
		head = draw_fmt(d, "%s  %s %s %5lld  %6lld  %4lld  ",
		    draw_pad(d, mark, 1), draw_pad(d, draw_fmt(d, "seat %lld%s",
		    s, s == d->seat ? " (you)" : in(waiting, s) ? " ..." : ""),
		    13), draw_pad(d, cl != NULL ? cl : "?", 17), draw_at(sizes,
		    (size_t)s, 0), draw_at(points, (size_t)s, 0), draw_at(dp,
		    (size_t)s, 0));
		draw_wrap(d, head, draw_cards(d, json_array_get(played,
		    (size_t)s)), " ");
		if (json_array_get(hands, (size_t)s) != NULL)
			draw_wrap(d, "      hand: ", draw_cards(d,
			    json_array_get(hands, (size_t)s)), " ");
	}
	draw_line(d, "(clockwise; %s on turn, 1 2 ...: gone out in that order%s)",
	    draw_sym("\u25b6", ">"), json_array_size(waiting) > 0 ?
	    "; ...: still choosing" : "");
	if (json_is_array(prev)) {
		head = NULL;
		for (i = 0; i < json_array_size(prev); i++)
			head = draw_fmt(d, "%s%s%s", head != NULL ? head : "",
			    head != NULL ? ", " : "", draw_who(d, draw_at(prev,
			    i, -1)));
		draw_wrap(d, "last deal's order: ", head, ", ");
	}
}

/* One exchange: partner, count, rule, what was given and got. */
static void
put_exchange(struct draw *d, const char *head, const json_t *x)
{
	const json_t *gave = json_object_get(x, "gave"), *got =
	    json_object_get(x, "got");

	draw_line(d, "%s%lld card(s) with %s (%s)%s%s%s%s", head,
	    draw_int(x, "count", 0), draw_whoj(d, json_object_get(x,
	    "partner")), json_string_value(json_object_get(x, "rule")) !=
	    NULL ? json_string_value(json_object_get(x, "rule")) : "?",
	    json_is_array(gave) ? "; gave " : "", json_is_array(gave) ?
	    draw_cards(d, gave) : "", json_is_array(got) ? "; got " : "",
	    json_is_array(got) ? draw_cards(d, got) : "");
}

void
draw_daifugo(struct draw *d)
{
	const json_t *hand, *x, *xs;
	size_t i;

	put_head(d);
	put_seats(d);
	if ((hand = draw_get(d, "hand")) != NULL)
		draw_wrap(d, "your hand: ", draw_cards(d, hand), " ");
	if (json_is_object(x = draw_get(d, "exchange")))
		put_exchange(d, "your exchange: ", x);
	xs = draw_get(d, "exchanges");
	json_array_foreach(xs, i, x)
		put_exchange(d, draw_fmt(d, "exchange of %s: ", draw_whoj(d,
		    json_object_get(x, "player"))), x);
}
