/*
 * Helpers shared by the test drivers: option set-up from JSON, a JSON
 * pointer lookup, and the canonical dump used to compare views.
 */
#ifndef CARDARENA_TESTS_COMMON_H
#define CARDARENA_TESTS_COMMON_H

#include <jansson.h>

#include "game.h"

/* Random options and player count; -1 + cause if none are accepted. */
int		 opts_random(const struct game *, struct opts *, struct rng *,
		    char *, size_t);
/* Looks up "/a/0/b" (or "a.0.b") in j; borrowed reference or NULL. */
json_t		*json_path(json_t *, const char *);
/* A canonical one-line dump (sorted keys); caller frees. */
char		*json_canon(const json_t *);
/* Prints the next TAP line, "ok N - ..." or "not ok N - ...". */
void		 tap_ok(int, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* Prints the plan; returns the exit status (1 if any test failed). */
int		 tap_done(void);
/* The game called name; if there is none, a failed test and exit 1. */
const struct game *tap_game(const char *name);
/*
 * What seat is sent in a request now: its view, its legal list (empty
 * unless it decides) and the events it is told (ev may be NULL), as one
 * canonical string (caller frees).
 */
char		*seat_messages(const struct game *, const void *st, int seat,
		    const struct events *ev);
/* This process's CPU time in seconds. */
double		 cpu_seconds(void);
/* The monotonic clock in seconds. */
double		 now_seconds(void);
/*
 * Reads a random test's options, -n N (how many cases) and -s SEED, into
 * n and seed (left as they are if not given); exits 2 with a usage line
 * naming prog on anything else.
 */
void		 count_seed_args(int, char **, const char *, long *,
		    unsigned long *);

#endif
