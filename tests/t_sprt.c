/*
 * Tests of the gauntlet's SPRT (tournaments/gauntlet/sprt.c): the Elo and score
 * conversions, Wald's bounds, the refusals of bad parameters, the LLR
 * against its normal approximation, and the error rates by simulation.
 *
 * The simulated game: k seats; each deal gives every seat a luck drawn
 * from N(0, LUCK^2) and each game every player a noise from N(0,
 * NOISE^2); a player's performance is its skill + its seat's luck + its
 * noise, and the finish is by performance.  The pool's skill is 0; a
 * candidate of skill d beats one opponent with chance Phi(d / sqrt(2
 * (LUCK^2 + NOISE^2))), which gives the d of any Elo gain exactly.  With
 * duplicate pairing a unit is a deal played from every seat (k games);
 * without, a unit is one game on a deal of its own.
 *
 *   t_sprt            the TAP tests (make check)
 *   t_sprt -r RUNS    the error-rate table for RUNS runs per case
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "gauntlet/sprt.h"
#include "rng.h"

#define SEATS	4
#define LUCK	1.0
#define NOISE	0.5
#define MAXUNITS 200000

struct outcome {
	long	 h0, h1, undecided;
	double	 games;		/* summed over the runs */
};

static double	 uniform(struct rng *);
static double	 normal(struct rng *);
static double	 skill_of(double);
static int	 play_unit(struct rng *, double, int);
static void	 simulate(struct outcome *, int, double, double, double,
		    double, double, int, uint64_t);
static void	 test_basics(void);
static void	 test_llr_normal(void);
static void	 report(int);

/* A uniform double in [0, 1). */
static double
uniform(struct rng *g)
{
	return (double)(rng_next(g) >> 11) * 0x1p-53;
}

/* A standard normal draw (Box-Muller). */
static double
normal(struct rng *g)
{
	double u = uniform(g), v = uniform(g);

	return sqrt(-2.0 * log1p(-u)) * cos(2.0 * M_PI * v);
}

/* The candidate's skill whose expected pairwise score is that of elo. */
static double
skill_of(double elo)
{
	double s = sprt_score(elo);

	/* Phi^-1(s) by bisection on erfc */
	double lo = -10, hi = 10, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (0.5 * erfc(-mid / M_SQRT2) < s)
			lo = mid;
		else
			hi = mid;
	}
	return mid * sqrt(2.0 * (LUCK * LUCK + NOISE * NOISE));
}

/*
 * Plays one unit for a candidate of skill d (bot 0; bots 1..k-1 the pool):
 * with dup, one deal from every seat; else one game at a random seat.
 * Returns the candidate's score numerator, over 2 (k-1) per game.
 */
static int
play_unit(struct rng *g, double d, int dup)
{
	double luck[SEATS], perf[SEATS];
	int ngames = dup ? SEATS : 1, gi, b, seat0, num = 0;

	for (b = 0; b < SEATS; b++)
		luck[b] = LUCK * normal(g);
	seat0 = dup ? 0 : (int)rng_below(g, SEATS);
	for (gi = 0; gi < ngames; gi++) {
		/* bot b at seat (b + gi + seat0) % SEATS */
		for (b = 0; b < SEATS; b++)
			perf[b] = (b == 0 ? d : 0.0) +
			    luck[(b + gi + seat0) % SEATS] + NOISE * normal(g);
		for (b = 1; b < SEATS; b++)
			num += perf[0] > perf[b] ? 2 : perf[0] == perf[b];
	}
	return num;
}

/* Runs the SPRT runs times on a candidate of true Elo gain elo. */
static void
simulate(struct outcome *o, int runs, double elo, double elo0, double elo1,
    double alpha, double beta, int dup, uint64_t seed)
{
	struct sprt t;
	struct rng g;
	char cause[128];
	double d = skill_of(elo);
	int run, denom = 2 * (SEATS - 1) * (dup ? SEATS : 1);
	enum sprt_verdict v;

	memset(o, 0, sizeof *o);
	rng_seed(&g, seed);
	for (run = 0; run < runs; run++) {
		if (sprt_init(&t, elo0, elo1, alpha, beta, denom, cause,
		    sizeof cause) == -1) {
			fprintf(stderr, "t_sprt: %s\n", cause);
			exit(1);
		}
		v = SPRT_CONTINUE;
		while (v == SPRT_CONTINUE && t.n < MAXUNITS) {
			sprt_add(&t, play_unit(&g, d, dup));
			v = sprt_decide(&t);
		}
		if (v == SPRT_H0)
			o->h0++;
		else if (v == SPRT_H1)
			o->h1++;
		else
			o->undecided++;
		o->games += (double)t.n * (dup ? SEATS : 1);
		sprt_free(&t);
	}
}

