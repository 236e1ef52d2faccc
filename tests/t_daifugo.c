/*
 * Unit tests of the daifugo engine beyond the rule scenarios: --setup and
 * action validation with their causes, an exhaustive agreement between
 * apply() and the legal list on random candidate plays and gifts, the view
 * leak property of issue 3 checked directly (cards swapped between two
 * other players' hands leave a seat's view and legal list byte-identical),
 * and random play-outs over random options whose events must add up to
 * the final points.  Speaks TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "games/daifugo.h"

static const struct game *g;
static struct legal	legal[MAX_LEGAL];

static int	setup_err(int, const char *, const char *);
static void	test_setup(void);
static void	test_parse(void);
static void	random_opts(struct opts *, struct rng *);
static int	random_state(struct df_state *, struct rng *, int);
static int64_t	candidate(const struct df_state *, int, struct rng *);
static void	test_agreement(void);
static void	test_swap_leak(void);
static void	test_points(void);
static void	test_end_exchanges(void);
static void	play_out(struct df_state *, struct rng *, struct events *);

/*
 * Parses a set-up for players and jokers; returns 1 if it was refused
 * with a cause containing want (or accepted when want is NULL).
 */
static int
setup_err(int players, const char *doc, const char *want)
{
	struct opts o;
	struct df_setup su;
	json_error_t jerr;
	json_t *j;
	char cause[256] = "";
	int rc;

	opts_defaults(g, &o, players);
	if ((j = json_loads(doc, 0, &jerr)) == NULL)
		return 0;
	rc = g->setup_parse(j, &o, &su, cause, sizeof cause);
	json_decref(j);
	if (want == NULL)
		return rc == 0;
	return rc == -1 && strstr(cause, want) != NULL;
}

/* --setup documents are validated with clear causes. */
static void
test_setup(void)
{
	char deck[1024], *p;
	int i;

	p = deck;
	p += sprintf(p, "[");
	for (i = 0; i < 54; i++) {
		char name[3];

		card_name(i, name);
		p += sprintf(p, "%s\"%s\"", i ? "," : "", name);
	}
	sprintf(p, "]");
	tap_ok(setup_err(5, "{\"seating\":[4,3,2,1,0]}", NULL),
	    "setup: a seating alone is accepted");
	tap_ok(setup_err(5, "{\"seating\":[0,1,2,3]}", "must list the 5 seats"),
	    "setup: a short seating is refused");
	tap_ok(setup_err(5, "{\"seating\":[0,1,2,3,3]}", "permutation"),
	    "setup: a repeated seat is refused");
	tap_ok(setup_err(5, "{\"seating\":[0,1,2,3,4],\"previous\":[0,1,2,3,4]}",
	    "give it or"), "setup: seating and previous together are refused");
	tap_ok(setup_err(5, "{\"dealer\":0}", "unknown key"),
	    "setup: an unknown key is refused");
	tap_ok(setup_err(5, "{\"deck\":[\"3D\"]}", "all 54 cards"),
	    "setup: a short deck is refused");
	{
		char buf[2200];

		snprintf(buf, sizeof buf, "{\"deck\":%s}", deck);
		tap_ok(setup_err(5, buf, NULL), "setup: a full 54-card deck is "
		    "accepted");
		/* The second joker becomes a duplicate 2S. */
		p = strrchr(buf, 'J');
		memcpy(p, "2S", 2);
		tap_ok(setup_err(5, buf, "twice"), "setup: a card given twice is "
		    "refused");
		snprintf(buf, sizeof buf, "{\"decks\":[%s,%s]}", deck, deck);
		tap_ok(setup_err(5, buf, NULL), "setup: decks for two deals are "
		    "accepted");
		snprintf(buf, sizeof buf, "{\"deck\":%s,\"decks\":[%s]}", deck,
		    deck);
		tap_ok(setup_err(5, buf, "not both"), "setup: deck and decks "
		    "together are refused");
	}
	tap_ok(setup_err(5, "{\"deck\":[\"3D\",\"XX\"]}", "all 54"),
	    "setup: a deck of the wrong size is refused before its names");
	tap_ok(setup_err(5, "[]", "object"), "setup: a non-object is refused");
}

