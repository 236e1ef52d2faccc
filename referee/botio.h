/*
 * The bot processes of a match and their I/O: each bot's stdout read into
 * lines (a hard cap per line, a share of output per request past which it
 * is muted), its stdin written at once or queued, its stderr copied into a
 * file (capped, with turn markers), its end noticed, killed and reaped, and
 * one watch set (epoll(7), else poll(2)) over every bot's descriptors.
 * Every message sent and every line read is logged here.  What a line
 * means is the owner's (match.c), handed each line through the set's line
 * hook; a fault of the I/O itself (a line too long, a flood, a loss) is
 * handed up once through its fault hook, with its detail's format and
 * arguments, and the owner formats it and says what it costs.  A bot also
 * carries its open request (the id, when it was sent, its deadline, the
 * time bank, the answer) and its counts of this game's faults: match.c
 * keeps them, alone; this unit reads only the request's id, for the stderr
 * markers.
 */
#ifndef CARDARENA_BOTIO_H
#define CARDARENA_BOTIO_H

#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "contain.h"
#include "game.h"
#include "proc.h"
#include "proto.h"

#define NCLOSED		16	/* ids closed by a fault, remembered */
#define MAX_LINES_ASKED	1000	/* lines per request before a flood */

struct mlog;

/* A watched descriptor of a bot. */
enum slot {
	SLOT_OUT,	/* its stdout, for input */
	SLOT_ERR,	/* its stderr, for input */
	SLOT_IN,	/* its stdin, for room while output is queued */
	SLOT_PIDFD,	/* its exit */
	NSLOT
};

/* Where the move a seat plays this round comes from. */
enum source {
	SRC_NONE,	/* not resolved yet */
	SRC_BOT,	/* the bot's own answer */
	SRC_FAULT,	/* substituted after a fault */
	SRC_AUTO	/* not asked: the bot is gone or retired */
};

/* The bot's stdout, read into lines. */
struct linereader {
	char	*buf;		/* bytes of an unfinished line */
	size_t	 len, cap;
	int	 skipping;	/* inside an over-long line */
	int	 muted;		/* flooded: output dropped till asked */
	size_t	 bytes;		/* output since the last request */
	long	 lines;
	int	 reading;	/* inside bot_read: buf is in use */
};

/* The bot's stdin: bytes the pipe did not take yet. */
struct inqueue {
	struct buf	 buf;		/* queued bytes from off */
	size_t		 off;
	int		 close_after;	/* close stdin once the queue is out */
};

/* Where the bot's stderr goes. */
struct errcopy {
	int	 fd;		/* -1: dropped */
	int	 own;		/* fd is our file */
	size_t	 len, drop;	/* bytes kept, bytes over the cap */
	int	 mark;		/* a turn marker is due */
	int	 midline;	/* the file ends inside a line */
};

/* A descriptor watched, and for what (POLLIN, POLLOUT). */
struct watched {
	int	fd;		/* -1: none */
	short	events;
};

/* A bot's faults in the current game. */
struct gamecount {
	long	faults;
	long	kinds[NFAULT];		/* by kind */
	long	hello;			/* of its timeouts, at the hello */
	long	limits[NLIMIT];		/* of its limit faults, by limit */
};

struct mbot {
	int		 index;
	char		**argv;
	const char	*command;
	char		 name[MAX_NAME + 1];
	unsigned	 wants;		/* WANT_*: the parts it asked for */

	struct proc	 p;
	int		 spawned;
	int		 alive;		/* running and still ours to talk to */
	int		 out_ended;	/* its stdout reached its end */
	const char	*lost_why;	/* why the referee gave up on it */
	struct linereader rd;
	struct inqueue	 wq;
	struct errcopy	 ecopy;
	struct watched	 w[NSLOT];

	/* The open request and this round's move: match.c's alone. */
	int		 seat;		/* in the current game */
	int		 hello;		/* the hello answer is awaited */
	int		 open;		/* a request is open */
	int64_t		 id, sent_us, deadline_us, bank_us;
	struct legal	*legal;
	int		 nlegal;
	enum source	 source;
	struct action	 answer;
	int		 fault;
	char		 why[256];
	int64_t		 closed[NCLOSED];
	int		 nclosed;
	int		 retired;
	int		 capped;	/* retired by the fault cap this game */
	struct gamecount game;
};

