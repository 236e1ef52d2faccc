/*
 * Ratings (rate.c): the Bradley-Terry fit of the pairwise results of
 * multi-player games, on the Elo scale, with bootstrap intervals.
 *
 * Ownership: every structure here owns what it points to and is released
 * by its _free function; names and strings handed in are copied.  Library
 * functions return -1 (or NULL) and write a cause; only main() exits.
 */
#ifndef CARDARENA_RATING_RATE_H
#define CARDARENA_RATING_RATE_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"

struct rate_opts {
	int		 boot;		/* bootstrap replicates, 0 for none */
	double		 prior;		/* virtual drawn games per player */
	const char	*anchor;	/* a player's name, or NULL: pool mean */
	double		 anchor_elo;
	double		 mean;		/* pool mean (default 1500) */
	uint64_t	 seed;		/* of the bootstrap */
};

struct rplayer {
	char	*name;
	long	 games;
	double	 place_sum;
	long	 firsts;
	long	 faults[NTFAULT];
	double	 pscore, pweight;	/* weighted pairwise score, weight */
	/* filled by rate_fit */
	double	 elo;
	double	 pm;		/* half-width of the 95% interval */
	double	 lo, hi;	/* 2.5% and 97.5% bootstrap percentiles */
	int	 flag;		/* won or lost every pairing: prior-bound */
	int	 rank;		/* 1-based after rate_fit */
	double	 los_next;	/* likelihood of superiority over rank+1 */
};

/*
 * The bootstrap's record, in game order: each pair result a varint of
 * pair index << 2 | who, who 0 (the pair's lower index won), 1 (the
 * higher won) or 2 (a tie); a block's start (a new one where the key or
 * the players a game change) the byte 3, its players a game (a byte),
 * its key (8 bytes, low first) and its weights' generator (RLOG_RNG
 * bytes, rewritten by each pass of rate_fit: the next group of
 * replicates resumes it).  Held in memory up to mem bytes, the rest
 * appended to an unlinked temporary file (fd) as it comes: a byte or
 * three a pair result, whatever the number of games.
 */
#define RLOG_RNG	32
struct rlog {
	unsigned char	*buf;
	size_t		 len, cap, mem;
	int		 fd;		/* the spilled part, or -1 */
	long		 spilled;	/* bytes in it */
	void		*fp;		/* its FILE */
};

/*
 * A pair of players that met: lo < hi, w[0] the weighted wins of lo over
 * hi and w[1] of hi over lo (summed game by game), the games they shared.
 */
struct rpair {
	double		 w[2];
	long		 met;
	int		 lo, hi;
};

struct rating {
	struct rate_opts opts;
	int		 n, cap;
	struct rplayer	*p;
	/* the pairs that met, in the order they first met, found by an
	 * open-addressing hash of (lo, hi): memory in pairs, not n * n */
	struct rpair	*pr;
	long		 npair, prcap;
	long		*phash;	/* pair index or -1 */
	long		 phcap;
	/* the bootstrap's record, replayed a group of replicates at a
	 * time by rate_fit (their matrices at most bootmem bytes; 0: a
	 * default; so is logmem, the record's bytes held in memory) */
	struct rlog	 log;
	long		 nblock;
	size_t		 logmem, bootmem;
	int		*hash;	/* open addressing: player index or -1 */
	int		 hcap;
	long		 games;
	uint64_t	 lastkey;	/* the last game's block */
	int		 havekey, lastk;
	int		*order;	/* players by rank after rate_fit */
	double		*belo;	/* boot * bn bootstrap ratings */
	int		 nboot;	/* the finite ones, first in belo */
	int		 bn;	/* players in belo */
	int		 fitted;
	/* set by the caller before a rate_fit: the point ratings only,
	 * the intervals kept from the last fit that had the bootstrap
	 * (a player new since has none) */
	int		 point_only;
	/* players up to which the prior is summed pair by pair, the dense
	 * fit's bits (0: RATE_DENSE_MAX); above, by bins of strength */
	int		 dense_max;
	/* warm starts (set warm): the last fit's log-strengths */
	int		 warm;
	int		 nlam;	/* players in them */
	double		*lam;	/* nlam */
	double		*blam;	/* boot * nlam */
};

void	 rate_init(struct rating *, const struct rate_opts *);
/* The index of a player, added if new. */
int	 rate_player(struct rating *, const char *);
/* The index of a player, or -1 if it has none. */
int	 rate_find(const struct rating *, const char *);
/*
 * Adds one finished game of k players (indices from rate_player) in the
 * bootstrap block blockkey (all games of one duplicate deal).
 */
void	 rate_add(struct rating *, uint64_t blockkey, int k,
	    const int *players, const int *places,
	    const long (*faults)[NTFAULT]);
/*
 * The games players a and b shared (0 if they never met), with a's
 * weighted wins over b into *wab and b's over a into *wba.
 */
long	 rate_pair(const struct rating *, int a, int b, double *wab,
	    double *wba);
/* The block key of (journal, table, deal). */
uint64_t rate_blockkey(uint64_t journal, long table, long deal);
/*
 * Fits the ratings (and the bootstrap intervals when boot > 0), ranks
 * the players; -1 and a cause (an unknown anchor, no prior when one is
 * needed).  With warm set, every fit starts from the last fit's result
 * (the ladder refitting as games come), else from scratch; with
 * point_only set, without the bootstrap (see struct rating).
 */
int	 rate_fit(struct rating *, char *, size_t);
void	 rate_free(struct rating *);

/*
 * The bootstrap's pieces, for tests/t_rate.c's reference replay: a
 * replicate draws each block's weight from Poisson(1), at most
 * RATE_POISSON_MAX (rate_poisson1 on the distribution function that
 * rate_poisson_cdf fills, RATE_POISSON_MAX values), and fits with a
 * prior of at least RATE_BOOT_PRIOR; rate_to_elo turns natural-log
 * strengths into Elo (the pool mean, or the player anchor if >= 0).
 */
#define RATE_BOOT_PRIOR		1e-3
#define RATE_LOG_MEM		(4 << 20)	/* logmem's default */
#define RATE_BOOT_MEM		(32 << 20)	/* bootmem's default */
#define RATE_POISSON_MAX	30
#define RATE_DENSE_MAX		4096	/* dense_max's default: MAX_BOTS */
struct rng;
void	 rate_poisson_cdf(double *);
int	 rate_poisson1(struct rng *, const double *);
void	 rate_to_elo(const struct rating *, const double *, double *, int);

#endif
