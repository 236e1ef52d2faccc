/*
 * The bot processes' I/O; see botio.h.  Reads and writes never block:
 * stdout is read into a line buffer with a hard cap (MAX_LINE), a message
 * goes to stdin straight from the caller's buffer when nothing is queued,
 * and stderr is drained all the time, since an undrained pipe blocks a bot
 * and looks like a timeout.  One watch set holds what each bot needs
 * watched (bot_fd): with epoll(7) it changes only when that changes.
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
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "botio.h"
#include "log.h"
#include "messages.h"

#define EXIT_WAIT_MS	50		/* for a status after end of output */
#define RELAY_WAIT_MS	60000		/* the same, its init exiting */
#define READS_PER_WAKE	4		/* fairness between chatty bots */
#define LOGGED_PREFIX	256		/* bytes of an over-long line logged */
#define MAX_QUEUED	(16 * 1024 * 1024)	/* unread input */

/* What one read of a bot's stdout gave. */
enum fill {
	FILL_DATA,	/* new bytes in the line buffer */
	FILL_AGAIN,	/* nothing to scan (skipped, or interrupted) */
	FILL_EMPTY,	/* the pipe is empty */
	FILL_END	/* end of output, or a read error */
};

static void	bot_write(struct botset *, struct mbot *);
static enum fill bot_fill(struct mbot *, size_t *, ssize_t *, size_t *);
static int	bot_read_some(struct botset *, struct mbot *, int);
static void	bot_line(struct botset *, struct mbot *, char *, size_t);
static void	bot_stderr(struct botset *, struct mbot *, int);
static void	bot_unwatch(struct botset *, struct mbot *, int);
static void	bot_close_in(struct botset *, struct mbot *);
static int	bot_fd(const struct mbot *, enum slot, short *);
static void	bot_fault(struct botset *, struct mbot *, enum fault, int,
		    const char *, ...) __attribute__((format(printf, 5, 6)));

#ifdef HAVE_EPOLL
const char *const botset_wait_call = "epoll";
const char *const botset_sync_call = "epoll_ctl";
#else
const char *const botset_wait_call = "poll";
const char *const botset_sync_call = "poll";
#endif

int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Hands a fault of b's I/O up to the owner's hook, once, with its detail's
 * format and arguments (the owner formats every fault); limit: the limit
 * it hit (FAULT_LIMIT), else -1.
 */
static void
bot_fault(struct botset *bs, struct mbot *b, enum fault kind, int limit,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs->hooks->fault(bs->arg, b, kind, limit, fmt, ap);
	va_end(ap);
}

int
botset_init(struct botset *bs, int n, char *const *commands, char *cause,
    size_t len)
{
	struct mbot *b;
	char why[256];
	int i, k;

	bs->n = n;
	bs->epfd = -1;
	bs->bots = xcalloc((size_t)n, sizeof *bs->bots);
	for (i = 0; i < n; i++) {
		b = &bs->bots[i];
		b->index = i;
		b->wants = WANT_ALL;
		b->ecopy.fd = -1;
		for (k = 0; k < NSLOT; k++)
			b->w[k].fd = -1;
		b->p.in = b->p.out = b->p.err = b->p.pidfd = -1;
		b->command = commands[i];
		if (argv_split(commands[i], &b->argv, why, sizeof why) == -1) {
			snprintf(cause, len, "bot %d: %s", i, why);
			return -1;
		}
		snprintf(b->name, sizeof b->name, "%s", b->argv[0]);
		b->legal = xcalloc(MAX_LEGAL, sizeof *b->legal);
	}
	return 0;
}

int
botset_stderr_files(struct botset *bs, const char *log_path, char *cause,
    size_t len)
{
	char path[PATH_MAX];
	struct mbot *b;
	int i;

	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		if (log_path != NULL) {
			snprintf(path, sizeof path, "%s.bot%d.stderr",
			    log_path, i);
			if ((b->ecopy.fd = open(path, O_WRONLY | O_CREAT |
			    O_TRUNC | O_CLOEXEC, 0600)) == -1 ||
			    fchmod(b->ecopy.fd, 0600) == -1) {
				snprintf(cause, len, "%s: %s", path,
				    strerror(errno));
				return -1;
			}
			b->ecopy.own = 1;
		} else
			b->ecopy.fd = STDERR_FILENO;
	}
	return 0;
}

