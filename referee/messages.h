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

/* The parts of a message a bot wants (its hello's "wants"). */
#define WANT_VIEW	0x1u	/* "view" of start, request and end */
#define WANT_EVENTS	0x2u	/* "events" of request and end */
#define WANT_LEGAL	0x4u	/* "legal" of request */
#define WANT_ALL	(WANT_VIEW | WANT_EVENTS | WANT_LEGAL)

/* The events of a game as text, and how far each seat has been told. */
struct evfeed {
	struct buf	 text;		/* each event's JSON, once */
	size_t		*off;		/* event i and a comma: text[off[i], off[i+1]) */
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

#define NONCE_LEN	16	/* hex digits of a match's nonce */

/*
 * The match's public nonce: the first NONCE_LEN hex digits of SHA-256 of
 * the match seed, from which the seed cannot be found; out holds
 * NONCE_LEN + 1 bytes.
 */
void	 match_nonce(uint64_t seed, char *out);
/*
 * The hello to bot (seated at seat for game 0); opts is opts_json(),
 * nonce the match's nonce (NULL: none, as in logs written before it).
 */
void	 msg_hello(struct buf *, const struct game *, const json_t *opts,
	    int seat, int players, int ngames, int duplicate, int bot,
	    long time_per_move_ms, long time_bank_ms, long time_hello_ms,
	    const char *nonce);
/*
 * Reads the "wants" of a bot's hello answer into a WANT_* mask: WANT_ALL
 * when it has none; names it does not know are ignored.  -1 and a cause
 * (the mask WANT_ALL) when it is not an array of strings.
 */
int	 msg_wants(const json_t *hello, unsigned *, char *, size_t);
/* The start of game gi for seat; its view only if wants has WANT_VIEW. */
void	 msg_start(struct buf *, const struct game *, const void *st,
	    int gi, int seat, int players, unsigned wants);
/*
 * A request to seat with its legal list l[0..n), with the parts of wants
 * (the events not wanted are passed over all the same).
 */
void	 msg_request(struct buf *, const struct game *, const void *st,
	    int64_t id, int gi, int seat, int64_t time_left_ms,
	    struct evfeed *, const struct events *, const struct legal *,
	    int n, unsigned wants);
/*
 * A fault notice: id < 0 writes null; action (the substitute move, or
 * NULL when the notice carries none) and retired as the referee sends them.
 */
void	 msg_error(struct buf *, int64_t id, const char *fault,
	    const char *message, const json_t *action, int retired);
/* The end of game gi for seat; final is the all-seeing view (both it and
 * the events only as wants says). */
void	 msg_end(struct buf *, const struct game *, const void *st, int gi,
	    int seat, int players, const int *places, const double *scores,
	    struct evfeed *, const struct events *, const json_t *final,
	    unsigned wants);
/* msg_end with the final view as its JSON text (encoded once per game). */
void	 msg_end_text(struct buf *, const struct game *, const void *st,
	    int gi, int seat, int players, const int *places,
	    const double *scores, struct evfeed *, const struct events *,
	    const char *final, size_t, unsigned wants);
/* Appends seat's view (SEAT_ALL: the all-seeing one) as JSON text. */
void	 msg_view(struct buf *, const struct game *, const void *st,
	    int seat);
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
