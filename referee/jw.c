/*
 * The codecs' JSON writer, tree and text back ends; see jw.h.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "jw.h"
#include "proto.h"

static void	 copy_short(char *, const char *, size_t);
static char	*text_room(struct jw *, size_t);
static void	 text_done(struct jw *, char *, int);
static char	*text_key(char *, const char *, size_t);
static char	*text_int(char *, long long);
static size_t	 text_plain(const char *);
static void	 text_str(struct jw *, const char *);
static void	 open_container(struct jw *, const char *, size_t, int);
static void	 tree_put(struct jw *, json_t *, int);

/*
 * Copies n bytes; the codecs' words are short, and a call to memcpy for
 * each would cost more than the copy: up to 16 bytes in two moves.
 */
static inline void
copy_short(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;

	if (n > 16)
		memcpy(d, s, n);
	else if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(d, &x, 4);
		memcpy(d + n - 4, &y, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/*
 * Text: makes room for n bytes after the ',' that a value or key needs
 * when one came before it in its container; returns where to write.
 */
static inline char *
text_room(struct jw *w, size_t n)
{
	struct buf *b = w->b;
	char *d;

	if (b->len + n + 2 > b->cap)
		buf_reserve(b, n + 1);
	d = b->p + b->len;
	if (w->comma)
		*d++ = ',';
	return d;
}

/*
 * Text: ends what was written up to d; after a value (not a key or an
 * opening bracket) the next element in the container takes a ','.
 */
static inline void
text_done(struct jw *w, char *d, int value)
{
	w->b->len = (size_t)(d - w->b->p);
	*d = '\0';
	w->comma = value && w->depth > 0;
}

/* Text: writes "k": at d (keys are plain by contract, jw.h). */
static inline char *
text_key(char *d, const char *k, size_t n)
{
	*d++ = '"';
	copy_short(d, k, n);
	d += n;
	*d++ = '"';
	*d++ = ':';
	return d;
}

/* Text: writes v in decimal at d (at most 20 bytes); returns the end. */
static inline char *
text_int(char *d, long long v)
{
	char tmp[24], *p = tmp + sizeof tmp;
	unsigned long long u;
	size_t n;

	if (v >= 0 && v < 10) {
		*d++ = (char)('0' + v);
		return d;
	}
	u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	n = (size_t)(tmp + sizeof tmp - p);
	memcpy(d, p, n);
	return d + n;
}

/*
 * Text: the length of s when nothing in it needs escaping (the keys and
 * words of the codecs), else (size_t)-1.
 */
static inline size_t
text_plain(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;

	for (n = 0; u[n] != '\0'; n++)
		if (u[n] < 0x20 || u[n] >= 0x80 || u[n] == '"' || u[n] == '\\')
			return (size_t)-1;
	return n;
}

/* Text: writes the string value s (after its ',' if due), escaped. */
static void
text_str(struct jw *w, const char *s)
{
	size_t n;
	char *d;

	if ((n = text_plain(s)) == (size_t)-1) {
		if (w->comma)
			buf_ch(w->b, ',');
		buf_jstr(w->b, s, strlen(s));
		w->comma = w->depth > 0;
		return;
	}
	d = text_room(w, n + 2);
	*d++ = '"';
	copy_short(d, s, n);
	d += n;
	*d++ = '"';
	text_done(w, d, 1);
}

/* Opens an object (obj) or an array, after its key k of n bytes if any. */
static void
open_container(struct jw *w, const char *k, size_t n, int obj)
{
	char *d;

	if (w->b == NULL) {
		if (k != NULL)
			strlcpy(w->key, k, sizeof w->key);
		tree_put(w, obj ? json_object() : json_array(), 1);
		return;
	}
	d = text_room(w, n + 4);
	if (k != NULL)
		d = text_key(d, k, n);
	*d++ = obj ? '{' : '[';
	text_done(w, d, 0);
	if (w->depth + 1 < JW_DEPTH)
		w->isobj[++w->depth] = (uint8_t)obj;
}

/* Tree: puts v in the open container (or makes it the root); opens it
 * when container is set. */
static void
tree_put(struct jw *w, json_t *v, int container)
{
	json_t *top;

	if (w->depth == 0) {
		json_decref(w->root);
		w->root = v;
	} else {
		top = w->stack[w->depth];
		if (json_is_object(top))
			json_object_set_new_nocheck(top, w->key, v);
		else
			json_array_append_new(top, v);
	}
	if (container && w->depth + 1 < JW_DEPTH)
		w->stack[++w->depth] = v;
}

void
jw_text(struct jw *w, struct buf *b)
{
	/* Not the tree's fields: a writer is started for every event. */
	w->b = b;
	w->depth = 0;
	w->comma = 0;
	w->root = NULL;
	w->range = 0;
	w->lo = w->hi = 0;
}

void
jw_tree(struct jw *w)
{
	memset(w, 0, sizeof *w);
}

json_t *
jw_root(struct jw *w)
{
	json_t *r = w->root;

	w->root = NULL;
	return r != NULL ? r : json_null();
}

void
jw_obj(struct jw *w)
{
	open_container(w, NULL, 0, 1);
}

void
jw_arr(struct jw *w)
{
	open_container(w, NULL, 0, 0);
}

void
jw_end(struct jw *w)
{
	if (w->depth == 0)
		return;
	if (w->b != NULL)
		buf_ch(w->b, w->isobj[w->depth] ? '}' : ']');
	w->depth--;
	w->comma = w->depth > 0;
}

void
jw_keyn(struct jw *w, const char *k, size_t n)
{
	char *d;

	if (w->b == NULL) {
		strlcpy(w->key, k, sizeof w->key);
		return;
	}
	/*
	 * Keys are the codecs' own words, plain by contract (jw.h): copied
	 * as they are.  The fuzzer compares this text with the tree's
	 * escaped encoding, so a key that needed escaping would be caught.
	 */
	d = text_room(w, n + 3);
	text_done(w, text_key(d, k, n), 0);
}

void
jw_int(struct jw *w, long long v)
{
	if (w->b == NULL) {
		tree_put(w, json_integer(v), 0);
		return;
	}
	text_done(w, text_int(text_room(w, 20), v), 1);
}

void
jw_real(struct jw *w, double v)
{
	if (w->b == NULL) {
		tree_put(w, json_real(v), 0);
		return;
	}
	if (w->comma)
		buf_ch(w->b, ',');
	buf_real(w->b, v);
	w->comma = w->depth > 0;
}

void
jw_str(struct jw *w, const char *s)
{
	if (w->b == NULL) {
		tree_put(w, json_string_nocheck(s), 0);
		return;
	}
	text_str(w, s);
}

void
jw_bool(struct jw *w, int v)
{
	char *d;

	if (w->b == NULL) {
		tree_put(w, json_boolean(v), 0);
		return;
	}
	d = text_room(w, 5);
	if (v) {
		memcpy(d, "true", 4);
		d += 4;
	} else {
		memcpy(d, "false", 5);
		d += 5;
	}
	text_done(w, d, 1);
}

void
jw_null(struct jw *w)
{
	char *d;

	if (w->b == NULL) {
		tree_put(w, json_null(), 0);
		return;
	}
	d = text_room(w, 4);
	memcpy(d, "null", 4);
	text_done(w, d + 4, 1);
}

void
jw_card(struct jw *w, int card)
{
	char name[3], *d;

	card_name(card, name);
	if (w->b == NULL) {
		tree_put(w, json_string_nocheck(name), 0);
		return;
	}
	d = text_room(w, 4);
	*d++ = '"';
	*d++ = name[0];
	*d++ = name[1];
	*d++ = '"';
	text_done(w, d, 1);
}

void
jw_cards(struct jw *w, const int *cards, int n)
{
	int i;

	jw_arr(w);
	for (i = 0; i < n; i++)
		jw_card(w, cards[i]);
	jw_end(w);
}

void
jw_json(struct jw *w, const json_t *j)
{
	if (w->b == NULL) {
		tree_put(w, json_deep_copy(j), 0);
		return;
	}
	if (w->comma)
		buf_ch(w->b, ',');
	buf_json(w->b, j);
	w->comma = w->depth > 0;
}

void
jw_amount(struct jw *w, int32_t amount)
{
	if (!w->range) {
		jw_kint(w, "amount", amount);
		return;
	}
	jw_kobj(w, "amount");
	jw_kint(w, "min", w->lo);
	jw_kint(w, "max", w->hi);
	jw_end(w);
}

void
jw_kintn(struct jw *w, const char *k, size_t n, long long v)
{
	if (w->b == NULL) {
		strlcpy(w->key, k, sizeof w->key);
		tree_put(w, json_integer(v), 0);
		return;
	}
	text_done(w, text_int(text_key(text_room(w, n + 23), k, n), v), 1);
}

void
jw_kstrn(struct jw *w, const char *k, size_t n, const char *s)
{
	jw_keyn(w, k, n);
	jw_str(w, s);
}

void
jw_kbooln(struct jw *w, const char *k, size_t n, int v)
{
	jw_keyn(w, k, n);
	jw_bool(w, v);
}

void
jw_kobjn(struct jw *w, const char *k, size_t n)
{
	open_container(w, k, n, 1);
}

void
jw_karrn(struct jw *w, const char *k, size_t n)
{
	open_container(w, k, n, 0);
}

void
jw_knull(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_null(w);
}

void
jw_kcard(struct jw *w, const char *k, int card)
{
	jw_key(w, k);
	jw_card(w, card);
}

void
jw_kcards(struct jw *w, const char *k, const int *cards, int n)
{
	jw_key(w, k);
	jw_cards(w, cards, n);
}
