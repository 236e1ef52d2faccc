/*
 * Unit tests of the horserace engine beyond the rule scenarios: option
 * resolution, --setup validation, the action codec over every kind of bet,
 * the view-leak properties of issue 7 (the stock order and sealed bets
 * never reach a player's messages), and random play with every variant
 * forced in turn, checking conservation and every event's encoding and
 * audience.  Speaks TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define ODDS7	"\"2S\",\"3S\",\"2H\",\"3H\",\"2D\",\"3D\",\"2C\""

static const struct game *g;

static int	new_game(const char *const *, int, const char *, uint64_t,
		    void **, struct events *, char *, size_t);
static int	act(void *, int, const char *, struct rng *, struct events *);
static void	test_resolve(void);
static void	test_setup(void);
static void	test_codec(void);
static void	test_stock_leak(void);
static void	test_sealed(void);
static void	test_sealed_progress(void);
static void	test_random_variants(void);
static int	agree(void *, int, struct rng *);

/*
 * Deals a game with the options kv (NULL-terminated), players and a setup
 * document (or NULL); returns 0, or -1 with the cause.
 */
static int
new_game(const char *const *kv, int players, const char *setup, uint64_t seed,
    void **stp, struct events *ev, char *cause, size_t len)
{
	struct opts o;
	struct rng r;
	json_error_t jerr;
	json_t *j;
	void *su = NULL;
	int i, rc;

	*stp = NULL;
	opts_defaults(g, &o, players);
	for (i = 0; kv != NULL && kv[i] != NULL; i++)
		if (opts_set(g, &o, kv[i], cause, len) == -1)
			return -1;
	if (opts_finish(g, &o, cause, len) == -1)
		return -1;
	if (setup != NULL) {
		if ((j = json_loads(setup, 0, &jerr)) == NULL) {
			snprintf(cause, len, "%s", jerr.text);
			return -1;
		}
		su = xcalloc(1, g->setup_size);
		rc = g->setup_parse(j, &o, su, cause, len);
		json_decref(j);
		if (rc == -1) {
			free(su);
			return -1;
		}
	}
	*stp = xcalloc(1, g->state_size);
	rng_seed(&r, seed);
	g->init(*stp, &o, su, &r, ev);
	free(su);
	return 0;
}

/* Parses and applies an action given as JSON text; -1 if refused. */
static int
act(void *st, int player, const char *text, struct rng *r, struct events *ev)
{
	struct action a;
	char cause[256];
	json_t *j;
	int rc;

	if ((j = json_loads(text, 0, NULL)) == NULL)
		return -1;
	rc = g->action_parse(st, player, j, &a, cause, sizeof cause);
	json_decref(j);
	if (rc == -1)
		return -1;
	return g->apply(st, player, a, r, ev);
}

/* races defaults to players (2 x with daily_double) and must be even then. */
static void
test_resolve(void)
{
	static const struct {
		const char	*kv[3];
		int		 players;
		long		 races;		/* -1: rejected */
	} t[] = {
		{ { NULL }, 5, 5 },
		{ { "bets=win,daily_double", NULL }, 5, 10 },
		{ { "bets=daily_double", NULL }, 3, 6 },
		{ { "bets=daily_double", "races=3", NULL }, 4, -1 },
		{ { "bets=win,daily_double", "races=4", NULL }, 4, 4 },
		{ { "bets=daily_double", "calcutta=on", NULL }, 6, 6 },
		{ { "bets=daily_double", "calcutta=on" }, 3, 3 },
		{ { "races=7", NULL }, 3, 7 },
	};
	struct opts o;
	char cause[256];
	size_t i;
	int k, rc, ri;

	ri = opt_index(g, "races");
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		opts_defaults(g, &o, t[i].players);
		for (k = 0; k < 3 && t[i].kv[k] != NULL; k++)
			opts_set(g, &o, t[i].kv[k], cause, sizeof cause);
		if (i == 6) {
			opts_set(g, &o, "races=3", cause, sizeof cause);
		}
		rc = opts_finish(g, &o, cause, sizeof cause);
		if (t[i].races == -1)
			tap_ok(rc == -1 && strstr(cause, "even") != NULL,
			    "resolve %zu: odd races with daily_double rejected "
			    "(%s)", i, rc == -1 ? cause : "accepted");
		else
			tap_ok(rc == 0 && o.v[ri] == t[i].races, "resolve %zu: "
			    "races %ld, expected %ld", i, o.v[ri], t[i].races);
	}
}

