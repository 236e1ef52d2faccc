/*
 * One JSON writer for the games' codecs, with two back ends: it builds a
 * jansson tree (tests, replay, the all-seeing view in logs) or writes the
 * compact text straight into a struct buf (the referee's hot path: no tree,
 * no allocation but the buffer's).  A codec writes each view, action and
 * event once, through these calls, and both forms come out of the same
 * code; the text is byte for byte buf_json() of the tree (fuzz checks it).
 *
 * Calls nest as the JSON does: jw_obj / jw_arr ... jw_end; inside an
 * object every value follows a jw_key (or use the jw_k* shorthands).
 * Keys are plain words (at most 63 bytes of printable ASCII without '"'
 * or '\\'; the text back end copies them unescaped); strings are copied
 * (tree) or encoded at once (text).
 */
#ifndef CARDARENA_JW_H
#define CARDARENA_JW_H

#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "card.h"

#define JW_DEPTH	24
/* The text's hot path, forced inline: gcc would keep the keyed shorthands
 * out of line, and then pay a call and a strlen for every literal key. */
#define JW_INLINE	static inline __attribute__((always_inline))
#define JW_WORD		64	/* bytes of a string copied without escaping */

struct jw {
	struct buf	*b;			/* text back end, else NULL */
	/*
	 * Text: where the next byte goes (NULL for the tree) and the last
	 * byte of the room (kept for the NUL); b's length is set from d when
	 * the writer is back at depth 0 (jw_sync), not at every value.  In a
	 * container every value is written with a ',' after it, which the
	 * closing bracket replaces: no state says whether one is due.
	 */
	char		*d, *lim;
	int		 depth;
	uint8_t		 isobj[JW_DEPTH];	/* an object, not an array */
	json_t		*stack[JW_DEPTH];	/* open containers (tree) */
	json_t		*root;			/* the tree */
	char		 key[64];		/* the pending key (tree) */
	int		 range;			/* legal list: amounts as ranges */
	int32_t		 lo, hi;
};

/* Starts a writer of text appended to b, or of a tree. */
void	 jw_text(struct jw *, struct buf *);
void	 jw_tree(struct jw *);
/* The finished tree (a new reference; the writer lets go of it). */
json_t	*jw_root(struct jw *);

void	 jw_real(struct jw *, double);
void	 jw_null(struct jw *);
void	 jw_cards(struct jw *, const int *, int);	/* an array of them */
void	 jw_json(struct jw *, const json_t *);	/* a tree, copied in */
/*
 * An action's amount: "amount": N, or in a legal list's ranged entry
 * "amount": {"min": lo, "max": hi}.  Action writers use it for the amount.
 */
void	 jw_amount(struct jw *, int32_t);

/*
 * The calls below are inline for the text back end, which a request runs
 * a few hundred times (a call each cost more than the writing); these are
 * their tree halves and the text's escaping, in jw.c.
 */
void	 jw_tree_key(struct jw *, const char *);
void	 jw_tree_int(struct jw *, long long);
void	 jw_tree_kint(struct jw *, const char *, long long);
void	 jw_tree_str(struct jw *, const char *);
void	 jw_tree_bool(struct jw *, int);
void	 jw_tree_open(struct jw *, const char *, int);
void	 jw_text_jstr(struct jw *, const char *);
/* Text: makes room for n bytes, a ',' and the NUL; returns the cursor. */
char	*jw_grow(struct jw *, size_t);

/*
 * Text: copies n bytes; the codecs' words are short, and a call to memcpy
 * for each would cost more than the copy: up to 16 bytes in two moves.
 */
JW_INLINE void
jw_copy_short(char *d, const char *s, size_t n)
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
 * Text: makes room for n bytes and the ',' after a value; returns where
 * to write.
 */
JW_INLINE char *
jw_room(struct jw *w, size_t n)
{
	char *d = w->d;

	if ((size_t)(w->lim - d) <= n)		/* n, a ',', the NUL */
		d = jw_grow(w, n);
	return d;
}

/*
 * Text: the writer is done (back at depth 0): the last value's ',' goes,
 * b's length and NUL are set.
 */
JW_INLINE void
jw_sync(struct jw *w)
{
	char *d = w->d - 1;

	w->d = d;
	w->b->len = (size_t)(d - w->b->p);
	*d = '\0';
}

/* What jw_done ends: a key or an opening bracket, a value, a keyed value. */
enum { JW_OPEN, JW_VALUE, JW_KEYED };

/*
 * Text: ends what was written up to d; a value takes its ',' (a keyed one
 * is inside an object: no test of the depth).
 */
