/*
 * The horserace table: the race and its phase, the four horses with their
 * odds cards, the cards of their suit left in the stock and their odds (or,
 * in Calcutta, owner and price), the bets the view shows, every seat's
 * chips, and the last race as a track: each horse's progress as a row of
 * cells up to the finish line, its place, the cards turned and the bets.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define FINISH	8	/* cards beside an ace that win */

static const char *const suits[] = { "S", "H", "D", "C" };

static char	*bet_text(struct draw *, const json_t *, int);
static char	*bets_text(struct draw *, const json_t *, int);
static void	 put_head(struct draw *);
static void	 put_horses(struct draw *);
static void	 put_bets(struct draw *);
static void	 put_seats(struct draw *);
static void	 put_track(struct draw *, const json_t *);

/* Returns one bet as "win ♦ 9" (who: "seat 2 win ♦ 9"). */
static char *
bet_text(struct draw *d, const json_t *b, int who)
{
	const json_t *s;
	const char *kind = json_string_value(json_object_get(b, "kind"));
	char *t;
	size_t i;

	t = draw_fmt(d, "%s%s%s", who ? draw_whoj(d, json_object_get(b,
	    "player")) : "", who ? " " : "", kind != NULL ? kind : "bet");
	json_array_foreach(json_object_get(b, "suits"), i, s)
		t = draw_fmt(d, "%s %s", t, draw_suit(d, json_string_value(s)));
	return draw_fmt(d, "%s %lld", t, draw_int(b, "stake", 0));
}

/* Returns a list of bets joined by "; " ("-" for none). */
static char *
bets_text(struct draw *d, const json_t *bets, int who)
{
	const json_t *b;
	char *t = NULL;
	size_t i;

	json_array_foreach(bets, i, b)
		t = t == NULL ? bet_text(d, b, who) : draw_fmt(d, "%s; %s", t,
		    bet_text(d, b, who));
	return t != NULL ? t : draw_fmt(d, "-");
}

/* The race, its dealer and phase; the odds cards and the stock. */
static void
put_head(struct draw *d)
{
	const char *phase = json_string_value(draw_get(d, "phase"));
	const json_t *stock = draw_get(d, "stock"), *ts;
	char *what;

	draw_hide(d, "seat", "players", "race", "races", "dealer", "relays",
	    "odds_cards", "odds_to_set", "capped", NULL);
	if (phase == NULL)
		phase = "?";
	if (strcmp(phase, "odds") == 0) {
		ts = json_object_get(d->view, "odds_to_set");
		what = draw_fmt(d, "the dealer sets the odds%s%s",
		    json_is_string(ts) ? " of " : "", json_is_string(ts) ?
		    draw_suit(d, json_string_value(ts)) : "");
	} else if (strcmp(phase, "bet") == 0)
		what = draw_fmt(d, "sealed bets");
	else if (strcmp(phase, "auction") == 0)
		what = draw_fmt(d, "the auction of the aces");
	else if (strcmp(phase, "over") == 0)
		what = draw_fmt(d, "the game is over");
	else
		what = draw_fmt(d, "%s", phase);
	draw_line(d, "Race %lld of %lld, dealt by %s: %s",
	    draw_int(d->view, "race", 0), draw_int(d->view, "races", 0),
	    draw_who(d, draw_int(d->view, "dealer", -1)), what);
	draw_line(d, "odds cards: %s%s   stock: %lld cards%s",
	    draw_cards(d, json_object_get(d->view, "odds_cards")),
	    draw_int(d->view, "relays", 0) > 0 ? draw_fmt(d, " (laid %lld "
	    "times)", draw_int(d->view, "relays", 0) + 1) : "",
	    draw_int(stock, "cards", 0), draw_int(stock, "jokers", 0) > 0 ?
	    " and the joker" : "");
}

