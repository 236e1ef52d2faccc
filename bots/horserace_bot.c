/*
 * The heuristic horserace bot.  It estimates the race's outcome from what
 * the view shows, the cards still in the stock (12 per suit less its odds
 * cards, and the joker), by simulating the rest of the race many times;
 * then it bets its whole limit on the bet of best expected value, if any
 * is positive (win, exacta, trifecta, and the daily double with the next
 * race's chances estimated from fresh deals), and otherwise nothing.  As the
 * dealer setting the odds it gives every suit the lowest odds, 1.  In the
 * Calcutta it bids up to an ace's expected share of the pot: with w = (2
 * P(1st) + P(2nd)) / 3, an ace bought for x into a pot expected to reach
 * pot + x + F is worth w (pot + x + F) - x, where F estimates what the aces
 * still to be auctioned will bring (from the prices seen so far).
 *
 * Like every bundled bot it keeps nothing from one game to the next (what
 * it remembers is reset when a request of another game comes), so that a
 * game's moves depend on (seed, game) alone whatever games its process
 * played before: a tournament's chunks and a resumed game change nothing.
 * The daily double's estimate, a function of the options alone, is drawn
 * from a generator of its own and kept.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/bot.h"

#define SAMPLES		20000	/* simulated races per decision */
#define DD_SAMPLES	40000	/* simulated fresh deals for the next race */

/* What one race simulation gives. */
struct probs {
	double	p[4][4];	/* P(suit s finishes in place k) */
	double	ex[4][4];	/* P(1st a, 2nd b) */
	double	tri[4][4][4];	/* P(1st a, 2nd b, 3rd c) */
};

struct hbot {
	int		dd_ready;
	double		dd_q[4];	/* E[odds of b next race, b wins] */
	double		dd_r[4];	/* P(b wins the next race) */
	double		price_sum;	/* Calcutta: prices of aces seen */
	int		price_n;	/* aces auctioned seen */
	int		seen_game, seen_race;
	long long	game;		/* the game the rest is about */
	int		cache_ok;	/* the last simulation: */
	int		cache_suits[4], cache_jokers;
	struct probs	cache;
};

static int	choose(struct bot *, const json_t *, int32_t *);
static int	run(int8_t *, int, int *, struct rng *);
static void	simulate(struct hbot *, struct rng *, const int *, int,
		    struct probs *);
static void	dd_prepare(struct bot *, struct hbot *);
static int	suit_of(const json_t *);
static int	find_entry(const json_t *, const char *, const char *,
		    const int *, int);
static int	choose_bet(struct bot *, struct hbot *, const json_t *,
		    const json_t *, int32_t *);
static int	choose_bid(struct bot *, struct hbot *, const json_t *,
		    const json_t *, int32_t *);
static void	note_prices(struct hbot *, const json_t *, const json_t *);

static const int64_t default_table[5] = { 1, 2, 3, 5, 10 };

/*
 * Runs a race over the cards (suit 0-3, 4 the joker) to the end or to 3
 * places; writes the order; returns the number of places decided.  With
 * r, the cards are drawn at random from those not yet turned (a shuffle
 * done only as far as the race goes).
 */
static int
run(int8_t *cards, int n, int *order, struct rng *r)
{
	int prog[4] = { 0, 0, 0, 0 }, done[4] = { 0, 0, 0, 0 };
	int i, j, s, lead, places = 0;
	int8_t t;

	for (i = 0; i < n && places < 3; i++) {
		if (r != NULL) {
			j = i + (int)rng_below(r, (uint32_t)(n - i));
			t = cards[i];
			cards[i] = cards[j];
			cards[j] = t;
		}
		if (cards[i] == 4) {
			lead = -1;
			for (s = 0; s < 4; s++)
				if (!done[s] && prog[s] > lead)
					lead = prog[s];
			for (s = 0; s < 4; s++)
				if (!done[s] && prog[s] < lead)
					prog[s]++;
			continue;
		}
		s = cards[i];
		if (done[s])
			continue;
		if (++prog[s] == 8) {
			done[s] = 1;
			order[places++] = s;
		}
	}
	return places;
}

