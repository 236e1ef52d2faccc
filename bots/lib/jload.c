/*
 * The C bot SDK's fast reader of a message line; see jload.h.  A
 * recursive descent over the buffer: whitespace, objects, arrays,
 * strings (UTF-8 checked by utf8.h, as strictly as jansson, escapes
 * decoded), integers and the three literals, each value made with
 * jansson's constructors as json_loadb makes it.  Whatever is not one of
 * these, or is one of them in a way jansson rejects, gives up (NULL).
 *
 * A string without escapes is copied once, from the buffer, by
 * json_stringn_nocheck; a key, or a string with escapes, is first written
 * to a scratch buffer.  The scratch buffer is a stack: the key of each
 * object being read stays below jl->used while its value is read, so
 * that the strings inside the value do not overwrite it.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jload.h"
#include "utf8.h"

#if JSON_INTEGER_IS_LONG_LONG
#define JINT_MAX	LLONG_MAX
#define JINT_MIN	LLONG_MIN
#else
#define JINT_MAX	LONG_MAX
#define JINT_MIN	LONG_MIN
#endif

struct jl {
	const unsigned char	*p, *end;	/* the next byte; the end */
	char			*buf;		/* scratch: keys, escaped strings */
	size_t			 cap, used;	/* its size; the keys held */
	int			 depth;		/* of objects and arrays open */
	char			 room[256];	/* buf until it grows */
};

static int	grow(struct jl *, size_t);
static void	ws(struct jl *);
static int	hex4(const unsigned char *, const unsigned char *,
		    unsigned *);
static size_t	utf8_put(char *, unsigned);
static size_t	escape(struct jl *, const unsigned char *, size_t *);
static int	string(struct jl *, int, const char **, size_t *);
static json_t	*integer(struct jl *);
static json_t	*literal(struct jl *, const char *, size_t, json_t *);
static json_t	*value(struct jl *);
static int	enter(struct jl *, int);
static int	next(struct jl *, int);
static int	member(struct jl *, json_t *);
static json_t	*object(struct jl *);
static json_t	*array(struct jl *);

/*
 * Makes the scratch buffer hold at least need bytes, all it holds kept
 * (the keys and a string being decoded); -1 if it cannot.
 */
static int
grow(struct jl *jl, size_t need)
{
	size_t cap;
	char *b;

	if (need <= jl->cap)
		return 0;
	if (need > SIZE_MAX / 2)
		return -1;
	cap = jl->cap * 2 > need ? jl->cap * 2 : need;
	if (jl->buf == jl->room) {
		if ((b = malloc(cap)) == NULL)
			return -1;
		memcpy(b, jl->room, jl->cap);
	} else if ((b = realloc(jl->buf, cap)) == NULL)
		return -1;
	jl->buf = b;
	jl->cap = cap;
	return 0;
}

/* Skips JSON's whitespace, the four bytes jansson skips. */
static void
ws(struct jl *jl)
{
	while (jl->p < jl->end && (*jl->p == ' ' || *jl->p == '\n' ||
	    *jl->p == '\r' || *jl->p == '\t'))
		jl->p++;
}

