/*
 * The growable byte buffer's operations that are not inline (buf.h): room,
 * integers, printf, and JSON (numbers as jansson writes them, strings
 * escaped so that the text is always valid UTF-8, whole values).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "utf8.h"


/* Makes room for n more bytes (and the NUL). */
void
buf_reserve(struct buf *b, size_t n)
{
	size_t cap;

	if (b->len + n + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->p = xreallocarray(b->p, cap, 1);
	b->cap = cap;
}

/* "00" to "99": two digits a step */
const char put_int_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930"
    "31323334353637383940414243444546474849505152535455565758596061"
    "62636465666768697071727374757677787980818283848586878889909192"
    "93949596979899";

/* Writes v in decimal at d; returns the end. */
char *
put_int_any(char *d, long long v)
{
	const char *pairs = put_int_pairs;
	unsigned long long u, t;
	char *e;
	int n;

	u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	if (v < 0)
		*d++ = '-';
	/* The game's numbers: below 10000, one division at most. */
	if (u < 100) {
		if (u < 10) {
			*d = (char)('0' + u);
			return d + 1;
		}
		memcpy(d, pairs + 2 * u, 2);
		return d + 2;
	}
	if (u < 10000) {
		t = u / 100;
		u -= t * 100;
		if (t < 10)
			*d++ = (char)('0' + t);
		else {
			memcpy(d, pairs + 2 * t, 2);
			d += 2;
		}
		memcpy(d, pairs + 2 * u, 2);
		return d + 2;
	}
	for (n = 5, t = u / 100000; t != 0; t /= 10)
		n++;
	e = d + n;
	while (u >= 100) {
		t = (u % 100) * 2;
		u /= 100;
		*--e = pairs[t + 1];
		*--e = pairs[t];
	}
	if (u >= 10) {
		*--e = pairs[u * 2 + 1];
		*--e = pairs[u * 2];
	} else
		*--e = (char)('0' + u);
	return d + n;
}

/* Appends printf output. */
void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* A real number as jansson writes it: %.17g, ".0" if whole, exponent
 * without + or leading zeros. */
void
buf_real(struct buf *b, double v)
{
	char num[40], *e, *z;
	int k, prec;

	k = snprintf(num, sizeof num, "%.17g", v);
	if (k <= 0 || k >= (int)sizeof num - 3)
		k = snprintf(num, sizeof num, "null");
	else if (strpbrk(num, ".e") == NULL && strpbrk(num, "ni") == NULL)
		k += snprintf(num + k, sizeof num - (size_t)k, ".0");
	else if ((e = strchr(num, 'e')) != NULL) {
		e++;
		z = e + (*e == '-');
		if (*e == '+')
			memmove(e, e + 1, strlen(e));
		for (prec = 0; z[prec] == '0' && z[prec + 1] != '\0'; prec++)
			;
		memmove(z, z + prec, strlen(z + prec) + 1);
		k = (int)strlen(num);
	}
	buf_add(b, num, (size_t)k);
}

/*
 * The compact encoding jansson's json_dumpb(JSON_COMPACT) gives, written
 * straight into the buffer: integers without printf, objects in insertion
 * order (jansson's order), strings through buf_jstr.
 */
void
buf_json(struct buf *b, const json_t *j)
{
	const char *key;
	void *it;
	size_t i, n;
	int k;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		buf_ch(b, '{');
		for (it = json_object_iter((json_t *)j), k = 0; it != NULL;
		    it = json_object_iter_next((json_t *)j, it), k++) {
			if (k > 0)
				buf_ch(b, ',');
			key = json_object_iter_key(it);
			buf_jstr(b, key, strlen(key));
			buf_ch(b, ':');
			buf_json(b, json_object_iter_value(it));
		}
		buf_ch(b, '}');
		break;
	case JSON_ARRAY:
		buf_ch(b, '[');
		n = json_array_size(j);
		for (i = 0; i < n; i++) {
			if (i > 0)
				buf_ch(b, ',');
			buf_json(b, json_array_get(j, i));
		}
		buf_ch(b, ']');
		break;
	case JSON_STRING:
		buf_jstr(b, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		buf_int(b, json_integer_value(j));
		break;
	case JSON_REAL:
		buf_real(b, json_real_value(j));
		break;
	case JSON_TRUE:
		buf_add(b, "true", 4);
		break;
	case JSON_FALSE:
		buf_add(b, "false", 5);
		break;
	default:
		buf_add(b, "null", 4);
		break;
	}
}

/* Appends n bytes as a JSON string literal; bad UTF-8 becomes U+FFFD. */
void
buf_jstr(struct buf *b, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i, k, start;
	char esc[6];

	buf_reserve(b, n + 2);
	b->p[b->len++] = '"';
	b->p[b->len] = '\0';
	for (i = 0, start = 0; i < n; ) {
		if (s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' &&
		    s[i] != '\\') {
			i++;
			continue;
		}
		if (s[i] >= 0x80 && (k = utf8_len(s + i, n - i)) != 0) {
			i += k;
			continue;
		}
		buf_add(b, s + start, i - start);
		if (s[i] == '"')
			buf_add(b, "\\\"", 2);
		else if (s[i] == '\\')
			buf_add(b, "\\\\", 2);
		else if (s[i] == '\n')
			buf_add(b, "\\n", 2);
		else if (s[i] == '\t')
			buf_add(b, "\\t", 2);
		else if (s[i] == '\r')
			buf_add(b, "\\r", 2);
		else if (s[i] < 0x20) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[s[i] >> 4];
			esc[5] = hex[s[i] & 15];
			buf_add(b, esc, 6);
		} else
			buf_add(b, "\\ufffd", 6);
		start = ++i;
	}
	buf_add(b, s + start, n - start);
	buf_ch(b, '"');
}

/* Frees the bytes; the buffer is empty and reusable. */
void
buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