/*
 * Estimates the places of the race from the stock's composition; the last
 * estimate is kept, as the stock does not change between the decisions
 * of one race.
 */
static void
simulate(struct hbot *h, struct rng *r, const int *suits, int jokers,
    struct probs *pr)
{
	int8_t cards[64];
	int order[4], n = 0, s, k, i, places;
	double w = 1.0 / SAMPLES;

	if (h->cache_ok && memcmp(h->cache_suits, suits, sizeof h->cache_suits)
	    == 0 && h->cache_jokers == jokers) {
		*pr = h->cache;
		return;
	}
	memset(pr, 0, sizeof *pr);
	for (s = 0; s < 4; s++)
		for (k = 0; k < suits[s] && n < 60; k++)
			cards[n++] = (int8_t)s;
	for (k = 0; k < jokers && n < 64; k++)
		cards[n++] = 4;
	for (i = 0; i < SAMPLES; i++) {
		places = run(cards, n, order, r);
		for (k = 0; k < places; k++)
			pr->p[order[k]][k] += w;
		if (places >= 2)
			pr->ex[order[0]][order[1]] += w;
		if (places >= 3)
			pr->tri[order[0]][order[1]][order[2]] += w;
	}
	h->cache = *pr;
	memcpy(h->cache_suits, suits, sizeof h->cache_suits);
	h->cache_jokers = jokers;
	h->cache_ok = 1;
}

/*
 * Estimates, for the daily double, the next race's chances and expected
 * odds per suit from fresh deals with the game's options.
 */
static void
dd_prepare(struct bot *b, struct hbot *h)
{
	const json_t *o, *tab;
	int8_t deck[49], t;
	int64_t table[5];
	int n, i, j, k, count[4], bad, order[4], joker;
	struct rng r;

	o = json_object_get(b->hello, "options");
	joker = json_is_true(json_object_get(o, "joker"));
	tab = json_object_get(o, "odds_table");
	for (k = 0; k < 5; k++)
		table[k] = json_is_array(tab) ? json_integer_value(
		    json_array_get(tab, (size_t)k)) : default_table[k];
	n = 0;
	for (k = 0; k < 4; k++)
		for (i = 0; i < 12; i++)
			deck[n++] = (int8_t)k;
	if (joker)
		deck[n++] = 4;
	rng_seed(&r, 0x6464);	/* not the game's: the same in every game */
	memset(h->dd_q, 0, sizeof h->dd_q);
	memset(h->dd_r, 0, sizeof h->dd_r);
	for (i = 0; i < DD_SAMPLES; i++) {
		do {
			for (j = n - 1; j > 0; j--) {
				k = (int)rng_below(&r, (uint32_t)j + 1);
				t = deck[j];
				deck[j] = deck[k];
				deck[k] = t;
			}
			memset(count, 0, sizeof count);
			for (bad = 0, j = 0; j < 7; j++)
				if (deck[j] == 4 || ++count[deck[j]] >= 5)
					bad = 1;
		} while (bad);
		if (run(deck + 7, n - 7, order, NULL) >= 1) {
			h->dd_r[order[0]] += 1.0 / DD_SAMPLES;
			h->dd_q[order[0]] += (double)table[count[order[0]]] /
			    DD_SAMPLES;
		}
	}
	h->dd_ready = 1;
}

/* The suit of a letter, or -1. */
static int
suit_of(const json_t *j)
{
	const char *s = json_string_value(j), *p;

	if (s == NULL || s[0] == '\0' || (p = strchr("SHDC", s[0])) == NULL)
		return -1;
	return (int)(p - "SHDC");
}

