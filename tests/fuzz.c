/*
 * The engine fuzzer: plays thousands of games of random legal moves with
 * random player counts and options, checking at every step the game's
 * invariants (check()), that every decider has a legal move, that the
 * default move is legal, that illegal codes are rejected without touching
 * the state, that the codec round-trips every legal action, and that a
 * seat's view and legal list do not change when everything it may not see
 * is re-dealt (perturb()).  Every game must end within a step cap.
 *
 * Usage: fuzz -g GAME [-n GAMES] [-s SEED] [-v]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "proto.h"

#define STEP_CAP	2000000

static struct legal	legal[MAX_LEGAL], legal2[MAX_LEGAL];
/* leak_check's own lists: it must not clobber the mover's list in legal. */
static struct legal	leak1[MAX_LEGAL], leak2[MAX_LEGAL];

static void	random_opts(const struct game *, struct opts *, struct rng *);
static int	play(const struct game *, uint64_t, char *, size_t, long *);
static int	leak_check(const struct game *, const void *, int,
		    struct rng *, char *, size_t);
static int	codec_check(const struct game *, const void *, int,
		    const struct legal *, int, char *, size_t);
static int	writer_check(const struct game *, const void *, int,
		    const struct legal *, int, char *, size_t);
static int	events_check(const struct game *, const void *,
		    const struct events *, char *, size_t);
static int	same_text(json_t *, struct buf *, const char *, char *,
		    size_t);

/* Random options: each option at its default half the time. */
static void
random_opts(const struct game *g, struct opts *o, struct rng *r)
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

/* Compares seat's view and legal list of st with those of a perturbed copy. */
static int
leak_check(const struct game *g, const void *st, int seat, struct rng *r,
    char *why, size_t len)
{
	void *copy;
	json_t *v1, *v2, *l1, *l2;
	char *s1, *s2;
	int n1, n2, rc = 0;

	copy = xmalloc(g->state_size);
	memcpy(copy, st, g->state_size);
	g->perturb(copy, seat, r);
	if (g->check(copy, why, len) == -1) {
		free(copy);
		return -1;
	}
	v1 = g->view_json(st, seat);
	v2 = g->view_json(copy, seat);
	/* Whether another seat decides now (a sealed bet still to make)
	 * may itself be hidden; the seat's own turn may not. */
	if ((g->deciders(st) ^ g->deciders(copy)) & (1u << seat)) {
		snprintf(why, len, "perturbing what seat %d cannot see changed "
		    "whether it decides", seat);
		rc = -1;
	}
	n1 = (g->deciders(st) & (1u << seat)) ?
	    g->legal(st, seat, leak1, MAX_LEGAL) : 0;
	n2 = (g->deciders(copy) & (1u << seat)) ?
	    g->legal(copy, seat, leak2, MAX_LEGAL) : 0;
	l1 = legal_json(g, st, seat, leak1, n1);
	l2 = legal_json(g, copy, seat, leak2, n2);
	json_object_set_new(v1, "legal", l1);
	json_object_set_new(v2, "legal", l2);
	s1 = json_canon(v1);
	s2 = json_canon(v2);
	if (rc == 0 && strcmp(s1, s2) != 0) {
		size_t i;

		for (i = 0; s1[i] == s2[i]; i++)
			;
		snprintf(why, len, "seat %d's view changed when hidden "
		    "information was re-dealt, at byte %zu: ...%.80s... vs "
		    "...%.80s...", seat, i, s1 + (i > 40 ? i - 40 : 0),
		    s2 + (i > 40 ? i - 40 : 0));
		rc = -1;
	}
	free(s1);
	free(s2);
	json_decref(v1);
	json_decref(v2);
	free(copy);
	return rc;
}

/* Checks that every legal action survives a trip through the codec. */
static int
codec_check(const struct game *g, const void *st, int p,
    const struct legal *l, int n, char *why, size_t len)
{
	struct action a, b;
	json_t *j;
	char cause[256], *s;
	int i;

	for (i = 0; i < n; i++) {
		a.code = l[i].code;
		a.amount = l[i].ranged ? l[i].hi : 0;
		j = g->action_json(st, p, a);
		if (g->action_parse(st, p, j, &b, cause, sizeof cause) == -1 ||
		    b.code != a.code || b.amount != a.amount) {
			s = json_canon(j);
			snprintf(why, len, "codec: %s does not parse back (%s)",
			    s, cause);
			free(s);
			json_decref(j);
			return -1;
		}
		json_decref(j);
	}
	return 0;
}

