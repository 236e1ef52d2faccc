/*
 * Unit tests of the ladder's pairing (tournaments/ladder/ladder_pair.c): k
 * distinct bots a table, none when there are fewer than k, a new version
 * seated first, opponents near its rating preferred, and every bot playing
 * regularly even when its interval is far narrower than the others'.
 * TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ladder/ladder_pair.h"
#include "rng.h"

#define N	12
#define K	4

int
main(void)
{
	struct lcand c[N];
	struct rng g;
	long played[N], since[N], near = 0, far = 0, tables = 3000, t;
	int out[K], i, j, distinct = 1, fresh_first = 1, least;

	rng_seed(&g, 7);
	memset(c, 0, sizeof c);
	for (i = 0; i < N; i++) {
		c[i].idx = i;
		c[i].elo = 1200 + 50 * i;
		c[i].pm = 60;
		c[i].games = 500;
	}
	tap_ok(pair_choose(c, K - 1, K, &g, out) == -1,
	    "no table from fewer bots than seats");
	for (t = 0; t < 200; t++) {
		pair_choose(c, N, K, &g, out);
		for (i = 0; i < K; i++)
			for (j = 0; j < i; j++)
				if (out[i] == out[j] || out[i] < 0 ||
				    out[i] >= N)
					distinct = 0;
	}
	tap_ok(distinct, "k distinct bots at every table");
	/* a new version, not rated yet, in the middle of the field */
	c[5].pm = NAN;
	c[5].games = 0;
	c[5].fresh = 1;
	for (t = 0; t < 100; t++) {
		pair_choose(c, N, K, &g, out);
		if (out[0] != 5)
			fresh_first = 0;
	}
	tap_ok(fresh_first, "a new version takes the first seat");
	/* rated now, still wide: its opponents near its rating */
	c[5].pm = 150;
	c[5].games = 40;
	c[5].fresh = 0;
	c[5].elo = 1500;
	for (t = 0; t < 500; t++) {
		pair_choose(c, N, K, &g, out);
		if (out[0] != 5)
			continue;
		for (i = 1; i < K; i++) {
			if (fabs(c[out[i]].elo - 1500) <= 150)
				near++;
			else
				far++;
		}
	}
	tap_ok(near > 2 * far, "opponents near the new bot's rating are "
	    "preferred (%ld near, %ld far)", near, far);
	/* one bot known to +-5, the rest to +-100: all still play */
	for (i = 0; i < N; i++) {
		c[i].pm = 100;
		c[i].games = 500;
		c[i].fresh = 0;
		played[i] = since[i] = 0;
	}
	c[0].pm = 5;
	c[0].games = 100000;
	for (t = 0; t < tables; t++) {
		for (i = 0; i < N; i++)
			c[i].since = since[i]++;
		pair_choose(c, N, K, &g, out);
		for (i = 0; i < K; i++) {
			played[out[i]]++;
			since[out[i]] = 0;
		}
	}
	least = 0;
	for (i = 1; i < N; i++)
		if (played[i] < played[least])
			least = i;
	tap_ok(played[least] * N * 10 >= tables * K,
	    "every bot plays regularly: the least played sat at %ld of %ld "
	    "tables (at least a tenth of its share)", played[least], tables);
	return tap_done();
}
