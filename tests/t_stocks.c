/*
 * Unit tests of stocks beyond the rule scenarios: the --setup documents and
 * actions it must refuse (with a cause); positions too long to reach by
 * scripted play (a bank short twice in a row, a second reshuffle that adds
 * no jokers and still runs short); every event type rendering; and the
 * view-leak property of the issue: after the other players' hands and the
 * stock's order are re-dealt, a seat's view, legal list and every event it
 * is told stay byte-identical while the others play the same moves, up to
 * its own next decision.  Prints TAP.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "games/stocks.h"

#define LEAK_GAMES	300

static const struct game	*g;

static int	refused(int, const char *, const char *, const char *);
static int	setup_fails(const char *, int, const char *);
static int	action_fails(const char *, const char *);
static void	new_game(struct stocks *, int, const char *, const char *);
static int	take_card(struct stocks *, int);
static void	hand_put(struct stocks *, int, int);
static char	*seen_events(const struct stocks *, const struct events *, int);
static char	*request(const struct stocks *, int);
static int	differ(char *, char *, char *, size_t, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
static int	leak_game(uint64_t, int *, int *, char *, size_t);
static void	test_setup(void);
static void	test_actions(void);
static void	test_levy_twice(void);
static void	test_second_reshuffle(void);
static void	test_events(void);
static void	test_leaks(void);
static void	test_legal_apply(void);

/* The set-up documents that must be refused, with words of the cause. */
static const struct {
	const char	*text;
	int		 players;
	const char	*want, *name;
} bad_setups[] = {
	{ "[1]", 2, "not a JSON object",
	    "setup: not an object" },
	{ "{\"dek\": []}", 2, "unknown key \"dek\"",
	    "setup: an unknown key is named" },
	{ "{\"deck\": [\"7H\", \"XX\"]}", 2, "\"deck\"[1] is not a card",
	    "setup: a bad card name is located" },
	{ "{\"deck\": [\"JK\"]}", 2, "no jokers here",
	    "setup: no joker in the first deal" },
	{ "{\"deck\": [\"7H\", \"7H\", \"7H\"]}", 2,
	    "\"deck\"[2] is a third copy",
	    "setup: a third copy in the deck" },
	{ "{\"turn\": [\"5S\", \"6H\", \"5D\", \"5C\"], \"deck\": [\"5S\", "
	    "\"5S\"]}", 2, "\"deck\"[1] is a third copy",
	    "setup: a price card counts against the deck's copies" },
	{ "{\"turn\": [\"5S\", \"6H\", \"KD\", \"5C\"]}", 2,
	    "ends before every suit",
	    "setup: turned cards that leave a suit without a price card" },
	{ "{\"turn\": [\"5S\", \"6H\", \"5D\", \"5C\", \"7C\"]}", 2,
	    "goes on after the fourth price card",
	    "setup: turned cards after the fourth price card" },
	{ "{\"turn\": [\"KS\", \"KS\", \"KS\", \"5S\", \"6H\", \"5D\", "
	    "\"5C\"]}", 2, "KS more than twice",
	    "setup: a card turned three times" },
	{ "{\"deck\": [\"AS\", \"AS\", \"2S\", \"2S\", \"3S\", \"3S\", \"4S\", "
	    "\"4S\", \"5S\", \"5S\", \"6S\", \"6S\", \"7S\", \"7S\", \"8S\", "
	    "\"8S\", \"9S\", \"9S\", \"TS\", \"TS\"]}", 2,
	    "must hold an A-10 of every suit",
	    "setup: a deck that leaves spades no price card" },
	{ "{\"start\": 2}", 2, "\"start\" must be a seat from 0 to 1",
	    "setup: start beyond the players" },
	{ "{\"start\": \"0\"}", 2, "\"start\" must be a seat",
	    "setup: start not a number" },
	{ "{\"stock\": 85}", 2, "from 0 to 84",
	    "setup: a stock larger than the deal leaves (2 players)" },
	{ "{\"stock\": 53}", 6, "from 0 to 52",
	    "setup: a stock larger than the deal leaves (6 players)" },
	{ "{\"reshuffle\": [\"JK\", \"JK\", \"JK\"]}", 2,
	    "\"reshuffle\"[2] is a third copy",
	    "setup: three jokers" },
};

