/*
 * The schedule of a tournament: which bots sit at which table, in which
 * seats.  With N bots and k seats it is every k-subset of the bots (rounds
 * times) when that is a moderate number of tables; otherwise a balanced
 * schedule of T tables, found by a seeded local search, in which every pair
 * of bots shares a table equally often (within one) and every bot sits at
 * as many tables as any other (within one).  The seats are then balanced:
 * every bot sits in every seat equally often (within one).  That is an
 * equitable edge colouring of the bipartite bots-tables graph, which always
 * exists (de Werra); it is reached by balancing two seats at a time for
 * every bot along Euler trails (linear in the tables), until no bot has a
 * seat two more often than another.
 * The same arguments always give the same schedule.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/journal.h"
#include "base/schedule.h"
#include "oneway.h"

/* The bots-tables graph of two seats, for pair_balance. */
struct pairwork {
	long	*deg;		/* n + 1: where each bot's tables start */
	long	*ptr;		/* n: each bot's next table to look at */
	int	*adj;		/* 2 T: the tables of each bot */
	char	*used;		/* T: the table's edge is turned */
};

static int	 all_subsets(struct schedule *, long);
static void	 greedy_tables(struct schedule *, long *, long *, struct rng *);
static long	 anneal(struct schedule *, long *, struct rng *);
static long	 balanced(struct schedule *, long, struct rng *);
static long	 table_step(int, int);
static void	 seat_balance(struct schedule *, struct rng *);
static void	 pair_balance(struct schedule *, long *, int, int,
		    struct pairwork *);
static long	 unused(const struct pairwork *, int);
static void	 greedy_seats(struct schedule *, long *, int);
static void	 shuffle_tables(struct schedule *, struct rng *);
static double	 unit(struct rng *);

/* The number of k-subsets of n things, or -1 if above limit. */
long
binomial(int n, int k, long limit)
{
	long c = 1;
	int i;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++) {
		/* c * (n - k + i) / i is exact at every step */
		if (c > LONG_MAX / (n - k + i))
			return -1;
		c = c * (n - k + i) / i;
		if (c > limit)
			return -1;
	}
	return c;
}

/* A uniform double in [0, 1). */
static double
unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* The fewest tables that seat every bot equally often: N / gcd(N, k). */
static long
table_step(int nbots, int seats)
{
	long a = nbots, b = seats, c;

	while (b != 0) {
		c = a % b;
		a = b;
		b = c;
	}
	return nbots / a;
}

/*
 * The smallest number of tables a default balanced schedule tries: the
 * fewest that give every bot the same number of tables and every pair of
 * bots one and a half tables on average (so one or two each: a whole
 * average would ask for an exact block design, which often does not
 * exist).
 */
long
schedule_default_tables(int nbots, int seats)
{
	long step, t, pairs, per;

	step = table_step(nbots, seats);
	pairs = (long)nbots * (nbots - 1) / 2;
	per = (long)seats * (seats - 1) / 2;
	if (per == 0)
		return step;
	t = (3 * pairs + 2 * per - 1) / (2 * per);
	return (t + step - 1) / step * step;
}

