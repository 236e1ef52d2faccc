/*
 * The speculation table: the deal, its dealer, trump and the phase; the
 * highest face-up card and its holder, the pool; the seats as rows
 * (counters, face-down cards, how each was bought, out); the auction under
 * way; the discards; how the last deal ended.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

static void	 put_head(struct draw *);
static void	 put_seats(struct draw *);
static void	 put_auction(struct draw *);
static char	*bought_text(struct draw *, const json_t *);

/* The deal, dealer, trump, phase; the high card, the pool, the turns. */
static void
put_head(struct draw *d)
{
	const char *phase = json_string_value(draw_get(d, "phase")), *what;
	const json_t *ld = draw_get(d, "last_deal");

	draw_hide(d, "seat", "deal", "deals", "dealer", "turn", "trump",
	    "high", "holder", "pool", "ante", "widow", "turns", "max_turns",
	    "capped", NULL);
	if (phase == NULL)
		phase = "?";
	if (strcmp(phase, "trump") == 0)
		what = "keep or auction the trump card";
	else if (strcmp(phase, "turn") == 0)
		what = "auction face-down cards, turn one up or pass";
	else if (strcmp(phase, "found") == 0)
		what = "keep or auction the new highest card";
	else if (strcmp(phase, "auction") == 0)
		what = "an auction of their cards";
	else
		what = NULL;
	if (what != NULL)
		draw_line(d, "Speculation, deal %lld of %lld (dealer %s): %s: %s",
		    draw_int(d->view, "deal", 0), draw_int(d->view, "deals", 0),
		    draw_who(d, draw_int(d->view, "dealer", -1)), draw_who(d,
		    draw_int(d->view, "turn", -1)), what);
	else
		draw_line(d, "Speculation, deal %lld of %lld: %s",
		    draw_int(d->view, "deal", 0), draw_int(d->view, "deals", 0),
		    strcmp(phase, "over") == 0 ? "the game is over" : phase);
	draw_line(d, "trump %s   highest face-up card %s, held by %s   pool %lld",
	    draw_suit(d, json_string_value(json_object_get(d->view, "trump"))),
	    draw_card(d, json_object_get(d->view, "high")), draw_whoj(d,
	    json_object_get(d->view, "holder")), draw_int(d->view, "pool", 0));
	draw_line(d, "turns %lld (at most %lld)   ante %lld   widow: %lld "
	    "cards face down", draw_int(d->view, "turns", 0),
	    draw_int(d->view, "max_turns", 0), draw_int(d->view, "ante", 0),
	    draw_int(d->view, "widow", 0));
	if (json_is_object(ld))
		draw_line(d, "last deal (%lld): %s won %lld with %s (%s)%s",
		    draw_int(ld, "deal", 0), draw_whoj(d, json_object_get(ld,
		    "winner")), draw_int(ld, "amount", 0), draw_card(d,
		    json_object_get(ld, "card")), json_string_value(
		    json_object_get(ld, "end")) != NULL ? json_string_value(
		    json_object_get(ld, "end")) : "?", json_is_true(
		    json_object_get(ld, "carried")) ? draw_fmt(d, "; the widow "
		    "%s beat it: the pool carried over", draw_cards(d,
		    json_object_get(ld, "widow"))) : "");
}

/* Returns how a seat's face-down cards came: "#2 from seat 0 for 4". */
static char *
bought_text(struct draw *d, const json_t *bought)
{
	const json_t *b;
	char *t = NULL;
	size_t i;

	json_array_foreach(bought, i, b) {
		if (!json_is_object(b))
			continue;
		t = draw_fmt(d, "%s%s#%zu from %s for %lld%s", t != NULL ? t :
		    "", t != NULL ? "; " : "", i, draw_whoj(d,
		    json_object_get(b, "from")), draw_int(b, "price", 0),
		    draw_int(b, "cards", 1) > 1 ? draw_fmt(d, " (%lld cards)",
		    draw_int(b, "cards", 1)) : "");
	}
	return t;
}

/* The seats: counters, face-down cards (or the cards, all-seeing). */
static void
put_seats(struct draw *d)
{
	const json_t *ps = draw_get(d, "players"), *p, *hands =
	    draw_get(d, "hands"), *out;
	char *head, *bt;
	size_t i;

	draw_line(d, "%s", "");
	draw_line(d, "seat               counters  face down");
	json_array_foreach(ps, i, p) {
		out = json_object_get(p, "out");
		head = draw_fmt(d, "%s %8lld  ", draw_pad(d, draw_fmt(d,
		    "seat %zu%s%s", i, (int)i == d->seat ? " (you)" : "",
		    draw_int(d->view, "holder", -1) == (long long)i ?
		    " high" : ""), 18), draw_int(p, "counters", 0));
		if (json_is_integer(out)) {
			draw_line(d, "%sout since deal %lld", head, (long long)
			    json_integer_value(out));
			continue;
		}
		if (json_array_get(hands, i) != NULL)
			head = draw_fmt(d, "%s%s", head, draw_cards(d,
			    json_array_get(hands, i)));
		else
			head = draw_fmt(d, "%s%lld", head, draw_int(p,
			    "face_down", 0));
		if ((bt = bought_text(d, json_object_get(p, "bought"))) ==
		    NULL)
			draw_line(d, "%s", head);
		else
			draw_wrap(d, draw_fmt(d, "%s  bought: ", head), bt,
			    "; ");
	}
}

/* The auction under way and the lot being formed. */
static void
put_auction(struct draw *d)
{
	const json_t *a = draw_get(d, "auction"), *lot = draw_get(d, "lot"),
	    *off = draw_get(d, "offered");
	const char *item;

	if (json_array_size(off) > 0)
		draw_line(d, "offered this turn: positions %s", draw_cards(d,
		    off));
	if (json_array_size(lot) > 0)
		draw_line(d, "the lot being formed: positions %s", draw_cards(d,
		    lot));
	if (!json_is_object(a))
		return;
	item = json_string_value(json_object_get(a, "item"));
	draw_line(d, "auction: %s sells %s, minimum %lld", draw_whoj(d,
	    json_object_get(a, "seller")), item != NULL && strcmp(item,
	    "face_up") == 0 ? draw_fmt(d, "the face-up %s", draw_card(d,
	    json_object_get(a, "card"))) : draw_fmt(d, "face-down position(s) "
	    "%s", draw_cards(d, json_object_get(a, "positions"))),
	    draw_int(a, "min", 0));
	draw_line(d, "  %s; next bid at least %lld; %s to bid; still in: %s",
	    draw_int(a, "high", 0) > 0 ? draw_fmt(d, "high bid %lld by %s",
	    draw_int(a, "high", 0), draw_whoj(d, json_object_get(a,
	    "high_bidder"))) : "no bid yet", draw_int(a, "next_min", 0),
	    draw_whoj(d, json_object_get(a, "turn")), draw_cards(d,
	    json_object_get(a, "in")));
}

void
draw_speculation(struct draw *d)
{
	put_head(d);
	put_seats(d);
	put_auction(d);
	draw_wrap(d, "discards this deal: ", draw_cards(d, draw_get(d,
	    "discards")), " ");
}
