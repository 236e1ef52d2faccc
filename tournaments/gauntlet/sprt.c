/*
 * The gauntlet's sequential probability ratio test (see sprt.h): unit
 * scores kept as counts over the multiples of 1/denom, the generalized
 * log-likelihood ratio of H1 against H0 (each hypothesis's most likely
 * distribution of unit scores with the mean it names, found by a Lagrange
 * multiplier), Wald's bounds, and the Elo estimate with its interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauntlet/sprt.h"

#define SPRT_PSEUDO	1e-3	/* units of prior weight at scores 0 and 1 */

static double	weight(const struct sprt *, int);
static double	lagrange(const struct sprt *, double, double);
static double	loglik(const struct sprt *, double);

/* The expected pairwise score of an Elo difference (logistic, 400 log10). */
double
sprt_score(double elo)
{
	return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* The Elo difference of an expected pairwise score in (0, 1). */
double
sprt_elo(double score)
{
	if (score <= 0.0)
		return -INFINITY;
	if (score >= 1.0)
		return INFINITY;
	return -400.0 * log10(1.0 / score - 1.0);
}

/* Sets up a test; -1 and a cause if the parameters are out of range. */
int
sprt_init(struct sprt *t, double elo0, double elo1, double alpha,
    double beta, int denom, char *cause, size_t len)
{
	memset(t, 0, sizeof *t);
	if (!isfinite(elo0) || !isfinite(elo1) || !(elo0 < elo1) ||
	    fabs(elo0) > 2000 || fabs(elo1) > 2000) {
		snprintf(cause, len, "elo0 must be below elo1, both within "
		    "-2000..2000");
		return -1;
	}
	if (!(alpha > 0.0 && alpha < 0.5) || !(beta > 0.0 && beta < 0.5)) {
		snprintf(cause, len, "alpha and beta must be in (0, 0.5)");
		return -1;
	}
	if (denom < 1 || denom > 1000000) {
		snprintf(cause, len, "unit score denominator %d out of "
		    "1..1000000", denom);
		return -1;
	}
	if ((t->count = calloc((size_t)denom + 1, sizeof *t->count)) == NULL) {
		snprintf(cause, len, "out of memory");
		return -1;
	}
	t->elo0 = elo0;
	t->elo1 = elo1;
	t->alpha = alpha;
	t->beta = beta;
	t->lower = log(beta / (1.0 - alpha));
	t->upper = log((1.0 - beta) / alpha);
	t->denom = denom;
	return 0;
}

/* Releases the counts. */
void
sprt_free(struct sprt *t)
{
	free(t->count);
	t->count = NULL;
}

/* Adds one unit that scored k / denom. */
void
sprt_add(struct sprt *t, int k)
{
	double x;

	if (k < 0)
		k = 0;
	if (k > t->denom)
		k = t->denom;
	t->count[k]++;
	t->n++;
	x = (double)k / t->denom;
	t->sum += x;
	t->sumsq += x * x;
}

/* The weight of the score j / denom: its units, plus the pseudo-count. */
static double
weight(const struct sprt *t, int j)
{
	return (double)t->count[j] + (j == 0 || j == t->denom ?
	    SPRT_PSEUDO : 0.0);
}

/*
 * The multiplier lambda with sum_j w_j (x_j - s) / (1 + lambda (x_j - s))
 * = 0 over the weighted scores (pseudo-counts included), total weight w;
 * the function falls strictly in lambda on (-1/(1-s), 1/s), where every
 * 1 + lambda (x - s) stays positive, so a safeguarded Newton finds it.
 */
static double
lagrange(const struct sprt *t, double s, double w)
{
	double lo = -1.0 / (1.0 - s), hi = 1.0 / s, lam = 0.0, f, df, d, x,
	    q, wj, next;
	int it, j;

	for (it = 0; it < 100; it++) {
		f = df = 0.0;
		for (j = 0; j <= t->denom; j++) {
			if ((wj = weight(t, j)) == 0.0)
				continue;
			x = (double)j / t->denom - s;
			q = 1.0 + lam * x;
			f += wj * x / q;
			df -= wj * x * x / (q * q);
		}
		f /= w;
		df /= w;
		if (f > 0.0)
			lo = lam;
		else
			hi = lam;
		if (fabs(f) < 1e-13)
			break;
		next = df < 0.0 ? lam - f / df : (lo + hi) / 2.0;
		/* stay strictly inside the bracket */
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2.0;
		d = fabs(next - lam);
		lam = next;
		if (d < 1e-15)
			break;
	}
	return lam;
}

/* The log-likelihood (up to a constant) of the best distribution of mean s. */
static double
loglik(const struct sprt *t, double s)
{
	double w = (double)t->n + 2.0 * SPRT_PSEUDO, lam, ll = 0.0, wj;
	int j;

	lam = lagrange(t, s, w);
	for (j = 0; j <= t->denom; j++) {
		if ((wj = weight(t, j)) == 0.0)
			continue;
		ll -= wj * log1p(lam * ((double)j / t->denom - s));
	}
	return ll;
}

/* The generalized log-likelihood ratio of H1 against H0. */
double
sprt_llr(const struct sprt *t)
{
	if (t->n == 0)
		return 0.0;
	return loglik(t, sprt_score(t->elo1)) - loglik(t, sprt_score(t->elo0));
}

/* The verdict of the LLR against Wald's bounds. */
enum sprt_verdict
sprt_decide(const struct sprt *t)
{
	double llr = sprt_llr(t);

	if (llr >= t->upper)
		return SPRT_H1;
	if (llr <= t->lower)
		return SPRT_H0;
	return SPRT_CONTINUE;
}

/* The Elo of the mean unit score and its 95% interval. */
double
sprt_estimate(const struct sprt *t, double *lo, double *hi, double *score)
{
	double m, var, se;

	if (t->n == 0) {
		*lo = -INFINITY;
		*hi = INFINITY;
		*score = 0.5;
		return 0.0;
	}
	m = t->sum / t->n;
	var = t->n > 1 ? (t->sumsq - t->n * m * m) / (t->n - 1) : 0.25;
	if (var < 0.0)
		var = 0.0;
	se = sqrt(var / t->n);
	*score = m;
	*lo = sprt_elo(m - 1.959964 * se);
	*hi = sprt_elo(m + 1.959964 * se);
	/*
	 * Every unit won (or lost): no spread to measure, so the bound on
	 * the other side is the exact one of n Bernoulli units, 0.025^(1/n).
	 */
	if (m >= 1.0)
		*lo = sprt_elo(pow(0.025, 1.0 / t->n));
	else if (m <= 0.0)
		*hi = sprt_elo(1.0 - pow(0.025, 1.0 / t->n));
	return sprt_elo(m);
}