/* Makes the schedule; see tournament.h. */
int
schedule_make(struct schedule *s, int nbots, int seats, enum sched_mode mode,
    long count, long max_tables, uint64_t seed, char *cause, size_t len)
{
	static const int mult[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
	struct schedule best;
	struct rng r;
	long subsets, base, step, spread, bspread;
	int i;

	memset(s, 0, sizeof *s);
	if (seats < 1 || seats > MAX_PLAYERS) {
		snprintf(cause, len, "%d seats: must be 1 to %d", seats,
		    MAX_PLAYERS);
		return -1;
	}
	if (nbots < seats) {
		snprintf(cause, len, "%d bot%s for tables of %d seats: "
		    "a table needs %d different bots", nbots,
		    nbots == 1 ? "" : "s", seats, seats);
		return -1;
	}
	if (nbots > MAX_BOTS) {
		snprintf(cause, len, "%d bots: at most %d", nbots, MAX_BOTS);
		return -1;
	}
	if (count < 0) {
		snprintf(cause, len, "a negative number of %s",
		    mode == SCHED_BALANCED ? "tables" : "rounds");
		return -1;
	}
	if (max_tables <= 0)
		max_tables = DEF_MAX_TABLES;
	rng_seed(&r, seed_oneway(seed, "schedule", 0));
	s->nbots = nbots;
	s->seats = seats;
	subsets = binomial(nbots, seats, MAX_TABLES);
	if (mode == SCHED_AUTO) {
		if (count == 0)
			count = 1;
		mode = subsets != -1 && subsets * count <= max_tables ?
		    SCHED_ALL : SCHED_BALANCED;
		if (mode == SCHED_BALANCED)
			count = 0;
	}
	if (mode == SCHED_ALL) {
		if (count == 0)
			count = 1;
		if (subsets == -1 || subsets * count > MAX_TABLES) {
			snprintf(cause, len, "every %d of %d bots is too many "
			    "tables (over %d): use a balanced schedule",
			    seats, nbots, MAX_TABLES);
			return -1;
		}
		s->all = 1;
		if (all_subsets(s, count) == -1) {
			snprintf(cause, len, "out of memory");
			return -1;
		}
	} else if (count > 0) {
		if (count > MAX_TABLES) {
			snprintf(cause, len, "%ld tables: at most %d", count,
			    MAX_TABLES);
			return -1;
		}
		balanced(s, count, &r);
	} else {
		/*
		 * The default: the first of a few growing numbers of tables
		 * that balances the pairs within one (with few tables of
		 * many seats that can be impossible), else the best found.
		 */
		base = schedule_default_tables(nbots, seats);
		step = table_step(nbots, seats);
		best.tab = NULL;
		bspread = LONG_MAX;
		for (i = 0; i < (int)(sizeof mult / sizeof mult[0]); i++) {
			count = base + mult[i] * step;
			if (count > MAX_TABLES)
				break;
			rng_seed(&r, seed_oneway(seed, "schedule",
			    (uint64_t)i));
			spread = balanced(s, count, &r);
			if (spread < bspread) {
				free(best.tab);
				best = *s;
				bspread = spread;
				s->tab = NULL;
			}
			free(s->tab);
			s->tab = NULL;
			if (spread <= 1)
				break;
		}
		if (best.tab == NULL) {
			snprintf(cause, len, "%ld tables: at most %d", base,
			    MAX_TABLES);
			return -1;
		}
		*s = best;
	}
	seat_balance(s, &r);
	shuffle_tables(s, &r);
	return 0;
}

/* Lists every k-subset rounds times, in lexicographic order. */
static int
all_subsets(struct schedule *s, long rounds)
{
	int k = s->seats, n = s->nbots, c[MAX_PLAYERS], i;
	long subsets, t = 0, round;

	subsets = binomial(n, k, MAX_TABLES);
	s->ntables = (int)(subsets * rounds);
	s->tab = xcalloc((size_t)s->ntables * (size_t)k, sizeof *s->tab);
	for (round = 0; round < rounds; round++) {
		for (i = 0; i < k; i++)
			c[i] = i;
		for (;;) {
			memcpy(&s->tab[t++ * k], c, (size_t)k * sizeof *c);
			for (i = k - 1; i >= 0 && c[i] == n - k + i; i--)
				;
			if (i < 0)
				break;
			c[i]++;
			for (i++; i < k; i++)
				c[i] = c[i - 1] + 1;
		}
	}
	return 0;
}

/*
 * Fills the tables greedily: each takes the bots that have sat least
 * (so appearances stay within one), preferring those that have met the
 * bots already chosen least, ties broken by a seeded order.
 */
static void
greedy_tables(struct schedule *s, long *pair, long *app, struct rng *r)
{
	int n = s->nbots, k = s->seats, *perm, t, i, j, best, b, tmp;
	long bkey[2], key[2];
	char *in;

	perm = xcalloc((size_t)n, sizeof *perm);
	in = xcalloc((size_t)n, 1);
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (t = 0; t < s->ntables; t++) {
		for (i = n - 1; i > 0; i--) {
			j = (int)rng_below(r, (uint32_t)i + 1);
			tmp = perm[i];
			perm[i] = perm[j];
			perm[j] = tmp;
		}
		for (i = 0; i < k; i++) {
			best = -1;
			bkey[0] = bkey[1] = LONG_MAX;
			for (j = 0; j < n; j++) {
				b = perm[j];
				if (in[b])
					continue;
				key[0] = app[b];
				key[1] = 0;
				for (tmp = 0; tmp < i; tmp++)
					key[1] += pair[b * n +
					    s->tab[t * k + tmp]];
				if (key[0] < bkey[0] || (key[0] == bkey[0] &&
				    key[1] < bkey[1])) {
					best = b;
					bkey[0] = key[0];
					bkey[1] = key[1];
				}
			}
			for (tmp = 0; tmp < i; tmp++) {
				pair[best * n + s->tab[t * k + tmp]]++;
				pair[s->tab[t * k + tmp] * n + best]++;
			}
			s->tab[t * k + i] = best;
			in[best] = 1;
			app[best]++;
		}
		for (i = 0; i < k; i++)
			in[s->tab[t * k + i]] = 0;
	}
	free(perm);
	free(in);
}

/*
 * Makes T balanced tables: a greedy start, then annealing.  Returns the
 * spread of the pair counts (most - least).
 */
static long
balanced(struct schedule *s, long T, struct rng *r)
{
	long *pair, *app, spread;

	s->ntables = (int)T;
	s->tab = xcalloc((size_t)T * (size_t)s->seats, sizeof *s->tab);
	pair = xcalloc((size_t)s->nbots * (size_t)s->nbots, sizeof *pair);
	app = xcalloc((size_t)s->nbots, sizeof *app);
	greedy_tables(s, pair, app, r);
	spread = anneal(s, pair, r);
	free(pair);
	free(app);
	return spread;
}

/*
 * Swaps bots between tables (keeping every bot's number of tables) to make
 * the pair counts even: simulated annealing on the sum of their squares,
 * stopping as soon as every pair count is within one of every other.
 * Returns the spread of the pair counts at the end.
 */
static long
anneal(struct schedule *s, long *pair, struct rng *r)
{
	int n = s->nbots, k = s->seats, t, u, i, j, x, y, m, z;
	long *hist, nh = s->ntables + 2, lo, hi, step, budget, delta, v;
	double temp, cool;

	hist = xcalloc((size_t)nh, sizeof *hist);
	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++)
			hist[pair[x * n + y]]++;
	if (k < 2 || s->ntables < 2 || n <= k)
		goto out;
	budget = 4000L * s->ntables * k + 2000000L;
	if (budget > 40000000L)
		budget = 40000000L;
	temp = 1.0;
	cool = pow(0.02 / temp, 1.0 / (double)budget);
	lo = 0;
	hi = nh - 1;
	for (step = 0; step < budget; step++, temp *= cool) {
		if ((step & 1023) == 0) {
			/*
			 * A step moves a pair count by one at most, so the
			 * least and the most moved by 1024 at most since the
			 * last look: scan from there, not the whole range.
			 */
			lo = lo > 1024 ? lo - 1024 : 0;
			hi = hi + 1024 < nh ? hi + 1024 : nh - 1;
			for (; lo < nh && hist[lo] == 0; lo++)
				;
			for (; hi > 0 && hist[hi] == 0; hi--)
				;
			if (hi - lo <= 1)
				break;
		}
		t = (int)rng_below(r, (uint32_t)s->ntables);
		u = (int)rng_below(r, (uint32_t)s->ntables);
		if (t == u)
			continue;
		i = (int)rng_below(r, (uint32_t)k);
		j = (int)rng_below(r, (uint32_t)k);
		x = s->tab[t * k + i];
		y = s->tab[u * k + j];
		for (m = 0; m < k; m++)
			if (s->tab[u * k + m] == x || s->tab[t * k + m] == y)
				break;
		if (m < k)
			continue;
		/* the change of the sum of squares, counting shared bots */
		delta = 0;
		for (m = 0; m < k; m++) {
			if (m != i) {
				z = s->tab[t * k + m];
				/* x leaves z, y joins z */
				v = pair[x * n + z];
				delta += -2 * v + 1;
				v = pair[y * n + z];
				delta += 2 * v + 1;
			}
			if (m != j) {
				z = s->tab[u * k + m];
				v = pair[y * n + z];
				delta += -2 * v + 1;
				v = pair[x * n + z];
				delta += 2 * v + 1;
			}
		}
		/* a bot z at both tables: x-z and y-z each go -1 and +1 */
		for (m = 0; m < k; m++) {
			if (m == i)
				continue;
			z = s->tab[t * k + m];
			for (v = 0; v < k; v++)
				if (v != j && s->tab[u * k + v] == z)
					break;
			if (v < k)
				delta -= 4;
		}
		if (delta > 0 && unit(r) >= exp(-(double)delta / temp))
			continue;
		for (m = 0; m < k; m++) {
			if (m != i) {
				z = s->tab[t * k + m];
				hist[pair[x * n + z]]--;
				pair[x * n + z]--;
				pair[z * n + x]--;
				hist[pair[x * n + z]]++;
				hist[pair[y * n + z]]--;
				pair[y * n + z]++;
				pair[z * n + y]++;
				hist[pair[y * n + z]]++;
			}
			if (m != j) {
				z = s->tab[u * k + m];
				hist[pair[y * n + z]]--;
				pair[y * n + z]--;
				pair[z * n + y]--;
				hist[pair[y * n + z]]++;
				hist[pair[x * n + z]]--;
				pair[x * n + z]++;
				pair[z * n + x]++;
				hist[pair[x * n + z]]++;
			}
		}
		s->tab[t * k + i] = y;
		s->tab[u * k + j] = x;
	}
out:
	for (lo = 0; lo < nh && hist[lo] == 0; lo++)
		;
	for (hi = nh - 1; hi > 0 && hist[hi] == 0; hi--)
		;
	free(hist);
	return lo < nh ? hi - lo : 0;
}

