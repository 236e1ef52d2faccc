/*
 * The determinization tests (struct game.determinize): random legal play
 * in every game with random options, and at random positions a random
 * seat's view is read back into a full state.  That state must give the
 * seat the same view, byte for byte, and the same legal list, pass check(),
 * and play on to the end by random moves with check() holding.  Then, at a
 * few positions per game, chi-square tests compare the distribution of
 * hidden quantities (a card of another hand, the stock's top...) in many
 * determinizations with their distribution when the true state is
 * re-dealt by perturb(), which is uniform among the completions (for
 * daifugo, perturb() followed by rejection of the completions the
 * exchange rules out, see daifugo_ok(); its positions are taken in the
 * play, after an exchange with a partner that gave its strongest cards,
 * where that matters).  Prints TAP.
 *
 * Usage: t_determinize [-g GAME] [-n POSITIONS] [-s SEED]
 * (make check: 1500 positions a game; make fuzz: many more).
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "games/daifugo.h"
#include "games/nyse.h"
#include "jw.h"

#define SAMPLES		1500	/* each side of a chi-square test */
#define CHI_POSITIONS	4	/* positions tested per game */
#define CHI_Z		4.5	/* Wilson-Hilferty z refused (p < 4e-6) */
#define MAX_CELLS	256
#define STEP_CAP	2000000

/*
 * A hidden quantity: a JSON path in the all-seeing view, "@" standing
 * for the seat after the observer, "%" for the observer's partner in
 * daifugo's exchange.
 */
struct quantity {
	const char	*game;
	const char	*path;
};

static const struct quantity quantities[] = {
	{ "stocks", "/stock_cards/0" },
	{ "stocks", "/hands/@/0" },
	{ "speculation", "/stock/0" },
	{ "speculation", "/hands/@/0" },
	{ "nyse", "/piles/blue/0" },
	{ "nyse", "/holdings/@/marks/red" },
	{ "nyse", "/marker_marks/green" },
	{ "horserace", "/stock_order/0" },
	{ "horserace", "/stock_order/-1" },
	{ "daifugo", "/hands/@/0" },
	{ "daifugo", "/hands/%/-1" },
	{ NULL, NULL }
};

struct cell {
	char	*key;
	int	 n[2];
};

static struct legal	legal[MAX_LEGAL];
static long		records_held;	/* nyse states checked by records */

static char	*view_text(const struct game *, const void *, int);
static char	*legal_text(const struct game *, const void *, int);
static int	one(const struct game *, const struct opts *, const void *,
		    int, struct rng *, char *, size_t);
static int	playout(const struct game *, void *, struct rng *, char *,
		    size_t);
static char	*quantity(const struct game *, const void *, const char *,
		    int);
static int	daifugo_ok(const struct game *, const void *, int);
static int	nyse_records_hold(const struct game *, const void *, char *,
		    size_t);
static int	chi_wanted(const struct game *, const void *, int);
static int	chi_square(const struct game *, const struct opts *,
		    const void *, int, const char *, struct rng *, double *,
		    int *);
static int	run_game(const struct game *, long, uint64_t);

/* Returns the text of seat's view of st (caller frees). */
static char *
view_text(const struct game *g, const void *st, int seat)
{
	struct buf b = { 0 };
	struct jw w;

	jw_text(&w, &b);
	g->view_write(st, seat, &w);
	buf_ch(&b, '\0');
	return b.p;
}

/* Returns the text of seat's legal list in st (caller frees). */
static char *
legal_text(const struct game *g, const void *st, int seat)
{
	struct buf b = { 0 };
	struct jw w;
	int n;

	n = g->legal(st, seat, legal, MAX_LEGAL);
	jw_text(&w, &b);
	legal_write(g, st, seat, legal, n, &w);
	buf_ch(&b, '\0');
	return b.p;
}

/* Plays st to its end by random legal moves, checking it; -1 + cause. */
static int
playout(const struct game *g, void *st, struct rng *r, char *why,
    size_t len)
{
	struct action a;
	uint32_t d;
	long step;
	int n, p, i;

	for (step = 0; (d = g->deciders(st)) != 0; step++) {
		if (step >= STEP_CAP) {
			snprintf(why, len, "playout: no end");
			return -1;
		}
		n = popcount32(d);
		for (i = (int)rng_below(r, (uint32_t)n), p = 0; ; p++)
			if ((d & (1u << p)) && i-- == 0)
				break;
		if ((n = g->legal(st, p, legal, MAX_LEGAL)) <= 0) {
			snprintf(why, len, "playout: decider %d has no move",
			    p);
			return -1;
		}
		i = (int)rng_below(r, (uint32_t)n);
		a.code = legal[i].code;
		a.amount = legal[i].ranged ? legal[i].lo + (int32_t)rng_below(
		    r, (uint32_t)(legal[i].hi - legal[i].lo) + 1) : 0;
		if (g->apply(st, p, a, r, NULL) == -1) {
			snprintf(why, len, "playout: a legal move refused");
			return -1;
		}
		if (g->check(st, why, len) == -1)
			return -1;
	}
	return 0;
}

