/*
 * The codecs' JSON writer, tree and text back ends; see jw.h.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "jw.h"
#include "proto.h"

static void	text_sep(struct jw *);
static int	text_plain(struct buf *, const char *, int);
static void	tree_put(struct jw *, json_t *, int);

/* Text: the comma before a value or key, unless it follows its key. */
static void
text_sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			buf_ch(w->b, ',');
		w->first[w->depth] = 0;
	}
}

/*
 * Text: writes s quoted (and a ':' after a key) in one copy, when nothing
 * in it needs escaping (the keys and words of the codecs); -1 otherwise.
 */
static int
text_plain(struct buf *b, const char *s, int colon)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	char *d;

	for (n = 0; u[n] != '\0'; n++)
		if (u[n] < 0x20 || u[n] >= 0x80 || u[n] == '"' || u[n] == '\\')
			return -1;
	buf_reserve(b, n + 3);
	d = b->p + b->len;
	*d++ = '"';
	memcpy(d, s, n);
	d += n;
	*d++ = '"';
	if (colon)
		*d++ = ':';
	b->len = (size_t)(d - b->p);
	b->p[b->len] = '\0';
	return 0;
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
	memset(w, 0, sizeof *w);
	w->b = b;
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
	if (w->b == NULL) {
		tree_put(w, json_object(), 1);
		return;
	}
	text_sep(w);
	buf_ch(w->b, '{');
	if (w->depth + 1 < JW_DEPTH) {
		w->first[++w->depth] = 1;
		w->isobj[w->depth] = 1;
	}
}

void
jw_arr(struct jw *w)
{
	if (w->b == NULL) {
		tree_put(w, json_array(), 1);
		return;
	}
	text_sep(w);
	buf_ch(w->b, '[');
	if (w->depth + 1 < JW_DEPTH) {
		w->first[++w->depth] = 1;
		w->isobj[w->depth] = 0;
	}
}

void
jw_end(struct jw *w)
{
	if (w->depth == 0)
		return;
	if (w->b != NULL)
		buf_ch(w->b, w->isobj[w->depth] ? '}' : ']');
	w->depth--;
}

void
jw_key(struct jw *w, const char *k)
{
	size_t n;
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
	text_sep(w);
	n = strlen(k);
	buf_reserve(w->b, n + 3);
	d = w->b->p + w->b->len;
	*d++ = '"';
	memcpy(d, k, n);
	d += n;
	*d++ = '"';
	*d++ = ':';
	w->b->len = (size_t)(d - w->b->p);
	w->b->p[w->b->len] = '\0';
	w->after_key = 1;
}

void
jw_int(struct jw *w, long long v)
{
	if (w->b == NULL) {
		tree_put(w, json_integer(v), 0);
		return;
	}
	text_sep(w);
	buf_int(w->b, v);
}

void
jw_real(struct jw *w, double v)
{
	if (w->b == NULL) {
		tree_put(w, json_real(v), 0);
		return;
	}
	text_sep(w);
	buf_real(w->b, v);
}

void
jw_str(struct jw *w, const char *s)
{
	if (w->b == NULL) {
		tree_put(w, json_string_nocheck(s), 0);
		return;
	}
	text_sep(w);
	if (text_plain(w->b, s, 0) == -1)
		buf_jstr(w->b, s, strlen(s));
}

void
jw_bool(struct jw *w, int v)
{
	if (w->b == NULL) {
		tree_put(w, json_boolean(v), 0);
		return;
	}
	text_sep(w);
	if (v)
		buf_add(w->b, "true", 4);
	else
		buf_add(w->b, "false", 5);
}

void
jw_null(struct jw *w)
{
	if (w->b == NULL) {
		tree_put(w, json_null(), 0);
		return;
	}
	text_sep(w);
	buf_add(w->b, "null", 4);
}

void
jw_card(struct jw *w, int card)
{
	char name[3];

	card_name(card, name);
	jw_str(w, name);
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
	text_sep(w);
	buf_json(w->b, j);
}

void
jw_amount(struct jw *w, int32_t amount)
{
	jw_key(w, "amount");
	if (!w->range) {
		jw_int(w, amount);
		return;
	}
	jw_obj(w);
	jw_kint(w, "min", w->lo);
	jw_kint(w, "max", w->hi);
	jw_end(w);
}

void
jw_kobj(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_obj(w);
}

void
jw_karr(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_arr(w);
}

void
jw_kint(struct jw *w, const char *k, long long v)
{
	jw_key(w, k);
	jw_int(w, v);
}

void
jw_kstr(struct jw *w, const char *k, const char *s)
{
	jw_key(w, k);
	jw_str(w, s);
}

void
jw_kbool(struct jw *w, const char *k, int v)
{
	jw_key(w, k);
	jw_bool(w, v);
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
