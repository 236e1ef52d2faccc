/*
 * The in-process engine benchmark: for every game in the table, random
 * legal play with the default options (a random decider, a random legal
 * entry, a random amount in a range), counting actions per second of
 * this process's CPU time (not wall time: a loaded machine takes the CPU
 * away, it does not make the engine slower), the legal-list generation
 * included.  The target is 1,000,000 actions per CPU second for every
 * engine.
 *
 * Usage: bench_engine [-t SECONDS] [-g GAME]; one JSON line per game.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static struct legal	legal[MAX_LEGAL];

static void	bench(const struct game *, double);

/* Plays random games of g for about secs CPU seconds; prints the rate. */
static void
bench(const struct game *g, double secs)
{
	struct opts o;
	struct rng r;
	struct legal *e;
	struct action a;
	char cause[256];
	void *st;
	uint32_t d;
	long actions = 0, ngames = 0;
	double t0, t;
	int n, p, k;

	opts_defaults(g, &o, g->default_players);
	if (opts_finish(g, &o, cause, sizeof cause) == -1)
		errx(1, "%s: %s", g->name, cause);
	st = xcalloc(1, g->state_size);
	rng_seed(&r, 1);
	t0 = cpu_seconds();
	do {
		g->init(st, &o, NULL, &r, NULL);
		while ((d = g->deciders(st)) != 0) {
			k = (int)rng_below(&r, (uint32_t)popcount32(d));
			for (p = 0; ; p++)
				if ((d & (1u << p)) && k-- == 0)
					break;
			n = g->legal(st, p, legal, MAX_LEGAL);
			e = &legal[rng_below(&r, (uint32_t)n)];
			a.code = e->code;
			a.amount = e->ranged ? e->lo + (int32_t)rng_below(&r,
			    (uint32_t)(e->hi - e->lo) + 1) : 0;
			if (g->apply(st, p, a, &r, NULL) == -1)
				errx(1, "%s: a legal action was refused",
				    g->name);
			actions++;
		}
		ngames++;
		t = cpu_seconds();
	} while (t - t0 < secs);
	printf("{\"game\":\"%s\",\"actions_per_cpu_s\":%.0f,\"games\":%ld,"
	    "\"actions\":%ld,\"players\":%d}\n", g->name,
	    (double)actions / (t - t0), ngames, actions, o.players);
	free(st);
}

int
main(int argc, char **argv)
{
	const struct game *only = NULL;
	double secs = 1.0;
	int c, i;

	while ((c = getopt(argc, argv, "g:t:")) != -1)
		switch (c) {
		case 'g':
			if ((only = game_find(optarg)) == NULL)
				errx(2, "no game %s", optarg);
			break;
		case 't':
			secs = atof(optarg);
			if (secs <= 0 || secs > 600)
				errx(2, "-t %s: not a time in seconds", optarg);
			break;
		default:
			fprintf(stderr, "usage: bench_engine [-t SECONDS] "
			    "[-g GAME]\n");
			return 2;
		}
	for (i = 0; games[i] != NULL; i++)
		if (only == NULL || only == games[i])
			bench(games[i], secs);
	return 0;
}