/* A --setup is validated with a clear cause. */
static void
test_setup(void)
{
	static const struct {
		const char	*kv;
		const char	*doc;
		const char	*cause;		/* NULL: accepted */
	} t[] = {
		{ NULL, "{\"dealer\":2,\"deck\":[" ODDS7 "]}", NULL },
		{ NULL, "{\"decks\":[[\"2S\",\"2S\"]]}", "twice" },
		{ NULL, "{\"deck\":[\"AS\"]}", "aces" },
		{ NULL, "{\"deck\":[\"JK\"]}", "joker" },
		{ "joker=on", "{\"deck\":[\"JK\",\"2S\"]}", NULL },
		{ "joker=on", "{\"deck\":[\"JK\",\"JK\"]}", "twice" },
		{ NULL, "{\"deck\":[\"1S\"]}", "not a card" },
		{ NULL, "{\"deck\":[7]}", "not a card" },
		{ NULL, "{\"deck\":\"2S\"}", "array" },
		{ NULL, "{\"dealer\":4}", "dealer" },
		{ NULL, "{\"dealer\":-1}", "dealer" },
		{ NULL, "{\"dealer\":\"0\"}", "dealer" },
		{ NULL, "{\"seating\":[0,1,2,3]}", "unknown key" },
		{ NULL, "{\"deck\":[],\"decks\":[]}", "not both" },
		{ NULL, "[]", "object" },
		{ NULL, "{\"decks\":[[],[],[],[],[],[],[],[],[],[],[],[],[],[],"
		    "[],[],[]]}", "at most 16" },
		{ NULL, "{\"decks\":[[\"2S\"],[\"2S\",\"QX\"]]}", "decks[1]" },
	};
	const char *kv[2];
	char cause[256];
	void *st;
	size_t i;
	int rc;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		kv[0] = t[i].kv;
		kv[1] = NULL;
		cause[0] = '\0';
		rc = new_game(kv, 4, t[i].doc, 1, &st, NULL, cause,
		    sizeof cause);
		if (t[i].cause == NULL)
			tap_ok(rc == 0 && g->check(st, cause, sizeof cause) == 0,
			    "setup %s accepted", t[i].doc);
		else
			tap_ok(rc == -1 && strstr(cause, t[i].cause) != NULL,
			    "setup %s rejected: %s", t[i].doc, cause);
		free(st);
	}
}

