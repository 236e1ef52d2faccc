/*
 * The replay engine of bin/replay: re-runs a match log's games with the
 * rules engine and checks that every message sent comes out byte-identical,
 * every action is the bot's answer or the fault policy's, the line numbers
 * ("n") and hello/bye lifetimes leave nothing out, and the results are the
 * rules' own (the timing is taken as logged); on the way it builds the
 * frames (deal, states, events, faults, debug text) the views show.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "head.h"
#include "matchlog.h"
#include "render.h"
#include "replay.h"

struct wbot {
	int		 alive;
	int		 retired;	/* in this game (policy retire) */
	int		 hello;		/* its hello was sent */
	int		 bye;		/* its bye was sent (after hello) */
	int		 fresh;		/* hello since the last game started */
	int		 hello_done;	/* its answer came, or its time ran out */
	unsigned	 wants;		/* WANT_*, from its hello answer */
	int		 open;		/* a request is open */
	int64_t		 id;		/* the last request sent */
	int		 answered;	/* an accepted answer to id */
	struct action	 answer;
	const char	*expect_fault;	/* what its last answer must cause */
	const json_t	*closed_by;	/* the fault line that closed id */
	const json_t	*last_fault;	/* its last fault line */
	json_t		*settle_action;	/* a substitute's notice is due */
	int		 settle_retired;
	int64_t		 settle_id;
	const json_t	*settle_fault;
	long		 game_faults;
	long		 kinds[NFAULT];
	double		 score;
	int		 place_sum;	/* the games' places, summed */
	json_t		*pending;	/* faults awaiting their frame */
};

struct walk {
	struct replay		*rp;
	const struct rlog	*l;
	const json_t		*hdr;
	struct rhead		 h;		/* what the header says */
	void			*st;
	struct rng		 rng;
	struct events		 ev;
	struct evfeed		 feed;
	struct buf		 b;
	int			 replaying;	/* a game that is not reported */
	size_t			 started;	/* games started */
	int64_t			 next_id;
	int			 in_game, ended;
	int			 gi;
	uint64_t		 deal_seed;
	int			 seat_bot[MAX_PLAYERS];
	long			 step;
	int			 nstarts, nends;
	uint32_t		 round, asked, settled;
	struct legal		*legal[MAX_PLAYERS];
	int			 nlegal[MAX_PLAYERS];
	struct wbot		 bots[MAX_PLAYERS];
	int			 places[MAX_PLAYERS];
	double			 scores[MAX_PLAYERS];
	json_t			*final;
	int			 games_played;
};

static int	 fail(struct walk *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static char	*dumps(const json_t *);
static int	 same(struct walk *, size_t, const char *, const json_t *,
		    const json_t *);
static int	 compare_text(struct walk *, size_t, const char *,
		    const char *, size_t, const char *, size_t);
static int	 on_send(struct walk *, size_t);
static int	 on_recv(struct walk *, size_t);
static int	 on_fault(struct walk *, size_t);
static int	 on_action(struct walk *, size_t);
static int	 on_game_start(struct walk *, size_t);
static int	 on_game_end(struct walk *, size_t);
static int	 on_result(struct walk *, size_t);
static int	 seat_of(const struct walk *, int);
static void	 new_round(struct walk *);
static struct frame *new_frame(struct walk *, size_t);
static void	 attach_fault(struct walk *, const json_t *, int);
static void	 read_debug(struct replay *);
static void	 read_answer_debug(struct replay *);
static void	 debug_add(struct replay *, int, long, long long, FILE *,
		    char **, size_t *);

/* Records the first divergence at line i (0-based); returns -1. */
static int
fail(struct walk *w, size_t i, const char *fmt, ...)
{
	struct replay *rp = w->rp;
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rp->diverged = 1;
	rp->where = i;
	snprintf(rp->why, sizeof rp->why, "%s:%zu: %s", w->l->path, i + 1,
	    msg);
	return -1;
}

/* The compact JSON text of a value, as the referee writes it; free it. */
static char *
dumps(const json_t *j)
{
	char *s;

	if (j == NULL || (s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY)) ==
	    NULL)
		return xstrdup("(none)");
	return s;
}

/* Compares two values' text; -1 (a divergence about what) if they differ. */
static int
same(struct walk *w, size_t i, const char *what, const json_t *logged,
    const json_t *rules)
{
	char *a, *b;
	int rc;

	a = dumps(logged);
	b = dumps(rules);
	rc = compare_text(w, i, what, a, strlen(a), b, strlen(b));
	free(a);
	free(b);
	return rc;
}

/*
 * Compares logged text with the rules' text byte for byte; on a difference
 * records where, with some context of both.
 */
static int
compare_text(struct walk *w, size_t i, const char *what, const char *logged,
    size_t llen, const char *rules, size_t rlen)
{
	size_t k, from;

	if (llen == rlen && memcmp(logged, rules, llen) == 0)
		return 0;
	for (k = 0; k < llen && k < rlen && logged[k] == rules[k]; k++)
		;
	from = k > 50 ? k - 50 : 0;
	return fail(w, i, "%s differs at byte %zu:\n  logged: ...%.*s...\n"
	    "  rules:  ...%.*s...", what, k,
	    (int)((llen - from) < 110 ? llen - from : 110), logged + from,
	    (int)((rlen - from) < 110 ? rlen - from : 110), rules + from);
}

/* The seat bot sits at in the current game, or -1. */
static int
seat_of(const struct walk *w, int bot)
{
	int s;

	for (s = 0; s < w->h.P; s++)
		if (w->seat_bot[s] == bot)
			return s;
	return -1;
}

