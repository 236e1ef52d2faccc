/*
 * The match log (protocol.md, "The match log"): JSON lines composed in a
 * buffer and written whole, one write(2) per batch (after a 20 ms wait for
 * the bots, at 64 KiB, at each game's end), each line after the header
 * numbered ("n"); a lean log keeps only a sent message's kind, id and time
 * left, a received line is kept whole (base64 unless UTF-8 without NUL),
 * and a size cap ends the log with one "log_capped" line.
 */
#ifndef CARDARENA_LOG_H
#define CARDARENA_LOG_H

#include <stdint.h>

#include "proto.h"

struct mlog {
	int		fd;	/* -1: no log */
	int		hold;	/* keep lines (the handshake, before header) */
	struct buf	b;	/* complete lines not yet written */
	char		error[128];
	int		error_no;	/* the errno of a write error */
	int		lean;	/* no text of the messages sent */
	long long	max;	/* bytes; 0: no cap */
	long long	written;
	int		capped;	/* the cap was hit: nothing more is kept */
	long		lines;		/* lines begun (after the header) */
	long long	ahead;	/* bytes of the file reserved (KEEP_SIZE) */
	int		noahead;	/* the file cannot be reserved ahead */
	int		special;	/* not a regular file (/dev/null, a
					 * FIFO): its mode is left alone and
					 * no stderr files go beside it */
};

/* What a lean log keeps of a message sent. */
struct msgnote {
	const char	*kind;	/* its "type" */
	int64_t		 id;	/* request, error: its id (-1: none) */
	long		 tl;	/* request: time_left_ms */
};

/* Opens (truncates) path; NULL for no log.  -1 and a cause on failure. */
int	 mlog_open(struct mlog *, const char *, char *, size_t);
/* Returns 1 if lines are kept. */
int	 mlog_on(const struct mlog *);
/* Logs a message sent to a bot: msg is its JSON text (a \n may end it). */
void	 mlog_send(struct mlog *, int64_t, int, const struct msgnote *,
	    const char *, size_t);
/* Logs a line received from a bot, as a JSON string. */
void	 mlog_recv(struct mlog *, int64_t, int, const char *, size_t, int);
/* Puts line (a whole line with its \n) before everything held. */
void	 mlog_prepend(struct mlog *, const char *, size_t);
/* Returns 1 if there are lines that mlog_flush would write. */
int	 mlog_pending(const struct mlog *);
/* Writes the complete lines; -1 (and mlog.error) on a write error. */
int	 mlog_flush(struct mlog *);
/* Flushes and closes; -1 on a write or close error. */
int	 mlog_close(struct mlog *);

/*
 * Starts a line {"type":TYPE,"n":N and returns the buffer to add ,"k":v
 * to (inline: a literal TYPE's length is known at compile time).
 */
static inline struct buf *
mlog_begin(struct mlog *l, const char *type)
{
	buf_str(&l->b, "{\"type\":\"");
	buf_str(&l->b, type);
	buf_str(&l->b, "\",\"n\":");
	buf_int(&l->b, l->lines++);
	return &l->b;
}

/* Ends the line started by mlog_begin. */
static inline void
mlog_end(struct mlog *l)
{
	buf_add(&l->b, "}\n", 2);
}

#endif