/* The action texts that must be refused, with words of the cause. */
static const struct {
	const char	*text, *want, *name;
} bad_actions[] = {
	{ "[\"end\"]", "object with a \"type\"",
	    "action: not an object" },
	{ "{\"type\": \"fly\"}", "unknown action type",
	    "action: an unknown type" },
	{ "{\"type\": \"buy\"}", "\"card\" must name a card",
	    "action: a buy without a card" },
	{ "{\"type\": \"sell\", \"card\": \"JK\"}", "\"card\" must name a card",
	    "action: a joker is no certificate" },
	{ "{\"type\": \"price\", \"card\": \"JH\"}", "needs \"value\": 11 or 0",
	    "action: a face card's meaning is required" },
	{ "{\"type\": \"price\", \"card\": \"QH\", \"value\": 11}",
	    "can only mean 12 or 0",
	    "action: a queen cannot mean 11" },
	{ "{\"type\": \"price\", \"card\": \"7H\", \"value\": 0}",
	    "can only mean 7",
	    "action: a 7 cannot mean 0" },
	{ "{\"type\": \"price\", \"card\": \"7H\", \"value\": \"7\"}",
	    "can only mean 7",
	    "action: a value must be a number" },
};

/*
 * Returns 1 if rc, a parser's return, refuses (-1) with a cause holding
 * want; else 0, noting the text and the cause of a refusal without it.
 */
static int
refused(int rc, const char *cause, const char *text, const char *want)
{
	if (rc != -1)
		return 0;
	if (strstr(cause, want) != NULL)
		return 1;
	printf("# %s: %s\n", text, cause);
	return 0;
}

/* Returns 1 if the set-up text is refused with a cause containing want. */
static int
setup_fails(const char *text, int players, const char *want)
{
	struct stocks_setup su;
	struct opts o;
	json_error_t jerr;
	json_t *j;
	char cause[256];
	int rc;

	opts_defaults(g, &o, players);
	if (opts_finish(g, &o, cause, sizeof cause) == -1)
		return 0;
	if ((j = json_loads(text, 0, &jerr)) == NULL)
		return 0;
	rc = refused(g->setup_parse(j, &o, &su, cause, sizeof cause),
	    cause, text, want);
	json_decref(j);
	return rc;
}

/* Returns 1 if the action text is refused with a cause containing want. */
static int
action_fails(const char *text, const char *want)
{
	struct stocks st;
	struct action a;
	json_error_t jerr;
	json_t *j;
	char cause[256];
	int rc;

	new_game(&st, 2, NULL, NULL);
	if ((j = json_loads(text, JSON_DECODE_ANY, &jerr)) == NULL)
		return 0;
	rc = refused(g->action_parse(&st, 0, j, &a, cause, sizeof cause),
	    cause, text, want);
	json_decref(j);
	return rc;
}

/* Deals a game of players with an option ("key=value") and a set-up. */
static void
new_game(struct stocks *st, int players, const char *opt, const char *setup)
{
	struct stocks_setup su;
	struct opts o;
	struct rng r;
	json_t *j = NULL;
	char cause[256];

	opts_defaults(g, &o, players);
	if (opt != NULL && opts_set(g, &o, opt, cause, sizeof cause) == -1)
		abort();
	if (opts_finish(g, &o, cause, sizeof cause) == -1)
		abort();
	if (setup != NULL) {
		if ((j = json_loads(setup, 0, NULL)) == NULL ||
		    g->setup_parse(j, &o, &su, cause, sizeof cause) == -1) {
			printf("# %s\n", cause);
			abort();
		}
		json_decref(j);
	}
	rng_seed(&r, 1);
	g->init(st, &o, setup != NULL ? &su : NULL, &r, NULL);
}

/* Takes a copy of card out of the stock or a hand; -1 if none is there. */
static int
take_card(struct stocks *st, int card)
{
	int i, p, k;

	for (i = 0; i < st->nstock; i++)
		if (st->stock[i] == card) {
			memmove(st->stock + i, st->stock + i + 1,
			    (size_t)(st->nstock - i - 1));
			st->nstock--;
			return 0;
		}
	for (p = 0; p < st->players; p++)
		for (i = 0; i < st->nhand[p]; i++)
			if (st->hand[p][i] == card) {
				for (k = i; k + 1 < st->nhand[p]; k++)
					st->hand[p][k] = st->hand[p][k + 1];
				st->nhand[p]--;
				return 0;
			}
	return -1;
}

