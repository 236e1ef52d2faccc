/*
 * bin/replay: reading a match log (protocol.md, "The match log"), re-running
 * its games with the rules engine to verify it and to rebuild every step,
 * and showing it: in the terminal, as the lines one bot received, or as a
 * self-contained HTML page.
 *
 * Ownership: a struct rlog owns its lines and their parsed JSON; a struct
 * replay owns its frames and games and borrows the log it was run on, which
 * must outlive it.
 */
#ifndef CARDARENA_REPLAY_H
#define CARDARENA_REPLAY_H

#include <stdio.h>

#include <jansson.h>

#include "game.h"
#include "match.h"
#include "messages.h"

#define REPLAY_LOG_FORMAT	2	/* the log version this replay reads */

/* One line of a log. */
struct rrec {
	char		*text;		/* the line, without its '\n' */
	size_t		 len;
	json_t		*j;		/* parsed */
	const char	*type;		/* j's "type" */
	int		 bot;		/* send and recv: the bot, else -1 */
	char		*msg;		/* a lean send: the text rebuilt */
	size_t		 msglen;
};

struct rlog {
	char		*path;
	struct rrec	*r;
	size_t		 n;
	json_t		*header;	/* borrowed from r[0] */
	int		 torn;		/* the last line was cut short */
	char		 torn_why[256];
};

/*
 * Debug text a bot wrote to stderr, attached to the request it follows, or
 * sent in an answer's "debug", attached to that answer's request.
 */
struct rdebug {
	int		 bot;
	int		 gi;		/* the game of the marker */
	int64_t		 id;		/* the request of the marker (0: none) */
	int		 answer;	/* from the answer's "debug", not stderr */
	char		*text;
};

/* A point of the replay: a game's deal, or the state after one action. */
struct frame {
	int		 game;		/* index into replay.games */
	long		 step;		/* the step in its game; -1 the deal */
	int		 seat;		/* who acted; -1 for the deal */
	int		 bot;
	int64_t		 id;		/* the request the action answered */
	size_t		 rec;		/* the log line of the action/deal */
	size_t		 emit_end;	/* the lines sent before it */
	const json_t	*action;	/* borrowed from the log */
	const char	*source;	/* "bot", "fault", "autoplay" */
	json_t		*all;		/* the all-seeing view after it */
	json_t		*events;	/* what it made happen (all-seeing) */
	json_t		*faults;	/* fault lines of the log it carries */
	json_t		*debug;		/* [{"seat","bot","text"}] */
	char		*label;
};

struct rgame {
	int		 gi;		/* the game's index in the match */
	uint64_t	 seed;
	int		 seats[MAX_PLAYERS];	/* the bot at each seat */
	size_t		 first;		/* its deal frame */
	const json_t	*end;		/* its game_end line, if any */
};

struct replay {
	const struct rlog	*log;
	const struct game	*g;
	struct opts		 o;
	void			*setup;
	void			*book;		/* the deal book's set-ups */
	int			 nbook;
	int			 players;
	uint64_t		 seed;
	struct frame		*f;
	size_t			 nf;
	struct rgame		*games;
	size_t			 ngames;
	struct rdebug		*dbg;
	size_t			 ndbg;
	long			 messages;	/* lines verified */
	int			 complete;	/* reached the result line */
	int			 capped;	/* the log ends at its size cap */
	char			 stopped[256];	/* why the referee was stopped
						   ("" if it was not) */
	int			 diverged;	/* verification failed */
	size_t			 where;		/* the line it failed at */
	char			 why[1024];
};

/* rlog.c */
/*
 * Reads a log; -1 and a cause if unreadable, not a log, from an unknown
 * format version, or damaged before its last line (a torn last line is
 * dropped and noted in torn).
 */
int	 rlog_read(struct rlog *, const char *, char *, size_t);
void	 rlog_free(struct rlog *);
/*
 * The raw bytes of the "msg" of a send line (what the bot received); for a
 * lean log's send line, the text the replay rebuilt (replay_run).
 */
const char *rlog_msg(const struct rrec *, size_t *);
/* The type of the message a send line carries, or "". */
const char *rlog_msg_type(const struct rrec *);
/* An integer field of a line's object (or any object), or def. */
long	 rlog_int(const json_t *, const char *, long def);
/* Is path a match log (its first line a header)? */
int	 rlog_is_log(const char *);
/*
 * If path is the log of a match that ended before its header was written
 * (stopped or failed while its bots started: one "aborted" or "error"
 * line), why it ended, a new string; else NULL.
 */
char	*rlog_headless(const char *);

/* verify.c */
/*
 * Re-runs the log's games, checking every message, action and result, and
 * builds the frames; stops at the first divergence (diverged, where, why).
 * -1 and a cause only when the header cannot be used at all.
 */
int	 replay_run(struct replay *, const struct rlog *, char *, size_t);
void	 replay_free(struct replay *);
/* The frame whose lines a seat's bot had received by frame k: [0, end). */
size_t	 replay_seen_end(const struct replay *, size_t);
/* The seat bot sits at in game, or -1. */
int	 replay_seat_of(const struct replay *, int, int);

/* show.c */
/*
 * Frame k from the all-seeing view (seat -1), or as exactly the lines the
 * bot at seat received since the previous frame.
 */
void	 render_frame(FILE *, const struct replay *, size_t, int);
/* A game's result. */
void	 render_result(FILE *, const struct replay *, int);
/* The match's heading, then every frame from from on. */
void	 render_match(FILE *, const struct replay *, size_t, int);
/* Steps through the frames on a terminal: keys move, q quits. */
int	 render_interactive(const struct replay *, size_t, int);

/* html.c */
json_t	*html_document(const struct replay *);
int	 html_write(FILE *, const json_t *, char *, size_t);

#endif
