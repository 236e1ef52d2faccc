/*
 * A match log's header (protocol.md, "The match log"), read and checked
 * for the replay: the game and its options, the seed and the hello's
 * nonce, the games and the order they were played in, the limits and the
 * fault policy, the bots, and the deals it fixes.  What the views show
 * goes into the struct replay; what re-running the games needs, into a
 * struct rhead (verify.c).
 */
#ifndef CARDARENA_REPLAY_HEAD_H
#define CARDARENA_REPLAY_HEAD_H

#include "playorder.h"
#include "replay.h"

struct rhead {
	struct replay		*rp;		/* what it was read for */
	const struct rlog	*l;		/* the log, header and path */
	const struct game	*g;
	json_t			*optsj;		/* the options, as the rules
						   write them */
	int			 P;
	int			 ngames;	/* the match's games */
	int			 duplicate;
	const char		*policy;
	long			 max_faults;	/* per bot per game; 0: none */
	long			 tpm, tbank, thello;
	char			 nonce_s[NONCE_LEN + 1];
	const char		*nonce;		/* in each hello, or NULL */
	const json_t		*game_list;
	int			*list;		/* its games */
	struct playorder	 po;
	long			 max_dec;	/* --max-decisions, or 0 */
};

/*
 * Reads l's header into rh, and into rp its game, options, players, seed,
 * set-up and deal book; -1 and a cause (with the log's path and line) if
 * it cannot be used.  Free rh with rhead_free, whatever this returned.
 */
int	 rhead_read(struct rhead *, struct replay *, const struct rlog *,
	    char *, size_t);
/* Frees what rhead_read allocated in rh (rp's are replay_free's). */
void	 rhead_free(struct rhead *);

#endif
