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

#define JW_DEPTH	24

struct buf;

struct jw {
	struct buf	*b;			/* text back end, else NULL */
	int		 depth;
	uint8_t		 comma;			/* a ',' before the next (text) */
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

void	 jw_obj(struct jw *);
void	 jw_arr(struct jw *);
void	 jw_end(struct jw *);
void	 jw_int(struct jw *, long long);
void	 jw_real(struct jw *, double);
void	 jw_str(struct jw *, const char *);
void	 jw_bool(struct jw *, int);
void	 jw_null(struct jw *);
void	 jw_card(struct jw *, int);		/* "7H", "JK" */
void	 jw_cards(struct jw *, const int *, int);	/* an array of them */
void	 jw_json(struct jw *, const json_t *);	/* a tree, copied in */
/*
 * An action's amount: "amount": N, or in a legal list's ranged entry
 * "amount": {"min": lo, "max": hi}.  Action writers use it for the amount.
 */
void	 jw_amount(struct jw *, int32_t);

/*
 * Keyed shorthands: jw_key then the value.  The key's length is taken
 * here, so a literal key costs no strlen; the *n forms take it given.
 */
void	 jw_keyn(struct jw *, const char *, size_t);
void	 jw_kintn(struct jw *, const char *, size_t, long long);
void	 jw_kstrn(struct jw *, const char *, size_t, const char *);
void	 jw_kbooln(struct jw *, const char *, size_t, int);
void	 jw_kobjn(struct jw *, const char *, size_t);
void	 jw_karrn(struct jw *, const char *, size_t);
void	 jw_knull(struct jw *, const char *);
void	 jw_kcard(struct jw *, const char *, int);
void	 jw_kcards(struct jw *, const char *, const int *, int);

/* A key; the next call writes its value. */
static inline void
jw_key(struct jw *w, const char *k)
{
	jw_keyn(w, k, strlen(k));
}

static inline void
jw_kint(struct jw *w, const char *k, long long v)
{
	jw_kintn(w, k, strlen(k), v);
}

static inline void
jw_kstr(struct jw *w, const char *k, const char *s)
{
	jw_kstrn(w, k, strlen(k), s);
}

static inline void
jw_kbool(struct jw *w, const char *k, int v)
{
	jw_kbooln(w, k, strlen(k), v);
}

static inline void
jw_kobj(struct jw *w, const char *k)
{
	jw_kobjn(w, k, strlen(k));
}

static inline void
jw_karr(struct jw *w, const char *k)
{
	jw_karrn(w, k, strlen(k));
}

/*
 * The tree-returning codec functions of struct game, defined from a game's
 * writers: e.g. JW_VIEW_JSON(nyse_view_json, nyse_view_write).
 */
#define JW_VIEW_JSON(name, writer)					\
json_t *								\
name(const void *st, int seat)						\
{									\
	struct jw w;							\
									\
	jw_tree(&w);							\
	writer(st, seat, &w);						\
	return jw_root(&w);						\
}
#define JW_ACTION_JSON(name, writer)					\
json_t *								\
name(const void *st, int player, struct action a)			\
{									\
	struct jw w;							\
									\
	jw_tree(&w);							\
	writer(st, player, a, &w);					\
	return jw_root(&w);						\
}
#define JW_EVENT_JSON(name, writer)					\
json_t *								\
name(const void *st, const struct event *e)				\
{									\
	struct jw w;							\
									\
	jw_tree(&w);							\
	writer(st, e, &w);						\
	return jw_root(&w);						\
}

#endif
