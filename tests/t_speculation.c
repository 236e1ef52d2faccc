/*
 * Unit tests of speculation beyond the rule scenarios: the views never leak
 * a face-down card or the widow (checked by changing hidden cards directly,
 * not through the game's own perturb()), the events alone let a bot follow
 * the counters, the pool, the face-down counts and the highest card, the
 * dealing order of --setup, and the causes of bad --setup documents.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "games/speculation.h"

static const struct game *g;
static struct legal ltmp[MAX_LEGAL];

static void	new_game(struct sp *, uint64_t, struct rng *, struct events *,
		    int);
static char	*messages(const struct sp *, int);
static char	*events_text(const struct sp *, const struct events *);
static struct action random_action(const struct sp *, int, struct rng *);
static int	swap_hidden(struct sp *, struct rng *);
static void	test_leaks(void);
static void	test_events_follow(void);
static void	test_setup_deal(void);
static void	test_setup_errors(void);

/* Deals a random game: 3-12 players, random rule options (widow often). */
static void
new_game(struct sp *st, uint64_t seed, struct rng *r, struct events *ev,
    int widow)
{
	struct opts o;
	char why[256];

	rng_seed(r, seed);
	opts_defaults(g, &o, 3 + (int)rng_below(r, 10));
	o.v[SO_WIDOW] = widow;
	o.v[SO_STACKED] = rng_below(r, 3) == 0;
	o.v[SO_ALL_CARDS_RANK] = rng_below(r, 3) == 0;
	o.v[SO_PAY_5_JACK] = rng_below(r, 2);
	o.v[SO_DEALS] = 1 + rng_below(r, 4);
	o.given[SO_DEALS] = 1;
	if (opts_finish(g, &o, why, sizeof why) == -1) {
		fprintf(stderr, "%s\n", why);
		exit(1);
	}
	g->init(st, &o, NULL, r, ev);
}

/* Returns what seat is told now (view and legal list), canonical. */
static char *
messages(const struct sp *st, int seat)
{
	json_t *m;
	char *s;
	int n;

	n = g->legal(st, seat, ltmp, MAX_LEGAL);
	m = json_pack("{s:o,s:o}", "view", game_view_json(g, st, seat), "legal",
	    legal_json(g, st, seat, ltmp, n));
	s = json_canon(m);
	json_decref(m);
	return s;
}

/* Returns the events as one canonical JSON text. */
static char *
events_text(const struct sp *st, const struct events *ev)
{
	json_t *a;
	size_t i;
	char *s;

	a = json_array();
	for (i = 0; i < ev->n; i++)
		json_array_append_new(a, game_event_json(g, st, &ev->e[i]));
	s = json_canon(a);
	json_decref(a);
	return s;
}

/* A uniformly random legal action of player. */
static struct action
random_action(const struct sp *st, int p, struct rng *r)
{
	struct action a;
	struct legal *e;
	int n;

	n = g->legal(st, p, ltmp, MAX_LEGAL);
	e = &ltmp[rng_below(r, (uint32_t)n)];
	a.code = e->code;
	a.amount = e->ranged ? e->lo + (int32_t)rng_below(r,
	    (uint32_t)(e->hi - e->lo + 1)) : 0;
	return a;
}

/*
 * Swaps one face-down or widow card with another hidden card (another
 * face-down card, a widow card or an undealt one); returns 0 if the state
 * had none to change.
 */
static int
swap_hidden(struct sp *st, struct rng *r)
{
	int8_t *slot[52 * 2], *a, *b, t;
	int n = 0, nfirst, p, i;

	for (p = 0; p < st->n; p++)
		for (i = 0; i < st->nfd[p]; i++)
			slot[n++] = &st->fd[p][i];
	for (i = 0; i < st->nwidow; i++)
		slot[n++] = &st->widow[i];
	nfirst = n;
	for (i = 0; i < st->nstock; i++)
		slot[n++] = &st->stock[i];
	if (nfirst == 0 || n < 2)
		return 0;
	a = slot[rng_below(r, (uint32_t)nfirst)];
	do
		b = slot[rng_below(r, (uint32_t)n)];
	while (b == a);
	t = *a;
	*a = *b;
	*b = t;
	return 1;
}

/*
 * Every player's messages are byte-identical when a face-down card or a
 * widow card is changed, and so are the events of the next action unless it
 * turns a card up or ends the deal (the widow is then shown to all).
 */
