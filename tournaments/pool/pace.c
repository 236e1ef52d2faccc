/*
 * The pace of a referee run (see pace.h): the times of its results,
 * read on the monotonic clock.
 */
#include <string.h>

#include "pool/pace.h"
#include "pool/pool.h"

void
pace_start(struct pace *p)
{
	memset(p, 0, sizeof *p);
	p->t0 = pool_now();
}

void
pace_game(struct pace *p, long game, int lives)
{
	double t = pool_now();
	int s = lives > 1 ? (int)(game % lives) : 0;

	if (p->games++ == 0)
		p->tfirst = t;
	p->tlast = t;
	if (p->life_t[s] > 0) {
		p->gaps += t - p->life_t[s];
		p->ngaps++;
	}
	p->life_t[s] = t;
}

double
pace_game_s(const struct pace *p)
{
	if (p->games == 0)
		return 0;
	if (p->ngaps > 0)
		return p->gaps / (double)p->ngaps;
	if (p->games >= 2)
		return (p->tlast - p->tfirst) / (double)(p->games - 1);
	return p->tlast - p->t0;
}

void
pace_learn(double *deal_s, const struct pace *p, double per_deal)
{
	double d;

	if (p->games == 0)
		return;
	if ((d = pace_game_s(p) * per_deal) <= 0)
		d = 1e-6;
	*deal_s = *deal_s <= 0 ? d : 0.5 * *deal_s + 0.5 * d;
}
