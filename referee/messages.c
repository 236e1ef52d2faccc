/*
 * The referee's messages to bots as text, and its substitute moves; see
 * messages.h.  The bytes are protocol.md's and must stay exactly those of
 * referee/match.c: bin/replay --verify checks real match logs against them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha2.h>

#include "jw.h"
#include "messages.h"

static void	evfeed_encode(struct evfeed *, const struct game *,
		    const void *, const struct events *);
static void	put_events(struct buf *, struct evfeed *, const struct game *,
		    const void *, const struct events *, int, unsigned);
static void	put_legal(struct buf *, const struct game *, const void *,
		    int, const struct legal *, int);
static void	put_view(struct buf *, const struct game *, const void *, int,
		    unsigned);

/* Appends seat's view as text. */
void
msg_view(struct buf *b, const struct game *g, const void *st, int seat)
{
	struct jw w;

	jw_text(&w, b);
	g->view_write(st, seat, &w);
}

/* Appends ,"view":{...} when wants has WANT_VIEW. */
static void
put_view(struct buf *b, const struct game *g, const void *st, int seat,
    unsigned wants)
{
	if (wants & WANT_VIEW) {
		buf_str(b, ",\"view\":");
		msg_view(b, g, st, seat);
	}
}

/* Appends an action's JSON as text. */
void
msg_action(struct buf *b, const struct game *g, const void *st, int seat,
    struct action a)
{
	struct jw w;

	jw_text(&w, b);
	g->action_write(st, seat, a, &w);
}

/* Appends the legal list as text. */
static void
put_legal(struct buf *b, const struct game *g, const void *st, int seat,
    const struct legal *l, int n)
{
	struct jw w;

	jw_text(&w, b);
	legal_write(g, st, seat, l, n, &w);
}

void
evfeed_reset(struct evfeed *f)
{
	f->text.len = 0;
	f->nenc = 0;
	memset(f->next, 0, sizeof f->next);
}

void
evfeed_free(struct evfeed *f)
{
	buf_free(&f->text);
	free(f->off);
	memset(f, 0, sizeof *f);
}

/* Encodes the events not yet encoded, each once, against st. */
static void
evfeed_encode(struct evfeed *f, const struct game *g, const void *st,
    const struct events *ev)
{
	struct jw w;

	if (ev->n + 1 > f->cap) {
		f->cap = ev->n + 64;
		f->off = xreallocarray(f->off, f->cap, sizeof *f->off);
	}
	for (; f->nenc < ev->n; f->nenc++) {
		f->off[f->nenc] = f->text.len;
		jw_text(&w, &f->text);
		g->event_write(st, &ev->e[f->nenc], &w);
		buf_ch(&f->text, ',');
	}
	f->off[f->nenc] = f->text.len;
}

/*
 * Appends ,"events":[...] when wants has WANT_EVENTS; else passes seat over
 * the events it was not told yet, encoded all the same, so that every
 * event's text is the same whichever seat is the first to be told it.
 */
static void
put_events(struct buf *b, struct evfeed *f, const struct game *g,
    const void *st, const struct events *ev, int seat, unsigned wants)
{
	if (wants & WANT_EVENTS) {
		buf_str(b, ",\"events\":");
		evfeed_add(f, b, g, st, ev, seat);
		return;
	}
	evfeed_encode(f, g, st, ev);
	f->next[seat] = ev->n;
}

