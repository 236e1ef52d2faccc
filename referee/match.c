/*
 * The match loop; see match.h and protocol.md.
 *
 * One poll(2) loop watches every bot's stdout, stderr, stdin (while output
 * is queued) and exit (a pidfd), with CLOCK_MONOTONIC deadlines.  Each
 * round asks every seat that must decide now at once, waits until each has
 * answered or faulted, then applies the actions in seat order, so the
 * action sequence does not depend on who answered first.  A message is
 * composed as text once; the same bytes go to the bot and into the log.
 * Substitute moves after a fault come from a generator seeded by the deal
 * seed and the step, never from the timing of other faults.
 */
#include <sys/types.h>
#include <sys/stat.h>
#if defined(__linux__) && !defined(CARDARENA_NO_EPOLL)
#define HAVE_EPOLL	1
#include <sys/epoll.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contain.h"
#include "log.h"
#include "match.h"
#include "messages.h"
#include "proc.h"
#include "results.h"

#define FALLBACK_POLL_MS	50	/* exit checks without a pidfd */
#define EXIT_WAIT_MS		50	/* for a status after end of output */
#define RELAY_WAIT_MS		60000	/* the same, its init exiting */
#define READS_PER_WAKE		4	/* fairness between chatty bots */
#define NCLOSED			16	/* ids closed by a fault, remembered */
#define LOGGED_PREFIX		256	/* bytes of an over-long line logged */
#define MAX_LINES_ASKED		1000	/* lines per request before a flood */
#define MAX_QUEUED		(16 * 1024 * 1024)	/* unread input */
/*
 * A wait this long writes the log; not 1 ms, which would set and clear a
 * timer at every wait (costly on a virtual machine).
 */
#define LOG_IDLE_MS		20
#define LOG_BATCH		(64 * 1024)	/* log bytes held at most */

enum source {
	SRC_NONE,	/* not resolved yet */
	SRC_BOT,	/* the bot's own answer */
	SRC_FAULT,	/* substituted after a fault */
	SRC_AUTO	/* not asked: the bot is gone or retired */
};

static const char *const source_names[] = { "none", "bot", "fault",
    "autoplay" };

const char *const policy_names[] = { "random", "default", "retire", NULL };

struct mbot {
	int		 index;
	char		**argv;
	const char	*command;
	struct proc	 p;
	int		 spawned;
	int		 alive;		/* running and still ours to talk to */
	int		 out_ended;	/* its stdout reached its end */
	char		 name[MAX_NAME + 1];
	unsigned	 wants;		/* WANT_*: the parts it asked for */

	char		*ibuf;		/* stdout: bytes of an unfinished line */
	size_t		 ilen, icap;
	int		 skipping;	/* inside an over-long line */
	int		 muted;		/* flooded: output dropped till asked */
	size_t		 obytes;	/* output since the last request */
	long		 olines;
	int		 capped;	/* retired by the fault cap this game */
	const char	*lost_why;	/* why the referee gave up on it */
	int		 reading;	/* inside bot_read: ibuf is in use */

	struct buf	 out;		/* stdin: queued bytes from ooff */
	size_t		 ooff;
	int		 close_after;	/* close stdin once the queue is out */

	int		 wfd[4];	/* watched: out, err, in, pidfd (-1) */
	short		 wev[4];	/* and for what (POLLIN, POLLOUT) */

	int		 efd;		/* where its stderr goes */
	int		 eown;		/* efd is our file */
	size_t		 elen, edrop;
	int		 emark;		/* a turn marker is due */
	int		 eline;		/* the file ends inside a line */

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
	long		 game_faults;
	long		 game_kinds[NFAULT];	/* this game's, by kind */
	long		 game_hello;	/* of its timeouts, at the hello */
	long		 game_limits[NLIMIT];	/* of its limit faults, by limit */
};

struct match {
	const struct match_config *cf;
	char			 nonce[NONCE_LEN + 1];	/* in every hello */
	const struct game	*g;
	struct match_result	*res;
	struct mbot		*bots;
	int			 n;
	struct mlog		 log;
	int			 resfd;
	int64_t			 t0;
	int64_t			 next_id;
	int			 shutting;
	int			 epfd;		/* the watch set (epoll), or -1 */
	struct pollfd		*pfd;		/* the ready descriptors, */
	int			*pbot;		/* each bot * 4 + what */
	char			 err[512];	/* the referee's own failure */

	int			 gi;		/* the current game */
	uint64_t		 deal_seed;
	void			*st;
	struct rng		 rng;
	struct events		 ev;
	struct evfeed		 feed;		/* each event's JSON, once */
	int			 seat_bot[MAX_PLAYERS];
	long			 step;
	struct buf		 msg;		/* the message being composed */
	int			 lives;		/* handshakes so far */
	int			 replaying;	/* a game that is not reported */
	struct playorder	 po;
};

static int64_t	now_us(void);
static int64_t	mtime(struct match *);
static int	failf(struct match *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	log_failed(struct match *);
static void	faultf(struct match *, struct mbot *, enum fault, int64_t,
		    const char *, ...) __attribute__((format(printf, 5, 6)));
static void	bot_send(struct match *, struct mbot *, const struct buf *,
		    const char *, int64_t, long, int64_t);
static void	bot_write(struct match *, struct mbot *);
static int	bot_read(struct match *, struct mbot *, int);
static int	bot_read_some(struct match *, struct mbot *, int);
static void	bot_line(struct match *, struct mbot *, char *, size_t);
static int	blank(const char *, size_t);
static void	bot_answered(struct match *, struct mbot *, struct action,
		    int64_t);
static void	bot_flood(struct match *, struct mbot *);
static void	bot_hello(struct match *, struct mbot *, const json_t *,
		    const char *);
static void	bot_stderr(struct match *, struct mbot *, int);
static void	bot_lost(struct match *, struct mbot *);
static void	bot_unwatch(struct match *, struct mbot *, int);
static void	bot_close_in(struct match *, struct mbot *);
static void	bot_reap(struct match *, struct mbot *);
static int	bot_fd(const struct mbot *, int, short *);
static int	watch_sync(struct match *);
static int	watch_wait(struct match *, int, int *);
static void	bot_closed_add(struct mbot *, int64_t);
static int	bot_closed_has(const struct mbot *, int64_t);
static int	pump(struct match *, int64_t);
static int	ask(struct match *, int);
static int	settle(struct match *, int);
static int	handshake(struct match *, int);
static int	spawn_bots(struct match *, char *, size_t);
static int	play_game(struct match *, int, int);
static void	shutdown_bots(struct match *, int);
static void	write_result(struct match *);
static json_t	*per_seat_json(const struct match *, const int *,
		    const double *);
static int	write_results_line(struct match *, const int *,
		    const double *, int);

/* The monotonic clock in microseconds. */
static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Microseconds since the match started (the log's "t"). */
static int64_t
mtime(struct match *m)
{
	return now_us() - m->t0;
}

int
match_disk_full(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG;
}

/* Records a failed write of the log (the disk may be full); returns -1. */
static int
log_failed(struct match *m)
{
	m->res->disk_full = match_disk_full(m->log.error_no);
	return failf(m, "%s", m->log.error);
}

/* Records the referee's own failure; returns -1. */
static int
failf(struct match *m, const char *fmt, ...)
{
	va_list ap;

	if (m->err[0] != '\0')
		return -1;
	va_start(ap, fmt);
	vsnprintf(m->err, sizeof m->err, fmt, ap);
	va_end(ap);
	return -1;
}

void
match_config_init(struct match_config *cf)
{
	memset(cf, 0, sizeof *cf);
	cf->games = 1;
	cf->stderr_cap = 1024 * 1024;
	cf->time_per_move_ms = 1000;
	cf->time_bank_ms = 10000;
	cf->time_hello_ms = 10000;
	cf->grace_ms = 500;
	cf->max_decisions = 100000;
	cf->policy = POLICY_RANDOM;
	cf->max_faults = 100;
	cf->max_output = 4 * 1024 * 1024;
}

uint64_t
match_deal_seed(uint64_t seed, int g, int players, int duplicate)
{
	return seed_derive(seed, (uint64_t)(duplicate ? g / players : g)) &
	    INT64_MAX;
}

int
match_seat_bot(int seat, int g, int players, int duplicate)
{
	if (!duplicate)
		return seat;
	return ((seat - g % players) + players) % players;
}

void
match_adjudicate(int n, int *places, double *scores)
{
	int s;

	for (s = 0; s < n; s++) {
		places[s] = 1;
		scores[s] = 0;
	}
}

json_t *
deal_book_read(const char *path, char *cause, size_t len)
{
	json_error_t je;
	json_t *a, *d;
	char *line = NULL, *p;
	size_t cap = 0;
	long no = 0;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	a = json_array();
	while (getline(&line, &cap, fp) != -1) {
		no++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\n' || *p == '\0' || *p == '#')
			continue;
		if ((d = json_loads(p, JSON_REJECT_DUPLICATES, &je)) == NULL) {
			snprintf(cause, len, "%s:%ld: %s", path, no, je.text);
			goto fail;
		}
		json_array_append_new(a, d);
	}
	if (ferror(fp)) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (json_array_size(a) == 0) {
		snprintf(cause, len, "%s: no deal in it", path);
		goto fail;
	}
	fclose(fp);
	free(line);
	return a;
fail:
	fclose(fp);
	free(line);
	json_decref(a);
	return NULL;
}

void *
deal_book_parse(const struct game *g, const struct opts *o, const json_t *a,
    int *n, char *cause, size_t len)
{
	char why[256];
	char *book;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) == 0 ||
	    json_array_size(a) > 1000000) {
		snprintf(cause, len, "not a list of 1 to 1000000 deals");
		return NULL;
	}
	book = xcalloc(json_array_size(a), g->setup_size);
	for (i = 0; i < json_array_size(a); i++)
		if (g->setup_parse(json_array_get(a, i), o, book + i *
		    g->setup_size, why, sizeof why) == -1) {
			snprintf(cause, len, "deal %zu: %s", i + 1, why);
			free(book);
			return NULL;
		}
	*n = (int)json_array_size(a);
	return book;
}

