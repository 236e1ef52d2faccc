/*
 * "Did you mean": among the names offered, the one close to a mistyped
 * word (one or two edits: a letter missing, added, changed or two letters
 * swapped), when exactly one is closest.
 */
#ifndef CARDARENA_NEAR_H
#define CARDARENA_NEAR_H

#include <stddef.h>

#define NEAR_MAX	64	/* longer words and names are never close */

struct near {
	const char	*word;
	const char	*best;	/* the closest name so far */
	int		 dist;	/* its distance */
	int		 ties;	/* other names as close */
};

/* Starts a search for the names close to word. */
void		 near_init(struct near *, const char *word);
/* Offers one known name. */
void		 near_offer(struct near *, const char *name);
/* The one name close to the word, or NULL if none or several are. */
const char	*near_best(const struct near *);
/* "did you mean NAME? " into buf when one name is close, else ""; buf. */
const char	*near_say(const struct near *, char *buf, size_t len);

#endif
