/*
 * The speculation heuristic (speculation_heur.h).  It keeps no memory:
 * each request's view gives the cards seen this deal (the discards and the
 * highest face-up card), so every other card is equally likely to be any
 * face-down card.  From that it values a face-down card by the chance it
 * beats the highest card and then survives the face-down cards still to
 * be turned by others, times the pool; the highest card it holds by the
 * chance that none of those cards beats it.  It bids up to a share of that
 * value (never below the counters it needs for its next antes), auctions
 * every card it may with a minimum just above its value to itself (so a
 * sale always beats keeping), and otherwise turns up a card or passes.
 */
#include <string.h>

#include "game.h"
#include "speculation_heur.h"

struct model {
	int	n, me, all_cards, trump, high, holder;
	int	pool, ante, widow;
	int	counters[MAX_PLAYERS], fd[MAX_PLAYERS];
	int	seen[52];
	int	unseen;		/* cards not seen this deal */
};

static int	strength(const struct model *, int);
static void	read_view(const struct bot *, const json_t *, struct model *);
static int	stronger_unseen(const struct model *, int);
static double	card_value(const struct model *, int);
static double	high_value(const struct model *, int);
static int	threats(const struct model *, int, int);
static int	find(const json_t *, const char *, int);

/* The strength of a card (higher is stronger), -1 for a non-trump that
 * cannot win; the engine's order (speculation.md). */
static int
strength(const struct model *m, int card)
{
	int rank = CARD_RANK(card), rs = rank == 0 ? 12 : rank - 1;

	if (m->all_cards)
		return rs * 4 + (3 - CARD_SUIT(card));
	return CARD_SUIT(card) == m->trump ? rs : -1;
}

/* Reads the table from the view and the options of the handshake. */
static void
read_view(const struct bot *b, const json_t *view, struct model *m)
{
	const json_t *opts, *pl, *e;
	const char *t;
	size_t i;
	int c;

	memset(m, 0, sizeof *m);
	opts = json_object_get(b->hello, "options");
	m->all_cards = json_is_true(json_object_get(opts, "all_cards_rank"));
	m->me = b->seat;
	m->pool = (int)json_integer_value(json_object_get(view, "pool"));
	m->ante = (int)json_integer_value(json_object_get(view, "ante"));
	m->widow = (int)json_integer_value(json_object_get(view, "widow"));
	m->holder = (int)json_integer_value(json_object_get(view, "holder"));
	m->high = card_from_json(json_object_get(view, "high"));
	t = json_string_value(json_object_get(view, "trump"));
	m->trump = t != NULL && strchr("SHDC", t[0]) != NULL ?
	    (int)(strchr("SHDC", t[0]) - "SHDC") : 0;
	pl = json_object_get(view, "players");
	m->n = (int)json_array_size(pl);
	if (m->n > MAX_PLAYERS)
		m->n = MAX_PLAYERS;
	for (i = 0; i < (size_t)m->n; i++) {
		e = json_array_get(pl, i);
		m->counters[i] = (int)json_integer_value(json_object_get(e,
		    "counters"));
		m->fd[i] = (int)json_integer_value(json_object_get(e,
		    "face_down"));
	}
	json_array_foreach(json_object_get(view, "discards"), i, e)
		if ((c = card_from_json(e)) >= 0 && c < 52)
			m->seen[c] = 1;
	if (m->high >= 0 && m->high < 52)
		m->seen[m->high] = 1;
	for (c = 0; c < 52; c++)
		m->unseen += !m->seen[c];
}

/* How many unseen cards beat card. */
static int
stronger_unseen(const struct model *m, int card)
{
	int c, n = 0, s = strength(m, card);

	for (c = 0; c < 52; c++)
		if (!m->seen[c] && c != card && strength(m, c) > s)
			n++;
	return n;
}

/* The face-down cards that will be turned against the card(s) of player
 * who (excluding also `without` cards about to change hands), widow
 * included. */
static int
threats(const struct model *m, int who, int without)
{
	int p, g = m->widow - without;

	for (p = 0; p < m->n; p++)
		if (p != who)
			g += m->fd[p];
	return g > 0 ? g : 0;
}

/*
 * The value to its holder of one unseen face-down card, of whom g other
 * face-down cards are still to be turned: for each unseen card it may be
 * that beats the highest card, the chance none of the g beats it, times
 * the pool, averaged over the unseen cards.
 */
static double
card_value(const struct model *m, int g)
{
	double sum = 0, p;
	int c, k, u, b, hs = strength(m, m->high);

	u = m->unseen - 1;	/* the others, once this card is fixed */
	for (c = 0; c < 52; c++) {
		if (m->seen[c] || strength(m, c) <= hs)
			continue;
		b = stronger_unseen(m, c);
		for (p = 1.0, k = 0; k < g && k < u; k++)
			p *= (double)(u - b - k) / (double)(u - k);
		if (p > 0)
			sum += p;
	}
	return m->unseen > 0 ? sum / m->unseen * m->pool : 0;
}