int
replay_seat_of(const struct replay *rp, int game, int bot)
{
	int s;

	for (s = 0; s < rp->players; s++)
		if (rp->games[game].seats[s] == bot)
			return s;
	return -1;
}

/* Starts a round: the deciders now, and each one's legal list. */
static void
new_round(struct walk *w)
{
	int s;

	w->round = w->h.g->deciders(w->st);
	w->asked = w->settled = 0;
	for (s = 0; s < w->h.P; s++)
		w->nlegal[s] = (w->round & (1u << s)) ?
		    w->h.g->legal(w->st, s, w->legal[s], MAX_LEGAL) : 0;
}

/* Appends a frame made by line i. */
static struct frame *
new_frame(struct walk *w, size_t i)
{
	struct replay *rp = w->rp;
	struct frame *f;

	if (rp->nf % 256 == 0)
		rp->f = xreallocarray(rp->f, rp->nf + 256, sizeof *rp->f);
	f = &rp->f[rp->nf++];
	memset(f, 0, sizeof *f);
	f->game = (int)rp->ngames - 1;
	f->rec = f->emit_end = i;
	f->seat = f->bot = -1;
	f->id = -1;
	f->faults = json_array();
	f->debug = json_array();
	return f;
}

/* Puts a fault line on the frame of its request, or on the last frame. */
static void
attach_fault(struct walk *w, const json_t *fj, int pending)
{
	struct replay *rp = w->rp;
	int b = (int)rlog_int(fj, "bot", -1);

	if (pending && b >= 0 && b < w->h.P)
		json_array_append(w->bots[b].pending, (json_t *)fj);
	else if (rp->nf > 0)
		json_array_append(rp->f[rp->nf - 1].faults, (json_t *)fj);
}

/*
 * Checks the number ("n") of line i: the lines after the header count from
 * 0, so a line deleted, repeated or moved shows at once.
 */
static int
check_n(struct walk *w, size_t i)
{
	const json_t *n = json_object_get(w->l->r[i].j, "n");

	if (!json_is_integer(n))
		return fail(w, i, "a %s line without its number (\"n\")",
		    w->l->r[i].type);
	if (json_integer_value(n) != (json_int_t)i - 1)
		return fail(w, i, "line number %lld where %zu is next: %s",
		    (long long)json_integer_value(n), i - 1,
		    json_integer_value(n) > (json_int_t)i - 1 ? "lines are "
		    "missing just before this one" : "a line is repeated or "
		    "out of order");
	return 0;
}

