/*
 * Ratings: a Bradley-Terry model fitted by maximum likelihood (Hunter's MM
 * iterations, as BayesElo) on the Elo scale, each k-player finish counted
 * as its pairwise results weighted 1/(k-1), with `prior` virtual draws
 * per player keeping every rating finite; 95% intervals from a streaming
 * Poisson bootstrap over whole duplicate blocks (a replicate fitted with a
 * tiny prior when --prior is 0, and left out if still not finite), and
 * the likelihood of superiority over the next player down.  The bootstrap
 * keeps each block's key and, for every pair of players, a log of its
 * results in game order (about a byte a result, appended as the games
 * come); a fit replays them one replicate at a time (the blocks' weights
 * drawn a group of replicates at a time, each block's generator resumed
 * where the last group left it), adding the same values in the same
 * order as one matrix per replicate held from the start would: the same
 * bits, in memory that grows with the games, not replicates * n * n.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rating/rate.h"

#define ELO_PER_NAT	(400.0 / M_LN10)
#define BT_TOL		1e-9
#define BT_MAXITER	200000
#define RANK_TIE	1e-3		/* Elo: ratings this close rank by name */
#define BOOT_GROUP	16	/* replicates whose weights are drawn at once */
#define BOOT_MATS	(1 << 22)	/* bytes of the matrices made at once */
#define PAIRLOG_MIN	16	/* bytes: a pair log's first room, and the
				 * most a result takes (a step of 64 bits) */

static void	 grow(struct rating *);
static int	 lookup(const struct rating *, const char *, unsigned *);
static unsigned	 name_hash(const char *);
static int	 connected(const struct rating *);
static int	 cmp_double(const void *, const void *);
static void	 rank_order(struct rating *);
static void	 boot_weights(const struct rating *, struct rng *, int, int,
		    int, unsigned char *);
static void	 pairlog_add(struct rating *, int, int, int);
static void	 boot_matrix(const struct rating *, const unsigned char *,
		    int, int, double *);

/* Starts an empty rating pool. */
void
rate_init(struct rating *r, const struct rate_opts *o)
{
	memset(r, 0, sizeof *r);
	r->opts = *o;
	if (r->opts.mean == 0)
		r->opts.mean = 1500;
}

/* FNV-1a of a name. */
static unsigned
name_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The slot of name in the hash (its player index there, or -1). */
static int
lookup(const struct rating *r, const char *name, unsigned *slot)
{
	unsigned mask = (unsigned)r->hcap - 1, h;

	for (h = name_hash(name) & mask; r->hash[h] != -1; h = (h + 1) & mask)
		if (strcmp(r->p[r->hash[h]].name, name) == 0)
			break;
	*slot = h;
	return r->hash[h];
}

/* Doubles the room for players, moving the matrices to the new stride. */
static void
grow(struct rating *r)
{
	int oc = r->cap, nc = oc ? oc * 2 : 8, i;
	double *w;
	long *met;
	struct rpairlog **pl = NULL;
	unsigned slot;

	r->p = xreallocarray(r->p, (size_t)nc, sizeof *r->p);
	memset(r->p + oc, 0, (size_t)(nc - oc) * sizeof *r->p);
	w = xcalloc((size_t)nc * (size_t)nc, sizeof *w);
	met = xcalloc((size_t)nc * (size_t)nc, sizeof *met);
	if (r->opts.boot > 0)
		pl = xcalloc((size_t)nc * (size_t)nc, sizeof *pl);
	for (i = 0; i < r->n; i++) {
		memcpy(w + i * nc, r->w + i * oc, (size_t)r->n * sizeof *w);
		memcpy(met + i * nc, r->met + i * oc,
		    (size_t)r->n * sizeof *met);
		if (pl != NULL)
			memcpy(pl + i * nc, r->pl + i * oc,
			    (size_t)r->n * sizeof *pl);
	}
	free(r->w);
	free(r->met);
	free(r->pl);
	r->w = w;
	r->met = met;
	r->pl = pl;
	r->cap = nc;
	free(r->hash);
	r->hcap = 4 * nc;
	r->hash = xcalloc((size_t)r->hcap, sizeof *r->hash);
	memset(r->hash, 0xff, (size_t)r->hcap * sizeof *r->hash);
	for (i = 0; i < r->n; i++) {
		lookup(r, r->p[i].name, &slot);
		r->hash[slot] = i;
	}
}

