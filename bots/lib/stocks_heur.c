/*
 * The stocks heuristic (stocks_heur.h): a model of the table, read from a
 * view, and the planner of the rest of the turn (which certificates to
 * sell, up to two cards to buy, up to two price cards and their meanings,
 * in either phase order), which tries every combination and scores the
 * position each leaves: the bot's money and certificates at a
 * risk-adjusted share value, less the others' certificates at that value
 * (so lowering or bankrupting a company the others hold counts as a gain),
 * plus what the cards kept in hand promise for the next turn.  A share's
 * value is its price moved by the pressure of the other players: those who
 * hold more of the company than the bot push it up, those who hold less
 * push it down, and a price within a face card's reach of $0, or a face card
 * on top that any low card may cover, is a crash waiting to happen.  So it
 * buys companies it can push up with the cards in its hand (buying before
 * it raises), sells what it or the others can crash, and plays face cards
 * as $0 against companies the others hold.  With nothing worth doing it
 * discards the cards that promise nothing.  It answers with the first
 * action of the best plan; the next request re-plans from there.
 */
#include <string.h>

#include "stocks_heur.h"

#define MAXSHARES	12
#define OPP_PLAY	0.35	/* how likely an opponent moves a price it cares about */
#define HAND_WEIGHT	0.4	/* what a kept card's promise is worth now */
#define SELL_MARGIN	0.5	/* sell when the price beats the value by this */
#define JUNK		0.5	/* a card promising less than this is junk */

/* The table after the price phase of a plan. */
struct table {
	int	price[STK_NCOMP], face_top[STK_NCOMP], bankrupt[STK_NCOMP];
};

static const char suits[] = "SHDC";
static const char ranks[] = "A23456789TJQK";

static int	card_of(const json_t *);
static int	phase_of(const json_t *);
static void	read_view(struct bot *, const json_t *, struct stk_model *);
static int	place_ok(const struct table *, const struct stk_model *, int,
		    int);
static void	place(struct table *, int, int);
static double	share_value(const struct stk_model *, const struct table *,
		    const int *, int);
static double	promise(const struct stk_model *, const struct table *,
		    const int *, int);
static double	evaluate(const struct stk_model *, struct stk_plan *);
static void	try_buys(const struct stk_model *, struct stk_plan *,
		    struct stk_plan *);
static void	try_places(const struct stk_model *, struct stk_plan *,
		    struct stk_plan *);
static int	find_entry(const json_t *, const char *, int, int);
static int	worst_discard(const struct stk_model *);
static int	first_step(const struct stk_model *, const struct stk_plan *,
		    const json_t *);

/* Returns the card number of a JSON card name, or -1. */
static int
card_of(const json_t *j)
{
	const char *s, *r, *u;

	if ((s = json_string_value(j)) == NULL || strlen(s) != 2 ||
	    (r = strchr(ranks, s[0])) == NULL || (u = strchr(suits, s[1])) ==
	    NULL)
		return -1;
	return (int)(u - suits) * 13 + (int)(r - ranks);
}

/* The company (suit index) of a card. */
int
stk_suit(int c)
{
	return c / 13;
}

/* 1 for J, Q, K. */
int
stk_is_face(int c)
{
	return c % 13 >= 10;
}

/* The shares a certificate is worth. */
int
stk_shares(int c)
{
	return stk_is_face(c) ? 5 : c % 13 + 1;
}

/* Reads "unused", "open" or "closed". */
static int
phase_of(const json_t *j)
{
	const char *s = json_string_value(j);

	if (s == NULL || strcmp(s, "unused") == 0)
		return STK_UNUSED;
	return strcmp(s, "open") == 0 ? STK_OPEN : STK_CLOSED;
}