/*
 * Balances the seats: a seeded random seating at every table, then, while
 * some bot sits in a seat at least twice more often than in another, the
 * two seats (a, b) are balanced for every bot at once (pair_balance).
 * Each such step keeps every bot's count of a and b together and leaves
 * them within one, so the sum of the squared seat counts falls with every
 * step that found a pair two apart: this ends, with every bot's seat
 * counts within one.  A step is linear in the tables.
 */
static void
seat_balance(struct schedule *s, struct rng *r)
{
	struct pairwork w;
	int n = s->nbots, k = s->seats, a, b, x, i, j, t, tmp, again;
	long *cnt, d;

	cnt = xcalloc((size_t)n * (size_t)k, sizeof *cnt);
	for (t = 0; t < s->ntables; t++) {
		for (i = k - 1; i > 0; i--) {
			j = (int)rng_below(r, (uint32_t)i + 1);
			tmp = s->tab[t * k + i];
			s->tab[t * k + i] = s->tab[t * k + j];
			s->tab[t * k + j] = tmp;
		}
		greedy_seats(s, cnt, t);
	}
	memset(&w, 0, sizeof w);
	w.deg = xcalloc((size_t)n + 1, sizeof *w.deg);
	w.ptr = xcalloc((size_t)n, sizeof *w.ptr);
	w.adj = xcalloc((size_t)s->ntables * 2, sizeof *w.adj);
	w.used = xcalloc((size_t)s->ntables, 1);
	do {
		again = 0;
		for (a = 0; a < k; a++)
			for (b = a + 1; b < k; b++) {
				for (x = 0; x < n; x++) {
					d = cnt[x * k + a] - cnt[x * k + b];
					if (d >= 2 || d <= -2)
						break;
				}
				if (x == n)
					continue;
				pair_balance(s, cnt, a, b, &w);
				again = 1;
			}
	} while (again);
	free(w.deg);
	free(w.ptr);
	free(w.adj);
	free(w.used);
	free(cnt);
}