const void *
deal_setup(const struct game *g, const void *setup, const void *book,
    int nbook, int gi, int players, int duplicate)
{
	int d = duplicate ? gi / players : gi;

	if (book == NULL || nbook < 1)
		return setup;
	return (const char *)book + (size_t)(d % nbook) * g->setup_size;
}

void
playorder_init(struct playorder *po, int ngames, int players, int duplicate,
    const int *list, int nlist, int replay, int first)
{
	int last[MAX_PLAYERS], i, l, k, g;

	memset(po, 0, sizeof *po);
	po->games = ngames;
	po->players = players;
	po->duplicate = duplicate && players > 1;
	po->first = first;
	po->nlife = po->duplicate ? players : 1;
	for (l = 0; l < po->nlife; l++)
		last[l] = -1;
	if (list == NULL) {
		for (l = 0; l < po->nlife; l++)
			last[l] = ngames - 1;
	} else {
		po->listed = xcalloc((size_t)ngames / 8 + 1, 1);
		for (i = 0; i < nlist; i++) {
			po->listed[list[i] / 8] |= 1 << list[i] % 8;
			l = po->duplicate ? list[i] % players : 0;
			if (list[i] > last[l])
				last[l] = list[i];
		}
	}
	if (list != NULL && !replay) {
		/* the listed games only, lifetime by lifetime */
		po->seq = xcalloc((size_t)nlist + 1, sizeof *po->seq);
		for (l = 0, k = 0; l < po->nlife; l++)
			for (g = 0; g < ngames; g++)
				if ((po->duplicate ? g % players : 0) == l &&
				    (po->listed[g / 8] & (1 << g % 8))) {
					po->seq[k++] = g;
					po->count[l]++;
				}
		po->total = k;
		return;
	}
	for (l = 0; l < po->nlife; l++) {
		/* the games of lifetime l (from first + l) up to last[l] */
		if (last[l] < first + (po->duplicate ? l : 0))
			po->count[l] = 0;
		else
			po->count[l] = po->duplicate ?
			    (last[l] - first - l) / players + 1 :
			    last[l] - first + 1;
		po->total += po->count[l];
	}
}

int
playorder_game(const struct playorder *po, long k, int *reported, int *fresh)
{
	int l, g;

	if (po->seq != NULL) {
		g = po->seq[k];
		*reported = 1;
		*fresh = k == 0 || (po->duplicate && po->seq[k - 1] %
		    po->players != g % po->players);
		return g;
	}
	for (l = 0; l < po->nlife - 1 && k >= po->count[l]; l++)
		k -= po->count[l];
	g = po->first + (po->duplicate ? l + (int)k * po->players : (int)k);
	*fresh = k == 0;
	*reported = po->listed == NULL ||
	    (po->listed[g / 8] & (1 << g % 8)) != 0;
	return g;
}

void
playorder_free(struct playorder *po)
{
	free(po->listed);
	free(po->seq);
	po->listed = NULL;
	po->seq = NULL;
}

/*
 * Counts a fault of b and logs it; closes b's open request (its move is
 * substituted when the round settles), else tells a live bot at once.
 */
static void
faultf(struct match *m, struct mbot *b, enum fault kind, int64_t id,
    const char *fmt, ...)
{
	struct buf *l, msg = { NULL, 0, 0 };
	va_list ap;
	char detail[256];

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	if (!m->replaying)
		m->res->faults[b->index][kind]++;
	b->game_faults++;
	b->game_kinds[kind]++;
	if (m->cf->max_faults > 0 && b->game_faults >= m->cf->max_faults &&
	    !b->capped && !m->shutting) {
		/* Retired for the game; what it sends is dropped unread. */
		b->capped = b->retired = b->muted = 1;
		snprintf(detail + strlen(detail), sizeof detail -
		    strlen(detail), "; %ld faults this game: retired for the "
		    "rest of it", b->game_faults);
	}
	if (mlog_on(&m->log)) {
		l = mlog_begin(&m->log, "fault");
		buf_str(l, ",\"t\":");
		buf_int(l, mtime(m));
		buf_str(l, ",\"game\":");
		buf_int(l, m->gi);
		buf_str(l, ",\"bot\":");
		buf_int(l, b->index);
		buf_str(l, ",\"seat\":");
		buf_int(l, b->seat);
		buf_str(l, ",\"fault\":\"");
		buf_str(l, fault_names[kind]);
		buf_str(l, "\",\"id\":");
		if (id >= 0)
			buf_int(l, id);
		else
			buf_str(l, "null");
		buf_str(l, ",\"detail\":");
		buf_jstr(l, detail, strlen(detail));
		mlog_end(&m->log);
	}
	if (b->open) {
		b->open = 0;
		b->source = SRC_FAULT;
		b->fault = kind;
		strlcpy(b->why, detail, sizeof b->why);
		bot_closed_add(b, b->id);
		return;
	}
	if (!b->alive || m->shutting || kind == FAULT_EXIT)
		return;
	msg_error(&msg, id, fault_names[kind], detail, NULL, 0);
	bot_send(m, b, &msg, "error", id, 0, 0);
	buf_free(&msg);
}

/* Remembers an id whose request a fault closed: late answers to it are
 * dropped without a fault. */
static void
bot_closed_add(struct mbot *b, int64_t id)
{
	b->closed[b->nclosed++ % NCLOSED] = id;
}

/* Returns 1 if id is one of the recently fault-closed requests. */
static int
bot_closed_has(const struct mbot *b, int64_t id)
{
	int i;

	for (i = 0; i < NCLOSED && i < b->nclosed; i++)
		if (b->closed[i] == id)
			return 1;
	return 0;
}

/*
 * Writes what the pipe takes of a message to b now, straight from msg when
 * nothing is queued (only the rest is copied into the queue), and logs it
 * (of kind, with its id and time left for a lean log) as sent at time at
 * (now_us(); 0: read the clock), after the write: the bot starts on it
 * while the log line is composed.
 */