/* Compares the referee's encoding of tree j with text t (frees j). */
static int
same_text(json_t *j, struct buf *t, const char *what, char *why, size_t len)
{
	struct buf b = { 0 };
	int rc = 0;

	buf_json(&b, j);
	if (b.len != t->len || memcmp(b.p, t->p, b.len) != 0) {
		snprintf(why, len, "writer: the text of %s differs from its "
		    "tree: %.200s vs %.200s", what, t->len ? t->p : "",
		    b.len ? b.p : "");
		rc = -1;
	}
	json_decref(j);
	buf_free(&b);
	t->len = 0;
	return rc;
}

/*
 * For a game with writers (jw.h): the text the referee sends (views, the
 * legal list) must be byte for byte the encoding of the JSON trees.
 */
static int
writer_check(const struct game *g, const void *st, int p,
    const struct legal *l, int n, char *why, size_t len)
{
	struct buf t = { 0 };
	struct jw w;
	int seat, rc = 0;

	for (seat = SEAT_ALL; rc == 0 && seat < MAX_PLAYERS; seat++) {
		if (g->view_write == NULL)
			break;
		if (seat >= 0 && !(g->deciders(st) & (1u << seat)) && seat != p)
			continue;
		jw_text(&w, &t);
		g->view_write(st, seat, &w);
		rc = same_text(g->view_json(st, seat), &t, "a view", why, len);
	}
	if (rc == 0 && g->action_write != NULL) {
		jw_text(&w, &t);
		legal_write(g, st, p, l, n, &w);
		rc = same_text(legal_json(g, st, p, l, n), &t, "a legal list",
		    why, len);
	}
	buf_free(&t);
	return rc;
}

/* The same for the events just emitted, encoded against st. */
static int
events_check(const struct game *g, const void *st, const struct events *ev,
    char *why, size_t len)
{
	struct buf t = { 0 };
	struct jw w;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && g->event_write != NULL && i < ev->n; i++) {
		jw_text(&w, &t);
		g->event_write(st, &ev->e[i], &w);
		rc = same_text(g->event_json(st, &ev->e[i]), &t, "an event",
		    why, len);
	}
	buf_free(&t);
	return rc;
}

