/*
 * Unit tests of NYSE beyond the rule scenarios: the options and --setup
 * documents it must refuse (with a cause), and the view-leak property
 * itself: after everything a seat may not see is re-dealt (others' chips,
 * the piles, the markers' marks, the discards), that seat's view, legal
 * list and every event it is told stay byte-identical while the other
 * players play the same moves (until the end, whose scoring shows every
 * holding); with open_holdings off, the others' colours
 * never appear in its view.  And the committed swap (issue 26) in random
 * play with open_holdings off, against a count of the requests left made
 * here: after a none the swap goes on exactly while a request is left,
 * with the committed chip's requests only; with none left, the chip leaves
 * the game, no other chip moves, and the next turn begins.  Prints TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "games/nyse.h"

#define GAMES	300
#define SWAP_GAMES	1000


static int	opt_fails(const char *, int);
static int	setup_fails(const char *, int, const char *);
static int	leak_game(const struct game *, uint64_t, char *, size_t);
static int	requests_left(const struct nyse *);
static int	committed_game(const struct game *, uint64_t, long *, long *,
		    char *, size_t);

/* Options for a game of players, and whether they are refused. */
static const struct {
	const char	*kv;
	int		 players, refused;
	const char	*name;
} options[] = {
	{ "board=1,2,3,4,5,2", 4, 0,
	    "board 1,2,3,4,5,2 accepted" },
	{ "board=5,4,3,2,2,1", 4, 0,
	    "board 5,4,3,2,2,1 accepted" },
	{ "board=shuffled", 4, 0,
	    "board=shuffled accepted" },
	{ "board=1,1,2,3,4,5", 4, 1,
	    "board 1,1,2,3,4,5 refused (not an order of the grey chips)" },
	{ "board=1,2,3,4,5", 4, 1,
	    "a board of five values refused" },
	{ "open_holdings=maybe", 4, 1,
	    "open_holdings=maybe refused" },
	{ "open_holdings=off", 1, 0,
	    "one player (solitaire) accepted" },
	{ "open_holdings=on", 11, 1,
	    "eleven players refused" },
};

/* The set-up documents that must be refused, with words of the cause. */
static const struct {
	const char	*text;
	int		 players;
	const char	*want, *name;
} bad_setups[] = {
	{ "{\"deck\": []}", 2, "unknown key",
	    "setup: an unknown key is refused" },
	{ "{\"piles\": {\"purple\": []}}", 2, "no colour",
	    "setup: an unknown colour is refused" },
	{ "{\"piles\": {\"red\": [\"gold\"]}}", 2, "piles.red[0]",
	    "setup: an unknown mark is refused" },
	{ "{\"piles\": {\"red\": [\"speculate\", \"speculate\"]}, \"markers\": "
	    "{\"red\": \"speculate\"}}", 2, "3 speculate",
	    "setup: three red speculate chips refused" },
	{ "{\"piles\": {\"red\": [\"plain\", \"plain\", \"plain\", \"plain\", "
	    "\"plain\", \"plain\"]}}", 2, "6 plain",
	    "setup: six plain chips of a colour refused" },
	{ "{\"piles\": {\"red\": [\"plain\", \"plain\", \"plain\", \"plain\", "
	    "\"plain\", \"swap\", \"swap\", \"invest\", \"invest\", "
	    "\"speculate\", \"speculate\"]}}", 2, "at most 10",
	    "setup: a pile of eleven refused (one chip is the marker)" },
	{ "{\"start\": 2}", 2, "start",
	    "setup: a start seat beyond the table refused" },
	{ "{\"board\": [1, 2, 3, 4, 5, 5]}", 2, "board",
	    "setup: a board that is not an order of 1,2,2,3,4,5 refused" },
	{ "{\"board\": [5, 4, 3, 2, 2, 1]}", 2, "option board",
	    "setup: a board contradicting option board refused" },
};

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
			v = game_view_json(g, st, seat);
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
				s1 = seat_messages(g, copy, seat, &e1);
				s2 = seat_messages(g, st2, seat, &e2);
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

/*
 * The requests the active player of st could still make with its committed
 * swap chip: a chip to give (any but that swap chip) to a player holding a
 * chip, for another colour, not refused this turn.
 */
static int
requests_left(const struct nyse *st)
{
	int a = st->turn, gc, gm, t, ac, k = 0, have;

	for (gc = 0; gc < NY_COLOURS; gc++)
		for (gm = 0; gm < NY_MARKS; gm++) {
			have = st->held[a][gc][gm] - (gc == st->sw_chip &&
			    gm == NY_SWAP);
			for (t = 0; have > 0 && t < st->n; t++)
				for (ac = 0; t != a && ac < NY_COLOURS; ac++)
					if (ac != gc && nyse_chips(st, t) > 0 &&
					    !(st->refused[t] & (1u << ac)))
						k++;
		}
	return k;
}