static void
bot_send(struct match *m, struct mbot *b, const struct buf *msg,
    const char *kind, int64_t id, long tl, int64_t at)
{
	struct msgnote note = { kind, id, tl };
	ssize_t n = 0;
	int e = 0, wrote = 0;

	if (at == 0)
		at = now_us();
	if (b->alive && b->p.in != -1 && b->ooff == b->out.len) {
		b->ooff = b->out.len = 0;
		do
			n = write(b->p.in, msg->p, msg->len);
		while (n == -1 && errno == EINTR);
		e = errno;
		wrote = 1;
	}
	mlog_send(&m->log, at - m->t0, b->index, &note, msg->p, msg->len);
	if (!b->alive || b->p.in == -1)
		return;
	if (wrote) {
		if (n == -1 && e != EAGAIN) {
			bot_close_in(m, b);
			bot_lost(m, b);
			return;
		}
		if (n == (ssize_t)msg->len) {
			if (b->close_after)
				bot_close_in(m, b);
			return;
		}
		if (n < 0)
			n = 0;
	}
	buf_add(&b->out, msg->p + n, msg->len - (size_t)n);
	if (b->out.len - b->ooff > MAX_QUEUED) {
		/* It does not read its input: never let it grow us. */
		b->lost_why = "does not read its input (16 MiB queued)";
		bot_close_in(m, b);
		bot_lost(m, b);
		return;
	}
	bot_write(m, b);
}

/* Writes queued bytes to b's stdin until the pipe is full. */
static void
bot_write(struct match *m, struct mbot *b)
{
	ssize_t n;

	while (b->p.in != -1 && b->ooff < b->out.len) {
		n = write(b->p.in, b->out.p + b->ooff, b->out.len - b->ooff);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			/* EPIPE: it closed its input; it cannot be asked. */
			bot_close_in(m, b);
			bot_lost(m, b);
			return;
		}
		b->ooff += (size_t)n;
	}
	if (b->ooff == b->out.len) {
		b->ooff = b->out.len = 0;
		if (b->close_after)
			bot_close_in(m, b);
	}
}

/*
 * Reads b's stdout and handles each complete line; drain reads until
 * the pipe is empty.  Returns 1 at end of output or a read error.  A
 * line's handling may lose the bot (a write to it fails) and so come
 * back here: that nested call reads nothing, as the outer one still
 * walks the input buffer a nested read could move.
 */
static int
bot_read(struct match *m, struct mbot *b, int drain)
{
	int r;

	if (b->reading)
		return 0;
	b->reading = 1;
	r = bot_read_some(m, b, drain);
	b->reading = 0;
	return r;
}

/* The body of bot_read: reads and handles lines, never re-entered. */
static int
bot_read_some(struct match *m, struct mbot *b, int drain)
{
	char skip[65536], *nl, *start;
	size_t from, want;
	ssize_t n, got;
	int reads;

	for (reads = 0; b->p.out != -1 && (drain || reads < READS_PER_WAKE);
	    reads++) {
		if (b->muted) {
			/* Flooded: dropped unread until its next request. */
			n = read(b->p.out, skip, sizeof skip);
			if (n > 0) {
				b->skipping = skip[n - 1] != '\n';
				b->ilen = 0;
				continue;
			}
			if (n == 0)
				return 1;
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : 1;
		}
		if (b->skipping) {
			want = sizeof skip;
			got = n = read(b->p.out, skip, sizeof skip);
			if (n > 0 && (nl = memchr(skip, '\n', (size_t)n)) !=
			    NULL) {
				b->skipping = 0;
				n -= nl + 1 - skip;
				if (b->icap < (size_t)n + 1) {
					b->icap = (size_t)n + 4096;
					b->ibuf = xreallocarray(b->ibuf,
					    b->icap, 1);
				}
				memcpy(b->ibuf, nl + 1, (size_t)n);
				b->ilen = 0;
				from = 0;
				goto lines;
			}
			if (n > 0)
				continue;
		} else {
			if (b->icap - b->ilen < 4096 && b->icap < MAX_LINE + 2) {
				b->icap = b->icap ? b->icap * 2 : 8192;
				if (b->icap > MAX_LINE + 2)
					b->icap = MAX_LINE + 2;
				b->ibuf = xreallocarray(b->ibuf, b->icap, 1);
			}
			want = b->icap - b->ilen;
			got = n = read(b->p.out, b->ibuf + b->ilen, want);
			if (n > 0) {
				from = b->ilen;
				goto lines;
			}
		}
		if (n == 0)
			return 1;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return 0;
		return 1;
lines:
		b->ilen += (size_t)n;
		b->obytes += (size_t)got;
		start = b->ibuf;
		while (!b->muted && (nl = memchr(b->ibuf + from, '\n',
		    b->ilen - from)) != NULL) {
			*nl = '\0';
			bot_line(m, b, start, (size_t)(nl - start));
			from = (size_t)(nl + 1 - b->ibuf);
			start = nl + 1;
		}
		if (!b->muted && m->cf->max_output > 0 &&
		    b->obytes > m->cf->max_output)
			bot_flood(m, b);
		if (b->muted) {
			b->skipping = b->ilen > (size_t)(start - b->ibuf) &&
			    b->ibuf[b->ilen - 1] != '\n';
			b->ilen = 0;
			continue;
		}
		b->ilen -= (size_t)(start - b->ibuf);
		memmove(b->ibuf, start, b->ilen);
		if (b->ilen > MAX_LINE) {
			mlog_recv(&m->log, mtime(m), b->index, b->ibuf,
			    LOGGED_PREFIX, 1);
			faultf(m, b, FAULT_LONG_LINE, b->open ? b->id : -1,
			    "a line longer than %d bytes", MAX_LINE);
			b->ilen = 0;
			b->skipping = 1;
		}
		/* A short read emptied the pipe: no read just for EAGAIN. */
		if (!drain && (size_t)got < want)
			return 0;
	}
	return 0;
}

/* Returns 1 if the line holds nothing but spaces and tabs. */
static int
blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* Handles one line from b's stdout: a hello, an answer, or a fault. */
static void
bot_line(struct match *m, struct mbot *b, char *line, size_t len)
{
	json_error_t jerr;
	json_t *j, *jid;
	struct action a;
	const char *type;
	char why[256];
	int64_t id, now;
	long long qindex, qamount;
	int kind, qhas;

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (++b->olines > MAX_LINES_ASKED && !m->shutting) {
		bot_flood(m, b);
		return;
	}
	now = now_us();
	mlog_recv(&m->log, now - m->t0, b->index, line, len, 0);
	if (m->shutting || blank(line, len))
		return;
	/* The common answer, for the open request, without a parser. */
	if (!b->hello && b->open && proto_quick(line, len, &id, &qindex,
	    &qhas, &qamount) == 0 && id == b->id) {
		kind = proto_index(b->legal, b->nlegal, qindex, qhas, qamount,
		    &a, why, sizeof why);
		if (kind != -1) {
			faultf(m, b, kind, id, "%s", why);
			return;
		}
		bot_answered(m, b, a, now);
		return;
	}
	j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	type = json_string_value(json_object_get(j, "type"));
	if (b->hello) {
		bot_hello(m, b, j, jerr.text);
		json_decref(j);
		return;
	}
	if (j == NULL || !json_is_object(j)) {
		faultf(m, b, FAULT_MALFORMED, b->open ? b->id : -1,
		    "not a JSON object: %s", j == NULL ? jerr.text :
		    "another JSON value");
		json_decref(j);
		return;
	}
	jid = json_object_get(j, "id");
	if (!json_is_integer(jid)) {
		if (type == NULL || strcmp(type, "hello") != 0)
			faultf(m, b, FAULT_MALFORMED, b->open ? b->id : -1,
			    "the answer has no whole-number \"id\"");
		json_decref(j);
		return;
	}
	id = json_integer_value(jid);
	if (!b->open || id != b->id) {
		if (!bot_closed_has(b, id)) {
			if (b->open)
				faultf(m, b, FAULT_WRONG_ID, b->id, "answer "
				    "for id %lld, the open request is %lld",
				    (long long)id, (long long)b->id);
			else
				faultf(m, b, FAULT_WRONG_ID, id, "answer for "
				    "id %lld, no request is open",
				    (long long)id);
		}
		json_decref(j);
		return;
	}
	kind = proto_action(m->g, m->st, b->seat, j, b->legal, b->nlegal, &a,
	    why, sizeof why);
	json_decref(j);
	if (kind != -1) {
		faultf(m, b, kind, id, "%s", why);
		return;
	}
	bot_answered(m, b, a, now);
}

/*
 * b sent more than its share of output for one request: one fault, and
 * what it sends is dropped unread (never logged) until it is asked again.
 */