/* Plays one random game; -1 + cause on the first broken check. */
static int
play(const struct game *g, uint64_t seed, char *why, size_t len, long *steps)
{
	struct rng r, rr;
	struct opts o;
	struct events ev = { NULL, 0, 0 };
	struct action a, bad;
	struct legal *e;
	uint32_t d;
	void *st, *copy;
	double scores[MAX_PLAYERS];
	int places[MAX_PLAYERS], n, p, i, j, tries, rc = -1, better;
	long step;

	rng_seed(&r, seed);
	for (tries = 0; ; tries++) {
		opts_defaults(g, &o, g->min_players + (int)rng_below(&r,
		    (uint32_t)(g->max_players - g->min_players + 1)));
		if (tries < 20)
			random_opts(g, &o, &r);
		if (opts_finish(g, &o, why, len) == 0)
			break;
		if (tries >= 20)
			return -1;
	}
	st = xcalloc(1, g->state_size);
	copy = xcalloc(1, g->state_size);
	rng_seed(&rr, seed ^ 0x5eed);
	g->init(st, &o, NULL, &r, (rng_below(&rr, 8) == 0) ? &ev : NULL);
	for (step = 0; ; step++) {
		if (g->check(st, why, len) == -1)
			goto out;
		if ((d = g->deciders(st)) == 0)
			break;
		if (g->over(st)) {
			snprintf(why, len, "over, yet deciders %#x", d);
			goto out;
		}
		if (step >= STEP_CAP) {
			snprintf(why, len, "no end after %d steps", STEP_CAP);
			goto out;
		}
		/* A random decider acts; the others keep their turn. */
		n = popcount32(d);
		for (i = (int)rng_below(&r, (uint32_t)n), p = 0; ; p++)
			if ((d & (1u << p)) && i-- == 0)
				break;
		if ((n = g->legal(st, p, legal, MAX_LEGAL)) <= 0) {
			snprintf(why, len, "decider %d has no legal move", p);
			goto out;
		}
		a = g->default_action(st, p);
		if (legal_find(legal, n, a) < 0) {
			snprintf(why, len, "default action of %d is not legal",
			    p);
			goto out;
		}
		if (rng_below(&rr, 16) == 0) {
			if (codec_check(g, st, p, legal, n, why, len) == -1 ||
			    writer_check(g, st, p, legal, n, why, len) == -1)
				goto out;
			/* An unlisted action must be refused, state intact. */
			bad.code = legal[rng_below(&rr, (uint32_t)n)].code +
			    1 + rng_below(&rr, 1000);
			bad.amount = (int32_t)rng_below(&rr, 3);
			memcpy(copy, st, g->state_size);
			if (legal_find(legal, n, bad) < 0) {
				if (g->apply(st, p, bad, &r, NULL) != -1 ||
				    memcmp(copy, st, g->state_size) != 0) {
					snprintf(why, len, "illegal code %lld "
					    "accepted", (long long)bad.code);
					goto out;
				}
			}
			/* A player who does not decide now has nothing to do. */
			for (j = 0; j < o.players; j++)
				if (!(d & (1u << j))) {
					if (g->legal(st, j, legal2, MAX_LEGAL) != 0 ||
					    g->apply(st, j, a, &r, NULL) != -1 ||
					    memcmp(copy, st, g->state_size) != 0) {
						snprintf(why, len, "player %d, not a "
						    "decider, could act", j);
						goto out;
					}
					break;
				}
		}
		if (rng_below(&rr, 8) == 0 &&
		    leak_check(g, st, (int)rng_below(&rr,
		    (uint32_t)o.players), &rr, why, len) == -1)
			goto out;
		e = &legal[rng_below(&r, (uint32_t)n)];
		a.code = e->code;
		a.amount = e->ranged ? e->lo + (int32_t)rng_below(&r,
		    (uint32_t)(e->hi - e->lo) + 1) : 0;
		if (g->apply(st, p, a, &r, ev.e ? &ev : NULL) == -1) {
			snprintf(why, len, "apply refused legal action %lld "
			    "of player %d", (long long)a.code, p);
			goto out;
		}
		if (events_check(g, st, &ev, why, len) == -1)
			goto out;
		ev_clear(&ev);
	}
	if (!g->over(st)) {
		snprintf(why, len, "no deciders but not over");
		goto out;
	}
	g->result(st, places, scores);
	for (i = 0; i < o.players; i++) {
		better = 0;
		for (j = 0; j < o.players; j++)
			better += places[j] < places[i];
		if (places[i] < 1 || places[i] > o.players ||
		    places[i] != better + 1) {
			snprintf(why, len, "inconsistent places");
			goto out;
		}
	}
	*steps += step;
	rc = 0;
out:
	if (rc == -1) {
		size_t l = strlen(why);

		snprintf(why + l, len - l, " (players %d, step %ld)",
		    o.players, step);
	}
	ev_free(&ev);
	free(st);
	free(copy);
	return rc;
}

int
main(int argc, char **argv)
{
	const struct game *g = NULL;
	const char *errstr;
	uint64_t seed = 1;
	long n = 1000, i, steps = 0;
	char why[1024];
	int c;

	while ((c = getopt(argc, argv, "g:n:s:")) != -1)
		switch (c) {
		case 'g':
			if ((g = game_find(optarg)) == NULL)
				errx(2, "no game %s", optarg);
			break;
		case 'n':
			n = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: fuzz -g GAME [-n GAMES] "
			    "[-s SEED]\n");
			return 2;
		}
	if (g == NULL)
		errx(2, "usage: fuzz -g GAME [-n GAMES] [-s SEED]");
	for (i = 0; i < n; i++) {
		if (play(g, seed_derive(seed, (uint64_t)i), why, sizeof why,
		    &steps) == -1) {
			printf("not ok 1 - %s: game %ld (fuzz -g %s -s %llu, "
			    "game index %ld): %s\n1..1\n", g->name, i, g->name,
			    (unsigned long long)seed, i, why);
			return 1;
		}
	}
	printf("ok 1 - %s: %ld random games, %ld actions: every game ended, "
	    "invariants held, views leak-free, codec round-trips\n1..1\n",
	    g->name, n, steps);
	return 0;
}
