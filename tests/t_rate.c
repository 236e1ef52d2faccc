/*
 * Unit tests of the rating fit (tournaments/rating/rate.c) on synthetic results
 * from players of known strength: the two-player closed form, the weights
 * of a multiplayer finish, recovery of the strengths with errors shrinking
 * as games grow, 95% intervals covering the truth about 95% of the time
 * (and only when whole duplicate blocks are resampled), the bounded and
 * flagged rating of a player who won everything, the anchor, ties and
 * order independence, and the bootstrap replayed one replicate at a time
 * giving the bits of every replicate's matrix held from the start (and
 * of the dense fit rate.c made before its matrix was sparse), its record
 * spilled to a file or its replicates made one at a time giving the same
 * bits as in memory.  TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "rating/rate.h"


static void	 pl_order(struct rng *, const double *, int, const int *, int *);
static void	 simulate(struct rating *, struct rng *, const double *, int,
		    int, long, int, int);
static double	 rms_error(const double *, int, long, uint64_t);
static double	 coverage(int, int, int);
static void	 duel(struct rating *, int, int);
static void	 test_closed_form(void);
static void	 test_weights(void);
static void	 test_perfect(void);
static void	 test_anchor_ties_order(void);
static void	 test_no_prior_boot(void);
static void	 test_replay_bits(void);
static void	 test_exact_tie(void);
static int	 ref_fit(int, const double *, double, double *, int);
static void	 random_tables(struct rating *, struct rng *, const double *,
		    int, int, int);
static void	 test_sparse_dense(void);
static void	 test_binned(void);
static void	 test_spill(void);

/*
 * Draws a Plackett-Luce finish of the k players pl (strengths gam): places
 * by seat.  Its pairwise marginals are exactly Bradley-Terry.
 */
static void
pl_order(struct rng *g, const double *gam, int k, const int *pl, int *places)
{
	int left[MAX_PLAYERS], n = k, i, place = 1;
	double tot, u;

	for (i = 0; i < k; i++)
		left[i] = i;
	while (n > 0) {
		tot = 0;
		for (i = 0; i < n; i++)
			tot += gam[pl[left[i]]];
		u = (double)(rng_next(g) >> 11) * 0x1p-53 * tot;
		for (i = 0; i < n - 1; i++) {
			u -= gam[pl[left[i]]];
			if (u < 0)
				break;
		}
		places[left[i]] = place++;
		left[i] = left[--n];
	}
}

/*
 * Plays blocks of k games (one per seat rotation) of random k-subsets of
 * the n players of Elo truth; copies: every game of a block repeats the
 * first one's finish (perfectly correlated blocks); perblock: each block
 * has its own bootstrap key (else each game has).
 */
static void
simulate(struct rating *r, struct rng *g, const double *truth, int n, int k,
    long blocks, int copies, int perblock)
{
	double gam[64];
	int idx[64], num[64], pl[MAX_PLAYERS], rot[MAX_PLAYERS];
	int rp[MAX_PLAYERS], places[MAX_PLAYERS], first[MAX_PLAYERS];
	int i, j, s, t;
	long b;
	char name[16];

	for (i = 0; i < n; i++) {
		gam[i] = pow(10, truth[i] / 400);
		snprintf(name, sizeof name, "p%d", i);
		idx[i] = rate_player(r, name);
		num[i] = i;
	}
	for (b = 0; b < blocks; b++) {
		for (i = 0; i < n; i++) {
			j = (int)rng_below(g, (uint32_t)i + 1);
			t = num[i]; num[i] = num[j]; num[j] = t;
		}
		for (s = 0; s < k; s++)
			pl[s] = num[s];
		for (t = 0; t < k; t++) {
			for (s = 0; s < k; s++)
				rot[(s + t) % k] = pl[s];
			if (copies && t > 0) {
				for (s = 0; s < k; s++)
					places[(s + t) % k] = first[s];
			} else {
				pl_order(g, gam, k, rot, places);
				for (s = 0; s < k; s++)
					first[s] = places[(s + t) % k];
			}
			for (s = 0; s < k; s++)
				rp[s] = idx[rot[s]];
			rate_add(r, perblock ? rate_blockkey(1, 0, b) :
			    rate_blockkey(1, 0, b * k + t), k, rp, places,
			    NULL);
		}
	}
}

