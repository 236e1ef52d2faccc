/*
 * The C bot SDK: the protocol loop of cardarena, so a C bot only chooses.
 *
 * The messages (protocol.md is the full contract), one JSON object a line:
 *   referee -> bot  {"type":"hello","protocol":1,"game":G,"options":{..},
 *                    "seat":S,"players":P,"games":K,"limits":{..}}
 *   bot -> referee  {"type":"hello","name":NAME,"version":V}
 *   referee -> bot  {"type":"start","game":I,"seat":S,...}
 *   referee -> bot  {"type":"request","id":N,"game":I,"view":{..},
 *                    "events":[..],"legal":[..],"time_left_ms":T}
 *   bot -> referee  {"id":N,"index":I} (+ "amount":A for a ranged entry)
 *   referee -> bot  {"type":"end","game":I,"places":[..],"scores":[..]}
 *   referee -> bot  {"type":"error",...}   (a fault of ours, for our log)
 *   referee -> bot  {"type":"bye"}         then the bot exits
 *
 * Ownership: the json_t objects handed to callbacks are borrowed; they live
 * until the callback returns (hello: for the whole game).
 *
 * Speed: a bot that reads only some parts of a request says so with
 * bot_set_wants() before bot_main() (or its user with --wants LIST on the
 * command line, e.g. --wants legal); the referee then leaves the others
 * out (the hello's "wants", protocol.md), so there is less to parse.  The
 * SDK parses a message only when someone reads it: a start is scanned for
 * its game and seat, and an end or an error is not parsed at all when the
 * bot has no on_message callback.  A message is parsed by jload.h's reader
 * (the tree json_loadb makes, about three times cheaper), json_loadb
 * itself for what that reader gives up on.
 */
#ifndef CARDARENA_BOT_H
#define CARDARENA_BOT_H

#include <stdint.h>

#include <jansson.h>

#include "rng.h"

#define BOT_SDK_VERSION	"1"	/* sent in the hello */
#define BOT_PROTOCOL	1	/* the protocol it speaks */

struct bot {
	const char	*name;
	json_t		*hello;		/* the referee's hello */
	const char	*game;		/* hello.game */
	int		 seat;		/* this game's seat */
	int		 players;
	struct rng	 rng;		/* per game: seed_derive(seed ^ nonce, game) */
	uint64_t	 seed;
	uint64_t	 nonce;		/* hello.nonce: differs between matches */
	void		*arg;		/* the bot's own state */
	char		*say;		/* bot_say text for the next answer */
};

/*
 * Returns the index of the chosen entry of request["legal"], setting
 * *amount for a ranged entry.  An out-of-range index is the bot's fault.
 */
typedef int	(*bot_choose_fn)(struct bot *, const json_t *request,
		    int32_t *amount);
/* Sees every other message (hello, start, end, error); may be NULL. */
typedef void	(*bot_message_fn)(struct bot *, const json_t *msg);

/* The parts of a request (and of start and end) a bot reads. */
#define BOT_WANT_VIEW	0x1u	/* "view" */
#define BOT_WANT_EVENTS	0x2u	/* "events" */
#define BOT_WANT_LEGAL	0x4u	/* "legal" */
#define BOT_WANT_ALL	(BOT_WANT_VIEW | BOT_WANT_EVENTS | BOT_WANT_LEGAL)

/* Asks for only these parts (BOT_WANT_*; all by default); before bot_main. */
void	bot_set_wants(unsigned);

/*
 * Runs the protocol loop on stdin/stdout until "bye" or end of input.
 * Understands --seed N, --wants LIST, --help and --version; returns the
 * exit status for main.
 */
int	bot_main(int argc, char **argv, const char *name, bot_choose_fn,
	    bot_message_fn, void *arg);

/* A uniformly random legal entry (and a uniform amount in its range). */
int	bot_random_choice(struct bot *, const json_t *legal, int32_t *amount);

/* Writes a debug line to stderr (the referee saves it, with turn markers). */
void	bot_debug(struct bot *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Adds a line to the "debug" text of the answer being chosen (call it from
 * choose); the replays show it beside the move.
 */
void	bot_say(struct bot *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