/*
 * NYSE with open_holdings off: whether every player holds the colours its
 * records give (what it took, less the specials it used, with its swaps'
 * flows, the colour given as the state says); 0 for any other game.
 */
static int
nyse_records_hold(const struct game *g, const void *vst, char *why,
    size_t len)
{
	const struct nyse *st = vst;
	int hold[NY_MAXP][NY_COLOURS], p, c, m, i, n;

	if (strcmp(g->name, "nyse") != 0 || st->open || st->n == 1 ||
	    st->phase == NY_OVER)
		return 0;
	for (p = 0; p < st->n; p++)
		for (c = 0; c < NY_COLOURS; c++)
			hold[p][c] = st->taken[p][c] - st->spent[p][c];
	for (i = 0; i < st->nswaps; i++) {
		hold[st->swaps[i][0]][st->swaps[i][4]]++;
		hold[st->swaps[i][0]][st->swaps[i][3]]--;
		hold[st->swaps[i][1]][st->swaps[i][4]]--;
		hold[st->swaps[i][1]][st->swaps[i][3]]++;
	}
	records_held++;
	for (p = 0; p < st->n; p++)
		for (c = 0; c < NY_COLOURS; c++) {
			for (n = 0, m = 0; m < NY_MARKS; m++)
				n += st->held[p][c][m];
			if (n != hold[p][c]) {
				snprintf(why, len, "player %d holds %d %s, its "
				    "records say %d", p, n, nyse_colours[c],
				    hold[p][c]);
				return -1;
			}
		}
	return 0;
}

/*
 * Determinizes seat's view of st and compares: the view's text, the legal
 * list, check(), and a playout to the end (one time in four); -1 + cause.
 */
static int
one(const struct game *g, const struct opts *o, const void *st, int seat,
    struct rng *r, char *why, size_t len)
{
	json_t *view;
	json_error_t e;
	char *t1, *t2 = NULL, *l1 = NULL, *l2 = NULL, cause[256];
	void *d;
	int rc = -1;

	t1 = view_text(g, st, seat);
	if ((view = json_loads(t1, 0, &e)) == NULL)
		errx(1, "the view does not parse: %s", e.text);
	d = xcalloc(1, g->state_size);
	if (g->determinize(d, o, seat, view, r, cause, sizeof cause) == -1) {
		snprintf(why, len, "determinize refused seat %d's view: %s",
		    seat, cause);
		goto out;
	}
	t2 = view_text(g, d, seat);
	if (strcmp(t1, t2) != 0) {
		snprintf(why, len, "seat %d: the view differs:\n# %s\n# %s",
		    seat, t1, t2);
		goto out;
	}
	l1 = legal_text(g, st, seat);
	l2 = legal_text(g, d, seat);
	if (strcmp(l1, l2) != 0) {
		snprintf(why, len, "seat %d: the legal list differs: %.300s vs "
		    "%.300s", seat, l1, l2);
		goto out;
	}
	if (g->check(d, cause, sizeof cause) == -1) {
		snprintf(why, len, "seat %d: check: %s", seat, cause);
		goto out;
	}
	/* the records bind what the game's own state holds, so the draw too */
	if (nyse_records_hold(g, st, cause, sizeof cause) == -1)
		errx(1, "nyse: a played state against its records: %s", cause);
	if (nyse_records_hold(g, d, cause, sizeof cause) == -1) {
		snprintf(why, len, "seat %d: the determinization: %s", seat,
		    cause);
		goto out;
	}
	if (rng_below(r, 4) == 0 && playout(g, d, r, why, len) == -1)
		goto out;
	rc = 0;
out:
	json_decref(view);
	free(t1);
	free(t2);
	free(l1);
	free(l2);
	free(d);
	return rc;
}

/*
 * Returns the canonical text of the quantity at path in the all-seeing
 * view of st, "@" replaced by the seat after seat, "%" by seat's partner
 * (caller frees).
 */