/* Every bet of every kind survives the codec, and each target is distinct. */
static void
test_codec(void)
{
	static const char *const kv[] = {
		"bets=win,exacta,trifecta,daily_double", NULL
	};
	static struct legal l[MAX_LEGAL];
	struct action a, b;
	char cause[256], *seen[64];
	json_t *j;
	void *st;
	int n, i, k, good = 1, distinct = 1, kinds[4] = { 0 };
	const char *names[] = { "win", "exacta", "trifecta", "daily_double" };

	if (new_game(kv, 4, "{\"dealer\":0}", 1, &st, NULL, cause,
	    sizeof cause) == -1) {
		tap_ok(0, "codec: %s", cause);
		return;
	}
	n = g->legal(st, 1, l, MAX_LEGAL);
	tap_ok(n == 57, "codec: done and 56 bet targets (4 win, 12 exacta, 24 "
	    "trifecta, 16 daily double) listed: %d", n);
	for (i = 0; i < n && i < 64; i++) {
		a.code = l[i].code;
		a.amount = l[i].ranged ? l[i].hi : 0;
		j = game_action_json(g, st, 1, a);
		if (g->action_parse(st, 1, j, &b, cause, sizeof cause) == -1 ||
		    b.code != a.code || b.amount != a.amount)
			good = 0;
		for (k = 0; k < 4; k++)
			if (json_is_string(json_object_get(j, "kind")) &&
			    strcmp(json_string_value(json_object_get(j, "kind")),
			    names[k]) == 0)
				kinds[k]++;
		seen[i] = json_canon(j);
		for (k = 0; k < i; k++)
			if (strcmp(seen[k], seen[i]) == 0)
				distinct = 0;
		json_decref(j);
	}
	tap_ok(good, "codec: every legal entry parses back to itself");
	tap_ok(distinct, "codec: the entries' JSON are all different");
	tap_ok(kinds[0] == 4 && kinds[1] == 12 && kinds[2] == 24 && kinds[3] == 16,
	    "codec: %d win, %d exacta, %d trifecta, %d daily double",
	    kinds[0], kinds[1], kinds[2], kinds[3]);
	for (i = 0; i < n && i < 64; i++)
		free(seen[i]);
	j = json_loads("{\"type\":\"bet\",\"kind\":\"exacta\",\"suits\":"
	    "[\"H\",\"H\"],\"amount\":3}", 0, NULL);
	tap_ok(g->action_parse(st, 1, j, &a, cause, sizeof cause) == -1 &&
	    strstr(cause, "differ") != NULL, "codec: an exacta on one suit "
	    "twice is malformed: %s", cause);
	json_decref(j);
	j = json_loads("{\"type\":\"fold\"}", 0, NULL);
	tap_ok(g->action_parse(st, 1, j, &a, cause, sizeof cause) == -1,
	    "codec: unknown type: %s", cause);
	json_decref(j);
	j = json_loads("[1]", 0, NULL);
	tap_ok(g->action_parse(st, 1, j, &a, cause, sizeof cause) == -1,
	    "codec: not an object: %s", cause);
	json_decref(j);
	free(st);
}

/*
 * Changing the stock order (the deals differ only below the odds cards)
 * leaves every player's messages byte-identical up to the race, in every
 * variant; the all-seeing view does differ.
 */
static void
test_stock_leak(void)
{
	static const char *const variants[][4] = {
		{ NULL },
		{ "joker=on", NULL },
		{ "dealer_sets_odds=on", NULL },
		{ "bets=win,exacta,trifecta,daily_double", NULL },
		{ "calcutta=on", NULL },
	};
	static struct legal l[MAX_LEGAL];
	struct events ev1 = { NULL, 0, 0 }, ev2 = { NULL, 0, 0 };
	struct action a;
	struct rng r1, r2;
	char cause[256], *m1, *m2;
	void *s1, *s2;
	json_t *a1, *a2;
	size_t v;
	int seat, same, differ, p, n, step, ran;
	uint32_t d;

	for (v = 0; v < sizeof variants / sizeof variants[0]; v++) {
		ev_clear(&ev1);
		ev_clear(&ev2);
		if (new_game(variants[v], 4, "{\"dealer\":0,\"deck\":[" ODDS7
		    "]}", 11, &s1, &ev1, cause, sizeof cause) == -1 ||
		    new_game(variants[v], 4, "{\"dealer\":0,\"deck\":[" ODDS7
		    "]}", 12, &s2, &ev2, cause, sizeof cause) == -1) {
			tap_ok(0, "stock leak: %s", cause);
			return;
		}
		rng_seed(&r1, 5);
		rng_seed(&r2, 5);
		a1 = game_view_json(g, s1, SEAT_ALL);
		a2 = game_view_json(g, s2, SEAT_ALL);
		differ = !json_equal(json_object_get(a1, "stock_order"),
		    json_object_get(a2, "stock_order"));
		json_decref(a1);
		json_decref(a2);
		same = 1;
		/* The deciders bet or bid (even steps) or take the default
		 * move (odd steps), the same in both games, until the race
		 * has run. */
		for (step = 0; same; step++) {
			for (seat = 0; seat < 4; seat++) {
				m1 = seat_messages(g, s1, seat, &ev1);
				m2 = seat_messages(g, s2, seat, &ev2);
				if (strcmp(m1, m2) != 0) {
					same = 0;
					printf("# seat %d: %.300s\n# vs %.300s\n",
					    seat, m1, m2);
				}
				free(m1);
				free(m2);
			}
			ev_clear(&ev1);
			ev_clear(&ev2);
			if ((d = g->deciders(s1)) == 0 || !same)
				break;
			for (p = 0; !(d & (1u << p)); p++)
				;
			n = g->legal(s1, p, l, MAX_LEGAL);
			if (step % 2 == 0 && n > 1) {
				a.code = l[1 + step / 2 % (n - 1)].code;
				a.amount = l[1 + step / 2 % (n - 1)].lo;
			} else
				a = g->default_action(s1, p);
			if (g->apply(s1, p, a, &r1, &ev1) == -1 ||
			    g->apply(s2, p, a, &r2, &ev2) == -1) {
				same = 0;
				printf("# an action was refused\n");
			}
			a1 = game_view_json(g, s1, SEAT_ALL);
			ran = !json_is_null(json_object_get(a1, "last_race"));
			json_decref(a1);
			if (ran)
				break;
		}
		tap_ok(differ && same, "stock leak, variant %s: the stock orders "
		    "differ (%d), every seat's messages are identical (%d) "
		    "over %d decisions up to the race",
		    variants[v][0] ? variants[v][0] : "base", differ, same,
		    step + 1);
		free(s1);
		free(s2);
	}
	ev_free(&ev1);
	ev_free(&ev2);
}

