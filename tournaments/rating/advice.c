/*
 * The advice at the end of a tournament run: a bot that timed out may be
 * slow rather than stuck (a python3 start on a loaded machine takes many
 * seconds), and a bot killed by a limit may need a larger one, so the run
 * names, for each such bot, the key of the tournament file that would let
 * it through, with its value now: "time_hello_ms" for timeouts at the
 * hello, "time_per_move_ms" and "time_bank_ms" for timeouts at moves, and
 * the "limits" key of the limit it hit; and a bot that crashed (exited or
 * closed its output), where its stderr is, and botcheck's command when it
 * crashed in every game (it may not start here at all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tfile.h"
#include "config.h"
#include "contain.h"
#include "proc.h"
#include "rating/advice.h"
#include "rating/rate.h"

/* What the notes call each limit (contain.h's LIMIT_), and its unit. */
static const struct {
	const char	*what, *unit;
} lim_text[NLIMIT] = {
	[LIMIT_CPU] = { "CPU time", "s" },
	[LIMIT_MEMORY] = { "memory", "MiB of address space" },
	[LIMIT_FSIZE] = { "file size", "MiB" }
};

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
	struct contain c;
	const struct rplayer *p;
	const struct limit_flag *f;
	long hello, move, bank, at_move, k;
	int i, n = 0, any_hello = 0, any_move = 0;
	char *q;

	contain_init(&c);
	hello = t->time_hello > 0 ? t->time_hello : DEF_TIME_HELLO_MS;
	move = t->time_per_move > 0 ? t->time_per_move : DEF_TIME_PER_MOVE_MS;
	bank = t->time_bank > 0 ? t->time_bank : DEF_TIME_BANK_MS;
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
		if (p->faults[TF_CRASH] == 0)
			continue;
		for (k = 0; k < t->nbots && strcmp(t->bots[k].name, p->name);
		    k++)
			;
		fprintf(fp, "%s%s crashed (exited or closed its output) %ld "
		    "time%s in %ld game%s; its stderr is in\n  %s/logs/"
		    "*.botN.stderr (N its seat at the table; bin/replay LOG "
		    "shows the fault).\n", n++ == 0 ? "\n" : "", p->name,
		    p->faults[TF_CRASH], p->faults[TF_CRASH] == 1 ? "" : "s",
		    p->games, p->games == 1 ? "" : "s", t->outdir);
		if (p->faults[TF_CRASH] >= p->games && k < t->nbots) {
			q = argv_quote(t->bots[k].command);
			fprintf(fp, "  It crashed in every game: it may not "
			    "start here at all; try\n  bin/botcheck -g %s -- "
			    "%s\n", t->game, q);
			free(q);
		}
	}
	for (i = 0; i < r->n; i++) {
		p = &r->p[i];
		for (f = limit_flags; f->key != NULL; f++) {
			if (f->limit == -1 || (k = p->faults[TF_CPU +
			    f->limit]) == 0)
				continue;
			fprintf(fp, "%s%s hit the %s limit %ld time%s: raise "
			    "\"limits\": {\"%s\": ...}\n  (now %ld %s) in %s.\n",
			    n++ == 0 ? "\n" : "", p->name,
			    lim_text[f->limit].what, k, k == 1 ? "" : "s",
			    f->key, refarg(t, f->flag, contain_limit_value(&c,
			    (int)(f - limit_flags))), lim_text[f->limit].unit,
			    t->path);
		}
	}
}
