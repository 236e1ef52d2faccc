/*
 * The library benchmark (make bench): for every game, random playouts
 * through the public interface (cardarena.h) with the default options,
 * counting actions per second of this process's CPU time: a loop of
 * ca_legal and ca_apply (what a bot's own playout does), and ca_playout
 * (the same loop inside the library).  Compare bench_engine, which calls
 * the game table directly.
 *
 * Usage: bench_lib [-t SECONDS]; one JSON line per game.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cardarena.h"
#include "common.h"

static struct ca_legal	legal[CA_MAX_LEGAL];

static double	rate(const char *, double, int);

/*
 * Plays random games of game for about secs CPU seconds, by ca_legal and
 * ca_apply or (inside) by ca_playout; returns the actions per CPU second.
 */
static double
rate(const char *game, double secs, int inside)
{
	struct ca_game *g;
	char err[256];
	uint64_t seed = 1;
	double t0, t;
	long actions = 0, k;
	int n, p, i;

	t0 = cpu_seconds();
	do {
		if ((g = ca_new(game, 0, NULL, seed++, err, sizeof err)) ==
		    NULL)
			errx(1, "%s: %s", game, err);
		if (inside) {
			if ((k = ca_playout(g, 0)) < 0)
				errx(1, "%s: a playout stuck", game);
			actions += k;
		} else
			while (ca_deciders(g) != 0) {
				p = __builtin_ctz(ca_deciders(g));
				n = ca_legal(g, p, legal, CA_MAX_LEGAL);
				i = (int)(random() % n);
				if (ca_apply(g, p, legal[i].code,
				    legal[i].ranged ? legal[i].lo +
				    (int32_t)(random() % ((int64_t)legal[i].hi -
				    legal[i].lo + 1)) : 0) != 0)
					errx(1, "%s: a legal action refused",
					    game);
				actions++;
			}
		ca_free(g);
	} while ((t = cpu_seconds() - t0) < secs);
	return actions / t;
}

int
main(int argc, char **argv)
{
	const char *name, *errstr;
	double secs = 1;
	int ch, i;

	while ((ch = getopt(argc, argv, "t:")) != -1) {
		if (ch != 't') {
			fprintf(stderr, "usage: bench_lib [-t SECONDS]\n");
			return 2;
		}
		secs = (double)strtonum(optarg, 1, 3600, &errstr);
		if (errstr != NULL)
			errx(2, "-t %s: %s", optarg, errstr);
	}
	srandom(1);
	for (i = 0; (name = ca_game_name(i)) != NULL; i++)
		printf("{\"game\": \"%s\", \"legal_apply_per_cpu_s\": %.0f, "
		    "\"playout_per_cpu_s\": %.0f}\n", name,
		    rate(name, secs, 0), rate(name, secs, 1));
	return 0;
}