/* Conversions, bounds, refusals, the estimate. */
static void
test_basics(void)
{
	struct sprt t;
	char cause[128];
	double lo, hi, s, e;
	int i;

	tap_ok(fabs(sprt_score(0) - 0.5) < 1e-12 &&
	    fabs(sprt_score(400) - 10.0 / 11.0) < 1e-12 &&
	    fabs(sprt_elo(sprt_score(-123.4)) + 123.4) < 1e-9,
	    "Elo and score convert both ways (400 Elo is odds of 10:1)");
	tap_ok(sprt_init(&t, 0, 5, 0.05, 0.05, 24, cause, sizeof cause) == 0 &&
	    fabs(t.upper - log(0.95 / 0.05)) < 1e-12 &&
	    fabs(t.lower - log(0.05 / 0.95)) < 1e-12 &&
	    sprt_llr(&t) == 0.0 && sprt_decide(&t) == SPRT_CONTINUE,
	    "Wald's bounds log((1-beta)/alpha), log(beta/(1-alpha)); LLR 0 "
	    "before any unit");
	sprt_free(&t);
	tap_ok(sprt_init(&t, 5, 0, 0.05, 0.05, 24, cause, sizeof cause) ==
	    -1 && strstr(cause, "elo0") != NULL &&
	    sprt_init(&t, 0, 5, 0.5, 0.05, 24, cause, sizeof cause) == -1 &&
	    sprt_init(&t, 0, 5, 0.05, 0, 24, cause, sizeof cause) == -1 &&
	    sprt_init(&t, 0, NAN, 0.05, 0.05, 24, cause, sizeof cause) == -1 &&
	    sprt_init(&t, 0, 5, 0.05, 0.05, 0, cause, sizeof cause) == -1,
	    "refused: elo0 >= elo1, alpha or beta outside (0, 0.5), NaN, "
	    "no denominator");

	/*
	 * All units at 1 (or 0): the pseudo-counts leave the scores 0 and 1
	 * as the support, so the LLR grows as a Bernoulli one, by log(s1 /
	 * s0) (or log((1 - s1) / (1 - s0))) a unit.
	 */
	s = log(sprt_score(10) / sprt_score(0));
	sprt_init(&t, 0, 10, 0.05, 0.05, 4, cause, sizeof cause);
	for (i = 0; i < 500 && sprt_decide(&t) == SPRT_CONTINUE; i++)
		sprt_add(&t, 4);
	tap_ok(sprt_decide(&t) == SPRT_H1 && fabs(sprt_llr(&t) - i * s) <
	    0.01 && i == (int)ceil(t.upper / s),
	    "a candidate that wins every unit is accepted (H1) after %d "
	    "units, LLR %.3f a unit", i, s);
	sprt_free(&t);
	s = log((1 - sprt_score(10)) / (1 - sprt_score(0)));
	sprt_init(&t, 0, 10, 0.05, 0.05, 4, cause, sizeof cause);
	for (i = 0; i < 500 && sprt_decide(&t) == SPRT_CONTINUE; i++)
		sprt_add(&t, 0);
	tap_ok(sprt_decide(&t) == SPRT_H0 && fabs(sprt_llr(&t) - i * s) <
	    0.01 && i == (int)ceil(t.lower / s),
	    "a candidate that loses every unit is rejected (H0) after %d "
	    "units", i);
	sprt_free(&t);

	/* the estimate: 3/4 mean, exact interval from the unit variance */
	sprt_init(&t, 0, 10, 0.05, 0.05, 4, cause, sizeof cause);
	for (i = 0; i < 100; i++)
		sprt_add(&t, i % 2 ? 4 : 2);
	e = sprt_estimate(&t, &lo, &hi, &s);
	tap_ok(fabs(s - 0.75) < 1e-12 && fabs(e - sprt_elo(0.75)) < 1e-9 &&
	    fabs(hi - sprt_elo(0.75 + 1.959964 * sqrt(0.0625 * 100 / 99 /
	    100))) < 1e-6 && lo < e && e < hi,
	    "estimate: Elo %.1f [%.1f, %.1f] of a mean score 0.75 with the "
	    "units' standard error", e, lo, hi);
	sprt_free(&t);
	sprt_init(&t, 0, 10, 0.05, 0.05, 4, cause, sizeof cause);
	for (i = 0; i < 20; i++)
		sprt_add(&t, 4);
	e = sprt_estimate(&t, &lo, &hi, &s);
	tap_ok(isinf(e) && e > 0 && isinf(hi) && fabs(lo -
	    sprt_elo(pow(0.025, 1.0 / 20))) < 1e-9 && lo > 0,
	    "every unit won: Elo +inf, lower bound %.1f (0.025^(1/n))", lo);
	sprt_free(&t);
}

/*
 * For many units the generalized LLR approaches the normal one, n (s1 -
 * s0) (2 mean - s0 - s1) / (2 var).
 */
