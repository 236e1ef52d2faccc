/*
 * Allocation that aborts on failure: a zero size allocates one byte, and
 * an array's size is checked for overflow.
 */
#ifndef CARDARENA_ALLOC_H
#define CARDARENA_ALLOC_H

#include <stddef.h>

/* Allocates n bytes or aborts. */
void	*xmalloc(size_t);
/* Allocates a zeroed array or aborts. */
void	*xcalloc(size_t, size_t);
/* Resizes an array, checking the multiplication, or aborts. */
void	*xreallocarray(void *, size_t, size_t);
/* Duplicates a string or aborts. */
char	*xstrdup(const char *);

#endif