/* Reads the four hex digits at p (before end) into *v; -1 if they are not. */
static int
hex4(const unsigned char *p, const unsigned char *end, unsigned *v)
{
	int i;

	if (end - p < 4)
		return -1;
	*v = 0;
	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			*v = *v << 4 | (unsigned)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			*v = *v << 4 | (unsigned)(p[i] - 'a' + 10);
		else if (p[i] >= 'A' && p[i] <= 'F')
			*v = *v << 4 | (unsigned)(p[i] - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* Writes code point u (a valid one) as UTF-8 to s; returns its length. */
static size_t
utf8_put(char *s, unsigned u)
{
	if (u < 0x80) {
		s[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		s[0] = (char)(0xC0 | u >> 6);
		s[1] = (char)(0x80 | (u & 0x3F));
		return 2;
	}
	if (u < 0x10000) {
		s[0] = (char)(0xE0 | u >> 12);
		s[1] = (char)(0x80 | (u >> 6 & 0x3F));
		s[2] = (char)(0x80 | (u & 0x3F));
		return 3;
	}
	s[0] = (char)(0xF0 | u >> 18);
	s[1] = (char)(0x80 | (u >> 12 & 0x3F));
	s[2] = (char)(0x80 | (u >> 6 & 0x3F));
	s[3] = (char)(0x80 | (u & 0x3F));
	return 4;
}

/*
 * Decodes the escape at q (its backslash) to the scratch buffer at
 * jl->used + *o, adding its length to *o; returns the bytes read, or 0
 * if jansson rejects it (an unknown escape, a bad \u, "\u0000", a lone
 * surrogate) or the buffer cannot grow.
 */
static size_t
escape(struct jl *jl, const unsigned char *q, size_t *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *c;
	unsigned u, lo;
	size_t k = 6;

	if (jl->end - q < 2 || grow(jl, jl->used + *o + 5) != 0)
		return 0;
	if (q[1] != 'u') {
		if (q[1] == '\0' || (c = strchr(from, q[1])) == NULL)
			return 0;
		jl->buf[jl->used + (*o)++] = to[c - from];
		return 2;
	}
	if (hex4(q + 2, jl->end, &u) != 0 || u == 0 ||
	    (u >= 0xDC00 && u <= 0xDFFF))
		return 0;
	if (u >= 0xD800 && u <= 0xDBFF) {
		if (jl->end - q < 12 || q[6] != '\\' || q[7] != 'u' ||
		    hex4(q + 8, jl->end, &lo) != 0 || lo < 0xDC00 ||
		    lo > 0xDFFF)
			return 0;
		u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
		k = 12;
	}
	*o += utf8_put(jl->buf + jl->used + *o, u);
	return k;
}

/*
 * Reads the string at jl->p (its opening quote): *s and *n are its
 * decoded bytes, in the buffer itself (a plain string, not a key) or at
 * jl->buf + jl->used with a NUL after them (a key, an escaped string).
 * Returns -1 if jansson rejects it or the buffer cannot grow.
 */
static int
string(struct jl *jl, int key, const char **s, size_t *n)
{
	const unsigned char *start = jl->p + 1, *q = start;
	size_t k, o = 0;
	int esc = 0;

	for (;;) {
		if (q == jl->end || *q < 0x20)
			return -1;
		if (*q == '"')
			break;
		if (*q == '\\') {
			if (!esc) {
				o = (size_t)(q - start);
				if (grow(jl, jl->used + o + 1) != 0)
					return -1;
				memcpy(jl->buf + jl->used, start, o);
				esc = 1;
			}
			if ((k = escape(jl, q, &o)) == 0)
				return -1;
			q += k;
			continue;
		}
		if ((k = utf8_len(q, (size_t)(jl->end - q))) == 0)
			return -1;
		if (esc) {
			if (grow(jl, jl->used + o + k + 1) != 0)
				return -1;
			memcpy(jl->buf + jl->used + o, q, k);
			o += k;
		}
		q += k;
	}
	jl->p = q + 1;
	if (!esc) {
		o = (size_t)(q - start);
		if (!key) {
			*s = (const char *)start;
			*n = o;
			return 0;
		}
		if (grow(jl, jl->used + o + 1) != 0)
			return -1;
		memcpy(jl->buf + jl->used, start, o);
	}
	jl->buf[jl->used + o] = '\0';
	*s = jl->buf + jl->used;
	*n = o;
	return 0;
}

/*
 * Reads the integer at jl->p; NULL for a real (a '.', 'e' or 'E' after
 * its digits), a value out of json_int_t's range or no digits.  A leading
 * zero ends the number, as in jansson (the digits after it are then an
 * error of the caller's).
 */
static json_t *
integer(struct jl *jl)
{
	const unsigned char *q = jl->p;
	unsigned long long v = 0, lim = JINT_MAX, d;
	int neg = 0;

	if (*q == '-') {
		neg = 1;
		lim = (unsigned long long)JINT_MAX + 1;
		q++;
	}
	if (q == jl->end || *q < '0' || *q > '9')
		return NULL;
	if (*q == '0')
		q++;
	else
		for (; q < jl->end && *q >= '0' && *q <= '9'; q++) {
			d = (unsigned long long)(*q - '0');
			if (v > (lim - d) / 10)
				return NULL;
			v = v * 10 + d;
		}
	if (q < jl->end && (*q == '.' || *q == 'e' || *q == 'E'))
		return NULL;
	jl->p = q;
	if (!neg)
		return json_integer((json_int_t)v);
	if (v == (unsigned long long)JINT_MAX + 1)
		return json_integer(JINT_MIN);
	return json_integer(-(json_int_t)v);
}

/* Reads the literal word (n bytes) at jl->p, whose value is v. */
static json_t *
literal(struct jl *jl, const char *word, size_t n, json_t *v)
{
	if ((size_t)(jl->end - jl->p) < n || memcmp(jl->p, word, n) != 0)
		return NULL;
	jl->p += n;
	return v;
}

/* Reads the value at jl->p (no whitespace before it); NULL: give up. */
static json_t *
value(struct jl *jl)
{
	const char *s;
	size_t n;

	if (jl->p == jl->end)
		return NULL;
	switch (*jl->p) {
	case '{':
		return object(jl);
	case '[':
		return array(jl);
	case '"':
		if (string(jl, 0, &s, &n) != 0)
			return NULL;
		return json_stringn_nocheck(s, n);
	case 't':
		return literal(jl, "true", 4, json_true());
	case 'f':
		return literal(jl, "false", 5, json_false());
	case 'n':
		return literal(jl, "null", 4, json_null());
	default:
		return integer(jl);
	}
}

/*
 * Enters the object or array at jl->p (its opening byte): 1 past its
 * closing byte when it is empty, 0 at its first member, -1 (give up) if
 * it is nested too deep.
 */
static int
enter(struct jl *jl, int close)
{
	if (++jl->depth > JLOAD_MAX_DEPTH)
		return -1;
	jl->p++;
	ws(jl);
	if (jl->p < jl->end && *jl->p == close) {
		jl->p++;
		jl->depth--;
		return 1;
	}
	return 0;
}

/*
 * After a member of an object or array: 1 past its closing byte (the
 * end), 0 at the next member (past a comma), -1 (give up) for anything
 * else.
 */
static int
next(struct jl *jl, int close)
{
	ws(jl);
	if (jl->p < jl->end && *jl->p == close) {
		jl->p++;
		jl->depth--;
		return 1;
	}
	if (jl->p == jl->end || *jl->p != ',')
		return -1;
	jl->p++;
	ws(jl);
	return 0;
}

/*
 * Reads the member at jl->p, "key": value, into object o (set after the
 * keys before it: of a duplicate the last value stays, as in
 * json_loadb); -1: give up.
 */
static int
member(struct jl *jl, json_t *o)
{
	json_t *v;
	const char *k;
	size_t n, at = jl->used;

	if (jl->p == jl->end || *jl->p != '"' || string(jl, 1, &k, &n) != 0)
		return -1;
	ws(jl);
	if (jl->p == jl->end || *jl->p != ':')
		return -1;
	jl->p++;
	ws(jl);
	/* The key stays while its value is read. */
	jl->used = at + n + 1;
	v = value(jl);
	jl->used = at;
	if (v == NULL || json_object_set_new_nocheck(o, jl->buf + at, v) != 0)
		return -1;
	return 0;
}

/* Reads the object at jl->p (its '{'); NULL: give up. */
static json_t *
object(struct jl *jl)
{
	json_t *o;
	int r;

	if ((r = enter(jl, '}')) == -1 || (o = json_object()) == NULL)
		return NULL;
	while (r == 0)
		if (member(jl, o) != 0 || (r = next(jl, '}')) == -1) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* Reads the array at jl->p (its '['); NULL: give up. */
static json_t *
array(struct jl *jl)
{
	json_t *a, *v;
	int r;

	if ((r = enter(jl, ']')) == -1 || (a = json_array()) == NULL)
		return NULL;
	while (r == 0)
		if ((v = value(jl)) == NULL ||
		    json_array_append_new(a, v) != 0 ||
		    (r = next(jl, ']')) == -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* The tree of buf[0..len); see jload.h. */
json_t *
jload(const char *buf, size_t len)
{
	struct jl jl;
	json_t *j = NULL;

	jl.p = (const unsigned char *)buf;
	jl.end = jl.p + len;
	jl.buf = jl.room;
	jl.cap = sizeof jl.room;
	jl.used = 0;
	jl.depth = 0;
	ws(&jl);
	/* Flags 0: the top level is an object or an array. */
	if (jl.p < jl.end && (*jl.p == '{' || *jl.p == '['))
		j = value(&jl);
	if (j != NULL) {
		ws(&jl);
		if (jl.p != jl.end) {
			json_decref(j);
			j = NULL;
		}
	}
	if (jl.buf != jl.room)
		free(jl.buf);
	return j;
}

/* jload, or json_loadb when it gives up; see jload.h. */
json_t *
jload_or_loadb(const char *buf, size_t len, json_error_t *err)
{
	json_t *j;

	if ((j = jload(buf, len)) != NULL)
		return j;
	return json_loadb(buf, len, 0, err);
}
