/*
 * One-way seeds (oneway.c): outside the engine library, which needs no
 * hash; the runners' tables and schedules draw their seeds here.
 */
#ifndef CARDARENA_ONEWAY_H
#define CARDARENA_ONEWAY_H

#include <stdint.h>

/*
 * The seed of part i of what master decides, one-way (SHA-256, oneway.c):
 * a part's seed, published, reveals neither master nor the other parts.
 * what names the kind of part ("table", "schedule").
 */
uint64_t	seed_oneway(uint64_t master, const char *what, uint64_t i);

#endif