static void
bot_flood(struct match *m, struct mbot *b)
{
	b->muted = 1;
	faultf(m, b, FAULT_MALFORMED, b->open ? b->id : -1, "more than %zu "
	    "bytes or %d lines of output for one request; the rest is "
	    "dropped until the next", m->cf->max_output, MAX_LINES_ASKED);
}

/*
 * Takes b's valid answer a to its open request, read at time now;
 * charges its time bank.
 */
static void
bot_answered(struct match *m, struct mbot *b, struct action a, int64_t now)
{
	int64_t used, over;

	used = now - b->sent_us;
	over = used - m->cf->time_per_move_ms * 1000;
	if (over > 0)
		b->bank_us = over < b->bank_us ? b->bank_us - over : 0;
	b->open = 0;
	b->source = SRC_BOT;
	b->answer = a;
}

/* Takes b's hello answer (j may be NULL: unparsable). */
static void
bot_hello(struct match *m, struct mbot *b, const json_t *j, const char *why)
{
	const char *name;
	char why2[128];
	size_t len;

	b->hello = 0;
	b->wants = WANT_ALL;
	if (j == NULL || !json_is_object(j)) {
		faultf(m, b, FAULT_MALFORMED, -1, "the hello answer is not a "
		    "JSON object: %s", j == NULL ? why : "another value");
		return;
	}
	if (msg_wants(j, &b->wants, why2, sizeof why2) == -1)
		faultf(m, b, FAULT_MALFORMED, -1, "the hello answer's %s", why2);
	if ((name = json_string_value(json_object_get(j, "name"))) == NULL ||
	    *name == '\0') {
		faultf(m, b, FAULT_MALFORMED, -1, "the hello answer has no "
		    "\"name\" string");
		return;
	}
	len = strlen(name);
	if (len > MAX_NAME) {
		len = MAX_NAME;
		while (len > 0 && ((unsigned char)name[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(b->name, name, len);
	b->name[len] = '\0';
}

/* Copies b's stderr into its file (capped, with turn markers). */
static void
bot_stderr(struct match *m, struct mbot *b, int drain)
{
	char data[65536], mark[256];
	size_t room;
	ssize_t n;
	int reads, k;

	for (reads = 0; b->p.err != -1 && (drain || reads < READS_PER_WAKE);
	    reads++) {
		n = read(b->p.err, data, sizeof data);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n <= 0) {
			bot_unwatch(m, b, 1);
			close(b->p.err);
			b->p.err = -1;
			return;
		}
		if (b->efd == -1)
			continue;
		if (b->emark && b->elen < m->cf->stderr_cap) {
			if (b->eown)
				k = snprintf(mark, sizeof mark, "\n--- cardarena: "
				    "game %d, request %lld ---\n", m->gi,
				    (long long)b->id);
			else
				k = snprintf(mark, sizeof mark, "\n--- cardarena: "
				    "bot %d (%s), game %d, request %lld ---\n",
				    b->index, b->name, m->gi, (long long)b->id);
			k -= !b->eline;
			if (write(b->efd, mark + !b->eline, (size_t)k) == k)
				b->elen += (size_t)k;
			b->eline = 0;
			b->emark = 0;
		}
		room = b->elen < m->cf->stderr_cap ?
		    m->cf->stderr_cap - b->elen : 0;
		if ((size_t)n > room) {
			b->edrop += (size_t)n - room;
			n = (ssize_t)room;
		}
		if (n > 0 && write(b->efd, data, (size_t)n) == n) {
			b->elen += (size_t)n;
			b->eline = data[n - 1] != '\n';
		}
	}
}

/*
 * b's output ended, its stdin broke or it exited: takes what it had
 * written, kills its whole group, reaps it, and (unless the match is
 * shutting down) counts the fault.
 */
static void
bot_lost(struct match *m, struct mbot *b)
{
	struct pollfd pf;
	const char *lim;
	char how[128], what[128];
	int i, ms;

	/*
	 * An init (bwrap's, or an isolated bot's) holds the bot's stdout
	 * until it exits: its end of output is its exit under way, however
	 * long a loaded machine takes to tear its PID namespace down.
	 */
	ms = b->out_ended && b->p.relayed ? RELAY_WAIT_MS : EXIT_WAIT_MS;
	b->out_ended = 0;
	if (!b->alive)
		return;
	b->alive = 0;
	for (i = 0; !m->shutting && i < ms && !proc_exited(&b->p); i++) {
		if (b->p.pidfd != -1) {
			pf.fd = b->p.pidfd;
			pf.events = POLLIN;
			poll(&pf, 1, ms);
			proc_exited(&b->p);
			break;
		}
		poll(NULL, 0, 1);
	}
	proc_describe(&b->p, how, sizeof how);
	proc_signal(&b->p, SIGKILL);
	bot_read(m, b, 1);
	bot_stderr(m, b, 1);
	bot_reap(m, b);
	b->hello = 0;
	if (m->shutting)
		return;
	if (b->p.exited && (lim = contain_limit(b->p.signalled, b->p.code,
	    b->p.cpu_ms, b->p.maxrss_kb)) != NULL) {
		contain_limit_describe(lim, what, sizeof what);
		faultf(m, b, FAULT_LIMIT, b->open ? b->id : -1, "%s: %s (%s)",
		    lim, what, how);
		for (i = 0; i < NLIMIT; i++)
			if (strcmp(lim, limit_names[i]) == 0)
				b->game_limits[i]++;
	} else
		faultf(m, b, FAULT_EXIT, b->open ? b->id : -1, "%s",
		    b->lost_why != NULL ? b->lost_why : how);
}

/*
 * What of b is watched as kind (0 its stdout, 1 its stderr, 2 its stdin,
 * 3 its pidfd), for what events: the descriptor, or -1 for none.
 */
static int
bot_fd(const struct mbot *b, int kind, short *events)
{
	*events = POLLIN;
	if (!b->spawned || b->p.reaped)
		return -1;
	switch (kind) {
	case 0:
		return b->p.out;
	case 1:
		return b->p.err;
	case 2:
		/* Always: a bot that closes its stdin is lost at once. */
		*events = b->ooff < b->out.len ? POLLOUT : 0;
		return b->alive ? b->p.in : -1;
	default:
		return b->alive ? b->p.pidfd : -1;
	}
}

/* Stops watching b's descriptor of kind (-1: all), before it is closed. */
static void
bot_unwatch(struct match *m, struct mbot *b, int kind)
{
	int k;

	for (k = 0; k < 4; k++) {
		if ((kind != -1 && k != kind) || b->wfd[k] == -1)
			continue;
#ifdef HAVE_EPOLL
		if (m->epfd != -1)
			epoll_ctl(m->epfd, EPOLL_CTL_DEL, b->wfd[k], NULL);
#endif
		b->wfd[k] = -1;
	}
}

/* Closes b's stdin. */
static void
bot_close_in(struct match *m, struct mbot *b)
{
	bot_unwatch(m, b, 2);
	proc_close_in(&b->p);
}

/* Kills and reaps b's process group, closing its descriptors. */
static void
bot_reap(struct match *m, struct mbot *b)
{
	bot_unwatch(m, b, -1);
	proc_reap(&b->p);
}

#ifdef HAVE_EPOLL
#define WATCH_CALL	"epoll"

/*
 * Brings the epoll set in line with what each bot needs watched (bot_fd);
 * in the steady state this makes no system call.  -1 on a referee error.
 */
static int
watch_sync(struct match *m)
{
	struct epoll_event ev;
	struct mbot *b;
	short events;
	int i, k, fd, op;

	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		for (k = 0; k < 4; k++) {
			fd = bot_fd(b, k, &events);
			if (fd == b->wfd[k] && (fd == -1 || events == b->wev[k]))
				continue;
			op = EPOLL_CTL_MOD;
			if (fd != b->wfd[k]) {
				bot_unwatch(m, b, k);
				op = EPOLL_CTL_ADD;
			}
			if (fd == -1)
				continue;
			memset(&ev, 0, sizeof ev);
			ev.events = (uint32_t)events;
			ev.data.u32 = (uint32_t)(i * 4 + k);
			if (epoll_ctl(m->epfd, op, fd, &ev) == -1)
				return failf(m, "epoll_ctl: %s", strerror(errno));
			b->wfd[k] = fd;
			b->wev[k] = events;
		}
	}
	return 0;
}

/*
 * Waits up to timeout ms (-1: no limit) for the watched descriptors; puts
 * the ready ones in m->pfd and m->pbot (*k of them) in the order of bots
 * and kinds, as a poll(2) of them all would list them.  Returns their
 * number, or -1 with errno.
 */
static int
watch_wait(struct match *m, int timeout, int *k)
{
	struct epoll_event ev[4 * MAX_PLAYERS];
	int i, j, r, slot;

	*k = 0;
	if ((r = epoll_wait(m->epfd, ev, 4 * m->n, timeout)) <= 0)
		return r;
	for (i = 0; i < r; i++) {
		slot = (int)ev[i].data.u32;
		for (j = i; j > 0 && m->pbot[j - 1] > slot; j--) {
			m->pbot[j] = m->pbot[j - 1];
			m->pfd[j] = m->pfd[j - 1];
		}
		m->pbot[j] = slot;
		m->pfd[j].fd = m->bots[slot / 4].wfd[slot % 4];
		m->pfd[j].revents = (short)ev[i].events;
	}
	*k = r;
	return r;
}
#else
#define WATCH_CALL	"poll"

/* Without epoll, each wait lists the descriptors anew. */
static int
watch_sync(struct match *m)
{
	return 0;
}

/* A poll(2) of what each bot needs watched (bot_fd); see above. */
static int
watch_wait(struct match *m, int timeout, int *k)
{
	short events;
	int i, kind, fd;

	for (i = 0, *k = 0; i < m->n; i++)
		for (kind = 0; kind < 4; kind++)
			if ((fd = bot_fd(&m->bots[i], kind, &events)) != -1) {
				m->pfd[*k] = (struct pollfd){ fd, events, 0 };
				m->pbot[(*k)++] = i * 4 + kind;
			}
	return poll(m->pfd, (nfds_t)*k, timeout);
}
#endif

/*
 * Waits for bot I/O until the deadline (or the earliest request deadline),
 * handles what arrived, and times out late bots.  -1 on a referee error.
 */
static int
pump(struct match *m, int64_t until)
{
	struct mbot *b;
	int64_t now, t, dl;
	int i, k, r, timeout, fallback = 0;

	dl = until;
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if ((b->open || b->hello) && b->deadline_us < dl)
			dl = b->deadline_us;
		if (b->alive && b->p.pidfd == -1)
			fallback = 1;
	}
	if (m->log.b.len >= LOG_BATCH && mlog_flush(&m->log) == -1)
		return log_failed(m);
	now = now_us();
	timeout = dl == INT64_MAX ? -1 : dl <= now ? 0 :
	    (int)((dl - now + 999) / 1000);
	if (fallback && (timeout == -1 || timeout > FALLBACK_POLL_MS))
		timeout = FALLBACK_POLL_MS;
	if (watch_sync(m) == -1)
		return -1;
	/*
	 * The log's lines go out before a wait that lasts: when nothing
	 * comes within LOG_IDLE_MS (a bot that answers at once needs no
	 * write of its own).
	 */
	if (timeout != 0 && mlog_pending(&m->log)) {
		r = watch_wait(m, timeout == -1 || timeout > LOG_IDLE_MS ?
		    LOG_IDLE_MS : timeout, &k);
		if (r == 0) {
			if (mlog_flush(&m->log) == -1)
				return log_failed(m);
			r = watch_wait(m, timeout == -1 ? -1 :
			    timeout > LOG_IDLE_MS ? timeout - LOG_IDLE_MS : 0,
			    &k);
		}
	} else
		r = watch_wait(m, timeout, &k);
	t = now;
	now = now_us();
	m->res->wait_us += now - t;
	if (r == -1 && errno != EINTR)
		return failf(m, "%s: %s", WATCH_CALL, strerror(errno));
	for (i = 0; r > 0 && i < k; i++) {
		if (m->pfd[i].revents == 0)
			continue;
		b = &m->bots[m->pbot[i] / 4];
		switch (m->pbot[i] % 4) {
		case 0:
			if (b->p.out != -1 && bot_read(m, b, 0)) {
				b->out_ended = 1;
				bot_lost(m, b);
			}
			break;
		case 1:
			bot_stderr(m, b, 0);
			break;
		case 2:
			if (m->pfd[i].revents & (POLLERR | POLLHUP)) {
				bot_close_in(m, b);
				bot_lost(m, b);
			} else if (b->p.in != -1)
				bot_write(m, b);
			break;
		case 3:
			bot_lost(m, b);
			break;
		}
	}
	/* A deadline passed while handling is caught at the next wait (0). */
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (b->alive && b->p.pidfd == -1 && proc_exited(&b->p))
			bot_lost(m, b);
		if (b->hello && now >= b->deadline_us) {
			b->hello = 0;
			faultf(m, b, FAULT_TIMEOUT, -1, "no hello answer "
			    "within %ld ms", m->cf->time_hello_ms);
			b->game_hello++;
		}
		if (b->open && now >= b->deadline_us) {
			b->bank_us = 0;		/* all of it is spent */
			faultf(m, b, FAULT_TIMEOUT, b->id, "no answer within "
			    "%lld ms", (long long)((b->deadline_us -
			    b->sent_us) / 1000));
		}
	}
	return 0;
}