int
botset_watch(struct botset *bs, char *cause, size_t len)
{
	bs->pfd = xcalloc((size_t)bs->n * NSLOT, sizeof *bs->pfd);
	bs->ready = xcalloc((size_t)bs->n * NSLOT, sizeof *bs->ready);
#ifdef HAVE_EPOLL
	if ((bs->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		snprintf(cause, len, "epoll_create1: %s", strerror(errno));
		return -1;
	}
#endif
	return 0;
}

void
botset_stderr_close(struct botset *bs)
{
	struct mbot *b;
	int i;

	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		if (!b->ecopy.own || b->ecopy.fd == -1)
			continue;
		if (b->ecopy.drop > 0)
			dprintf(b->ecopy.fd, "%s--- cardarena: %zu more bytes "
			    "dropped (the cap is %zu) ---\n",
			    b->ecopy.midline ? "\n" : "", b->ecopy.drop,
			    bs->stderr_cap);
		close(b->ecopy.fd);
		b->ecopy.fd = -1;
	}
}

void
botset_free(struct botset *bs)
{
	struct mbot *b;
	int i;

	for (i = 0; bs->bots != NULL && i < bs->n; i++) {
		b = &bs->bots[i];
		argv_free(b->argv);
		free(b->rd.buf);
		free(b->legal);
		buf_free(&b->wq.buf);
		if (b->ecopy.own && b->ecopy.fd != -1)
			close(b->ecopy.fd);
	}
	free(bs->bots);
	if (bs->epfd != -1)
		close(bs->epfd);
	free(bs->pfd);
	free(bs->ready);
	bs->bots = NULL;
	bs->epfd = -1;
	bs->pfd = NULL;
	bs->ready = NULL;
}

int
botset_spawn(struct botset *bs, int *failed, char *cause, size_t len)
{
	struct mbot *b;
	char why[256];
	int i;

	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		bot_unwatch(bs, b, -1);	/* none: every close unwatched */
		memset(&b->p, 0, sizeof b->p);
		b->p.in = b->p.out = b->p.err = b->p.pidfd = -1;
		b->rd.len = b->wq.off = b->wq.buf.len = 0;
		b->rd.skipping = b->wq.close_after = 0;
		b->spawned = b->alive = 0;
	}
	/* All forked first, then each exec awaited: they start at once. */
	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		if (proc_start(&b->p, b->argv, b->index, why, sizeof why) ==
		    -1) {
			snprintf(cause, len, "bot %d: %s", i, why);
			*failed = i;
			return -1;
		}
		b->spawned = 1;
	}
	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		if (proc_started(&b->p, why, sizeof why) == -1) {
			b->spawned = 0;
			snprintf(cause, len, "bot %d: %s", i, why);
			*failed = i;
			return -1;
		}
		b->alive = 1;
		b->out_ended = 0;
	}
	return 0;
}

/*
 * Writes what the pipe takes now, straight from msg when nothing is queued
 * (only the rest is copied into the queue), and logs it after the write:
 * the bot starts on it while the log line is composed.
 */