/* A line sent to a bot: rebuilds it and compares the bytes. */
static int
on_send(struct walk *w, size_t i)
{
	struct rrec *r = (struct rrec *)&w->l->r[i];
	const json_t *msg = json_object_get(r->j, "msg");
	struct wbot *wb;
	const char *type, *raw;
	size_t rawlen;
	json_int_t tl;
	char what[128];
	int b = r->bot, s, lean, g, rep, fresh;

	if (b < 0 || b >= w->h.P)
		return fail(w, i, "a message to bot %d of %d", b, w->h.P);
	wb = &w->bots[b];
	lean = msg == NULL;
	type = lean ? json_string_value(json_object_get(r->j, "kind")) :
	    json_string_value(json_object_get(msg, "type"));
	if (type == NULL)
		return fail(w, i, "a message without a type");
	s = seat_of(w, b);
	w->b.len = 0;
	if (strcmp(type, "hello") == 0) {
		if (w->in_game || (wb->hello && !wb->bye) ||
		    (long)w->started >= w->h.po.total)
			return fail(w, i, "a hello out of place (bot %d %s)", b,
			    wb->hello && !wb->bye ? "has not been told bye" :
			    "has no game left to play");
		/* a new process, seated as in the next game */
		g = playorder_game(&w->h.po, (long)w->started, &rep, &fresh);
		wb->hello = wb->fresh = wb->alive = 1;
		wb->bye = wb->hello_done = 0;
		wb->wants = WANT_ALL;
		msg_hello(&w->b, w->h.g, w->h.optsj, w->h.duplicate ? (b + g) %
		    w->h.P : b, w->h.P, w->h.ngames, w->h.duplicate, b,
		    w->h.tpm, w->h.tbank, w->h.thello, w->h.nonce);
	} else if (!wb->hello || wb->bye)
		return fail(w, i, "a %s message to bot %d, which has %s", type,
		    b, wb->bye ? "been told bye" : "had no hello");
	else if (strcmp(type, "start") == 0) {
		if (!w->in_game || w->ended || s != w->nstarts)
			return fail(w, i, "a start for bot %d out of place", b);
		w->nstarts++;
		msg_start(&w->b, w->h.g, w->st, w->gi, s, w->h.P, wb->wants);
	} else if (strcmp(type, "request") == 0) {
		if (!w->in_game || w->ended || w->nstarts != w->h.P)
			return fail(w, i, "a request to bot %d outside a game",
			    b);
		if (w->settled == w->round)
			new_round(w);
		if (!(w->round & (1u << s)))
			return fail(w, i, "a request to seat %d (bot %d), "
			    "which does not decide now (step %ld)", s, b,
			    w->step);
		if (w->settled != 0 || (w->asked >> s) != 0)
			return fail(w, i, "a request to seat %d out of the "
			    "referee's order (step %ld)", s, w->step);
		if (!wb->alive || wb->retired)
			return fail(w, i, "a request to seat %d, whose bot is "
			    "%s", s, wb->alive ? "retired" : "gone");
		tl = json_integer_value(json_object_get(lean ? r->j : msg,
		    "time_left_ms"));
		if (lean && rlog_int(r->j, "id", -1) != w->next_id)
			return fail(w, i, "request id %ld where %lld is next",
			    rlog_int(r->j, "id", -1), (long long)w->next_id);
		wb->id = w->next_id++;
		wb->open = 1;
		wb->answered = 0;
		wb->expect_fault = NULL;
		wb->closed_by = NULL;
		w->asked |= 1u << s;
		msg_request(&w->b, w->h.g, w->st, wb->id, w->gi, s, tl,
		    &w->feed, &w->ev, w->legal[s], w->nlegal[s], wb->wants);
	} else if (strcmp(type, "error") == 0) {
		if (wb->settle_action != NULL) {
			msg_error(&w->b, wb->settle_id, json_string_value(
			    json_object_get(wb->settle_fault, "fault")),
			    json_string_value(json_object_get(wb->settle_fault,
			    "detail")), wb->settle_action, wb->settle_retired);
			json_decref(wb->settle_action);
			wb->settle_action = NULL;
		} else if (wb->last_fault != NULL) {
			msg_error(&w->b, rlog_int(wb->last_fault, "id", -1),
			    json_string_value(json_object_get(wb->last_fault,
			    "fault")), json_string_value(json_object_get(
			    wb->last_fault, "detail")), NULL, 0);
			wb->last_fault = NULL;
		} else
			return fail(w, i, "an error message to bot %d without "
			    "a fault", b);
	} else if (strcmp(type, "end") == 0) {
		if (!w->in_game || !w->ended || s != w->nends)
			return fail(w, i, "an end for bot %d out of place", b);
		w->nends++;
		msg_end(&w->b, w->h.g, w->st, w->gi, s, w->h.P, w->places,
		    w->scores, &w->feed, &w->ev, w->final, wb->wants);
		if (w->nends == w->h.P)
			w->in_game = 0;
	} else if (strcmp(type, "bye") == 0) {
		if (w->in_game)
			return fail(w, i, "a bye in the middle of a game");
		wb->bye = 1;
		msg_bye(&w->b);
	} else
		return fail(w, i, "a message of unknown type \"%s\"", type);
	if (w->b.len > 0 && w->b.p[w->b.len - 1] == '\n')
		w->b.len--;
	if (lean) {
		/* the lean line's id must be the message's; keep the text */
		if ((strcmp(type, "error") == 0 || strcmp(type, "request") ==
		    0) && !json_equal(json_object_get(r->j, "id"),
		    json_object_get(msg = json_loadb(w->b.p, w->b.len, 0, NULL),
		    "id"))) {
			json_decref((json_t *)msg);
			return fail(w, i, "the %s message to bot %d has id %ld, "
			    "the replay's is another", type, b,
			    rlog_int(r->j, "id", -1));
		}
		json_decref((json_t *)msg);
		free(r->msg);
		r->msg = xmalloc(w->b.len + 1);
		memcpy(r->msg, w->b.p, w->b.len);
		r->msg[w->b.len] = '\0';
		r->msglen = w->b.len;
		json_object_set_new(r->j, "msg", json_loadb(r->msg, r->msglen,
		    0, NULL));
		w->rp->messages++;
		return 0;
	}
	raw = rlog_msg(r, &rawlen);
	snprintf(what, sizeof what, "the %s message to bot %d (seat %d)", type,
	    b, s);
	if (compare_text(w, i, what, raw, rawlen, w->b.p, w->b.len) == -1)
		return -1;
	w->rp->messages++;
	return 0;
}

/*
 * Decodes base64 text into a new buffer (*len bytes); NULL if it is not
 * base64.
 */
