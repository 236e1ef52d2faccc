/*
 * The advice at the end of a tournament run: a bot that timed out may be
 * slow rather than stuck (a python3 start on a loaded machine takes many
 * seconds), so the run names the limits of the tournament file that would
 * let it through, with their values now.
 */
#include <stdio.h>

#include "match.h"
#include "tournament.h"

/* Writes to fp one note for each bot of r that had timeouts. */
void
limits_advice(FILE *fp, const struct tour *t, const struct rating *r)
{
	struct match_config cf;
	long hello, move, bank;
	int i, n = 0;

	match_config_init(&cf);
	hello = t->time_hello > 0 ? t->time_hello : cf.time_hello_ms;
	move = t->time_per_move > 0 ? t->time_per_move : cf.time_per_move_ms;
	bank = t->time_bank > 0 ? t->time_bank : cf.time_bank_ms;
	for (i = 0; i < r->n; i++) {
		if (r->p[i].faults[TF_TIMEOUT] == 0)
			continue;
		fprintf(fp, "%s%s timed out %ld time%s in %ld game%s\n",
		    n++ == 0 ? "\n" : "", r->p[i].name,
		    r->p[i].faults[TF_TIMEOUT],
		    r->p[i].faults[TF_TIMEOUT] == 1 ? "" : "s", r->p[i].games,
		    r->p[i].games == 1 ? "" : "s");
	}
	if (n == 0)
		return;
	fprintf(fp, "  A bot that is slow rather than stuck needs more time: "
	    "raise \"time_hello_ms\"\n  (now %ld ms) for a slow start, "
	    "\"time_per_move_ms\" (now %ld ms) and\n  \"time_bank_ms\" (now "
	    "%ld ms a game) for slow moves, in %s.\n  The fault lines of the "
	    "match logs say which it was (bin/replay shows them).\n", hello,
	    move, bank, t->path);
}