/* The RMS Elo error of a fit on blocks of 4-player games. */
static double
rms_error(const double *truth, int n, long blocks, uint64_t seed)
{
	struct rate_opts o = { 0, 2, NULL, 0, 1500, 1 };
	struct rating r;
	struct rng g;
	char cause[256], name[16];
	double e = 0, d;
	int i;

	rng_seed(&g, seed);
	rate_init(&r, &o);
	simulate(&r, &g, truth, n, 4, blocks, 0, 1);
	if (rate_fit(&r, cause, sizeof cause) == -1)
		return INFINITY;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%d", i);
		d = r.p[rate_player(&r, name)].elo - truth[i];
		e += d * d;
	}
	rate_free(&r);
	return sqrt(e / n);
}

/* The share of (tournament, player) intervals that hold the truth. */
static double
coverage(int sims, int copies, int perblock)
{
	static const double truth[6] = { 1300, 1420, 1480, 1520, 1580, 1700 };
	struct rate_opts o = { 200, 2, NULL, 0, 1500, 7 };
	struct rating r;
	struct rng g;
	char cause[256], name[16];
	int s, i, in = 0, all = 0;
	struct rplayer *p;

	rng_seed(&g, 4242);
	for (s = 0; s < sims; s++) {
		o.seed = (uint64_t)s + 1;
		rate_init(&r, &o);
		simulate(&r, &g, truth, 6, 4, 120, copies, perblock);
		if (rate_fit(&r, cause, sizeof cause) == -1)
			return -1;
		for (i = 0; i < 6; i++) {
			snprintf(name, sizeof name, "p%d", i);
			p = &r.p[rate_player(&r, name)];
			all++;
			if (fabs(p->elo - truth[i]) <= p->pm)
				in++;
		}
		rate_free(&r);
	}
	return (double)in / all;
}

/* Adds players a and b to r and n games between them, a first in wins. */
static void
duel(struct rating *r, int n, int wins)
{
	int pl[2], places[2], i;

	pl[0] = rate_player(r, "a");
	pl[1] = rate_player(r, "b");
	for (i = 0; i < n; i++) {
		places[0] = i < wins ? 1 : 2;
		places[1] = 3 - places[0];
		rate_add(r, rate_blockkey(0, 0, i), 2, pl, places, NULL);
	}
}

/* Two players, no ties: the fit is the closed form. */
static void
test_closed_form(void)
{
	struct rate_opts o = { 0, 0, NULL, 0, 1500, 1 };
	struct rating r;
	char cause[256];
	int ret;
	double d;

	rate_init(&r, &o);
	duel(&r, 100, 70);
	ret = rate_fit(&r, cause, sizeof cause);
	d = 400 * log10(70.0 / 30.0);
	tap_ok(ret == 0 && fabs(r.p[0].elo - (1500 + d / 2)) < 1e-6 &&
	    fabs(r.p[1].elo - (1500 - d / 2)) < 1e-6,
	    "two players 70-30, no prior: %.6f and %.6f = 1500 +- %.6f",
	    r.p[0].elo, r.p[1].elo, d / 2);
	r.opts.prior = 2;
	ret = rate_fit(&r, cause, sizeof cause);
	d = 400 * log10(71.0 / 31.0);
	tap_ok(ret == 0 && fabs(r.p[0].elo - r.p[1].elo - d) < 1e-6,
	    "two players 70-30 with 2 virtual draws: difference %.6f = "
	    "400 log10(71/31) = %.6f", r.p[0].elo - r.p[1].elo, d);
	tap_ok(r.p[0].rank == 1 && r.p[1].rank == 2 && !r.p[0].flag &&
	    !r.p[1].flag, "ranks 1 and 2, no flags");
	rate_free(&r);
}

/* A k-player finish counts k(k-1)/2 pairs weighted 1/(k-1). */
static void
test_weights(void)
{
	struct rate_opts o = { 0, 2, NULL, 0, 1500, 1 };
	struct rating r;
	char cause[256];
	double wab, wba;
	int pl[4], places[4] = { 2, 1, 2, 4 }, i;
	long faults[4][NTFAULT] = { { 1, 0, 0 }, { 0, 0, 0 }, { 0, 2, 3 },
	    { 0, 0, 0 } };

	rate_init(&r, &o);
	pl[0] = rate_player(&r, "a");
	pl[1] = rate_player(&r, "b");
	pl[2] = rate_player(&r, "c");
	pl[3] = rate_player(&r, "d");
	rate_add(&r, 1, 4, pl, places, (const long (*)[NTFAULT])faults);
	tap_ok(fabs(r.p[1].pscore - 1) < 1e-12 && fabs(r.p[0].pscore - 0.5) <
	    1e-12 && fabs(r.p[2].pscore - 0.5) < 1e-12 &&
	    fabs(r.p[3].pscore) < 1e-12,
	    "4-player finish 2,1,2,4: pairwise scores 0.5 1 0.5 0");
	for (i = 0; i < 4; i++)
		if (fabs(r.p[i].pweight - 1) > 1e-12)
			break;
	tap_ok(i == 4, "each player's pairs weigh one game");
	rate_pair(&r, 0, 2, &wab, &wba);
	tap_ok(fabs(wab - 1.0 / 6) < 1e-12 && fabs(wba - 1.0 / 6) < 1e-12,
	    "a tie is half a pair each");
	tap_ok(r.p[2].faults[TF_CRASH] == 2 && r.p[2].faults[TF_ILLEGAL] == 3 &&
	    r.p[0].faults[TF_TIMEOUT] == 1 && r.p[1].firsts == 1,
	    "faults and first places are counted");
	tap_ok(rate_fit(&r, cause, sizeof cause) == 0 && r.p[1].flag &&
	    r.p[3].flag && !r.p[0].flag, "winner and loser of every pair "
	    "are flagged");
	rate_free(&r);
}

