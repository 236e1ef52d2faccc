/*
 * The text of the referee's messages to bots and of its substitute moves,
 * as library functions: the replay tool (tools/replay) rebuilds every
 * message of a match log with them to verify it byte for byte.  They write
 * exactly the bytes referee/match.c composes (protocol.md), so match.c can
 * call them instead of composing the same text inline.
 *
 * Every msg_* function appends one whole line, '\n' included, to a buffer.
 * Events are encoded once each, lazily, against the state at the time the
 * first message that carries them is built (as the referee does), and
 * handed to each seat once (struct evfeed).
 */
#ifndef CARDARENA_MESSAGES_H
#define CARDARENA_MESSAGES_H

#include <stdint.h>

#include "game.h"
#include "proto.h"

/* The most bytes of events one message carries (then the oldest are
 * left out, counted in one "missed" event). */
#define EVENTS_MAX	(MAX_LINE / 2)
#define SUBSTITUTE_SALT	0x5ab571747574e5ULL	/* seeds substitute moves */

/* The events of a game as text, and how far each seat has been told. */
struct evfeed {
	struct buf	 text;		/* each event's JSON, once */
	size_t		*off;		/* event i is text[off[i], off[i+1]) */
	size_t		 nenc, cap;
	size_t		 next[MAX_PLAYERS];	/* first event not yet told */
};

/* Appends the JSON of action a of seat (no newline). */
void	 msg_action(struct buf *, const struct game *, const void *st, int seat,
	    struct action);
/* Forgets every event and cursor (a new game); keeps the buffers. */
void	 evfeed_reset(struct evfeed *);
/* Frees the buffers. */
void	 evfeed_free(struct evfeed *);
/* Appends [the events of ev seat was told since its last message]. */
void	 evfeed_add(struct evfeed *, struct buf *, const struct game *,
	    const void *st, const struct events *, int seat);

/* The hello to bot (seated at seat for game 0); opts is opts_json(). */
void	 msg_hello(struct buf *, const struct game *, const json_t *opts,
	    int seat, int players, int ngames, int duplicate, int bot,
	    long time_per_move_ms, long time_bank_ms, long time_hello_ms);
/* The start of game gi for seat. */
void	 msg_start(struct buf *, const struct game *, const void *st,
	    int gi, int seat, int players);
/* A request to seat with its legal list l[0..n). */
void	 msg_request(struct buf *, const struct game *, const void *st,
	    int64_t id, int gi, int seat, int64_t time_left_ms,
	    struct evfeed *, const struct events *, const struct legal *,
	    int n);
/*
 * A fault notice: id < 0 writes null; action (the substitute move, or
 * NULL when the notice carries none) and retired as the referee sends them.
 */
void	 msg_error(struct buf *, int64_t id, const char *fault,
	    const char *message, const json_t *action, int retired);
/* The end of game gi for seat; final is the all-seeing view. */
void	 msg_end(struct buf *, const struct game *, const void *st, int gi,
	    int seat, int players, const int *places, const double *scores,
	    struct evfeed *, const struct events *, const json_t *final);
/* The last message of a match. */
void	 msg_bye(struct buf *);

/*
 * The move played for a seat that faulted or is not asked: the default
 * move, or (policy_random) a random entry of its legal list l[0..n) drawn
 * from the deal seed and the step, never from timing.
 */
struct action msg_substitute(const struct game *, const void *st, int seat,
	    int policy_random, uint64_t deal_seed, long step,
	    const struct legal *, int n);

#endif