/* The index of a player, added if new. */
int
rate_player(struct rating *r, const char *name)
{
	unsigned slot;
	int i;

	if (r->cap > 0 && (i = lookup(r, name, &slot)) != -1)
		return i;
	if (r->n == r->cap)
		grow(r);
	i = r->n++;
	r->p[i].name = xstrdup(name);
	lookup(r, name, &slot);
	r->hash[slot] = i;
	r->fitted = 0;
	return i;
}

/* The index of a player, or -1 if it has none. */
int
rate_find(const struct rating *r, const char *name)
{
	unsigned slot;

	return r->cap > 0 ? lookup(r, name, &slot) : -1;
}

/* The key of a bootstrap block: one deal of one table of one journal. */
uint64_t
rate_blockkey(uint64_t journal, long table, long deal)
{
	return seed_derive(seed_derive(journal, (uint64_t)table),
	    (uint64_t)deal);
}

/* Poisson(1)'s distribution function at 0 .. RATE_POISSON_MAX - 1. */
void
rate_poisson_cdf(double *f)
{
	double p;
	int k;

	p = f[0] = exp(-1.0);
	for (k = 1; k < RATE_POISSON_MAX; k++) {
		p /= k;
		f[k] = f[k - 1] + p;
	}
}

/*
 * A draw from Poisson(1) (at most RATE_POISSON_MAX), by inversion on f: the
 * first k with u < f[k], counted without a branch among the first eight
 * (f never decreases).
 */
int
rate_poisson1(struct rng *g, const double *f)
{
	double u;
	int j, k = 0;

	u = (double)(rng_next(g) >> 11) * 0x1p-53;
	for (j = 0; j < 8; j++)
		k += u >= f[j];
	if (k == 8)
		while (k < RATE_POISSON_MAX && u >= f[k])
			k++;
	return k;
}

/* Adds one finished game; see tournament.h. */
void
rate_add(struct rating *r, uint64_t key, int k, const int *pl,
    const int *places, const long (*faults)[NTFAULT])
{
	double share, wij, wji;
	int a, b, i, j, f, who, stride = r->cap, B = r->opts.boot;

	r->games++;
	r->fitted = 0;
	if (B > 0 && (!r->havekey || key != r->lastkey ||
	    r->blk[r->nblock - 1].k != k)) {
		if (r->nblock == r->bkcap) {
			r->bkcap = r->bkcap ? 2 * r->bkcap : 64;
			r->blk = xreallocarray(r->blk, (size_t)r->bkcap,
			    sizeof *r->blk);
		}
		r->blk[r->nblock].key = key;
		r->blk[r->nblock++].k = k;
	}
	r->lastkey = key;
	r->havekey = 1;
	for (a = 0; a < k; a++) {
		i = pl[a];
		r->p[i].games++;
		r->p[i].place_sum += places[a];
		if (places[a] == 1)
			r->p[i].firsts++;
		if (faults != NULL)
			for (f = 0; f < NTFAULT; f++)
				r->p[i].faults[f] += faults[a][f];
	}
	if (k < 2)
		return;
	share = 1.0 / (k - 1);
	for (a = 0; a < k; a++)
		for (b = a + 1; b < k; b++) {
			i = pl[a];
			j = pl[b];
			if (i == j)
				continue;
			if (places[a] < places[b]) {
				wij = share;
				wji = 0;
			} else if (places[a] > places[b]) {
				wij = 0;
				wji = share;
			} else
				wij = wji = share / 2;
			r->w[i * stride + j] += wij;
			r->w[j * stride + i] += wji;
			r->met[i * stride + j]++;
			r->met[j * stride + i]++;
			r->p[i].pscore += wij;
			r->p[j].pscore += wji;
			r->p[i].pweight += share;
			r->p[j].pweight += share;
			if (B == 0)
				continue;
			/* who won, of the pair's lower index (0), the
			 * higher (1), or neither (2) */
			who = wij == wji ? 2 : (wij > wji) == (i < j) ? 0 : 1;
			pairlog_add(r, i < j ? i : j, i < j ? j : i, who);
		}
}