/* A player who won everything: bounded and flagged; no prior: refused. */
static void
test_perfect(void)
{
	struct rate_opts o = { 50, 2, NULL, 0, 1500, 3 };
	struct rating r;
	struct rng g;
	char cause[256];
	int pl[3], places[3], i, ret;

	rng_seed(&g, 9);
	rate_init(&r, &o);
	pl[0] = rate_player(&r, "ace");
	pl[1] = rate_player(&r, "b");
	pl[2] = rate_player(&r, "c");
	for (i = 0; i < 300; i++) {
		places[0] = 1;
		places[1] = 2 + (int)rng_below(&g, 2);
		places[2] = 5 - places[1];
		rate_add(&r, (uint64_t)i, 3, pl, places, NULL);
	}
	ret = rate_fit(&r, cause, sizeof cause);
	tap_ok(ret == 0 && r.p[0].flag && isfinite(r.p[0].elo) &&
	    r.p[0].elo < 3500 && r.p[0].elo > r.p[1].elo + 400,
	    "a perfect player is flagged with a finite rating (%.1f)",
	    r.p[0].elo);
	tap_ok(ret == 0 && isfinite(r.p[0].pm) && !r.p[1].flag && !r.p[2].flag,
	    "its interval is finite (+-%.1f); the others are not flagged",
	    r.p[0].pm);
	r.opts.prior = 0;
	ret = rate_fit(&r, cause, sizeof cause);
	tap_ok(ret == -1 && strstr(cause, "prior") != NULL,
	    "without a prior the fit is refused: %s", cause);
	rate_free(&r);
}

/*
 * Two players, a wins 9 of 10, no prior: a replicate in which b never
 * won has no finite fit, yet no interval is +-0 and a beating b is not
 * certain.
 */
static void
test_no_prior_boot(void)
{
	struct rate_opts o = { 200, 0, NULL, 0, 1500, 1 };
	struct rating r;
	char cause[256];
	int i, ret, finite = 1;

	rate_init(&r, &o);
	duel(&r, 10, 9);
	ret = rate_fit(&r, cause, sizeof cause);
	for (i = 0; i < r.nboot * 2; i++)
		finite = finite && isfinite(r.belo[i]);
	tap_ok(ret == 0 && r.nboot > 1 && finite,
	    "a wins 9 of 10, --prior 0: %d finite replicates of 200",
	    r.nboot);
	for (i = 0; i < 2; i++)
		finite = finite && isfinite(r.p[i].pm) && isfinite(r.p[i].lo) &&
		    isfinite(r.p[i].hi);
	tap_ok(ret == 0 && finite && r.p[0].pm > 100 && r.p[1].pm > 100,
	    "the intervals are finite and wide: +-%.1f and +-%.1f",
	    r.p[0].pm, r.p[1].pm);
	i = r.order[0];
	tap_ok(ret == 0 && i == 0 && isfinite(r.p[i].los_next) &&
	    r.p[i].los_next > 0.5 && r.p[i].los_next < 0.999,
	    "a > b is likely, not certain: %.4f", r.p[i].los_next);
	rate_free(&r);
}

