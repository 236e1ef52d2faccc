/*
 * The match loop; see match.h and protocol.md.
 *
 * Each game is dealt, each bot told it starts, then played in rounds: the
 * referee asks every seat that must decide now at once, waits until each
 * has answered or faulted, then applies the actions in seat order, so the
 * action sequence does not depend on who answered first; at its end the
 * bots are told the result and it is logged and reported.  A message is
 * composed as text once; the same bytes go to the bot and into the log.
 * Substitute moves after a fault come from a generator seeded by the deal
 * seed and the step, never from the timing of other faults.  The bots'
 * processes and pipes are botio.c's; what their lines mean is here, and
 * so are their open requests (sent when, due when, the time bank) and
 * every fault's cost.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "botio.h"
#include "log.h"
#include "match.h"
#include "matchlog.h"
#include "messages.h"
#include "results.h"

#define FALLBACK_POLL_MS	50	/* exit checks without a pidfd */
/*
 * A wait this long writes the log; not 1 ms, which would set and clear a
 * timer at every wait.
 */
#define LOG_IDLE_MS		20
#define LOG_BATCH		(256 * 1024)	/* log bytes held at most */


struct match {
	const struct match_config *cf;
	char			 nonce[NONCE_LEN + 1];	/* in every hello */
	const struct game	*g;
	struct match_result	*res;
	struct botset		 bs;		/* the bots and their I/O */
	struct mbot		*bots;		/* bs.bots */
	int			 n;		/* bs.n */
	struct mlog		 log;
	int			 resfd;
	int64_t			 t0;
	int64_t			 next_id;
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
	int			 replaying;	/* a game not reported */
	struct playorder	 po;
};

