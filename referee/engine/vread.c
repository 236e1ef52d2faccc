/*
 * The view reader of the determinizations (vread.h): typed look-ups in a
 * view that remember the first failure, so that a game's reading of its
 * view stays a straight list of fields.
 */
#include <stdarg.h>
#include <stdio.h>

#include "game.h"
#include "vread.h"

/* Starts a reader writing its cause into cause (len bytes). */
void
vr_init(struct vread *v, char *cause, size_t len)
{
	v->bad = 0;
	v->cause = cause;
	v->len = len;
	if (len > 0)
		cause[0] = '\0';
}

/* Records a failure (the first one wins); returns -1. */
int
vr_fail(struct vread *v, const char *fmt, ...)
{
	va_list ap;

	if (!v->bad && v->len > 0) {
		va_start(ap, fmt);
		vsnprintf(v->cause, v->len, fmt, ap);
		va_end(ap);
	}
	v->bad = 1;
	return -1;
}

/* The member key of o, which must be of JSON type t; NULL if not. */
const json_t *
vr_get(struct vread *v, const json_t *o, const char *key, json_type t)
{
	const json_t *j;

	if (v->bad)
		return NULL;
	if ((j = json_object_get(o, key)) == NULL || json_typeof(j) != t) {
		vr_fail(v, "view: \"%s\" is missing or of the wrong type",
		    key);
		return NULL;
	}
	return j;
}

/* Checks that j is an integer in [lo, hi]; its value, else 0. */
static long
in_range(struct vread *v, const json_t *j, const char *what, long lo,
    long hi)
{
	json_int_t x;

	if (v->bad)
		return 0;
	if (!json_is_integer(j) || (x = json_integer_value(j)) < lo ||
	    x > hi) {
		vr_fail(v, "view: \"%s\" is not a whole number in [%ld, %ld]",
		    what, lo, hi);
		return 0;
	}
	return (long)x;
}

/* The member key of o: null, or an integer in [lo, hi] (null gives nul). */
long
vr_nint(struct vread *v, const json_t *o, const char *key, long lo, long hi,
    long nul)
{
	const json_t *j;

	if (v->bad)
		return 0;
	j = json_object_get(o, key);
	if (json_is_null(j))
		return nul;
	return in_range(v, j, key, lo, hi);
}

/* The integer member key of o, in [lo, hi]. */
long
vr_int(struct vread *v, const json_t *o, const char *key, long lo, long hi)
{
	if (v->bad)
		return 0;
	return in_range(v, json_object_get(o, key), key, lo, hi);
}

/* The integer element i of array a, in [lo, hi]. */
long
vr_at(struct vread *v, const json_t *a, size_t i, long lo, long hi)
{
	if (v->bad)
		return 0;
	return in_range(v, json_array_get(a, i), "an array element", lo, hi);
}

/* The boolean member key of o. */
int
vr_bool(struct vread *v, const json_t *o, const char *key)
{
	const json_t *j;

	if (v->bad)
		return 0;
	if (!json_is_boolean(j = json_object_get(o, key))) {
		vr_fail(v, "view: \"%s\" is not a boolean", key);
		return 0;
	}
	return json_is_true(j);
}

/* The index of the string member key of o in the NULL-ended names. */
int
vr_word(struct vread *v, const json_t *o, const char *key,
    const char *const *names)
{
	int i;

	if (v->bad)
		return 0;
	if ((i = word_index(names, json_object_get(o, key))) >= 0)
		return i;
	vr_fail(v, "view: \"%s\" is not one of its words", key);
	return 0;
}

/* The cards of the array a (a card name each), at most max; the count. */
int
vr_cards(struct vread *v, const json_t *a, int *cards, int max)
{
	size_t i;
	int c;

	if (v->bad)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > (size_t)max) {
		vr_fail(v, "view: a card list is not an array of at most %d",
		    max);
		return 0;
	}
	for (i = 0; i < json_array_size(a); i++) {
		if ((c = card_from_json(json_array_get(a, i))) < 0) {
			vr_fail(v, "view: a card list holds a non-card");
			return 0;
		}
		cards[i] = c;
	}
	return (int)i;
}

/* The same as bytes. */
int
vr_cards8(struct vread *v, const json_t *a, uint8_t *cards, int max)
{
	int tmp[128], n, i;

	if (max > 128)
		max = 128;
	n = vr_cards(v, a, tmp, max);
	for (i = 0; i < n; i++)
		cards[i] = (uint8_t)tmp[i];
	return n;
}
