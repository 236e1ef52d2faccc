/*
 * One-way seeds: the seed of part i of what a master seed decides (a
 * tournament's or a ladder's tables, its schedule), drawn through SHA-256
 * so that a part's seed, once published with its logs, tells nothing of
 * the master nor of any other part.  seed_derive (rng.c) is a bijection
 * for each i and is kept for what stays secret together (the games of
 * one table, a bot's games).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sha2.h>

#include "oneway.h"

uint64_t
seed_oneway(uint64_t master, const char *what, uint64_t i)
{
	SHA2_CTX ctx;
	uint8_t md[SHA256_DIGEST_LENGTH];
	char text[128];
	uint64_t v = 0;
	int k;

	snprintf(text, sizeof text, "cardarena %s %" PRIu64 " %" PRIu64, what,
	    master, i);
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)text, strlen(text));
	SHA256Final(md, &ctx);
	for (k = 0; k < 8; k++)
		v = v << 8 | md[k];
	return v;
}