static int64_t	mtime(struct match *);
static int	failf(struct match *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	log_failed(struct match *);
static void	fault(struct match *, struct mbot *, enum fault, int64_t,
		    const char *, va_list) __attribute__((format(printf, 5, 0)));
static void	faultf(struct match *, struct mbot *, enum fault, int64_t,
		    const char *, ...) __attribute__((format(printf, 5, 6)));
static void	on_fault(void *, struct mbot *, enum fault, int,
		    const char *, va_list)
		    __attribute__((format(printf, 5, 0)));
static void	answered(struct match *, struct mbot *, struct action,
		    int64_t);
static void	closed_add(struct mbot *, int64_t);
static int	closed_has(const struct mbot *, int64_t);
static void	on_line(void *, struct mbot *, char *, size_t, int64_t);
static void	on_answer(struct match *, struct mbot *, const json_t *,
		    int64_t);
static void	bot_hello(struct match *, struct mbot *, const json_t *,
		    const char *);
static int64_t	deadline(const struct match *, int64_t);
static void	check_deadlines(struct match *, int64_t);
static int	pump(struct match *, int64_t);
static int	ask(struct match *, int);
static int	settle(struct match *, int);
static void	say_hello(struct match *, int, const json_t *);
static int	handshake(struct match *, int);
static int	write_results_line(struct match *, const struct outcome *);
static void	game_begin(struct match *, int, int);
static int	play_round(struct match *, uint32_t);
static void	game_outcome(struct match *, struct outcome *);
static int	game_end(struct match *, int, int, struct outcome *);
static int	play_game(struct match *, int, int);
static void	shutdown_bots(struct match *, int);
static int	match_open(struct match *, const struct match_config *,
		    char *, size_t);
static int	play_match(struct match *, char *, size_t);
static void	match_abort(struct match *, char *, size_t);
static void	match_close(struct match *);

static const struct bot_hooks hooks = { on_line, on_fault };

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
match_adjudicate(int n, int *places, double *scores)
{
	int s;

	for (s = 0; s < n; s++) {
		places[s] = 1;
		scores[s] = 0;
	}
}

/*
 * Counts a fault of b and logs it, its detail formatted from fmt and ap
 * (every fault's, the I/O's too, is formatted here); closes b's open
 * request (its move is substituted when the round settles), else tells a
 * live bot at once.
 */
static void
fault(struct match *m, struct mbot *b, enum fault kind, int64_t id,
    const char *fmt, va_list ap)
{
	struct buf msg = { NULL, 0, 0 };
	char detail[256];

	vsnprintf(detail, sizeof detail, fmt, ap);
	if (!m->replaying)
		m->res->faults[b->index][kind]++;
	b->game.faults++;
	b->game.kinds[kind]++;
	if (m->cf->max_faults > 0 && b->game.faults >= m->cf->max_faults &&
	    !b->capped && !m->bs.shutting) {
		/* Retired for the game; what it sends is dropped unread. */
		b->capped = b->retired = b->rd.muted = 1;
		snprintf(detail + strlen(detail), sizeof detail -
		    strlen(detail), "; %ld faults this game: retired for the "
		    "rest of it", b->game.faults);
	}
	if (mlog_on(&m->log))
		mlog_fault(&m->log, mtime(m), m->gi, b, kind, id, detail);
	if (b->open) {
		b->open = 0;
		b->source = SRC_FAULT;
		b->fault = kind;
		strlcpy(b->why, detail, sizeof b->why);
		closed_add(b, b->id);
		return;
	}
	if (!b->alive || m->bs.shutting || kind == FAULT_EXIT)
		return;
	msg_error(&msg, id, fault_names[kind], detail, NULL, 0);
	bot_send(&m->bs, b, &msg, "error", id, 0, 0);
	buf_free(&msg);
}

/* A fault of b found here (in what it answered, or its time): fault(). */
static void
faultf(struct match *m, struct mbot *b, enum fault kind, int64_t id,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fault(m, b, kind, id, fmt, ap);
	va_end(ap);
}

/*
 * The bots' hook for a fault of their I/O: the open request's if one is;
 * a loss (exit, limit) also ends the wait for its hello, and a limit is
 * counted by the limit hit.
 */
static void
on_fault(void *arg, struct mbot *b, enum fault kind, int limit,
    const char *fmt, va_list ap)
{
	if (kind == FAULT_EXIT || kind == FAULT_LIMIT)
		b->hello = 0;
	if (limit != -1)
		b->game.limits[limit]++;
	fault(arg, b, kind, b->open ? b->id : -1, fmt, ap);
}

/*
 * Takes b's valid answer a to its open request, read at now: what it took
 * over the time per move is drawn from its time bank.
 */
static void
answered(struct match *m, struct mbot *b, struct action a, int64_t now)
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

/* Remembers an id a fault closed: late answers to it are no fault. */
static void
closed_add(struct mbot *b, int64_t id)
{
	b->closed[b->nclosed++ % NCLOSED] = id;
}

/* Returns 1 if id is one of b's recently fault-closed requests. */
static int
closed_has(const struct mbot *b, int64_t id)
{
	int i;

	for (i = 0; i < NCLOSED && i < b->nclosed; i++)
		if (b->closed[i] == id)
			return 1;
	return 0;
}

/*
 * The bots' hook for a line of b's stdout, read at now: a hello, an
 * answer, or a fault.
 */
static void
on_line(void *arg, struct mbot *b, char *line, size_t len, int64_t now)
{
	struct match *m = arg;
	json_error_t jerr;
	json_t *j;
	struct action a;
	char why[256];
	int64_t id;
	long long qindex, qamount;
	int kind, qhas;

	if (m->bs.shutting || proto_blank(line, len))
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
		answered(m, b, a, now);
		return;
	}
	j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (b->hello)
		bot_hello(m, b, j, jerr.text);
	else if (j == NULL || !json_is_object(j))
		faultf(m, b, FAULT_MALFORMED, b->open ? b->id : -1,
		    "not a JSON object: %s", j == NULL ? jerr.text :
		    "another JSON value");
	else
		on_answer(m, b, j, now);
	json_decref(j);
}