/* Puts card into player p's hand, keeping it sorted. */
static void
hand_put(struct stocks *st, int p, int card)
{
	int n;

	for (n = st->nhand[p]++; n > 0 && st->hand[p][n - 1] > card; n--)
		st->hand[p][n] = st->hand[p][n - 1];
	st->hand[p][n] = (uint8_t)card;
}

/* The set-up documents that must be refused. */
static void
test_setup(void)
{
	size_t i;

	for (i = 0; i < sizeof bad_setups / sizeof bad_setups[0]; i++)
		tap_ok(setup_fails(bad_setups[i].text, bad_setups[i].players,
		    bad_setups[i].want), "%s", bad_setups[i].name);
	tap_ok(!setup_fails("{\"turn\": [\"KH\", \"5S\", \"5S\", \"6H\", \"5D\", "
	    "\"5C\"], \"deck\": [\"5S\", \"KH\", \"KH\"], \"start\": 1, "
	    "\"stock\": 0, \"reshuffle\": [\"JK\", \"JK\", \"5S\"]}", 2, ""),
	    "setup: a full valid document is accepted");
}

/* The action texts that must be refused. */
static void
test_actions(void)
{
	size_t i;

	for (i = 0; i < sizeof bad_actions / sizeof bad_actions[0]; i++)
		tap_ok(action_fails(bad_actions[i].text, bad_actions[i].want),
		    "%s", bad_actions[i].name);
}

/*
 * Compares two texts and frees them; if they differ, writes the message
 * fmt (it may name them) into why and returns -1, else 0.
 */
static int
differ(char *x, char *y, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	int rc = 0;

	if (strcmp(x, y) != 0) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
		rc = -1;
	}
	free(x);
	free(y);
	return rc;
}

/*
 * A bank short by more than one round of $100s: a rich seller sells $130
 * while the bank holds $10 and the other player is broke and in debt.
 */
static void
test_levy_twice(void)
{
	struct stocks st;
	struct events ev = { NULL, 0, 0 };
	struct rng r;
	char why[256];
	size_t i;
	int shorts = 0, levies = 0, rc;

	new_game(&st, 2, "bank=0", "{\"turn\": [\"9S\", \"6H\", \"5D\", "
	    "\"5C\"], \"deck\": [\"TS\"], \"start\": 0}");
	/* Move TS to a certificate of seat 0, and a KS on the spades stack. */
	rc = take_card(&st, CARD(SPADES, 9));
	rc |= take_card(&st, CARD(SPADES, 12));
	st.cert[0][CARD(SPADES, 9)] = 1;
	st.shares[0][SPADES] = 10;
	st.pile[SPADES][st.npile[SPADES]++] = CARD(SPADES, 12);
	st.value[SPADES] = 13;
	/* Keep the waiting seat's hand full: the KS came from somewhere. */
	if (st.nhand[1] < ST_HAND)
		hand_put(&st, 1, st.stock[--st.nstock]);
	st.bank = 10;
	st.money[0] = 390;
	st.money[1] = 0;
	st.debt[1] = 50;
	tap_ok(rc == 0 && g->check(&st, why, sizeof why) == 0,
	    "levy twice: the constructed position is sound");
	rng_seed(&r, 3);
	rc = g->apply(&st, 0, (struct action){ ST_CODE(K_SELL,
	    CARD(SPADES, 9)), 0 }, &r, &ev);
	for (i = 0; i < ev.n; i++) {
		shorts += ev.e[i].type == EV_BANK_SHORT;
		levies += ev.e[i].type == EV_LEVY;
	}
	tap_ok(rc == 0 && shorts == 2 && levies == 4,
	    "levy twice: two rounds of $100 (%d short, %d levies)", shorts,
	    levies);
	tap_ok(st.money[0] == 390 - 200 + 130 && st.money[1] == 0 &&
	    st.debt[1] == 250 && st.bank == 10 + 200 - 130,
	    "levy twice: the seller pays twice, the broke player owes $200 "
	    "more, then the bank pays (money %d/%d, debt %d, bank %d)",
	    st.money[0], st.money[1], st.debt[1], st.bank);
	tap_ok(g->check(&st, why, sizeof why) == 0, "levy twice: money conserved");
	ev_free(&ev);
}

/*
 * A second reshuffle (jokers already in the stock) adds no jokers; a new
 * stock that is still short is drawn until the joker ends the game.
 */
