/*
 * The bot protocol's text layer (protocol.md): the fault kinds, scores as
 * JSON, and the reading of a bot's answers against the legal list it was
 * sent (the buffer messages are composed in is buf.h).
 *
 * Messages are composed as text once and the same bytes go to the bot and
 * into the match log, so nothing on the hot path is encoded twice.
 */
#ifndef CARDARENA_PROTO_H
#define CARDARENA_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "game.h"

#define CARDARENA_VERSION	"0.1.0"
#define PROTOCOL_VERSION	1
#define LOG_FORMAT_VERSION	2
#define MAX_LINE		(1024 * 1024)	/* bytes of a line, sans \n */
#define MAX_NAME		64		/* bytes of a bot's name */

/* What a bot can do wrong; the names are the protocol's. */
enum fault {
	FAULT_TIMEOUT,		/* no answer in time */
	FAULT_EXIT,		/* exited, crashed or closed its output */
	FAULT_MALFORMED,	/* not a JSON object, or a missing field */
	FAULT_LONG_LINE,	/* a line over MAX_LINE bytes */
	FAULT_WRONG_ID,		/* an answer to no open request */
	FAULT_ILLEGAL,		/* an action not in the legal list */
	FAULT_LIMIT,		/* killed by a resource limit (contain.h) */
	NFAULT
};

extern const char *const fault_names[NFAULT];

/*
 * Returns 1 if the compact JSON text of an object (as buf_json or the
 * codecs write it) has key at its top level with the value true.
 */
int	 json_text_true(const char *, size_t, const char *);
/* A score as JSON: an integer when it is whole. New reference. */
json_t	*score_json(double);
/* Appends a score as score_json() encodes it. */
void	 buf_score(struct buf *, double);

/* Returns 1 if the line holds nothing but spaces and tabs. */
int	 proto_blank(const char *, size_t);
/* An answer by index (and amount) against the legal list: -1 with *a set,
 * else the fault kind and a cause. */
int	 proto_index(const struct legal *, int, long long, int, long long,
	    struct action *, char *, size_t);
/* Reads the common answer {"id":N,"index":I[,"amount":A]} without a JSON
 * parser: 0, or -1 for any other line (left to the full parser). */
int	 proto_quick(const char *, size_t, int64_t *, long long *, int *,
	    long long *);
/*
 * Reads an answer object against the legal list l[0..n) of seat: by
 * "index" (plus "amount" for a ranged entry) or by "action" value.  Sets
 * *a and returns -1 when it is a legal choice; else returns the fault
 * (FAULT_MALFORMED or FAULT_ILLEGAL) with a cause.
 */
int	 proto_action(const struct game *, const void *, int, const json_t *,
	    const struct legal *, int, struct action *, char *, size_t);

#endif