void
evfeed_add(struct evfeed *f, struct buf *b, const struct game *g,
    const void *st, const struct events *ev, int seat)
{
	size_t i, j, from, bytes = 0, missed = 0;
	uint32_t me = 1u << seat;
	char *d;

	evfeed_encode(f, g, st, ev);
	buf_add(b, "[", 1);
	/*
	 * A seat not asked for a long time (a player out early) would be
	 * told a backlog without bound: past EVENTS_MAX bytes only the newest
	 * events that fit are sent, after one {"type":"missed","count":N}
	 * (the view carries the state).
	 */
	from = f->next[seat];
	for (i = ev->n; i > f->next[seat]; i--) {
		if (!(ev->e[i - 1].seen & me))
			continue;
		bytes += f->off[i] - f->off[i - 1];
		if (bytes > EVENTS_MAX) {
			from = i;
			break;
		}
	}
	for (i = f->next[seat]; i < from; i++)
		missed += (ev->e[i].seen & me) != 0;
	if (missed > 0) {
		buf_str(b, "{\"type\":\"missed\",\"count\":");
		buf_int(b, (int64_t)missed);
		buf_str(b, "},");
	}
	/*
	 * Each event's text is kept with the comma after it, so a run of
	 * events the seat was told is one copy; bytes counted them all.
	 */
	buf_reserve(b, bytes + 1);
	d = b->p + b->len;
	for (i = from; i < ev->n; i = j) {
		if (!(ev->e[i].seen & me)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < ev->n && (ev->e[j].seen & me); j++)
			;
		memcpy(d, f->text.p + f->off[i], f->off[j] - f->off[i]);
		d += f->off[j] - f->off[i];
	}
	if (d[-1] == ',')
		d--;
	*d++ = ']';
	b->len = (size_t)(d - b->p);
	*d = '\0';
	f->next[seat] = ev->n;
}