/* The value of holding the highest card with g face-down cards still to
 * be turned against it. */
static double
high_value(const struct model *m, int g)
{
	double p = 1.0;
	int k, u = m->unseen, b = stronger_unseen(m, m->high);

	for (k = 0; k < g && k < u; k++)
		p *= (double)(u - b - k) / (double)(u - k);
	return p > 0 ? p * m->pool : 0;
}

/* The index of the first legal entry of type t (with position pos when
 * pos >= 0, for "sell" the single position), or -1. */
static int
find(const json_t *legal, const char *t, int pos)
{
	const json_t *e, *ps;
	size_t i;

	json_array_foreach(legal, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "type")) ?
		    json_string_value(json_object_get(e, "type")) : "", t) != 0)
			continue;
		if (pos < 0)
			return (int)i;
		ps = json_object_get(e, "positions");
		if (json_array_size(ps) == 1 &&
		    json_integer_value(json_array_get(ps, 0)) == pos)
			return (int)i;
	}
	return -1;
}

/* Chooses: bids below value, sells above it, else turns up or passes. */
int
spec_heur_choose(struct bot *b, const json_t *req, int32_t *amount)
{
	const json_t *view, *legal, *auc, *e, *r;
	struct model m;
	const char *phase;
	double value;
	int i, lo, hi, k, want, reserve, g;
	size_t j;

	view = json_object_get(req, "view");
	legal = json_object_get(req, "legal");
	read_view(b, view, &m);
	phase = json_string_value(json_object_get(view, "phase"));
	if (phase == NULL)
		phase = "";

	if (strcmp(phase, "auction") == 0) {
		auc = json_object_get(view, "auction");
		if (json_object_get(auc, "card") != NULL)
			/* Buying the highest card: my cards stay face down. */
			value = high_value(&m, threats(&m, m.me, 0));
		else {
			k = (int)json_array_size(json_object_get(auc,
			    "positions"));
			g = threats(&m, m.me, 0) - k;
			value = k * card_value(&m, g > 0 ? g : 0);
		}
		reserve = 2 * m.ante;
		want = (int)(SPEC_BID_SHARE * value);
		if (want > m.counters[m.me] - reserve)
			want = m.counters[m.me] - reserve;
		if ((i = find(legal, "bid", -1)) >= 0) {
			r = json_object_get(json_array_get(legal, (size_t)i),
			    "amount");
			lo = (int)json_integer_value(json_object_get(r, "min"));
			if (lo <= want) {
				*amount = lo;
				return i;
			}
		}
		i = find(legal, "drop", -1);
		return i >= 0 ? i : 0;
	}

	if (strcmp(phase, "trump") == 0 || strcmp(phase, "found") == 0) {
		value = high_value(&m, threats(&m, m.me, 0));
		if ((i = find(legal, "sell_up", -1)) >= 0) {
			r = json_object_get(json_array_get(legal, (size_t)i),
			    "amount");
			hi = (int)json_integer_value(json_object_get(r, "max"));
			if ((int)value + 1 <= hi) {
				*amount = (int)value + 1;
				return i;
			}
		}
		i = find(legal, "keep", -1);
		return i >= 0 ? i : 0;
	}

	/* A turn: auction each card that may be sold above its value to me. */
	if (json_array_size(json_object_get(view, "lot")) > 0 &&
	    (i = find(legal, "sell", -1)) >= 0) {
		*amount = 1;
		return i;
	}
	g = threats(&m, m.me, 0);
	value = card_value(&m, g);
	if (m.holder == m.me) {
		/* Sold, my card would be turned against my highest card. */
		double loss = (double)stronger_unseen(&m, m.high) /
		    (m.unseen > 0 ? m.unseen : 1) * high_value(&m, g);

		if (loss > value)
			value = loss;
	}
	json_array_foreach(legal, j, e) {
		if (strcmp(json_string_value(json_object_get(e, "type")) ?
		    json_string_value(json_object_get(e, "type")) : "",
		    "sell") != 0 ||
		    json_array_size(json_object_get(e, "positions")) != 1)
			continue;
		r = json_object_get(e, "amount");
		hi = (int)json_integer_value(json_object_get(r, "max"));
		if ((int)value + 1 <= hi) {
			*amount = (int)value + 1;
			return (int)j;
		}
	}
	if ((i = find(legal, "turn", -1)) >= 0)
		return i;
	if ((i = find(legal, "pass", -1)) >= 0)
		return i;
	return bot_random_choice(b, legal, amount);
}
