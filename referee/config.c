/*
 * The fault policies' names; see config.h.
 */
#include <string.h>

#include "config.h"

/* In the order of enum policy. */
const char *const policy_names[] = { "random", "default", "retire", NULL };

/* The policy called name; see config.h. */
int
policy_parse(const char *name)
{
	int i;

	for (i = 0; policy_names[i] != NULL; i++)
		if (strcmp(policy_names[i], name) == 0)
			return i;
	return -1;
}
