/*
 * Reading a seat's view back into a state: the helpers of the games'
 * determinizations (struct game.determinize, the games' *_det.c files).  A
 * reader keeps the first cause of failure; every call after a failure
 * returns a harmless value (0, NULL, an empty list), so a game reads its
 * whole view and asks once at the end whether it went wrong.  Nothing is
 * allocated; the json_t pointers returned are borrowed from the view.
 */
#ifndef CARDARENA_VREAD_H
#define CARDARENA_VREAD_H

#include <stdint.h>

#include <jansson.h>

struct vread {
	int	 bad;		/* a failure was met */
	char	*cause;		/* its text, for the caller */
	size_t	 len;
};

/* Starts a reader writing its cause into cause (len bytes). */
void		 vr_init(struct vread *, char *cause, size_t len);
/* Records a failure (the first one wins); returns -1. */
int		 vr_fail(struct vread *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* The member key of o, which must be of JSON type t (JSON_*); NULL if not. */
const json_t	*vr_get(struct vread *, const json_t *o, const char *key,
		    json_type t);
/* The member key of o: null, or an integer in [lo, hi] (null gives nul). */
long		 vr_nint(struct vread *, const json_t *o, const char *key,
		    long lo, long hi, long nul);
/* The integer member key of o, in [lo, hi]. */
long		 vr_int(struct vread *, const json_t *o, const char *key,
		    long lo, long hi);
/* The integer element i of array a, in [lo, hi]. */
long		 vr_at(struct vread *, const json_t *a, size_t i, long lo,
		    long hi);
/* The boolean member key of o. */
int		 vr_bool(struct vread *, const json_t *o, const char *key);
/* The index of the string member key of o in the NULL-ended names. */
int		 vr_word(struct vread *, const json_t *o, const char *key,
		    const char *const *names);
/* The cards of the array a (a card name each), at most max; the count. */
int		 vr_cards(struct vread *, const json_t *a, int *cards,
		    int max);
/* The same as bytes. */
int		 vr_cards8(struct vread *, const json_t *a, uint8_t *cards,
		    int max);

#endif