void
match_nonce(uint64_t seed, char *out)
{
	SHA2_CTX ctx;
	uint8_t md[SHA256_DIGEST_LENGTH];
	char text[64];
	int i;

	snprintf(text, sizeof text, "cardarena match nonce %llu",
	    (unsigned long long)seed);
	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)text, strlen(text));
	SHA256Final(md, &ctx);
	for (i = 0; i < NONCE_LEN / 2; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

void
msg_hello(struct buf *b, const struct game *g, const json_t *opts, int seat,
    int players, int ngames, int duplicate, int bot, long time_per_move_ms,
    long time_bank_ms, long time_hello_ms, const char *nonce)
{
	json_t *j;

	j = json_pack("{s:s,s:i,s:s,s:s,s:O,s:i,s:i,s:i,s:b,s:i,"
	    "s:{s:i,s:i,s:i,s:i}}", "type", "hello", "protocol",
	    PROTOCOL_VERSION, "cardarena", CARDARENA_VERSION, "game", g->name,
	    "options", opts, "seat", seat, "players", players, "games", ngames,
	    "duplicate", duplicate, "bot", bot, "limits", "time_per_move_ms",
	    (json_int_t)time_per_move_ms, "time_bank_ms",
	    (json_int_t)time_bank_ms, "time_hello_ms",
	    (json_int_t)time_hello_ms, "max_line", MAX_LINE);
	if (nonce != NULL)
		json_object_set_new(j, "nonce", json_string(nonce));
	buf_json(b, j);
	buf_add(b, "\n", 1);
	json_decref(j);
}

int
msg_wants(const json_t *hello, unsigned *wants, char *cause, size_t len)
{
	static const char *const names[] = { "view", "events", "legal" };
	const json_t *a, *v;
	const char *s;
	size_t i, k;

	*wants = WANT_ALL;
	if ((a = json_object_get(hello, "wants")) == NULL)
		return 0;
	if (!json_is_array(a)) {
		snprintf(cause, len, "\"wants\" is not an array of part names");
		return -1;
	}
	*wants = 0;
	json_array_foreach(a, i, v) {
		if ((s = json_string_value(v)) == NULL) {
			*wants = WANT_ALL;
			snprintf(cause, len, "\"wants\"[%zu] is not a part name",
			    i);
			return -1;
		}
		for (k = 0; k < sizeof names / sizeof names[0]; k++)
			if (strcmp(s, names[k]) == 0)
				*wants |= 1u << k;
	}
	return 0;
}

void
msg_start(struct buf *b, const struct game *g, const void *st, int gi,
    int seat, int players, unsigned wants)
{
	buf_kint(b, "{\"type\":\"start\",\"game\":", gi);
	buf_kint(b, ",\"seat\":", seat);
	buf_kint(b, ",\"players\":", players);
	put_view(b, g, st, seat, wants);
	buf_str(b, "}\n");
}

void
msg_request(struct buf *b, const struct game *g, const void *st, int64_t id,
    int gi, int seat, int64_t time_left_ms, struct evfeed *f,
    const struct events *ev, const struct legal *l, int n, unsigned wants)
{
	buf_kint(b, "{\"type\":\"request\",\"id\":", id);
	buf_kint(b, ",\"game\":", gi);
	buf_kint(b, ",\"seat\":", seat);
	buf_kint(b, ",\"time_left_ms\":", time_left_ms);
	put_view(b, g, st, seat, wants);
	put_events(b, f, g, st, ev, seat, wants);
	if (wants & WANT_LEGAL) {
		buf_str(b, ",\"legal\":");
		put_legal(b, g, st, seat, l, n);
	}
	buf_str(b, "}\n");
}

void
msg_error(struct buf *b, int64_t id, const char *fault, const char *message,
    const json_t *action, int retired)
{
	buf_str(b, "{\"type\":\"error\",\"id\":");
	if (id >= 0)
		buf_int(b, id);
	else
		buf_str(b, "null");
	buf_str(b, ",\"fault\":\"");
	buf_str(b, fault);
	buf_str(b, "\",\"message\":");
	buf_jstr(b, message, strlen(message));
	if (action != NULL) {
		buf_str(b, ",\"action\":");
		buf_json(b, action);
		if (retired)
			buf_str(b, ",\"retired\":true");
	}
	buf_str(b, "}\n");
}

void
msg_end(struct buf *b, const struct game *g, const void *st, int gi, int seat,
    int players, const int *places, const double *scores, struct evfeed *f,
    const struct events *ev, const json_t *final, unsigned wants)
{
	struct buf fin = { NULL, 0, 0 };

	if (wants & WANT_VIEW)
		buf_json(&fin, final);
	msg_end_text(b, g, st, gi, seat, players, places, scores, f, ev,
	    fin.p, fin.len, wants);
	buf_free(&fin);
}

void
msg_end_text(struct buf *b, const struct game *g, const void *st, int gi,
    int seat, int players, const int *places, const double *scores,
    struct evfeed *f, const struct events *ev, const char *final,
    size_t flen, unsigned wants)
{
	int i;

	buf_kint(b, "{\"type\":\"end\",\"game\":", gi);
	buf_kint(b, ",\"seat\":", seat);
	buf_str(b, ",\"places\":[");
	for (i = 0; i < players; i++) {
		if (i)
			buf_add(b, ",", 1);
		buf_int(b, places[i]);
	}
	buf_str(b, "],\"scores\":[");
	for (i = 0; i < players; i++) {
		if (i)
			buf_add(b, ",", 1);
		buf_score(b, scores[i]);
	}
	buf_add(b, "]", 1);
	put_events(b, f, g, st, ev, seat, wants);
	if (wants & WANT_VIEW) {
		buf_str(b, ",\"view\":");
		buf_add(b, final, flen);
	}
	buf_str(b, "}\n");
}

void
msg_bye(struct buf *b)
{
	buf_str(b, "{\"type\":\"bye\"}\n");
}

struct action
msg_substitute(const struct game *g, const void *st, int seat,
    int policy_random, uint64_t deal_seed, long step, const struct legal *l,
    int n)
{
	struct rng r;

	if (!policy_random)
		return g->default_action(st, seat);
	rng_seed(&r, seed_derive(deal_seed ^ SUBSTITUTE_SALT,
	    (uint64_t)step * MAX_PLAYERS + (uint64_t)seat));
	return legal_pick(l, n, &r);
}
