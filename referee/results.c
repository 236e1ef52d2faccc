/*
 * The results line's encoder (bin/referee) and decoder (the tournament's
 * pool), and the fault names both sides and the journal share; see
 * results.h.  The line's shape is protocol.md's and HACKING.md's:
 * {"game","seed","seats","places","scores","faults","fault_kinds",
 * "hello_timeouts","limits","retired","capped","log"}.  The decoder reads
 * that exact form with a scanner (resline_scan, on the canonical scanners
 * cs_* it shares with the journal's jgame_scan) and anything else through
 * jansson (resline_parse), with the same result; tests/t_results.c holds
 * the two equal.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "results.h"

const char *const tfault_names[NTFAULT] = { "timeout", "crash", "illegal",
    "limit", "hello_timeout", "limit_cpu", "limit_memory", "limit_fsize" };

const enum tfault fault_tkind[NFAULT] = {
	[FAULT_TIMEOUT] = TF_TIMEOUT,
	[FAULT_EXIT] = TF_CRASH,
	[FAULT_MALFORMED] = TF_ILLEGAL,
	[FAULT_LONG_LINE] = TF_ILLEGAL,
	[FAULT_WRONG_ID] = TF_ILLEGAL,
	[FAULT_ILLEGAL] = TF_ILLEGAL,
	[FAULT_LIMIT] = TF_LIMIT
};

static void	 counts_encode(struct buf *, const char *const *, const long *,
		    int);
static int	 cs_ints(struct cscan *, int, long, long, long *);
static int	 cs_counts(struct cscan *, const char *const *, long *, int);
static int	 scan_tail(struct cscan *, int, struct resline *);
static int	 counts_decode(const json_t *, const char *const *, long *, int);
static int	 ints_decode(const json_t *, int, long, long, long *);

/* Appends {"name":count,...} for the n names and counts. */
static void
counts_encode(struct buf *b, const char *const *names, const long *counts,
    int n)
{
	int k;

	buf_ch(b, '{');
	for (k = 0; k < n; k++) {
		if (k)
			buf_ch(b, ',');
		buf_jstr(b, names[k], strlen(names[k]));
		buf_ch(b, ':');
		buf_int(b, counts[k]);
	}
	buf_ch(b, '}');
}

void
resline_encode(struct buf *b, const struct resline *r)
{
	long total;
	int i, k;

	buf_str(b, "{\"game\":");
	buf_int(b, r->game);
	buf_str(b, ",\"seed\":");
	buf_int(b, r->seed);
	buf_str(b, ",\"seats\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		buf_int(b, r->seats[i]);
	}
	buf_str(b, "],\"places\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		buf_int(b, r->places[i]);
	}
	buf_str(b, "],\"scores\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		buf_score(b, r->scores[i]);
	}
	buf_str(b, "],\"faults\":[");
	for (i = 0; i < r->n; i++) {
		for (k = 0, total = 0; k < NFAULT; k++)
			total += r->kinds[i][k];
		if (i)
			buf_ch(b, ',');
		buf_int(b, total);
	}
	buf_str(b, "],\"fault_kinds\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		counts_encode(b, fault_names, r->kinds[i], NFAULT);
	}
	buf_str(b, "],\"hello_timeouts\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		buf_int(b, r->hello[i]);
	}
	buf_str(b, "],\"limits\":[");
	for (i = 0; i < r->n; i++) {
		if (i)
			buf_ch(b, ',');
		counts_encode(b, limit_names, r->limits[i], NLIMIT);
	}
	buf_str(b, "],\"retired\":[");
	for (i = 0; i < r->n; i++)
		buf_str(b, i ? (r->retired[i] ? ",true" : ",false") :
		    (r->retired[i] ? "true" : "false"));
	buf_str(b, "],\"capped\":");
	buf_str(b, r->capped ? "true" : "false");
	buf_str(b, ",\"log\":");
	if (r->log[0] != '\0')
		buf_jstr(b, r->log, strlen(r->log));
	else
		buf_str(b, "null");
	buf_str(b, "}\n");
}

int
resline_write(int fd, const struct resline *r)
{
	struct buf q = { NULL, 0, 0 };
	ssize_t n;
	size_t off;
	int e = 0;

	resline_encode(&q, r);
	for (off = 0; off < q.len; off += (size_t)n) {
		n = write(fd, q.p + off, q.len - off);
		if (n == -1 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			e = n == 0 ? ENOSPC : errno;
			break;
		}
	}
	buf_free(&q);
	errno = e;
	return e != 0 ? -1 : 0;
}