JW_INLINE void
jw_done(struct jw *w, char *d, int how)
{
	if (how != JW_OPEN)
		*d++ = ',';
	w->d = d;
	if (how == JW_VALUE && w->depth == 0)
		jw_sync(w);
}

/* Text: writes "k": at d (keys are plain by contract, above). */
JW_INLINE char *
jw_put_key(char *d, const char *k, size_t n)
{
	*d++ = '"';
	jw_copy_short(d, k, n);
	d += n;
	*d++ = '"';
	*d++ = ':';
	return d;
}

/* Opens an object (obj) or an array, after its key k of n bytes if any. */
JW_INLINE void
jw_open(struct jw *w, const char *k, size_t n, int obj)
{
	char *d;

	if (w->d == NULL) {
		jw_tree_open(w, k, obj);
		return;
	}
	d = jw_room(w, n + 4);
	if (k != NULL)
		d = jw_put_key(d, k, n);
	*d++ = obj ? '{' : '[';
	jw_done(w, d, JW_OPEN);
	if (w->depth + 1 < JW_DEPTH)
		w->isobj[++w->depth] = (uint8_t)obj;
}

JW_INLINE void
jw_obj(struct jw *w)
{
	jw_open(w, NULL, 0, 1);
}

JW_INLINE void
jw_arr(struct jw *w)
{
	jw_open(w, NULL, 0, 0);
}

JW_INLINE void
jw_end(struct jw *w)
{
	char *d = w->d;

	if (w->depth == 0)
		return;
	if (d != NULL) {
		if ((size_t)(w->lim - d) < 2)
			d = jw_grow(w, 1);
		/* the last value's ',' (none in an empty container) */
		if (d[-1] == ',')
			d--;
		*d++ = w->isobj[w->depth] ? '}' : ']';
		*d++ = ',';
		w->d = d;
	}
	if (--w->depth == 0 && d != NULL)
		jw_sync(w);
}

/* A key of n bytes; the next call writes its value. */
JW_INLINE void
jw_keyn(struct jw *w, const char *k, size_t n)
{
	if (w->d == NULL) {
		jw_tree_key(w, k);
		return;
	}
	/*
	 * Keys are the codecs' own words, plain by contract: copied as they
	 * are.  The fuzzer compares this text with the tree's escaped
	 * encoding, so a key that needed escaping would be caught.
	 */
	jw_done(w, jw_put_key(jw_room(w, n + 3), k, n), JW_OPEN);
}

JW_INLINE void
jw_int(struct jw *w, long long v)
{
	if (w->d == NULL) {
		jw_tree_int(w, v);
		return;
	}
	jw_done(w, put_int(jw_room(w, 20), v), JW_VALUE);
}

/* The key of n bytes and its value in one reservation. */
JW_INLINE void
jw_kintn(struct jw *w, const char *k, size_t n, long long v)
{
	if (w->d == NULL) {
		jw_tree_kint(w, k, v);
		return;
	}
	jw_done(w, put_int(jw_put_key(jw_room(w, n + 23), k, n), v),
	    JW_KEYED);
}

/*
 * A string value: the codecs' words are copied as they are, anything
 * else escaped (out of line: its scan would make every call site big).
 */
void	 jw_str(struct jw *, const char *);

/*
 * Text: the value writers at d, after the key k of kn bytes if k is not
 * NULL: the key and its value in one reservation.
 */
JW_INLINE char *
jw_room_key(struct jw *w, const char *k, size_t kn, size_t n)
{
	if (k == NULL)
		return jw_room(w, n);
	return jw_put_key(jw_room(w, kn + 3 + n), k, kn);
}

/* A plain word s of n bytes (after the key k if any): copied, no scan. */
JW_INLINE void
jw_word_at(struct jw *w, const char *k, size_t kn, const char *s, size_t n)
{
	char *d;

	if (w->d == NULL) {
		if (k != NULL)
			jw_tree_key(w, k);
		jw_tree_str(w, s);
		return;
	}
	d = jw_room_key(w, k, kn, n + 2);
	*d++ = '"';
	jw_copy_short(d, s, n);
	d += n;
	*d++ = '"';
	jw_done(w, d, k != NULL ? JW_KEYED : JW_VALUE);
}

/* A string value that is a plain word of n bytes: copied, no scan. */
JW_INLINE void
jw_word(struct jw *w, const char *s, size_t n)
{
	jw_word_at(w, NULL, 0, s, n);
}

