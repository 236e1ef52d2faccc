/*
 * The codecs' JSON writer: the tree back end, and the text back end's
 * less frequent calls (its hot path is inline in jw.h).
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "card.h"
#include "jw.h"

static void	 tree_put(struct jw *, json_t *, int);

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
jw_tree_key(struct jw *w, const char *k)
{
	strlcpy(w->key, k, sizeof w->key);
}

void
jw_tree_int(struct jw *w, long long v)
{
	tree_put(w, json_integer(v), 0);
}

void
jw_tree_kint(struct jw *w, const char *k, long long v)
{
	strlcpy(w->key, k, sizeof w->key);
	tree_put(w, json_integer(v), 0);
}

void
jw_tree_str(struct jw *w, const char *s)
{
	tree_put(w, json_string_nocheck(s), 0);
}

void
jw_tree_bool(struct jw *w, int v)
{
	tree_put(w, json_boolean(v), 0);
}

/* Tree: opens an object (obj) or an array, under the key k if any. */
void
jw_tree_open(struct jw *w, const char *k, int obj)
{
	if (k != NULL)
		strlcpy(w->key, k, sizeof w->key);
	tree_put(w, obj ? json_object() : json_array(), 1);
}

/* Text: b's length up to the cursor, before a buf call appends to b. */
static void
text_put(struct jw *w)
{
	w->b->len = (size_t)(w->d - w->b->p);
}

/* Text: the cursor after the value a buf call appended (and its ','). */
static void
text_got(struct jw *w)
{
	buf_reserve(w->b, 1);
	w->lim = w->b->p + w->b->cap - 1;
	jw_done(w, w->b->p + w->b->len, JW_VALUE);
}

char *
jw_grow(struct jw *w, size_t n)
{
	struct buf *b = w->b;

	b->len = (size_t)(w->d - b->p);
	buf_reserve(b, n + 1);
	w->d = b->p + b->len;
	w->lim = b->p + b->cap - 1;
	return w->d;
}

/* Text: writes the string value s escaped (buf_jstr), then its ','. */
void
jw_text_jstr(struct jw *w, const char *s)
{
	text_put(w);
	buf_jstr(w->b, s, strlen(s));
	text_got(w);
}

const char jw_card_quoted[4 * 54 + 1] =
    "\"AS\"\"2S\"\"3S\"\"4S\"\"5S\"\"6S\"\"7S\"\"8S\"\"9S\"\"TS\"\"JS\"\"QS\"\"KS\""
    "\"AH\"\"2H\"\"3H\"\"4H\"\"5H\"\"6H\"\"7H\"\"8H\"\"9H\"\"TH\"\"JH\"\"QH\"\"KH\""
    "\"AD\"\"2D\"\"3D\"\"4D\"\"5D\"\"6D\"\"7D\"\"8D\"\"9D\"\"TD\"\"JD\"\"QD\"\"KD\""
    "\"AC\"\"2C\"\"3C\"\"4C\"\"5C\"\"6C\"\"7C\"\"8C\"\"9C\"\"TC\"\"JC\"\"QC\"\"KC\""
    "\"JK\"\"JK\"";

void
jw_card_odd(char *d, int card)
{
	char name[3];

	card_name(card, name);
	d[0] = '"';
	d[1] = name[0];
	d[2] = name[1];
	d[3] = '"';
}

/*
 * Writes an array of n cards, from u (bytes) or else s (signed bytes); the
 * text in one reservation, each card one copy from the table and a ','.
 * Inline: each caller's copy reads one kind of byte.
 */
static inline __attribute__((always_inline)) void
cards_bytes(struct jw *w, const uint8_t *u, const int8_t *s, int n)
{
	char *d;
	int i, c;

	if (w->d == NULL) {
		jw_arr(w);
		for (i = 0; i < n; i++)
			jw_card(w, u != NULL ? u[i] : s[i]);
		jw_end(w);
		return;
	}
	d = jw_room(w, 5 * (size_t)(n > 0 ? n : 0) + 2);
	*d++ = '[';
	for (i = 0; i < n; i++) {
		c = u != NULL ? u[i] : s[i];
		if (c >= 0 && c <= JOKER + 1)
			memcpy(d, jw_card_quoted + 4 * c, 4);
		else
			jw_card_odd(d, c);
		d[4] = ',';
		d += 5;
	}
	if (n > 0)
		d--;		/* the last card's ',' */
	*d++ = ']';
	jw_done(w, d, JW_VALUE);
}

void
jw_cards_u8(struct jw *w, const uint8_t *cards, int n)
{
	cards_bytes(w, cards, NULL, n);
}

void
jw_cards_i8(struct jw *w, const int8_t *cards, int n)
{
	cards_bytes(w, NULL, cards, n);
}

/*
 * The bytes a string copies as they are (printable ASCII but '"' and
 * '\\'): one load a byte where five comparisons were.
 */
#define PLAIN16		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
static const uint8_t plain[256] = {
	[0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	[0x30] = PLAIN16, PLAIN16,
	[0x50] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	[0x60] = PLAIN16, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};

void
jw_str(struct jw *w, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	char *d;

	if (w->d == NULL) {
		jw_tree_str(w, s);
		return;
	}
	/*
	 * Copied as it is scanned, into room for a word; a string that
	 * needs escaping, or is longer, goes to the escaper (nothing was
	 * committed).
	 */
	d = jw_room(w, JW_WORD + 2);
	*d++ = '"';
	for (n = 0; plain[u[n]]; n++) {
		if (n == JW_WORD) {
			jw_text_jstr(w, s);
			return;
		}
		d[n] = (char)u[n];
	}
	if (u[n] != '\0') {
		jw_text_jstr(w, s);
		return;
	}
	d += n;
	*d++ = '"';
	jw_done(w, d, JW_VALUE);
}

void
jw_text(struct jw *w, struct buf *b)
{
	/*
	 * Not the tree's fields: a writer is started for every event.  A
	 * buffer without bytes gets some: a NULL cursor means the tree.
	 */
	buf_reserve(b, 64);
	w->b = b;
	w->d = b->p + b->len;
	w->lim = b->p + b->cap - 1;
	w->depth = 0;
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
jw_real(struct jw *w, double v)
{
	if (w->d == NULL) {
		tree_put(w, json_real(v), 0);
		return;
	}
	text_put(w);
	buf_real(w->b, v);
	text_got(w);
}

void
jw_null(struct jw *w)
{
	char *d;

	if (w->d == NULL) {
		tree_put(w, json_null(), 0);
		return;
	}
	d = jw_room(w, 4);
	memcpy(d, "null", 4);
	jw_done(w, d + 4, JW_VALUE);
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
	if (w->d == NULL) {
		tree_put(w, json_deep_copy(j), 0);
		return;
	}
	text_put(w);
	buf_json(w->b, j);
	text_got(w);
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