/* Fills the model from the view (and the hello's sell_same_turn). */
static void
read_view(struct bot *b, const json_t *v, struct stk_model *m)
{
	const json_t *comp, *seat, *ph, *e, *opts;
	int s, c, sell_same, bought[52];
	size_t i;

	memset(m, 0, sizeof *m);
	m->n = (int)json_integer_value(json_object_get(v, "players"));
	if (m->n > STK_MAXP)
		m->n = STK_MAXP;
	m->me = b->seat;
	opts = json_object_get(b->hello, "options");
	sell_same = json_is_true(json_object_get(opts, "sell_same_turn"));
	json_array_foreach(json_object_get(v, "companies"), i, comp) {
		if (i >= STK_NCOMP)
			break;
		m->price[i] = (int)json_integer_value(json_object_get(comp,
		    "price"));
		m->face_top[i] = json_is_true(json_object_get(comp,
		    "face_on_top"));
		m->bankrupt[i] = json_is_true(json_object_get(comp,
		    "bankrupt"));
		m->up[i] = (int)json_integer_value(json_object_get(comp, "up"));
		m->down[i] = (int)json_integer_value(json_object_get(comp,
		    "down"));
	}
	json_array_foreach(json_object_get(v, "seats"), i, seat) {
		if ((int)i >= m->n)
			break;
		for (s = 0; s < STK_NCOMP; s++) {
			char key[2] = { suits[s], '\0' };

			m->shares[i][s] = (int)json_integer_value(
			    json_object_get(json_object_get(seat, "shares"),
			    key));
		}
	}
	seat = json_array_get(json_object_get(v, "seats"), (size_t)m->me);
	m->money = (int)json_integer_value(json_object_get(seat, "money"));
	memset(bought, 0, sizeof bought);
	if (!sell_same)
		json_array_foreach(json_object_get(v, "bought"), i, e)
			if ((c = card_of(e)) >= 0)
				bought[c]++;
	json_array_foreach(json_object_get(seat, "certificates"), i, e) {
		if ((c = card_of(e)) < 0)
			continue;
		if (bought[c] > 0) {
			bought[c]--;
			continue;
		}
		m->sellable_cards[c]++;
		m->sellable[stk_suit(c)] += stk_shares(c);
	}
	json_array_foreach(json_object_get(v, "hand"), i, e)
		if ((c = card_of(e)) >= 0 && m->nhand < STK_MAXHAND)
			m->hand[m->nhand++] = c;
	ph = json_object_get(v, "phase");
	m->trade = phase_of(json_object_get(ph, "trade"));
	m->pricing = phase_of(json_object_get(ph, "price"));
	m->buys = (int)json_integer_value(json_object_get(ph, "buys"));
	m->prices = (int)json_integer_value(json_object_get(ph, "prices"));
	m->discards = (int)json_integer_value(json_object_get(ph, "discards"));
	m->jokers_in = json_is_true(json_object_get(v, "jokers_in_stock"));
}

/* 1 if card may go on its stack in t as value (the game's limits). */
static int
place_ok(const struct table *t, const struct stk_model *m, int card,
    int value)
{
	int s = stk_suit(card), d;

	if (t->face_top[s])
		return !stk_is_face(card);
	d = value - t->price[s];
	return d <= m->up[s] && -d <= m->down[s];
}

/* Places card meaning value on its stack in t. */
static void
place(struct table *t, int card, int value)
{
	int s = stk_suit(card);

	t->price[s] = value;
	t->face_top[s] = stk_is_face(card);
	t->bankrupt[s] = stk_is_face(card) && value == 0;
}

/*
 * The value of one share of company s at the table t when the bot holds
 * mine shares: the price moved by the other players' expected pressure.
 */
static double
share_value(const struct stk_model *m, const struct table *t,
    const int *mine, int s)
{
	double v, drift = 0, w;
	int p, h, P, rise, fall;

	if (t->bankrupt[s])
		return 0;
	P = t->price[s];
	w = m->jokers_in ? 0.5 : 1.0;
	for (p = 0; p < m->n; p++) {
		if (p == m->me)
			continue;
		h = m->shares[p][s];
		if (h > mine[s]) {
			/* Pushes it up, unless a face card blocks it. */
			rise = t->face_top[s] ? 0 : (P + m->up[s] > 13 ? 13 - P :
			    m->up[s]);
			drift += OPP_PLAY * 0.6 * rise;
		} else if (h < mine[s]) {
			if (t->face_top[s])
				fall = P - 1;		/* any A-10 covers it */
			else if (P <= m->down[s])
				fall = P;		/* a face card as $0 */
			else
				fall = m->down[s];
			drift -= OPP_PLAY * 0.8 * fall;
		}
	}
	v = P + w * drift;
	return v < 0 ? 0 : v;
}