static char *
quantity(const struct game *g, const void *st, const char *path, int seat)
{
	json_t *all, *j;
	char p[128], *s;
	int players, i, k, who;

	all = game_view_json(g, st, SEAT_ALL);
	players = 0;
	if ((j = json_object_get(all, "players")) != NULL)
		players = json_is_integer(j) ? (int)json_integer_value(j) :
		    (int)json_array_size(j);
	if (players == 0)
		players = (int)json_array_size(json_object_get(all,
		    "hand_sizes"));
	for (i = k = 0; path[i] != '\0' && k < (int)sizeof p - 4; i++) {
		if (path[i] != '@' && path[i] != '%') {
			p[k++] = path[i];
			continue;
		}
		who = (seat + 1) % players;
		if (path[i] == '%' && strcmp(g->name, "daifugo") == 0 &&
		    ((const struct df_state *)st)->partner[seat] >= 0)
			who = ((const struct df_state *)st)->partner[seat];
		k += snprintf(p + k, sizeof p - (size_t)k, "%d", who);
	}
	p[k] = '\0';
	s = json_canon(json_path(all, p));
	json_decref(all);
	return s;
}

/*
 * Daifugo: whether a perturbed st keeps what seat knows from the exchange
 * and perturb() does not: a partner that gave its strongest cards holds
 * none stronger than the weakest of them (but what seat gave it).
 */
static int
daifugo_ok(const struct game *g, const void *vst, int seat)
{
	const struct df_state *st = vst;
	int q, b, thr;

	if (strcmp(g->name, "daifugo") != 0)
		return 1;
	q = st->partner[seat];
	if (st->phase != DP_PLAY || !st->exchanged || q < 0 ||
	    (st->cls[q] != DC_POOR && st->cls[q] != DC_VERY_POOR))
		return 1;
	for (thr = 12, b = 0; b < DF_NNAT; b++)
		if ((st->gift[q] & (1ULL << b)) && b % 13 < thr)
			thr = b % 13;
	for (b = 0; b < DF_NNAT; b++)
		if ((st->hand[q] & ~st->gift[seat] & (1ULL << b)) &&
		    b % 13 > thr)
			return 0;
	return 1;
}

/* Whether a position of seat is one to test the distributions at. */
static int
chi_wanted(const struct game *g, const void *vst, int seat)
{
	const struct df_state *st = vst;
	int q;

	if (strcmp(g->name, "daifugo") != 0)
		return 1;
	q = st->partner[seat];
	return st->phase == DP_PLAY && st->exchanged && q >= 0 &&
	    (st->cls[q] == DC_POOR || st->cls[q] == DC_VERY_POOR);
}

/* Counts key in side (0 or 1) of the table cells; 0, or -1 if full. */
static int
tally(struct cell *c, int *nc, char *key, int side)
{
	int i;

	for (i = 0; i < *nc; i++)
		if (strcmp(c[i].key, key) == 0) {
			c[i].n[side]++;
			free(key);
			return 0;
		}
	if (*nc == MAX_CELLS) {
		free(key);
		return -1;
	}
	c[*nc].key = key;
	c[*nc].n[0] = c[*nc].n[1] = 0;
	c[(*nc)++].n[side] = 1;
	return 0;
}

/*
 * The two-sample chi-square test of the quantity at path: SAMPLES
 * determinizations of seat's view against SAMPLES perturb()s of st.  Sets
 * *z (Wilson-Hilferty) and *df; returns -1 when the quantity cannot be
 * tested here (one category, too many).
 */
static int
chi_square(const struct game *g, const struct opts *o, const void *st,
    int seat, const char *path, struct rng *r, double *z, int *df)
{
	struct cell c[MAX_CELLS];
	json_t *view;
	char *t, cause[256];
	void *d;
	double x, a, b, pa, pb;
	int nc = 0, i, side, full = 0;

	t = view_text(g, st, seat);
	view = json_loads(t, 0, NULL);
	free(t);
	d = xcalloc(1, g->state_size);
	for (i = 0; i < SAMPLES && !full; i++)
		for (side = 0; side < 2; side++) {
			if (side == 0) {
				if (g->determinize(d, o, seat, view, r, cause,
				    sizeof cause) == -1)
					errx(1, "determinize: %s", cause);
			} else
				do {
					memcpy(d, st, g->state_size);
					g->perturb(d, seat, r);
				} while (!daifugo_ok(g, d, seat));
			if (tally(c, &nc, quantity(g, d, path, seat),
			    side) == -1)
				full = 1;
		}
	json_decref(view);
	free(d);
	/* Cells with fewer than 10 draws in all go into one. */
	x = 0;
	*df = -1;
	for (a = b = 0, i = 0; i < nc; i++) {
		if (c[i].n[0] + c[i].n[1] < 10) {
			a += c[i].n[0];
			b += c[i].n[1];
		} else {
			pa = c[i].n[0];
			pb = c[i].n[1];
			x += (pa - pb) * (pa - pb) / (pa + pb);
			(*df)++;
		}
		free(c[i].key);
	}
	if (a + b > 0) {
		x += (a - b) * (a - b) / (a + b);
		(*df)++;
	}
	if (full || *df < 1)
		return -1;
	*z = (pow(x / *df, 1.0 / 3) - (1 - 2.0 / (9 * *df))) /
	    sqrt(2.0 / (9 * *df));
	return 0;
}

