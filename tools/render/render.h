/*
 * The terminal renderer (render.c, draw.c and a drawer per game): views,
 * actions and events drawn from their JSON; bin/replay and bin/human share
 * it.
 */
#ifndef CARDARENA_RENDER_H
#define CARDARENA_RENDER_H

#include <stdio.h>

#include <jansson.h>

/* Colours, suit symbols, and every view whole (else changes only). */
void	 render_init(int, int, int);
/* Writes any value on one line (cards as "K♣ 9♠"). */
void	 render_inline(FILE *, const json_t *);
/* Writes a view as indented lines. */
void	 render_view(FILE *, const json_t *, int, int);
/*
 * Draws a view as the game's table, fitting 80 columns (what of the view
 * the drawing leaves out listed after it, as render_view would); any view
 * of an unknown game as render_view.
 */
void	 render_table(FILE *, const char *, const json_t *, int, int);
/* Writes the keys of a view that differ from the previous one. */
void	 render_view_changes(FILE *, const json_t *, const json_t *, int,
	    int);
/* Writes an action or event on one line. */
void	 render_action(FILE *, const json_t *);
/* Returns an action or event as a new one-line string. */
char	*render_action_text(const json_t *);
/* Are colours on? */
int	 render_colour(void);
/* Is every frame drawn whole (not as changes)? */
int	 render_whole(void);

#endif