static void
test_second_reshuffle(void)
{
	struct stocks st;
	struct events ev = { NULL, 0, 0 };
	struct rng r;
	char why[256];
	int s, k, p, c, n, rest[40], nrest = 0, added = -1, size = -1, rc;
	size_t i;

	new_game(&st, 6, NULL, NULL);
	memset(st.cert, 0, sizeof st.cert);
	memset(st.shares, 0, sizeof st.shares);
	memset(st.nhand, 0, sizeof st.nhand);
	/* Price cards: an 8 of each suit.  Certificates: A-7 twice and the
	 * other 8 of each suit, 64 shares a company, at most 12 a player. */
	for (s = 0; s < ST_NCOMP; s++) {
		st.pile[s][0] = (uint8_t)CARD(s, 7);
		st.npile[s] = 1;
		st.value[s] = 8;
		st.zero[s] = 0;
		for (k = 7; k >= 0; k--)
			for (n = k == 7 ? 1 : 2; n > 0; n--) {
				c = CARD(s, k);
				for (p = 0; st.shares[p][s] + k + 1 >
				    ST_MAXSHARES; p++)
					;
				st.cert[p][c]++;
				st.shares[p][s] += (uint8_t)(k + 1);
			}
		for (k = 8; k < 13; k++)
			rest[nrest++] = CARD(s, k), rest[nrest++] = CARD(s, k);
	}
	/* The 40 nines to kings fill the five waiting hands. */
	for (i = 0, p = 1; p < 6; p++)
		for (k = 0; k < ST_HAND; k++)
			hand_put(&st, p, rest[i++]);
	st.ndiscard = 0;
	st.stock[0] = JOKER;
	st.stock[1] = JOKER + 1;
	st.nstock = 2;
	st.jokers_in = 1;
	st.turn = 0;
	rc = g->check(&st, why, sizeof why);
	tap_ok(rc == 0, "second reshuffle: the constructed position is sound%s%s",
	    rc ? ": " : "", rc ? why : "");
	rng_seed(&r, 5);
	rc = g->apply(&st, 0, (struct action){ ST_END, 0 }, &r, &ev);
	for (i = 0; i < ev.n; i++)
		if (ev.e[i].type == EV_RESHUFFLE) {
			size = ev.e[i].a[0];
			added = ev.e[i].a[1];
		}
	tap_ok(rc == 0 && added == 0 && size == 2,
	    "second reshuffle: no jokers added (stock %d, added %d)", size,
	    added);
	tap_ok(st.over && st.joker_by == 0 && st.nhand[0] == 0 && !st.capped,
	    "second reshuffle: still short, drawn until the joker ends the "
	    "game");
	rc = g->check(&st, why, sizeof why);
	tap_ok(rc == 0, "second reshuffle: cards conserved%s%s", rc ? ": " : "",
	    rc ? why : "");
	ev_free(&ev);
}

/* Every event of a few games renders as a known type. */
static void
test_events(void)
{
	struct stocks st;
	struct events ev = { NULL, 0, 0 };
	struct legal l[MAX_LEGAL];
	struct opts o;
	struct rng r;
	json_t *j;
	const char *type;
	int seen[EV_GAME_OVER + 1], n, unknown = 0, all = 1, k, refills;
	int badrefill = 0;
	int64_t code;
	size_t i, from;
	char why[8];

	memset(seen, 0, sizeof seen);
	for (k = 0; k < 200; k++) {
		opts_defaults(g, &o, 2 + k % 5);
		opts_set(g, &o, k % 2 ? "bank=0" : "bank=50", why, sizeof why);
		opts_finish(g, &o, why, sizeof why);
		rng_seed(&r, (uint64_t)k);
		g->init(&st, &o, NULL, &r, &ev);
		while (!g->over(&st)) {
			n = g->legal(&st, st.turn, l, MAX_LEGAL);
			code = l[rng_below(&r, (uint32_t)n)].code;
			from = ev.n;
			g->apply(&st, st.turn, (struct action){ code, 0 }, &r,
			    &ev);
			/* Issue 13: each end of turn tells one refill,
			 * count 0 included (a full hand, a joker first). */
			for (refills = 0, i = from; i < ev.n; i++)
				refills += ev.e[i].type == EV_DRAWN &&
				    ev.e[i].a[2] == 1;
			if (refills != (code == ST_END))
				badrefill++;
		}
		for (i = 0; i < ev.n; i++) {
			seen[ev.e[i].type] = 1;
			j = game_event_json(g, &st, &ev.e[i]);
			type = json_string_value(json_object_get(j, "type"));
			unknown += type == NULL || strcmp(type, "unknown") == 0;
			json_decref(j);
		}
		ev_clear(&ev);
	}
	for (k = 0; k <= EV_GAME_OVER; k++)
		all &= seen[k];
	tap_ok(unknown == 0 && all, "events: every type occurs in random play and "
	    "renders (%d unknown)", unknown);
	tap_ok(badrefill == 0, "events: every end of turn, and nothing else, "
	    "sends one drawn refill event, count 0 included (%d wrong)",
	    badrefill);
	ev_free(&ev);
}

