/*
 * libFuzzer target: the --setup document of every game.  Byte 0 picks the
 * game, byte 1 the players; the rest is read as the referee reads the
 * file (jansson, duplicates refused) and given to the game's setup_parse.
 * A set-up it accepts must deal a game that passes the game's own check.
 */
#include <stdlib.h>

#include <jansson.h>

#include "fz.h"
#include "game.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	const struct game *g;
	struct events ev = { NULL, 0, 0 };
	struct opts o;
	struct rng rng;
	json_t *j;
	char why[256];
	void *setup, *st;
	int k;

	if (n < 2)
		return 0;
	for (k = 0; games[k] != NULL; k++)
		;
	g = games[d[0] % k];
	opts_defaults(g, &o, g->min_players + d[1] % (g->max_players -
	    g->min_players + 1));
	if (opts_finish(g, &o, why, sizeof why) == -1)
		return 0;
	if ((j = json_loadb((const char *)d + 2, n - 2,
	    JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;
	setup = xcalloc(1, g->setup_size);
	if (g->setup_parse(j, &o, setup, why, sizeof why) == 0) {
		st = xcalloc(1, g->state_size);
		rng_seed(&rng, 1);
		g->init(st, &o, setup, &rng, &ev);
		if (g->check(st, why, sizeof why) == -1)
			abort();
		ev_free(&ev);
		free(st);
	}
	free(setup);
	json_decref(j);
	return 0;
}