/* Asks seat for its move (or marks it autoplayed).  -1 on engine error. */
static int
ask(struct match *m, int seat)
{
	struct mbot *b = &m->bots[m->seat_bot[seat]];
	struct buf *q = &m->msg;
	int64_t now;
	long tl;

	b->nlegal = m->g->legal(m->st, seat, b->legal, MAX_LEGAL);
	if (b->nlegal <= 0)
		return failf(m, "%s: seat %d must decide but has no legal "
		    "action (game %d, step %ld)", m->g->name, seat, m->gi,
		    m->step);
	b->source = SRC_NONE;
	if (!b->alive || b->retired) {
		b->source = SRC_AUTO;
		return 0;
	}
	now = now_us();
	b->obytes = 0;
	b->olines = 0;
	if (b->muted && b->ilen > 0) {
		b->skipping = 1;	/* the rest of a line it was cut in */
		b->ilen = 0;
	}
	b->muted = 0;
	b->id = m->next_id++;
	b->sent_us = now;
	b->deadline_us = now + m->cf->time_per_move_ms * 1000 + b->bank_us;
	q->len = 0;
	tl = (long)((b->deadline_us - now) / 1000);
	msg_request(q, m->g, m->st, b->id, m->gi, seat, tl, &m->feed, &m->ev,
	    b->legal, b->nlegal, b->wants);
	b->open = 1;
	b->emark = 1;
	m->res->decisions++;
	bot_send(m, b, q, "request", b->id, tl, now);
	return 0;
}

/* Applies seat's move of this round, logging it.  -1 on engine error. */
static int
settle(struct match *m, int seat)
{
	struct mbot *b = &m->bots[m->seat_bot[seat]];
	struct buf *l, *q = &m->msg;
	struct action a;
	json_t *aj;
	int retire = 0;

	if (b->source == SRC_BOT)
		a = b->answer;
	else
		a = msg_substitute(m->g, m->st, seat, m->cf->policy ==
		    POLICY_RANDOM, m->deal_seed, m->step, b->legal, b->nlegal);
	if (b->source == SRC_FAULT && m->cf->policy == POLICY_RETIRE)
		b->retired = 1;
	/* by the policy, or by the cap of faults per game */
	retire = b->source == SRC_FAULT && b->retired;
	if (mlog_on(&m->log)) {
		l = mlog_begin(&m->log, "action");
		buf_str(l, ",\"game\":");
		buf_int(l, m->gi);
		buf_str(l, ",\"step\":");
		buf_int(l, m->step);
		buf_str(l, ",\"seat\":");
		buf_int(l, seat);
		buf_str(l, ",\"bot\":");
		buf_int(l, b->index);
		buf_str(l, ",\"source\":\"");
		buf_str(l, source_names[b->source]);
		if (b->source != SRC_BOT) {
			buf_str(l, "\",\"policy\":\"");
			buf_str(l, policy_names[m->cf->policy]);
		}
		buf_str(l, "\",\"action\":");
		msg_action(l, m->g, m->st, seat, a);
		mlog_end(&m->log);
	}
	if (b->source == SRC_FAULT && b->alive) {
		aj = game_action_json(m->g, m->st, seat, a);
		q->len = 0;
		msg_error(q, b->id, fault_names[b->fault], b->why, aj, retire);
		bot_send(m, b, q, "error", b->id, 0, 0);
		json_decref(aj);
	}
	b->source = SRC_NONE;
	if (m->g->apply(m->st, seat, a, &m->rng, &m->ev) == -1)
		return failf(m, "%s refused a move from its own legal list "
		    "(game %d, step %ld, seat %d)", m->g->name, m->gi, m->step,
		    seat);
	m->step++;
	m->res->actions++;
	return 0;
}

