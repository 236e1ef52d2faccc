/*
 * The schedule of a tournament's tables (schedule.c): every k-subset of
 * the bots or a balanced design, and its fingerprint.
 *
 * Ownership: every structure here owns what it points to and is released
 * by its _free function; names and strings handed in are copied.  Library
 * functions return -1 (or NULL) and write a cause; only main() exits.
 */
#ifndef CARDARENA_BASE_SCHEDULE_H
#define CARDARENA_BASE_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#define MAX_BOTS	4096		/* bots in one tournament */
#define MAX_TABLES	1000000		/* tables in one schedule */
#define DEF_MAX_TABLES	1000		/* "auto": every subset up to this */

enum sched_mode {
	SCHED_AUTO,	/* every subset if at most max_tables, else balanced */
	SCHED_ALL,	/* every k-subset of the bots, rounds times */
	SCHED_BALANCED	/* T tables, pairs and seats balanced */
};

struct schedule {
	int	 nbots;
	int	 seats;
	int	 ntables;
	int	 all;		/* made of every subset (else balanced) */
	int	*tab;		/* tab[t * seats + s]: bot at seat s of table t */
};

struct sched_stats {
	long	 pair_min, pair_max;	/* tables shared by a pair of bots */
	long	 app_min, app_max;	/* tables of a bot */
	long	 seat_spread;		/* max over bots of (most - least) */
};

/* The number of k-subsets of n things, or -1 if above limit. */
long	 binomial(int n, int k, long limit);
/*
 * Makes the schedule of nbots bots at tables of seats seats; count is the
 * rounds (SCHED_ALL) or the tables (SCHED_BALANCED, 0 for the default).
 * -1 and a cause when it cannot be made.
 */
int	 schedule_make(struct schedule *, int nbots, int seats,
	    enum sched_mode, long count, long max_tables, uint64_t seed,
	    char *, size_t);
/* The default number of tables of a balanced schedule. */
long	 schedule_default_tables(int nbots, int seats);
/* Measures the pair, appearance and seat balance of a schedule. */
void	 schedule_stats(const struct schedule *, int duplicate,
	    struct sched_stats *);
/* A 64-bit fingerprint of the schedule (for the journal header). */
uint64_t schedule_hash(const struct schedule *);
void	 schedule_free(struct schedule *);

#endif