/* Takes the answer object j of b, read at now, against its open request. */
static void
on_answer(struct match *m, struct mbot *b, const json_t *j, int64_t now)
{
	const char *type;
	json_t *jid;
	struct action a;
	char why[256];
	int64_t id;
	int kind;

	type = json_string_value(json_object_get(j, "type"));
	jid = json_object_get(j, "id");
	if (!json_is_integer(jid)) {
		if (type == NULL || strcmp(type, "hello") != 0)
			faultf(m, b, FAULT_MALFORMED, b->open ? b->id : -1,
			    "the answer has no whole-number \"id\"");
		return;
	}
	id = json_integer_value(jid);
	if (!b->open || id != b->id) {
		if (closed_has(b, id))
			return;
		if (b->open)
			faultf(m, b, FAULT_WRONG_ID, b->id, "answer for id "
			    "%lld, the open request is %lld", (long long)id,
			    (long long)b->id);
		else
			faultf(m, b, FAULT_WRONG_ID, id, "answer for id "
			    "%lld, no request is open", (long long)id);
		return;
	}
	kind = proto_action(m->g, m->st, b->seat, j, b->legal, b->nlegal, &a,
	    why, sizeof why);
	if (kind != -1) {
		faultf(m, b, kind, id, "%s", why);
		return;
	}
	answered(m, b, a, now);
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
		faultf(m, b, FAULT_MALFORMED, -1, "the hello answer's %s",
		    why2);
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

/* The earliest of until and the bots' hello and request deadlines. */
static int64_t
deadline(const struct match *m, int64_t until)
{
	const struct mbot *b;
	int64_t dl = until;
	int i;

	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if ((b->open || b->hello) && b->deadline_us < dl)
			dl = b->deadline_us;
	}
	return dl;
}

/*
 * Takes the exits polled without a pidfd, and times out the bots whose
 * hello or request deadline is past at now.
 */
static void
check_deadlines(struct match *m, int64_t now)
{
	struct mbot *b;
	int i;

	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		bot_check_exit(&m->bs, b);
		if (b->hello && now >= b->deadline_us) {
			b->hello = 0;
			faultf(m, b, FAULT_TIMEOUT, -1, "no hello answer "
			    "within %ld ms", m->cf->time_hello_ms);
			b->game.hello++;
		}
		if (b->open && now >= b->deadline_us) {
			b->bank_us = 0;		/* all of it is spent */
			faultf(m, b, FAULT_TIMEOUT, b->id, "no answer within "
			    "%lld ms", (long long)((b->deadline_us -
			    b->sent_us) / 1000));
		}
	}
}

/*
 * Waits for bot I/O until the deadline (or the earliest request deadline),
 * handles what arrived, and times out late bots.  -1 on a referee error.
 */
static int
pump(struct match *m, int64_t until)
{
	int64_t now, t, dl;
	int r, timeout, fallback;

	dl = deadline(m, until);
	fallback = botset_polled(&m->bs);
	if (m->log.b.len >= LOG_BATCH && mlog_flush(&m->log) == -1)
		return log_failed(m);
	now = now_us();
	timeout = dl == INT64_MAX ? -1 : dl <= now ? 0 :
	    (int)((dl - now + 999) / 1000);
	if (fallback && (timeout == -1 || timeout > FALLBACK_POLL_MS))
		timeout = FALLBACK_POLL_MS;
	if (botset_sync(&m->bs) == -1)
		return failf(m, "%s: %s", botset_sync_call, strerror(errno));
	/*
	 * The log's lines go out before a wait that lasts: when nothing
	 * comes within LOG_IDLE_MS (a bot that answers at once needs no
	 * write of its own).
	 */
	if (timeout != 0 && mlog_pending(&m->log)) {
		r = botset_wait(&m->bs, timeout == -1 ||
		    timeout > LOG_IDLE_MS ? LOG_IDLE_MS : timeout);
		if (r == 0) {
			if (mlog_flush(&m->log) == -1)
				return log_failed(m);
			r = botset_wait(&m->bs, timeout == -1 ? -1 :
			    timeout > LOG_IDLE_MS ? timeout - LOG_IDLE_MS : 0);
		}
	} else
		r = botset_wait(&m->bs, timeout);
	t = now;
	now = now_us();
	m->res->wait_us += now - t;
	if (r == -1 && errno != EINTR)
		return failf(m, "%s: %s", botset_wait_call, strerror(errno));
	if (r > 0)
		botset_handle(&m->bs);
	/* A deadline passed while handling is caught at the next wait (0). */
	check_deadlines(m, now);
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
	bot_asked(b);
	b->id = m->next_id++;
	b->sent_us = now;
	b->deadline_us = now + m->cf->time_per_move_ms * 1000 + b->bank_us;
	q->len = 0;
	tl = (long)((b->deadline_us - now) / 1000);
	msg_request(q, m->g, m->st, b->id, m->gi, seat, tl, &m->feed, &m->ev,
	    b->legal, b->nlegal, b->wants);
	b->open = 1;
	b->ecopy.mark = 1;
	m->res->decisions++;
	bot_send(&m->bs, b, q, "request", b->id, tl, now);
	return 0;
}