static void
test_leaks(void)
{
	struct sp st, alt;
	struct rng r, r2, pick;
	struct events ev = { NULL, 0, 0 }, ev2 = { NULL, 0, 0 };
	struct action a;
	char why[256], *s1, *s2, *all1, *all2;
	int game, seat, p, leaks = 0, events_bad = 0, bad_state = 0, ended;
	long views = 0, evcmp = 0, steps;
	uint32_t d;

	rng_seed(&pick, 99);
	for (game = 0; game < 40; game++) {
		new_game(&st, 1000 + game, &r, &ev, game % 2);
		for (steps = 0; (d = g->deciders(&st)) != 0 && steps < 300;
		    steps++) {
			alt = st;
			if (!swap_hidden(&alt, &pick))
				break;
			if (g->check(&alt, why, sizeof why) == -1)
				bad_state++;
			all1 = messages(&st, SEAT_ALL);
			all2 = messages(&alt, SEAT_ALL);
			if (strcmp(all1, all2) == 0)
				bad_state++;	/* the swap changed nothing */
			free(all1);
			free(all2);
			for (seat = 0; seat < st.n; seat++) {
				s1 = messages(&st, seat);
				s2 = messages(&alt, seat);
				if (strcmp(s1, s2) != 0 && leaks++ == 0)
					printf("# seat %d sees a hidden card:\n"
					    "# %.300s\n# %.300s\n", seat, s1, s2);
				views++;
				free(s1);
				free(s2);
			}
			p = __builtin_ctz(d);
			a = random_action(&st, p, &pick);
			r2 = r;
			ended = st.last_deal;
			ev_clear(&ev);
			ev_clear(&ev2);
			g->apply(&st, p, a, &r, &ev);
			g->apply(&alt, p, a, &r2, &ev2);
			if (SP_KIND(a.code) == AK_TURN ||
			    st.last_deal != ended)
				continue;	/* a card was shown */
			s1 = events_text(&st, &ev);
			s2 = events_text(&alt, &ev2);
			if (strcmp(s1, s2) != 0 && events_bad++ == 0)
				printf("# events differ:\n# %.300s\n# %.300s\n",
				    s1, s2);
			evcmp++;
			free(s1);
			free(s2);
		}
	}
	ev_free(&ev);
	ev_free(&ev2);
	tap_ok(bad_state == 0, "changing a hidden card gives a valid, different "
	    "state (%d bad)", bad_state);
	tap_ok(leaks == 0 && views > 50000, "no view or legal list shows a "
	    "face-down or widow card (%ld seat views compared, %d differ)",
	    views, leaks);
	tap_ok(events_bad == 0 && evcmp > 5000, "no event names a hidden card "
	    "(%ld event batches compared, %d differ)", evcmp, events_bad);
}

/*
 * A bot following only the events knows every player's counters and
 * face-down count, the pool, the highest card and its holder.
 */
static void
test_events_follow(void)
{
	struct sp st;
	struct rng r;
	struct events ev = { NULL, 0, 0 };
	int32_t cnt[MAX_PLAYERS], fd[MAX_PLAYERS], pool, holder, high;
	int game, i, p, mism = 0, k;
	long steps = 0;
	uint32_t d;
	json_t *e, *v;
	const char *t;
	size_t j;
	char buf[3];

	for (game = 0; game < 150; game++) {
		new_game(&st, 5000 + game, &r, &ev, game % 3 == 0);
		for (p = 0; p < st.n; p++) {
			cnt[p] = st.stack;
			fd[p] = 0;
		}
		pool = 0;
		holder = high = -1;
		for (;;) {
			for (j = 0; j < ev.n; j++) {
				e = game_event_json(g, &st, &ev.e[j]);
				t = json_string_value(json_object_get(e, "type"));
#define I(k) ((int32_t)json_integer_value(json_object_get(e, k)))
				if (strcmp(t, "deal") == 0)
					memset(fd, 0, sizeof fd);
				else if (strcmp(t, "ante") == 0) {
					cnt[I("player")] -= I("amount");
					pool += I("amount");
					fd[I("player")] = 3;
				} else if (strcmp(t, "trump") == 0) {
					holder = I("dealer");
					high = card_from_json(
					    json_object_get(e, "card"));
				} else if (strcmp(t, "sold") == 0) {
					cnt[I("buyer")] -= I("price");
					cnt[I("seller")] += I("price");
					v = json_object_get(e, "positions");
					if (v == NULL)
						holder = I("buyer");
					else {
						k = (int)json_array_size(v);
						fd[I("seller")] -= k;
						fd[I("buyer")] += k;
					}
				} else if (strcmp(t, "turn_up") == 0) {
					fd[I("player")]--;
					if (json_is_true(json_object_get(e,
					    "high"))) {
						holder = I("player");
						high = card_from_json(
						    json_object_get(e, "card"));
					}
				} else if (strcmp(t, "fine") == 0) {
					cnt[I("player")] -= I("amount");
					pool += I("amount");
				} else if (strcmp(t, "deal_end") == 0 &&
				    !json_is_true(json_object_get(e,
				    "carried"))) {
					cnt[I("winner")] += I("amount");
					pool -= I("amount");
				}
#undef I
				json_decref(e);
			}
			ev_clear(&ev);
			if (st.phase == SP_OVER)
				break;
			for (p = 0; p < st.n; p++)
				if (cnt[p] != st.counters[p] ||
				    fd[p] != st.nfd[p])
					mism++;
			if (pool != st.pool || holder != st.holder ||
			    high != st.high)
				mism++;
			if (mism == 1) {
				card_name(high >= 0 ? high : 0, buf);
				printf("# game %d step %ld: events say pool %d "
				    "holder %d high %s\n", game, steps, pool,
				    holder, buf);
				mism++;
			}
			d = g->deciders(&st);
			p = __builtin_ctz(d);
			g->apply(&st, p, random_action(&st, p, &r), &r, &ev);
			steps++;
		}
		for (i = 0; i < st.n; i++)
			if (cnt[i] != st.counters[i])
				mism++;
	}
	ev_free(&ev);
	tap_ok(mism == 0 && steps > 10000, "the events alone follow counters, "
	    "pool, face-down counts and the highest card (%ld steps)", steps);
}