/*
 * In random positions (both option settings), every code from 0 to 699 is
 * accepted by apply exactly when the legal list has it.
 */
static void
test_legal_apply(void)
{
	static struct legal l[MAX_LEGAL];
	struct stocks st, copy;
	struct opts o;
	struct rng r;
	char why[64];
	int k, n, code, listed, took, bad = 0, checked = 0;

	for (k = 0; k < 30 && bad == 0; k++) {
		opts_defaults(g, &o, 2 + k % 5);
		opts_set(g, &o, k % 2 ? "sell_same_turn=on" : "bank=30", why,
		    sizeof why);
		opts_finish(g, &o, why, sizeof why);
		rng_seed(&r, (uint64_t)k + 77);
		g->init(&st, &o, NULL, &r, NULL);
		while (!g->over(&st) && bad == 0) {
			n = g->legal(&st, st.turn, l, MAX_LEGAL);
			if (rng_below(&r, 5) == 0)
				for (code = 0; code < 700; code++) {
					memcpy(&copy, &st, sizeof copy);
					listed = legal_find(l, n, (struct action){
					    code, 0 }) >= 0;
					took = g->apply(&copy, st.turn,
					    (struct action){ code, 0 }, &r,
					    NULL) == 0;
					bad += listed != took;
					checked++;
				}
			g->apply(&st, st.turn, (struct action){
			    l[rng_below(&r, (uint32_t)n)].code, 0 }, &r, NULL);
		}
	}
	tap_ok(bad == 0 && checked > 50000, "legal list and apply agree on every "
	    "code (%d checked, %d disagreements)", checked, bad);
}

/* Returns seat's events of ev as one canonical string; caller frees. */
static char *
seen_events(const struct stocks *st, const struct events *ev, int seat)
{
	json_t *a;
	char *s;
	size_t i;

	a = json_array();
	for (i = 0; i < ev->n; i++)
		if (ev->e[i].seen & (1u << seat))
			json_array_append_new(a, game_event_json(g, st,
			    &ev->e[i]));
	s = json_canon(a);
	json_decref(a);
	return s;
}

/* Returns seat's view and legal list as one canonical string. */
static char *
request(const struct stocks *st, int seat)
{
	static struct legal l[MAX_LEGAL];
	json_t *v;
	char *s;
	int n;

	v = game_view_json(g, st, seat);
	n = (g->deciders(st) & (1u << seat)) ?
	    g->legal(st, seat, l, MAX_LEGAL) : 0;
	json_object_set_new(v, "legal", legal_json(g, st, seat, l, n));
	s = json_canon(v);
	json_decref(v);
	return s;
}

/*
 * Plays a random game; at random points re-deals what a waiting seat cannot
 * see and lets the others play the same moves in both copies until that
 * seat decides, comparing everything it is told.  Counts comparisons made
 * and trials cut short by a joker drawn in one copy only.
 */
