/*
 * Helpers shared by the test drivers; see common.h.  Linked into every
 * test program (the Makefile's TEST_LIB).
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static void	random_values(const struct game *, struct opts *, struct rng *);

json_t *
json_path(json_t *j, const char *path)
{
	char *copy, *p, *tok, *end;
	const char *sep = path[0] == '/' ? "/" : ".";
	long idx;

	copy = xstrdup(path);
	for (p = copy; j != NULL && (tok = strsep(&p, sep)) != NULL; ) {
		if (*tok == '\0')
			continue;
		if (json_is_array(j)) {
			idx = strtol(tok, &end, 10);
			if (*end != '\0')
				j = NULL;
			else {
				if (idx < 0)
					idx += (long)json_array_size(j);
				j = json_array_get(j, (size_t)idx);
			}
		} else if (json_is_object(j))
			j = json_object_get(j, tok);
		else
			j = NULL;
	}
	free(copy);
	return j;
}

char *
json_canon(const json_t *j)
{
	char *s;

	s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
	if (s == NULL)
		s = xstrdup("(unencodable)");
	return s;
}

static int	tap_n, tap_failed;

void
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

const struct game *
tap_game(const char *name)
{
	const struct game *g;

	if ((g = game_find(name)) == NULL) {
		printf("not ok 1 - no game %s in the games table\n1..1\n", name);
		exit(1);
	}
	return g;
}

char *
seat_messages(const struct game *g, const void *st, int seat,
    const struct events *ev)
{
	static struct legal l[MAX_LEGAL];
	json_t *m, *a;
	char *s;
	size_t i;
	int n;

	m = json_object();
	json_object_set_new(m, "view", game_view_json(g, st, seat));
	n = (g->deciders(st) & (1u << seat)) ? g->legal(st, seat, l,
	    MAX_LEGAL) : 0;
	json_object_set_new(m, "legal", legal_json(g, st, seat, l, n));
	a = json_array();
	for (i = 0; ev != NULL && i < ev->n; i++)
		if (ev->e[i].seen & (1u << seat))
			json_array_append_new(a, game_event_json(g, st,
			    &ev->e[i]));
	json_object_set_new(m, "events", a);
	s = json_canon(m);
	json_decref(m);
	return s;
}

double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
count_seed_args(int argc, char **argv, const char *prog, long *n,
    unsigned long *seed)
{
	int ch;

	while ((ch = getopt(argc, argv, "n:s:")) != -1) {
		switch (ch) {
		case 'n':
			*n = strtol(optarg, NULL, 10);
			break;
		case 's':
			*seed = strtoul(optarg, NULL, 10);
			break;
		default:
			errx(2, "usage: %s [-n LINES] [-s SEED]", prog);
		}
	}
}

/* Random options: each option at its default half the time. */
static void
random_values(const struct game *g, struct opts *o, struct rng *r)
{
	const struct optdesc *d;
	long span;
	int i, k;

	for (i = 0; g->options[i].name != NULL; i++) {
		d = &g->options[i];
		if (rng_below(r, 2) == 0)
			continue;
		o->given[i] = 1;
		switch (d->type) {
		case OPT_INT:
			span = 2 * labs(d->def - d->min) + 4;
			if (span > d->max - d->min)
				span = d->max - d->min;
			o->v[i] = d->min + (long)rng_below(r,
			    (uint32_t)span + 1);
			break;
		case OPT_BOOL:
			o->v[i] = rng_below(r, 2);
			break;
		case OPT_ENUM:
			for (k = 0; d->choices[k] != NULL; k++)
				;
			o->v[i] = rng_below(r, (uint32_t)k);
			break;
		case OPT_SET:
			for (k = 0; d->choices[k] != NULL; k++)
				;
			o->v[i] = 1 + rng_below(r, (1u << k) - 1);
			break;
		case OPT_LIST:
			if (d->keyword != NULL && rng_below(r, 2) == 0) {
				o->keyword[i] = 1;
				break;
			}
			for (k = 0; k < d->len; k++)
				o->list[i][k] = d->min + (long)rng_below(r,
				    (uint32_t)(d->max - d->min + 1));
			break;
		}
	}
}

/*
 * Random options for a random player count, each option at its default
 * half the time (the defaults alone after 20 refused draws); -1 + cause
 * if even those are refused.
 */
int
opts_random(const struct game *g, struct opts *o, struct rng *r, char *why,
    size_t len)
{
	int tries;

	for (tries = 0; ; tries++) {
		opts_defaults(g, o, g->min_players + (int)rng_below(r,
		    (uint32_t)(g->max_players - g->min_players + 1)));
		if (tries < 20)
			random_values(g, o, r);
		if (opts_finish(g, o, why, len) == 0)
			return 0;
		if (tries >= 20)
			return -1;
	}
}