/* Appends a result of the pair lo < hi in the last block to its log. */
static void
pairlog_add(struct rating *r, int lo, int hi, int who)
{
	struct rpairlog **pp = &r->pl[(size_t)lo * r->cap + hi], *p;
	unsigned long step;

	/* one allocation a pair (most pairs of a big pool meet rarely) */
	if ((p = *pp) == NULL) {
		p = *pp = xcalloc(1, sizeof *p + PAIRLOG_MIN);
		p->cap = PAIRLOG_MIN;
	} else if (p->cap - p->len < PAIRLOG_MIN) {
		p->cap *= 2;
		p = *pp = xreallocarray(p, 1, sizeof *p + p->cap);
	}
	step = (unsigned long)(r->nblock - 1 - p->last);
	p->last = r->nblock - 1;
	if (step < 64) {
		p->s[p->len++] = (unsigned char)(step << 2 | (unsigned)who);
		return;
	}
	p->s[p->len++] = 3;
	for (; step >= 0x80; step >>= 7)
		p->s[p->len++] = (unsigned char)(step | 0x80);
	p->s[p->len++] = (unsigned char)step;
	p->s[p->len++] = (unsigned char)who;
}

/*
 * The weights of replicates x0 .. x0 + g - 1 of every block into
 * wg[block * stride + x - x0] (a block's weights side by side, for the
 * matrices of a group made at once), each block's generator in st
 * (seeded when x0 is 0) left where the next group starts.
 */
static void
boot_weights(const struct rating *r, struct rng *st, int x0, int g,
    int stride, unsigned char *wg)
{
	double cdf[RATE_POISSON_MAX];
	long bl;
	int x;

	rate_poisson_cdf(cdf);
	for (bl = 0; bl < r->nblock; bl++) {
		if (x0 == 0)
			rng_seed(&st[bl], seed_derive(r->opts.seed,
			    r->blk[bl].key));
		for (x = 0; x < g; x++)
			wg[bl * stride + x] =
			    (unsigned char)rate_poisson1(&st[bl], cdf);
	}
}

/*
 * The weighted win matrices of nx replicates (n * n apart, stride n) from
 * their blocks' weights wg[block * stride + replicate] and the pairs'
 * logs, a pair's log read once for them all: each pair's games summed in
 * game order, a win weighted share = 1 / (k - 1) and a tie share / 2, as
 * rate_add adds them to w.
 */
static void
boot_matrix(const struct rating *r, const unsigned char *wg, int stride,
    int nx, double *bm)
{
	double tu[64], td[64], up[BOOT_GROUP], down[BOOT_GROUP], share;
	size_t n = (size_t)r->n, nn = n * n, i, hi;
	const struct rpairlog *p;
	const unsigned char *q, *end, *w;
	unsigned long step;
	long bl;
	int k, c, sh, x;

	/* by k << 2 | who, what a weight of 1 adds up and down: adding 0
	 * (a block weighed 0, the loser's side) leaves a sum's bits as they
	 * are, and spares the branches a random weight and winner miss */
	memset(tu, 0, sizeof tu);
	memset(td, 0, sizeof td);
	for (k = 2; k <= MAX_PLAYERS; k++) {
		share = 1.0 / (k - 1);
		tu[k << 2] = td[k << 2 | 1] = share;
		tu[k << 2 | 2] = td[k << 2 | 2] = share / 2;
	}
	memset(bm, 0, (size_t)nx * nn * sizeof *bm);
	for (i = 0; i < n; i++)
		for (hi = i + 1; hi < n; hi++) {
			if ((p = r->pl[i * (size_t)r->cap + hi]) == NULL)
				continue;
			memset(up, 0, sizeof up);
			memset(down, 0, sizeof down);
			bl = 0;
			for (q = p->s, end = q + p->len; q < end; ) {
				if ((*q & 3) != 3) {
					bl += *q >> 2;
					c = *q++ & 3;
				} else {
					for (q++, step = 0, sh = 0; *q & 0x80;
					    q++, sh += 7)
						step |= (unsigned long)(*q &
						    0x7f) << sh;
					step |= (unsigned long)*q++ << sh;
					bl += (long)step;
					c = *q++;
				}
				c |= r->blk[bl].k << 2;
				/* each replicate's sums, side by side */
				w = wg + bl * stride;
				for (x = 0; x < nx; x++) {
					up[x] += w[x] * tu[c];
					down[x] += w[x] * td[c];
				}
			}
			for (x = 0; x < nx; x++) {
				bm[x * nn + i * n + hi] = up[x];
				bm[x * nn + hi * n + i] = down[x];
			}
		}
}