/*
 * Starts every bot process (at the match's start and at each new lifetime);
 * -1 and a cause if one cannot be started.
 */
static int
spawn_bots(struct match *m, char *cause, size_t len)
{
	struct mbot *b;
	char why[256];
	int i;

	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		bot_unwatch(m, b, -1);	/* none: every close unwatched */
		memset(&b->p, 0, sizeof b->p);
		b->p.in = b->p.out = b->p.err = b->p.pidfd = -1;
		b->ilen = b->ooff = b->out.len = 0;
		b->skipping = b->close_after = b->hello = b->open = 0;
		b->nclosed = 0;
		b->spawned = b->alive = 0;
	}
	/* All forked first, then each exec awaited: they start at once. */
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (proc_start(&b->p, b->argv, why, sizeof why) == -1) {
			snprintf(cause, len, "bot %d: %s", i, why);
			m->res->unstarted = i + 1;
			return -1;
		}
		b->spawned = 1;
	}
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (proc_started(&b->p, why, sizeof why) == -1) {
			b->spawned = 0;
			snprintf(cause, len, "bot %d: %s", i, why);
			m->res->unstarted = i + 1;
			return -1;
		}
		b->alive = 1;
		b->out_ended = 0;
	}
	return 0;
}

/*
 * Sends the hello to every bot, seated as in game gi (the first game of
 * their lifetime), and waits for their names; the first handshake also
 * puts the log's header before its lines.
 */
static int
handshake(struct match *m, int gi)
{
	const struct match_config *cf = m->cf;
	struct mbot *b;
	json_t *j, *o, *bots;
	int64_t dl;
	int i, pending, first = m->lives++ == 0;

	m->log.hold = first;
	m->shutting = 0;
	o = opts_json(m->g, &cf->opts);
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		b->seat = cf->duplicate ? (i + gi) % m->n : i;
		m->msg.len = 0;
		msg_hello(&m->msg, m->g, o, b->seat, cf->opts.players,
		    cf->games, cf->duplicate, i, cf->time_per_move_ms,
		    cf->time_bank_ms, cf->time_hello_ms, m->nonce);
		b->hello = b->alive;
		b->deadline_us = now_us() + cf->time_hello_ms * 1000;
		bot_send(m, b, &m->msg, "hello", -1, 0, 0);
	}
	dl = now_us() + cf->time_hello_ms * 1000;
	for (;;) {
		for (i = 0, pending = 0; i < m->n; i++)
			pending += m->bots[i].hello;
		if (pending == 0 || (cf->stop != NULL && *cf->stop))
			break;
		if (pump(m, dl) == -1) {
			json_decref(o);
			return -1;
		}
	}
	if (!first) {
		json_decref(o);
		return 0;
	}
	/* The header goes before the handshake's lines. */
	bots = json_array();
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		j = json_array();
		for (pending = 0; b->argv[pending] != NULL; pending++)
			json_array_append_new(j, json_string(b->argv[pending]));
		json_array_append_new(bots, json_pack("{s:s,s:s,s:o}", "name",
		    b->name, "command", b->command, "argv", j));
		strlcpy(m->res->names[i], b->name, sizeof m->res->names[i]);
	}
	j = json_pack("{s:s,s:s,s:i,s:i,s:s,s:O,s:I,s:i,s:b,s:o,s:O?,s:s,"
	    "s:I,s:I,s:I,s:o}", "type", "header", "cardarena",
	    CARDARENA_VERSION, "protocol", PROTOCOL_VERSION, "log_format",
	    LOG_FORMAT_VERSION, "game", m->g->name, "options", o, "seed",
	    (json_int_t)cf->seed, "games", cf->games, "duplicate",
	    cf->duplicate, "game_list", json_null(), "setup",
	    cf->setup_json, "on_fault", policy_names[cf->policy],
	    "time_per_move_ms", (json_int_t)cf->time_per_move_ms,
	    "time_bank_ms", (json_int_t)cf->time_bank_ms, "time_hello_ms",
	    (json_int_t)cf->time_hello_ms, "bots", bots);
	json_object_set_new(j, "max_faults", json_integer(cf->max_faults));
	json_object_set_new(j, "nonce", json_string(m->nonce));
	json_object_set_new(j, "max_output", json_integer((json_int_t)
	    cf->max_output));
	/* Which options the user set: a replay must resolve them alike. */
	bots = json_array();
	for (i = 0; m->g->options[i].name != NULL; i++)
		if (cf->opts.given[i])
			json_array_append_new(bots,
			    json_string(m->g->options[i].name));
	json_object_set_new(j, "options_given", bots);
	json_object_set_new(j, "replay", json_boolean(!cf->no_replay));
	if (cf->book_json != NULL)
		json_object_set(j, "deal_book", (json_t *)cf->book_json);
	if (cf->first_game > 0)
		json_object_set_new(j, "first_game",
		    json_integer(cf->first_game));
	json_object_set_new(j, "max_decisions", cf->max_decisions > 0 ?
	    json_integer(cf->max_decisions) : json_null());
	json_object_set_new(j, "log_level", json_string(cf->log_lean ?
	    "lean" : "full"));
	json_object_set_new(j, "log_max", cf->log_max > 0 ?
	    json_integer(cf->log_max) : json_null());
	if (cf->game_list != NULL) {
		bots = json_array();
		for (i = 0; i < cf->ngame_list; i++)
			json_array_append_new(bots,
			    json_integer(cf->game_list[i]));
		json_object_set_new(j, "game_list", bots);
	}
	json_decref(o);
	if (mlog_on(&m->log)) {
		m->msg.len = 0;
		buf_json(&m->msg, j);
		buf_add(&m->msg, "\n", 1);
		mlog_prepend(&m->log, m->msg.p, m->msg.len);
	}
	json_decref(j);
	m->log.hold = 0;
	return 0;
}

/* Returns a JSON array of per-seat values mapped to per-bot order. */
static json_t *
per_seat_json(const struct match *m, const int *ip, const double *dp)
{
	json_t *a;
	int s;

	a = json_array();
	for (s = 0; s < m->n; s++)
		json_array_append_new(a, ip != NULL ? json_integer(ip[s]) :
		    score_json(dp[s]));
	return a;
}

/* Appends the --results line of the game just played. */
static int
write_results_line(struct match *m, const int *places, const double *scores,
    int capped)
{
	struct buf q = { NULL, 0, 0 };
	struct resline r;
	int s, i, rc = 0;
	ssize_t n;
	size_t off;

	if (m->resfd == -1)
		return 0;
	memset(&r, 0, sizeof r);
	r.game = m->gi;
	r.seed = (int64_t)m->deal_seed;
	r.n = m->n;
	for (s = 0; s < m->n; s++) {
		r.seats[s] = m->seat_bot[s];
		r.places[m->seat_bot[s]] = places[s];
		r.scores[m->seat_bot[s]] = scores[s];
	}
	for (i = 0; i < m->n; i++) {
		memcpy(r.kinds[i], m->bots[i].game_kinds, sizeof r.kinds[i]);
		r.hello[i] = m->bots[i].game_hello;
		memcpy(r.limits[i], m->bots[i].game_limits,
		    sizeof r.limits[i]);
		r.retired[i] = m->bots[i].capped;
	}
	r.capped = capped;
	if (m->cf->log_path != NULL)
		strlcpy(r.log, m->cf->log_path, sizeof r.log);
	resline_encode(&q, &r);
	for (off = 0; off < q.len; off += (size_t)n) {
		n = write(m->resfd, q.p + off, q.len - off);
		if (n == -1 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			m->res->disk_full = match_disk_full(n == 0 ? ENOSPC :
			    errno);
			rc = failf(m, "results: %s", strerror(n == 0 ? ENOSPC :
			    errno));
			break;
		}
	}
	buf_free(&q);
	return rc;
}