/* Reads {"name":count,...} (every name, counts >= 0); -1 if it is not. */
static int
counts_decode(const json_t *o, const char *const *names, long *counts, int n)
{
	const json_t *v;
	int k;

	if (!json_is_object(o))
		return -1;
	for (k = 0; k < n; k++) {
		v = json_object_get(o, names[k]);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		counts[k] = (long)json_integer_value(v);
	}
	return 0;
}

/* Reads an array of n integers in lo..hi into v; -1 if it is not one. */
static int
ints_decode(const json_t *a, int n, long lo, long hi, long *v)
{
	const json_t *e;
	int i;

	if (!json_is_array(a) || json_array_size(a) != (size_t)n)
		return -1;
	for (i = 0; i < n; i++) {
		e = json_array_get(a, (size_t)i);
		if (!json_is_integer(e) || json_integer_value(e) < lo ||
		    json_integer_value(e) > hi)
			return -1;
		v[i] = (long)json_integer_value(e);
	}
	return 0;
}

int
resline_parse(const char *text, size_t len, int n, struct resline *r,
    char *cause, size_t clen)
{
	json_t *j, *a, *e;
	json_error_t je;
	long v[MAX_PLAYERS], total;
	const char *what = NULL, *s;
	int i, k, seen[MAX_PLAYERS];

	memset(r, 0, sizeof *r);
	if (n < 1 || n > MAX_PLAYERS) {
		snprintf(cause, clen, "%d bots", n);
		return -1;
	}
	if ((j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(cause, clen, "not JSON (%s)", je.text);
		return -1;
	}
	r->n = n;
	e = json_object_get(j, "game");
	if (!json_is_integer(e) || json_integer_value(e) < 0) {
		what = "game";
		goto bad;
	}
	r->game = (long)json_integer_value(e);
	e = json_object_get(j, "seed");
	if (!json_is_integer(e) || json_integer_value(e) < 0) {
		what = "seed";
		goto bad;
	}
	r->seed = (int64_t)json_integer_value(e);
	memset(seen, 0, sizeof seen);
	if (ints_decode(json_object_get(j, "seats"), n, 0, n - 1, v) == -1) {
		what = "seats";
		goto bad;
	}
	for (i = 0; i < n; i++) {
		if (seen[v[i]]++) {
			what = "seats";
			goto bad;
		}
		r->seats[i] = (int)v[i];
	}
	if (ints_decode(json_object_get(j, "places"), n, 1, n, v) == -1) {
		what = "places";
		goto bad;
	}
	for (i = 0; i < n; i++)
		r->places[i] = (int)v[i];
	a = json_object_get(j, "scores");
	if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
		what = "scores";
		goto bad;
	}
	for (i = 0; i < n; i++) {
		e = json_array_get(a, (size_t)i);
		if (!json_is_number(e) && !json_is_null(e)) {
			what = "scores";
			goto bad;
		}
		r->scores[i] = json_is_null(e) ? 0 : json_number_value(e);
	}
	a = json_object_get(j, "fault_kinds");
	if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
		what = "fault_kinds";
		goto bad;
	}
	for (i = 0; i < n; i++)
		if (counts_decode(json_array_get(a, (size_t)i), fault_names,
		    r->kinds[i], NFAULT) == -1) {
			what = "fault_kinds";
			goto bad;
		}
	/* the totals must agree with the kinds */
	if (ints_decode(json_object_get(j, "faults"), n, 0, LONG_MAX, v) ==
	    -1) {
		what = "faults";
		goto bad;
	}
	for (i = 0; i < n; i++) {
		for (k = 0, total = 0; k < NFAULT; k++)
			total += r->kinds[i][k];
		if (total != v[i]) {
			what = "faults";
			goto bad;
		}
	}
	if (ints_decode(json_object_get(j, "hello_timeouts"), n, 0, LONG_MAX,
	    r->hello) == -1) {
		what = "hello_timeouts";
		goto bad;
	}
	a = json_object_get(j, "limits");
	if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
		what = "limits";
		goto bad;
	}
	for (i = 0; i < n; i++)
		if (counts_decode(json_array_get(a, (size_t)i), limit_names,
		    r->limits[i], NLIMIT) == -1) {
			what = "limits";
			goto bad;
		}
	a = json_object_get(j, "retired");
	if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
		what = "retired";
		goto bad;
	}
	for (i = 0; i < n; i++) {
		e = json_array_get(a, (size_t)i);
		if (!json_is_boolean(e)) {
			what = "retired";
			goto bad;
		}
		r->retired[i] = json_is_true(e);
	}
	e = json_object_get(j, "capped");
	if (!json_is_boolean(e)) {
		what = "capped";
		goto bad;
	}
	r->capped = json_is_true(e);
	e = json_object_get(j, "log");
	if (json_is_string(e)) {
		s = json_string_value(e);
		if (*s == '\0' || strlcpy(r->log, s, sizeof r->log) >=
		    sizeof r->log) {
			what = "log";
			goto bad;
		}
	} else if (!json_is_null(e)) {
		what = "log";
		goto bad;
	}
	json_decref(j);
	return 0;
