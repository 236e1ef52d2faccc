/*
 * The stocks table: the turn and what it has done, the four companies as
 * rows (price, top card, limits, the price stack's last cards), the seats
 * as rows (money, debt, cards in hand, shares of each company, wealth),
 * the certificates, your hand, the stock and the discard pile.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define STACK_SHOWN	8	/* price cards shown, the top last */

static const char *const suits[] = { "S", "H", "D", "C" };

static void	 put_head(struct draw *);
static void	 put_companies(struct draw *);
static void	 put_seats(struct draw *);

/* The turn, who plays and what this turn has done. */
static void
put_head(struct draw *d)
{
	const json_t *ph = draw_get(d, "phase"), *over = draw_get(d, "over"),
	    *j = draw_get(d, "joker_drawn_by");
	const char *tr = json_string_value(json_object_get(ph, "trade")),
	    *pr = json_string_value(json_object_get(ph, "price"));

	draw_hide(d, "players", "seat", "start", "turn", "turns", "max_turns",
	    "capped", NULL);
	if (json_is_true(over))
		draw_line(d, "Stocks, after %lld turns: the game is over%s",
		    draw_int(d->view, "turns", 0), json_is_integer(j) ?
		    draw_fmt(d, " (%s drew a joker)", draw_whoj(d, j)) :
		    json_is_true(json_object_get(d->view, "capped")) ?
		    " (the turn cap)" : "");
	else
		draw_line(d, "Stocks, turn %lld (at most %lld): %s to play, "
		    "%s started", draw_int(d->view, "turns", 0) + 1,
		    draw_int(d->view, "max_turns", 0), draw_who(d,
		    draw_int(d->view, "turn", -1)), draw_who(d,
		    draw_int(d->view, "start", -1)));
	if (json_is_object(ph) && !json_is_true(over))
		draw_line(d, "this turn: trade %s, price %s; %lld bought, "
		    "%lld priced, %lld discarded%s%s", tr != NULL ? tr : "?",
		    pr != NULL ? pr : "?", draw_int(ph, "buys", 0),
		    draw_int(ph, "prices", 0), draw_int(ph, "discards", 0),
		    json_array_size(json_object_get(d->view, "bought")) > 0 ?
		    "; bought: " : "", json_array_size(json_object_get(d->view,
		    "bought")) > 0 ? draw_cards(d, draw_get(d, "bought")) : "");
	draw_hide(d, "bought", NULL);
}

/* The companies: price, top card, limits, the stack's last cards. */
static void
put_companies(struct draw *d)
{
	const json_t *cs = draw_get(d, "companies"), *c, *st;
	json_t *last;
	char *stack;
	size_t i, n, from;

	draw_line(d, "%s", "");
	draw_line(d, "company      price  top  moves  price stack (top last)");
	json_array_foreach(cs, i, c) {
		st = json_object_get(c, "stack");
		n = json_array_size(st);
		from = n > STACK_SHOWN ? n - STACK_SHOWN : 0;
		last = json_array();
		for (; from < n; from++)
			json_array_append(last, json_array_get(st, from));
		stack = draw_fmt(d, "%s%s", n > STACK_SHOWN ? "... " : "",
		    draw_cards(d, last));
		json_decref(last);
		draw_line(d, "%s %s %5lld  %s +%lld/-%lld  %s%s",
		    draw_suit(d, json_string_value(json_object_get(c, "suit"))),
		    draw_pad(d, json_string_value(json_object_get(c, "name")) !=
		    NULL ? json_string_value(json_object_get(c, "name")) : "?",
		    9), draw_int(c, "price", 0), draw_pad(d, draw_card(d,
		    json_object_get(c, "top")), 3), draw_int(c, "up", 0),
		    draw_int(c, "down", 0), stack, json_is_true(json_object_get(
		    c, "bankrupt")) ? "  BANKRUPT" : "");
	}
}

/* The seats: money, debt, hand, shares, wealth; then certificates. */
static void
put_seats(struct draw *d)
{
	const json_t *ss = draw_get(d, "seats"), *s, *hands =
	    draw_get(d, "hands");
	char *row;
	size_t i, k;

	draw_line(d, "%s", "");
	row = draw_fmt(d, "seat            money  debt  cards ");
	for (k = 0; k < 4; k++)
		row = draw_fmt(d, "%s   %s", row, draw_suit(d, suits[k]));
	draw_line(d, "%s  wealth", row);
	json_array_foreach(ss, i, s) {
		row = draw_fmt(d, "%s %6lld %5lld %6lld ", draw_pad(d,
		    draw_fmt(d, "seat %zu%s%s", i, (int)i == d->seat ?
		    " (you)" : "", draw_int(d->view, "turn", -1) ==
		    (long long)i && !json_is_true(json_object_get(d->view,
		    "over")) ? " *" : ""), 14), draw_int(s, "money", 0),
		    draw_int(s, "debt", 0), draw_int(s, "hand", 0));
		for (k = 0; k < 4; k++)
			row = draw_fmt(d, "%s %3lld", row, draw_int(
			    json_object_get(s, "shares"), suits[k], 0));
		draw_line(d, "%s  %6lld", row, draw_int(s, "wealth", 0));
	}
	json_array_foreach(ss, i, s)
		if (json_array_size(json_object_get(s, "certificates")) > 0)
			draw_wrap(d, draw_fmt(d, "%s certificates: ", (int)i ==
			    d->seat ? "your" : draw_fmt(d, "seat %zu's", i)),
			    draw_cards(d, json_object_get(s, "certificates")),
			    " ");
	json_array_foreach(hands, i, s)
		draw_wrap(d, draw_fmt(d, "seat %zu's hand: ", i),
		    draw_cards(d, s), " ");
}

void
draw_stocks(struct draw *d)
{
	const json_t *hand;

	put_head(d);
	put_companies(d);
	put_seats(d);
	if ((hand = draw_get(d, "hand")) != NULL)
		draw_wrap(d, "your hand: ", draw_cards(d, hand), " ");
	draw_line(d, "bank: $%lld   stock: %lld cards%s", draw_int(d->view,
	    "bank", 0), draw_int(d->view, "stock", 0), json_is_true(
	    json_object_get(d->view, "jokers_in_stock")) ?
	    " (the jokers are in it)" : "");
	draw_hide(d, "bank", "stock", "jokers_in_stock", NULL);
	draw_wrap(d, draw_fmt(d, "discard pile (%zu, oldest first): ",
	    json_array_size(json_object_get(d->view, "discard"))),
	    draw_cards(d, draw_get(d, "discard")), " ");
}