/* true or false (after the key k if any). */
JW_INLINE void
jw_bool_at(struct jw *w, const char *k, size_t kn, int v)
{
	char *d;

	if (w->d == NULL) {
		if (k != NULL)
			jw_tree_key(w, k);
		jw_tree_bool(w, v);
		return;
	}
	d = jw_room_key(w, k, kn, 5);
	if (v) {
		memcpy(d, "true", 4);
		d += 4;
	} else {
		memcpy(d, "false", 5);
		d += 5;
	}
	jw_done(w, d, k != NULL ? JW_KEYED : JW_VALUE);
}

JW_INLINE void
jw_bool(struct jw *w, int v)
{
	jw_bool_at(w, NULL, 0, v);
}

/* Every card's name with its quotes, "AS" to "JK", 4 bytes a card (jw.c). */
extern const char jw_card_quoted[4 * 54 + 1];

/*
 * Text: writes at d (4 bytes) the quoted name of a card out of the table's
 * range, as card_name gives it.
 */
void	 jw_card_odd(char *, int);

/*
 * A card's name, "7H", "JK" (inline, from the table: a hand or a pile is
 * many of them).
 */
JW_INLINE void
jw_card_at(struct jw *w, const char *k, size_t kn, int card)
{
	char name[3], *d;

	if (w->d == NULL) {
		if (k != NULL)
			jw_tree_key(w, k);
		card_name(card, name);
		jw_tree_str(w, name);
		return;
	}
	d = jw_room_key(w, k, kn, 4);
	if (card >= 0 && card <= JOKER + 1)
		memcpy(d, jw_card_quoted + 4 * card, 4);
	else
		jw_card_odd(d, card);
	jw_done(w, d + 4, k != NULL ? JW_KEYED : JW_VALUE);
}

JW_INLINE void
jw_card(struct jw *w, int card)
{
	jw_card_at(w, NULL, 0, card);
}

/* Arrays of n cards held as bytes: one reservation for the whole array. */
void	 jw_cards_u8(struct jw *, const uint8_t *, int);
void	 jw_cards_i8(struct jw *, const int8_t *, int);

/*
 * Keyed shorthands: the key then the value.  The key's length is taken
 * here, so a literal key costs no strlen; the *n forms take it given
 * (a key from a table with its lengths).
 */
/* The key k and a plain word s of n bytes (jw_word). */
JW_INLINE void
jw_kword(struct jw *w, const char *k, const char *s, size_t n)
{
	jw_word_at(w, k, strlen(k), s, n);
}

JW_INLINE void
jw_kobjn(struct jw *w, const char *k, size_t n)
{
	jw_open(w, k, n, 1);
}

JW_INLINE void
jw_key(struct jw *w, const char *k)
{
	jw_keyn(w, k, strlen(k));
}

JW_INLINE void
jw_kint(struct jw *w, const char *k, long long v)
{
	jw_kintn(w, k, strlen(k), v);
}

/*
 * The bytes a string cannot be copied with: escaped, or checked as UTF-8.
 * With a literal, gcc works out strcspn over them at compile time.
 */
#define JW_ESCAPED	"\"\\"							\
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10" \
	"\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x80" \
	"\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90" \
	"\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f\xa0" \
	"\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf\xb0" \
	"\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xc0" \
	"\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf\xd0" \
	"\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf\xe0" \
	"\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef\xf0" \
	"\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff"

JW_INLINE void
jw_kstr(struct jw *w, const char *k, const char *s)
{
	/* A literal that needs no escaping (the codecs' words): no scan. */
	if (__builtin_constant_p(strlen(s)) &&
	    strcspn(s, JW_ESCAPED) == strlen(s))
		jw_word_at(w, k, strlen(k), s, strlen(s));
	else {
		jw_keyn(w, k, strlen(k));
		jw_str(w, s);
	}
}

JW_INLINE void
jw_kbool(struct jw *w, const char *k, int v)
{
	jw_bool_at(w, k, strlen(k), v);
}

JW_INLINE void
jw_kobj(struct jw *w, const char *k)
{
	jw_open(w, k, strlen(k), 1);
}

JW_INLINE void
jw_karr(struct jw *w, const char *k)
{
	jw_open(w, k, strlen(k), 0);
}

JW_INLINE void
jw_knull(struct jw *w, const char *k)
{
	jw_keyn(w, k, strlen(k));
	jw_null(w);
}

JW_INLINE void
jw_kcard(struct jw *w, const char *k, int card)
{
	jw_card_at(w, k, strlen(k), card);
}

JW_INLINE void
jw_kcards(struct jw *w, const char *k, const int *cards, int n)
{
	jw_keyn(w, k, strlen(k));
	jw_cards(w, cards, n);
}

#endif
