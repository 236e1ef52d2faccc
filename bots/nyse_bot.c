/*
 * The heuristic NYSE bot: reads its whole view on every request (it keeps
 * no memory) into a small model of the table and scores each legal entry
 * by how surely it then finishes ahead of each other player.  A colour's
 * chips are valued at the average worth of the positions its marker is
 * still likely to walk through, so it takes colours whose markers sit
 * before a rise and avoids those about to fall or crash; it speculates the
 * colours others hold into a fall or a crash; it swaps weak chips for
 * strong ones; and once far ahead, where more money barely counts, it
 * discards rather than lift a colour into a fall.  With open_holdings off
 * it spreads the chips it cannot see over the others by their totals.
 */
#include <math.h>
#include <string.h>

#include "game.h"
#include "lib/bot.h"

#define COLOURS		4
#define MARKS		4
#define CRASHED		12
#define MAXP		12
#define TAKE_SHARE	0.55	/* the share of a pile's chips taken, not discarded */
#define SPECIAL_WORTH	0.02	/* what keeping a special chip is worth */
#define GAP_SCALE	8.0	/* a money gap this size is a fair lead */
#define MONEY_WEIGHT	0.01	/* money for its own sake */

struct model {
	int	n, me;
	int	board[6];
	int	pos[COLOURS];
	int	supply[COLOURS];
	double	hold[MAXP][COLOURS];	/* chips (estimated if unseen) */
};

static const char *const colours[] = { "blue", "black", "red", "green",
    NULL };
static const char *const marks[] = { "plain", "speculate", "invest", "swap",
    NULL };

static int	worth(const struct model *, int);
static double	projected(const struct model *, int);
static double	evaluate(const struct model *);
static void	read_view(const json_t *, int, struct model *);
static void	take(struct model *, int);
static double	best_take(const struct model *, int);
static double	score(const struct model *, const json_t *);
static int	choose(struct bot *, const json_t *, int32_t *);

/* The worth of one chip with its marker at position pos (0 if crashed). */
static int
worth(const struct model *m, int pos)
{
	return pos >= CRASHED ? 0 : m->board[pos / 2];
}

/*
 * A chip of colour c at the end, projected: the mean worth over the
 * positions its marker will likely pass while its pile empties.
 */
static double
projected(const struct model *m, int c)
{
	double sum = 0;
	int k, j;

	if (m->pos[c] >= CRASHED)
		return 0;
	k = (int)(m->supply[c] * TAKE_SHARE + 0.5);
	for (j = 0; j <= k; j++)
		sum += worth(m, m->pos[c] + j);
	return sum / (k + 1);
}

/*
 * How well I stand: for each other player, how surely I finish ahead of
 * them (a soft step of the money gap), plus a little money; in solitaire,
 * the money.  Far ahead, more money barely counts, so moves that lift the
 * others' colours lose to discards that bring the end closer.
 */
static double
evaluate(const struct model *m)
{
	double money[MAXP] = { 0 }, v[COLOURS], e = 0;
	int c, p;

	for (c = 0; c < COLOURS; c++)
		v[c] = projected(m, c);
	for (p = 0; p < m->n; p++) {
		money[p] = 0;
		for (c = 0; c < COLOURS; c++)
			money[p] += m->hold[p][c] * v[c];
	}
	if (m->n == 1)
		return money[m->me];
	for (p = 0; p < m->n; p++)
		if (p != m->me)
			e += tanh((money[m->me] - money[p]) / GAP_SCALE);
	return e + MONEY_WEIGHT * money[m->me];
}

/* Builds the model from a view; unseen colours are spread by totals. */
static void
read_view(const json_t *view, int me, struct model *m)
{
	const json_t *h, *col;
	double pool[COLOURS], sum = 0;
	int c, k, p, chips;

	memset(m, 0, sizeof *m);
	m->n = (int)json_array_size(json_object_get(view, "holdings"));
	if (m->n > MAXP)
		m->n = MAXP;
	m->me = me;
	for (k = 0; k < 6; k++)
		m->board[k] = (int)json_integer_value(json_array_get(
		    json_object_get(view, "board"), (size_t)k));
	for (c = 0; c < COLOURS; c++) {
		h = json_object_get(json_object_get(view, "markers"),
		    colours[c]);
		if (json_is_true(json_object_get(h, "crashed")))
			m->pos[c] = CRASHED;
		else
			m->pos[c] = json_string_value(json_object_get(h,
			    "position"))[0] - 'A';
		m->supply[c] = (int)json_integer_value(json_object_get(
		    json_object_get(view, "supply"), colours[c]));
		/* The chips of c some player holds. */
		pool[c] = 11 - 1 - m->supply[c] - (int)json_integer_value(
		    json_object_get(json_object_get(view, "discarded"),
		    colours[c]));
		for (k = 1; k < MARKS; k++)
			pool[c] -= (int)json_integer_value(json_object_get(
			    json_object_get(json_object_get(view, "used"),
			    colours[c]), marks[k]));
	}
	for (p = 0; p < m->n; p++) {
		h = json_array_get(json_object_get(view, "holdings"), (size_t)p);
		if ((col = json_object_get(h, "colours")) == NULL)
			continue;
		for (c = 0; c < COLOURS; c++) {
			m->hold[p][c] = (double)json_integer_value(
			    json_object_get(col, colours[c]));
			pool[c] -= m->hold[p][c];
		}
	}
	for (c = 0; c < COLOURS; c++) {
		if (pool[c] < 0)
			pool[c] = 0;
		sum += pool[c];
	}
	for (p = 0; p < m->n && sum > 0; p++) {
		h = json_array_get(json_object_get(view, "holdings"), (size_t)p);
		if (json_object_get(h, "colours") != NULL)
			continue;
		chips = (int)json_integer_value(json_object_get(h, "chips"));
		for (c = 0; c < COLOURS; c++)
			m->hold[p][c] = chips * pool[c] / sum;
	}
}