/* What the owner of a set does with its bots' lines and faults. */
struct bot_hooks {
	/* A whole line of b's stdout (its \r dropped), logged, read at now. */
	void	(*line)(void *, struct mbot *, char *, size_t, int64_t);
	/*
	 * A fault of b's I/O (its open request's, if one is), with the limit
	 * it hit (FAULT_LIMIT; else -1) and its detail's format and arguments.
	 */
	void	(*fault)(void *, struct mbot *, enum fault, int, const char *,
		    va_list) __attribute__((format(printf, 5, 0)));
};

/* A descriptor the last wait found ready. */
struct ready {
	int		 bot;
	enum slot	 slot;
};

struct botset {
	struct mbot		*bots;
	int			 n;
	int			 epfd;		/* the watch set, or -1 */
	struct pollfd		*pfd;		/* the ready descriptors */
	struct ready		*ready;		/* whose they are */
	int			 nready;
	int			 shutting;	/* a loss is no fault now */
	int			 game;		/* for the stderr markers */
	int64_t			 t0;		/* the log's time 0 */
	struct mlog		*log;
	size_t			 stderr_cap;	/* bytes kept per bot */
	size_t			 max_output;	/* stdout bytes per request */
	const struct bot_hooks	*hooks;
	void			*arg;		/* the hooks' */
};

/* The monotonic clock in microseconds. */
int64_t	 now_us(void);

/*
 * Makes a set of n bots from their -b commands (their stderr to ours
 * until bot_stderr_file); -1 and a cause naming the bot whose command
 * does not split.
 */
int	 botset_init(struct botset *, int, char *const *, char *, size_t);
/* Sends each bot's stderr to path.botN.stderr; -1 and a cause. */
int	 botset_stderr_files(struct botset *, const char *, char *, size_t);
/* Makes the watch set; -1 and a cause. */
int	 botset_watch(struct botset *, char *, size_t);
/*
 * Starts every bot process anew; -1, a cause and *failed (the bot that
 * could not be started) if one cannot be started.
 */
int	 botset_spawn(struct botset *, int *, char *, size_t);
/*
 * Brings the watch set in line with what each bot needs watched now;
 * -1 with errno (botset_sync_call names the failed call).
 */
int	 botset_sync(struct botset *);
/*
 * Waits up to timeout ms (-1: no limit) for the watched descriptors and
 * lists the ready ones in the order of bots and slots; their number, or
 * -1 with errno (botset_wait_call names the call).
 */
int	 botset_wait(struct botset *, int);
/* Handles what the last wait found ready: reads, writes, losses. */
void	 botset_handle(struct botset *);
extern const char *const botset_sync_call, *const botset_wait_call;
/* Closes the bots' stderr files (noting what the cap dropped). */
void	 botset_stderr_close(struct botset *);
/* Returns 1 if a live bot has no pidfd: its exit is to be polled. */
int	 botset_polled(const struct botset *);
/* Frees the set (its bots must be reaped). */
void	 botset_free(struct botset *);

/*
 * Sends msg to b (written now as far as the pipe takes it, the rest
 * queued), logged as of kind with its id and time left, sent at time at
 * (now_us(); 0: read the clock).
 */
void	 bot_send(struct botset *, struct mbot *, const struct buf *,
	    const char *, int64_t, long, int64_t);
/* Forgets what b was cut in and counts its output anew (a request). */
void	 bot_asked(struct mbot *);
/* Reads b's stdout, handing each line to the hooks; 1 at its end. */
int	 bot_read(struct botset *, struct mbot *, int);
/* Mutes b for more than its share of output for one request (a fault). */
void	 bot_flood(struct botset *, struct mbot *);
/* Takes b's loss: kills and reaps it, and reports the fault. */
void	 bot_lost(struct botset *, struct mbot *);
/* Takes b's exit where it has no pidfd to watch. */
void	 bot_check_exit(struct botset *, struct mbot *);
/* Closes b's stdin once what is queued is out (say bye). */
void	 bot_close_after(struct botset *, struct mbot *);
/* Kills and reaps b's process group, closing its descriptors. */
void	 bot_reap(struct botset *, struct mbot *);

#endif