/*
 * What the cards left in hand promise for the bot's next turn at t: for
 * each company, the best single card's gain relative to the others.
 */
static double
promise(const struct stk_model *m, const struct table *t, const int *mine,
    int used)
{
	double best[STK_NCOMP], g, others;
	int i, s, c, p, v, k;

	memset(best, 0, sizeof best);
	for (i = 0; i < m->nhand; i++) {
		if (used & (1 << i))
			continue;
		c = m->hand[i];
		s = stk_suit(c);
		if (t->bankrupt[s] && stk_is_face(c))
			continue;
		for (others = 0, p = 0; p < m->n; p++)
			if (p != m->me)
				others += m->shares[p][s];
		others /= m->n - 1;
		for (k = 0; k < (stk_is_face(c) ? 2 : 1); k++) {
			v = k ? 0 : c % 13 + 1;
			if (!place_ok(t, m, c, v))
				continue;
			g = (mine[s] - others) * (v - t->price[s]);
			if (g > best[s])
				best[s] = g;
		}
		/* A cheap card of a company it may push up is worth buying. */
		if (!t->bankrupt[s] && !stk_is_face(c) && t->price[s] <= 6)
			if (best[s] < 0.2 * stk_shares(c))
				best[s] = 0.2 * stk_shares(c);
	}
	for (g = 0, s = 0; s < STK_NCOMP; s++)
		g += best[s];
	return HAND_WEIGHT * g;
}

/*
 * Scores a plan (and decides its sells): money and shares at their value
 * after the plan, less the others' shares at that value, plus the hand's
 * promise.  Returns -1e9 for a plan that cannot be carried out.
 */
static double
evaluate(const struct stk_model *m, struct stk_plan *pl)
{
	struct table t0, t;
	int mine[STK_NCOMP], hold[STK_NCOMP], money, s, i, k, p, used = 0, c, cost;
	int sold[STK_NCOMP];
	double score, others, v, sp;

	/* Each card bought or placed must be a distinct card of the hand. */
	for (k = 0; k < pl->nbuy + pl->nplace; k++) {
		c = k < pl->nbuy ? pl->buy[k] : pl->place[k - pl->nbuy].card;
		for (i = 0; i < m->nhand; i++)
			if (m->hand[i] == c && !(used & (1 << i)))
				break;
		if (i == m->nhand)
			return -1e9;
		used |= 1 << i;
	}
	memcpy(t0.price, m->price, sizeof t0.price);
	memcpy(t0.face_top, m->face_top, sizeof t0.face_top);
	memcpy(t0.bankrupt, m->bankrupt, sizeof t0.bankrupt);
	t = t0;
	for (k = 0; k < pl->nplace; k++) {
		if (!place_ok(&t, m, pl->place[k].card, pl->place[k].value))
			return -1e9;
		place(&t, pl->place[k].card, pl->place[k].value);
	}
	/* Buys at the prices of the moment they are made. */
	memcpy(mine, m->shares[m->me], sizeof mine);
	for (s = 0; s < STK_NCOMP; s++)
		hold[s] = mine[s];
	for (k = 0; k < pl->nbuy; k++) {
		c = pl->buy[k];
		s = stk_suit(c);
		if ((pl->price_first ? t.bankrupt[s] : t0.bankrupt[s]))
			return -1e9;
		mine[s] += stk_shares(c);
	}
	/* Sells: whatever is worth more sold than held. */
	money = m->money;
	for (s = 0; s < STK_NCOMP; s++) {
		sold[s] = 0;
		pl->sell[s] = 0;
		if (m->sellable[s] == 0 || m->trade == STK_CLOSED)
			continue;
		sp = pl->price_first ? t.price[s] : t0.price[s];
		if (pl->price_first && t.bankrupt[s])
			continue;
		v = share_value(m, &t, mine, s);
		if (sp > v + SELL_MARGIN) {
			pl->sell[s] = 1;
			sold[s] = m->sellable[s];
			money += m->sellable[s] * (int)sp;
		}
	}
	for (k = 0; k < pl->nbuy; k++) {
		c = pl->buy[k];
		s = stk_suit(c);
		cost = stk_shares(c) * (pl->price_first ? t.price[s] :
		    t0.price[s]);
		if (cost > money)
			return -1e9;
		money -= cost;
		hold[s] += stk_shares(c);
		if (hold[s] - sold[s] > MAXSHARES)
			return -1e9;
	}
	for (s = 0; s < STK_NCOMP; s++) {
		mine[s] -= sold[s];
		if (t.bankrupt[s] && !m->bankrupt[s])
			mine[s] = 0;
	}
	score = money;
	for (s = 0; s < STK_NCOMP; s++) {
		v = share_value(m, &t, mine, s);
		for (others = 0, p = 0; p < m->n; p++)
			if (p != m->me)
				others += t.bankrupt[s] ? 0 : m->shares[p][s];
		score += (mine[s] - others / (m->n - 1)) * v;
	}
	score += promise(m, &t, mine, used);
	pl->score = score;
	return score;
}

