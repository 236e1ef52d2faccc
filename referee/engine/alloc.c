/*
 * Allocation wrappers that abort on failure (the only way the referee and
 * the engines allocate).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Allocates n bytes or aborts. */
void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		err(1, "malloc");
	return p;
}

/* Allocates a zeroed array or aborts. */
void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		err(1, "calloc");
	return p;
}

/* Resizes an array, checking the multiplication, or aborts. */
void *
xreallocarray(void *old, size_t n, size_t size)
{
	void *p;

	if ((p = reallocarray(old, n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		err(1, "reallocarray");
	return p;
}

/* Duplicates a string or aborts. */
char *
xstrdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) == NULL)
		err(1, "strdup");
	return p;
}