/*
 * A sealed bet is seen by nobody else before all bets are in: two games
 * where player 1 bets differently give players 0, 2, 3 identical messages;
 * once all are in, everyone sees the bets.
 */
static void
test_sealed(void)
{
	struct events ev1 = { NULL, 0, 0 }, ev2 = { NULL, 0, 0 };
	struct rng r1, r2;
	char cause[256], *m1, *m2;
	void *s1, *s2;
	int seat, same = 1, own = 0, rc;

	if (new_game(NULL, 4, "{\"dealer\":0}", 3, &s1, NULL, cause,
	    sizeof cause) == -1 || new_game(NULL, 4, "{\"dealer\":0}", 3, &s2,
	    NULL, cause, sizeof cause) == -1) {
		tap_ok(0, "sealed: %s", cause);
		return;
	}
	rng_seed(&r1, 9);
	rng_seed(&r2, 9);
	rc = act(s1, 1, "{\"type\":\"bet\",\"kind\":\"win\",\"suits\":[\"S\"],"
	    "\"amount\":5}", &r1, &ev1);
	rc |= act(s2, 1, "{\"type\":\"bet\",\"kind\":\"win\",\"suits\":[\"H\"],"
	    "\"amount\":7}", &r2, &ev2);
	rc |= act(s1, 2, "{\"type\":\"done\"}", &r1, &ev1);
	rc |= act(s2, 2, "{\"type\":\"done\"}", &r2, &ev2);
	for (seat = 0; seat < 4; seat++) {
		m1 = seat_messages(g, s1, seat, &ev1);
		m2 = seat_messages(g, s2, seat, &ev2);
		if (seat == 1)
			own = strcmp(m1, m2) != 0;
		else if (strcmp(m1, m2) != 0)
			same = 0;
		free(m1);
		free(m2);
	}
	tap_ok(rc == 0 && same && own, "sealed: player 1's bet changes only its "
	    "own messages before all bets are in");
	ev_clear(&ev1);
	ev_clear(&ev2);
	act(s1, 1, "{\"type\":\"done\"}", &r1, &ev1);
	act(s2, 1, "{\"type\":\"done\"}", &r2, &ev2);
	act(s1, 3, "{\"type\":\"done\"}", &r1, &ev1);
	act(s2, 3, "{\"type\":\"done\"}", &r2, &ev2);
	m1 = seat_messages(g, s1, 2, &ev1);
	m2 = seat_messages(g, s2, 2, &ev2);
	tap_ok(strcmp(m1, m2) != 0 && strstr(m1, "\"type\":\"bet\"") != NULL,
	    "sealed: once all bets are in, player 2 is told player 1's bet");
	free(m1);
	free(m2);
	free(s1);
	free(s2);
	ev_free(&ev1);
	ev_free(&ev2);
}