/*
 * Fits natural-log strengths by Hunter's MM iterations, cyclic (each
 * player's update uses the others' newest values); see tournament.h.
 */
int
bt_fit(int n, const double *w, int stride, double prior, double *lambda,
    int warm)
{
	double *gam, *wins, *nm, pr, num, den, nij, old, change, mean;
	int i, j, i0, j0, it;

	if (n < 2) {
		if (n == 1)
			lambda[0] = 0;
		return 0;
	}
	gam = xcalloc((size_t)n, sizeof *gam);
	wins = xcalloc((size_t)n, sizeof *wins);
	pr = prior / (n - 1);
	/* the games of each pair, once, not at every iteration: row by row
	 * there, read across the columns of w a tile at a time */
	nm = xreallocarray(NULL, (size_t)n * (size_t)n, sizeof *nm);
	for (i0 = 0; i0 < n; i0 += 64)
		for (j0 = 0; j0 < n; j0 += 64)
			for (i = i0; i < n && i < i0 + 64; i++)
				for (j = j0; j < n && j < j0 + 64; j++)
					nm[i * n + j] = w[i * stride + j] +
					    w[j * stride + i] + pr;
	for (i = 0; i < n; i++) {
		gam[i] = warm ? exp(lambda[i]) : 1;
		for (j = 0; j < n; j++)
			if (j != i)
				wins[i] += w[i * stride + j] + pr / 2;
	}
	for (it = 1; it <= BT_MAXITER; it++) {
		change = 0;
		for (i = 0; i < n; i++) {
			den = 0;
			for (j = 0; j < n; j++) {
				if (j == i)
					continue;
				nij = nm[i * n + j];
				if (nij > 0)
					den += nij / (gam[i] + gam[j]);
			}
			num = wins[i];
			old = gam[i];
			gam[i] = den > 0 && num > 0 ? num / den : old * 1e-3;
			if (fabs(log(gam[i] / old)) > change)
				change = fabs(log(gam[i] / old));
		}
		/* keep the geometric mean at 1 */
		mean = 0;
		for (i = 0; i < n; i++)
			mean += log(gam[i]);
		mean /= n;
		for (i = 0; i < n; i++)
			gam[i] *= exp(-mean);
		if (change < BT_TOL)
			break;
	}
	for (i = 0; i < n; i++)
		lambda[i] = log(gam[i]);
	free(gam);
	free(wins);
	free(nm);
	return it;
}

/* Returns 1 if every player can be reached from every other by wins. */
static int
connected(const struct rating *r)
{
	int n = r->n, *seen, *stack, dir, top, i, j, ok = 1;

	seen = xcalloc((size_t)n, sizeof *seen);
	stack = xcalloc((size_t)n, sizeof *stack);
	for (dir = 0; dir < 2 && ok; dir++) {
		memset(seen, 0, (size_t)n * sizeof *seen);
		top = 0;
		stack[top++] = 0;
		seen[0] = 1;
		while (top > 0) {
			i = stack[--top];
			for (j = 0; j < n; j++) {
				if (seen[j] || (dir == 0 ?
				    r->w[i * r->cap + j] :
				    r->w[j * r->cap + i]) <= 0)
					continue;
				seen[j] = 1;
				stack[top++] = j;
			}
		}
		for (i = 0; i < n; i++)
			if (!seen[i])
				ok = 0;
	}
	free(seen);
	free(stack);
	return ok;
}