void
bot_send(struct botset *bs, struct mbot *b, const struct buf *msg,
    const char *kind, int64_t id, long tl, int64_t at)
{
	struct msgnote note = { kind, id, tl };
	ssize_t n = 0;
	int e = 0, wrote = 0;

	if (at == 0)
		at = now_us();
	if (b->alive && b->p.in != -1 && b->wq.off == b->wq.buf.len) {
		b->wq.off = b->wq.buf.len = 0;
		do
			n = write(b->p.in, msg->p, msg->len);
		while (n == -1 && errno == EINTR);
		e = errno;
		wrote = 1;
	}
	mlog_send(bs->log, at - bs->t0, b->index, &note, msg->p, msg->len);
	if (!b->alive || b->p.in == -1)
		return;
	if (wrote) {
		if (n == -1 && e != EAGAIN) {
			bot_close_in(bs, b);
			bot_lost(bs, b);
			return;
		}
		if (n == (ssize_t)msg->len) {
			if (b->wq.close_after)
				bot_close_in(bs, b);
			return;
		}
		if (n < 0)
			n = 0;
	}
	buf_add(&b->wq.buf, msg->p + n, msg->len - (size_t)n);
	if (b->wq.buf.len - b->wq.off > MAX_QUEUED) {
		/* It does not read its input: never let it grow us. */
		b->lost_why = "does not read its input (16 MiB queued)";
		bot_close_in(bs, b);
		bot_lost(bs, b);
		return;
	}
	bot_write(bs, b);
}

/* Writes queued bytes to b's stdin until the pipe is full. */
static void
bot_write(struct botset *bs, struct mbot *b)
{
	struct inqueue *q = &b->wq;
	ssize_t n;

	while (b->p.in != -1 && q->off < q->buf.len) {
		n = write(b->p.in, q->buf.p + q->off, q->buf.len - q->off);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			/* EPIPE: it closed its input; it cannot be asked. */
			bot_close_in(bs, b);
			bot_lost(bs, b);
			return;
		}
		q->off += (size_t)n;
	}
	if (q->off == q->buf.len) {
		q->off = q->buf.len = 0;
		if (q->close_after)
			bot_close_in(bs, b);
	}
}

void
bot_close_after(struct botset *bs, struct mbot *b)
{
	if (b->wq.off == b->wq.buf.len)
		bot_close_in(bs, b);
}

void
bot_asked(struct mbot *b)
{
	b->rd.bytes = 0;
	b->rd.lines = 0;
	if (b->rd.muted && b->rd.len > 0) {
		b->rd.skipping = 1;	/* the rest of a line it was cut in */
		b->rd.len = 0;
	}
	b->rd.muted = 0;
}

/*
 * Reads b's stdout and hands each complete line to the hooks; drain reads
 * until the pipe is empty.  Returns 1 at end of output or a read error.
 * A line's handling may lose the bot (a write to it fails) and so come
 * back here: that nested call reads nothing, as the outer one still walks
 * the line buffer a nested read could move.
 */
int
bot_read(struct botset *bs, struct mbot *b, int drain)
{
	int r;

	if (b->rd.reading)
		return 0;
	b->rd.reading = 1;
	r = bot_read_some(bs, b, drain);
	b->rd.reading = 0;
	return r;
}

/*
 * Reads once from b's stdout: muted, the bytes are dropped; inside an
 * over-long line, they are dropped up to its end and the rest goes to the
 * start of the line buffer; else they are added to it.  With FILL_DATA,
 * the new bytes start at *from; *got is what the read gave of *want.
 */
static enum fill
bot_fill(struct mbot *b, size_t *from, ssize_t *got, size_t *want)
{
	struct linereader *r = &b->rd;
	char skip[65536], *nl;
	ssize_t n;

	if (r->muted) {
		/* Flooded: dropped unread until its next request. */
		n = read(b->p.out, skip, sizeof skip);
		if (n > 0) {
			r->skipping = skip[n - 1] != '\n';
			r->len = 0;
			return FILL_AGAIN;
		}
	} else if (r->skipping) {
		*want = sizeof skip;
		*got = n = read(b->p.out, skip, sizeof skip);
		if (n > 0 && (nl = memchr(skip, '\n', (size_t)n)) != NULL) {
			r->skipping = 0;
			n -= nl + 1 - skip;
			if (r->cap < (size_t)n + 1) {
				r->cap = (size_t)n + 4096;
				r->buf = xreallocarray(r->buf, r->cap, 1);
			}
			memcpy(r->buf, nl + 1, (size_t)n);
			r->len = (size_t)n;
			*from = 0;
			return FILL_DATA;
		}
		if (n > 0)
			return FILL_AGAIN;
	} else {
		if (r->cap - r->len < 4096 && r->cap < MAX_LINE + 2) {
			r->cap = r->cap ? r->cap * 2 : 8192;
			if (r->cap > MAX_LINE + 2)
				r->cap = MAX_LINE + 2;
			r->buf = xreallocarray(r->buf, r->cap, 1);
		}
		*want = r->cap - r->len;
		*got = n = read(b->p.out, r->buf + r->len, *want);
		if (n > 0) {
			*from = r->len;
			r->len += (size_t)n;
			return FILL_DATA;
		}
	}
	if (n == 0)
		return FILL_END;
	if (errno == EINTR)
		return FILL_AGAIN;
	return errno == EAGAIN ? FILL_EMPTY : FILL_END;
}