/* The anchor, all ties, and the order of the results. */
static void
test_anchor_ties_order(void)
{
	static const double truth[4] = { 1400, 1450, 1550, 1600 };
	struct rate_opts o = { 100, 2, NULL, 0, 1500, 5 };
	struct rating r, a, rev;
	struct rng g;
	char cause[256];
	int pl[2], places[2], i, same;
	double d1, d2;

	rng_seed(&g, 11);
	rate_init(&r, &o);
	simulate(&r, &g, truth, 4, 3, 200, 0, 1);
	rate_fit(&r, cause, sizeof cause);
	o.anchor = "p0";
	o.anchor_elo = 2000;
	rng_seed(&g, 11);
	rate_init(&a, &o);
	simulate(&a, &g, truth, 4, 3, 200, 0, 1);
	tap_ok(rate_fit(&a, cause, sizeof cause) == 0 &&
	    fabs(a.p[rate_player(&a, "p0")].elo - 2000) < 1e-9,
	    "--anchor p0=2000 puts p0 at 2000");
	d1 = r.p[rate_player(&r, "p3")].elo - r.p[rate_player(&r, "p0")].elo;
	d2 = a.p[rate_player(&a, "p3")].elo - a.p[rate_player(&a, "p0")].elo;
	tap_ok(fabs(d1 - d2) < 1e-6 && a.p[rate_player(&a, "p0")].pm < 1e-6,
	    "the anchor keeps the differences; its own interval is 0");
	rate_free(&a);
	o.anchor = "nobody";
	rate_init(&a, &o);
	rate_player(&a, "x");
	tap_ok(rate_fit(&a, cause, sizeof cause) == -1, "an unknown anchor is "
	    "refused: %s", cause);
	rate_free(&a);

	/* the same games in another order: the same intervals */
	o.anchor = NULL;
	rate_init(&rev, &o);
	rate_player(&rev, "p3");
	rate_player(&rev, "p2");
	rate_player(&rev, "p1");
	rate_player(&rev, "p0");
	rng_seed(&g, 11);
	simulate(&rev, &g, truth, 4, 3, 200, 0, 1);
	rate_fit(&rev, cause, sizeof cause);
	same = 1;
	for (i = 0; i < 4; i++) {
		char name[8];

		snprintf(name, sizeof name, "p%d", i);
		if (fabs(rev.p[rate_player(&rev, name)].elo -
		    r.p[rate_player(&r, name)].elo) > 1e-6 ||
		    fabs(rev.p[rate_player(&rev, name)].pm -
		    r.p[rate_player(&r, name)].pm) > 1e-6)
			same = 0;
	}
	tap_ok(same, "players met in another order: the same ratings and "
	    "intervals");
	tap_ok(r.p[r.order[0]].los_next > 0.5 && r.p[r.order[0]].los_next <= 1,
	    "likelihood of superiority of the leader over the second: %.3f",
	    r.p[r.order[0]].los_next);
	rate_free(&r);
	rate_free(&rev);

	o.boot = 0;
	rate_init(&r, &o);
	pl[0] = rate_player(&r, "x");
	pl[1] = rate_player(&r, "y");
	places[0] = places[1] = 1;
	for (i = 0; i < 10; i++)
		rate_add(&r, (uint64_t)i, 2, pl, places, NULL);
	tap_ok(rate_fit(&r, cause, sizeof cause) == 0 &&
	    fabs(r.p[0].elo - 1500) < 1e-9 && fabs(r.p[1].elo - 1500) < 1e-9,
	    "all ties: both at 1500");
	rate_free(&r);
}

/*
 * The bootstrap replicates rate_fit replays equal, bit for bit, the fits
 * of one win matrix per replicate summed game by game as the games come
 * (each block's weights drawn once, in replicate order): games of 2 to 5
 * players with ties, blocks whose players a game change, a block key that
 * comes back later.
 */
