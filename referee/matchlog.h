/*
 * The lines match.c writes, one function each: in the log, the header, a
 * game's start, an action, a fault, a game's end, how a failed or stopped
 * match ended, and the match's result (each writes nothing when the log
 * is off; the file and its batching are log.h's); and a game's --results
 * line (its encoding is results.h's).
 */
#ifndef CARDARENA_MATCHLOG_H
#define CARDARENA_MATCHLOG_H

#include <stdint.h>

#include <jansson.h>

#include "botio.h"
#include "log.h"
#include "config.h"
#include "results.h"

/* How a game ended: its result and how it was cut. */
struct outcome {
	int	places[MAX_PLAYERS];
	double	scores[MAX_PLAYERS];
	int	cut;			/* by --max-decisions */
	int	capped;			/* by the game's max_turns, or cut */
	struct buf fin;			/* the all-seeing final view */
};

/*
 * Returns the header (a new object) of a match of cf with bots bots[0..n)
 * (their names as they said hello); opts is opts_json().
 */
json_t	*mlog_header_json(const struct match_config *, const char *nonce,
	    const json_t *opts, const struct mbot *bots, int n);
/*
 * Logs the start of game gi at time t: its deal seed, the bot at each of
 * its n seats, whether it is reported, and the whole deal st.
 */
void	 mlog_game_start(struct mlog *, int64_t t, int gi, uint64_t seed,
	    const int *seat_bot, int n, int reported, const struct game *,
	    const void *st);
/*
 * Logs the move a of seat at step of game gi, played for bot b (where it
 * came from, and the fault policy when not from b).
 */
void	 mlog_action(struct mlog *, int gi, long step, int seat,
	    const struct mbot *b, enum policy, const struct game *,
	    const void *st, struct action a);
/* Logs a fault of bot b at time t (id -1: no request). */
void	 mlog_fault(struct mlog *, int64_t t, int gi, const struct mbot *b,
	    enum fault, int64_t id, const char *detail);
/*
 * Logs the end of game gi at time t: its steps, its outcome and each of
 * the n bots' faults in it.
 */
void	 mlog_game_end(struct mlog *, int64_t t, int gi, long steps,
	    const struct outcome *, const struct mbot *bots, int n);
/* Logs the end of a match that failed ("error") or was stopped. */
void	 mlog_ended(struct mlog *, const char *type, int64_t t,
	    const char *detail);
/* Logs the match's result (its places already ranked) at time t. */
/* Returns the result line of the log and of bin/referee's stdout (new). */
json_t	*match_result_json(const struct match_result *);
void	 mlog_result(struct mlog *, int64_t t, const struct match_result *);
/*
 * Fills the results line of game gi, dealt from seed with the bot
 * seat_bot[s] at each of its n seats, from its outcome and the bots'
 * counts of its faults; log_path is the match log (NULL: none).
 */
void	 results_line(struct resline *, int gi, uint64_t seed,
	    const int *seat_bot, const struct outcome *,
	    const struct mbot *bots, int n, const char *log_path);

#endif
