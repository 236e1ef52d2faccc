/*
 * The drawn tables' shared parts (draw.c), private to tools/render: a
 * drawing in progress (struct draw), strings it owns until it ends, cards
 * and suits as the renderer writes them, padding by what a terminal shows
 * (suit symbols are one column, colours none), lines cut to the width,
 * and one drawer per game (<game>.c).
 */
#ifndef CARDARENA_DRAW_H
#define CARDARENA_DRAW_H

#include <stdio.h>

#include <jansson.h>

#define DRAW_WIDTH	80	/* columns a table fits in, indent included */

struct draw {
	FILE		*fp;
	const json_t	*view;
	json_t		*shown;		/* the keys drawn: the rest are listed */
	int		 indent;
	int		 players;
	int		 seat;		/* the view's seat, -1 if all-seeing */
	char		**str;		/* strings owned until draw ends */
	size_t		 nstr;
};

/* Each game's drawer (<game>.c): what it takes of the view marks it drawn. */
void		 draw_horserace(struct draw *);
void		 draw_nyse(struct draw *);
void		 draw_stocks(struct draw *);
void		 draw_speculation(struct draw *);
void		 draw_daifugo(struct draw *);

/* Keeps s (allocated) until the drawing ends; returns it. */
char		*draw_own(struct draw *, char *);
/* Writes one card name as the renderer does (rank and suit symbol). */
void		 render_card(FILE *, const char *);
/* Are suits drawn as symbols (not ASCII letters)? */
int		 render_utf8(void);
/* Writes key k of a view and its value x as render_view does. */
void		 render_view_key(FILE *, const char *, const json_t *, int,
		    int);

/* Returns key of the view, marking it drawn (NULL if absent). */
const json_t	*draw_get(struct draw *, const char *);
/* Marks keys of the view drawn (a NULL-ended list). */
void		 draw_hide(struct draw *, ...);
/* Returns an integer field of an object (def if absent or not one). */
long long	 draw_int(const json_t *, const char *, long long);
/* Returns a new string owned by the drawing, printf-style. */
char		*draw_fmt(struct draw *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* Returns a card (a JSON string) as drawn, owned by the drawing. */
char		*draw_card(struct draw *, const json_t *);
/* Returns a list of cards as drawn, space-separated ("-" if empty). */
char		*draw_cards(struct draw *, const json_t *);
/* Returns a suit letter (S H D C) as its symbol, or the letter in ASCII. */
char		*draw_suit(struct draw *, const char *);
/* Returns utf8 where symbols are on, else ascii (both literals). */
const char	*draw_sym(const char *, const char *);
/* Returns a string field of an object ("?" if absent or not one). */
const char	*draw_str(const json_t *, const char *);
/* Returns an integer of an array (def if absent or not one). */
long long	 draw_at(const json_t *, size_t, long long);
/* Returns "seat N" ("you": the view's seat; "nobody": -1), owned. */
char		*draw_who(struct draw *, long long);
/* Returns a JSON seat number as draw_who does (null: "nobody"). */
char		*draw_whoj(struct draw *, const json_t *);
/* Returns s padded with blanks to w columns (left-aligned; -w: right). */
char		*draw_pad(struct draw *, const char *, int);
/* The columns a terminal shows s in. */
int		 draw_width(const char *);
/* Writes one line at the drawing's indent, printf-style. */
void		 draw_line(struct draw *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/*
 * Writes head then the items of body (separated by sep) on as many lines
 * as the width needs, each continuation lined up after head.
 */
void		 draw_wrap(struct draw *, const char *, const char *,
		    const char *);

#endif