/* Actions parse from what the action writer writes, and malformed ones fail. */
static void
test_parse(void)
{
	static const struct {
		const char	*json, *want;
	} bad[] = {
		{ "{\"cards\":[\"3D\"]}", "\"type\"" },
		{ "{\"type\":\"fold\"}", "unknown action" },
		{ "{\"type\":\"play\",\"cards\":[\"3X\"]}", "not a card" },
		{ "{\"type\":\"play\",\"cards\":[]}", "at least one" },
		{ "{\"type\":\"play\",\"cards\":\"3D\"}", "array" },
		{ "{\"type\":\"play\",\"cards\":[\"3D\",\"3D\"]}", "twice" },
		{ "{\"type\":\"play\",\"cards\":[\"JK\",\"JK\",\"JK\"]}",
		    "more than two" },
		{ "{\"type\":\"play\",\"cards\":[\"5S\",\"6S\",\"JK\"]}",
		    "needs \"jokers_as\"" },
		{ "{\"type\":\"play\",\"cards\":[\"5S\",\"6S\",\"JK\"],"
		    "\"jokers_as\":[]}", "each joker" },
		{ "{\"type\":\"play\",\"cards\":[\"5S\",\"JK\"],"
		    "\"jokers_as\":[\"6\"]}", "stands for its rank" },
		{ "{\"type\":\"play\",\"cards\":[\"5S\",\"6S\",\"JK\"],"
		    "\"jokers_as\":[\"6S\"]}", "already in the play" },
	};
	struct df_state st;
	struct action a;
	json_t *j;
	char cause[256];
	size_t i;
	int good;

	memset(&st, 0, sizeof st);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		j = json_loads(bad[i].json, 0, NULL);
		cause[0] = '\0';
		good = j != NULL && g->action_parse(&st, 0, j, &a, cause,
		    sizeof cause) == -1 && strstr(cause, bad[i].want) != NULL;
		tap_ok(good, "parse: %s is refused (%s)", bad[i].json, cause);
		json_decref(j);
	}
	j = json_loads("{\"type\":\"play\",\"cards\":[\"5S\",\"JK\",\"7S\"]}",
	    0, NULL);
	tap_ok(g->action_parse(&st, 0, j, &a, cause, sizeof cause) == 0 &&
	    a.code == DA_MAKE(DA_PLAY, (1ULL << 2) | (1ULL << 4), 1, 2),
	    "parse: a joker filling the only gap needs no jokers_as");
	json_decref(j);
}

/* Random options over the whole table (each option at random). */
static void
random_opts(struct opts *o, struct rng *r)
{
	opts_defaults(g, o, 4 + (int)rng_below(r, 4));
	o->v[DO_JOKERS] = rng_below(r, 3);
	o->v[DO_DEALS] = 1 + rng_below(r, 3);
	o->v[DO_PASS_LIMIT] = rng_below(r, 2);
	o->v[DO_EIGHT_CUT] = rng_below(r, 2);
	o->v[DO_ELEVEN_BACK] = rng_below(r, 2);
}

/* Plays a random game for up to steps actions; returns 0 if not over. */
static int
random_state(struct df_state *st, struct rng *r, int steps)
{
	struct opts o;
	uint32_t d;
	int p, n, i;

	random_opts(&o, r);
	g->init(st, &o, NULL, r, NULL);
	for (i = 0; i < steps; i++) {
		if ((d = g->deciders(st)) == 0)
			return -1;
		do
			p = (int)rng_below(r, (uint32_t)st->np);
		while (!(d & (1u << p)));
		n = g->legal(st, p, legal, MAX_LEGAL);
		if (g->apply(st, p, (struct action){ legal[rng_below(r,
		    (uint32_t)n)].code, 0 }, r, NULL) == -1)
			return -1;
	}
	return g->over(st) ? -1 : 0;
}