bad:
	snprintf(cause, clen, "a missing or bad \"%s\"", what);
	json_decref(j);
	return -1;
}

/* Takes the literal s of n bytes; -1 if the text is not it. */
int
cs_lit(struct cscan *c, const char *s, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return -1;
	c->p += n;
	return 0;
}

/*
 * Takes an integer as jansson writes one (no leading zero, no "-0"), at
 * most max in magnitude, negative only with neg; -1 if it is not one.
 */
int
cs_num(struct cscan *c, int neg, unsigned long long max, long long *v)
{
	unsigned long long u = 0, d;
	const char *start;
	int minus = 0;

	if (neg && c->p < c->end && *c->p == '-') {
		minus = 1;
		c->p++;
	}
	for (start = c->p; c->p < c->end && *c->p >= '0' && *c->p <= '9';
	    c->p++) {
		d = (unsigned long long)(*c->p - '0');
		if (u > max / 10 || u * 10 + d > max)
			return -1;
		u = u * 10 + d;
	}
	if (c->p == start || (*start == '0' && c->p - start > 1) ||
	    (minus && u == 0))
		return -1;
	*v = minus ? -(long long)u : (long long)u;
	return 0;
}

/*
 * Takes a string of printable ASCII without escapes (what jansson writes
 * unchanged), copied NUL-ended to the cursor's out; -1 if it is not one.
 */
int
cs_str(struct cscan *c, const char **s)
{
	const char *q;
	size_t n;

	if (c->p == c->end || *c->p != '"')
		return -1;
	for (q = ++c->p; q < c->end && *q != '"'; q++)
		if (*q < 0x20 || *q > 0x7e || *q == '\\')
			return -1;
	if (q == c->end)
		return -1;
	n = (size_t)(q - c->p);
	memcpy(c->out, c->p, n);
	c->out[n] = '\0';
	*s = c->out;
	c->out += n + 1;
	c->p = q + 1;
	return 0;
}

/*
 * Takes "[v,...]" of n integers in lo..hi (lo >= 0) into v; -1 if the
 * text is not that.
 */
static int
cs_ints(struct cscan *c, int n, long lo, long hi, long *v)
{
	long long x;
	int i;

	if (CS_LIT(c, "[") == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((i > 0 && CS_LIT(c, ",") == -1) ||
		    cs_num(c, 0, (unsigned long long)hi, &x) == -1 || x < lo)
			return -1;
		v[i] = (long)x;
	}
	return CS_LIT(c, "]");
}

/* Takes {"name":count,...} as counts_encode writes it; -1 if it is not. */
static int
cs_counts(struct cscan *c, const char *const *names, long *counts, int n)
{
	size_t len;
	long long v;
	int k;

	for (k = 0; k < n; k++) {
		len = strlen(names[k]);
		if ((size_t)(c->end - c->p) < len + 4 ||
		    c->p[0] != (k == 0 ? '{' : ',') || c->p[1] != '"' ||
		    memcmp(c->p + 2, names[k], len) != 0 ||
		    c->p[len + 2] != '"' || c->p[len + 3] != ':')
			return -1;
		c->p += len + 4;
		if (cs_num(c, 0, LONG_MAX, &v) == -1)
			return -1;
		counts[k] = (long)v;
	}
	return CS_LIT(c, "}");
}