/* The body of bot_read: reads and hands on lines, never re-entered. */
static int
bot_read_some(struct botset *bs, struct mbot *b, int drain)
{
	struct linereader *r = &b->rd;
	char *nl, *start;
	size_t from = 0, want = 0;
	ssize_t got = 0;
	int reads;

	for (reads = 0; b->p.out != -1 && (drain || reads < READS_PER_WAKE);
	    reads++) {
		switch (bot_fill(b, &from, &got, &want)) {
		case FILL_DATA:
			break;
		case FILL_AGAIN:
			continue;
		case FILL_EMPTY:
			return 0;
		case FILL_END:
			return 1;
		}
		r->bytes += (size_t)got;
		start = r->buf;
		while (!r->muted && (nl = memchr(r->buf + from, '\n',
		    r->len - from)) != NULL) {
			*nl = '\0';
			bot_line(bs, b, start, (size_t)(nl - start));
			from = (size_t)(nl + 1 - r->buf);
			start = nl + 1;
		}
		if (!r->muted && bs->max_output > 0 &&
		    r->bytes > bs->max_output)
			bot_flood(bs, b);
		if (r->muted) {
			r->skipping = r->len > (size_t)(start - r->buf) &&
			    r->buf[r->len - 1] != '\n';
			r->len = 0;
			continue;
		}
		r->len -= (size_t)(start - r->buf);
		memmove(r->buf, start, r->len);
		if (r->len > MAX_LINE) {
			mlog_recv(bs->log, now_us() - bs->t0, b->index, r->buf,
			    LOGGED_PREFIX, 1);
			bot_fault(bs, b, FAULT_LONG_LINE, -1, "a line longer "
			    "than %d bytes", MAX_LINE);
			r->len = 0;
			r->skipping = 1;
		}
		/* A short read emptied the pipe: no read just for EAGAIN. */
		if (!drain && (size_t)got < want)
			return 0;
	}
	return 0;
}

/*
 * Takes one line of b's stdout: a flood past the lines a request allows
 * (while the match is not shutting down), else logged and handed on.
 */
static void
bot_line(struct botset *bs, struct mbot *b, char *line, size_t len)
{
	int64_t now;

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (++b->rd.lines > MAX_LINES_ASKED && !bs->shutting) {
		bot_flood(bs, b);
		return;
	}
	now = now_us();
	mlog_recv(bs->log, now - bs->t0, b->index, line, len, 0);
	bs->hooks->line(bs->arg, b, line, len, now);
}

/*
 * b sent more than its share of output for one request: one fault, and
 * what it sends is dropped unread (never logged) until it is asked again.
 */
void
bot_flood(struct botset *bs, struct mbot *b)
{
	b->rd.muted = 1;
	bot_fault(bs, b, FAULT_MALFORMED, -1, "more than %zu bytes or %d "
	    "lines of output for one request; the rest is dropped until the "
	    "next", bs->max_output, MAX_LINES_ASKED);
}