/*
 * Plays game gi of the match, reporting it (results line, match result)
 * unless it only replays what the bots saw before a listed game.  -1 on a
 * referee error or a stop.
 */
static int
play_game(struct match *m, int gi, int reported)
{
	const struct match_config *cf = m->cf;
	const struct game *g = m->g;
	struct mbot *b;
	struct buf *l, *q = &m->msg, fin = { NULL, 0, 0 };
	double scores[MAX_PLAYERS];
	int places[MAX_PLAYERS], s, i, pending, capped, cut = 0;
	uint32_t d;

	m->gi = gi;
	m->replaying = !reported;
	m->deal_seed = match_deal_seed(cf->seed, gi, m->n, cf->duplicate);
	for (s = 0; s < m->n; s++) {
		m->seat_bot[s] = match_seat_bot(s, gi, m->n, cf->duplicate);
		b = &m->bots[m->seat_bot[s]];
		b->seat = s;
		/* The handshake's faults count toward game 0's cap. */
		b->capped = b->retired = cf->max_faults > 0 &&
		    b->game_faults >= cf->max_faults;
		b->bank_us = cf->time_bank_ms * 1000;
	}
	ev_clear(&m->ev);
	evfeed_reset(&m->feed);
	m->step = 0;
	rng_seed(&m->rng, m->deal_seed);
	memset(m->st, 0, g->state_size);
	g->init(m->st, &cf->opts, deal_setup(g, cf->setup, cf->book,
	    cf->nbook, gi, m->n, cf->duplicate), &m->rng, &m->ev);
	if (mlog_on(&m->log)) {
		l = mlog_begin(&m->log, "game_start");
		buf_str(l, ",\"t\":");
		buf_int(l, mtime(m));
		buf_str(l, ",\"game\":");
		buf_int(l, gi);
		buf_str(l, ",\"seed\":");
		buf_int(l, (long long)m->deal_seed);
		buf_str(l, ",\"seats\":[");
		for (s = 0; s < m->n; s++) {
			if (s)
				buf_add(l, ",", 1);
			buf_int(l, m->seat_bot[s]);
		}
		buf_str(l, "]");
		if (!reported)
			buf_str(l, ",\"replayed\":true");
		buf_str(l, ",\"deal\":");
		msg_view(l, g, m->st, SEAT_ALL);
		mlog_end(&m->log);
	}
	for (s = 0; s < m->n; s++) {
		b = &m->bots[m->seat_bot[s]];
		q->len = 0;
		msg_start(q, g, m->st, gi, s, m->n, b->wants);
		b->emark = 1;
		bot_send(m, b, q, "start", -1, 0, 0);
	}
	while ((d = g->deciders(m->st)) != 0) {
		if (cf->max_decisions > 0 && m->step >= cf->max_decisions) {
			cut = 1;
			break;
		}
		for (s = 0; s < m->n; s++)
			if ((d & (1u << s)) && ask(m, s) == -1)
				return -1;
		for (;;) {
			if (cf->stop != NULL && *cf->stop)
				return -1;
			for (s = 0, pending = 0; s < m->n; s++)
				if ((d & (1u << s)) && m->bots[m->seat_bot[s]]
				    .source == SRC_NONE)
					pending = 1;
			if (!pending)
				break;
			if (pump(m, INT64_MAX) == -1)
				return -1;
		}
		for (s = 0; s < m->n; s++)
			if ((d & (1u << s)) && settle(m, s) == -1)
				return -1;
	}
	if (cut)
		match_adjudicate(m->n, places, scores);
	else
		g->result(m->st, places, scores);
	msg_view(&fin, g, m->st, SEAT_ALL);
	capped = cut || json_text_true(fin.p, fin.len, "capped");
	if (mlog_on(&m->log)) {
		l = mlog_begin(&m->log, "game_end");
		buf_str(l, ",\"t\":");
		buf_int(l, mtime(m));
		buf_str(l, ",\"game\":");
		buf_int(l, gi);
		buf_str(l, ",\"steps\":");
		buf_int(l, m->step);
		buf_str(l, ",\"capped\":");
		buf_str(l, capped ? "true" : "false");
		if (cut)
			buf_str(l, ",\"max_decisions\":true");
		buf_str(l, ",\"places\":");
		buf_add(l, "[", 1);
		for (s = 0; s < m->n; s++) {
			if (s)
				buf_add(l, ",", 1);
			buf_int(l, places[s]);
		}
		buf_str(l, "],\"scores\":");
		{
			json_t *a = per_seat_json(m, NULL, scores);

			buf_json(l, a);
			json_decref(a);
		}
		buf_str(l, ",\"faults\":[");
		for (i = 0; i < m->n; i++) {
			if (i)
				buf_add(l, ",", 1);
			buf_int(l, m->bots[i].game_faults);
		}
		buf_str(l, "],\"final\":");
		buf_add(l, fin.p, fin.len);
		mlog_end(&m->log);
	}
	m->replaying = 0;	/* faults from here on count (verify.c) */
	for (s = 0; s < m->n; s++) {
		b = &m->bots[m->seat_bot[s]];
		q->len = 0;
		msg_end_text(q, g, m->st, gi, s, m->n, places, scores,
		    &m->feed, &m->ev, fin.p, fin.len, b->wants);
		b->emark = 1;
		bot_send(m, b, q, "end", -1, 0, 0);
	}
	buf_free(&fin);
	for (s = 0; s < m->n && reported; s++) {
		m->res->scores[m->seat_bot[s]] += scores[s];
		m->res->place_sum[m->seat_bot[s]] += places[s];
	}
	m->res->games_played += reported;
	/*
	 * The game's log lines go out before its result does (a game nobody
	 * was asked in never waited; a batch may be held): a game a tournament
	 * journals always has its whole log on disk.
	 */
	if (mlog_flush(&m->log) == -1)
		return log_failed(m);
	if (reported && write_results_line(m, places, scores, capped) == -1)
		return -1;
	for (i = 0; i < m->n; i++) {
		m->bots[i].game_faults = 0;
		m->bots[i].game_hello = 0;
		memset(m->bots[i].game_kinds, 0,
		    sizeof m->bots[i].game_kinds);
		memset(m->bots[i].game_limits, 0,
		    sizeof m->bots[i].game_limits);
	}
	return 0;
}

/*
 * Says bye, gives the bots a grace period to exit, then kills them all;
 * final: the match is over (their stderr files are closed).
 */
static void
shutdown_bots(struct match *m, int final)
{
	struct buf q = { NULL, 0, 0 };
	struct mbot *b;
	int64_t dl;
	int i, alive;

	m->shutting = 1;
	msg_bye(&q);
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (!b->alive)
			continue;
		b->close_after = 1;
		bot_send(m, b, &q, "bye", -1, 0, 0);
		if (b->ooff == b->out.len)
			bot_close_in(m, b);
	}
	buf_free(&q);
	dl = now_us() + m->cf->grace_ms * 1000;
	for (;;) {
		for (i = 0, alive = 0; i < m->n; i++)
			alive += m->bots[i].alive;
		if (alive == 0 || now_us() >= dl ||
		    (m->cf->stop != NULL && *m->cf->stop))
			break;
		if (pump(m, dl) == -1)
			break;
	}
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (b->alive)
			bot_lost(m, b);
		else if (b->spawned && !b->p.reaped)
			bot_reap(m, b);
		if (final && b->eown && b->efd != -1) {
			if (b->edrop > 0)
				dprintf(b->efd, "%s--- cardarena: %zu more "
				    "bytes dropped (the cap is %zu) ---\n",
				    b->eline ? "\n" : "", b->edrop,
				    m->cf->stderr_cap);
			close(b->efd);
			b->efd = -1;
		}
	}
}