static void
test_replay_bits(void)
{
	enum { N = 7, G = 400, NB = 40 };
	struct rate_opts o = { NB, 2, NULL, 0, 1500, 5 };
	struct rating r;
	struct rng g, bg;
	double *ref, lambda[N], lb[N], be[N], cdf[RATE_POISSON_MAX], share;
	double w0[N * N];
	int pl[MAX_PLAYERS], places[MAX_PLAYERS], wt[NB], a, b, i, k, x;
	int same = 1, seen[N];
	uint64_t key, last = 0;
	char cause[256], name[16];

	ref = calloc((size_t)NB * N * N, sizeof *ref);
	rate_init(&r, &o);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof name, "p%d", i);
		rate_player(&r, name);
	}
	rate_poisson_cdf(cdf);
	rng_seed(&g, 99);
	for (i = 0; i < G; i++) {
		k = 2 + (int)rng_below(&g, 4);
		memset(seen, 0, sizeof seen);
		for (a = 0; a < k; a++) {
			do
				pl[a] = (int)rng_below(&g, N);
			while (seen[pl[a]]);
			seen[pl[a]] = 1;
			places[a] = 1 + (int)rng_below(&g, (uint32_t)k);
		}
		key = rate_blockkey(1, 0, i < G - 20 ? i / 3 : 5);
		if (i == 0 || key != last) {
			rng_seed(&bg, seed_derive(o.seed, key));
			for (x = 0; x < NB; x++)
				wt[x] = rate_poisson1(&bg, cdf);
		}
		last = key;
		rate_add(&r, key, k, pl, places, NULL);
		share = 1.0 / (k - 1);
		for (a = 0; a < k; a++)
			for (b = 0; b < k; b++)
				for (x = 0; x < NB && b != a &&
				    places[a] <= places[b]; x++)
					ref[((size_t)x * N + pl[a]) * N +
					    pl[b]] += places[a] < places[b] ?
					    wt[x] * share : wt[x] * (share / 2);
	}
	tap_ok(rate_fit(&r, cause, sizeof cause) == 0 && r.nboot == NB,
	    "a bootstrap of %d games of 2 to 5 players fitted", G);
	/* the point fit, from the pool's sums as a dense matrix */
	for (a = 0; a < N; a++)
		for (b = 0; b < N; b++)
			rate_pair(&r, a, b, &w0[a * N + b], &share);
	ref_fit(N, w0, o.prior, lambda, 0);
	for (x = 0; x < NB; x++) {
		memcpy(lb, lambda, sizeof lb);
		ref_fit(N, ref + (size_t)x * N * N, fmax(o.prior,
		    RATE_BOOT_PRIOR), lb, 1);
		rate_to_elo(&r, lb, be, -1);
		same = same && memcmp(be, r.belo + (size_t)x * N,
		    sizeof be) == 0;
	}
	tap_ok(same, "every replicate replayed has the bits of its matrix "
	    "held from the start");
	rate_free(&r);
	free(ref);
}

/*
 * Two players whose results mirror each other (every game comes with its
 * twin, the two players' places swapped) are tied exactly: whatever the
 * order of the games and of the players' first appearance, the ranking is
 * the same, the tie broken by name.  (A local run and the merge of the
 * same games as jobs read them in different orders; the sums of thirds
 * and sixths, and the fit's sweeps, then differ in their last bits.)
 */
static void
test_exact_tie(void)
{
	static const char *const names[5] = { "a", "b", "c", "d", "e" };
	enum { NG = 60, K = 4, ORDERS = 40 };
	struct rate_opts o = { 0, 2, NULL, 0, 1500, 5 };
	int seatsof[2 * NG][K], places[2 * NG][K], perm[2 * NG], reg[5];
	int first[5], rank[5], i, j, t, o2, same = 1, adjacent = 1, s;
	struct rating r;
	struct rng g;
	char cause[256];

	rng_seed(&g, 23);
	for (i = 0; i < NG; i++) {
		/* four of the five, in places 1..4 (ties among them) */
		int out = (int)(rng_next(&g) % 5), k = 0;

		for (j = 0; j < 5; j++)
			if (j != out)
				seatsof[2 * i][k++] = j;
		for (j = 0; j < K; j++)
			places[2 * i][j] = 1 + (int)(rng_next(&g) % K);
		/* its twin: b and c swapped */
		for (j = 0; j < K; j++) {
			seatsof[2 * i + 1][j] = seatsof[2 * i][j] == 1 ? 2 :
			    seatsof[2 * i][j] == 2 ? 1 : seatsof[2 * i][j];
			places[2 * i + 1][j] = places[2 * i][j];
		}
	}
	for (o2 = 0; o2 < ORDERS; o2++) {
		for (i = 0; i < 2 * NG; i++)
			perm[i] = i;
		for (i = 0; i < 5; i++)
			reg[i] = i;
		if (o2 > 0) {
			for (i = 2 * NG - 1; i > 0; i--) {
				j = (int)(rng_next(&g) % (uint64_t)(i + 1));
				t = perm[i];
				perm[i] = perm[j];
				perm[j] = t;
			}
			for (i = 4; i > 0; i--) {
				j = (int)(rng_next(&g) % (uint64_t)(i + 1));
				t = reg[i];
				reg[i] = reg[j];
				reg[j] = t;
			}
		}
		rate_init(&r, &o);
		for (i = 0; i < 5; i++)
			rate_player(&r, names[reg[i]]);
		for (i = 0; i < 2 * NG; i++) {
			int pl[K];

			for (j = 0; j < K; j++)
				pl[j] = rate_player(&r, names[seatsof[perm[i]][j]]);
			rate_add(&r, (uint64_t)i, K, pl, places[perm[i]], NULL);
		}
		if (rate_fit(&r, cause, sizeof cause) != 0) {
			same = 0;
			rate_free(&r);
			break;
		}
		for (i = 0; i < 5; i++)
			rank[i] = r.p[rate_player(&r, names[i])].rank;
		if (o2 == 0)
			memcpy(first, rank, sizeof first);
		else if (memcmp(first, rank, sizeof first) != 0)
			same = 0;
		if (rank[2] != rank[1] + 1)
			adjacent = 0;
		rate_free(&r);
	}
	tap_ok(same, "an exact tie in %d orders of the same games: the same "
	    "ranking each time", ORDERS);
	s = first[1];
	tap_ok(adjacent, "the tied players side by side, b (rank %d) before c",
	    s);
}