static void
test_llr_normal(void)
{
	struct sprt t;
	struct rng g;
	char cause[128];
	double m, var, s0 = sprt_score(0), s1 = sprt_score(10), approx, llr;
	int i;

	rng_seed(&g, 7);
	sprt_init(&t, 0, 10, 0.05, 0.05, 24, cause, sizeof cause);
	for (i = 0; i < 20000; i++)
		sprt_add(&t, play_unit(&g, skill_of(5), 1));
	m = t.sum / t.n;
	var = t.sumsq / t.n - m * m;
	approx = t.n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
	llr = sprt_llr(&t);
	tap_ok(fabs(llr - approx) < 0.05 * fabs(approx) + 0.2,
	    "LLR %.3f agrees with the normal approximation %.3f over %ld "
	    "units", llr, approx, t.n);
	sprt_free(&t);
}

/* Prints the error-rate table (runs per case) for the notes. */
static void
report(int runs)
{
	static const struct {
		double elo0, elo1, alpha, beta;
	} cs[] = { { 0, 20, 0.05, 0.05 }, { 0, 10, 0.05, 0.05 },
	    { -5, 15, 0.10, 0.20 } };
	struct outcome o;
	double truth[3];
	size_t c;
	int dup, k;

	printf("%-22s %-6s %6s %5s %8s %8s %10s\n", "test (elo0,elo1,a,b)",
	    "units", "truth", "runs", "H1 acc", "H0 acc", "mean games");
	for (c = 0; c < sizeof cs / sizeof cs[0]; c++) {
		truth[0] = cs[c].elo0;
		truth[1] = cs[c].elo1;
		truth[2] = 2 * cs[c].elo1 - cs[c].elo0;
		for (dup = 1; dup >= 0; dup--)
			for (k = 0; k < 3; k++) {
				simulate(&o, runs, truth[k], cs[c].elo0,
				    cs[c].elo1, cs[c].alpha, cs[c].beta, dup,
				    1000 + c * 10 + k);
				printf("(%g,%g,%.2f,%.2f)%*s %-6s %6g %5d "
				    "%8.4f %8.4f %10.1f\n", cs[c].elo0,
				    cs[c].elo1, cs[c].alpha, cs[c].beta, 2,
				    "", dup ? "dup" : "game", truth[k], runs,
				    (double)o.h1 / runs, (double)o.h0 / runs,
				    o.games / runs);
			}
	}
}

int
main(int argc, char **argv)
{
	struct outcome eq, at1, strong, eqg, at1g;
	const double alpha = 0.05, beta = 0.05;
	const int runs = 400;
	double sd_a = 3 * sqrt(alpha * (1 - alpha) / runs),
	    sd_b = 3 * sqrt(beta * (1 - beta) / runs);
	int c;

	while ((c = getopt(argc, argv, "r:")) != -1) {
		if (c != 'r' || atoi(optarg) < 1) {
			fprintf(stderr, "usage: t_sprt [-r RUNS]\n");
			return 2;
		}
		report(atoi(optarg));
		return 0;
	}
	test_basics();
	test_llr_normal();

	simulate(&eq, runs, 0, 0, 20, alpha, beta, 1, 11);
	tap_ok((double)eq.h1 / runs <= alpha + sd_a && eq.undecided == 0,
	    "a candidate equal to the pool: H1 accepted in %ld of %d runs "
	    "(%.3f; alpha %.2f)", eq.h1, runs, (double)eq.h1 / runs, alpha);
	simulate(&at1, runs, 20, 0, 20, alpha, beta, 1, 12);
	tap_ok((double)at1.h0 / runs <= beta + sd_b && at1.undecided == 0,
	    "a candidate at elo1: H0 accepted in %ld of %d runs (%.3f; beta "
	    "%.2f)", at1.h0, runs, (double)at1.h0 / runs, beta);
	simulate(&strong, runs, 40, 0, 20, alpha, beta, 1, 13);
	tap_ok(strong.h1 >= runs - 2,
	    "a clearly stronger candidate (+40 Elo): H1 accepted in %ld of "
	    "%d runs", strong.h1, runs);
	simulate(&eqg, runs, 0, 0, 20, alpha, beta, 0, 14);
	simulate(&at1g, runs, 20, 0, 20, alpha, beta, 0, 15);
	tap_ok((double)eqg.h1 / runs <= alpha + sd_a &&
	    (double)at1g.h0 / runs <= beta + sd_b,
	    "without duplicate pairing the error rates hold too (%.3f, %.3f)",
	    (double)eqg.h1 / runs, (double)at1g.h0 / runs);
	tap_ok(eq.games < eqg.games && at1.games < at1g.games,
	    "duplicate pairing decides in fewer games: %.0f against %.0f "
	    "(equal), %.0f against %.0f (at elo1)", eq.games / runs,
	    eqg.games / runs, at1.games / runs, at1g.games / runs);
	return tap_done();
}
