/*
 * The results line: what bin/referee --results writes for each finished
 * game and what every runner reads back (tournaments/pool/pool.c), as one
 * struct with one encoder and one decoder, fuzzed as a pair
 * (tests/t_results.c); the canonical-form scanners (cs_*) the decoder
 * and the journal's reader share.  Also the one table of fault names: the
 * protocol's kinds (proto.h), the limits (contain.h), and the kinds the
 * tournament tables count, with the mapping between them.
 */
#ifndef CARDARENA_RESULTS_H
#define CARDARENA_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "contain.h"
#include "game.h"
#include "proto.h"

#define RES_LOG_MAX	4096	/* bytes of a results line's log path */
#define RES_LINE_MAX	65536	/* the longest results line a reader takes */

/*
 * The kinds of fault a tournament counts per bot, in the order of its
 * tables, then the parts of two of them: which timeouts were at the hello,
 * which limits were hit (in contain.h's LIMIT_ order).
 */
enum tfault {
	TF_TIMEOUT,
	TF_CRASH,
	TF_ILLEGAL,	/* illegal or malformed answers */
	TF_LIMIT,	/* killed by a resource limit */
	TF_HELLO,	/* of TF_TIMEOUT: no hello answer in time */
	TF_CPU,		/* of TF_LIMIT: by limit */
	TF_MEMORY,
	TF_FSIZE,
	NTFAULT
};
#define NTFAULT_MAIN	(TF_LIMIT + 1)	/* the kinds the tables show */

/* The journal's and the reports' names of the tfault kinds. */
extern const char *const tfault_names[NTFAULT];
/* The tfault kind each protocol fault (enum fault) is counted as. */
extern const enum tfault fault_tkind[NFAULT];

/* One finished game, everything per bot index (the referee's -b order). */
struct resline {
	long		 game;		/* index in the match */
	int64_t		 seed;		/* the deal's seed */
	int		 n;		/* bots (= seats) */
	int		 seats[MAX_PLAYERS];	/* bot index at each seat */
	int		 places[MAX_PLAYERS];	/* 1 = first */
	double		 scores[MAX_PLAYERS];
	long		 kinds[MAX_PLAYERS][NFAULT];	/* faults by kind */
	long		 hello[MAX_PLAYERS];	/* of the timeouts, at hello */
	long		 limits[MAX_PLAYERS][NLIMIT];	/* of the limit faults */
	int		 retired[MAX_PLAYERS];	/* by the fault cap */
	int		 capped;	/* stopped by --max-decisions */
	char		 log[RES_LOG_MAX];	/* the match log, "" for none */
};

/* Appends r's results line, with its newline. */
void	 resline_encode(struct buf *, const struct resline *);
/*
 * Writes r's results line to fd whole; -1 with errno on a write error
 * (ENOSPC for a write that took nothing).
 */
int	 resline_write(int, const struct resline *);
/*
 * Reads one results line (len bytes, no newline needed) of a match of n
 * bots into r; -1 and a cause if it is not one (every field checked).
 * A line in resline_encode's form is read by resline_scan, others by
 * resline_parse.
 */
int	 resline_decode(const char *, size_t, int n, struct resline *,
	    char *, size_t);
/*
 * Reads a line in exactly resline_encode's form (whole scores, a log of
 * printable ASCII without escapes) as resline_parse would; -1 for any
 * other text, good or bad (resline_parse then decides).
 */
int	 resline_scan(const char *, size_t, int n, struct resline *);
/* 1 if two lines say the same, field by field (the readers' tests). */
int	 resline_same(const struct resline *, const struct resline *);
/* resline_decode with jansson alone, for every JSON form of the line. */
int	 resline_parse(const char *, size_t, int n, struct resline *,
	    char *, size_t);
/*
 * A cursor over a line in a canonical form (the bytes jansson's or the
 * encoders' compact form writes), its strings copied to out, NUL-ended;
 * the scanners of resline_scan and the journal's jgame_scan.
 */
struct cscan {
	const char	*p, *end;
	char		*out;
};
#define CS_LIT(c, s)	cs_lit((c), (s), sizeof(s) - 1)
#define SCORE_MAX	8999999999999999ULL	/* score_json's whole scores */

/* Takes the literal s of n bytes; -1 if the text is not it. */
int	 cs_lit(struct cscan *, const char *, size_t);
/*
 * Takes an integer as jansson writes one (no leading zero, no "-0"), at
 * most max in magnitude, negative only with neg; -1 if it is not one.
 */
int	 cs_num(struct cscan *, int neg, unsigned long long max,
	    long long *);
/*
 * Takes a string of printable ASCII without escapes (what jansson writes
 * unchanged), copied NUL-ended to the cursor's out (room for the rest of
 * the text); -1 if it is not one.
 */
int	 cs_str(struct cscan *, const char **);
/* Adds a bot's faults of r into counts by tfault kind (NTFAULT longs). */
void	 resline_tfaults(const struct resline *, int bot, long *);

#endif