/* Tries every set of buys on top of plan cur; keeps the best in best. */
static void
try_buys(const struct stk_model *m, struct stk_plan *cur,
    struct stk_plan *best)
{
	int i, j, left;

	left = m->trade == STK_CLOSED ? 0 : 2 - m->buys;
	cur->nbuy = 0;
	if (evaluate(m, cur) > best->score)
		*best = *cur;
	for (i = 0; i < m->nhand && left >= 1; i++) {
		if (i > 0 && m->hand[i] == m->hand[i - 1])
			continue;
		cur->nbuy = 1;
		cur->buy[0] = m->hand[i];
		if (evaluate(m, cur) > best->score)
			*best = *cur;
		for (j = i + 1; j < m->nhand && left >= 2; j++) {
			if (j > i + 1 && m->hand[j] == m->hand[j - 1])
				continue;
			cur->nbuy = 2;
			cur->buy[1] = m->hand[j];
			if (evaluate(m, cur) > best->score)
				*best = *cur;
		}
	}
	cur->nbuy = 0;
}

/*
 * Tries every sequence of price cards (and, for each, every set of buys)
 * not using the cards bought; keeps the best plan.
 */
static void
try_places(const struct stk_model *m, struct stk_plan *cur,
    struct stk_plan *best)
{
	int i, j, a, b, left, vi[2], vj[2], ni, nj;

	left = m->pricing == STK_CLOSED ? 0 : 2 - m->prices;
	cur->nplace = 0;
	try_buys(m, cur, best);
	for (i = 0; i < m->nhand && left >= 1; i++) {
		ni = 0;
		vi[ni++] = m->hand[i] % 13 + 1;
		if (stk_is_face(m->hand[i]))
			vi[ni++] = 0;
		for (a = 0; a < ni; a++) {
			cur->nplace = 1;
			cur->place[0] = (struct stk_placing){ m->hand[i], vi[a] };
			try_buys(m, cur, best);
			for (j = 0; j < m->nhand && left >= 2; j++) {
				if (j == i)
					continue;
				nj = 0;
				vj[nj++] = m->hand[j] % 13 + 1;
				if (stk_is_face(m->hand[j]))
					vj[nj++] = 0;
				for (b = 0; b < nj; b++) {
					cur->nplace = 2;
					cur->place[1] = (struct stk_placing){
					    m->hand[j], vj[b] };
					try_buys(m, cur, best);
				}
			}
		}
	}
	cur->nplace = 0;
}

/* Returns the index of the legal entry of type (card, value), or -1. */
static int
find_entry(const json_t *legal, const char *type, int card, int value)
{
	const json_t *e, *jv;
	const char *t;
	size_t i;

	json_array_foreach(legal, i, e) {
		t = json_string_value(json_object_get(e, "type"));
		if (t == NULL || strcmp(t, type) != 0)
			continue;
		if (card >= 0 && card_of(json_object_get(e, "card")) != card)
			continue;
		jv = json_object_get(e, "value");
		if (value >= 0 && jv != NULL && json_integer_value(jv) != value)
			continue;
		return (int)i;
	}
	return -1;
}