/* Orders doubles ascending (qsort). */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Turns natural-log strengths into Elo: the pool mean or the anchor. */
void
rate_to_elo(const struct rating *r, const double *lambda, double *elo,
    int anchor)
{
	double shift = 0;
	int i;

	for (i = 0; i < r->n; i++)
		elo[i] = lambda[i] * ELO_PER_NAT;
	if (anchor >= 0)
		shift = r->opts.anchor_elo - elo[anchor];
	else {
		for (i = 0; i < r->n; i++)
			shift += elo[i];
		shift = r->opts.mean - shift / r->n;
	}
	for (i = 0; i < r->n; i++)
		elo[i] += shift;
}

/*
 * The players in rank order (r->order): by Elo, then by name for equal
 * ratings.  Equal is within RANK_TIE: the same games read in another
 * order (a local run, their merge as jobs) sum their thirds and sixths,
 * and the fit sweeps the players, in another order, and an exact tie
 * comes out some ten-millionths of an Elo apart either way.
 */
static void
rank_order(struct rating *r)
{
	int n = r->n, i, j, a, tmp;

	free(r->order);
	r->order = xcalloc((size_t)n, sizeof *r->order);
	for (i = 0; i < n; i++) {
		tmp = i;
		for (j = i; j > 0; j--) {
			a = r->order[j - 1];
			if (r->p[a].elo > r->p[tmp].elo + RANK_TIE ||
			    (fabs(r->p[a].elo - r->p[tmp].elo) <= RANK_TIE &&
			    strcmp(r->p[a].name, r->p[tmp].name) < 0))
				break;
			r->order[j] = a;
		}
		r->order[j] = tmp;
	}
}