/* Plays random legal moves until the game is over (at most 100000). */
static void
play_out(struct df_state *st, struct rng *r, struct events *ev)
{
	uint32_t d;
	int p, n, steps;

	for (steps = 0; (d = g->deciders(st)) != 0 && steps < 100000;
	    steps++) {
		do
			p = (int)rng_below(r, (uint32_t)st->np);
		while (!(d & (1u << p)));
		n = g->legal(st, p, legal, MAX_LEGAL);
		g->apply(st, p, (struct action){ legal[rng_below(r,
		    (uint32_t)n)].code, 0 }, r, ev);
	}
}

/* A random candidate action of p: cards from the hand and beyond. */
static int64_t
candidate(const struct df_state *st, int p, struct rng *r)
{
	uint64_t nat = 0, pool = st->hand[p];
	int k, i, b, j, low = 0;

	if (rng_below(r, 8) == 0)	/* any card, held or not */
		pool = DF_NATMASK;
	k = (int)rng_below(r, 6);
	for (i = 0; i < k && pool != 0; i++) {
		b = (int)rng_below(r, DF_NNAT);
		while (!(pool & (1ULL << b)))
			b = (b + 1) % DF_NNAT;
		nat |= 1ULL << b;
		pool &= ~(1ULL << b);
	}
	/* Favour one suit or one rank, where the combinations are. */
	if (rng_below(r, 2) == 0 && nat != 0)
		nat &= 0x1fffULL << (13 * (__builtin_ctzll(nat) / 13));
	j = (int)rng_below(r, 3);
	if (rng_below(r, 2) == 0)
		low = (int)rng_below(r, 13);
	if (rng_below(r, 40) == 0)
		return DA_PASS;
	return DA_MAKE(rng_below(r, 6) == 0 ? DA_GIVE : DA_PLAY, nat, j, low);
}

/*
 * apply() accepts a candidate exactly when it is in the legal list, and a
 * refusal leaves the state untouched.
 */
static void
test_agreement(void)
{
	struct df_state st, copy;
	struct rng r;
	struct action a;
	long tried = 0, accepted = 0, bad = 0;
	int s, k, n, p, in, rc;

	rng_seed(&r, 3);
	for (s = 0; s < 400; s++) {
		if (random_state(&st, &r, (int)rng_below(&r, 120)) == -1)
			continue;
		for (p = 0; p < st.np; p++) {
			n = g->legal(&st, p, legal, MAX_LEGAL);
			for (k = 0; k < 400; k++) {
				a.code = candidate(&st, p, &r);
				a.amount = 0;
				if (k < n && rng_below(&r, 2) == 0)
					a.code = legal[k].code;
				in = legal_find(legal, n, a) >= 0;
				memcpy(&copy, &st, sizeof st);
				rc = g->apply(&copy, p, a, &r, NULL);
				tried++;
				accepted += rc == 0;
				if ((rc == 0) != in || (rc == -1 &&
				    memcmp(&copy, &st, sizeof st) != 0)) {
					if (bad++ == 0)
						printf("# disagreement: player %d "
						    "code %llx listed %d applied "
						    "%d\n", p,
						    (unsigned long long)a.code, in,
						    rc);
				}
			}
		}
	}
	tap_ok(bad == 0 && accepted > 1000, "apply agrees with the legal list on "
	    "%ld candidates (%ld legal)", tried, accepted);
}

/*
 * Swapping cards between two other players' hands (sizes kept) leaves a
 * seat's view and legal list byte-identical.
 */