/*
 * Plays one random game of 2 or 3 players with open_holdings off, checking
 * every committed swap against requests_left(); counts the answers none
 * after which the swap went on (*more) and the swaps that ended void.
 */
static int
committed_game(const struct game *g, uint64_t seed, long *more, long *voids,
    char *why, size_t len)
{
	static struct legal l[MAX_LEGAL];
	struct nyse st, before;
	struct rng r;
	struct opts o;
	struct action a;
	int n, i, p, c, m, q;

	rng_seed(&r, seed);
	opts_defaults(g, &o, 2 + (int)rng_below(&r, 2));
	o.v[opt_index(g, "open_holdings")] = 0;
	if (opts_finish(g, &o, why, len) == -1)
		return -1;
	g->init(&st, &o, NULL, &r, NULL);
	while (g->deciders(&st) != 0) {
		p = __builtin_ctz(g->deciders(&st));
		n = g->legal(&st, p, l, MAX_LEGAL);
		if (st.phase == NY_SWAPPING) {
			if (n != requests_left(&st)) {
				snprintf(why, len, "%d entries in a committed "
				    "swap, %d requests left", n,
				    requests_left(&st));
				return -1;
			}
			for (i = 0; i < n; i++)
				if (NY_KIND(l[i].code) != NY_A_SWAP ||
				    NY_F(l[i].code, 0) != st.sw_chip) {
					snprintf(why, len, "a committed swap "
					    "lists another action");
					return -1;
				}
		}
		a.code = l[rng_below(&r, (uint32_t)n)].code;
		a.amount = 0;
		before = st;
		if (g->apply(&st, p, a, &r, NULL) == -1) {
			snprintf(why, len, "apply refused a legal action");
			return -1;
		}
		if (NY_KIND(a.code) != NY_A_NONE)
			continue;
		before.refused[before.sw_target] |= (uint8_t)(1u <<
		    before.sw_ac);
		if (requests_left(&before) > 0) {
			(*more)++;
			if (st.phase != NY_SWAPPING || st.turn != before.turn) {
				snprintf(why, len, "a request was left, yet "
				    "the swap ended");
				return -1;
			}
			continue;
		}
		(*voids)++;
		before.held[before.turn][before.sw_chip][NY_SWAP]--;
		before.used[before.sw_chip][NY_SWAP]++;
		for (q = 0; q < st.n; q++)
			for (c = 0; c < NY_COLOURS; c++)
				for (m = 0; m < NY_MARKS; m++)
					if (st.held[q][c][m] !=
					    before.held[q][c][m] ||
					    st.used[c][m] != before.used[c][m]) {
						snprintf(why, len, "a void swap "
						    "moved a chip, or kept the "
						    "swap chip");
						return -1;
					}
		if (st.phase != NY_TURN || st.turn != nyse_next(&before) ||
		    st.turns != before.turns + 1 || st.nswaps != before.nswaps) {
			snprintf(why, len, "a void swap did not end the turn");
			return -1;
		}
	}
	return 0;
}

int
main(void)
{
	const struct game *g = game_find("nyse");
	char why[1024];
	long more = 0, voids = 0;
	size_t k;
	int i, bad = 0;

	tap_ok(g != NULL, "nyse is registered");
	if (g == NULL) {
		tap_done();
		return 1;
	}
	for (k = 0; k < sizeof options / sizeof options[0]; k++)
		tap_ok(opt_fails(options[k].kv, options[k].players) ==
		    options[k].refused, "%s", options[k].name);
	for (k = 0; k < sizeof bad_setups / sizeof bad_setups[0]; k++)
		tap_ok(setup_fails(bad_setups[k].text, bad_setups[k].players,
		    bad_setups[k].want), "%s", bad_setups[k].name);
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
	for (bad = 0, i = 0; i < SWAP_GAMES && !bad; i++)
		if (committed_game(g, seed_derive(26, (uint64_t)i), &more,
		    &voids, why, sizeof why) == -1)
			bad = 1;
	tap_ok(!bad && more > 0 && voids > 0, "%d games, open_holdings off: "
	    "after a none the swap goes on with the committed chip's requests "
	    "only while one is left (%ld times); with none left the chip "
	    "leaves the game, nothing else moves, the turn ends (%ld "
	    "times)%s%s", i, more, voids, bad ? ": " : "", bad ? why : "");
	return tap_done();
}