/*
 * Seats the bots of table t (in a random order) greedily, each time the
 * bot and the free seat of the fewest earlier sittings, and counts them:
 * a start that leaves pair_balance little to do.
 */
static void
greedy_seats(struct schedule *s, long *cnt, int t)
{
	int k = s->seats, bots[MAX_PLAYERS], i, j, m, bi, bs, taken;
	long best;

	memcpy(bots, &s->tab[t * k], (size_t)k * sizeof *bots);
	taken = 0;	/* a mask of the seats given */
	for (m = 0; m < k; m++) {
		best = LONG_MAX;
		bi = bs = 0;
		for (i = 0; i < k; i++) {
			if (bots[i] < 0)
				continue;
			for (j = 0; j < k; j++)
				if ((taken & 1 << j) == 0 &&
				    cnt[bots[i] * k + j] < best) {
					best = cnt[bots[i] * k + j];
					bi = i;
					bs = j;
				}
		}
		s->tab[t * k + bs] = bots[bi];
		cnt[bots[bi] * k + bs]++;
		bots[bi] = -1;
		taken |= 1 << bs;
	}
}

/*
 * Balances seats a and b for every bot, each bot's count of the two kept:
 * every table is an edge between its seat-a and its seat-b bot, and the
 * edges are turned along trails (seat a at the tail), first open trails
 * between bots of odd degree, then closed ones, so every bot's a and b
 * counts end within one (an Euler partition of the bots-tables graph).
 */
