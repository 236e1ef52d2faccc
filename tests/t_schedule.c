/*
 * Unit tests of the tournament schedule (tournaments/base/schedule.c): too few
 * bots is an error; N = k gives one table; every subset when the number is
 * moderate; a balanced schedule otherwise, where every pair of bots shares
 * a table equally often (within one), every bot sits at as many tables
 * (within one) and in every seat equally often (within one), for several
 * (N, k) up to N much larger than k; the same seed gives the same
 * schedule.  TAP output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/schedule.h"
#include "common.h"


static int	 valid(const struct schedule *);
static void	 check_balanced(int, int, enum sched_mode, long, long);

/* Returns 1 if every table seats k different, existing bots. */
static int
valid(const struct schedule *s)
{
	int t, i, j, k = s->seats;

	for (t = 0; t < s->ntables; t++)
		for (i = 0; i < k; i++) {
			if (s->tab[t * k + i] < 0 ||
			    s->tab[t * k + i] >= s->nbots)
				return 0;
			for (j = 0; j < i; j++)
				if (s->tab[t * k + i] == s->tab[t * k + j])
					return 0;
		}
	return 1;
}

/* Makes a schedule and checks its balance (non-duplicate seats). */
static void
check_balanced(int n, int k, enum sched_mode mode, long count, long want_tables)
{
	struct schedule s;
	struct sched_stats st;
	char cause[256];

	if (schedule_make(&s, n, k, mode, count, 0, 42, cause,
	    sizeof cause) == -1) {
		tap_ok(0, "N=%d k=%d: %s", n, k, cause);
		return;
	}
	schedule_stats(&s, 0, &st);
	tap_ok(valid(&s) && (want_tables == 0 || s.ntables == want_tables) &&
	    st.pair_max - st.pair_min <= 1 && st.pair_min >= 1 &&
	    st.app_max - st.app_min <= 1 && st.seat_spread <= 1,
	    "N=%d k=%d: %d tables (%s): pairs share %ld-%ld, bots sit at "
	    "%ld-%ld, seats within %ld", n, k, s.ntables,
	    s.all ? "every subset" : "balanced", st.pair_min, st.pair_max,
	    st.app_min, st.app_max, st.seat_spread);
	schedule_free(&s);
}

