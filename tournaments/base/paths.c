/*
 * Where the tournament's programs are: the programs beside this one
 * (bin/referee, bin/replay), the referee to run, and the one warning when
 * bots cannot be isolated from each other (the directories the tournament
 * makes: referee/mkdirs.c).  Leaf of tournaments/: it calls nothing of
 * the tournament's, so every unit there may use it.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/paths.h"
#include "cli.h"
#include "contain.h"
#include "game.h"

/* The program beside this one; see paths.h. */
char *
beside_self(const char *name)
{
	char path[PATH_MAX];

	if (cli_beside(name, path, sizeof path) == 0)
		return xstrdup(path);
	return xstrdup(name);
}

/* Warns once if bots cannot be isolated; see paths.h. */
void
isolation_warn(char *const *args, int n, const char *remedy)
{
	char cause[256];
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(args[i], "--sandbox") == 0 ||
		    strcmp(args[i], "--bot-user=same") == 0 ||
		    (strcmp(args[i], "--bot-user") == 0 && i + 1 < n &&
		    strcmp(args[i + 1], "same") == 0))
			return;
	if (contain_isolation_check(cause, sizeof cause) == -1)
		warnx("%s; %s", cause, remedy);
}

/*
 * The referee to run: the one given (a file's "referee", a command line's
 * --referee), else $CARDARENA_REFEREE, else the referee beside this
 * program, else "referee" from PATH.
 */
char *
referee_path(const char *given)
{
	char *path;

	if (given != NULL)
		return xstrdup(given);
	if ((path = getenv("CARDARENA_REFEREE")) != NULL && *path != '\0')
		return xstrdup(path);
	return beside_self("referee");
}

