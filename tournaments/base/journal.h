/*
 * The append-only results journal (journal.c): its lines read and written,
 * the one translation of a referee's results line into a journal game, and
 * the set of games already done.
 *
 * Ownership: every structure here owns what it points to and is released
 * by its _free function; names and strings handed in are copied.  Library
 * functions return -1 (or NULL) and write a cause; only main() exits.
 */
#ifndef CARDARENA_BASE_JOURNAL_H
#define CARDARENA_BASE_JOURNAL_H

#include <sys/types.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"
#include "results.h"

#define JOURNAL_NAME	"journal.jsonl"
#define JLINE_MAX	(1 << 20)	/* longest journal line we accept */

/* One finished game as the journal holds it; strings are borrowed. */
struct jgame {
	long		 table;
	long		 game;
	long		 deal;		/* duplicate block within the table */
	int		 k;		/* seats */
	const char	*bots[MAX_PLAYERS];	/* by seat */
	int		 places[MAX_PLAYERS];	/* by seat */
	double		 scores[MAX_PLAYERS];	/* by seat */
	long		 faults[MAX_PLAYERS][NTFAULT];	/* by seat */
	int		 capped;
	const char	*log;
	const json_t	*line;		/* the line it was parsed from, or NULL */
	/* the line's bytes (no newline) when it is in the canonical form
	 * (json_dumps of jgame_json, strings of printable ASCII), else NULL;
	 * such a line is read by jgame_scan and has no json_t */
	const char	*text;
	size_t		 textlen;
};

struct jreader {
	/* Called with the header line (borrowed); -1 stops with cause. */
	int	(*header)(void *, const json_t *, char *, size_t);
	/* Called for every game line; -1 stops with cause. */
	int	(*game)(void *, const struct jgame *, char *, size_t);
	/* Called for a line skipped as damaged (not the torn last one). */
	void	(*warn)(void *, long lineno, const char *cause);
	void	*arg;
	int	 repair;	/* truncate a torn last line away */
	off_t	 from;		/* start at this byte, after the header
				 * (0: the whole journal) ... */
	long	 from_line;	/* ... which is this line's end */
	long	 lines;		/* out: game lines read */
	long	 torn;		/* out: 1 if a torn last line was dropped */
	off_t	 upto;		/* out: the end of the last line taken */
	long	 upto_line;	/* out: its number */
};

/*
 * Reads a journal line by line (memory bounded by the longest line),
 * calling the reader's callbacks; a damaged last line is torn and
 * dropped (and cut off the file with repair).  A journal that grows is
 * read on from where the last read took its last line (from, from_line:
 * the last read's upto, upto_line).  -1 and a cause.
 */
int	 journal_read(const char *path, struct jreader *, char *, size_t);
/* Parses one game line into g (pointing into j); -1 and a cause. */
int	 jgame_parse(const json_t *, struct jgame *, char *, size_t);
/*
 * Reads a game line of n bytes (no newline) in the canonical form into g
 * without a JSON tree, its strings copied into out (n bytes at least);
 * -1 if the line is not in that form (jgame_parse decides it then).  A
 * line it takes reads as jgame_parse reads it.
 */
int	 jgame_scan(const char *, size_t n, struct jgame *, char *out);
/* Encodes a game as a journal line object: a new reference. */
json_t	*jgame_json(const struct jgame *, const json_t *seed);
/*
 * 1 if s is written in JSON as its own bytes (printable ASCII, no '"' nor
 * '\\'): the canonical form copies it as it is.
 */
int	 json_plain(const char *);
/*
 * The text of a game's journal line (no newline), byte for byte what
 * json_dumps(jgame_json(g, seed), JSON_COMPACT) gives, written without
 * a tree when its strings are plain ASCII and its scores whole: a new
 * string of *len bytes, or NULL if it cannot be encoded.
 */
char	*jgame_text(const struct jgame *, const json_t *seed, size_t *len);
/*
 * The journal game of a referee run's results line, played at table with
 * seats seats (duplicate: its deal is the game over the seats) and its
 * log (or NULL): names[b] the name of the run's bot b.  The one
 * translation of a results line, tournament run's and the ladder's.
 */
void	 jgame_of_result(struct jgame *, long table, const struct resline *,
	    int seats, int duplicate, const char *const *names,
	    const char *log);
/*
 * Opens a journal for appending (created if missing, *created then 1,
 * its name durable only once journal_sync_dir has returned); -1 and a
 * cause.
 */
int	 journal_open(const char *path, int *created, char *, size_t);
/* fsyncs the directory of a journal just created; -1 and a cause. */
int	 journal_sync_dir(const char *path, char *, size_t);
/*
 * Appends one line (a newline is added) in a single write(2), without
 * fsync: the line survives the process being killed, and a crash of the
 * machine only once journal_sync has returned.  -1 and a cause.
 */
int	 journal_write(int fd, const json_t *, char *, size_t);
/* journal_write of a game's line (jgame_text: no tree); -1 and a cause. */
int	 jgame_write(int fd, const struct jgame *, const json_t *seed, char *,
	    size_t);
/* fsyncs the journal (the group commit); -1 and a cause. */
int	 journal_sync(int fd, char *, size_t);

/*
 * The group commit off the caller's thread: a thread of its own fsyncs
 * the journal (and, once, the directory of a journal just created) when
 * kicked, so that a slow disk never holds the caller (a runner starting
 * referees, reading their results).
 */
struct jsync {
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 fd;
	char		*path;
	int		 dir;		/* the directory still to fsync */
	int		 thread;	/* th runs (else kicks sync inline) */
	int		 want, busy, quit;
	char		 cause[256];	/* the first failure, or "" */
};

/*
 * Starts the commits of journal fd at path (dir: its directory too, a
 * journal just created); without a thread they are made inline.
 */
void	 jsync_start(struct jsync *, int fd, const char *path, int dir);
/*
 * Starts a commit of every line written so far: 1, or 0 while the last
 * one still runs (kick again later).
 */
int	 jsync_kick(struct jsync *);
/* -1 and the cause if a commit failed. */
int	 jsync_failed(struct jsync *, char *, size_t);
/*
 * Waits for the commit running, if any, and commits every line written
 * so far here and now; -1 and a cause if that or an earlier one failed.
 */
int	 jsync_flush(struct jsync *, char *, size_t);
/* Ends the thread (after its commit); the journal stays open. */
void	 jsync_stop(struct jsync *);

/* The games already done per table: a prefix count plus stragglers. */
struct doneset {
	long	 ntables;
	long	 gpt;		/* games per table */
	long	*next;		/* games 0..next-1 are done */
	struct doneextra {
		long	*v;
		int	 n, cap;
	}	*extra;		/* done games above next, sorted */
};

void	 doneset_init(struct doneset *, long ntables, long gpt);
/* Marks a game done: 0 if new, 1 if it already was, -1 if out of range. */
int	 doneset_add(struct doneset *, long table, long game);
int	 doneset_has(const struct doneset *, long table, long game);
void	 doneset_free(struct doneset *);

#endif