static void
test_swap_leak(void)
{
	struct df_state st, sw;
	struct rng r;
	uint64_t x, y;
	char *a, *b;
	int s, seat, p, q, checked = 0, leaks = 0;

	rng_seed(&r, 5);
	for (s = 0; s < 6000; s++) {
		if (random_state(&st, &r, (int)rng_below(&r, 150)) == -1)
			continue;
		seat = (int)rng_below(&r, st.np);
		p = (int)rng_below(&r, st.np);
		q = (int)rng_below(&r, st.np);
		if (p == seat || q == seat || p == q || st.hand[p] == 0 ||
		    st.hand[q] == 0)
			continue;
		memcpy(&sw, &st, sizeof st);
		x = st.hand[p] & -st.hand[p];
		y = st.hand[q] & -st.hand[q];
		sw.hand[p] = (sw.hand[p] & ~x) | y;
		sw.hand[q] = (sw.hand[q] & ~y) | x;
		if (rng_below(&r, 2) == 0 && st.jok[p] > 0) {
			/* A joker for a natural card. */
			memcpy(&sw, &st, sizeof st);
			sw.jok[p]--;
			sw.hand[p] |= y;
			sw.hand[q] &= ~y;
			sw.jok[q]++;
		}
		a = seat_messages(g, &st, seat, NULL);
		b = seat_messages(g, &sw, seat, NULL);
		leaks += strcmp(a, b) != 0;
		checked++;
		free(a);
		free(b);
	}
	tap_ok(leaks == 0 && checked > 1000, "view leak: %d states, a seat's view "
	    "and legal list unchanged by swapping others' cards", checked);
}

/*
 * Random play-outs: every game ends, the out events' points add up to the
 * final scores, and each deal's points are those of its deal_end event.
 */
static void
test_points(void)
{
	struct df_state st;
	struct events ev = { NULL, 0, 0 };
	struct opts o;
	struct rng r;
	double scores[MAX_PLAYERS];
	int32_t sum[MAX_PLAYERS];
	int places[MAX_PLAYERS], game, i, bad = 0;
	size_t k;

	rng_seed(&r, 9);
	for (game = 0; game < 300; game++) {
		random_opts(&o, &r);
		memset(sum, 0, sizeof sum);
		ev_clear(&ev);
		g->init(&st, &o, NULL, &r, &ev);
		play_out(&st, &r, &ev);
		for (k = 0; k < ev.n; k++)
			if (ev.e[k].type == DE_OUT)
				sum[ev.e[k].a[0]] += ev.e[k].a[2];
		g->result(&st, places, scores);
		for (i = 0; i < st.np; i++)
			if (scores[i] != sum[i] || scores[i] != st.total[i])
				bad++;
		if (!g->over(&st))
			bad++;
	}
	ev_free(&ev);
	tap_ok(bad == 0, "random play-outs: 300 games ended and the points of "
	    "going out add up to the scores");
}

/*
 * Issue 13: the all-seeing view at the end of a game keeps every exchange
 * of the last deal (protocol.md: "every exchange"), and each seat's own end
 * view keeps its own, gifts included.
 */
static void
test_end_exchanges(void)
{
	struct df_state st;
	struct opts o;
	struct rng r;
	json_t *v, *x, *e;
	int game, p, bad = 0, want;
	size_t i;

	rng_seed(&r, 13);
	for (game = 0; game < 50; game++) {
		random_opts(&o, &r);
		o.v[DO_DEALS] = 2;
		g->init(&st, &o, NULL, &r, NULL);
		play_out(&st, &r, NULL);
		for (want = 0, p = 0; p < st.np; p++)
			want += st.partner[p] >= 0;
		v = game_view_json(g, &st, SEAT_ALL);
		x = json_object_get(v, "exchanges");
		if (want != 4 || json_array_size(x) != 4)
			bad++;
		json_array_foreach(x, i, e)
			if (!json_is_array(json_object_get(e, "gave")) ||
			    !json_is_array(json_object_get(e, "got")))
				bad++;
		json_decref(v);
		for (p = 0; p < st.np; p++) {
			v = game_view_json(g, &st, p);
			e = json_object_get(v, "exchange");
			if ((st.partner[p] >= 0) != json_is_object(e))
				bad++;
			json_decref(v);
		}
	}
	tap_ok(bad == 0, "end view: every exchange of the last deal is kept, "
	    "in the all-seeing view and each seat's own (%d missing)", bad);
}

int
main(void)
{
	g = tap_game("daifugo");
	test_setup();
	test_parse();
	test_agreement();
	test_swap_leak();
	test_points();
	test_end_exchanges();
	return tap_done();
}