int
main(void)
{
	struct schedule s, s2;
	struct sched_stats st;
	char cause[256];
	int rc;

	tap_ok(binomial(5, 2, 1000) == 10 && binomial(52, 5, 10000000) ==
	    2598960 && binomial(52, 5, 1000) == -1 && binomial(3, 4, 10) == 0,
	    "binomial coefficients, with a limit");

	rc = schedule_make(&s, 3, 4, SCHED_AUTO, 0, 0, 1, cause, sizeof cause);
	tap_ok(rc == -1 && strstr(cause, "a table needs 4 different bots") !=
	    NULL, "3 bots for 4 seats is an error: %s", cause);
	rc = schedule_make(&s, 0, 3, SCHED_BALANCED, 5, 0, 1, cause,
	    sizeof cause);
	tap_ok(rc == -1, "no bots is an error too");

	tap_ok(schedule_make(&s, 4, 4, SCHED_AUTO, 0, 0, 1, cause,
	    sizeof cause) == 0 && s.ntables == 1 && s.all && valid(&s),
	    "N = k = 4: one table of everyone");
	schedule_free(&s);
	tap_ok(schedule_make(&s, 4, 4, SCHED_ALL, 8, 0, 1, cause,
	    sizeof cause) == 0 && s.ntables == 8, "N = k = 4, 8 rounds: 8 "
	    "tables");
	schedule_stats(&s, 0, &st);
	tap_ok(st.pair_min == 8 && st.pair_max == 8 && st.seat_spread <= 1,
	    "... every pair together 8 times, each bot twice in each seat "
	    "(spread %ld)", st.seat_spread);
	schedule_stats(&s, 1, &st);
	tap_ok(st.seat_spread == 0, "duplicate: every table plays every "
	    "rotation, so seats are exactly even");
	schedule_free(&s);

	/* every subset */
	check_balanced(5, 4, SCHED_AUTO, 0, 5);
	check_balanced(7, 3, SCHED_AUTO, 0, 35);
	check_balanced(6, 3, SCHED_ALL, 3, 60);
	check_balanced(10, 5, SCHED_AUTO, 0, 252);
	check_balanced(30, 2, SCHED_AUTO, 0, 435);

	/* balanced, including exact designs */
	check_balanced(7, 3, SCHED_BALANCED, 7, 7);		/* Fano plane */
	check_balanced(13, 4, SCHED_BALANCED, 13, 13);	/* projective plane */
	check_balanced(9, 3, SCHED_BALANCED, 12, 12);		/* affine plane */
	check_balanced(12, 5, SCHED_BALANCED, 30, 30);
	check_balanced(16, 6, SCHED_BALANCED, 0, 0);
	check_balanced(20, 4, SCHED_AUTO, 0, 50);
	check_balanced(30, 3, SCHED_AUTO, 0, 220);
	check_balanced(40, 4, SCHED_AUTO, 0, 200);
	check_balanced(64, 4, SCHED_AUTO, 0, 0);
	check_balanced(100, 5, SCHED_AUTO, 0, 0);
	/* many seats: the default grows the tables until balance is found */
	check_balanced(14, 7, SCHED_AUTO, 0, 0);
	check_balanced(16, 8, SCHED_AUTO, 0, 0);
	check_balanced(20, 12, SCHED_AUTO, 0, 0);

	tap_ok(schedule_make(&s, 20, 4, SCHED_AUTO, 0, 5000, 1, cause,
	    sizeof cause) == 0 && s.all && s.ntables == 4845,
	    "max_tables 5000 makes 20 bots at 4 seats play every subset");
	schedule_free(&s);

	/*
	 * The documented maxima finish (the seat balancing was quadratic in
	 * the tables: a million never ended) and are balanced: a million
	 * tables of the example's 5 bots at 4 seats, and every subset of 30
	 * bots at 6 seats under max_tables 1000000 (593775 tables).
	 */
	check_balanced(5, 4, SCHED_BALANCED, MAX_TABLES, MAX_TABLES);
	tap_ok(schedule_make(&s, 30, 6, SCHED_AUTO, 0, MAX_TABLES, 1, cause,
	    sizeof cause) == 0 && s.all && s.ntables == 593775 && valid(&s),
	    "30 bots at 6 seats, max_tables %d: every subset", MAX_TABLES);
	schedule_stats(&s, 0, &st);
	tap_ok(st.pair_min == st.pair_max && st.app_min == st.app_max &&
	    st.seat_spread <= 1, "... every pair %ld times, every bot at %ld "
	    "tables, seats within %ld", st.pair_min, st.app_min,
	    st.seat_spread);
	schedule_free(&s);

	schedule_make(&s, 40, 4, SCHED_AUTO, 0, 0, 77, cause, sizeof cause);
	schedule_make(&s2, 40, 4, SCHED_AUTO, 0, 0, 77, cause, sizeof cause);
	tap_ok(s.ntables == s2.ntables && memcmp(s.tab, s2.tab, (size_t)s.ntables *
	    4 * sizeof *s.tab) == 0 && schedule_hash(&s) == schedule_hash(&s2),
	    "the same seed gives the same schedule");
	schedule_free(&s2);
	schedule_make(&s2, 40, 4, SCHED_AUTO, 0, 0, 78, cause, sizeof cause);
	tap_ok(schedule_hash(&s) != schedule_hash(&s2), "another seed, another "
	    "schedule");
	schedule_free(&s);
	schedule_free(&s2);
	return tap_done();
}
