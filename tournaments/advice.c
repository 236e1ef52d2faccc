/*
 * The advice at the end of a tournament run: a bot that timed out may be
 * slow rather than stuck (a python3 start on a loaded machine takes many
 * seconds), and a bot killed by a limit may need a larger one, so the run
 * names, for each such bot, the key of the tournament file that would let
 * it through, with its value now: "time_hello_ms" for timeouts at the
 * hello, "time_per_move_ms" and "time_bank_ms" for timeouts at moves, and
 * the "limits" key of the limit it hit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contain.h"
#include "match.h"
#include "tournament.h"

/* The value of a referee flag in the tournament's arguments, or def. */
static long
refarg(const struct tour *t, const char *flag, long def)
{
	int i;

	for (i = 0; i + 1 < t->nrefargs; i++)
		if (strcmp(t->refargs[i], flag) == 0)
			def = strtol(t->refargs[i + 1], NULL, 10);
	return def;
}

/* Writes to fp one note for each bot of r that timed out or hit a limit. */
void
limits_advice(FILE *fp, const struct tour *t, const struct rating *r)
{
	struct match_config cf;
	struct contain c;
	const struct rplayer *p;
	long hello, move, bank, at_move;
	int i, n = 0, any_hello = 0, any_move = 0;

	match_config_init(&cf);
	contain_init(&c);
	hello = t->time_hello > 0 ? t->time_hello : cf.time_hello_ms;
	move = t->time_per_move > 0 ? t->time_per_move : cf.time_per_move_ms;
	bank = t->time_bank > 0 ? t->time_bank : cf.time_bank_ms;
	for (i = 0; i < r->n; i++) {
		p = &r->p[i];
		if (p->faults[TF_TIMEOUT] == 0)
			continue;
		at_move = p->faults[TF_TIMEOUT] - p->faults[TF_HELLO];
		fprintf(fp, "%s%s timed out %ld time%s in %ld game%s",
		    n++ == 0 ? "\n" : "", p->name, p->faults[TF_TIMEOUT],
		    p->faults[TF_TIMEOUT] == 1 ? "" : "s", p->games,
		    p->games == 1 ? "" : "s");
		if (p->faults[TF_HELLO] > 0)
			fprintf(fp, ": %ld at the hello, %ld at moves",
			    p->faults[TF_HELLO], at_move);
		fputc('\n', fp);
		any_hello |= p->faults[TF_HELLO] > 0;
		any_move |= at_move > 0;
	}
	if (any_hello)
		fprintf(fp, "  A bot that starts slowly needs more time for its "
		    "hello: raise\n  \"time_hello_ms\" (now %ld ms) in %s.\n",
		    hello, t->path);
	if (any_move)
		fprintf(fp, "  A bot that is slow rather than stuck needs more "
		    "time for its moves:\n  raise \"time_per_move_ms\" (now %ld "
		    "ms) and \"time_bank_ms\" (now %ld ms a game)\n  in %s.\n"
		    "  The fault lines of the match logs say which requests "
		    "(bin/replay shows them).\n", move, bank, t->path);
	for (i = 0; i < r->n; i++) {
		p = &r->p[i];
		if (p->faults[TF_CPU] > 0)
			fprintf(fp, "%s%s hit the CPU time limit %ld time%s: "
			    "raise \"limits\": {\"cpu_s\": ...}\n  (now %ld s) "
			    "in %s.\n", n++ == 0 ? "\n" : "", p->name,
			    p->faults[TF_CPU], p->faults[TF_CPU] == 1 ? "" :
			    "s", refarg(t, "--limit-cpu", c.cpu_s), t->path);
		if (p->faults[TF_MEMORY] > 0)
			fprintf(fp, "%s%s hit the memory limit %ld time%s: "
			    "raise \"limits\": {\"mem_mb\": ...}\n  (now %ld MiB "
			    "of address space) in %s.\n", n++ == 0 ? "\n" : "",
			    p->name, p->faults[TF_MEMORY],
			    p->faults[TF_MEMORY] == 1 ? "" : "s",
			    refarg(t, "--limit-mem", c.mem_mb), t->path);
		if (p->faults[TF_FSIZE] > 0)
			fprintf(fp, "%s%s hit the file size limit %ld time%s: "
			    "raise \"limits\": {\"fsize_mb\": ...}\n  (now %ld "
			    "MiB) in %s.\n", n++ == 0 ? "\n" : "", p->name,
			    p->faults[TF_FSIZE], p->faults[TF_FSIZE] == 1 ? "" :
			    "s", refarg(t, "--limit-fsize", c.fsize_mb),
			    t->path);
	}
}
