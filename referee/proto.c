/*
 * The protocol's text layer; see proto.h and protocol.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

const char *const fault_names[NFAULT] = {
	"timeout", "exit", "malformed", "line_too_long", "wrong_id", "illegal",
	"limit"
};

static const char *quick_number(const char *, const char *, long long *);
static const char *quick_word(const char *, const char *, const char *,
		    size_t);

/* quick_word of a literal. */
#define QUICK_WORD(p, end, w)	quick_word(p, end, w, sizeof(w) - 1)
static int	score_whole(double);

/*
 * Takes an answer by index (and amount, if has_amount) against the legal
 * list: -1 with *a set, or the fault kind and a cause.
 */
int
proto_index(const struct legal *l, int n, long long i, int has_amount,
    long long am, struct action *a, char *cause, size_t len)
{
	if (i < 0 || i >= n) {
		snprintf(cause, len, "index %lld is not in 0..%d", i, n - 1);
		return FAULT_ILLEGAL;
	}
	a->code = l[i].code;
	a->amount = 0;
	if (!l[i].ranged)
		return -1;
	if (!has_amount) {
		snprintf(cause, len, "entry %lld needs an \"amount\" from %d "
		    "to %d", i, l[i].lo, l[i].hi);
		return FAULT_ILLEGAL;
	}
	if (am < l[i].lo || am > l[i].hi) {
		snprintf(cause, len, "amount %lld is not in %d..%d", am,
		    l[i].lo, l[i].hi);
		return FAULT_ILLEGAL;
	}
	a->amount = (int32_t)am;
	return -1;
}

/* Reads optional spaces, then a whole number of at most 18 digits. */
static const char *
quick_number(const char *p, const char *end, long long *v)
{
	long long x = 0;
	int neg = 0, digits = 0;

	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	while (p < end && *p >= '0' && *p <= '9' && digits < 18) {
		x = x * 10 + (*p++ - '0');
		digits++;
	}
	if (digits == 0 || (p < end && *p >= '0' && *p <= '9'))
		return NULL;
	*v = neg ? -x : x;
	return p;
}

/* Matches optional spaces then the word w of n bytes. */
static const char *
quick_word(const char *p, const char *end, const char *w, size_t n)
{
	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) < n || memcmp(p, w, n) != 0)
		return NULL;
	return p + n;
}

/*
 * The common answer without a JSON parser: exactly {"id":N,"index":I} or
 * {"id":N,"index":I,"amount":A} (spaces allowed between tokens).  0 when
 * the line is that; -1 for anything else (left to the full parser).
 */
int
proto_quick(const char *p, size_t len, int64_t *id, long long *index,
    int *has_amount, long long *amount)
{
	const char *end = p + len;
	long long v;

	*has_amount = 0;
	if ((p = QUICK_WORD(p, end, "{")) == NULL ||
	    (p = QUICK_WORD(p, end, "\"id\"")) == NULL ||
	    (p = QUICK_WORD(p, end, ":")) == NULL ||
	    (p = quick_number(p, end, &v)) == NULL)
		return -1;
	*id = v;
	if ((p = QUICK_WORD(p, end, ",")) == NULL ||
	    (p = QUICK_WORD(p, end, "\"index\"")) == NULL ||
	    (p = QUICK_WORD(p, end, ":")) == NULL ||
	    (p = quick_number(p, end, index)) == NULL)
		return -1;
	if (QUICK_WORD(p, end, ",") != NULL) {
		p = QUICK_WORD(p, end, ",");
		if ((p = QUICK_WORD(p, end, "\"amount\"")) == NULL ||
		    (p = QUICK_WORD(p, end, ":")) == NULL ||
		    (p = quick_number(p, end, amount)) == NULL)
			return -1;
		*has_amount = 1;
	}
	if ((p = QUICK_WORD(p, end, "}")) == NULL)
		return -1;
	while (p < end && *p == ' ')
		p++;
	return p == end ? 0 : -1;
}

/* The bytes json_text_true looks at: brackets, braces, ',' and '"'. */
static const unsigned char json_mark[256] = {
	['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1, ['"'] = 1
};

int
json_text_true(const char *s, size_t n, const char *key)
{
	size_t i, k = strlen(key);
	int depth = 0, at_key = 0;

	for (i = 0; i < n; i++) {
		/* most bytes are none of the six: one load each */
		while (i < n && !json_mark[(unsigned char)s[i]])
			i++;
		if (i == n)
			break;
		switch (s[i]) {
		case '{':
		case '[':
			at_key = ++depth == 1 && s[i] == '{';
			break;
		case '}':
		case ']':
			depth--;
			break;
		case ',':
			at_key = depth == 1;
			break;
		case '"':
			if (at_key && n - i > k + 2 && s[i + 1 + k] == '"' &&
			    memcmp(s + i + 1, key, k) == 0 &&
			    s[i + 2 + k] == ':')
				return n - (i + 3 + k) >= 4 &&
				    memcmp(s + i + 3 + k, "true", 4) == 0;
			at_key = 0;
			/* past the string, escapes included */
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			break;
		}
	}
	return 0;
}

/* Returns 1 if score v is written as an integer. */
static int
score_whole(double v)
{
	return v == floor(v) && fabs(v) < 9e15;
}

json_t *
score_json(double v)
{
	if (score_whole(v))
		return json_integer((json_int_t)v);
	return json_real(v);
}

void
buf_score(struct buf *b, double v)
{
	if (score_whole(v))
		buf_int(b, (long long)v);
	else if (isfinite(v))
		buf_real(b, v);
	else
		buf_add(b, "null", 4);	/* no JSON number (json_real refuses) */
}

int
proto_action(const struct game *g, const void *st, int seat,
    const json_t *ans, const struct legal *l, int n, struct action *a,
    char *cause, size_t len)
{
	const json_t *ji, *ja, *jam;
	char why[256];
	json_int_t i;

	ji = json_object_get(ans, "index");
	ja = json_object_get(ans, "action");
	jam = json_object_get(ans, "amount");
	if (ji != NULL && ja != NULL) {
		snprintf(cause, len, "an answer has \"index\" or \"action\", "
		    "not both");
		return FAULT_MALFORMED;
	}
	if (ji != NULL) {
		if (!json_is_integer(ji)) {
			snprintf(cause, len, "\"index\" is not a whole number");
			return FAULT_MALFORMED;
		}
		i = json_integer_value(ji);
		/* A ranged entry's amount must be a number; others ignore it. */
		if (jam != NULL && !json_is_integer(jam) && i >= 0 && i < n &&
		    l[i].ranged) {
			snprintf(cause, len, "\"amount\" is not a whole number");
			return FAULT_MALFORMED;
		}
		return proto_index(l, n, i, json_is_integer(jam),
		    json_integer_value(jam), a, cause, len);
	}
	if (ja == NULL) {
		snprintf(cause, len, "an answer needs \"index\" or \"action\"");
		return FAULT_MALFORMED;
	}
	if (g->action_parse(st, seat, ja, a, why, sizeof why) == -1) {
		snprintf(cause, len, "not an action: %s", why);
		return FAULT_ILLEGAL;
	}
	if (legal_find(l, n, *a) < 0) {
		snprintf(cause, len, "the action is not in the legal list");
		return FAULT_ILLEGAL;
	}
	return -1;
}

int
proto_blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}