/*
 * The reference: the dense fit rate.c made before its matrix was sparse
 * (Hunter's MM iterations, cyclic, on the n x n matrix w with the prior's
 * share on every pair), kept here to compare the sparse fit's bits with.
 */
static int
ref_fit(int n, const double *w, double prior, double *lambda, int warm)
{
	double *gam, *wins, *nm, pr, num, den, nij, old, change, mean;
	int i, j, it;

	gam = calloc((size_t)n, sizeof *gam);
	wins = calloc((size_t)n, sizeof *wins);
	nm = calloc((size_t)n * (size_t)n, sizeof *nm);
	pr = prior / (n - 1);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			nm[i * n + j] = w[i * n + j] + w[j * n + i] + pr;
	for (i = 0; i < n; i++) {
		gam[i] = warm ? exp(lambda[i]) : 1;
		for (j = 0; j < n; j++)
			if (j != i)
				wins[i] += w[i * n + j] + pr / 2;
	}
	for (it = 1; it <= 200000; it++) {
		change = 0;
		for (i = 0; i < n; i++) {
			den = 0;
			for (j = 0; j < n; j++) {
				if (j == i)
					continue;
				nij = nm[i * n + j];
				if (nij > 0)
					den += nij / (gam[i] + gam[j]);
			}
			num = wins[i];
			old = gam[i];
			gam[i] = den > 0 && num > 0 ? num / den : old * 1e-3;
			if (fabs(log(gam[i] / old)) > change)
				change = fabs(log(gam[i] / old));
		}
		mean = 0;
		for (i = 0; i < n; i++)
			mean += log(gam[i]);
		mean /= n;
		for (i = 0; i < n; i++)
			gam[i] *= exp(-mean);
		if (change < 1e-9)
			break;
	}
	for (i = 0; i < n; i++)
		lambda[i] = log(gam[i]);
	free(gam);
	free(wins);
	free(nm);
	return it;
}

/*
 * Adds ngames random tables of 2 to 4 of the n players of r (strengths
 * gam), distinct players anywhere, few hops apart; every deal games a
 * bootstrap block.
 */
static void
random_tables(struct rating *r, struct rng *g, const double *gam, int n,
    int ngames, int deal)
{
	int pl[MAX_PLAYERS], places[MAX_PLAYERS], i, a, k;

	for (i = 0; i < ngames; i++) {
		k = 2 + (int)rng_below(g, 3);
		pl[0] = (int)rng_below(g, n);
		for (a = 1; a < k; a++)
			pl[a] = (pl[a - 1] + 1 + (int)rng_below(g, n / 4)) % n;
		pl_order(g, gam, k, pl, places);
		rate_add(r, (uint64_t)(i / deal), k, pl, places, NULL);
	}
}

/*
 * N players (N * N is the dense fit's matrix) meeting at random tables of
 * 2 to 4, a few games each, and a ring of draws: the sparse fit
 * holds only the pairs that met and gives, with and without a prior, the
 * bits of the dense fit of the same sums.
 */
