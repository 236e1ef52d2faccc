/*
 * The tournament's one content hash: 64-bit FNV-1a, for fingerprints
 * that only need to tell versions apart (a job line, a deal book, the
 * referee's executable), never against an adversary choosing collisions
 * (a job line's seeds are kept out of the bots' reach instead).  A leaf.
 */
#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of nothing: where every hash begins. */
#define FNV_BASIS	0xcbf29ce484222325ULL

/* Adds n bytes at p to a 64-bit FNV-1a hash h. */
static inline uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#endif