/* The horses of this race: odds cards, stock, odds or owner and price. */
static void
put_horses(struct draw *d)
{
	const json_t *counts = draw_get(d, "odds_counts"), *odds =
	    draw_get(d, "odds"), *stock = json_object_get(d->view, "stock"),
	    *owners = draw_get(d, "owners"), *prices = draw_get(d, "prices"),
	    *left = json_object_get(stock, "suits"), *o;
	char *ace, *rest;
	size_t i;

	draw_line(d, "%s", "");
	draw_line(d, "horse  odds cards  in stock  %s", owners != NULL ?
	    "owner     price" : "odds");
	for (i = 0; i < 4; i++) {
		ace = draw_pad(d, draw_fmt(d, "A%s", draw_suit(d, suits[i])),
		    5);
		o = json_array_get(owners != NULL ? owners : odds, i);
		if (owners != NULL)
			rest = draw_fmt(d, "%s %5lld", draw_pad(d, json_is_null(
			    o) ? "-" : draw_whoj(d, o), 8), draw_at(prices, i,
			    0));
		else if (json_is_integer(o))
			rest = draw_fmt(d, "%2lld to 1", (long long)
			    json_integer_value(o));
		else
			rest = draw_fmt(d, "not set");
		draw_line(d, "%s  %10lld  %8lld  %s", ace, draw_at(counts, i, 0),
		    draw_at(left, i, 0), rest);
	}
}

/* The bets the view shows: this seat's, the sealed ones, the auction. */
static void
put_bets(struct draw *d)
{
	const json_t *mine = draw_get(d, "my_bets"), *sealed =
	    draw_get(d, "sealed_bets"), *dd = draw_get(d, "daily_double"),
	    *a = draw_get(d, "auction"), *offered = draw_get(d, "bets_now");
	char *kinds = NULL;
	const json_t *k;
	size_t i;

	draw_hide(d, "bets_offered", "bet_limit", "my_left", NULL);
	json_array_foreach(offered, i, k)
		kinds = draw_fmt(d, "%s%s%s", kinds != NULL ? kinds : "",
		    kinds != NULL ? ", " : "", json_is_string(k) ?
		    json_string_value(k) : "?");
	if (mine != NULL) {
		draw_line(d, "%s", "");
		draw_wrap(d, "your bets: ", bets_text(d, mine, 0), "; ");
		draw_line(d, "you may bet %lld more (at most %lld a race; on "
		    "offer: %s)", draw_int(d->view, "my_left", 0),
		    draw_int(d->view, "bet_limit", 0), kinds != NULL ? kinds :
		    "-");
	} else if (kinds != NULL && strcmp(draw_str(d->view, "phase"), "bet")
	    == 0)
		draw_line(d, "bets on offer: %s (at most %lld a race)", kinds,
		    draw_int(d->view, "bet_limit", 0));
	if (json_array_size(sealed) > 0)
		draw_wrap(d, "sealed bets: ", bets_text(d, sealed, 1), "; ");
	if (json_is_object(dd)) {
		draw_line(d, "%s", "");
		if (json_is_true(json_object_get(dd, "first_race")))
			draw_line(d, "daily double (x%lld): this is the first "
			    "race of the pair", draw_int(dd, "multiplier", 0));
		else
			draw_line(d, "daily double (x%lld): the first race "
			    "was won by %s at %lld to 1",
			    draw_int(dd, "multiplier", 0), draw_suit(d,
			    json_string_value(json_object_get(dd,
			    "first_winner"))), draw_int(dd, "first_odds", 0));
		if (json_array_size(json_object_get(dd, "bets")) > 0)
			draw_wrap(d, "daily double bets: ", bets_text(d,
			    json_object_get(dd, "bets"), 1), "; ");
	}
	if (json_is_integer(draw_get(d, "pot")))
		draw_line(d, "pot: %lld", draw_int(d->view, "pot", 0));
	if (json_is_object(a)) {
		draw_line(d, "auction of A%s: %s, next bid at least %lld; %s "
		    "to bid", draw_suit(d, json_string_value(json_object_get(a,
		    "suit"))), draw_int(a, "high", 0) > 0 ? draw_fmt(d,
		    "high bid %lld by %s", draw_int(a, "high", 0), draw_whoj(d,
		    json_object_get(a, "high_bidder"))) : draw_fmt(d,
		    "no bid yet"), draw_int(a, "next_min", 0),
		    draw_whoj(d, json_object_get(a, "turn")));
	}
}