/* I take a chip of colour c. */
static void
take(struct model *m, int c)
{
	m->hold[m->me][c] += 1;
	m->supply[c]--;
	if (m->pos[c] < CRASHED)
		m->pos[c]++;
}

/* The value after my best take from a non-empty pile (takes left: k). */
static double
best_take(const struct model *m, int k)
{
	struct model t;
	double best = -1e9, v;
	int c;

	for (c = 0; c < COLOURS; c++) {
		if (m->supply[c] == 0)
			continue;
		t = *m;
		take(&t, c);
		v = k > 1 && t.supply[0] + t.supply[1] + t.supply[2] +
		    t.supply[3] > 0 ? best_take(&t, k - 1) : evaluate(&t);
		if (v > best)
			best = v;
	}
	return best > -1e9 ? best : evaluate(m);
}

/* The projected value of the position after the legal entry e. */
static double
score(const struct model *m0, const json_t *e)
{
	static const double keep[MARKS] = { 0, 0.03, 0.02, 0.01 };
	struct model m = *m0;
	const char *a;
	int c, mk, gc, gm, t;

	a = json_string_value(json_object_get(e, "type"));
	if (a == NULL)
		return -1e9;
	if (strcmp(a, "take") == 0) {
		take(&m, word_index(colours, json_object_get(e, "colour")));
		return evaluate(&m);
	}
	if (strcmp(a, "discard") == 0) {
		m.supply[word_index(colours, json_object_get(e, "colour"))]--;
		return evaluate(&m);
	}
	if (strcmp(a, "give") == 0) {
		/* The same money whatever I give: keep the useful specials. */
		mk = word_index(marks, json_object_get(e, "mark"));
		return mk >= 0 ? -keep[mk] : 0;
	}
	if (strcmp(a, "none") == 0)
		return 0;
	c = word_index(colours, json_object_get(e, "chip"));
	if (c < 0)
		return -1e9;
	m.hold[m.me][c] -= 1;
	if (strcmp(a, "speculate") == 0) {
		t = word_index(colours, json_object_get(e, "marker"));
		m.pos[t] = m.pos[t] + 2 > CRASHED ? CRASHED : m.pos[t] + 2;
		return evaluate(&m) - SPECIAL_WORTH;
	}
	if (strcmp(a, "invest") == 0)
		return best_take(&m, 2) - SPECIAL_WORTH;
	if (strcmp(a, "swap") == 0) {
		gc = word_index(colours, json_object_get(e, "give_colour"));
		gm = word_index(marks, json_object_get(e, "give_mark"));
		m.hold[m.me][gc] -= 1;
		if (json_object_get(e, "pile") != NULL) {
			t = word_index(colours, json_object_get(e, "pile"));
			m.hold[m.me][t] += 1;
			m.supply[gc]++;
			m.supply[t]--;
		} else {
			t = (int)json_integer_value(json_object_get(e,
			    "target"));
			c = word_index(colours, json_object_get(e, "colour"));
			if (t >= 0 && t < m.n) {
				m.hold[t][gc] += 1;
				m.hold[t][c] -= 1;
			}
			m.hold[m.me][c] += 1;
		}
		return evaluate(&m) - SPECIAL_WORTH -
		    (gm > 0 ? SPECIAL_WORTH : 0);
	}
	return -1e9;
}

/* Picks the entry with the best projected lead (first on ties). */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	const json_t *legal, *e;
	struct model m;
	double best = -1e18, v;
	size_t i;
	int pick = 0;

	legal = json_object_get(req, "legal");
	read_view(json_object_get(req, "view"), b->seat, &m);
	json_array_foreach(legal, i, e) {
		v = score(&m, e) + 1e-6 * (double)rng_below(&b->rng, 1000);
		if (v > best) {
			best = v;
			pick = (int)i;
		}
	}
	*amount = 0;
	return pick;
}

int
main(int argc, char **argv)
{
	return bot_main(argc, argv, "nyse_bot", choose, NULL, NULL);
}
