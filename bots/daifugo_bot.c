/*
 * The heuristic daifugo bot: reads its whole view on every request (it
 * keeps no memory) and scores each legal entry.  It sheds its weakest
 * combinations first, prefers plays that keep its sets and sequences
 * whole, keeps jokers and the strongest rank of the order in force (the
 * 2s, or the 3s in a revolution) for taking the lead near the end, plays a
 * revolution when its hand is weak in the order in force, follows cheaply
 * or passes, and spends its control cards when a rival is about to go out
 * or when taking the lead lets it go out.  In the exchange the rich give
 * their weakest loose cards.  Simple, but far stronger than random.
 */
#include <string.h>

#include "lib/bot.h"

#define NR		13	/* ranks, by strength in the normal order */
#define MAXP		12

static const char ranks[] = "3456789TJQKA2";
static const char suits[] = "SHDC";

/* A hand or a play: naturals per rank and suit, and jokers. */
struct cards {
	int	cnt[NR];
	int	suit[NR];	/* bit u: suit u present */
	int	jokers, n;
};

/* What the bot knows when it chooses. */
struct model {
	struct cards	hand;
	int		reversed, leading, players, me, eight_cut;
	int		rival_min;	/* fewest cards a rival still holds */
};

static int	parse_cards(const json_t *, struct cards *);
static int	power(const struct model *, int);
static int	one_combination(const struct cards *);
static int	weak_hand(const struct model *, const struct cards *, int);
static double	score_play(const struct model *, const json_t *);
static double	score_gift(const struct model *, const json_t *);
static void	read_view(const json_t *, const json_t *, struct model *);
static int	choose(struct bot *, const json_t *, int32_t *);

/* Reads a card list into c; returns -1 on a name it does not know. */
static int
parse_cards(const json_t *a, struct cards *c)
{
	const json_t *e;
	const char *s, *r, *u;
	size_t i;

	memset(c, 0, sizeof *c);
	json_array_foreach(a, i, e) {
		if ((s = json_string_value(e)) == NULL || strlen(s) != 2)
			return -1;
		c->n++;
		if (strcmp(s, "JK") == 0) {
			c->jokers++;
			continue;
		}
		if ((r = strchr(ranks, s[0])) == NULL ||
		    (u = strchr(suits, s[1])) == NULL)
			return -1;
		c->cnt[r - ranks]++;
		c->suit[r - ranks] |= 1 << (u - suits);
	}
	return 0;
}

/* The strength of rank index s in the order in force, 0 (weakest) to 12. */
static int
power(const struct model *m, int s)
{
	return m->reversed ? NR - 1 - s : s;
}

/*
 * Whether the cards can all go in one play: a single, a set (jokers
 * filling in) or a one-suit run of 3-5 with jokers filling its gaps.
 */
static int
one_combination(const struct cards *c)
{
	int s, lo = -1, hi = -1, nat = 0, suit = 0, ranks_held = 0;

	if (c->n <= 1)
		return 1;
	if (c->n > 5)
		return 0;
	for (s = 0; s < NR; s++) {
		if (c->cnt[s] == 0)
			continue;
		ranks_held++;
		nat += c->cnt[s];
		suit |= c->suit[s];
		if (lo < 0)
			lo = s;
		hi = s;
	}
	if (ranks_held <= 1)
		return 1;
	/* A sequence: one card a rank, one suit, gaps covered by jokers. */
	if (nat != ranks_held || (suit & (suit - 1)) != 0 || c->n < 3)
		return 0;
	return hi - lo + 1 - nat <= c->jokers;
}

/* Whether the hand (less a play) is weak in the order in force, or flipped. */
static int
weak_hand(const struct model *m, const struct cards *rest, int flipped)
{
	int s, sum = 0, n = 0, p;

	for (s = 0; s < NR; s++) {
		p = power(m, s);
		if (flipped)
			p = NR - 1 - p;
		sum += p * rest->cnt[s];
		n += rest->cnt[s];
	}
	return n > 0 && sum * 2 < n * (NR - 1);
}

/*
 * Scores a play (higher is better; pass scores 0): going out first, then
 * many cards of weak rank, whole groups kept, control cards kept.
 */
