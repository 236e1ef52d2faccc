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

void
match_config_init(struct match_config *cf)
{
	memset(cf, 0, sizeof *cf);
	cf->games = 1;
	cf->stderr_cap = 1024 * 1024;
	cf->time_per_move_ms = DEF_TIME_PER_MOVE_MS;
	cf->time_bank_ms = DEF_TIME_BANK_MS;
	cf->time_hello_ms = DEF_TIME_HELLO_MS;
	cf->grace_ms = 500;
	cf->max_decisions = 100000;
	cf->policy = POLICY_RANDOM;
	cf->max_faults = 100;
	cf->max_output = 4 * 1024 * 1024;
}
