/*
 * botcheck's random option sets: drawn from a game's option table alone
 * (no game is special-cased), so a new game is checked with no change
 * here.  Each option keeps its default half the time; otherwise a whole
 * number is drawn near its default (so games stay short), a flag is
 * turned over, a choice is another one, a set is a random non-empty
 * subset, a list its keyword or a shuffle of its default.  A draw the
 * game rejects (opts_finish) is drawn again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botcheck.h"
#include "proc.h"

#define TRIES		50	/* draws before falling back to defaults */
#define SPAN		15	/* range of a number with a computed default */

static char	*draw_option(const struct optdesc *, struct rng *);
static long	 draw_between(struct rng *, long, long);

/* A uniform whole number in [lo, hi]. */
static long
draw_between(struct rng *r, long lo, long hi)
{
	if (hi <= lo)
		return lo;
	return lo + (long)rng_below(r, (uint32_t)(hi - lo + 1));
}

/* Returns a new "KEY=VALUE" for option d, or NULL to keep its default. */
static char *
draw_option(const struct optdesc *d, struct rng *r)
{
	char val[256], *kv;
	long lo, hi, v, list[MAX_LIST], t;
	int k, j, n, first;
	size_t off;

	if (rng_below(r, 2) == 0)
		return NULL;
	switch (d->type) {
	case OPT_INT:
		if (d->max - d->min <= 10) {
			lo = d->min;
			hi = d->max;
		} else if (d->def_text != NULL || d->def <= 0) {
			lo = d->min;
			hi = d->min + SPAN;
		} else {
			lo = d->def / 2;
			hi = d->def * 2;
		}
		lo = lo < d->min ? d->min : lo;
		hi = hi > d->max ? d->max : hi;
		snprintf(val, sizeof val, "%ld", draw_between(r, lo, hi));
		break;
	case OPT_BOOL:
		snprintf(val, sizeof val, "%s", d->def ? "off" : "on");
		break;
	case OPT_ENUM:
		for (n = 0; d->choices[n] != NULL; n++)
			;
		if (n < 2)
			return NULL;
		k = (int)rng_below(r, (uint32_t)n - 1);
		snprintf(val, sizeof val, "%s", d->choices[k >= d->def ? k + 1 :
		    k]);
		break;
	case OPT_SET:
		for (n = 0; d->choices[n] != NULL; n++)
			;
		if (n == 0 || n > 30)
			return NULL;
		v = 1 + (long)rng_below(r, (1u << n) - 1);
		val[0] = '\0';
		for (k = 0, first = 1; k < n; k++)
			if (v & (1L << k)) {
				if (!first)
					strlcat(val, ",", sizeof val);
				strlcat(val, d->choices[k], sizeof val);
				first = 0;
			}
		break;
	case OPT_LIST:
		if (d->keyword != NULL && rng_below(r, 2) == 0) {
			snprintf(val, sizeof val, "%s", d->keyword);
			break;
		}
		if (d->def_list == NULL || d->len < 1 || d->len > MAX_LIST)
			return NULL;
		for (k = 0; k < d->len; k++)
			list[k] = d->def_list[k];
		for (k = d->len - 1; k > 0; k--) {
			j = (int)rng_below(r, (uint32_t)k + 1);
			t = list[k];
			list[k] = list[j];
			list[j] = t;
		}
		for (k = 0, off = 0; k < d->len && off < sizeof val; k++)
			off += (size_t)snprintf(val + off, sizeof val - off,
			    "%s%ld", k ? "," : "", list[k]);
		break;
	default:
		return NULL;
	}
	kv = xmalloc(strlen(d->name) + strlen(val) + 2);
	sprintf(kv, "%s=%s", d->name, val);
	return kv;
}

char **
optgen_random(const struct game *g, struct rng *r, int *players)
{
	struct opts o;
	char **kv, cause[256];
	int try, i, n, ok;

	kv = xcalloc(MAX_OPTS + 1, sizeof *kv);
	for (try = 0; try < TRIES; try++) {
		*players = (int)draw_between(r, g->min_players, g->max_players);
		opts_defaults(g, &o, *players);
		for (i = 0, n = 0, ok = 1; g->options[i].name != NULL &&
		    n < MAX_OPTS; i++) {
			if ((kv[n] = draw_option(&g->options[i], r)) == NULL)
				continue;
			if (opts_set(g, &o, kv[n++], cause, sizeof cause) == -1)
				ok = 0;
		}
		kv[n] = NULL;
		if (ok && opts_finish(g, &o, cause, sizeof cause) == 0)
			return kv;
		for (i = 0; i < n; i++) {
			free(kv[i]);
			kv[i] = NULL;
		}
	}
	*players = g->default_players;
	return kv;
}