/* Copies b's stderr into its file (capped, with turn markers). */
static void
bot_stderr(struct botset *bs, struct mbot *b, int drain)
{
	struct errcopy *c = &b->ecopy;
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
			bot_unwatch(bs, b, SLOT_ERR);
			close(b->p.err);
			b->p.err = -1;
			return;
		}
		if (c->fd == -1)
			continue;
		if (c->mark && c->len < bs->stderr_cap) {
			if (c->own)
				k = snprintf(mark, sizeof mark, "\n--- "
				    "cardarena: game %d, request %lld ---\n",
				    bs->game, (long long)b->id);
			else
				k = snprintf(mark, sizeof mark, "\n--- "
				    "cardarena: bot %d (%s), game %d, request "
				    "%lld ---\n", b->index, b->name, bs->game,
				    (long long)b->id);
			k -= !c->midline;
			if (write(c->fd, mark + !c->midline, (size_t)k) == k)
				c->len += (size_t)k;
			c->midline = 0;
			c->mark = 0;
		}
		room = c->len < bs->stderr_cap ? bs->stderr_cap - c->len : 0;
		if ((size_t)n > room) {
			c->drop += (size_t)n - room;
			n = (ssize_t)room;
		}
		if (n > 0 && write(c->fd, data, (size_t)n) == n) {
			c->len += (size_t)n;
			c->midline = data[n - 1] != '\n';
		}
	}
}

/*
 * b's output ended, its stdin broke or it exited: takes what it had
 * written, kills its whole group, reaps it, and (unless the match is
 * shutting down) reports the fault.
 */
void
bot_lost(struct botset *bs, struct mbot *b)
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
	for (i = 0; !bs->shutting && i < ms && !proc_exited(&b->p); i++) {
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
	bot_read(bs, b, 1);
	bot_stderr(bs, b, 1);
	bot_reap(bs, b);
	if (bs->shutting)
		return;
	if (b->p.exited && (lim = contain_limit(b->p.signalled, b->p.code,
	    b->p.cpu_ms, b->p.maxrss_kb)) != NULL) {
		contain_limit_describe(lim, what, sizeof what);
		for (i = 0; i < NLIMIT; i++)
			if (strcmp(lim, limit_names[i]) == 0)
				break;
		bot_fault(bs, b, FAULT_LIMIT, i < NLIMIT ? i : -1,
		    "%s: %s (%s)", lim, what, how);
	} else
		bot_fault(bs, b, FAULT_EXIT, -1, "%s",
		    b->lost_why != NULL ? b->lost_why : how);
}

void
bot_check_exit(struct botset *bs, struct mbot *b)
{
	if (b->alive && b->p.pidfd == -1 && proc_exited(&b->p))
		bot_lost(bs, b);
}

/*
 * What of b is watched in slot, for what events: the descriptor, or -1
 * for none.
 */
static int
bot_fd(const struct mbot *b, enum slot slot, short *events)
{
	*events = POLLIN;
	if (!b->spawned || b->p.reaped)
		return -1;
	switch (slot) {
	case SLOT_OUT:
		return b->p.out;
	case SLOT_ERR:
		return b->p.err;
	case SLOT_IN:
		/* Always: a bot that closes its stdin is lost at once. */
		*events = b->wq.off < b->wq.buf.len ? POLLOUT : 0;
		return b->alive ? b->p.in : -1;
	default:
		return b->alive ? b->p.pidfd : -1;
	}
}

/* Stops watching b's descriptor in slot (-1: all), before it is closed. */
static void
bot_unwatch(struct botset *bs, struct mbot *b, int slot)
{
	int k;

	for (k = 0; k < NSLOT; k++) {
		if ((slot != -1 && k != slot) || b->w[k].fd == -1)
			continue;
#ifdef HAVE_EPOLL
		if (bs->epfd != -1)
			epoll_ctl(bs->epfd, EPOLL_CTL_DEL, b->w[k].fd, NULL);
#endif
		b->w[k].fd = -1;
	}
}

/* Closes b's stdin. */
static void
bot_close_in(struct botset *bs, struct mbot *b)
{
	bot_unwatch(bs, b, SLOT_IN);
	proc_close_in(&b->p);
}

void
bot_reap(struct botset *bs, struct mbot *b)
{
	bot_unwatch(bs, b, -1);
	proc_reap(&b->p);
}

#ifdef HAVE_EPOLL
/*
 * Brings the epoll set in line with what each bot needs watched (bot_fd);
 * in the steady state this makes no system call.  An event's data is
 * bot * NSLOT + slot.
 */