/* --setup: a whole deck is dealt one card at a time from the dealer's
 * left, the widow after the dealer, then the dealer's face-up card. */
static void
test_setup_deal(void)
{
	static const char *const want[] = {
	    "/hands/3", "[\"AS\",\"6S\",\"JS\"]",
	    "/hands/0", "[\"2S\",\"7S\",\"QS\"]",
	    "/hands/1", "[\"3S\",\"8S\",\"KS\"]",
	    "/hands/2", "[\"4S\",\"9S\",\"AH\"]",
	    "/widow_cards", "[\"5S\",\"TS\",\"2H\"]",
	    "/high", "\"3H\"", "/trump", "\"H\"", "/dealer", "2",
	    "/stock/0", "\"4H\"", "/stock/35", "\"KC\"" };
	struct opts o;
	struct sp st;
	struct sp_setup su;
	struct rng r;
	json_t *deck, *setup, *view;
	char why[256], name[3], *s;
	int c, i, bad = 0;

	opts_defaults(g, &o, 4);
	opts_set(g, &o, "widow=on", why, sizeof why);
	opts_finish(g, &o, why, sizeof why);
	deck = json_array();
	for (c = 0; c < 52; c++) {
		card_name(c, name);
		json_array_append_new(deck, json_string(name));
	}
	setup = json_pack("{s:o,s:i}", "deck", deck, "dealer", 2);
	tap_ok(g->setup_parse(setup, &o, &su, why, sizeof why) == 0,
	    "a whole deck and a dealer parse");
	rng_seed(&r, 1);
	g->init(&st, &o, &su, &r, NULL);
	view = game_view_json(g, &st, SEAT_ALL);
	for (i = 0; i < (int)(sizeof want / sizeof want[0]); i += 2) {
		s = json_canon(json_path(view, want[i]));
		if (strcmp(s, want[i + 1]) != 0) {
			printf("# %s is %s, not %s\n", want[i], s, want[i + 1]);
			bad++;
		}
		free(s);
	}
	tap_ok(bad == 0, "the deck is dealt in the brief's order (widow after "
	    "the dealer, face-up card last)");
	json_decref(view);
	json_decref(setup);

	/* A partial deck: its cards on top, the rest shuffled below. */
	setup = json_pack("{s:[s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s]}", "deck",
	    "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D",
	    "2D", "AD", "KH", "QH", "JH", "TH");
	tap_ok(g->setup_parse(setup, &o, &su, why, sizeof why) == 0 &&
	    su.dealer == -1, "a partial deck parses; the dealer is drawn");
	g->init(&st, &o, &su, &r, NULL);
	view = game_view_json(g, &st, SEAT_ALL);
	s = json_canon(json_path(view, "/high"));
	tap_ok(strcmp(s, "\"TH\"") == 0 && st.nstock == 36,
	    "a partial deck's cards are dealt first (face up %s)", s);
	free(s);
	json_decref(view);
	json_decref(setup);
}

/* Bad --setup documents are refused with a cause naming the problem. */
static void
test_setup_errors(void)
{
	static const char *const cases[] = {
	    "[]", "not a JSON object",
	    "{\"deck\":[\"AS\",\"XX\"]}", "deck[1]",
	    "{\"deck\":[\"AS\",\"JK\"]}", "deck[1]",
	    "{\"deck\":[\"AS\",\"KD\",\"AS\"]}", "twice",
	    "{\"deck\":\"AS KD\"}", "array",
	    "{\"decks\":[[\"AS\"],[\"AS\",\"AS\"]]}", "decks[1][1]",
	    "{\"decks\":[[],[],[],[],[]]}", "at most 4",
	    "{\"deck\":[],\"decks\":[]}", "not both",
	    "{\"dealer\":3}", "dealer",
	    "{\"dealer\":-1}", "dealer",
	    "{\"dealer\":\"0\"}", "dealer",
	    "{\"seating\":[0,1,2]}", "unknown key \"seating\"" };
	struct opts o;
	struct sp_setup su;
	json_error_t jerr;
	json_t *j;
	char why[256];
	size_t i;
	int rc;

	opts_defaults(g, &o, 3);
	opts_finish(g, &o, why, sizeof why);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i += 2) {
		j = json_loads(cases[i], 0, &jerr);
		why[0] = '\0';
		rc = g->setup_parse(j, &o, &su, why, sizeof why);
		tap_ok(rc == -1 && strstr(why, cases[i + 1]) != NULL,
		    "setup %s is refused: %s", cases[i], why);
		json_decref(j);
	}
}

int
main(void)
{
	g = tap_game("speculation");
	test_leaks();
	test_events_follow();
	test_setup_deal();
	test_setup_errors();
	return tap_done();
}
