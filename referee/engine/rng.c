/*
 * xoshiro256** and splitmix64, written from the published descriptions
 * (https://prng.di.unimi.it/).  See rng.h.
 */
#include <stdlib.h>

#include "rng.h"

static uint64_t	splitmix64(uint64_t *);
static uint64_t	rotl(uint64_t, int);

/* Advances a splitmix64 state and returns its next output. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Rotates x left by k bits. */
static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Seeds the generator; the four words come from splitmix64(seed). */
void
rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/* Returns the next 64 random bits. */
uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s, result, t;

	result = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Returns a uniform number in [0, n) by rejecting the biased tail. */
uint32_t
rng_below(struct rng *r, uint32_t n)
{
	uint64_t x, limit;

	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = rng_next(r);
	while (x >= limit);
	return (uint32_t)(x % n);
}

/*
 * Shuffles n bytes uniformly: the games keep cards, chips and values in
 * int8_t or uint8_t arrays, and the order of the draws (Fisher-Yates from
 * the top down) is what a logged seed's deal depends on.
 */
void
rng_shuffle8(struct rng *r, void *bytes, int n)
{
	uint8_t *a = bytes, t;
	int i, j;

	for (i = n - 1; i > 0; i--) {
		j = (int)rng_below(r, (uint32_t)i + 1);
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

/* Mixes a master seed and an index into an independent seed. */
uint64_t
seed_derive(uint64_t master, uint64_t i)
{
	uint64_t x = master ^ (i * 0xd1b54a32d192ed03ULL);

	splitmix64(&x);
	return splitmix64(&x);
}

/* Draws a fresh seed from the system's entropy. */
uint64_t
seed_fresh(void)
{
	uint64_t seed;

	arc4random_buf(&seed, sizeof seed);
	return seed;
}