int
botset_sync(struct botset *bs)
{
	struct epoll_event ev;
	struct mbot *b;
	short events;
	int i, k, fd, op;

	for (i = 0; i < bs->n; i++) {
		b = &bs->bots[i];
		for (k = 0; k < NSLOT; k++) {
			fd = bot_fd(b, k, &events);
			if (fd == b->w[k].fd && (fd == -1 ||
			    events == b->w[k].events))
				continue;
			op = EPOLL_CTL_MOD;
			if (fd != b->w[k].fd) {
				bot_unwatch(bs, b, k);
				op = EPOLL_CTL_ADD;
			}
			if (fd == -1)
				continue;
			memset(&ev, 0, sizeof ev);
			ev.events = (uint32_t)events;
			ev.data.u32 = (uint32_t)(i * NSLOT + k);
			if (epoll_ctl(bs->epfd, op, fd, &ev) == -1)
				return -1;
			b->w[k].fd = fd;
			b->w[k].events = events;
		}
	}
	return 0;
}

/* Waits on the epoll set; the ready ones sorted as poll(2) lists them. */
int
botset_wait(struct botset *bs, int timeout)
{
	struct epoll_event ev[NSLOT * MAX_PLAYERS];
	int i, j, r, key;

	bs->nready = 0;
	if ((r = epoll_wait(bs->epfd, ev, NSLOT * bs->n, timeout)) <= 0)
		return r;
	for (i = 0; i < r; i++) {
		key = (int)ev[i].data.u32;
		for (j = i; j > 0 && bs->ready[j - 1].bot * NSLOT +
		    (int)bs->ready[j - 1].slot > key; j--) {
			bs->ready[j] = bs->ready[j - 1];
			bs->pfd[j] = bs->pfd[j - 1];
		}
		bs->ready[j].bot = key / NSLOT;
		bs->ready[j].slot = key % NSLOT;
		bs->pfd[j].fd = bs->bots[key / NSLOT].w[key % NSLOT].fd;
		bs->pfd[j].revents = (short)ev[i].events;
	}
	bs->nready = r;
	return r;
}
#else
/* Without epoll, each wait lists the descriptors anew. */
int
botset_sync(struct botset *bs)
{
	return 0;
}

/* A poll(2) of what each bot needs watched (bot_fd). */
int
botset_wait(struct botset *bs, int timeout)
{
	short events;
	int i, k, fd;

	for (i = 0, bs->nready = 0; i < bs->n; i++)
		for (k = 0; k < NSLOT; k++)
			if ((fd = bot_fd(&bs->bots[i], k, &events)) != -1) {
				bs->pfd[bs->nready] = (struct pollfd){ fd,
				    events, 0 };
				bs->ready[bs->nready++] = (struct ready){ i,
				    k };
			}
	return poll(bs->pfd, (nfds_t)bs->nready, timeout);
}
#endif

void
botset_handle(struct botset *bs)
{
	struct mbot *b;
	int i;

	for (i = 0; i < bs->nready; i++) {
		if (bs->pfd[i].revents == 0)
			continue;
		b = &bs->bots[bs->ready[i].bot];
		switch (bs->ready[i].slot) {
		case SLOT_OUT:
			if (b->p.out != -1 && bot_read(bs, b, 0)) {
				b->out_ended = 1;
				bot_lost(bs, b);
			}
			break;
		case SLOT_ERR:
			bot_stderr(bs, b, 0);
			break;
		case SLOT_IN:
			if (bs->pfd[i].revents & (POLLERR | POLLHUP)) {
				bot_close_in(bs, b);
				bot_lost(bs, b);
			} else if (b->p.in != -1)
				bot_write(bs, b);
			break;
		default:
			bot_lost(bs, b);
			break;
		}
	}
}

int
botset_polled(const struct botset *bs)
{
	int i;

	for (i = 0; i < bs->n; i++)
		if (bs->bots[i].alive && bs->bots[i].p.pidfd == -1)
			return 1;
	return 0;
}