/* Fits the ratings and their intervals and ranks; see tournament.h. */
int
rate_fit(struct rating *r, char *cause, size_t len)
{
	double *lambda, *lb, *elo, *col, *be, *nblam, *bm, s, s2, d, sd;
	struct rng *st;
	unsigned char *wg;
	int n = r->n, i, j, a, b, B = r->opts.boot, anchor = -1, nb, g, nm;
	unsigned slot;

	if (n == 0) {
		snprintf(cause, len, "no games to rate");
		return -1;
	}
	if (r->opts.anchor != NULL &&
	    (anchor = lookup(r, r->opts.anchor, &slot)) == -1) {
		snprintf(cause, len, "--anchor: no player called %s",
		    r->opts.anchor);
		return -1;
	}
	if (r->opts.prior <= 0 && n > 1 && !connected(r)) {
		snprintf(cause, len, "without a prior the ratings are "
		    "unbounded: some players won or lost every pairing "
		    "against the rest (use --prior above 0)");
		return -1;
	}
	lambda = xcalloc((size_t)n, sizeof *lambda);
	lb = xcalloc((size_t)n, sizeof *lb);
	elo = xcalloc((size_t)n, sizeof *elo);
	col = xcalloc((size_t)(B > 0 ? B : 1), sizeof *col);
	g = B < BOOT_GROUP ? B : BOOT_GROUP;
	/* the matrices made at once: a group's, or fewer for many players */
	nm = (int)fmax(1, fmin(g, BOOT_MATS / (8.0 * n * n)));
	bm = xcalloc((size_t)nm * (size_t)n * (size_t)n, sizeof *bm);
	st = xcalloc((size_t)(r->nblock > 0 ? r->nblock : 1), sizeof *st);
	wg = xcalloc((size_t)(r->nblock > 0 ? r->nblock : 1) *
	    (size_t)(g > 0 ? g : 1), sizeof *wg);
	free(r->belo);
	r->belo = xcalloc((size_t)(B > 0 ? B : 1) * (size_t)n,
	    sizeof *r->belo);
	if (r->warm && r->nlam > 0)
		memcpy(lambda, r->lam, (size_t)r->nlam * sizeof *lambda);
	bt_fit(n, r->w, r->cap, r->opts.prior, lambda, r->warm &&
	    r->nlam > 0);
	rate_to_elo(r, lambda, elo, anchor);
	for (i = 0; i < n; i++) {
		r->p[i].elo = elo[i];
		r->p[i].flag = r->p[i].pweight > 0 &&
		    (r->p[i].pscore <= 0 ||
		    r->p[i].pscore >= r->p[i].pweight);
		r->p[i].pm = r->p[i].lo = r->p[i].hi = NAN;
	}
	nblam = r->warm ? xcalloc((size_t)(B > 0 ? B : 1) * (size_t)n,
	    sizeof *nblam) : NULL;
	/* the finite replicates, kept in the first nb rows of belo; the
	 * warm starts of every replicate by its number */
	for (b = nb = 0; b < B; b++) {
		memcpy(lb, lambda, (size_t)n * sizeof *lb);
		if (r->warm && r->nlam > 0)
			memcpy(lb, r->blam + (size_t)b * r->nlam,
			    (size_t)r->nlam * sizeof *lb);
		if (b % g == 0)
			boot_weights(r, st, b, B - b < g ? B - b : g, g, wg);
		if (b % g % nm == 0)
			boot_matrix(r, wg + b % g, g, (int)fmin(nm, fmin(g -
			    b % g, B - b)), bm);
		bt_fit(n, bm + (size_t)(b % g % nm) * (size_t)n * (size_t)n, n,
		    fmax(r->opts.prior, RATE_BOOT_PRIOR), lb, 1);
		be = r->belo + (size_t)nb * n;
		rate_to_elo(r, lb, be, anchor);
		for (i = 0; i < n && isfinite(be[i]); i++)
			;
		/* the next warm start: this replicate, or the fit if lost */
		if (nblam != NULL)
			memcpy(nblam + (size_t)b * n, i == n ? lb : lambda,
			    (size_t)n * sizeof *lb);
		if (i == n)
			nb++;
	}
	if (r->warm) {
		free(r->blam);
		r->blam = nblam;
		r->lam = xreallocarray(r->lam, (size_t)n, sizeof *r->lam);
		memcpy(r->lam, lambda, (size_t)n * sizeof *lambda);
		r->nlam = n;
	}
	r->nboot = B = nb;
	if (B > 1) {
		for (i = 0; i < n; i++) {
			s = s2 = 0;
			for (b = 0; b < B; b++) {
				col[b] = r->belo[(size_t)b * n + i];
				s += col[b];
				s2 += col[b] * col[b];
			}
			s /= B;
			sd = sqrt(fmax(0, s2 / B - s * s) * B / (B - 1));
			r->p[i].pm = 1.96 * sd;
			qsort(col, (size_t)B, sizeof *col, cmp_double);
			r->p[i].lo = col[(int)floor(0.025 * (B - 1))];
			r->p[i].hi = col[(int)ceil(0.975 * (B - 1))];
		}
	}
	rank_order(r);
	for (i = 0; i < n; i++) {
		a = r->order[i];
		r->p[a].rank = i + 1;
		r->p[a].los_next = NAN;
		if (i + 1 == n || B < 2)
			continue;
		b = r->order[i + 1];
		d = r->p[a].elo - r->p[b].elo;
		s = s2 = 0;
		for (j = 0; j < B; j++) {
			sd = r->belo[(size_t)j * n + a] -
			    r->belo[(size_t)j * n + b];
			s += sd;
			s2 += sd * sd;
		}
		s /= B;
		sd = sqrt(fmax(0, s2 / B - s * s) * B / (B - 1));
		r->p[a].los_next = sd > 0 ? 0.5 * erfc(-d / (sd * M_SQRT2)) :
		    (d > 0 ? 1 : 0.5);
	}
	free(lambda);
	free(lb);
	free(elo);
	free(col);
	free(bm);
	free(st);
	free(wg);
	r->fitted = 1;
	return 0;
}

/* Frees the pool. */
void
rate_free(struct rating *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		free(r->p[i].name);
	free(r->p);
	free(r->w);
	free(r->met);
	for (i = 0; r->pl != NULL && i < r->cap * r->cap; i++)
		free(r->pl[i]);
	free(r->pl);
	free(r->blk);
	free(r->order);
	free(r->belo);
	free(r->hash);
	free(r->lam);
	free(r->blam);
	memset(r, 0, sizeof *r);
}
