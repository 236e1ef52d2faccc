/*
 * Unit tests of NYSE beyond the rule scenarios: the options and --setup
 * documents it must refuse (with a cause), and the view-leak property
 * itself: after everything a seat may not see is re-dealt (others' chips,
 * the piles, the markers' marks, the discards), that seat's view, legal
 * list and every event it is told stay byte-identical while the other
 * players play the same moves (until the end, whose scoring shows every
 * holding); with open_holdings off, the others' colours
 * never appear in its view.  Prints TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define GAMES	300


static int	opt_fails(const char *, int);
static int	setup_fails(const char *, int, const char *);
static char	*messages(const struct game *, const void *, int,
		    const struct events *);
static int	leak_game(const struct game *, uint64_t, char *, size_t);

/* Returns 1 if the option kv is refused for a game of players. */
static int
opt_fails(const char *kv, int players)
{
	const struct game *g = game_find("nyse");
	struct opts o;
	char cause[256];

	opts_defaults(g, &o, players);
	return opts_set(g, &o, kv, cause, sizeof cause) == -1 ||
	    opts_finish(g, &o, cause, sizeof cause) == -1;
}

/* Returns 1 if the set-up text is refused with a cause containing want. */
static int
setup_fails(const char *text, int players, const char *want)
{
	const struct game *g = game_find("nyse");
	struct opts o;
	json_error_t jerr;
	json_t *j;
	void *su;
	char cause[256] = "";
	int rc;

	opts_defaults(g, &o, players);
	if (strstr(text, "\"board\"") != NULL && strstr(want, "option") != NULL)
		(void)opts_set(g, &o, "board=1,2,3,4,5,2", cause, sizeof cause);
	if (opts_finish(g, &o, cause, sizeof cause) == -1 ||
	    (j = json_loads(text, 0, &jerr)) == NULL)
		return 0;
	su = xcalloc(1, g->setup_size);
	rc = g->setup_parse(j, &o, su, cause, sizeof cause) == -1 &&
	    strstr(cause, want) != NULL;
	free(su);
	json_decref(j);
	return rc;
}

/* Seat's messages now: its view, its legal list, the events it is told. */
static char *
messages(const struct game *g, const void *st, int seat,
    const struct events *ev)
{
	static struct legal l[MAX_LEGAL];
	json_t *m, *a;
	char *s;
	size_t i;
	int n;

	m = json_object();
	json_object_set_new(m, "view", g->view_json(st, seat));
	n = (g->deciders(st) & (1u << seat)) ? g->legal(st, seat, l,
	    MAX_LEGAL) : 0;
	json_object_set_new(m, "legal", legal_json(g, st, seat, l, n));
	a = json_array();
	for (i = 0; i < ev->n; i++)
		if (ev->e[i].seen & (1u << seat))
			json_array_append_new(a, g->event_json(st, &ev->e[i]));
	json_object_set_new(m, "events", a);
	s = json_canon(m);
	json_decref(m);
	return s;
}

/*
 * Plays one random game; at random moments re-deals what a random seat
 * cannot see in a copy, then plays the others' moves on both until that
 * seat must decide, comparing its messages after every move.
 */
static int
leak_game(const struct game *g, uint64_t seed, char *why, size_t len)
{
	static struct legal l[MAX_LEGAL], l2[MAX_LEGAL];
	struct events e1 = { NULL, 0, 0 }, e2 = { NULL, 0, 0 };
	struct rng r, r2;
	struct opts o;
	struct action a;
	json_t *v, *h;
	char *s1, *s2;
	void *st, *copy, *st2;
	uint32_t d;
	int n, n2, p, q, seat, rc = 0, steps;

	rng_seed(&r, seed);
	opts_defaults(g, &o, 2 + (int)rng_below(&r, 9));
	o.v[opt_index(g, "open_holdings")] = rng_below(&r, 2);
	if (opts_finish(g, &o, why, len) == -1)
		return -1;
	st = xcalloc(1, g->state_size);
	st2 = xcalloc(1, g->state_size);
	copy = xcalloc(1, g->state_size);
	g->init(st, &o, NULL, &r, NULL);
	while (rc == 0 && (d = g->deciders(st)) != 0) {
		p = __builtin_ctz(d);
		if (rng_below(&r, 4) == 0) {
			seat = (int)rng_below(&r, (uint32_t)o.players);
			v = g->view_json(st, seat);
			for (q = 0; q < o.players; q++) {
				h = json_array_get(json_object_get(v,
				    "holdings"), (size_t)q);
				if (q != seat && !o.v[opt_index(g,
				    "open_holdings")] && json_object_get(h,
				    "colours") != NULL) {
					snprintf(why, len, "seat %d sees seat "
					    "%d's colours", seat, q);
					rc = -1;
				}
			}
			json_decref(v);
			memcpy(copy, st, g->state_size);
			memcpy(st2, st, g->state_size);
			g->perturb(st2, seat, &r);
			rng_seed(&r2, seed ^ 0xabcdef);
			for (steps = 0; rc == 0; steps++) {
				/* The end reveals every holding, by rule. */
				if (g->over(copy))
					break;
				s1 = messages(g, copy, seat, &e1);
				s2 = messages(g, st2, seat, &e2);
				if (strcmp(s1, s2) != 0) {
					snprintf(why, len, "seat %d's messages "
					    "differ after %d moves: %.200s vs "
					    "%.200s", seat, steps, s1, s2);
					rc = -1;
				}
				free(s1);
				free(s2);
				ev_clear(&e1);
				ev_clear(&e2);
				if ((d = g->deciders(copy)) == 0 ||
				    (d & (1u << seat)))
					break;
				q = __builtin_ctz(d);
				n = g->legal(copy, q, l, MAX_LEGAL);
				n2 = g->legal(st2, q, l2, MAX_LEGAL);
				a.code = l[rng_below(&r2, (uint32_t)n)].code;
				a.amount = 0;
				if (legal_find(l2, n2, a) < 0)
					break;	/* the re-dealt chips differ */
				if (g->apply(copy, q, a, &r2, &e1) == -1 ||
				    g->apply(st2, q, a, &r2, &e2) == -1) {
					snprintf(why, len, "apply refused");
					rc = -1;
				}
			}
			ev_clear(&e1);
			ev_clear(&e2);
		}
		n = g->legal(st, p, l, MAX_LEGAL);
		a.code = l[rng_below(&r, (uint32_t)n)].code;
		a.amount = 0;
		if (g->apply(st, p, a, &r, NULL) == -1) {
			snprintf(why, len, "apply refused a legal action");
			rc = -1;
		}
	}
	ev_free(&e1);
	ev_free(&e2);
	free(st);
	free(st2);
	free(copy);
	return rc;
}