/*
 * Issue 13.5: while betting is open a bettor learns nothing of the others'
 * betting, not even who has finished or that a stake used a whole limit:
 * seat 3 gets the same messages whether player 1 staked its limit (done
 * automatically) and player 2 finished, or neither did anything; once the
 * last bet is in, everyone is told who finished in what order.
 */
static void
test_sealed_progress(void)
{
	struct events ev1 = { NULL, 0, 0 }, ev2 = { NULL, 0, 0 };
	struct rng r1, r2;
	char cause[256], *m1, *m2;
	void *s1, *s2;
	int rc, same, told;

	if (new_game(NULL, 4, "{\"dealer\":0}", 3, &s1, NULL, cause,
	    sizeof cause) == -1 || new_game(NULL, 4, "{\"dealer\":0}", 3, &s2,
	    NULL, cause, sizeof cause) == -1) {
		tap_ok(0, "sealed progress: %s", cause);
		return;
	}
	rng_seed(&r1, 9);
	rng_seed(&r2, 9);
	rc = act(s1, 1, "{\"type\":\"bet\",\"kind\":\"win\",\"suits\":[\"S\"],"
	    "\"amount\":20}", &r1, &ev1);
	rc |= act(s1, 2, "{\"type\":\"done\"}", &r1, &ev1);
	rc |= act(s2, 1, "{\"type\":\"bet\",\"kind\":\"win\",\"suits\":[\"S\"],"
	    "\"amount\":5}", &r2, &ev2);
	m1 = seat_messages(g, s1, 3, &ev1);
	m2 = seat_messages(g, s2, 3, &ev2);
	same = strcmp(m1, m2) == 0;
	tap_ok(rc == 0 && same, "sealed progress: a bettor still betting is "
	    "told nothing of who has finished or staked a whole limit%s%s%s%s",
	    same ? "" : ": ", same ? "" : m1, same ? "" : " vs ",
	    same ? "" : m2);
	free(m1);
	free(m2);
	ev_clear(&ev1);
	rc = act(s1, 3, "{\"type\":\"done\"}", &r1, &ev1);
	m1 = seat_messages(g, s1, 3, &ev1);
	told = strstr(m1, "{\"auto\":true,\"player\":1,\"type\":\"done\"},"
	    "{\"auto\":false,\"player\":2,\"type\":\"done\"}") != NULL;
	tap_ok(rc == 0 && told, "sealed progress: once all bets are in, the "
	    "others are told who finished in order (%s)", m1);
	free(m1);
	free(s1);
	free(s2);
	ev_free(&ev1);
	ev_free(&ev2);
}

/*
 * Checks that apply() accepts an action exactly when legal() lists it, for
 * the edges of every listed entry, codes around them and random codes, for
 * player p and a player who does not decide; 0 if they agree.
 */
static int
agree(void *st, int p, struct rng *r)
{
	static struct legal l[MAX_LEGAL];
	struct action c[1024];
	struct rng rr;
	void *copy;
	int n, i, k = 0, q, who, listed, took, rc = 0;

	n = g->legal(st, p, l, MAX_LEGAL);
	for (i = 0; i < n && k < 1000; i++) {
		c[k++] = (struct action){ l[i].code, l[i].lo - 1 };
		c[k++] = (struct action){ l[i].code, l[i].lo };
		c[k++] = (struct action){ l[i].code, l[i].hi + 1 };
		c[k++] = (struct action){ l[i].code + 1, l[i].lo };
	}
	for (i = 0; i < 16; i++)
		c[k++] = (struct action){ (int64_t)rng_below(r, 200),
		    (int32_t)rng_below(r, 3) };
	copy = xmalloc(g->state_size);
	for (q = 0; q < 3 && rc == 0; q++) {
		who = (p + q) % 3;	/* p, then two others (3+ players) */
		for (i = 0; i < k; i++) {
			memcpy(copy, st, g->state_size);
			rr = *r;
			listed = (g->deciders(st) & (1u << who)) &&
			    legal_contains(g, st, who, c[i]);
			took = g->apply(copy, who, c[i], &rr, NULL) == 0;
			if (listed != took) {
				printf("# player %d action %lld/%d: listed %d, "
				    "applied %d\n", who, (long long)c[i].code,
				    c[i].amount, listed, took);
				rc = -1;
				break;
			}
		}
	}
	free(copy);
	return rc;
}

