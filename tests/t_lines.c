/*
 * Bounded lines (issue 13): plays random games of every game at the
 * extremes of its options, building every message the referee would send
 * (start, a request to each seat that decides, end) with the referee's own
 * writers (messages.c), and checks that the largest stays under the
 * protocol's maximum line length (proto.h MAX_LINE).  The largest line of
 * each configuration is printed as a TAP comment, for the record.  A seat
 * asked rarely (a speculation player out early) is where a backlog of
 * events grows: messages.c caps it at EVENTS_MAX bytes.
 *
 * Usage: t_lines [-v]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "messages.h"

#define STEP_CAP	400000	/* decisions per game at most */
#define MISSED		"{\"type\":\"missed\",\"count\":"

struct config {
	const char	*game;
	int		 players;
	const char	*opts[8];	/* "key=value", NULL-terminated */
	int		 games;
	int		 lazy;		/* 1: the default move (long, quiet
					   games); 0: uniform at random */
};

/* The extremes: most players, fewest, the longest games, every switch. */
static const struct config configs[] = {
	{ "speculation", 12, { "stack=1000000", "max_turns=100000",
	    "widow=on", "pay_5_jack=on", "deals=24", NULL }, 2, 0 },
	{ "speculation", 12, { "stacked=on", "all_cards_rank=on",
	    "deals=24", NULL }, 2, 0 },
	{ "speculation", 3, { "stack=5", "deals=1000", NULL }, 3, 0 },
	{ "speculation", 3, { "deals=1000", NULL }, 3, 1 },
	{ "speculation", 12, { "deals=1000", "widow=on", NULL }, 1, 1 },
	{ "speculation", 3, { "stack=40", "ante=1", "deals=1000",
	    "widow=on", NULL }, 2, 0 },
	{ "stocks", 6, { "max_turns=100000", "sell_same_turn=on", NULL }, 2, 0 },
	{ "stocks", 2, { "bank=1000000", "max_turns=2000", NULL }, 2, 0 },
	{ "nyse", 10, { "open_holdings=off", NULL }, 5, 0 },
	{ "nyse", 10, { NULL }, 5, 0 },
	{ "nyse", 1, { "board=shuffled", NULL }, 5, 0 },
	{ "daifugo", 7, { "jokers=2", "deals=20", NULL }, 3, 0 },
	{ "daifugo", 4, { "jokers=2", "deals=20", "pass_limit=unlimited",
	    NULL }, 3, 0 },
	{ "horserace", 8, { "bets=win,exacta,trifecta,daily_double",
	    "joker=on", "races=16", NULL }, 3, 0 },
	{ "horserace", 8, { "calcutta=on", "stack=1000000", "races=8",
	    NULL }, 3, 0 },
	{ "horserace", 3, { "calcutta=on", "races=20", NULL }, 3, 0 },
};

static struct legal	legal[MAX_LEGAL];
static int		verbose;
static long		nmissed;	/* messages with a "missed" event */

static size_t	play(const struct config *, uint64_t, char *, size_t,
		    const char **);

/* Keeps the longest message seen so far and what it was. */
static void
note(struct buf *q, size_t *max, const char **what, const char *kind)
{
	if (memmem(q->p, q->len, MISSED, strlen(MISSED)) != NULL)
		nmissed++;
	if (q->len > *max) {
		*max = q->len;
		*what = kind;
	}
	q->len = 0;
}

/*
 * Plays one random game of c from seed as the referee would talk to the
 * seats; returns the longest line (without its newline), 0 on error (the
 * cause in why); *what says which message it was.
 */