/*
 * The index of the plan's first action in the legal list: in the trade
 * phase sells come first, then buys; the end when nothing is left.
 */
static int
first_step(const struct stk_model *m, const struct stk_plan *pl,
    const json_t *legal)
{
	int s, c, k, idx, trade_first;

	trade_first = !pl->price_first;
	for (k = 0; k < 2; k++, trade_first = !trade_first) {
		if (trade_first) {
			for (s = 0; s < STK_NCOMP; s++) {
				if (!pl->sell[s])
					continue;
				for (c = s * 13; c < s * 13 + 13; c++)
					if (m->sellable_cards[c] > 0 &&
					    (idx = find_entry(legal, "sell", c,
					    -1)) >= 0)
						return idx;
			}
			if (pl->nbuy > 0 &&
			    (idx = find_entry(legal, "buy", pl->buy[0], -1)) >= 0)
				return idx;
		} else if (pl->nplace > 0 && (idx = find_entry(legal, "price",
		    pl->place[0].card, pl->place[0].value)) >= 0)
			return idx;
	}
	return find_entry(legal, "end", -1, -1);
}

/* The hand's card that promises least, the lowest of the junk, or -1. */
static int
worst_discard(const struct stk_model *m)
{
	struct table t;
	double u;
	int i, k, worst = -1, single;

	memcpy(t.price, m->price, sizeof t.price);
	memcpy(t.face_top, m->face_top, sizeof t.face_top);
	memcpy(t.bankrupt, m->bankrupt, sizeof t.bankrupt);
	for (i = 0; i < m->nhand; i++) {
		single = 0;
		for (k = 0; k < m->nhand; k++)
			if (k != i)
				single |= 1 << k;
		u = promise(m, &t, m->shares[m->me], single);
		if (u < JUNK && (worst < 0 || m->hand[i] % 13 <
		    m->hand[worst] % 13))
			worst = i;
	}
	return worst;
}

/*
 * Plans the rest of the turn: the best plan when it beats doing nothing or
 * the turn is under way, else a card that promises nothing to discard.
 */
int
stk_decide(const struct stk_model *m, struct stk_plan *best, int *discard)
{
	struct stk_plan cur, noop;

	*discard = -1;
	memset(best, 0, sizeof *best);
	best->score = -1e18;
	if (m->discards == 0) {
		memset(&cur, 0, sizeof cur);
		if (m->pricing != STK_OPEN) {	/* trade, then price */
			cur.price_first = 0;
			try_places(m, &cur, best);
		}
		if (m->trade != STK_OPEN) {	/* price, then trade */
			cur.price_first = 1;
			try_places(m, &cur, best);
		}
		memset(&noop, 0, sizeof noop);
		evaluate(m, &noop);
		if (best->score > noop.score + 0.5 || m->trade != STK_UNUSED ||
		    m->pricing != STK_UNUSED)
			return 1;
	}
	if (m->discards < 4)
		*discard = worst_discard(m);
	return 0;
}

/* Plans the rest of the turn and answers its first step. */
int
stk_choose(struct bot *b, const json_t *req, int32_t *amount)
{
	const json_t *legal = json_object_get(req, "legal");
	struct stk_model m;
	struct stk_plan best;
	int idx, worst;

	read_view(b, json_object_get(req, "view"), &m);
	if (stk_decide(&m, &best, &worst)) {
		idx = first_step(&m, &best, legal);
		if (idx >= 0)
			return idx;
		return bot_random_choice(b, legal, amount);
	}
	/* Nothing worth doing: discard the cards that promise nothing. */
	if (worst >= 0 && (idx = find_entry(legal, "discard", m.hand[worst],
	    -1)) >= 0)
		return idx;
	idx = find_entry(legal, "end", -1, -1);
	return idx >= 0 ? idx : bot_random_choice(b, legal, amount);
}