/* Applies seat's move of this round, logging it.  -1 on engine error. */
static int
settle(struct match *m, int seat)
{
	struct mbot *b = &m->bots[m->seat_bot[seat]];
	struct buf *q = &m->msg;
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
	mlog_action(&m->log, m->gi, m->step, seat, b, m->cf->policy, m->g,
	    m->st, a);
	if (b->source == SRC_FAULT && b->alive) {
		aj = game_action_json(m->g, m->st, seat, a);
		q->len = 0;
		msg_error(q, b->id, fault_names[b->fault], b->why, aj, retire);
		bot_send(&m->bs, b, q, "error", b->id, 0, 0);
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

/* Sends the hello to every bot, seated as in game gi; opts is opts_json(). */
static void
say_hello(struct match *m, int gi, const json_t *o)
{
	const struct match_config *cf = m->cf;
	struct mbot *b;
	int i;

	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		b->seat = cf->duplicate ? (i + gi) % m->n : i;
		m->msg.len = 0;
		msg_hello(&m->msg, m->g, o, b->seat, cf->opts.players,
		    cf->games, cf->duplicate, i, cf->time_per_move_ms,
		    cf->time_bank_ms, cf->time_hello_ms, m->nonce);
		/* A new lifetime: nothing open, no id closed. */
		b->open = 0;
		b->nclosed = 0;
		b->hello = b->alive;
		b->deadline_us = now_us() + cf->time_hello_ms * 1000;
		bot_send(&m->bs, b, &m->msg, "hello", -1, 0, 0);
	}
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
	json_t *j, *o;
	int64_t dl;
	int i, pending, first = m->lives++ == 0;

	m->log.hold = first;
	m->bs.shutting = 0;
	o = opts_json(m->g, &cf->opts);
	say_hello(m, gi, o);
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
	for (i = 0; i < m->n; i++)
		strlcpy(m->res->names[i], m->bots[i].name,
		    sizeof m->res->names[i]);
	j = mlog_header_json(m->cf, m->nonce, o, m->bots, m->n);
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

/* Appends the --results line of the game just played. */
static int
write_results_line(struct match *m, const struct outcome *oc)
{
	struct resline r;

	if (m->resfd == -1)
		return 0;
	results_line(&r, m->gi, m->deal_seed, m->seat_bot, oc, m->bots, m->n,
	    m->cf->log_path);
	if (resline_write(m->resfd, &r) == -1) {
		m->res->disk_full = match_disk_full(errno);
		return failf(m, "results: %s", strerror(errno));
	}
	return 0;
}

/*
 * Deals game gi (reported or only replayed), seats the bots for it, logs
 * the deal and tells every bot the game starts.
 */
static void
game_begin(struct match *m, int gi, int reported)
{
	const struct match_config *cf = m->cf;
	const struct game *g = m->g;
	struct mbot *b;
	struct buf *q = &m->msg;
	int s;

	m->gi = m->bs.game = gi;
	m->replaying = !reported;
	m->deal_seed = match_deal_seed(cf->seed, gi, m->n, cf->duplicate);
	for (s = 0; s < m->n; s++) {
		m->seat_bot[s] = match_seat_bot(s, gi, m->n, cf->duplicate);
		b = &m->bots[m->seat_bot[s]];
		b->seat = s;
		/* The handshake's faults count toward game 0's cap. */
		b->capped = b->retired = cf->max_faults > 0 &&
		    b->game.faults >= cf->max_faults;
		b->bank_us = cf->time_bank_ms * 1000;
	}
	ev_clear(&m->ev);
	evfeed_reset(&m->feed);
	m->step = 0;
	rng_seed(&m->rng, m->deal_seed);
	memset(m->st, 0, g->state_size);
	g->init(m->st, &cf->opts, deal_setup(g, cf->setup, cf->book,
	    cf->nbook, gi, m->n, cf->duplicate), &m->rng, &m->ev);
	mlog_game_start(&m->log, mtime(m), gi, m->deal_seed, m->seat_bot, m->n,
	    reported, g, m->st);
	for (s = 0; s < m->n; s++) {
		b = &m->bots[m->seat_bot[s]];
		q->len = 0;
		msg_start(q, g, m->st, gi, s, m->n, b->wants);
		b->ecopy.mark = 1;
		bot_send(&m->bs, b, q, "start", -1, 0, 0);
	}
}

/*
 * Plays one round: asks every seat of the deciders d at once, waits for
 * all their answers (or faults), then applies them in seat order.  -1 on
 * a referee error or a stop.
 */
static int
play_round(struct match *m, uint32_t d)
{
	const struct match_config *cf = m->cf;
	int s, pending;

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
	return 0;
}

/* Fills the result of the game just over (or cut) and its final view. */
static void
game_outcome(struct match *m, struct outcome *oc)
{
	if (oc->cut)
		match_adjudicate(m->n, oc->places, oc->scores);
	else
		m->g->result(m->st, oc->places, oc->scores);
	msg_view(&oc->fin, m->g, m->st, SEAT_ALL);
	oc->capped = oc->cut || json_text_true(oc->fin.p, oc->fin.len,
	    "capped");
}

/*
 * Ends game gi: logs it, tells every bot the result, counts it in the
 * match's (reported) and writes its results line.  -1 on a write error.
 */
static int
game_end(struct match *m, int gi, int reported, struct outcome *oc)
{
	struct mbot *b;
	struct buf *q = &m->msg;
	int s, i;

	game_outcome(m, oc);
	mlog_game_end(&m->log, mtime(m), gi, m->step, oc, m->bots, m->n);
	m->replaying = 0;	/* faults from here on count (verify.c) */
	for (s = 0; s < m->n; s++) {
		b = &m->bots[m->seat_bot[s]];
		q->len = 0;
		msg_end_text(q, m->g, m->st, gi, s, m->n, oc->places,
		    oc->scores, &m->feed, &m->ev, oc->fin.p, oc->fin.len,
		    b->wants);
		b->ecopy.mark = 1;
		bot_send(&m->bs, b, q, "end", -1, 0, 0);
	}
	for (s = 0; s < m->n && reported; s++) {
		m->res->scores[m->seat_bot[s]] += oc->scores[s];
		m->res->place_sum[m->seat_bot[s]] += oc->places[s];
	}
	m->res->games_played += reported;
	/*
	 * The game's log lines go out before its result does (a game nobody
	 * was asked in never waited; a batch may be held): a game a tournament
	 * journals always has its whole log on disk.
	 */
	if (mlog_flush(&m->log) == -1)
		return log_failed(m);
	if (reported && write_results_line(m, oc) == -1)
		return -1;
	for (i = 0; i < m->n; i++)
		memset(&m->bots[i].game, 0, sizeof m->bots[i].game);
	return 0;
}

/*
 * Plays game gi of the match, reporting it (results line, match result)
 * unless it only replays what the bots saw before a listed game.  -1 on a
 * referee error or a stop.
 */
static int
play_game(struct match *m, int gi, int reported)
{
	struct outcome oc;
	uint32_t d;
	int rc;

	memset(&oc, 0, sizeof oc);
	game_begin(m, gi, reported);
	while ((d = m->g->deciders(m->st)) != 0) {
		if (m->cf->max_decisions > 0 &&
		    m->step >= m->cf->max_decisions) {
			oc.cut = 1;
			break;
		}
		if (play_round(m, d) == -1)
			return -1;
	}
	rc = game_end(m, gi, reported, &oc);
	buf_free(&oc.fin);
	return rc;
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

	m->bs.shutting = 1;
	msg_bye(&q);
	for (i = 0; i < m->n; i++) {
		b = &m->bots[i];
		if (!b->alive)
			continue;
		b->wq.close_after = 1;
		bot_send(&m->bs, b, &q, "bye", -1, 0, 0);
		bot_close_after(&m->bs, b);
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
			bot_lost(&m->bs, b);
		else if (b->spawned && !b->p.reaped)
			bot_reap(&m->bs, b);
	}
	if (final)
		botset_stderr_close(&m->bs);
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

/*
 * Sets up match m of cf: its bots, the log, the results file, the bots'
 * stderr files and the watch set.  -1 and a cause.
 */
static int
match_open(struct match *m, const struct match_config *cf, char *cause,
    size_t len)
{
	m->bs.hooks = &hooks;
	m->bs.arg = m;
	m->bs.t0 = m->t0;
	m->bs.log = &m->log;
	m->bs.stderr_cap = cf->stderr_cap;
	m->bs.max_output = cf->max_output;
	if (botset_init(&m->bs, m->n, cf->commands, cause, len) == -1)
		return -1;
	m->bots = m->bs.bots;
	if (mlog_open(&m->log, cf->log_path, cause, len) == -1)
		return -1;
	m->log.lean = cf->log_lean;
	m->log.max = cf->log_max;
	if (cf->results_path != NULL) {
		if (strcmp(cf->results_path, "-") == 0)
			m->resfd = STDOUT_FILENO;
		else if ((m->resfd = open(cf->results_path, O_WRONLY |
		    O_CREAT | O_APPEND | O_CLOEXEC, 0600)) == -1) {
			snprintf(cause, len, "%s: %s", cf->results_path,
			    strerror(errno));
			return -1;
		}
	}
	/* beside a log file; a log to /dev/null or a FIFO has no beside */
	if (botset_stderr_files(&m->bs, m->log.special ? NULL : cf->log_path,
	    cause, len) == -1)
		return -1;
	m->st = xcalloc(1, m->g->state_size);
	return botset_watch(&m->bs, cause, len);
}

/*
 * Plays the match's games in their order, the bots started anew at each
 * lifetime; once *cf->finish is set, only the games before the end of
 * the deal last played (the game, without duplicate).  0 when all are
 * played; -1 on a failure or a stop (m->err holds a failure's cause); -2
 * with a cause when the first bots could not be started.
 */
static int
play_match(struct match *m, char *cause, size_t len)
{
	const struct match_config *cf = m->cf;
	int gi, last = -1, reported, fresh, failed;
	long k, end = LONG_MAX;
	int64_t t;

	playorder_init(&m->po, cf->games, m->n, cf->duplicate, cf->game_list,
	    cf->ngame_list, !cf->no_replay, cf->first_game);
	for (k = 0; k < m->po.total; k++) {
		gi = playorder_game(&m->po, k, &reported, &fresh);
		if (end == LONG_MAX && last >= 0 && cf->finish != NULL &&
		    *cf->finish)
			end = cf->duplicate ? (last / m->n + 1L) * m->n :
			    last + 1L;
		if (gi >= end)
			continue;
		last = gi;
		if (fresh) {
			/* a new lifetime: new processes, which saw nothing */
			if (k > 0)
				shutdown_bots(m, 0);
			if (cf->stop != NULL && *cf->stop)
				return -1;
			if (botset_spawn(&m->bs, &failed, cause, len) == -1) {
				m->res->unstarted = failed + 1;
				if (k == 0)
					return -2;
				return failf(m, "%s", cause);
			}
			if (handshake(m, gi) == -1)
				return -1;
		}
		t = now_us();
		if (play_game(m, gi, reported) == -1)
			return -1;
		m->res->play_us += now_us() - t;
	}
	return 0;
}

/*
 * The match failed or was stopped: says why in cause and the log, and
 * kills every bot.
 */
static void
match_abort(struct match *m, char *cause, size_t len)
{
	const struct match_config *cf = m->cf;
	struct match_result *res = m->res;
	int i;

	if (cf->stop != NULL && *cf->stop) {
		res->aborted = *cf->stop;
		snprintf(cause, len, "stopped by signal %d (%s)", res->aborted,
		    strsignal(res->aborted));
	} else
		snprintf(cause, len, "%s", m->err[0] ? m->err : "failed");
	m->bs.shutting = 1;
	/* All killed at once, then each reaped: they die side by side. */
	for (i = 0; i < m->n; i++)
		if (m->bots[i].alive)
			proc_signal(&m->bots[i].p, SIGKILL);
	for (i = 0; i < m->n; i++)
		bot_lost(&m->bs, &m->bots[i]);
	mlog_ended(&m->log, res->aborted ? "aborted" : "error", mtime(m),
	    cause);
	mlog_close(&m->log);
}

/* Closes the files of m and frees it. */
static void
match_close(struct match *m)
{
	m->res->wall_us = now_us() - m->t0;
	if (m->log.fd != -1)
		mlog_close(&m->log);
	if (m->resfd > STDOUT_FILENO)
		close(m->resfd);
	botset_free(&m->bs);
	free(m->st);
	playorder_free(&m->po);
	evfeed_free(&m->feed);
	buf_free(&m->msg);
	ev_free(&m->ev);
}

int
match_run(const struct match_config *cf, struct match_result *res,
    char *cause, size_t len)
{
	struct match m;
	struct sigaction ign, oldpipe;
	int i, r, rc = -1;

	memset(&m, 0, sizeof m);
	memset(res, 0, sizeof *res);
	res->nbots = cf->nbots;
	m.cf = cf;
	match_nonce(cf->seed, m.nonce);
	m.g = cf->game;
	m.res = res;
	m.n = cf->nbots;
	m.resfd = -1;
	m.log.fd = -1;		/* no log yet: match_close leaves fd 0 */
	m.bs.epfd = -1;
	m.next_id = 1;
	m.t0 = now_us();
	if (m.n < 1 || m.n > MAX_PLAYERS || m.n != cf->opts.players) {
		snprintf(cause, len, "%d bots for %d players", m.n,
		    cf->opts.players);
		return -1;
	}
	if (match_open(&m, cf, cause, len) == -1)
		goto out;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &oldpipe);
	if ((r = play_match(&m, cause, len)) == 0) {
		shutdown_bots(&m, 1);
		match_places(res);
		mlog_result(&m.log, mtime(&m), res);
		if (mlog_close(&m.log) == -1) {
			snprintf(cause, len, "%s", m.log.error);
			res->disk_full = match_disk_full(m.log.error_no);
		} else
			rc = 0;
	} else if (r == -1)
		match_abort(&m, cause, len);
	for (i = 0; i < m.n; i++)
		if (m.bots[i].spawned && !m.bots[i].p.reaped)
			bot_reap(&m.bs, &m.bots[i]);
	sigaction(SIGPIPE, &oldpipe, NULL);
out:
	match_close(&m);
	return rc;
}
