/*
 * Helpers shared by every game: events, legal-list lookups, places from
 * scores, a word's index among names (the parsers and view readers), and
 * the codec's trees (views, actions, events and the legal list as the
 * protocol shows them) from each game's writers.
 */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "jw.h"

/* The kind of an action object; see game.h. */
const json_t *
action_kind(const json_t *j)
{
	const json_t *k;

	if ((k = json_object_get(j, "type")) != NULL)
		return k;
	return json_object_get(j, "action");
}

/*
 * The index of a JSON string among the NULL-ended names, or -1: the codecs'
 * parsers, the view readers and the bots read their words with it.
 */
int
word_index(const char *const *names, const json_t *j)
{
	const char *s;
	int i;

	if ((s = json_string_value(j)) == NULL)
		return -1;
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* A view's "seat" key, for the games whose view names it null when
 * every card is shown (SEAT_ALL). */
void
view_seat_write(struct jw *w, int seat)
{
	if (seat == SEAT_ALL)
		jw_knull(w, "seat");
	else
		jw_kint(w, "seat", seat);
}

/* Appends an event; a NULL sink ignores it (fast in-process play). */
void
ev_push(struct events *ev, uint32_t seen, int type, int64_t x, int32_t a0,
    int32_t a1, int32_t a2, int32_t a3, int32_t a4)
{
	struct event *e;

	if (ev == NULL)
		return;
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 64;
		ev->e = xreallocarray(ev->e, ev->cap, sizeof *ev->e);
	}
	e = &ev->e[ev->n++];
	e->type = type;
	e->seen = seen;
	e->x = x;
	e->a[0] = a0;
	e->a[1] = a1;
	e->a[2] = a2;
	e->a[3] = a3;
	e->a[4] = a4;
}

/* Forgets the events but keeps the buffer. */
void
ev_clear(struct events *ev)
{
	ev->n = 0;
}

/* Frees the buffer. */
void
ev_free(struct events *ev)
{
	free(ev->e);
	ev->e = NULL;
	ev->n = ev->cap = 0;
}

/* Returns the index of the entry that allows a, or -1. */
int
legal_find(const struct legal *l, int n, struct action a)
{
	int i;

	for (i = 0; i < n; i++) {
		if (l[i].code != a.code)
			continue;
		if (l[i].ranged ? (a.amount >= l[i].lo && a.amount <= l[i].hi) :
		    a.amount == 0)
			return i;
	}
	return -1;
}

/* A uniformly random legal action; see game.h. */
struct action
legal_pick(const struct legal *l, int n, struct rng *r)
{
	const struct legal *e = &l[rng_below(r, (uint32_t)n)];
	struct action a;

	a.code = e->code;
	a.amount = e->ranged ? e->lo + (int32_t)rng_below(r,
	    (uint32_t)(e->hi - e->lo) + 1) : 0;
	return a;
}

/* Returns 1 if a is in the legal list of player in st. */
int
legal_contains(const struct game *g, const void *st, int player,
    struct action a)
{
	static _Thread_local struct legal l[MAX_LEGAL];
	int n;

	n = g->legal(st, player, l, MAX_LEGAL);
	return legal_find(l, n, a) >= 0;
}

/* Places from scores, highest first; equal scores share a place (1224). */
void
places_from_scores(int n, const double *scores, int *places)
{
	int i, j;

	for (i = 0; i < n; i++) {
		places[i] = 1;
		for (j = 0; j < n; j++)
			if (scores[j] > scores[i])
				places[i]++;
	}
}

/*
 * Writes the legal list as the protocol shows it: an array of the actions,
 * a ranged entry's amount as {"min": lo, "max": hi}.
 */
void
legal_write(const struct game *g, const void *st, int player,
    const struct legal *l, int n, struct jw *w)
{
	int i;

	jw_arr(w);
	for (i = 0; i < n; i++) {
		w->range = l[i].ranged;
		w->lo = l[i].lo;
		w->hi = l[i].hi;
		g->action_write(st, player, (struct action){ l[i].code,
		    l[i].lo }, w);
	}
	w->range = 0;
	jw_end(w);
}

/*
 * Returns the legal list as the protocol shows it: an array of the actions'
 * JSON, a ranged entry carrying "amount": {"min": lo, "max": hi}.
 */
json_t *
legal_json(const struct game *g, const void *st, int player,
    const struct legal *l, int n)
{
	struct jw w;

	jw_tree(&w);
	legal_write(g, st, player, l, n, &w);
	return jw_root(&w);
}

/* Returns seat's view (SEAT_ALL: the all-seeing one) as a new tree. */
json_t *
game_view_json(const struct game *g, const void *st, int seat)
{
	struct jw w;

	jw_tree(&w);
	g->view_write(st, seat, &w);
	return jw_root(&w);
}

/* Returns player's action a as a new tree. */
json_t *
game_action_json(const struct game *g, const void *st, int player,
    struct action a)
{
	struct jw w;

	jw_tree(&w);
	g->action_write(st, player, a, &w);
	return jw_root(&w);
}

/* Returns the event e as a new tree. */
json_t *
game_event_json(const struct game *g, const void *st, const struct event *e)
{
	struct jw w;

	jw_tree(&w);
	g->event_write(st, e, &w);
	return jw_root(&w);
}