/* Takes the line from its "fault_kinds" on into r; -1 if it is not. */
static int
scan_tail(struct cscan *c, int n, struct resline *r)
{
	const char *s;
	int i;

	if (CS_LIT(c, ",\"fault_kinds\":[") == -1)
		return -1;
	for (i = 0; i < n; i++)
		if ((i > 0 && CS_LIT(c, ",") == -1) ||
		    cs_counts(c, fault_names, r->kinds[i], NFAULT) == -1)
			return -1;
	if (CS_LIT(c, "],\"hello_timeouts\":") == -1 ||
	    cs_ints(c, n, 0, LONG_MAX, r->hello) == -1 ||
	    CS_LIT(c, ",\"limits\":[") == -1)
		return -1;
	for (i = 0; i < n; i++)
		if ((i > 0 && CS_LIT(c, ",") == -1) ||
		    cs_counts(c, limit_names, r->limits[i], NLIMIT) == -1)
			return -1;
	if (CS_LIT(c, "],\"retired\":[") == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (i > 0 && CS_LIT(c, ",") == -1)
			return -1;
		if (CS_LIT(c, "true") == 0)
			r->retired[i] = 1;
		else if (CS_LIT(c, "false") == -1)
			return -1;
	}
	if (CS_LIT(c, "],\"capped\":") == -1)
		return -1;
	if (CS_LIT(c, "true") == 0)
		r->capped = 1;
	else if (CS_LIT(c, "false") == -1)
		return -1;
	if (CS_LIT(c, ",\"log\":") == -1)
		return -1;
	if (CS_LIT(c, "null") == -1) {
		/* the log fits: cs_str copies at most the rest of the line */
		if (c->end - c->p >= RES_LOG_MAX || cs_str(c, &s) == -1 ||
		    r->log[0] == '\0')
			return -1;
	}
	return CS_LIT(c, "}");
}

int
resline_scan(const char *text, size_t len, int n, struct resline *r)
{
	struct cscan c = { text, text + len, r->log };
	long long v;
	long t[MAX_PLAYERS], total;
	int i, k, seen[MAX_PLAYERS];

	memset(r, 0, sizeof *r);
	if (n < 1 || n > MAX_PLAYERS)
		return -1;
	r->n = n;
	if (CS_LIT(&c, "{\"game\":") == -1 ||
	    cs_num(&c, 0, LONG_MAX, &v) == -1)
		return -1;
	r->game = (long)v;
	if (CS_LIT(&c, ",\"seed\":") == -1 ||
	    cs_num(&c, 0, INT64_MAX, &v) == -1)
		return -1;
	r->seed = (int64_t)v;
	memset(seen, 0, sizeof seen);
	if (CS_LIT(&c, ",\"seats\":") == -1 ||
	    cs_ints(&c, n, 0, n - 1, t) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (seen[t[i]]++)
			return -1;
		r->seats[i] = (int)t[i];
	}
	if (CS_LIT(&c, ",\"places\":") == -1 ||
	    cs_ints(&c, n, 1, n, t) == -1 || CS_LIT(&c, ",\"scores\":[") == -1)
		return -1;
	for (i = 0; i < n; i++)
		r->places[i] = (int)t[i];
	for (i = 0; i < n; i++) {
		if (i > 0 && CS_LIT(&c, ",") == -1)
			return -1;
		if (CS_LIT(&c, "null") == 0)
			continue;
		if (cs_num(&c, 1, SCORE_MAX, &v) == -1)
			return -1;
		r->scores[i] = (double)v;
	}
	if (CS_LIT(&c, "],\"faults\":") == -1 ||
	    cs_ints(&c, n, 0, LONG_MAX, t) == -1 || scan_tail(&c, n, r) == -1)
		return -1;
	if (c.p != c.end)
		return -1;
	for (i = 0; i < n; i++) {
		for (k = 0, total = 0; k < NFAULT; k++)
			total += r->kinds[i][k];
		if (total != t[i])
			return -1;
	}
	return 0;
}

int
resline_same(const struct resline *a, const struct resline *b)
{
	int i;

	if (a->n != b->n || a->game != b->game || a->seed != b->seed ||
	    a->capped != b->capped || strcmp(a->log, b->log) != 0)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->seats[i] != b->seats[i] ||
		    a->places[i] != b->places[i] ||
		    a->scores[i] != b->scores[i] ||
		    memcmp(a->kinds[i], b->kinds[i], sizeof a->kinds[i]) != 0 ||
		    a->hello[i] != b->hello[i] ||
		    memcmp(a->limits[i], b->limits[i],
		    sizeof a->limits[i]) != 0 ||
		    a->retired[i] != b->retired[i])
			return 0;
	return 1;
}

int
resline_decode(const char *text, size_t len, int n, struct resline *r,
    char *cause, size_t clen)
{
	if (resline_scan(text, len, n, r) == 0)
		return 0;
	return resline_parse(text, len, n, r, cause, clen);
}

void
resline_tfaults(const struct resline *r, int bot, long *counts)
{
	int k;

	for (k = 0; k < NFAULT; k++)
		counts[fault_tkind[k]] += r->kinds[bot][k];
	counts[TF_HELLO] += r->hello[bot];
	for (k = 0; k < NLIMIT; k++)
		counts[TF_CPU + k] += r->limits[bot][k];
}
