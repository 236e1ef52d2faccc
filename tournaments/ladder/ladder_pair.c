/*
 * The ladder's pairing: who sits at the next table.  A game tells most
 * about a bot whose rating is least known, and a result between two bots
 * tells most when either could win (the Fisher information of a
 * Bradley-Terry result, p(1 - p), is largest at equal ratings).  So the
 * first seat goes to the candidate of greatest need: its interval's
 * variance (a bot not rated yet counts as 400 Elo wide, a new version
 * doubly; few games make a wide interval), damped by the tables it sits
 * at now, and multiplied by 1 + the tables since it last played over the
 * tables a bot waits on average (n / k); a bot that has waited OVERDUE
 * times that takes the first seat whatever its interval, so that every
 * active bot plays regularly.  Each further seat goes to the
 * candidate with the most information against those already seated,
 * weighted by its own need; a small random factor keeps equal candidates
 * from always meeting.  Duplicate deals rotate every bot through every
 * seat within a table, so the seats balance themselves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ladder/ladder_pair.h"
#include "rng.h"

#define UNRATED_PM	400.0	/* the interval of a bot without one */
#define OVERDUE		4	/* average waits before it must play */
#define FEW_GAMES_PM	500.0	/* the least interval after g games:
				 * this over sqrt(1 + g) */

static double	 need(const struct lcand *, int, int);
static double	 unit(struct rng *);

/* A uniform draw in [0, 1). */
static double
unit(struct rng *g)
{
	return (double)(rng_next(g) >> 11) * 0x1p-53;
}

/* How much a game would tell about c, of n at tables of k (the top). */
static double
need(const struct lcand *c, int n, int k)
{
	double pm = isnan(c->pm) ? UNRATED_PM : c->pm, v;

	/* a bootstrap of a few blocks can look narrow: few games are wide */
	if (pm < FEW_GAMES_PM / sqrt(1.0 + c->games))
		pm = FEW_GAMES_PM / sqrt(1.0 + c->games);
	v = pm * pm / (UNRATED_PM * UNRATED_PM);
	if (c->fresh)
		v *= 2;
	v /= 1.0 + c->inflight;
	return v * (1.0 + (double)c->since * k / n);
}

/* Chooses a table's bots; see ladder_pair.h. */
int
pair_choose(const struct lcand *c, int n, int k, struct rng *g, int *out)
{
	double best, score, p, info, d;
	int i, j, s, taken, pick;

	if (n < k || k < 1)
		return -1;
	for (s = 0; s < k; s++) {
		best = -1;
		pick = -1;
		for (i = 0; i < n; i++) {
			for (taken = 0, j = 0; j < s; j++)
				if (out[j] == i)
					taken = 1;
			if (taken)
				continue;
			score = need(&c[i], n, k);
			if (s == 0 && c[i].since * k > OVERDUE * n)
				score = 1e12 + (double)c[i].since;
			else if (s > 0) {
				/* the information of its results against
				 * the seated, the unrated at even odds */
				info = 0;
				for (j = 0; j < s; j++) {
					d = isnan(c[i].pm) ||
					    isnan(c[out[j]].pm) ? 0 :
					    c[i].elo - c[out[j]].elo;
					p = 1 / (1 + pow(10, -d / 400));
					info += 4 * p * (1 - p);
				}
				score *= info / s;
			}
			score *= 0.75 + 0.5 * unit(g);
			if (score > best) {
				best = score;
				pick = i;
			}
		}
		out[s] = pick;
	}
	return 0;
}
