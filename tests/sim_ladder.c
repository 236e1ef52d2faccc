/*
 * The ladder's pairing measured (make ladder-sim; not part of check): how
 * many games a new bot needs before its 95% interval is within +-50 Elo,
 * under the ladder's pairing (tournaments/ladder/ladder_pair.c) and under uniform
 * random tables.  A pool of established bots of known strengths (spread
 * over 600 Elo) has played a history; a new bot of a random strength then
 * enters, and tables of k seats are played (finishes drawn from the
 * strengths, Plackett-Luce by Gumbel keys, so pairwise Bradley-Terry), each
 * a chunk of duplicate deals, the ratings refitted with rate.c's block
 * bootstrap after every table, as the ladder does.  Prints one line per
 * trial and the medians.
 *
 *   sim_ladder [-n BOTS] [-k SEATS] [-t TRIALS] [-b BOOT] [-s SEED]
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ladder/ladder_pair.h"
#include "rating/rate.h"
#include "rng.h"

#define HISTORY		3000	/* games the established bots have */
#define DEALS		2	/* per table */
#define MAX_NEW_GAMES	20000	/* give up */
#define MIN_GAMES	40	/* before an interval is believed */

static void	 play(struct rating *, struct rng *, const double *,
		    const int *, int, long);
static long	 trial(int, int, int, uint64_t, int, long *);
static int	 cmp_long(const void *, const void *);

/* Plays one table of k bots tab (true Elo elo): DEALS deals, k games each. */
static void
play(struct rating *r, struct rng *g, const double *elo, const int *tab,
    int k, long table)
{
	double key[MAX_PLAYERS], u;
	int places[MAX_PLAYERS], d, s, a, b;

	for (d = 0; d < DEALS; d++)
		for (s = 0; s < k; s++) {
			for (a = 0; a < k; a++) {
				u = ((double)(rng_next(g) >> 11) + 0.5) *
				    0x1p-53;
				key[a] = elo[tab[a]] * M_LN10 / 400 -
				    log(-log(u));
			}
			for (a = 0; a < k; a++) {
				places[a] = 1;
				for (b = 0; b < k; b++)
					if (key[b] > key[a])
						places[a]++;
			}
			rate_add(r, rate_blockkey(0, table, d), k, tab, places,
			    NULL);
		}
}

/*
 * One trial: n established bots and a new one; returns the games the new
 * bot played until its interval was within +-50 (ladder: by pair_choose,
 * else uniform random tables).
 */
static long
trial(int n, int k, int boot, uint64_t seed, int ladder, long *tables)
{
	struct rate_opts o = { boot, 2, NULL, 0, 1500, seed };
	struct rating r;
	struct lcand *c;
	struct rng g;
	double *elo;
	long table = 0, played = 0, *last, start;
	int i, a, b, tab[MAX_PLAYERS], pick[MAX_PLAYERS], nb = n + 1, p;
	char cause[256], name[32];

	rng_seed(&g, seed);
	rate_init(&r, &o);
	elo = calloc((size_t)nb, sizeof *elo);
	last = calloc((size_t)nb, sizeof *last);
	c = calloc((size_t)nb, sizeof *c);
	for (i = 0; i < nb; i++) {
		elo[i] = 1200 + 600 * (double)(rng_next(&g) >> 11) * 0x1p-53;
		snprintf(name, sizeof name, "b%d", i);
		rate_player(&r, name);
	}
	/* the history: uniform tables of the established bots */
	while (r.games < HISTORY) {
		for (a = 0; a < k; a++) {
again:
			tab[a] = (int)(rng_next(&g) % (uint64_t)n);
			for (b = 0; b < a; b++)
				if (tab[b] == tab[a])
					goto again;
		}
		play(&r, &g, elo, tab, k, table++);
	}
	r.warm = 1;
	rate_fit(&r, cause, sizeof cause);
	start = table;
	while (played < MAX_NEW_GAMES) {
		if (ladder) {
			for (i = 0; i < nb; i++) {
				p = i;
				c[i].idx = i;
				c[i].elo = r.p[p].elo;
				c[i].pm = r.p[p].games > 0 ? r.p[p].pm : NAN;
				c[i].games = r.p[p].games;
				c[i].since = table - last[i];
				c[i].fresh = r.p[p].games == 0;
				c[i].inflight = 0;
			}
			pair_choose(c, nb, k, &g, pick);
		} else
			for (a = 0; a < k; a++) {
again2:
				pick[a] = (int)(rng_next(&g) % (uint64_t)nb);
				for (b = 0; b < a; b++)
					if (pick[b] == pick[a])
						goto again2;
			}
		for (a = 0; a < k; a++) {
			last[pick[a]] = table;
			if (pick[a] == n)
				played += DEALS * k;
		}
		play(&r, &g, elo, pick, k, table++);
		if (rate_fit(&r, cause, sizeof cause) == -1)
			break;
		/* a few blocks can make a bootstrap interval look narrow */
		if (played >= MIN_GAMES && r.p[n].pm <= 50)
			break;
	}
	*tables = table - start;
	rate_free(&r);
	free(elo);
	free(last);
	free(c);
	return played;
}

/* Orders longs ascending (qsort). */
static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	long *lad, *uni, tl, tu;
	double ml = 0, mu = 0, tml = 0, tmu = 0;
	uint64_t seed = 1;
	int ch, n = 20, k = 4, trials = 10, boot = 100, i;

	while ((ch = getopt(argc, argv, "n:k:t:b:s:")) != -1) {
		switch (ch) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'k':
			k = atoi(optarg);
			break;
		case 't':
			trials = atoi(optarg);
			break;
		case 'b':
			boot = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: sim_ladder [-n BOTS] "
			    "[-k SEATS] "
			    "[-t TRIALS] [-b BOOT] [-s SEED]\n");
			return 2;
		}
	}
	if (n < k || k < 2 || k > MAX_PLAYERS || trials < 1 || boot < 2) {
		fprintf(stderr, "sim_ladder: need 2 <= SEATS <= BOTS, TRIALS "
		    ">= 1, BOOT >= 2\n");
		return 2;
	}
	lad = calloc((size_t)trials, sizeof *lad);
	uni = calloc((size_t)trials, sizeof *uni);
	printf("%d established bots, tables of %d, %d deals a table, %d "
	    "bootstrap replicates\n", n, k, DEALS, boot);
	for (i = 0; i < trials; i++) {
		lad[i] = trial(n, k, boot, seed + (uint64_t)i, 1, &tl);
		uni[i] = trial(n, k, boot, seed + (uint64_t)i, 0, &tu);
		printf("trial %d: ladder %ld games (%ld tables), uniform %ld "
		    "games (%ld tables)\n", i + 1, lad[i], tl, uni[i], tu);
		ml += lad[i];
		mu += uni[i];
		tml += tl;
		tmu += tu;
		fflush(stdout);
	}
	qsort(lad, (size_t)trials, sizeof *lad, cmp_long);
	qsort(uni, (size_t)trials, sizeof *uni, cmp_long);
	printf("games of the new bot to +-50: ladder median %ld (mean %.0f), "
	    "uniform median %ld (mean %.0f)\n", lad[trials / 2], ml / trials,
	    uni[trials / 2], mu / trials);
	printf("tables played meanwhile: ladder mean %.0f, uniform mean "
	    "%.0f\n", tml / trials, tmu / trials);
	free(lad);
	free(uni);
	return 0;
}
