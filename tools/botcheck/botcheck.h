/*
 * bin/botcheck: checks a bot program before it enters a tournament, by
 * playing it against random bots through the referee's match runner
 * (match_run) for each game with its default options and a few random
 * option sets, then reading each match log for what the bot did: its
 * handshake, its answers' timing, malformed lines, illegal actions,
 * early exits and the size of its stderr.
 *
 * Ownership: struct botstats holds no pointers; the strings vis_text()
 * and optgen_random() return belong to the caller.
 */
#ifndef CARDARENA_BOTCHECK_H
#define CARDARENA_BOTCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "contain.h"
#include "game.h"
#include "proto.h"

#define BC_NOTES	4	/* fault details kept per kind */
#define BC_NOTE_LEN	320	/* bytes of one note, made visible */
#define BC_NAME_LEN	(MAX_NAME * 4 + 1)	/* a visible bot name */
#define NOTE_HELLO	NFAULT		/* notes: the handshake's faults */
#define NOTE_LEFT	(NFAULT + 1)	/* notes: processes left behind */
#define NNOTE		(NFAULT + 2)	/* notes: then one slot per fault */

/* What the logs say of the checked bot, for one match or summed. */
struct botstats {
	long	 matches;		/* matches that ended with a result */
	long	 aborted;		/* matches that did not */
	long	 games;			/* games played */
	long	 requests;		/* requests sent to the bot */
	long	 answered;		/* answers received (timed) */
	long	 slow;			/* answers over the move's time */
	int64_t	 time_sum_us;		/* over the answered requests */
	int64_t	 time_max_us;
	long	 hello_faults;		/* faults before the first game */
	long	 hello_timeouts;	/* of which timeouts */
	long	 faults[NFAULT];	/* faults after the handshake */
	long	 limits[NLIMIT];	/* limit faults, handshake's too */
	size_t	 stderr_bytes;		/* written by the bot (marks aside) */
	long	 stderr_over;		/* matches over the stderr limit */
	long	 leftovers;		/* processes it left behind */
	char	 name[BC_NAME_LEN];	/* its hello name, made visible */
	char	 notes[NNOTE][BC_NOTES][BC_NOTE_LEN];
	int	 nnotes[NNOTE];
	char	 error[BC_NOTE_LEN];	/* why a match did not finish */
	char	 unstarted[BC_NOTE_LEN];	/* why the bot could not start */
};

/*
 * Reads match log path for bot index bot into *s (zeroed first); the
 * move's time limit (ms) tells slow answers.  -1 and a cause when the log
 * cannot be read.
 */
int	 logscan(const char *path, int bot, long time_per_move_ms,
	    struct botstats *s, char *cause, size_t len);
/*
 * Returns the bytes a bot wrote to its stderr file path (the referee's
 * marker lines aside, dropped bytes counted); 0 if there is no file.
 */
size_t	 stderr_size(const char *path);
/* Adds the counts of a into sum (notes while there is room). */
void	 stats_add(struct botstats *sum, const struct botstats *a);
/*
 * Returns a new string: at most max bytes of s[0..len) made safe for a
 * terminal with vis(3), "..." appended when cut.
 */
char	*vis_text(const char *s, size_t len, size_t max);

/*
 * Draws a random valid option set of g: sets *players and returns a new
 * NULL-terminated array of "KEY=VALUE" strings (free with argv_free).
 */
char	**optgen_random(const struct game *g, struct rng *r, int *players);

#endif