/*
 * Plays random games of g until n positions were determinized, then the
 * chi-square tests; prints the game's TAP lines.
 */
static int
run_game(const struct game *g, long n, uint64_t seed)
{
	struct rng r, rr;
	struct opts o;
	struct action a;
	char why[4096];
	void *st, *keep[CHI_POSITIONS];
	struct opts kopts[CHI_POSITIONS];
	int kseat[CHI_POSITIONS], nkeep = 0, p, i, k, m, df, failed = 0;
	int tested = 0;
	uint32_t d;
	long done = 0, played = 0;
	double z;

	rng_seed(&r, seed);
	rng_seed(&rr, seed ^ 0xde7);
	st = xcalloc(1, g->state_size);
	why[0] = '\0';
	while (done < n && !failed) {
		if (opts_random(g, &o, &r, why, sizeof why) == -1)
			errx(1, "%s: options: %s", g->name, why);
		g->init(st, &o, NULL, &r, NULL);
		played++;
		while ((d = g->deciders(st)) != 0 && done < n) {
			if (rng_below(&rr, 8) == 0) {
				p = (int)rng_below(&rr, (uint32_t)o.players);
				if (one(g, &o, st, p, &rr, why,
				    sizeof why) == -1) {
					failed = 1;
					break;
				}
				done++;
				if (nkeep < CHI_POSITIONS &&
				    chi_wanted(g, st, p) &&
				    rng_below(&rr, 64) == 0) {
					keep[nkeep] = xmalloc(g->state_size);
					memcpy(keep[nkeep], st, g->state_size);
					kopts[nkeep] = o;
					kseat[nkeep++] = p;
				}
			}
			k = popcount32(d);
			for (i = (int)rng_below(&r, (uint32_t)k), p = 0; ; p++)
				if ((d & (1u << p)) && i-- == 0)
					break;
			m = g->legal(st, p, legal, MAX_LEGAL);
			i = (int)rng_below(&r, (uint32_t)m);
			a.code = legal[i].code;
			a.amount = legal[i].ranged ? legal[i].lo +
			    (int32_t)rng_below(&r, (uint32_t)(legal[i].hi -
			    legal[i].lo) + 1) : 0;
			if (g->apply(st, p, a, &r, NULL) == -1)
				errx(1, "%s: a legal move refused", g->name);
		}
	}
	tap_ok(!failed, "%s: %ld views of %ld games determinized: the same "
	    "view and legal list, check() holds, playouts end%s%s", g->name,
	    done, played, failed ? "\n# " : "", failed ? why : "");
	for (i = 0; i < nkeep; i++) {
		for (k = 0; quantities[k].game != NULL; k++) {
			if (strcmp(quantities[k].game, g->name) != 0)
				continue;
			if (chi_square(g, &kopts[i], keep[i], kseat[i],
			    quantities[k].path, &rr, &z, &df) == -1)
				continue;
			tested++;
			tap_ok(z < CHI_Z, "%s: position %d seat %d: %s: "
			    "chi-square z %.2f (df %d) against perturb()",
			    g->name, i, kseat[i], quantities[k].path, z, df);
		}
		free(keep[i]);
	}
	tap_ok(tested > 0, "%s: %d chi-square tests made", g->name, tested);
	if (strcmp(g->name, "nyse") == 0)
		tap_ok(records_held > 0, "nyse: %ld views with open_holdings "
		    "off determinized to the colours their records give",
		    records_held / 2);
	free(st);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *only = NULL, *errstr;
	long n = 1500;
	uint64_t seed = 28;
	int ch, i;

	while ((ch = getopt(argc, argv, "g:n:s:")) != -1) {
		switch (ch) {
		case 'g':
			only = optarg;
			break;
		case 'n':
			n = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(1, "-n %s: %s", optarg, errstr);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: t_determinize [-g GAME] "
			    "[-n POSITIONS] [-s SEED]\n");
			return 2;
		}
	}
	for (i = 0; games[i] != NULL; i++) {
		if (only != NULL && strcmp(only, games[i]->name) != 0)
			continue;
		if (games[i]->determinize == NULL) {
			tap_ok(1, "%s: no determinization # skip",
			    games[i]->name);
			continue;
		}
		run_game(games[i], n, seed + (uint64_t)i);
	}
	return tap_done();
}
