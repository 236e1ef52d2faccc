/*
 * The match log: JSON lines, every one with a "type" (protocol.md, "The
 * match log").  Lines are composed in a buffer and written whole with one
 * write(2) per batch, never a partial line, and the batch is written
 * before the referee waits for any bot: a killed referee leaves a readable
 * prefix.  A log without a file still composes nothing: callers test
 * mlog_on() first.
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
};

/* Opens (truncates) path; NULL for no log.  -1 and a cause on failure. */
int	 mlog_open(struct mlog *, const char *, char *, size_t);
/* Returns 1 if lines are kept. */
int	 mlog_on(const struct mlog *);
/* Starts a line {"type":TYPE and returns the buffer to add ,"k":v to. */
struct buf *mlog_begin(struct mlog *, const char *);
/* Ends the line started by mlog_begin. */
void	 mlog_end(struct mlog *);
/* Logs a message sent to a bot: msg is its JSON text (a \n may end it). */
void	 mlog_send(struct mlog *, int64_t, int, const char *, size_t);
/* Logs a line received from a bot, as a JSON string. */
void	 mlog_recv(struct mlog *, int64_t, int, const char *, size_t, int);
/* Puts line (a whole line with its \n) before everything held. */
void	 mlog_prepend(struct mlog *, const char *, size_t);
/* Writes the complete lines; -1 (and mlog.error) on a write error. */
int	 mlog_flush(struct mlog *);
/* Flushes and closes; -1 on a write or close error. */
int	 mlog_close(struct mlog *);

#endif