int
main(void)
{
	const struct game *g = game_find("nyse");
	char why[1024];
	int i, bad = 0;

	tap_ok(g != NULL, "nyse is registered");
	if (g == NULL) {
		tap_done();
		return 1;
	}
	tap_ok(!opt_fails("board=1,2,3,4,5,2", 4), "board 1,2,3,4,5,2 accepted");
	tap_ok(!opt_fails("board=5,4,3,2,2,1", 4), "board 5,4,3,2,2,1 accepted");
	tap_ok(!opt_fails("board=shuffled", 4), "board=shuffled accepted");
	tap_ok(opt_fails("board=1,1,2,3,4,5", 4), "board 1,1,2,3,4,5 refused "
	    "(not an order of the grey chips)");
	tap_ok(opt_fails("board=1,2,3,4,5", 4), "a board of five values refused");
	tap_ok(opt_fails("open_holdings=maybe", 4), "open_holdings=maybe refused");
	tap_ok(!opt_fails("open_holdings=off", 1), "one player (solitaire) accepted");
	tap_ok(opt_fails("open_holdings=on", 11), "eleven players refused");
	tap_ok(setup_fails("{\"deck\": []}", 2, "unknown key"),
	    "setup: an unknown key is refused");
	tap_ok(setup_fails("{\"piles\": {\"purple\": []}}", 2, "no colour"),
	    "setup: an unknown colour is refused");
	tap_ok(setup_fails("{\"piles\": {\"red\": [\"gold\"]}}", 2, "piles.red[0]"),
	    "setup: an unknown mark is refused");
	tap_ok(setup_fails("{\"piles\": {\"red\": [\"speculate\", \"speculate\"]}, "
	    "\"markers\": {\"red\": \"speculate\"}}", 2, "3 speculate"),
	    "setup: three red speculate chips refused");
	tap_ok(setup_fails("{\"piles\": {\"red\": [\"plain\", \"plain\", \"plain\", "
	    "\"plain\", \"plain\", \"plain\"]}}", 2, "6 plain"),
	    "setup: six plain chips of a colour refused");
	tap_ok(setup_fails("{\"piles\": {\"red\": [\"plain\", \"plain\", \"plain\", "
	    "\"plain\", \"plain\", \"swap\", \"swap\", \"invest\", \"invest\", "
	    "\"speculate\", \"speculate\"]}}", 2, "at most 10"),
	    "setup: a pile of eleven refused (one chip is the marker)");
	tap_ok(setup_fails("{\"start\": 2}", 2, "start"),
	    "setup: a start seat beyond the table refused");
	tap_ok(setup_fails("{\"board\": [1, 2, 3, 4, 5, 5]}", 2, "board"),
	    "setup: a board that is not an order of 1,2,2,3,4,5 refused");
	tap_ok(setup_fails("{\"board\": [5, 4, 3, 2, 2, 1]}", 2, "option board"),
	    "setup: a board contradicting option board refused");
	tap_ok(!setup_fails("{\"piles\": {\"red\": [\"speculate\"]}, \"markers\": "
	    "{\"red\": \"speculate\"}, \"start\": 1, \"board\": [2, 1, 2, 3, "
	    "4, 5]}", 2, ""), "setup: a valid document accepted");
	for (i = 0; i < GAMES && !bad; i++)
		if (leak_game(g, seed_derive(42, (uint64_t)i), why,
		    sizeof why) == -1)
			bad = 1;
	tap_ok(!bad, "%d games: a seat's view, legal list and events stay "
	    "byte-identical when what it may not see is re-dealt%s%s", i,
	    bad ? ": " : "", bad ? why : "");
	return tap_done();
}