static void
test_sparse_dense(void)
{
	enum { N = 3000, G = 12000 };
	struct rate_opts o = { 0, 0, NULL, 0, 1500, 1 };
	struct rating r;
	struct rng g;
	double *w, *lambda, *elo, *gam, prior;
	int pl[MAX_PLAYERS], places[MAX_PLAYERS], i, a, pass, same;
	char cause[256], name[16];

	w = calloc((size_t)N * N, sizeof *w);
	lambda = calloc(N, sizeof *lambda);
	elo = calloc(N, sizeof *elo);
	gam = calloc(N, sizeof *gam);
	for (pass = 0; pass < 2; pass++) {
		prior = pass == 0 ? 0 : 2;
		o.prior = prior;
		rate_init(&r, &o);
		rng_seed(&g, 7);
		for (i = 0; i < N; i++) {
			snprintf(name, sizeof name, "p%d", i);
			rate_player(&r, name);
			gam[i] = exp((double)rng_below(&g, 1000) / 400);
		}
		random_tables(&r, &g, gam, N, G, 1);
		/* a ring of draws: bounded without a prior */
		for (i = 0; i < N; i++) {
			pl[0] = i;
			pl[1] = (i + 1) % N;
			places[0] = places[1] = 1;
			rate_add(&r, (uint64_t)(G + i), 2, pl, places, NULL);
		}
		same = rate_fit(&r, cause, sizeof cause) == 0;
		for (i = 0; i < N; i++)
			for (a = 0; a < N; a++)
				rate_pair(&r, i, a, &w[i * N + a], &elo[0]);
		ref_fit(N, w, prior, lambda, 0);
		rate_to_elo(&r, lambda, elo, -1);
		for (i = 0; i < N && same; i++)
			same = memcmp(&elo[i], &r.p[i].elo, sizeof *elo) == 0;
		tap_ok(same && r.npair * 50 < (long)N * (N - 1) / 2,
		    "%d players, %ld pairs met of %ld, prior %g: the sparse "
		    "fit has the dense fit's bits", N, r.npair,
		    (long)N * (N - 1) / 2, prior);
		rate_free(&r);
	}
	free(w);
	free(lambda);
	free(elo);
	free(gam);
}

/*
 * N players over a wide spread of strengths (some 16 nats: bins beyond the
 * first iteration's, players on their own) at random tables, with a
 * prior: summed by bins of strength (dense_max below N) the fit is the
 * dense fit to well within its tolerance, cold and warm, and its
 * bootstrap (fitted by bins too) gives finite intervals.
 */
static void
test_binned(void)
{
	enum { N = 1500, G = 20000 };
	struct rate_opts o = { 0, 2, NULL, 0, 1500, 1 };
	struct rating r;
	struct rng g;
	double *w, *lambda, *elo, *gam, dx, worst = 0, wij;
	int i, a, ok, fin;
	char cause[256], name[16];

	w = calloc((size_t)N * N, sizeof *w);
	lambda = calloc(N, sizeof *lambda);
	elo = calloc(N, sizeof *elo);
	gam = calloc(N, sizeof *gam);
	rate_init(&r, &o);
	r.dense_max = 100;
	rng_seed(&g, 5);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof name, "p%d", i);
		rate_player(&r, name);
		gam[i] = exp(((double)rng_below(&g, 1600) - 800) / 100);
	}
	random_tables(&r, &g, gam, N, G, 1);
	ok = rate_fit(&r, cause, sizeof cause) == 0;
	for (i = 0; i < N; i++)
		for (a = 0; a < N; a++)
			rate_pair(&r, i, a, &w[i * N + a], &wij);
	ref_fit(N, w, o.prior, lambda, 0);
	rate_to_elo(&r, lambda, elo, -1);
	for (i = 0; i < N; i++)
		worst = fmax(worst, fabs(elo[i] - r.p[i].elo));
	tap_ok(ok && worst < 1e-4, "%d players, prior 2, the prior summed by "
	    "bins: the dense fit within %.2g Elo", N, worst);
	/* warm, from the fit: it stays */
	r.warm = 1;
	ok = rate_fit(&r, cause, sizeof cause) == 0;
	ok = ok && rate_fit(&r, cause, sizeof cause) == 0;
	for (i = 0, dx = 0; i < N; i++)
		dx = fmax(dx, fabs(elo[i] - r.p[i].elo));
	tap_ok(ok && dx < 1e-4, "refitted warm by bins: within %.2g Elo",
	    dx);
	rate_free(&r);
	/* a bootstrap fitted by bins */
	o.boot = 5;
	rate_init(&r, &o);
	r.dense_max = 100;
	rng_seed(&g, 6);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof name, "p%d", i);
		rate_player(&r, name);
	}
	random_tables(&r, &g, gam, N, G, 4);
	ok = rate_fit(&r, cause, sizeof cause) == 0;
	for (i = 0, fin = 0; i < N; i++)
		fin += isfinite(r.p[i].pm) && r.p[i].pm > 0;
	tap_ok(ok && r.nboot == 5 && fin == N, "its bootstrap by bins: %d "
	    "finite replicates, %d of %d intervals finite", r.nboot, fin, N);
	rate_free(&r);
	free(w);
	free(lambda);
	free(elo);
	free(gam);
}

