/*
 * The tournament's HTML replays: with "replays": true (or run --replays)
 * every match log of the output directory gets its bin/replay --html page
 * beside it, the bots named by their tournament names; the step at which
 * a game of a log starts, for the report's links (LOG.html#step=N; a log
 * is read once, however many of its games a report links).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/journal.h"
#include "base/paths.h"
#include "base/replays.h"
#include "base/tfile.h"
#include "cli.h"
#include "proc.h"

/*
 * Runs prog --html LOG.html --names NAMES LOG, the page written beside
 * and renamed into place (a reader, or a second renderer, never sees it
 * half written); -1 if it failed.
 */
int
render_one(const char *prog, const char *log, const char *names)
{
	char *out, *tmp;
	pid_t pid;
	int status, rc;

	if (asprintf(&out, "%s.html", log) == -1 ||
	    asprintf(&tmp, "%s.html.%ld", log, (long)getpid()) == -1)
		err(1, "asprintf");
	{
		char *argv[] = { (char *)prog, (char *)"--html", tmp,
		    (char *)"--names", (char *)names, (char *)log, NULL };

		if ((pid = proc_helper(argv, -1, -1, -1, NULL)) == -1)
			err(1, "fork");
	}
	while (waitpid(pid, &status, 0) == -1)
		;
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    rename(tmp, out) == 0 ? 0 : -1;
	if (rc == -1)
		unlink(tmp);
	free(out);
	free(tmp);
	return rc;
}

int
render_replays(const struct tour *t, const struct schedule *s,
    const char *logdir)
{
	DIR *d;
	struct dirent *de;
	struct stat lsb, hsb;
	char *prog, *log, *html, *names;
	size_t len;
	long tb;
	int i, n = 0;

	if ((d = opendir(logdir)) == NULL) {
		warn("%s", logdir);
		return 0;
	}
	prog = beside_self("replay");
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 7 || strcmp(de->d_name + len - 6, ".jsonl") != 0 ||
		    sscanf(de->d_name, "t%ld.", &tb) != 1 || tb < 0 ||
		    tb >= s->ntables)
			continue;
		if (asprintf(&log, "%s/%s", logdir, de->d_name) == -1 ||
		    asprintf(&html, "%s.html", log) == -1)
			err(1, "asprintf");
		/* rendered once, unless the log changed since */
		if (stat(log, &lsb) == 0 && (stat(html, &hsb) == -1 ||
		    hsb.st_mtime < lsb.st_mtime)) {
			names = xstrdup(t->bots[s->tab[tb * t->seats]].name);
			for (i = 1; i < t->seats; i++) {
				char *x;

				if (asprintf(&x, "%s,%s", names,
				    t->bots[s->tab[tb * t->seats + i]].name) ==
				    -1)
					err(1, "asprintf");
				free(names);
				names = x;
			}
			if (render_one(prog, log, names) == 0)
				n++;
			else
				warnx("%s: no HTML replay (see above)", log);
			free(names);
		}
		free(log);
		free(html);
	}
	closedir(d);
	free(prog);
	return n;
}

/*
 * The steps at which the games of a log are dealt, for the last few logs
 * asked (a report links up to 200 games of a few logs: each is read once).
 */
#define STEP_LOGS	8
static struct steps {
	char	*path;
	off_t	 size;
	time_t	 mtime;
	long	 n, *game, *step;
} steps[STEP_LOGS];
static int steps_next;

/* Reads the steps of log path (whose stat is sb) into e. */
static void
steps_read(struct steps *e, const char *path, const struct stat *sb)
{
	FILE *fp;
	char *line = NULL, *p;
	size_t cap = 0;
	long step = 0, g, room = 0;

	free(e->path);
	free(e->game);
	free(e->step);
	memset(e, 0, sizeof *e);
	e->path = xstrdup(path);
	e->size = sb->st_size;
	e->mtime = sb->st_mtime;
	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (getline(&line, &cap, fp) != -1) {
		if (strncmp(line, "{\"type\":\"action\"", 16) == 0)
			step++;
		else if (strncmp(line, "{\"type\":\"game_start\"", 20) == 0) {
			if ((p = strstr(line, "\"game\":")) != NULL &&
			    sscanf(p + 7, "%ld", &g) == 1) {
				if (e->n == room) {
					room = room ? 2 * room : 16;
					e->game = xreallocarray(e->game,
					    (size_t)room, sizeof *e->game);
					e->step = xreallocarray(e->step,
					    (size_t)room, sizeof *e->step);
				}
				e->game[e->n] = g;
				e->step[e->n++] = step;
			}
			step++;
		}
	}
	free(line);
	fclose(fp);
}

long
replay_game_step(const char *path, long game)
{
	struct stat sb;
	struct steps *e = NULL;
	long i;
	int k;

	if (stat(path, &sb) == -1)
		return -1;
	for (k = 0; k < STEP_LOGS && e == NULL; k++)
		if (steps[k].path != NULL && strcmp(steps[k].path, path) == 0 &&
		    steps[k].size == sb.st_size && steps[k].mtime == sb.st_mtime)
			e = &steps[k];
	if (e == NULL) {
		e = &steps[steps_next];
		steps_next = (steps_next + 1) % STEP_LOGS;
		steps_read(e, path, &sb);
	}
	for (i = 0; i < e->n; i++)
		if (e->game[i] == game)
			return e->step[i];
	return -1;
}