static void
pair_balance(struct schedule *s, long *cnt, int a, int b, struct pairwork *w)
{
	int n = s->nbots, k = s->seats, x, y, start, t, pass;
	long *deg = w->deg;

	memset(deg, 0, ((size_t)n + 1) * sizeof *deg);
	memset(w->used, 0, (size_t)s->ntables);
	for (t = 0; t < s->ntables; t++) {
		deg[s->tab[t * k + a] + 1]++;
		deg[s->tab[t * k + b] + 1]++;
	}
	for (x = 0; x < n; x++)
		deg[x + 1] += deg[x];
	/* deg[] is now the start of each bot's tables in adj[] */
	for (x = 0; x < n; x++)
		w->ptr[x] = deg[x];
	for (t = 0; t < s->ntables; t++) {
		w->adj[w->ptr[s->tab[t * k + a]]++] = t;
		w->adj[w->ptr[s->tab[t * k + b]]++] = t;
	}
	for (x = 0; x < n; x++) {
		w->ptr[x] = deg[x];
		cnt[x * k + a] = cnt[x * k + b] = 0;
	}
	/* pass 0 starts at bots with an odd number of unused tables */
	for (pass = 0; pass < 2; pass++)
		for (start = 0; start < n; start++) {
			if (pass == 0 && (unused(w, start) & 1) == 0)
				continue;
			for (x = start;;) {
				while (w->ptr[x] < deg[x + 1] &&
				    w->used[w->adj[w->ptr[x]]])
					w->ptr[x]++;
				if (w->ptr[x] == deg[x + 1])
					break;
				t = w->adj[w->ptr[x]++];
				w->used[t] = 1;
				y = s->tab[t * k + a] == x ? s->tab[t * k + b] :
				    s->tab[t * k + a];
				s->tab[t * k + a] = x;
				s->tab[t * k + b] = y;
				cnt[x * k + a]++;
				cnt[y * k + b]++;
				x = y;
			}
		}
}

/* The number of bot x's tables pair_balance has not turned yet. */
static long
unused(const struct pairwork *w, int x)
{
	long i, c = 0;

	for (i = w->ptr[x]; i < w->deg[x + 1]; i++)
		c += !w->used[w->adj[i]];
	return c;
}

/* Puts the tables in a seeded random order (so every bot plays early). */
static void
shuffle_tables(struct schedule *s, struct rng *r)
{
	int k = s->seats, t, u, m, tmp;

	for (t = s->ntables - 1; t > 0; t--) {
		u = (int)rng_below(r, (uint32_t)t + 1);
		for (m = 0; m < k; m++) {
			tmp = s->tab[t * k + m];
			s->tab[t * k + m] = s->tab[u * k + m];
			s->tab[u * k + m] = tmp;
		}
	}
}

/* Measures the balance of a schedule; see struct sched_stats. */
void
schedule_stats(const struct schedule *s, int duplicate, struct sched_stats *st)
{
	int n = s->nbots, k = s->seats, t, i, j, x, y;
	long *pair, *app, *cnt, lo, hi;

	pair = xcalloc((size_t)n * (size_t)n, sizeof *pair);
	app = xcalloc((size_t)n, sizeof *app);
	cnt = xcalloc((size_t)n * (size_t)k, sizeof *cnt);
	for (t = 0; t < s->ntables; t++)
		for (i = 0; i < k; i++) {
			x = s->tab[t * k + i];
			app[x]++;
			cnt[x * k + i]++;
			for (j = i + 1; j < k; j++) {
				y = s->tab[t * k + j];
				pair[x * n + y]++;
				pair[y * n + x]++;
			}
		}
	st->pair_min = st->app_min = LONG_MAX;
	st->pair_max = st->app_max = st->seat_spread = 0;
	for (x = 0; x < n; x++) {
		if (app[x] < st->app_min)
			st->app_min = app[x];
		if (app[x] > st->app_max)
			st->app_max = app[x];
		for (y = x + 1; y < n; y++) {
			if (pair[x * n + y] < st->pair_min)
				st->pair_min = pair[x * n + y];
			if (pair[x * n + y] > st->pair_max)
				st->pair_max = pair[x * n + y];
		}
		lo = LONG_MAX;
		hi = 0;
		for (i = 0; i < k; i++) {
			if (cnt[x * k + i] < lo)
				lo = cnt[x * k + i];
			if (cnt[x * k + i] > hi)
				hi = cnt[x * k + i];
		}
		if (!duplicate && hi - lo > st->seat_spread)
			st->seat_spread = hi - lo;
	}
	if (n < 2)
		st->pair_min = st->pair_max = 0;
	free(pair);
	free(app);
	free(cnt);
}

/* A 64-bit fingerprint of the schedule's shape and every seat. */
uint64_t
schedule_hash(const struct schedule *s)
{
	uint64_t h;
	long i;

	h = seed_derive((uint64_t)s->nbots, (uint64_t)s->seats);
	h = seed_derive(h, (uint64_t)s->ntables);
	for (i = 0; i < (long)s->ntables * s->seats; i++)
		h = seed_derive(h, (uint64_t)s->tab[i]);
	return h;
}

/* Frees the tables. */
void
schedule_free(struct schedule *s)
{
	free(s->tab);
	s->tab = NULL;
	s->ntables = 0;
}