/* Every seat's chips, the dealer and who is still betting marked. */
static void
put_seats(struct draw *d)
{
	const json_t *chips = draw_get(d, "chips"), *waiting =
	    draw_get(d, "waiting"), *a = json_object_get(d->view, "auction");
	long long dealer = draw_int(d->view, "dealer", -1);
	size_t i, j;
	char *note;

	draw_line(d, "%s", "");
	draw_line(d, "seat           chips");
	for (i = 0; i < json_array_size(chips); i++) {
		note = draw_fmt(d, "%s", (long long)i == dealer ? "  dealer" :
		    "");
		for (j = 0; j < json_array_size(waiting); j++)
			if (draw_at(waiting, j, -1) == (long long)i)
				note = draw_fmt(d, "%s  still betting", note);
		for (j = 0; j < json_array_size(json_object_get(a, "in")); j++)
			if (draw_at(json_object_get(a, "in"), j, -1) ==
			    (long long)i)
				note = draw_fmt(d, "%s  still bidding", note);
		draw_line(d, "%s %6lld%s", draw_pad(d, draw_fmt(d, "seat %zu%s",
		    i, (int)i == d->seat ? " (you)" : ""), 12),
		    draw_at(chips, i, 0), note);
	}
}

/* The last race as a track: a row of cells a horse, the finish line. */
static void
put_track(struct draw *d, const json_t *lr)
{
	const json_t *prog = json_object_get(lr, "progress"), *order =
	    json_object_get(lr, "order"), *cards = json_object_get(lr,
	    "cards");
	static const char *const place[] = { "1st", "2nd", "3rd" };
	const char *s, *full = draw_sym("\u2588\u2588", "##"),
	    *empty = draw_sym("\u00b7\u00b7", "..");
	char *row, *at;
	long long p, finish = FINISH;
	size_t i, j;

	for (i = 0; i < 4; i++)
		if (draw_at(prog, i, 0) > finish)
			finish = draw_at(prog, i, 0);
	draw_line(d, "%s", "");
	draw_line(d, "last race, dealt by %s:", draw_who(d, draw_int(lr,
	    "dealer", -1)));
	row = draw_fmt(d, "      ");
	for (j = 1; j <= (size_t)finish; j++)
		row = draw_fmt(d, "%s%-3zu", row, j);
	draw_line(d, "%s finish", row);
	for (i = 0; i < 4; i++) {
		p = draw_at(prog, i, 0);
		row = draw_fmt(d, "A%s   |", draw_suit(d, suits[i]));
		for (j = 0; j < (size_t)finish; j++)
			row = draw_fmt(d, "%s%s%s", row, (long long)j < p ?
			    full : empty, " ");
		at = draw_fmt(d, "%s", "");
		for (j = 0; j < json_array_size(order) && j < 3; j++)
			if ((s = json_string_value(json_array_get(order, j)))
			    != NULL && strcmp(s, suits[i]) == 0)
				at = draw_fmt(d, "  %s", place[j]);
		if (json_is_integer(json_array_get(json_object_get(lr, "odds"),
		    i)))
			at = draw_fmt(d, "%s  (%lld to 1)", at, draw_at(
			    json_object_get(lr, "odds"), i, 0));
		draw_line(d, "%s|| %2lld%s", row, p, at);
	}
	draw_wrap(d, draw_fmt(d, "cards turned (%zu): ",
	    json_array_size(cards)), draw_cards(d, cards), " ");
	if (json_array_size(json_object_get(lr, "bets")) > 0)
		draw_wrap(d, "bets: ", bets_text(d, json_object_get(lr, "bets"),
		    1), "; ");
	if (json_is_array(json_object_get(lr, "owners"))) {
		row = NULL;
		for (i = 0; i < 4; i++)
			row = draw_fmt(d, "%s%sA%s %s %lld", row != NULL ? row :
			    "", row != NULL ? "; " : "", draw_suit(d, suits[i]),
			    json_is_null(json_array_get(json_object_get(lr,
			    "owners"), i)) ? "nobody" : draw_whoj(d,
			    json_array_get(json_object_get(lr, "owners"), i)),
			    draw_at(json_object_get(lr, "prices"), i, 0));
		draw_wrap(d, "owners and prices: ", row, "; ");
	}
}

void
draw_horserace(struct draw *d)
{
	const json_t *lr;

	put_head(d);
	put_horses(d);
	put_bets(d);
	put_seats(d);
	lr = draw_get(d, "last_race");
	if (json_is_object(lr))
		put_track(d, lr);
}