json_t *
match_result_json(const struct match_result *res)
{
	json_t *j, *names, *places, *scores, *faults, *kinds, *k;
	long total;
	int i, f;

	names = json_array();
	places = json_array();
	scores = json_array();
	faults = json_array();
	kinds = json_array();
	for (i = 0; i < res->nbots; i++) {
		json_array_append_new(names, json_string(res->names[i]));
		json_array_append_new(places, json_integer(res->places[i]));
		json_array_append_new(scores, score_json(res->scores[i]));
		k = json_object();
		for (f = 0, total = 0; f < NFAULT; f++) {
			json_object_set_new(k, fault_names[f],
			    json_integer(res->faults[i][f]));
			total += res->faults[i][f];
		}
		json_array_append_new(faults, json_integer(total));
		json_array_append_new(kinds, k);
	}
	j = json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:o}", "type", "result",
	    "games", res->games_played, "names", names, "places", places,
	    "scores", scores, "faults", faults, "fault_kinds", kinds);
	return j;
}

/*
 * The match's places: by the scores summed over its games, equal sums
 * parted by the sum of the games' places (so a one-game match keeps the
 * game's own tie-breaks); still equal, they share a place.
 */
void
match_places(struct match_result *r)
{
	int i, j;

	for (i = 0; i < r->nbots; i++) {
		r->places[i] = 1;
		for (j = 0; j < r->nbots; j++)
			if (r->scores[j] > r->scores[i] ||
			    (r->scores[j] == r->scores[i] &&
			    r->place_sum[j] < r->place_sum[i]))
				r->places[i]++;
	}
}

/* Writes the result line of the log. */
static void
write_result(struct match *m)
{
	json_t *j;

	match_places(m->res);
	if (!mlog_on(&m->log))
		return;
	j = match_result_json(m->res);
	json_object_set_new(j, "t", json_integer(mtime(m)));
	json_object_set_new(j, "n", json_integer(m->log.lines++));
	buf_json(&m->log.b, j);
	buf_add(&m->log.b, "\n", 1);
	json_decref(j);
}

int
match_run(const struct match_config *cf, struct match_result *res,
    char *cause, size_t len)
{
	struct match m;
	struct mbot *b;
	struct buf *l;
	struct sigaction ign, oldpipe;
	char path[PATH_MAX], why[256];
	int i, gi, reported, fresh, rc = -1;
	long k;

	memset(&m, 0, sizeof m);
	memset(res, 0, sizeof *res);
	res->nbots = cf->nbots;
	m.cf = cf;
	match_nonce(cf->seed, m.nonce);
	m.g = cf->game;
	m.res = res;
	m.n = cf->nbots;
	m.resfd = -1;
	m.epfd = -1;
	m.next_id = 1;
	m.t0 = now_us();
	if (m.n < 1 || m.n > MAX_PLAYERS || m.n != cf->opts.players) {
		snprintf(cause, len, "%d bots for %d players", m.n,
		    cf->opts.players);
		return -1;
	}
	m.bots = xcalloc((size_t)m.n, sizeof *m.bots);
	for (i = 0; i < m.n; i++) {
		b = &m.bots[i];
		b->index = i;
		b->wants = WANT_ALL;
		b->efd = -1;
		b->wfd[0] = b->wfd[1] = b->wfd[2] = b->wfd[3] = -1;
		b->p.in = b->p.out = b->p.err = b->p.pidfd = -1;
		b->command = cf->commands[i];
		if (argv_split(cf->commands[i], &b->argv, why, sizeof why) ==
		    -1) {
			snprintf(cause, len, "bot %d: %s", i, why);
			goto out;
		}
		snprintf(b->name, sizeof b->name, "%s", b->argv[0]);
		b->legal = xcalloc(MAX_LEGAL, sizeof *b->legal);
	}
	if (mlog_open(&m.log, cf->log_path, cause, len) == -1)
		goto out;
	m.log.lean = cf->log_lean;
	m.log.max = cf->log_max;
	if (cf->results_path != NULL) {
		if (strcmp(cf->results_path, "-") == 0)
			m.resfd = STDOUT_FILENO;
		else if ((m.resfd = open(cf->results_path, O_WRONLY |
		    O_CREAT | O_APPEND | O_CLOEXEC, 0600)) == -1) {
			snprintf(cause, len, "%s: %s", cf->results_path,
			    strerror(errno));
			goto out;
		}
	}
	for (i = 0; i < m.n; i++) {
		b = &m.bots[i];
		if (cf->log_path != NULL) {
			snprintf(path, sizeof path, "%s.bot%d.stderr",
			    cf->log_path, i);
			if ((b->efd = open(path, O_WRONLY | O_CREAT | O_TRUNC |
			    O_CLOEXEC, 0600)) == -1 ||
			    fchmod(b->efd, 0600) == -1) {
				snprintf(cause, len, "%s: %s", path,
				    strerror(errno));
				goto out;
			}
			b->eown = 1;
		} else
			b->efd = STDERR_FILENO;
	}
	m.st = xcalloc(1, m.g->state_size);
	m.pfd = xcalloc((size_t)m.n * 4, sizeof *m.pfd);
	m.pbot = xcalloc((size_t)m.n * 4, sizeof *m.pbot);
#ifdef HAVE_EPOLL
	if ((m.epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		snprintf(cause, len, "epoll_create1: %s", strerror(errno));
		goto out;
	}
#endif

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &oldpipe);
	playorder_init(&m.po, cf->games, m.n, cf->duplicate, cf->game_list,
	    cf->ngame_list, !cf->no_replay, cf->first_game);
	for (k = 0; k < m.po.total; k++) {
		gi = playorder_game(&m.po, k, &reported, &fresh);
		if (fresh) {
			/* a new lifetime: new processes, which saw nothing */
			if (k > 0)
				shutdown_bots(&m, 0);
			if (cf->stop != NULL && *cf->stop)
				goto fail;
			if (spawn_bots(&m, cause, len) == -1) {
				if (k == 0)
					goto stop;
				failf(&m, "%s", cause);
				goto fail;
			}
			if (handshake(&m, gi) == -1)
				goto fail;
		}
		if (play_game(&m, gi, reported) == -1)
			goto fail;
	}
	shutdown_bots(&m, 1);
	write_result(&m);
	if (mlog_close(&m.log) == -1) {
		snprintf(cause, len, "%s", m.log.error);
		res->disk_full = match_disk_full(m.log.error_no);
		goto stop;
	}
	rc = 0;
	goto stop;

fail:
	if (cf->stop != NULL && *cf->stop) {
		res->aborted = *cf->stop;
		snprintf(cause, len, "stopped by signal %d (%s)", res->aborted,
		    strsignal(res->aborted));
	} else
		snprintf(cause, len, "%s", m.err[0] ? m.err : "failed");
	m.shutting = 1;
	/* All killed at once, then each reaped: they die side by side. */
	for (i = 0; i < m.n; i++)
		if (m.bots[i].alive)
			proc_signal(&m.bots[i].p, SIGKILL);
	for (i = 0; i < m.n; i++)
		bot_lost(&m, &m.bots[i]);
	if (mlog_on(&m.log)) {
		l = mlog_begin(&m.log, res->aborted ? "aborted" : "error");
		buf_str(l, ",\"t\":");
		buf_int(l, mtime(&m));
		buf_str(l, ",\"detail\":");
		buf_jstr(l, cause, strlen(cause));
		mlog_end(&m.log);
	}
	mlog_close(&m.log);
stop:
	for (i = 0; i < m.n; i++)
		if (m.bots[i].spawned && !m.bots[i].p.reaped)
			bot_reap(&m, &m.bots[i]);
	sigaction(SIGPIPE, &oldpipe, NULL);
out:
	res->wall_us = now_us() - m.t0;
	if (m.log.fd != -1)
		mlog_close(&m.log);
	if (m.resfd > STDOUT_FILENO)
		close(m.resfd);
	for (i = 0; m.bots != NULL && i < m.n; i++) {
		b = &m.bots[i];
		argv_free(b->argv);
		free(b->ibuf);
		free(b->legal);
		buf_free(&b->out);
		if (b->eown && b->efd != -1)
			close(b->efd);
	}
	free(m.bots);
	free(m.st);
	if (m.epfd != -1)
		close(m.epfd);
	free(m.pfd);
	free(m.pbot);
	playorder_free(&m.po);
	evfeed_free(&m.feed);
	buf_free(&m.msg);
	ev_free(&m.ev);
	return rc;
}