static double
score_play(const struct model *m, const json_t *e)
{
	struct cards p, rest;
	const char *kind, *rank;
	double sc = 0;
	int s, r, control, endgame, joker_alone;

	kind = json_string_value(json_object_get(e, "kind"));
	if (kind == NULL)			/* pass */
		return m->leading ? -1e9 : 0;
	if (parse_cards(json_object_get(e, "cards"), &p) == -1)
		return -1e9;
	rest = m->hand;
	for (s = 0; s < NR; s++) {
		rest.cnt[s] -= p.cnt[s];
		rest.suit[s] &= ~p.suit[s];
	}
	rest.jokers -= p.jokers;
	rest.n -= p.n;
	if (rest.n == 0)
		return 1e6;			/* going out */
	rank = json_string_value(json_object_get(e, "rank"));
	r = rank != NULL && strchr(ranks, rank[0]) != NULL ?
	    (int)(strchr(ranks, rank[0]) - ranks) : -1;
	joker_alone = strcmp(kind, "joker") == 0 ||
	    strcmp(kind, "joker_pair") == 0;
	endgame = m->rival_min <= 2 || m->hand.n <= 4;
	/* Taking the lead with control, then going out in one play. */
	control = joker_alone || (r >= 0 && power(m, r) >= NR - 2) ||
	    (m->eight_cut && r == 5);	/* an 8 cuts */
	if (control && one_combination(&rest))
		return 5e5;
	sc += 10 + 3.0 * p.n;
	if (r >= 0)
		sc -= 2.0 * power(m, r);
	else
		sc -= 30;			/* jokers alone: the last resort */
	/* Keep jokers and the strongest ranks for control. */
	if (!endgame) {
		sc -= 14.0 * p.jokers;
		for (s = 0; s < NR; s++)
			if (power(m, s) >= NR - 1)
				sc -= 8.0 * p.cnt[s];
	}
	/* Keep groups whole: cards of a touched rank left behind. */
	for (s = 0; s < NR; s++)
		if (p.cnt[s] > 0 && rest.cnt[s] > 0)
			sc -= 4.0 * rest.cnt[s];
	/* A revolution is good for a weak hand, bad for a strong one. */
	if (strcmp(kind, "set") == 0 && p.n >= 4)
		sc += weak_hand(m, &rest, 0) ? 25 : -60;
	if (m->leading)
		sc += 20;			/* a lead must be made anyway */
	else if (endgame)
		sc += 15;			/* no more cheap passes */
	return sc;
}

/* Scores a gift in the exchange: give weak, loose cards; never jokers. */
static double
score_gift(const struct model *m, const json_t *e)
{
	struct cards g;
	double sc = 0;
	int s;

	if (parse_cards(json_object_get(e, "cards"), &g) == -1)
		return -1e9;
	sc -= 50.0 * g.jokers;
	for (s = 0; s < NR; s++) {
		if (g.cnt[s] == 0)
			continue;
		sc -= 3.0 * s * g.cnt[s];
		/* Breaking a pair or more costs; a loose card is free. */
		if (m->hand.cnt[s] > g.cnt[s])
			sc -= 6.0 * (m->hand.cnt[s] - g.cnt[s]);
	}
	return sc;
}

/* Reads the hand, the order and the rivals' hand sizes from the view. */
static void
read_view(const json_t *hello, const json_t *v, struct model *m)
{
	const json_t *sizes, *fin, *e;
	size_t i;
	int out[MAXP] = { 0 }, n;

	memset(m, 0, sizeof *m);
	m->eight_cut = !json_is_false(json_object_get(json_object_get(hello,
	    "options"), "eight_cut"));
	parse_cards(json_object_get(v, "hand"), &m->hand);
	m->me = (int)json_integer_value(json_object_get(v, "seat"));
	m->reversed = strcmp(json_string_value(json_object_get(v, "order")) ?
	    json_string_value(json_object_get(v, "order")) : "", "reversed") ==
	    0;
	m->leading = json_is_null(json_object_get(v, "table"));
	fin = json_object_get(v, "finished");
	json_array_foreach(fin, i, e)
		if (json_integer_value(e) >= 0 && json_integer_value(e) < MAXP)
			out[json_integer_value(e)] = 1;
	sizes = json_object_get(v, "hand_sizes");
	m->players = (int)json_array_size(sizes);
	m->rival_min = 99;
	json_array_foreach(sizes, i, e) {
		n = (int)json_integer_value(e);
		if ((int)i != m->me && i < MAXP && !out[i] && n < m->rival_min)
			m->rival_min = n;
	}
}

/* Picks the best-scoring legal entry (ties: the first). */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	const json_t *legal, *v, *e;
	struct model m;
	const char *act;
	double best = -1e18, sc;
	size_t i;
	int pick = 0;

	v = json_object_get(req, "view");
	legal = json_object_get(req, "legal");
	read_view(b->hello, v, &m);
	json_array_foreach(legal, i, e) {
		act = json_string_value(json_object_get(e, "type"));
		if (act == NULL)
			continue;
		if (strcmp(act, "give") == 0)
			sc = score_gift(&m, e);
		else
			sc = score_play(&m, e);
		if (sc > best) {
			best = sc;
			pick = (int)i;
		}
	}
	return pick;
}

int
main(int argc, char **argv)
{
	return bot_main(argc, argv, "daifugo_bot", choose, NULL, NULL);
}