static char *
unbase64(const char *t, size_t *len)
{
	static const char d[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(t), i, k, o = 0;
	uint32_t v;
	const char *p;
	char *out;
	int pad;

	if (n % 4 != 0)
		return NULL;
	out = xmalloc(n / 4 * 3 + 1);
	for (i = 0; i < n; i += 4) {
		for (k = 0, v = 0, pad = 0; k < 4; k++) {
			if (t[i + k] == '=' && i + 4 == n && k >= 2) {
				pad++;
				v <<= 6;
				continue;
			}
			if (pad || t[i + k] == '\0' ||
			    (p = strchr(d, t[i + k])) == NULL) {
				free(out);
				return NULL;
			}
			v = v << 6 | (uint32_t)(p - d);
		}
		out[o++] = (char)(v >> 16);
		if (pad < 2)
			out[o++] = (char)(v >> 8 & 255);
		if (pad < 1)
			out[o++] = (char)(v & 255);
	}
	out[o] = '\0';
	*len = o;
	return out;
}

/* A line from a bot: an answer to its open request is read as the
 * referee reads it, against the legal list it was sent. */
static int
on_recv(struct walk *w, size_t i)
{
	const struct rrec *r = &w->l->r[i];
	const json_t *lj;
	struct wbot *wb;
	json_t *j;
	char *line, why[256];
	size_t len;
	int kind, s;

	if (r->bot < 0 || r->bot >= w->h.P)
		return fail(w, i, "a line from bot %d of %d", r->bot, w->h.P);
	wb = &w->bots[r->bot];
	if (!wb->hello)
		return fail(w, i, "a line from bot %d before its hello", r->bot);
	/* the bytes as received: a JSON string, or base64 */
	if (json_is_string(lj = json_object_get(r->j, "line"))) {
		len = json_string_length(lj);
		line = xmalloc(len + 1);
		memcpy(line, json_string_value(lj), len + 1);
	} else if (!json_is_string(lj = json_object_get(r->j,
	    "line_base64")) || (line = unbase64(json_string_value(lj),
	    &len)) == NULL)
		return fail(w, i, "a recv line without its text (\"line\" or "
		    "\"line_base64\")");
	if (json_is_true(json_object_get(r->j, "truncated"))) {
		if (wb->open && w->in_game)
			wb->expect_fault = fault_names[FAULT_LONG_LINE];
		free(line);
		return 0;
	}
	/* The first line after the hello is its answer, as the referee
	 * takes it: the parts of each message the bot wants. */
	if (!wb->hello_done && len != strspn(line, " \t")) {
		wb->hello_done = 1;
		j = json_loadb(line, len, 0, NULL);
		msg_wants(json_is_object(j) ? j : NULL, &wb->wants, why,
		    sizeof why);
		json_decref(j);
		free(line);
		return 0;
	}
	if (!wb->open || !w->in_game || len == strspn(line, " \t")) {
		free(line);
		return 0;
	}
	j = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
	free(line);
	if (!json_is_object(j) || !json_is_integer(json_object_get(j, "id"))) {
		if (!json_is_object(j) || !json_is_string(json_object_get(j,
		    "type")) || strcmp(json_string_value(json_object_get(j,
		    "type")), "hello") != 0)
			wb->expect_fault = fault_names[FAULT_MALFORMED];
		json_decref(j);
		return 0;
	}
	if (json_integer_value(json_object_get(j, "id")) != wb->id) {
		json_decref(j);
		return 0;
	}
	s = seat_of(w, r->bot);
	kind = proto_action(w->h.g, w->st, s, j, w->legal[s], w->nlegal[s],
	    &wb->answer, why, sizeof why);
	json_decref(j);
	if (kind != -1) {
		wb->expect_fault = fault_names[kind];
		return 0;
	}
	wb->answered = 1;
	wb->open = 0;
	return 0;
}

/* A fault of a bot: counted, and closing its open request if it is it. */
static int
on_fault(struct walk *w, size_t i)
{
	const json_t *j = w->l->r[i].j;
	struct wbot *wb;
	const char *kind;
	int b = (int)rlog_int(j, "bot", -1), k;

	if (b < 0 || b >= w->h.P)
		return fail(w, i, "a fault of bot %d of %d", b, w->h.P);
	wb = &w->bots[b];
	kind = json_string_value(json_object_get(j, "fault"));
	if (wb->hello && !wb->hello_done && kind != NULL &&
	    strcmp(kind, "timeout") == 0)
		wb->hello_done = 1;	/* no hello answer in time */
	for (k = 0; k < NFAULT; k++)
		if (kind != NULL && strcmp(kind, fault_names[k]) == 0)
			break;
	if (k == NFAULT || !json_is_string(json_object_get(j, "detail")))
		return fail(w, i, "a fault of unknown kind \"%s\"",
		    kind ? kind : "");
	if (wb->expect_fault != NULL && strcmp(kind, "timeout") != 0 &&
	    strcmp(kind, "exit") != 0 && strcmp(kind, "limit") != 0 &&
	    strcmp(kind, wb->expect_fault) != 0)
		return fail(w, i, "bot %d's last answer is a fault of kind %s, "
		    "not %s", b, wb->expect_fault, kind);
	wb->expect_fault = NULL;
	if (!w->replaying)
		wb->kinds[k]++;
	wb->game_faults++;
	if (k == FAULT_EXIT || k == FAULT_LIMIT)
		wb->alive = 0;
	/* The cap of faults per game retires the bot (match.c's fault()). */
	if (w->h.max_faults > 0 && wb->game_faults >= w->h.max_faults)
		wb->retired = 1;
	if (wb->open && rlog_int(j, "id", -1) == wb->id) {
		wb->open = 0;
		wb->closed_by = j;
		attach_fault(w, j, 1);
	} else {
		wb->last_fault = j;
		attach_fault(w, j, 0);
	}
	return 0;
}

/* An applied action: checks it is the one the answer or policy gives. */
static int
on_action(struct walk *w, size_t i)
{
	const json_t *j = w->l->r[i].j;
	const json_t *logged = json_object_get(j, "action");
	struct wbot *wb;
	struct frame *f;
	struct action a;
	const char *src;
	json_t *aj, *ev;
	char what[160];
	size_t k, n0;
	int s, b;

	if (!w->in_game || w->ended)
		return fail(w, i, "an action outside a game");
	s = (int)rlog_int(j, "seat", -1);
	b = (int)rlog_int(j, "bot", -1);
	if (rlog_int(j, "game", -1) != w->gi || rlog_int(j, "step", -1) !=
	    w->step)
		return fail(w, i, "an action of game %ld step %ld where the "
		    "replay is at game %d step %ld", rlog_int(j, "game", -1),
		    rlog_int(j, "step", -1), w->gi, w->step);
	if (w->settled == w->round) {
		if (w->h.max_dec > 0 && w->step >= w->h.max_dec)
			return fail(w, i, "an action after %ld decisions, the "
			    "header's max_decisions", w->step);
		new_round(w);
	}
	if (s < 0 || s >= w->h.P || !(w->round & (1u << s)))
		return fail(w, i, "an action of seat %d, which does not decide "
		    "now (step %ld)", s, w->step);
	if ((w->settled & (1u << s)) ||
	    (w->round & ~w->settled & ((1u << s) - 1)))
		return fail(w, i, "seat %d's action out of the referee's seat "
		    "order (step %ld)", s, w->step);
	if (b != w->seat_bot[s])
		return fail(w, i, "seat %d is bot %d, not bot %d", s,
		    w->seat_bot[s], b);
	wb = &w->bots[b];
	src = json_string_value(json_object_get(j, "source"));
	if (src == NULL)
		src = "";
	if (strcmp(src, "bot") == 0) {
		if (!(w->asked & (1u << s)) || !wb->answered)
			return fail(w, i, "seat %d's action is said to be its "
			    "bot's, but the bot gave no accepted answer to "
			    "request %lld", s, (long long)wb->id);
		a = wb->answer;
	} else if (strcmp(src, "fault") == 0 || strcmp(src, "autoplay") == 0) {
		if (strcmp(src, "fault") == 0 && (!(w->asked & (1u << s)) ||
		    wb->closed_by == NULL))
			return fail(w, i, "seat %d's move is said to replace a "
			    "fault, but no fault closed its request", s);
		if (strcmp(src, "autoplay") == 0 && (w->asked & (1u << s)))
			return fail(w, i, "seat %d's move is said to be "
			    "autoplayed, but its bot was asked", s);
		if (strcmp(src, "autoplay") == 0 && wb->alive && !wb->retired)
			return fail(w, i, "seat %d is autoplayed, but its bot "
			    "is in the game", s);
		a = msg_substitute(w->h.g, w->st, s, strcmp(w->h.policy,
		    "random") == 0, w->deal_seed, w->step, w->legal[s],
		    w->nlegal[s]);
	} else
		return fail(w, i, "an action of unknown source \"%s\"", src);
	aj = game_action_json(w->h.g, w->st, s, a);
	snprintf(what, sizeof what, "seat %d's action at step %ld (%s)", s,
	    w->step, src);
	if (same(w, i, what, logged, aj) == -1) {
		json_decref(aj);
		return -1;
	}
	if (strcmp(src, "fault") == 0) {
		if (strcmp(w->h.policy, "retire") == 0)
			wb->retired = 1;
		if (wb->alive) {
			json_decref(wb->settle_action);
			wb->settle_action = json_incref(aj);
			wb->settle_id = wb->id;
			wb->settle_fault = wb->closed_by;
			wb->settle_retired = wb->retired;
		}
	}
	json_decref(aj);
	n0 = w->ev.n;
	if (w->h.g->apply(w->st, s, a, &w->rng, &w->ev) == -1)
		return fail(w, i, "seat %d's action at step %ld is not legal",
		    s, w->step);
	w->settled |= 1u << s;
	f = new_frame(w, i);
	f->step = w->step++;
	f->seat = s;
	f->bot = b;
	f->id = strcmp(src, "autoplay") == 0 ? -1 : wb->id;
	f->action = logged;
	f->source = src;
	f->all = game_view_json(w->h.g, w->st, SEAT_ALL);
	f->events = json_array();
	for (k = n0; k < w->ev.n; k++)
		if ((ev = game_event_json(w->h.g, w->st, &w->ev.e[k])) != NULL)
			json_array_append_new(f->events, ev);
	json_array_extend(f->faults, wb->pending);
	json_array_clear(wb->pending);
	{
		char *t = render_action_text(logged);
		size_t len = strlen(t) + 128;

		f->label = xmalloc(len);
		snprintf(f->label, len, "seat %d: %s%s", s, t,
		    strcmp(src, "fault") == 0 ? " (substituted after a fault)" :
		    strcmp(src, "autoplay") == 0 ? " (autoplayed)" : "");
		free(t);
	}
	return 0;
}

/* The start of a game: its seed, seats and deal are the rules'. */
static int
on_game_start(struct walk *w, size_t i)
{
	const json_t *j = w->l->r[i].j, *seats, *v;
	struct replay *rp = w->rp;
	struct rgame *gm;
	struct frame *f;
	size_t k;
	long gi;
	int s, b, next, reported, fresh;

	if (w->in_game)
		return fail(w, i, "a game starts before game %d has ended",
		    w->gi);
	gi = rlog_int(j, "game", -1);
	if ((long)w->started >= w->h.po.total)
		return fail(w, i, "game %ld after the last game of the play "
		    "order", gi);
	next = playorder_game(&w->h.po, (long)w->started, &reported, &fresh);
	if (gi != next)
		return fail(w, i, "game %ld where game %d is next in the play "
		    "order", gi, next);
	if (json_is_true(json_object_get(j, "replayed")) == reported)
		return fail(w, i, "game %ld is %s, the header's game list says "
		    "otherwise", gi, reported ? "said to be replayed only" :
		    "not said to be replayed only");
	for (b = 0; b < w->h.P; b++) {
		if (!w->bots[b].hello || w->bots[b].bye)
			return fail(w, i, "game %ld starts, but bot %d %s", gi,
			    b, w->bots[b].bye ? "was told bye" : "had no hello");
		if (w->bots[b].fresh != fresh)
			return fail(w, i, "game %ld %s, but bot %d %s", gi,
			    fresh ? "starts a lifetime" : "goes on with the "
			    "bots' lifetime", b, w->bots[b].fresh ? "is a new "
			    "process" : "is not a new process");
		w->bots[b].fresh = 0;
	}
	w->replaying = !reported;
	w->started++;
	w->gi = (int)gi;
	w->deal_seed = match_deal_seed(rp->seed, w->gi, w->h.P, w->h.duplicate);
	if (rlog_int(j, "seed", -1) != (long)w->deal_seed)
		return fail(w, i, "game %d's seed is %ld, the match seed gives "
		    "%llu", w->gi, rlog_int(j, "seed", -1),
		    (unsigned long long)w->deal_seed);
	seats = json_object_get(j, "seats");
	if (json_array_size(seats) != (size_t)w->h.P)
		return fail(w, i, "game %d lists %zu seats", w->gi,
		    json_array_size(seats));
	for (s = 0; s < w->h.P; s++) {
		w->seat_bot[s] = match_seat_bot(s, w->gi, w->h.P,
		    w->h.duplicate);
		if (json_integer_value(json_array_get(seats, (size_t)s)) !=
		    w->seat_bot[s])
			return fail(w, i, "game %d seats bot %lld at seat %d, "
			    "the rotation gives bot %d", w->gi, (long long)
			    json_integer_value(json_array_get(seats, (size_t)s)),
			    s, w->seat_bot[s]);
		/* Faults before the first game count toward its cap. */
		w->bots[w->seat_bot[s]].retired = w->h.max_faults > 0 &&
		    w->bots[w->seat_bot[s]].game_faults >= w->h.max_faults;
		w->bots[w->seat_bot[s]].open = 0;
	}
	memset(w->st, 0, w->h.g->state_size);
	ev_clear(&w->ev);
	evfeed_reset(&w->feed);
	rng_seed(&w->rng, w->deal_seed);
	w->h.g->init(w->st, &rp->o, deal_setup(w->h.g, rp->setup, rp->book,
	    rp->nbook, w->gi, w->h.P, w->h.duplicate), &w->rng, &w->ev);
	w->in_game = 1;
	w->ended = 0;
	w->step = 0;
	w->nstarts = w->nends = 0;
	w->round = w->settled = w->asked = 0;
	json_decref(w->final);
	w->final = NULL;

	if (rp->ngames % 16 == 0)
		rp->games = xreallocarray(rp->games, rp->ngames + 16,
		    sizeof *rp->games);
	gm = &rp->games[rp->ngames++];
	memset(gm, 0, sizeof *gm);
	gm->gi = w->gi;
	gm->seed = w->deal_seed;
	memcpy(gm->seats, w->seat_bot, sizeof gm->seats);
	gm->first = rp->nf;
	f = new_frame(w, i);
	f->step = -1;
	f->all = game_view_json(w->h.g, w->st, SEAT_ALL);
	f->events = json_array();
	for (k = 0; k < w->ev.n; k++)
		if ((v = game_event_json(w->h.g, w->st, &w->ev.e[k])) != NULL)
			json_array_append_new(f->events, (json_t *)v);
	for (k = i + 1; k < w->l->n && strcmp(rlog_msg_type(&w->l->r[k]), "start")
	    == 0; k++)
		;
	f->emit_end = k;
	f->label = xmalloc(64);
	snprintf(f->label, 64, "game %d dealt", w->gi);
	return same(w, i, "the deal (all-seeing view)", json_object_get(j,
	    "deal"), f->all);
}

/* The end of a game: it is over, and its result is the rules'. */
static int
on_game_end(struct walk *w, size_t i)
{
	const json_t *j = w->l->r[i].j;
	struct replay *rp = w->rp;
	json_t *a;
	int s, b, rc, cut;

	if (!w->in_game || w->ended)
		return fail(w, i, "a game end outside a game");
	cut = w->settled == w->round && w->h.g->deciders(w->st) != 0 &&
	    w->h.max_dec > 0 && w->step >= w->h.max_dec;
	if (!cut && (w->settled != w->round || w->h.g->deciders(w->st) != 0))
		return fail(w, i, "game %d ends at step %ld, but the rules go "
		    "on", w->gi, w->step);
	if (json_is_true(json_object_get(j, "max_decisions")) != cut)
		return fail(w, i, "game %d is %s by max_decisions, the replay "
		    "says otherwise", w->gi, cut ? "not said to be stopped" :
		    "said to be stopped");
	if (rlog_int(j, "game", -1) != w->gi || rlog_int(j, "steps", -1) !=
	    w->step)
		return fail(w, i, "game %ld ends after %ld steps, the replay "
		    "has game %d after %ld", rlog_int(j, "game", -1),
		    rlog_int(j, "steps", -1), w->gi, w->step);
	if (cut)
		match_adjudicate(w->h.P, w->places, w->scores);
	else
		w->h.g->result(w->st, w->places, w->scores);
	w->final = game_view_json(w->h.g, w->st, SEAT_ALL);
	w->ended = 1;
	rp->games[rp->ngames - 1].end = j;
	a = json_array();
	for (s = 0; s < w->h.P; s++)
		json_array_append_new(a, json_integer(w->places[s]));
	rc = same(w, i, "the places", json_object_get(j, "places"), a);
	json_decref(a);
	if (rc == -1)
		return -1;
	a = json_array();
	for (s = 0; s < w->h.P; s++)
		json_array_append_new(a, score_json(w->scores[s]));
	rc = same(w, i, "the scores", json_object_get(j, "scores"), a);
	json_decref(a);
	if (rc == -1)
		return -1;
	a = json_array();
	for (b = 0; b < w->h.P; b++)
		json_array_append_new(a, json_integer(w->bots[b].game_faults));
	rc = same(w, i, "the faults of the game", json_object_get(j, "faults"),
	    a);
	json_decref(a);
	if (rc == -1)
		return -1;
	a = json_boolean(cut || json_is_true(json_object_get(w->final,
	    "capped")));
	rc = same(w, i, "whether the turn cap was hit", json_object_get(j,
	    "capped"), a);
	json_decref(a);
	if (rc == -1)
		return -1;
	if (same(w, i, "the final all-seeing view", json_object_get(j, "final"),
	    w->final) == -1)
		return -1;
	for (s = 0; s < w->h.P; s++) {
		if (!w->replaying) {
			w->bots[w->seat_bot[s]].score += w->scores[s];
			w->bots[w->seat_bot[s]].place_sum += w->places[s];
		}
		w->bots[s].game_faults = 0;
	}
	w->games_played += !w->replaying;
	w->replaying = 0;
	return 0;
}

/* The match's result: places as the referee ranks them, faults counted. */
static int
on_result(struct walk *w, size_t i)
{
	const json_t *j = w->l->r[i].j, *bots;
	struct match_result res;
	json_t *rj;
	int b, k, rc;

	if (w->in_game)
		return fail(w, i, "the match's result in the middle of a game");
	if ((long)w->started != w->h.po.total)
		return fail(w, i, "the match's result after %zu of its %ld "
		    "games", w->started, w->h.po.total);
	for (b = 0; b < w->h.P; b++)
		if (w->bots[b].alive && !w->bots[b].bye)
			return fail(w, i, "the match's result, but bot %d was "
			    "not told bye", b);
	memset(&res, 0, sizeof res);
	res.nbots = w->h.P;
	res.games_played = w->games_played;
	bots = json_object_get(w->hdr, "bots");
	for (b = 0; b < w->h.P; b++) {
		strlcpy(res.names[b], json_string_value(json_object_get(
		    json_array_get(bots, (size_t)b), "name")) ?
		    json_string_value(json_object_get(json_array_get(bots,
		    (size_t)b), "name")) : "", sizeof res.names[b]);
		res.scores[b] = w->bots[b].score;
		res.place_sum[b] = w->bots[b].place_sum;
		for (k = 0; k < NFAULT; k++)
			res.faults[b][k] = w->bots[b].kinds[k];
	}
	match_places(&res);
	rj = match_result_json(&res);
	if (json_object_get(j, "t") != NULL)
		json_object_set(rj, "t", json_object_get(j, "t"));
	json_object_set(rj, "n", json_object_get(j, "n"));
	rc = same(w, i, "the match's result", j, rj);
	json_decref(rj);
	if (rc == 0)
		w->rp->complete = 1;
	return rc;
}

int
replay_run(struct replay *rp, const struct rlog *l, char *cause, size_t len)
{
	struct walk w;
	const char *t;
	size_t i;
	int s, rc = 0;

	memset(rp, 0, sizeof *rp);
	memset(&w, 0, sizeof w);
	rp->log = l;
	w.rp = rp;
	w.l = l;
	w.hdr = l->header;
	w.next_id = 1;
	if (rhead_read(&w.h, rp, l, cause, len) == -1) {
		rhead_free(&w.h);
		return -1;
	}
	w.st = xcalloc(1, w.h.g->state_size);
	for (s = 0; s < w.h.P; s++) {
		w.legal[s] = xcalloc(MAX_LEGAL, sizeof *w.legal[s]);
		w.bots[s].alive = 1;
		w.bots[s].wants = WANT_ALL;
		w.bots[s].pending = json_array();
	}
	if (same(&w, 0, "the header's options", json_object_get(w.hdr,
	    "options"), w.h.optsj) == -1)
		i = l->n;
	else
		i = 1;
	for (; i < l->n && rc == 0; i++) {
		t = l->r[i].type;
		if (strcmp(t, "log_capped") != 0 && check_n(&w, i) == -1)
			break;
		if (strcmp(t, "send") == 0)
			rc = on_send(&w, i);
		else if (strcmp(t, "recv") == 0)
			rc = on_recv(&w, i);
		else if (strcmp(t, "fault") == 0)
			rc = on_fault(&w, i);
		else if (strcmp(t, "action") == 0)
			rc = on_action(&w, i);
		else if (strcmp(t, "game_start") == 0)
			rc = on_game_start(&w, i);
		else if (strcmp(t, "game_end") == 0)
			rc = on_game_end(&w, i);
		else if (strcmp(t, "result") == 0)
			rc = on_result(&w, i);
		else if (strcmp(t, "log_capped") == 0) {
			/* the referee stopped logging here (--log-max) */
			if (i + 1 < l->n)
				rc = fail(&w, i + 1, "lines after the log's "
				    "size cap");
			else
				rp->capped = 1;
		}
		else if (strcmp(t, "aborted") == 0 && i + 1 == l->n)
			/* stopped (Ctrl-C, SIGTERM): all before it held */
			snprintf(rp->stopped, sizeof rp->stopped, "%s",
			    json_string_value(json_object_get(l->r[i].j,
			    "detail")) ? json_string_value(json_object_get(
			    l->r[i].j, "detail")) : "stopped");
		else if (strcmp(t, "error") == 0 || strcmp(t, "aborted") == 0)
			rc = fail(&w, i, "the referee %s: %s", strcmp(t,
			    "error") == 0 ? "failed" : "was stopped",
			    json_string_value(json_object_get(l->r[i].j,
			    "detail")) ? json_string_value(json_object_get(
			    l->r[i].j, "detail")) : "?");
		else
			rc = fail(&w, i, "a line of unknown type \"%s\"", t);
		if (rc == 0 && rp->complete && i + 1 < l->n)
			rc = fail(&w, i + 1, "lines after the match's result");
	}
	if (!rp->diverged && !rp->complete && !rp->capped &&
	    rp->stopped[0] == '\0')
		fail(&w, l->n, "the log ends before the match's result%s",
		    l->torn ? " (its last line is torn)" : "");
	for (s = 0; s < w.h.P; s++) {
		free(w.legal[s]);
		json_decref(w.bots[s].pending);
		json_decref(w.bots[s].settle_action);
	}
	json_decref(w.final);
	rhead_free(&w.h);
	free(w.st);
	ev_free(&w.ev);
	evfeed_free(&w.feed);
	buf_free(&w.b);
	read_debug(rp);
	return 0;
}

/* Keeps the text written to tf as debug text of (bot, gi, id), if any. */
static void
debug_add(struct replay *rp, int bot, long gi, long long id, FILE *tf,
    char **text, size_t *tlen)
{
	fclose(tf);
	while (*tlen > 0 && ((*text)[*tlen - 1] == '\n' ||
	    (*text)[*tlen - 1] == '\r'))
		(*text)[--*tlen] = '\0';
	if (*tlen == 0) {
		free(*text);
		*text = NULL;
		return;
	}
	rp->dbg = xreallocarray(rp->dbg, rp->ndbg + 1, sizeof *rp->dbg);
	rp->dbg[rp->ndbg].bot = bot;
	rp->dbg[rp->ndbg].gi = (int)gi;
	rp->dbg[rp->ndbg].id = id;
	rp->dbg[rp->ndbg].answer = 0;
	rp->dbg[rp->ndbg++].text = *text;
	*text = NULL;
}

/*
 * Keeps the "debug" text of each answer the log received (a recv line
 * with an "id"), for the request it answered.
 */
static void
read_answer_debug(struct replay *rp)
{
	const struct rlog *l = rp->log;
	json_t *a, *d, *id;
	long gi = 0;
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->r[i].type, "game_start") == 0) {
			gi = rlog_int(l->r[i].j, "game", -1);
			continue;
		}
		if (strcmp(l->r[i].type, "recv") != 0 || l->r[i].bot < 0 ||
		    l->r[i].bot >= rp->players)
			continue;
		a = json_loads(json_string_value(json_object_get(l->r[i].j,
		    "line")) != NULL ? json_string_value(json_object_get(
		    l->r[i].j, "line")) : "", 0, NULL);
		d = json_object_get(a, "debug");
		id = json_object_get(a, "id");
		if (json_is_string(d) && json_string_length(d) > 0 &&
		    json_is_integer(id)) {
			rp->dbg = xreallocarray(rp->dbg, rp->ndbg + 1,
			    sizeof *rp->dbg);
			rp->dbg[rp->ndbg].bot = l->r[i].bot;
			rp->dbg[rp->ndbg].gi = (int)gi;
			rp->dbg[rp->ndbg].id = json_integer_value(id);
			rp->dbg[rp->ndbg].answer = 1;
			rp->dbg[rp->ndbg++].text = xstrdup(json_string_value(d));
		}
		json_decref(a);
	}
}

