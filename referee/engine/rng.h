/*
 * The seeded random generator of every game: xoshiro256** (Blackman and
 * Vigna, 2018) seeded through splitmix64 from one 64-bit seed.  The
 * algorithm is part of the log format: the same seed must give the same
 * deal on every machine, so it never changes within a protocol version.
 */
#ifndef CARDARENA_RNG_H
#define CARDARENA_RNG_H

#include <stdint.h>

struct rng {
	uint64_t	s[4];
};

void		rng_seed(struct rng *, uint64_t seed);
uint64_t	rng_next(struct rng *);
/* A uniform whole number in [0, n); n > 0.  Unbiased (rejection). */
uint32_t	rng_below(struct rng *, uint32_t n);
/* Shuffles n bytes (int8_t or uint8_t elements) uniformly. */
void		rng_shuffle8(struct rng *, void *bytes, int n);
/* The seed of sub-stream i of a master seed (games of a match, ...). */
uint64_t	seed_derive(uint64_t master, uint64_t i);
/* A fresh seed from arc4random_buf(3); not for use inside the rules. */
uint64_t	seed_fresh(void);

#endif