/*
 * The bootstrap's record spilled to its temporary file (a memory of 64
 * bytes), and its replicates made one at a time (their matrices' memory
 * a few bytes), give the bits of the record held in memory and made 16
 * at a time; a second fit of the pool, the generators resumed from the
 * record again, too.
 */
static void
test_spill(void)
{
	enum { N = 9, G = 3000, NB = 33 };
	struct rate_opts o = { NB, 1, NULL, 0, 1500, 3 };
	struct rating r[3];
	struct rng g;
	double gam[N];
	int pl[MAX_PLAYERS], places[MAX_PLAYERS], i, a, k, v, same = 1;
	char cause[256], name[16];

	for (v = 0; v < 3; v++) {
		rate_init(&r[v], &o);
		r[v].logmem = v == 1 ? 64 : 0;
		r[v].bootmem = v == 2 ? 8 : 0;
		rng_seed(&g, 11);
		for (i = 0; i < N; i++) {
			snprintf(name, sizeof name, "p%d", i);
			rate_player(&r[v], name);
			gam[i] = exp(i / 4.0);
		}
		for (i = 0; i < G; i++) {
			k = 2 + (int)rng_below(&g, 4);
			for (a = 0; a < k; a++)
				pl[a] = (i + a * 2) % N;
			pl_order(&g, gam, k, pl, places);
			rate_add(&r[v], rate_blockkey(1, i / 50, i / 4), k, pl,
			    places, NULL);
		}
		same = same && rate_fit(&r[v], cause, sizeof cause) == 0 &&
		    r[v].nboot == NB;
	}
	tap_ok(same && r[1].log.spilled > 1000 && r[1].log.len < 64 &&
	    r[0].log.spilled == 0, "the record spilled: %ld bytes in the "
	    "file, %zu in memory (held: %zu)", r[1].log.spilled, r[1].log.len,
	    r[0].log.len);
	for (v = 1; v < 3 && same; v++)
		same = memcmp(r[0].belo, r[v].belo, (size_t)NB * N *
		    sizeof *r[0].belo) == 0;
	tap_ok(same, "spilled, or one replicate a pass: the bits of the "
	    "record in memory");
	for (v = 0; v < 3; v++)
		same = same && rate_fit(&r[v], cause, sizeof cause) == 0;
	for (v = 1; v < 3 && same; v++)
		same = memcmp(r[0].belo, r[v].belo, (size_t)NB * N *
		    sizeof *r[0].belo) == 0;
	tap_ok(same, "and again on a second fit");
	for (v = 0; v < 3; v++)
		rate_free(&r[v]);
}

int
main(void)
{
	static const double truth[6] = { 1250, 1400, 1470, 1530, 1600, 1750 };
	double e[3], c_block, c_copies, c_naive;
	int rep;

	test_closed_form();
	test_weights();
	test_perfect();
	test_anchor_ties_order();
	test_no_prior_boot();
	test_replay_bits();
	test_exact_tie();
	test_sparse_dense();
	test_binned();
	test_spill();

	e[0] = e[1] = e[2] = 0;
	for (rep = 0; rep < 4; rep++) {
		e[0] += rms_error(truth, 6, 25, 100 + (uint64_t)rep) / 4;
		e[1] += rms_error(truth, 6, 250, 200 + (uint64_t)rep) / 4;
		e[2] += rms_error(truth, 6, 2500, 300 + (uint64_t)rep) / 4;
	}
	tap_ok(e[0] > e[1] && e[1] > e[2] && e[2] < 15,
	    "strengths recovered, RMS error shrinking with games: 100 games "
	    "%.1f, 1000 games %.1f, 10000 games %.1f Elo", e[0], e[1], e[2]);
	tap_ok(e[1] < e[0] / 2 && e[2] < e[1] / 2,
	    "ten times the games, about a third of the error");

	c_block = coverage(200, 0, 1);
	tap_ok(c_block >= 0.92 && c_block <= 0.98, "95%% intervals cover the "
	    "truth %.1f%% of the time (200 tournaments x 6 players)",
	    100 * c_block);
	c_copies = coverage(200, 1, 1);
	tap_ok(c_copies >= 0.92 && c_copies <= 0.98, "with perfectly correlated "
	    "games in each duplicate block, resampling whole blocks still "
	    "covers %.1f%%", 100 * c_copies);
	c_naive = coverage(100, 1, 0);
	tap_ok(c_naive < 0.85, "(resampling single games there would cover only "
	    "%.1f%%)", 100 * c_naive);
	return tap_done();
}