/* The index of the legal entry of type (and kind and suits), or -1. */
static int
find_entry(const json_t *legal, const char *type, const char *kind,
    const int *suits, int ns)
{
	const json_t *e, *a;
	size_t i;
	int k, match;

	json_array_foreach(legal, i, e) {
		if (!json_is_string(json_object_get(e, "type")) ||
		    strcmp(json_string_value(json_object_get(e, "type")),
		    type) != 0)
			continue;
		if (kind == NULL)
			return (int)i;
		if (!json_is_string(json_object_get(e, "kind")) ||
		    strcmp(json_string_value(json_object_get(e, "kind")),
		    kind) != 0)
			continue;
		a = json_object_get(e, "suits");
		match = json_array_size(a) == (size_t)ns;
		for (k = 0; match && k < ns; k++)
			if (suit_of(json_array_get(a, (size_t)k)) != suits[k])
				match = 0;
		if (match)
			return (int)i;
	}
	return -1;
}

/*
 * Bets the whole limit on the target of best positive expected value per
 * chip, or is done.
 */
static int
choose_bet(struct bot *b, struct hbot *h, const json_t *view,
    const json_t *legal, int32_t *amount)
{
	static const char *const kinds[] = { "win", "exacta", "trifecta",
	    "daily_double" };
	const json_t *now, *e;
	struct probs pr;
	double odds[4], best = 0, ev, pw, gain;
	int suits[4], jokers, s, a, c, k, best_i = -1, idx, best_s[3];
	int kind_on[4] = { 0, 0, 0, 0 };
	double mult;
	size_t i;

	if (json_array_size(json_object_get(view, "my_bets")) > 0 ||
	    json_integer_value(json_object_get(view, "my_left")) <= 0)
		return find_entry(legal, "done", NULL, NULL, 0);
	for (s = 0; s < 4; s++) {
		suits[s] = (int)json_integer_value(json_array_get(
		    json_object_get(json_object_get(view, "stock"), "suits"),
		    (size_t)s));
		odds[s] = (double)json_integer_value(json_array_get(
		    json_object_get(view, "odds"), (size_t)s));
	}
	jokers = (int)json_integer_value(json_object_get(json_object_get(view,
	    "stock"), "jokers"));
	now = json_object_get(view, "bets_now");
	json_array_foreach(now, i, e)
		for (k = 0; k < 4; k++)
			if (strcmp(json_string_value(e), kinds[k]) == 0)
				kind_on[k] = 1;
	simulate(h, &b->rng, suits, jokers, &pr);
	mult = (double)json_integer_value(json_object_get(json_object_get(
	    view, "daily_double"), "multiplier"));
	if (kind_on[3] && !h->dd_ready)
		dd_prepare(b, h);
	/* Each candidate: probability of winning pw, gain per chip if so. */
	for (k = 0; k < 4; k++) {
		if (!kind_on[k])
			continue;
		for (a = 0; a < 4; a++)
			for (s = 0; s < 4; s++)
				for (c = 0; c < 4; c++) {
					if (k == 0 && (s > 0 || c > 0))
						continue;
					if ((k == 1 || k == 3) && c > 0)
						continue;
					if ((k == 1 && s == a) || (k == 2 &&
					    (s == a || c == a || c == s)))
						continue;
					switch (k) {
					case 0:
						pw = pr.p[a][0];
						gain = odds[a];
						ev = pw * (gain + 1) - 1;
						break;
					case 1:
						pw = pr.ex[a][s];
						gain = odds[a] * odds[s];
						ev = pw * (gain + 1) - 1;
						break;
					case 2:
						pw = pr.tri[a][s][c];
						gain = odds[a] * odds[s] * odds[c];
						ev = pw * (gain + 1) - 1;
						break;
					default:
						pw = pr.p[a][0] * h->dd_r[s];
						ev = pr.p[a][0] * odds[a] * mult *
						    h->dd_q[s] + pw - 1;
						break;
					}
					if (ev > best) {
						best = ev;
						best_i = k;
						best_s[0] = a;
						best_s[1] = s;
						best_s[2] = c;
					}
				}
	}
	if (best_i < 0)
		return find_entry(legal, "done", NULL, NULL, 0);
	idx = find_entry(legal, "bet", kinds[best_i], best_s,
	    best_i == 0 ? 1 : best_i == 2 ? 3 : 2);
	if (idx < 0)
		return find_entry(legal, "done", NULL, NULL, 0);
	*amount = (int32_t)json_integer_value(json_object_get(json_object_get(
	    json_array_get(legal, (size_t)idx), "amount"), "max"));
	return idx;
}

