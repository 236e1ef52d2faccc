/*
 * The growable byte buffer that messages and log lines are composed in
 * (always NUL-terminated), with the small appends of the hot path inline:
 * a literal's length is then known at compile time, and a request of a
 * few hundred keys and numbers costs no call per piece; the rest is in
 * buf.c.
 */
#ifndef CARDARENA_BUF_H
#define CARDARENA_BUF_H

#include <stddef.h>
#include <string.h>

#include <jansson.h>

struct buf {
	char	*p;
	size_t	 len, cap;
};

/* Makes room for n more bytes. */
void	 buf_reserve(struct buf *, size_t);

/* Appends n bytes. */
static inline void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Appends one byte. */
static inline void
buf_ch(struct buf *b, char c)
{
	if (b->len + 2 > b->cap)
		buf_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

/* Appends a C string (a literal's length is known at compile time). */
static inline void
buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Writes v in decimal at d (at most 20 bytes); returns the end. */
char	*put_int_any(char *, long long);
/* "00" to "99", two digits a number (buf.c). */
extern const char put_int_pairs[201];

/* put_int_any, with the small numbers of the hot path inline. */
static inline char *
put_int(char *d, long long v)
{
	if (v >= 0 && v < 10) {
		*d++ = (char)('0' + v);
		return d;
	}
	if (v >= 10 && v < 100) {
		memcpy(d, put_int_pairs + 2 * v, 2);
		return d + 2;
	}
	return put_int_any(d, v);
}

/* Appends a decimal integer. */
static inline void
buf_int(struct buf *b, long long v)
{
	if (b->len + 22 > b->cap)
		buf_reserve(b, 21);
	b->len = (size_t)(put_int(b->p + b->len, v) - b->p);
	b->p[b->len] = '\0';
}

/* Appends key, the text before a number (",\"seat\":"), then v. */
static inline void
buf_kint(struct buf *b, const char *key, long long v)
{
	buf_str(b, key);
	buf_int(b, v);
}

/* Appends printf output. */
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Appends the compact JSON text of a value ("null" if unencodable). */
void	 buf_json(struct buf *, const json_t *);
/* Appends a real number as jansson writes it. */
void	 buf_real(struct buf *, double);
/* Appends n bytes as a JSON string literal; bad UTF-8 becomes U+FFFD. */
void	 buf_jstr(struct buf *, const char *, size_t);
/* Frees the bytes; the buffer is empty and reusable. */
void	 buf_free(struct buf *);

#endif
