/*
 * libFuzzer target: a bot's answer line, read as the referee reads it
 * (proto_quick and proto_index, else jansson and proto_action, the game's
 * action decoder), against a state of any game reached by random play.
 * Byte 0 picks the game, byte 1 the players, byte 2 the steps played
 * first; the rest is the line.  An answer the decoders accept must be one
 * the rules apply: else abort().
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fz.h"
#include "game.h"
#include "messages.h"
#include "proto.h"

static int	 ngames(void);
static void	 must_apply(const struct game *, const void *, int,
		    struct action);

/* The number of registered games. */
static int
ngames(void)
{
	int n;

	for (n = 0; games[n] != NULL; n++)
		;
	return n;
}

/* Aborts unless the rules apply a on a copy of st. */
static void
must_apply(const struct game *g, const void *st, int seat, struct action a)
{
	struct events ev = { NULL, 0, 0 };
	struct rng rng;
	void *copy;

	copy = xcalloc(1, g->state_size);
	memcpy(copy, st, g->state_size);
	rng_seed(&rng, 7);
	if (g->apply(copy, seat, a, &rng, &ev) == -1)
		abort();
	ev_free(&ev);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	const struct game *g;
	struct events ev = { NULL, 0, 0 };
	struct legal *legal;
	struct action a;
	struct opts o;
	struct rng rng;
	json_t *j;
	char why[256];
	const char *line;
	long long idx, amt;
	int64_t id;
	uint32_t dec;
	void *st;
	int players, steps, seat, nl, has, k;

	if (n < 3)
		return 0;
	g = games[d[0] % ngames()];
	players = g->min_players + d[1] % (g->max_players - g->min_players +
	    1);
	steps = d[2];
	line = (const char *)d + 3;
	n -= 3;
	opts_defaults(g, &o, players);
	if (opts_finish(g, &o, why, sizeof why) == -1)
		return 0;
	st = xcalloc(1, g->state_size);
	legal = xcalloc(MAX_LEGAL, sizeof *legal);
	rng_seed(&rng, d[2]);
	g->init(st, &o, NULL, &rng, &ev);
	seat = -1;
	for (k = 0; (dec = g->deciders(st)) != 0; k++) {
		for (seat = 0; !(dec & (1u << seat)); seat++)
			;
		nl = g->legal(st, seat, legal, MAX_LEGAL);
		if (k == steps)
			break;
		a = msg_substitute(g, st, seat, 1, d[2], k, legal, nl);
		ev_clear(&ev);
		if (g->apply(st, seat, a, &rng, &ev) == -1)
			abort();
	}
	if (dec != 0) {
		nl = g->legal(st, seat, legal, MAX_LEGAL);
		if (proto_quick(line, n, &id, &idx, &has, &amt) == 0 &&
		    proto_index(legal, nl, idx, has, amt, &a, why,
		    sizeof why) == -1)
			must_apply(g, st, seat, a);
		j = json_loadb(line, n, JSON_REJECT_DUPLICATES, NULL);
		if (json_is_object(j) && proto_action(g, st, seat, j, legal,
		    nl, &a, why, sizeof why) == -1)
			must_apply(g, st, seat, a);
		json_decref(j);
	}
	ev_free(&ev);
	free(legal);
	free(st);
	return 0;
}
