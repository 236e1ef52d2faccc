/*
 * The sequential probability ratio test of `tournament gauntlet`: the
 * generalized SPRT on paired duplicate results.  A unit is one duplicate
 * set (one deal played once from every seat) and its score is the
 * candidate's mean pairwise score over the set's games; the test compares
 * H0 (the candidate's expected score is that of an Elo gain elo0) with H1
 * (elo1) on the empirical distribution of unit scores, as fishtest and
 * fastchess do with the pentanomial distribution of game pairs.
 *
 * Ownership: a struct sprt owns its count array (sprt_free).
 */
#ifndef CARDARENA_SPRT_H
#define CARDARENA_SPRT_H

#include <stddef.h>
#include <stdint.h>

enum sprt_verdict {
	SPRT_CONTINUE,
	SPRT_H0,	/* accepted: the gain is at most elo0 */
	SPRT_H1		/* accepted: the gain is at least elo1 */
};

struct sprt {
	double		 elo0, elo1, alpha, beta;
	double		 lower, upper;	/* the LLR bounds */
	int		 denom;		/* unit scores are k / denom */
	long		*count;		/* count[k]: units that scored k/denom */
	long		 n;		/* units */
	double		 sum, sumsq;	/* of the unit scores */
};

/* The expected pairwise score of an Elo difference (logistic, 400 log10). */
double	 sprt_score(double elo);
/* The Elo difference of an expected pairwise score in (0, 1). */
double	 sprt_elo(double score);
/*
 * Sets up a test of elo0 < elo1 at error rates alpha, beta (in (0, 0.5))
 * for unit scores that are multiples of 1/denom; -1 and a cause if the
 * parameters are out of range.
 */
int	 sprt_init(struct sprt *, double elo0, double elo1, double alpha,
	    double beta, int denom, char *cause, size_t len);
void	 sprt_free(struct sprt *);
/* Adds one unit that scored k / denom (0 <= k <= denom). */
void	 sprt_add(struct sprt *, int k);
/*
 * The log-likelihood ratio of H1 against H0 on the units so far: the
 * empirical-likelihood (multinomial) maximum under each hypothesis's mean,
 * with a pseudo-count of 1/1000 of a unit at the scores 0 and 1 so that
 * both maxima exist from the first unit on.
 */
double	 sprt_llr(const struct sprt *);
/* The verdict of the LLR against the bounds. */
enum sprt_verdict sprt_decide(const struct sprt *);
/*
 * The Elo difference of the mean unit score and its 95% interval, from
 * the units' standard error (when every unit was won, the lower bound
 * is that of n Bernoulli units, 0.025^(1/n), and the rest +INFINITY; lost,
 * the mirror image); the mean score in *score.
 */
double	 sprt_estimate(const struct sprt *, double *lo, double *hi,
	    double *score);
#endif