/*
 * Random play with each variant in turn, 3-8 players: every game ends,
 * check() (chips and cards conserved) holds at every step, every event
 * encodes to a known type, a sealed bet is told to its bettor only, and
 * (every 25th step) apply() accepts exactly what legal() lists.
 */
static void
test_random_variants(void)
{
	static const char *const variants[][5] = {
		{ NULL },
		{ "joker=on", NULL },
		{ "bets=exacta", NULL },
		{ "bets=win,trifecta", "joker=on", NULL },
		{ "bets=win,daily_double", "dd_multiplier=3", NULL },
		{ "calcutta=on", NULL },
		{ "calcutta=on", "joker=on", "stack=20", NULL },
		{ "dealer_sets_odds=on", "stack=30", "bet_limit=30", NULL },
		{ "bets=win,exacta,trifecta,daily_double", "joker=on",
		    "dealer_sets_odds=on", "odds_table=1,3,6,12,40", NULL },
	};
	static struct legal l[MAX_LEGAL];
	struct events ev = { NULL, 0, 0 };
	struct action a;
	struct rng r;
	char cause[256];
	const char *type;
	json_t *j;
	void *st;
	size_t v, i;
	long ngames = 0, steps = 0, events = 0;
	int k, n, p, good = 1, enc = 1, audience = 1, ended = 1, step;
	int same = 1;
	uint32_t d;

	rng_seed(&r, 2024);
	for (k = 0; k < 2000 && good && enc && audience && ended && same;
	    k++) {
		v = (size_t)k % (sizeof variants / sizeof variants[0]);
		if (new_game(variants[v], 3 + k % 6, NULL, (uint64_t)k + 1, &st,
		    &ev, cause, sizeof cause) == -1) {
			tap_ok(0, "random: %s", cause);
			return;
		}
		for (step = 0; step < 100000; step++) {
			for (i = 0; i < ev.n; i++) {
				j = game_event_json(g, st, &ev.e[i]);
				type = json_string_value(json_object_get(j,
				    "type"));
				if (type == NULL || strcmp(type, "unknown") == 0)
					enc = 0;
				else if (strcmp(type, "my_bet") == 0 &&
				    ev.e[i].seen != 1u << json_integer_value(
				    json_object_get(j, "player")))
					audience = 0;
				json_decref(j);
				events++;
			}
			ev_clear(&ev);
			if (g->check(st, cause, sizeof cause) == -1) {
				printf("# variant %zu game %d: %s\n", v, k,
				    cause);
				good = 0;
				break;
			}
			if ((d = g->deciders(st)) == 0)
				break;
			for (n = (int)rng_below(&r, (uint32_t)popcount32(d)),
			    p = 0; ; p++)
				if ((d & (1u << p)) && n-- == 0)
					break;
			if (steps % 25 == 0 && same && agree(st, p, &r) == -1)
				same = 0;
			n = g->legal(st, p, l, MAX_LEGAL);
			i = rng_below(&r, (uint32_t)n);
			a.code = l[i].code;
			a.amount = l[i].ranged ? l[i].lo + (int32_t)rng_below(&r,
			    (uint32_t)(l[i].hi - l[i].lo) + 1) : 0;
			if (g->apply(st, p, a, &r, &ev) == -1)
				good = 0;
			steps++;
		}
		if (!g->over(st))
			ended = 0;
		ngames++;
		free(st);
	}
	ev_free(&ev);
	tap_ok(good, "random variants: check() held at every step");
	tap_ok(same, "random variants: apply() accepts exactly the legal list");
	tap_ok(ended, "random variants: every game ended");
	tap_ok(enc, "random variants: every event encodes to a known type");
	tap_ok(audience, "random variants: sealed bets told to the bettor only");
	printf("# %ld games, %ld actions, %ld events\n", ngames, steps, events);
}

int
main(void)
{
	g = tap_game("horserace");
	test_resolve();
	test_setup();
	test_codec();
	test_stock_leak();
	test_sealed();
	test_sealed_progress();
	test_random_variants();
	return tap_done();
}