/* Remembers the Calcutta prices of each race once. */
static void
note_prices(struct hbot *h, const json_t *req, const json_t *view)
{
	const json_t *prices;
	size_t i;
	int race, game;

	race = (int)json_integer_value(json_object_get(view, "race"));
	game = (int)json_integer_value(json_object_get(req, "game"));
	if (race == h->seen_race && game == h->seen_game)
		return;
	h->seen_race = race;
	h->seen_game = game;
	prices = json_object_get(json_object_get(view, "last_race"), "prices");
	for (i = 0; i < json_array_size(prices); i++) {
		h->price_sum += (double)json_integer_value(json_array_get(prices,
		    i));
		h->price_n++;
	}
}

/* Bids the minimum while the ace is worth more than that, else passes. */
static int
choose_bid(struct bot *b, struct hbot *h, const json_t *req,
    const json_t *view, int32_t *amount)
{
	const json_t *auc, *legal, *stock;
	struct probs pr;
	double w, pot, fut, xmax;
	int suits[4], s, as, next, bid, left;

	legal = json_object_get(req, "legal");
	auc = json_object_get(view, "auction");
	as = suit_of(json_object_get(auc, "suit"));
	stock = json_object_get(view, "stock");
	for (s = 0; s < 4; s++)
		suits[s] = (int)json_integer_value(json_array_get(
		    json_object_get(stock, "suits"), (size_t)s));
	simulate(h, &b->rng, suits, (int)json_integer_value(
	    json_object_get(stock, "jokers")), &pr);
	w = (2 * pr.p[as][0] + pr.p[as][1]) / 3;
	pot = (double)json_integer_value(json_object_get(view, "pot"));
	left = 3 - as;
	fut = h->price_n > 0 ? left * h->price_sum / h->price_n : 0;
	xmax = w < 1 ? w * (pot + fut) / (1 - w) : 1e9;
	next = (int)json_integer_value(json_object_get(auc, "next_min"));
	bid = find_entry(legal, "bid", NULL, NULL, 0);
	if (bid >= 0 && next <= xmax) {
		*amount = next;
		return bid;
	}
	return find_entry(legal, "pass", NULL, NULL, 0);
}

/* Chooses by phase: odds, bets, or Calcutta bids. */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	struct hbot *h = b->arg;
	const json_t *view, *legal;
	const char *phase;
	int i = -1;

	/* a new game: forget the last one's races and prices */
	if (json_integer_value(json_object_get(req, "game")) != h->game) {
		h->game = json_integer_value(json_object_get(req, "game"));
		h->cache_ok = 0;
		h->price_sum = 0;
		h->price_n = 0;
		h->seen_race = -1;
	}
	view = json_object_get(req, "view");
	legal = json_object_get(req, "legal");
	phase = json_string_value(json_object_get(view, "phase"));
	if (phase != NULL && json_is_integer(json_object_get(view, "pot")))
		note_prices(h, req, view);
	if (phase == NULL)
		i = -1;
	else if (strcmp(phase, "odds") == 0) {
		i = find_entry(legal, "odds", NULL, NULL, 0);
		*amount = 1;
	} else if (strcmp(phase, "bet") == 0)
		i = choose_bet(b, h, view, legal, amount);
	else if (strcmp(phase, "auction") == 0)
		i = choose_bid(b, h, req, view, amount);
	if (i < 0)
		return bot_random_choice(b, legal, amount);
	return i;
}

int
main(int argc, char **argv)
{
	struct hbot h;

	memset(&h, 0, sizeof h);
	h.seen_race = -1;
	h.game = -1;
	return bot_main(argc, argv, "horserace_bot", choose, NULL, &h);
}