/*
 * Reads the bots' stderr files (LOG.botN.stderr) and puts each piece of
 * text on the frame of the request its marker names ("--- cardarena: game
 * G, request ID ---"), or on the game's deal before any request; then the
 * answers' own "debug" text, on the frame of the action answering.
 */
static void
read_debug(struct replay *rp)
{
	char path[4096], *line = NULL, *text = NULL;
	size_t cap = 0, tlen = 0, k, fi;
	ssize_t n;
	FILE *fp, *tf;
	long gi, ngi;
	long long id, nid;
	int b, g;
	json_t *dj;

	for (b = 0; b < rp->players; b++) {
		snprintf(path, sizeof path, "%s.bot%d.stderr", rp->log->path,
		    b);
		if ((fp = fopen(path, "r")) == NULL)
			continue;
		gi = 0;
		id = 0;
		tf = open_memstream(&text, &tlen);
		while ((n = getline(&line, &cap, fp)) != -1) {
			if (sscanf(line, "--- cardarena: game %ld, request "
			    "%lld ---", &ngi, &nid) == 2) {
				debug_add(rp, b, gi, id, tf, &text, &tlen);
				gi = ngi;
				id = nid;
				tf = open_memstream(&text, &tlen);
			} else
				fwrite(line, 1, (size_t)n, tf);
		}
		debug_add(rp, b, gi, id, tf, &text, &tlen);
		fclose(fp);
	}
	free(line);
	read_answer_debug(rp);
	for (k = 0; k < rp->ndbg; k++) {
		struct rdebug *d = &rp->dbg[k];

		for (fi = 0; fi < rp->nf; fi++)
			if (rp->f[fi].bot == d->bot && rp->f[fi].id == d->id &&
			    rp->games[rp->f[fi].game].gi == d->gi)
				break;
		if (fi == rp->nf)
			for (g = 0; (size_t)g < rp->ngames; g++)
				if (rp->games[g].gi == d->gi) {
					fi = rp->games[g].first;
					break;
				}
		if (fi >= rp->nf)
			continue;
		dj = json_pack("{s:i,s:i,s:s,s:s}", "seat", replay_seat_of(rp,
		    rp->f[fi].game, d->bot), "bot", d->bot, "text", d->text,
		    "from", d->answer ? "answer" : "stderr");
		json_array_append_new(rp->f[fi].debug, dj);
	}
}

size_t
replay_seen_end(const struct replay *rp, size_t k)
{
	return k + 1 < rp->nf ? rp->f[k + 1].rec : rp->log->n;
}

void
replay_free(struct replay *rp)
{
	size_t k;

	for (k = 0; k < rp->nf; k++) {
		json_decref(rp->f[k].all);
		json_decref(rp->f[k].events);
		json_decref(rp->f[k].faults);
		json_decref(rp->f[k].debug);
		free(rp->f[k].label);
	}
	for (k = 0; k < rp->ndbg; k++)
		free(rp->dbg[k].text);
	free(rp->dbg);
	free(rp->f);
	free(rp->games);
	free(rp->setup);
	free(rp->book);
	memset(rp, 0, sizeof *rp);
}
