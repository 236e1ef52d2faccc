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
 * The win matrix is sparse: only the pairs that met, hashed as they come
 * and laid out by rows (each row's columns ascending) for a fit, which
 * sweeps every row in the dense order (a prior's virtual draws join the
 * pairs that never met): the dense fit's bits in memory that grows with
 * the pairs, not n * n.  That sweep costs n * n an iteration; above
 * dense_max players (RATE_DENSE_MAX, a tournament's most bots: a ladder of
 * more versions) the prior's share over every other player is summed by
 * bins of strength instead, each bin a series in its players' distances
 * from its centre (to some 1e-17 of its sum), kept as the sweep updates a
 * player: near-linear in the players, the same fit to its tolerance but
 * no longer the dense sweep's bits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rating/rate.h"

#define ELO_PER_NAT	(400.0 / M_LN10)
#define BT_TOL		1e-9
#define BT_MAXITER	200000
#define RANK_TIE	1e-3		/* Elo: ratings this close rank by name */
#define RLOG_MAX	48	/* bytes: the most a record takes */
#define RLOG_CHUNK	(1 << 16)	/* bytes of the spill read at once */

/* The pairs as a matrix by rows: row i's entries rs[i] .. rs[i + 1] - 1,
 * each a column (ascending) and its pair's index << 1 | (i > column). */
struct spm {
	int		 n;
	long		*rs;
	int		*col;
	unsigned	*pi;
};

static void	 grow(struct rating *);
static long	 pair_index(struct rating *, int, int);
static long	 pair_find(const struct rating *, int, int);
static void	 spm_build(struct spm *, int, long, const int *);
static void	 spm_free(struct spm *);
static int	 sfit(const struct spm *, const double *, size_t, double,
		    double *, int, int);
struct pbins;
static void	 pb_build(struct pbins *, int, const double *);
static void	 pb_put(struct pbins *, int, double, double);
static double	 pb_sum(const struct pbins *, double, const double *);
static int	 binned(const struct rating *, double);
static int	 boot_fit(struct rating *, const struct spm *, int,
		    const double *);
static void	 boot_stats(struct rating *);
static int	 lookup(const struct rating *, const char *, unsigned *);
static unsigned	 name_hash(const char *);
static int	 connected(const struct rating *, const struct spm *);
static int	 cmp_double(const void *, const void *);
static void	 rank_order(struct rating *);
/* What a pass over the bootstrap's record keeps. */
struct bootpass {
	double		 tu[64], td[64], cdf[RATE_POISSON_MAX];
	double		*acc;
	unsigned char	*wt;	/* the block's weights */
	int		 k;	/* its players a game */
};

static void	 log_room(struct rating *);
static void	 log_put(struct rating *, uint64_t);
static void	 log_block(struct rating *, uint64_t, int);
static size_t	 boot_chunk(const struct rating *, unsigned char *, size_t,
		    int, int, int, struct bootpass *);
static int	 boot_pass(struct rating *, int, int, unsigned char *,
		    double *);

/* Starts an empty rating pool. */
void
rate_init(struct rating *r, const struct rate_opts *o)
{
	memset(r, 0, sizeof *r);
	r->log.fd = -1;
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

/* Doubles the room for players. */
static void
grow(struct rating *r)
{
	int oc = r->cap, nc = oc ? oc * 2 : 8, i;
	unsigned slot;

	r->p = xreallocarray(r->p, (size_t)nc, sizeof *r->p);
	memset(r->p + oc, 0, (size_t)(nc - oc) * sizeof *r->p);
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

/* The hash slot of the pair lo < hi: its index there, or -1. */
static long
pair_slot(const struct rating *r, int lo, int hi, long *slot)
{
	uint64_t mask = (uint64_t)r->phcap - 1, h;
	const struct rpair *p;

	h = ((uint64_t)lo << 32 | (uint64_t)hi) * 0x9e3779b97f4a7c15ULL;
	for (h = (h >> 20) & mask; r->phash[h] != -1; h = (h + 1) & mask) {
		p = &r->pr[r->phash[h]];
		if (p->lo == lo && p->hi == hi)
			break;
	}
	*slot = (long)h;
	return r->phash[h];
}

/* The index of the pair lo < hi, or -1 if they never met. */
static long
pair_find(const struct rating *r, int lo, int hi)
{
	long slot;

	return r->phcap > 0 ? pair_slot(r, lo, hi, &slot) : -1;
}

/* The index of the pair lo < hi, added (never met) if new. */
static long
pair_index(struct rating *r, int lo, int hi)
{
	long slot, i;

	if (r->phcap > 0 && (i = pair_slot(r, lo, hi, &slot)) != -1)
		return i;
	if (2 * (r->npair + 1) > r->phcap) {
		free(r->phash);
		r->phcap = r->phcap ? 2 * r->phcap : 64;
		r->phash = xreallocarray(NULL, (size_t)r->phcap,
		    sizeof *r->phash);
		memset(r->phash, 0xff, (size_t)r->phcap * sizeof *r->phash);
		for (i = 0; i < r->npair; i++) {
			pair_slot(r, r->pr[i].lo, r->pr[i].hi, &slot);
			r->phash[slot] = i;
		}
	}
	if (r->npair == r->prcap) {
		r->prcap = r->prcap ? 2 * r->prcap : 64;
		r->pr = xreallocarray(r->pr, (size_t)r->prcap, sizeof *r->pr);
	}
	pair_slot(r, lo, hi, &slot);
	i = r->phash[slot] = r->npair++;
	memset(&r->pr[i], 0, sizeof r->pr[i]);
	r->pr[i].lo = lo;
	r->pr[i].hi = hi;
	return i;
}

/* The games a and b shared and their wins; see rate.h. */
long
rate_pair(const struct rating *r, int a, int b, double *wab, double *wba)
{
	long i;

	*wab = *wba = 0;
	if (a == b || (i = pair_find(r, a < b ? a : b, a < b ? b : a)) == -1)
		return 0;
	*wab = r->pr[i].w[a > b];
	*wba = r->pr[i].w[a < b];
	return r->pr[i].met;
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
	struct rpair *p;
	double share, wij, wji;
	long pi;
	int a, b, i, j, f, who, B = r->opts.boot;

	r->games++;
	r->fitted = 0;
	if (B > 0 && (!r->havekey || key != r->lastkey || r->lastk != k)) {
		r->nblock++;
		log_block(r, key, k);
	}
	r->lastkey = key;
	r->lastk = k;
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
			pi = pair_index(r, i < j ? i : j, i < j ? j : i);
			p = &r->pr[pi];
			p->w[i > j] += wij;
			p->w[i < j] += wji;
			p->met++;
			r->p[i].pscore += wij;
			r->p[j].pscore += wji;
			r->p[i].pweight += share;
			r->p[j].pweight += share;
			if (B == 0)
				continue;
			/* who won, of the pair's lower index (0), the
			 * higher (1), or neither (2) */
			who = wij == wji ? 2 : (wij > wji) == (i < j) ? 0 : 1;
			log_put(r, (uint64_t)pi << 2 | (unsigned)who);
		}
}

/* Makes room for RLOG_MAX more bytes, spilling what is held if due. */
static void
log_room(struct rating *r)
{
	struct rlog *l = &r->log;
	FILE *fp;

	if (l->mem == 0)
		l->mem = r->logmem > 0 ? r->logmem : RATE_LOG_MEM;
	if (l->len + RLOG_MAX > l->mem && l->len > 0 && l->fd != -2) {
		/* the spill: an unlinked temporary file (if none can be
		 * made or written, the record stays in memory) */
		if (l->fp == NULL && (fp = tmpfile()) != NULL) {
			l->fp = fp;
			l->fd = fileno(fp);
		}
		if (l->fp != NULL && pwrite(l->fd, l->buf, l->len,
		    (off_t)l->spilled) == (ssize_t)l->len) {
			l->spilled += (long)l->len;
			l->len = 0;
		} else if (l->fp == NULL)
			l->fd = -2;
	}
	if (l->cap - l->len < RLOG_MAX) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->buf = xreallocarray(l->buf, 1, l->cap);
	}
}

/* Appends a varint to the bootstrap's record. */
static void
log_put(struct rating *r, uint64_t v)
{
	struct rlog *l = &r->log;

	log_room(r);
	for (; v >= 0x80; v >>= 7)
		l->buf[l->len++] = (unsigned char)(v | 0x80);
	l->buf[l->len++] = (unsigned char)v;
}

/* Starts a block of k players a game and key in the record. */
static void
log_block(struct rating *r, uint64_t key, int k)
{
	struct rlog *l = &r->log;
	int i;

	log_put(r, 3);
	l->buf[l->len++] = (unsigned char)k;
	for (i = 0; i < 8; i++)
		l->buf[l->len++] = (unsigned char)(key >> 8 * i);
	memset(l->buf + l->len, 0, RLOG_RNG);
	l->len += RLOG_RNG;
}

/*
 * The records of buf[0 .. n) for a pass (see boot_pass); whole records
 * only (one cut by the end waits for the next chunk, unless last): the
 * bytes done.
 */
static size_t
boot_chunk(const struct rating *r, unsigned char *buf, size_t n, int last,
    int x0, int nx, struct bootpass *bp)
{
	unsigned char *q = buf, *end = buf + n, *wt = bp->wt;
	struct rng g;
	uint64_t v, key;
	double *a, *tu = bp->tu, *td = bp->td;
	size_t done = 0;
	int x, sh, c;

	while (q < end && (last || end - q >= RLOG_MAX)) {
		for (v = 0, sh = 0; *q & 0x80; q++, sh += 7)
			v |= (uint64_t)(*q & 0x7f) << sh;
		v |= (uint64_t)*q++ << sh;
		if (v == 3) {
			bp->k = *q++;
			for (key = 0, sh = 0; sh < 64; sh += 8)
				key |= (uint64_t)*q++ << sh;
			if (x0 == 0)
				rng_seed(&g, seed_derive(r->opts.seed, key));
			else
				memcpy(&g, q, sizeof g);
			for (x = 0; x < nx; x++)
				wt[x] = (unsigned char)rate_poisson1(&g,
				    bp->cdf);
			memcpy(q, &g, sizeof g);
			q += RLOG_RNG;
		} else {
			c = bp->k << 2 | (int)(v & 3);
			/* each replicate's sums, side by side */
			a = bp->acc + (v >> 2) * (uint64_t)nx * 2;
			for (x = 0; x < nx; x++) {
				a[2 * x] += wt[x] * tu[c];
				a[2 * x + 1] += wt[x] * td[c];
			}
		}
		done = (size_t)(q - buf);
	}
	return done;
}

/*
 * One pass over the record for replicates x0 .. x0 + nx - 1: their
 * weighted win matrices, pair p's w[0] and w[1] (as struct rpair has
 * them) of replicate x at acc[(p * nx + x) * 2], each pair's games summed
 * in game order, a win weighted share = 1 / (k - 1) and a tie share / 2
 * by its block's weight, as rate_add adds them to the pair's w; each
 * block's weights drawn from Poisson(1), its generator seeded from its
 * key when x0 is 0 and left in the record where the next pass resumes
 * it (a chunk of the spilled part read, done and written back at once).
 * -1 if its temporary file fails.
 */
static int
boot_pass(struct rating *r, int x0, int nx, unsigned char *wt,
    double *acc)
{
	struct rlog *l = &r->log;
	struct bootpass bp;
	unsigned char *chunk;
	double share;
	long off;
	size_t n, done;
	int k;

	/* by k << 2 | who, what a weight of 1 adds up and down: adding 0
	 * (a block weighed 0, the loser's side) leaves a sum's bits as they
	 * are, and spares the branches a random weight and winner miss */
	memset(&bp, 0, sizeof bp);
	for (k = 2; k <= MAX_PLAYERS; k++) {
		share = 1.0 / (k - 1);
		bp.tu[k << 2] = bp.td[k << 2 | 1] = share;
		bp.tu[k << 2 | 2] = bp.td[k << 2 | 2] = share / 2;
	}
	rate_poisson_cdf(bp.cdf);
	bp.wt = wt;
	bp.acc = acc;
	bp.k = 2;
	memset(acc, 0, (size_t)r->npair * (size_t)nx * 2 * sizeof *acc);
	memset(wt, 0, (size_t)nx);
	chunk = xreallocarray(NULL, 1, RLOG_CHUNK);
	for (off = 0; off < l->spilled; off += (long)done) {
		n = (size_t)(l->spilled - off < RLOG_CHUNK ? l->spilled - off :
		    RLOG_CHUNK);
		if (pread(l->fd, chunk, n, (off_t)off) != (ssize_t)n)
			break;
		done = boot_chunk(r, chunk, n, off + (long)n == l->spilled,
		    x0, nx, &bp);
		if (pwrite(l->fd, chunk, done, (off_t)off) != (ssize_t)done)
			break;
	}
	free(chunk);
	if (off < l->spilled)
		return -1;
	boot_chunk(r, l->buf, l->len, 1, x0, nx, &bp);
	return 0;
}

/*
 * The matrix of npair pairs (lohi[2 * p], lohi[2 * p + 1], lo < hi) by
 * rows, each row's columns ascending without a sort: the columns below
 * the row first (the pairs taken by lo ascending into their hi's row),
 * then those above (by hi ascending into their lo's row).
 */
static void
spm_build(struct spm *m, int n, long npair, const int *lohi)
{
	long *at, *cnt, *by, e, p;
	int i, side, key, row;

	m->n = n;
	m->rs = xcalloc((size_t)n + 1, sizeof *m->rs);
	m->col = xreallocarray(NULL, (size_t)(2 * npair + 1),
	    sizeof *m->col);
	m->pi = xreallocarray(NULL, (size_t)(2 * npair + 1), sizeof *m->pi);
	at = xcalloc((size_t)n + 1, sizeof *at);
	cnt = xcalloc((size_t)n + 1, sizeof *cnt);
	by = xreallocarray(NULL, (size_t)(npair + 1), sizeof *by);
	for (p = 0; p < npair; p++) {
		m->rs[lohi[2 * p] + 1]++;
		m->rs[lohi[2 * p + 1] + 1]++;
	}
	for (i = 0; i < n; i++) {
		m->rs[i + 1] += m->rs[i];
		at[i] = m->rs[i];
	}
	for (side = 0; side < 2; side++) {
		/* the pairs by their key side (lo, then hi), counted */
		memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
		for (p = 0; p < npair; p++)
			cnt[lohi[2 * p + side] + 1]++;
		for (i = 0; i < n; i++)
			cnt[i + 1] += cnt[i];
		for (p = 0; p < npair; p++)
			by[cnt[lohi[2 * p + side]]++] = p;
		for (e = 0; e < npair; e++) {
			p = by[e];
			key = lohi[2 * p + side];
			row = lohi[2 * p + 1 - side];
			m->col[at[row]] = key;
			m->pi[at[row]++] = (unsigned)p << 1 | (unsigned)(side ==
			    0);
		}
	}
	free(at);
	free(cnt);
	free(by);
}

/* Frees a matrix's rows. */
static void
spm_free(struct spm *m)
{
	free(m->rs);
	free(m->col);
	free(m->pi);
	memset(m, 0, sizeof *m);
}

/*
 * The players by bins of log-strength PB_WIDTH wide (a player outside
 * the bins made at the iteration's start is summed on its own): each
 * bin's sums of (y - y0)^m, m < PB_TERMS, over its players' strengths y,
 * y0 its centre's, so that the sum of 1 / (x + y) over its players is
 * the series of (-1)^m s[m] / (x + y0)^(m + 1), whose terms fall by
 * y0 (e^(PB_WIDTH / 2) - 1) / (x + y0) < 0.14 at least.
 */
#define PB_WIDTH	0.25
#define PB_TERMS	24
#define PB_MARGIN	8	/* bins made beyond the players' range */
#define PB_MAXBINS	4096
struct pbins {
	int	 lo, nb, cap;	/* the first bin's key, the bins, room */
	double	*y0, *s;	/* nb centres; nb * PB_TERMS sums */
	int	*bin;		/* n: a player's bin, or -1: on its own */
	int	*out, nout;	/* the players on their own */
	int	*at;		/* n: a player's place in out */
	double	 grow;		/* e^(PB_WIDTH / 2) - 1 */
};

/* Puts every player of strengths gam[0 .. n) in its bin anew. */
static void
pb_build(struct pbins *b, int n, const double *gam)
{
	double k, kmin = INFINITY, kmax = -INFINITY;
	int i;

	for (i = 0; i < n; i++) {
		k = floor(log(gam[i]) / PB_WIDTH);
		kmin = fmin(kmin, k);
		kmax = fmax(kmax, k);
	}
	b->lo = (int)fmax(-1e9, kmin) - PB_MARGIN;
	b->nb = (int)fmin(PB_MAXBINS, fmin(1e9, kmax) - b->lo + 1 +
	    PB_MARGIN);
	if (b->nb > b->cap) {
		b->cap = b->nb;
		b->y0 = xreallocarray(b->y0, (size_t)b->cap, sizeof *b->y0);
		b->s = xreallocarray(b->s, (size_t)b->cap * PB_TERMS,
		    sizeof *b->s);
	}
	memset(b->s, 0, (size_t)b->nb * PB_TERMS * sizeof *b->s);
	for (i = 0; i < b->nb; i++)
		b->y0[i] = exp(((double)(b->lo + i) + 0.5) * PB_WIDTH);
	b->grow = expm1(PB_WIDTH / 2);
	b->nout = 0;
	for (i = 0; i < n; i++) {
		b->bin[i] = -1;
		b->at[i] = -1;
		pb_put(b, i, NAN, gam[i]);
	}
}

/*
 * Moves player i from strength old (NAN: in no bin yet) to y: its powers
 * taken from its bin's sums and added to those of y's bin (or it joins
 * the players on their own).
 */
static void
pb_put(struct pbins *b, int i, double old, double y)
{
	double k, d, p, *s;
	int m, bi;

	if (!isnan(old) && (bi = b->bin[i]) >= 0) {
		s = b->s + (size_t)bi * PB_TERMS;
		d = old - b->y0[bi];
		for (m = 0, p = 1; m < PB_TERMS; m++, p *= d)
			s[m] -= p;
	} else if (!isnan(old)) {
		/* off the list: the last one takes its place */
		b->out[b->at[i]] = b->out[--b->nout];
		b->at[b->out[b->at[i]]] = b->at[i];
	}
	k = floor(log(y) / PB_WIDTH) - b->lo;
	if (k >= 0 && k < b->nb) {
		bi = b->bin[i] = (int)k;
		s = b->s + (size_t)bi * PB_TERMS;
		d = y - b->y0[bi];
		for (m = 0, p = 1; m < PB_TERMS; m++, p *= d)
			s[m] += p;
	} else {
		b->bin[i] = -1;
		b->at[i] = b->nout;
		b->out[b->nout++] = i;
	}
}

/* The sum of 1 / (x + y) over every player's strength y (gam). */
static double
pb_sum(const struct pbins *b, double x, const double *gam)
{
	const double *s;
	double sum = 0, part, q, p, rho, bound;
	int i, m;

	for (i = 0; i < b->nb; i++) {
		s = b->s + (size_t)i * PB_TERMS;
		if (s[0] == 0)
			continue;
		q = 1 / (x + b->y0[i]);
		rho = b->y0[i] * b->grow * q;
		part = s[0] * q;
		/* each term at most s[0] q rho^m: on until that is nothing */
		for (m = 1, p = q, bound = rho; m < PB_TERMS && bound > 1e-17;
		    m++, bound *= rho) {
			p *= -q;
			part += s[m] * p;
		}
		sum += part;
	}
	for (i = 0; i < b->nout; i++)
		sum += 1 / (x + gam[b->out[i]]);
	return sum;
}

/* Whether the fit of r with prior sums it by bins (see the head). */
static int
binned(const struct rating *r, double prior)
{
	return prior > 0 && r->n > (r->dense_max > 0 ? r->dense_max :
	    RATE_DENSE_MAX);
}

/*
 * Fits natural-log strengths by Hunter's MM iterations, cyclic (each
 * player's update uses the others' newest values), on the matrix m whose
 * pair p's weighted wins are v[p * vs] (lo over hi) and v[p * vs + 1]:
 * every row swept over every column as a dense matrix would be (a pair
 * that never met counts the prior's share alone), in the same order, so
 * the same bits; with no prior only the pairs that met; with bins, the
 * prior's share over every other player summed by bins of strength
 * (struct pbins), then the pairs that met.
 */
static int
sfit(const struct spm *m, const double *v, size_t vs, double prior,
    double *lambda, int warm, int bins)
{
	struct pbins pb;
	double *gam, *wins, *nm, pr, num, den, old, change, mean, gi, wij;
	long e, ee;
	unsigned f;
	int n = m->n, i, j, lim, it;

	if (n < 2) {
		if (n == 1)
			lambda[0] = 0;
		return 0;
	}
	gam = xcalloc((size_t)n, sizeof *gam);
	wins = xcalloc((size_t)n, sizeof *wins);
	pr = prior / (n - 1);
	memset(&pb, 0, sizeof pb);
	if (bins) {
		pb.bin = xcalloc((size_t)n, sizeof *pb.bin);
		pb.at = xcalloc((size_t)n, sizeof *pb.at);
		pb.out = xcalloc((size_t)n, sizeof *pb.out);
	}
	/* the games of each pair that met, once, not at every iteration */
	nm = xreallocarray(NULL, (size_t)m->rs[n] + 1, sizeof *nm);
	for (i = 0; i < n; i++) {
		gam[i] = warm ? exp(lambda[i]) : 1;
		/* without a prior (adding 0 keeps a sum's bits) or with
		 * bins, the pairs that met alone */
		for (e = m->rs[i], j = pr > 0 && !bins ? 0 : n; j < n ||
		    e < m->rs[i + 1]; j++) {
			if (j < n && j == i)
				continue;
			wij = 0;
			if (e < m->rs[i + 1] && (j >= n || m->col[e] == j)) {
				f = m->pi[e] & 1;
				wij = v[(m->pi[e] >> 1) * vs + f];
				nm[e] = wij + v[(m->pi[e] >> 1) * vs + 1 - f] +
				    (bins ? 0 : pr);
				e++;
			}
			wins[i] += wij + (bins ? 0 : pr / 2);
		}
		if (bins)
			wins[i] += (n - 1) * pr / 2;
	}
	for (it = 1; it <= BT_MAXITER; it++) {
		change = 0;
		if (bins)
			pb_build(&pb, n, gam);
		for (i = 0; i < n; i++) {
			den = 0;
			gi = gam[i];
			ee = m->rs[i + 1];
			if (bins) {
				den = pr * (pb_sum(&pb, gi, gam) - 0.5 / gi);
				for (e = m->rs[i]; e < ee; e++)
					if (nm[e] > 0)
						den += nm[e] / (gi +
						    gam[m->col[e]]);
			}
			for (e = m->rs[i], j = 0; !bins; e++) {
				/* the pairs that never met, up to the next
				 * that did: the prior's share alone */
				lim = e < ee ? m->col[e] : n;
				for (; pr > 0 && j < lim; j++)
					if (j != i)
						den += pr / (gi + gam[j]);
				if (e == ee)
					break;
				if (nm[e] > 0)
					den += nm[e] / (gi + gam[lim]);
				j = lim + 1;
			}
			num = wins[i];
			old = gam[i];
			gam[i] = den > 0 && num > 0 ? num / den : old * 1e-3;
			if (bins)
				pb_put(&pb, i, old, gam[i]);
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
	free(pb.y0);
	free(pb.s);
	free(pb.bin);
	free(pb.at);
	free(pb.out);
	return it;
}

/* Returns 1 if every player can be reached from every other by wins. */
static int
connected(const struct rating *r, const struct spm *m)
{
	int n = r->n, *seen, *stack, dir, top, i, j, ok = 1;
	long e;

	seen = xcalloc((size_t)n, sizeof *seen);
	stack = xcalloc((size_t)n, sizeof *stack);
	for (dir = 0; dir < 2 && ok; dir++) {
		memset(seen, 0, (size_t)n * sizeof *seen);
		top = 0;
		stack[top++] = 0;
		seen[0] = 1;
		while (top > 0) {
			i = stack[--top];
			for (e = m->rs[i]; e < m->rs[i + 1]; e++) {
				j = m->col[e];
				/* i's wins over j (dir 0), or j's over i */
				if (seen[j] || r->pr[m->pi[e] >> 1].w[(m->pi[e] &
				    1) ^ (unsigned)dir] <= 0)
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

/*
 * The bootstrap: B replicates of the fit on m, each warm-started from the
 * point fit lambda (or from its own last result when warm), their finite
 * Elo ratings kept in the first nboot rows of belo (bn = n players a row).
 * -1 if the record's temporary file fails.
 */
static int
boot_fit(struct rating *r, const struct spm *m, int anchor,
    const double *lambda)
{
	double *lb, *be, *nblam, *acc;
	unsigned char *wt;
	size_t mem = r->bootmem > 0 ? r->bootmem : RATE_BOOT_MEM;
	int n = r->n, i, b, B = r->opts.boot, nb, g, rc = 0;

	lb = xcalloc((size_t)n, sizeof *lb);
	/* the replicates of a pass: as many matrices as mem holds */
	g = (int)fmax(1, fmin(B, (double)mem / (16.0 * (double)(r->npair +
	    1))));
	acc = xcalloc((size_t)g * 2 * (size_t)(r->npair + 1), sizeof *acc);
	wt = xcalloc((size_t)g, 1);
	free(r->belo);
	r->belo = xcalloc((size_t)(B > 0 ? B : 1) * (size_t)n,
	    sizeof *r->belo);
	r->bn = n;
	nblam = r->warm ? xcalloc((size_t)(B > 0 ? B : 1) * (size_t)n,
	    sizeof *nblam) : NULL;
	/* the finite replicates, kept in the first nb rows of belo; the
	 * warm starts of every replicate by its number */
	for (b = nb = 0; b < B; b++) {
		memcpy(lb, lambda, (size_t)n * sizeof *lb);
		if (r->warm && r->nlam > 0 && r->blam != NULL)
			memcpy(lb, r->blam + (size_t)b * r->nlam,
			    (size_t)r->nlam * sizeof *lb);
		if (b % g == 0 && boot_pass(r, b, B - b < g ? B - b : g, wt,
		    acc) == -1) {
			rc = -1;
			break;
		}
		sfit(m, acc + 2 * (b % g), 2 * (size_t)(B - b / g * g < g ?
		    B - b / g * g : g), fmax(r->opts.prior, RATE_BOOT_PRIOR),
		    lb, 1, binned(r, fmax(r->opts.prior, RATE_BOOT_PRIOR)));
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
	}
	r->nboot = nb;
	free(lb);
	free(acc);
	free(wt);
	return rc;
}

/*
 * Each player's interval from the bootstrap's ratings (the last fit's
 * that had one: a player new since keeps none).
 */
static void
boot_stats(struct rating *r)
{
	double *col, s, s2, sd;
	int i, b, B = r->nboot, n = r->bn;

	for (i = n; i < r->n; i++)
		r->p[i].pm = r->p[i].lo = r->p[i].hi = NAN;
	if (B < 2)
		return;
	col = xcalloc((size_t)B, sizeof *col);
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
	free(col);
}

/* Fits the ratings and their intervals and ranks; see tournament.h. */
int
rate_fit(struct rating *r, char *cause, size_t len)
{
	struct spm m;
	double *lambda, *elo, s, s2, d, sd;
	int *lohi, n = r->n, i, j, a, b, B, anchor = -1;
	long p;
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
	lohi = xreallocarray(NULL, (size_t)(2 * r->npair + 1), sizeof *lohi);
	for (p = 0; p < r->npair; p++) {
		lohi[2 * p] = r->pr[p].lo;
		lohi[2 * p + 1] = r->pr[p].hi;
	}
	spm_build(&m, n, r->npair, lohi);
	free(lohi);
	if (r->opts.prior <= 0 && n > 1 && !connected(r, &m)) {
		spm_free(&m);
		snprintf(cause, len, "without a prior the ratings are "
		    "unbounded: some players won or lost every pairing "
		    "against the rest (use --prior above 0)");
		return -1;
	}
	lambda = xcalloc((size_t)n, sizeof *lambda);
	elo = xcalloc((size_t)n, sizeof *elo);
	if (r->warm && r->nlam > 0)
		memcpy(lambda, r->lam, (size_t)r->nlam * sizeof *lambda);
	sfit(&m, r->pr != NULL ? r->pr[0].w : NULL, sizeof *r->pr /
	    sizeof (double), r->opts.prior, lambda, r->warm && r->nlam > 0,
	    binned(r, r->opts.prior));
	rate_to_elo(r, lambda, elo, anchor);
	for (i = 0; i < n; i++) {
		r->p[i].elo = elo[i];
		r->p[i].flag = r->p[i].pweight > 0 &&
		    (r->p[i].pscore <= 0 ||
		    r->p[i].pscore >= r->p[i].pweight);
	}
	if (!r->point_only) {
		for (i = 0; i < n; i++)
			r->p[i].pm = r->p[i].lo = r->p[i].hi = NAN;
		if (boot_fit(r, &m, anchor, lambda) == -1) {
			snprintf(cause, len, "the bootstrap's record: its "
			    "temporary file: %s", strerror(errno));
			spm_free(&m);
			free(lambda);
			free(elo);
			return -1;
		}
	}
	boot_stats(r);
	if (r->warm) {
		r->lam = xreallocarray(r->lam, (size_t)n, sizeof *r->lam);
		memcpy(r->lam, lambda, (size_t)n * sizeof *lambda);
		r->nlam = n;
	}
	B = r->nboot;
	rank_order(r);
	for (i = 0; i < n; i++) {
		a = r->order[i];
		r->p[a].rank = i + 1;
		r->p[a].los_next = NAN;
		if (i + 1 == n || B < 2)
			continue;
		b = r->order[i + 1];
		if (a >= r->bn || b >= r->bn)
			continue;
		d = r->p[a].elo - r->p[b].elo;
		s = s2 = 0;
		for (j = 0; j < B; j++) {
			sd = r->belo[(size_t)j * r->bn + a] -
			    r->belo[(size_t)j * r->bn + b];
			s += sd;
			s2 += sd * sd;
		}
		s /= B;
		sd = sqrt(fmax(0, s2 / B - s * s) * B / (B - 1));
		r->p[a].los_next = sd > 0 ? 0.5 * erfc(-d / (sd * M_SQRT2)) :
		    (d > 0 ? 1 : 0.5);
	}
	spm_free(&m);
	free(lambda);
	free(elo);
	r->fitted = 1;
	return 0;
}

/* Frees the pool. */
void
rate_free(struct rating *r)
{
	long i;

	for (i = 0; i < r->n; i++)
		free(r->p[i].name);
	free(r->p);
	free(r->pr);
	free(r->phash);
	free(r->log.buf);
	if (r->log.fp != NULL)
		fclose(r->log.fp);
	free(r->order);
	free(r->belo);
	free(r->hash);
	free(r->lam);
	free(r->blam);
	memset(r, 0, sizeof *r);
}