static int
leak_game(uint64_t seed, int *compared, int *cut, char *why, size_t len)
{
	struct stocks a, b;
	struct events ea = { NULL, 0, 0 }, eb = { NULL, 0, 0 };
	struct legal la[MAX_LEGAL], lb[MAX_LEGAL];
	struct opts o;
	struct rng r, ra, rb;
	struct action act;
	char *s1, *s2;
	int seat, n, m, i, k, rc = 0, players;

	rng_seed(&r, seed);
	players = 2 + (int)rng_below(&r, 5);
	opts_defaults(g, &o, players);
	opts_finish(g, &o, why, len);
	g->init(&a, &o, NULL, &r, NULL);
	while (!g->over(&a) && rc == 0) {
		n = g->legal(&a, a.turn, la, MAX_LEGAL);
		if (rng_below(&r, 4) == 0) {
			seat = (a.turn + 1 + (int)rng_below(&r,
			    (uint32_t)players - 1)) % players;
			memcpy(&b, &a, sizeof b);
			g->perturb(&b, seat, &r);
			ra = rb = r;
			while (!g->over(&a) && a.turn != seat) {
				/* A move legal in both copies. */
				m = g->legal(&a, a.turn, la, MAX_LEGAL);
				k = g->legal(&b, b.turn, lb, MAX_LEGAL);
				for (i = (int)rng_below(&r, (uint32_t)m); ; ) {
					act = (struct action){ la[i].code, 0 };
					if (legal_find(lb, k, act) >= 0)
						break;
					i = (i + 1) % m;
				}
				ev_clear(&ea);
				ev_clear(&eb);
				g->apply(&a, a.turn, act, &ra, &ea);
				g->apply(&b, b.turn, act, &rb, &eb);
				/* The stock's order decides where a joker
				 * lies: a joker drawn shows it; stop there. */
				if (a.jokers_out || b.jokers_out) {
					(*cut)++;
					break;
				}
				s1 = seen_events(&a, &ea, seat);
				s2 = seen_events(&b, &eb, seat);
				rc = differ(s1, s2, why, len, "seat %d was "
				    "told %.200s instead of %.200s", seat, s2,
				    s1);
				if (rc == -1)
					break;
			}
			if (rc == 0 && !a.jokers_out && !b.jokers_out) {
				s1 = request(&a, seat);
				s2 = request(&b, seat);
				rc = differ(s1, s2, why, len, "seat %d's "
				    "request differs: %.300s / %.300s", seat,
				    s1, s2);
				(*compared)++;
			}
			continue;	/* a went on; play from there */
		}
		g->apply(&a, a.turn, (struct action){
		    la[rng_below(&r, (uint32_t)n)].code, 0 }, &r, NULL);
	}
	ev_free(&ea);
	ev_free(&eb);
	return rc;
}

/* The view-leak property over many games; the deal itself too. */
static void
test_leaks(void)
{
	struct stocks a, b;
	char why[1024], *s1, *s2;
	int k, compared = 0, cut = 0, rc = 0;

	for (k = 0; k < LEAK_GAMES && rc == 0; k++)
		rc = leak_game((uint64_t)k + 1000, &compared, &cut, why,
		    sizeof why);
	tap_ok(rc == 0 && compared > 10 * cut, "leaks: %d re-deals of others' "
	    "hands and the stock left the seat's view, legal list and events "
	    "byte-identical (%d cut short by a joker)%s%s", compared, cut,
	    rc ? ": " : "", rc ? why : "");

	/* Two deals that differ in seat 1's hand and the stock's order. */
	new_game(&a, 2, NULL, "{\"turn\": [\"5S\", \"6H\", \"5D\", \"5C\"], "
	    "\"start\": 0, \"deck\": [\"AS\", \"2S\", \"AH\", \"2H\", \"3S\", "
	    "\"4S\", \"3H\", \"4H\", \"6S\", \"7S\", \"7H\", \"8H\", \"8S\", "
	    "\"9S\", \"9H\", \"TH\", \"KC\", \"QC\", \"JC\"]}");
	new_game(&b, 2, NULL, "{\"turn\": [\"5S\", \"6H\", \"5D\", \"5C\"], "
	    "\"start\": 0, \"deck\": [\"AS\", \"2S\", \"AD\", \"2D\", \"3S\", "
	    "\"4S\", \"3D\", \"4D\", \"6S\", \"7S\", \"7D\", \"8D\", \"8S\", "
	    "\"9S\", \"9D\", \"TD\", \"JC\", \"KC\", \"QC\"]}");
	s1 = request(&a, 0);
	s2 = request(&b, 0);
	tap_ok(strcmp(s1, s2) == 0 && memcmp(a.hand[1], b.hand[1], 8) != 0,
	    "leaks: two deals that differ only in seat 1's hand and the "
	    "stock give seat 0 the same request");
	free(s1);
	free(s2);
	s1 = request(&a, 1);
	s2 = request(&b, 1);
	tap_ok(strcmp(s1, s2) != 0, "leaks: ... and seat 1 different ones");
	free(s1);
	free(s2);
}

int
main(void)
{
	g = tap_game("stocks");
	test_setup();
	test_actions();
	test_levy_twice();
	test_second_reshuffle();
	test_events();
	test_leaks();
	test_legal_apply();
	return tap_done();
}