static size_t
play(const struct config *c, uint64_t seed, char *why, size_t len,
    const char **what)
{
	const struct game *g = game_find(c->game);
	struct evfeed feed = { 0 };
	struct events ev = { NULL, 0, 0 };
	struct buf q = { 0 };
	struct opts o;
	struct rng r;
	struct action a;
	struct legal *e;
	double scores[MAX_PLAYERS];
	int places[MAX_PLAYERS], s, n, i;
	uint32_t d;
	json_t *fin;
	size_t max = 0;
	long steps = 0;
	void *st;

	if (g == NULL) {
		snprintf(why, len, "no game %s", c->game);
		return 0;
	}
	opts_defaults(g, &o, c->players);
	for (i = 0; c->opts[i] != NULL; i++)
		if (opts_set(g, &o, c->opts[i], why, len) == -1)
			return 0;
	if (opts_finish(g, &o, why, len) == -1)
		return 0;
	st = xcalloc(1, g->state_size);
	rng_seed(&r, seed);
	g->init(st, &o, NULL, &r, &ev);
	for (s = 0; s < c->players; s++) {
		msg_start(&q, g, st, 0, s, c->players, WANT_ALL);
		note(&q, &max, what, "start");
	}
	while ((d = g->deciders(st)) != 0 && steps < STEP_CAP) {
		for (s = 0; s < c->players; s++) {
			if (!(g->deciders(st) & (1u << s)))
				continue;
			n = g->legal(st, s, legal, MAX_LEGAL);
			msg_request(&q, g, st, steps, 0, s, 1000, &feed, &ev,
			    legal, n, WANT_ALL);
			note(&q, &max, what, "request");
			e = &legal[rng_below(&r, (uint32_t)n)];
			a.code = e->code;
			a.amount = e->ranged ? e->lo + (int32_t)rng_below(&r,
			    (uint32_t)(e->hi - e->lo) + 1) : 0;
			if (c->lazy)
				a = g->default_action(st, s);
			if (g->apply(st, s, a, &r, &ev) == -1) {
				snprintf(why, len, "a legal action was refused");
				max = 0;
				goto out;
			}
			steps++;
		}
	}
	if (g->over(st)) {
		g->result(st, places, scores);
		fin = game_view_json(g, st, SEAT_ALL);
		for (s = 0; s < c->players; s++) {
			msg_end(&q, g, st, 0, s, c->players, places, scores,
			    &feed, &ev, fin, WANT_ALL);
			note(&q, &max, what, "end");
		}
		json_decref(fin);
	}
	if (verbose)
		printf("# %s seed %llu: %ld decisions, %zu events, %s\n",
		    c->game, (unsigned long long)seed, steps, ev.n,
		    g->over(st) ? "over" : "step cap");
out:
	/* The line sent ends in '\n': its length is one less. */
	if (max > 0)
		max--;
	free(st);
	buf_free(&q);
	evfeed_free(&feed);
	ev_free(&ev);
	return max;
}

int
main(int argc, char **argv)
{
	char why[256], opts[160];
	const char *what = "", *kind;
	size_t i, k, m, best;
	int ch, j;

	while ((ch = getopt(argc, argv, "v")) != -1)
		switch (ch) {
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: t_lines [-v]\n");
			return 2;
		}
	for (i = 0; i < sizeof configs / sizeof configs[0]; i++) {
		opts[0] = '\0';
		for (j = 0; configs[i].opts[j] != NULL; j++) {
			strlcat(opts, " ", sizeof opts);
			strlcat(opts, configs[i].opts[j], sizeof opts);
		}
		best = 0;
		kind = "";
		why[0] = '\0';
		for (k = 0; k < (size_t)configs[i].games; k++) {
			m = play(&configs[i], seed_derive(13, k), why, sizeof why,
			    &what);
			if (m == 0)
				break;
			if (m > best) {
				best = m;
				kind = what;
			}
		}
		tap_ok(best > 0 && best <= MAX_LINE, "lines: %s -n %d%s: the "
		    "largest line is %zu bytes (a %s), at most %d%s%s",
		    configs[i].game, configs[i].players, opts, best, kind,
		    MAX_LINE, why[0] ? ": " : "", why);
	}
	/* The lazy speculation games leave a player out for hundreds of
	 * deals: the cap on a backlog of events must have been used. */
	tap_ok(nmissed > 0, "lines: a backlog over %d bytes was cut to a "
	    "missed event (%ld messages)", EVENTS_MAX, nmissed);
	return tap_done();
}
