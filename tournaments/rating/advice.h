/*
 * Advice on time limits (advice.c) for the bots of a rating that timed
 * out, from the tournament's limits.
 */
#ifndef CARDARENA_RATING_ADVICE_H
#define CARDARENA_RATING_ADVICE_H

#include <stdio.h>

struct tour;
/* advice.c: names the time limits to raise for bots that timed out. */
struct rating;
void	 limits_advice(FILE *, const struct tour *, const struct rating *);

#endif
