/*
 * CPU leases and slow starters; see cpulease.h.  A lease on CPU c is an
 * AF_UNIX socket bound to the abstract name "<set>-cpu<c>" (set:
 * $CARDARENA_CPU_LEASES, default "cardarena"), close-on-exec (no referee
 * or bot inherits it).  The kernel gives a name to one socket at a time
 * and frees it with its last descriptor, even after SIGKILL: no file to
 * leave behind, delete, swap for a symlink or open from another account,
 * and nothing to connect to (it never listens).  A sandboxed bot lives in
 * a network namespace of its own and cannot see the names; any other
 * process of the machine's network namespace may take a free name first,
 * which costs that CPU's pinning and nothing else (the run floats).
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulease.h"
#include "game.h"
#include "proc.h"
#include "rng.h"

/*
 * cpu_asks_together's playouts: games until this many decisions (a
 * share from a few is chance: a race of three seats asks about five), at
 * most this many games, and actions at most in each.
 */
#define TOGETHER_DECISIONS	500
#define TOGETHER_GAMES		100
#define TOGETHER_ACTIONS	20000

/* Interpreters whose start-up takes tens of milliseconds of CPU. */
static const char *const slow[] = { "python", "pypy", "node", "nodejs",
    "deno", "bun", "java", "ruby", "julia", "Rscript", "dotnet", NULL };

/* A lease on CPU cpu; see cpulease.h. */
int
cpu_lease(int cpu)
{
	struct sockaddr_un sa;
	const char *ns;
	int fd, n;

	if ((ns = getenv("CARDARENA_CPU_LEASES")) == NULL || *ns == '\0')
		ns = "cardarena";
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	n = snprintf(sa.sun_path + 1, sizeof sa.sun_path - 1, "%s-cpu%d", ns,
	    cpu);
	if (n < 0 || (size_t)n >= sizeof sa.sun_path - 1)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct
	    sockaddr_un, sun_path) + 1 + (size_t)n)) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* 1 if the program named w (python3.11, /usr/bin/node) starts slowly. */
static int
slow_name(const char *w)
{
	const char *b = strrchr(w, '/');
	size_t n;
	int i;

	b = b != NULL ? b + 1 : w;
	n = strlen(b);
	while (n > 0 && (isdigit((unsigned char)b[n - 1]) || b[n - 1] == '.'))
		n--;
	for (i = 0; slow[i] != NULL; i++)
		if (strlen(slow[i]) == n && strncmp(b, slow[i], n) == 0)
			return 1;
	return 0;
}

/*
 * The index of the program word of argv, past env(1) and its options and
 * assignments; argc if none.
 */
static int
program_word(char **argv, int argc)
{
	const char *b;
	int i = 0;

	b = strrchr(argv[0], '/');
	if (strcmp(b != NULL ? b + 1 : argv[0], "env") != 0)
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-C") == 0 || strcmp(argv[i], "-u") == 0)
			i++;
		else if (argv[i][0] != '-' && strchr(argv[i], '=') == NULL)
			break;
	}
	return i;
}

/*
 * 1 if the file of program w (found in dir, or on PATH when w has no
 * slash) is a script whose #! line names a slow interpreter.
 */
static int
slow_script(const char *w, const char *dir)
{
	char path[PATH_MAX], line[256], **argv, why[64], *nl;
	const char *pp, *e;
	ssize_t got;
	int fd = -1, argc, k, r = 0;

	if (strchr(w, '/') != NULL) {
		if (snprintf(path, sizeof path, "%s%s%s", w[0] != '/' && dir ?
		    dir : "", w[0] != '/' && dir ? "/" : "", w) <
		    (int)sizeof path)
			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	} else if ((pp = getenv("PATH")) != NULL) {
		for (; fd == -1 && *pp != '\0'; pp = *e ? e + 1 : e) {
			e = pp + strcspn(pp, ":");
			if (snprintf(path, sizeof path, "%.*s/%s", (int)(e - pp),
			    pp, w) < (int)sizeof path)
				fd = open(path, O_RDONLY | O_NONBLOCK |
				    O_CLOEXEC);
		}
	}
	if (fd == -1)
		return 0;
	got = read(fd, line, sizeof line - 1);
	close(fd);
	if (got < 3 || line[0] != '#' || line[1] != '!')
		return 0;
	line[got] = '\0';
	if ((nl = strchr(line, '\n')) != NULL)
		*nl = '\0';
	if (argv_split(line + 2, &argv, why, sizeof why) == -1)
		return 0;
	for (argc = 0; argv[argc] != NULL; argc++)
		continue;
	if ((k = program_word(argv, argc)) < argc)
		r = slow_name(argv[k]);
	argv_free(argv);
	return r;
}

/* Is command a slow starter?  See cpulease.h. */
int
cpu_slow_start(const char *command, const char *dir)
{
	char **argv, why[64];
	int argc, k, r = 0;

	if (argv_split(command, &argv, why, sizeof why) == -1)
		return 0;
	for (argc = 0; argv[argc] != NULL; argc++)
		continue;
	if ((k = program_word(argv, argc)) < argc)
		r = slow_name(argv[k]) || slow_script(argv[k], dir);
	argv_free(argv);
	return r;
}

/* A lone referee's CPU; see cpulease.h. */
int
cpu_auto(int n, const char *const *cmds, const char *const *dirs,
    long life, int together, int *fd)
{
	cpu_set_t set;
	int c, i;

	*fd = -1;
	if (together || sched_getaffinity(0, sizeof set, &set) == -1 ||
	    CPU_COUNT(&set) < 2)
		return -1;
	if (life < PIN_SLOW_GAMES)
		for (i = 0; i < n; i++)
			if (cpu_slow_start(cmds[i], dirs != NULL ? dirs[i] :
			    NULL))
				return -1;
	/* the CPU the scheduler runs this process on first: it chose it
	 * as the least busy, where the first CPU may hold other work */
	if ((c = sched_getcpu()) >= 0 && c < CPU_SETSIZE &&
	    CPU_ISSET((size_t)c, &set) && (*fd = cpu_lease(c)) != -1)
		return c;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET((size_t)c, &set) && (*fd = cpu_lease(c)) != -1)
			return c;
	return -1;
}

/* 1 if most of g's decisions are asked of several seats at once. */
int
cpu_asks_together(const struct game *g, const struct opts *o)
{
	static _Thread_local struct legal l[MAX_LEGAL];
	struct rng rng;
	uint32_t d, left;
	long all = 0, together = 0, k = 0;
	void *st;
	int i, n, p;

	if ((st = calloc(1, g->state_size)) == NULL)
		return 0;
	for (i = 0; i < TOGETHER_GAMES && all < TOGETHER_DECISIONS; i++) {
		rng_seed(&rng, (uint64_t)i + 1);
		g->init(st, o, NULL, &rng, NULL);
		/* a round: every seat deciding now, asked at once */
		for (k = 0; k < TOGETHER_ACTIONS &&
		    (d = g->deciders(st)) != 0; ) {
			n = __builtin_popcount(d);
			all += n;
			if (n > 1)
				together += n;
			for (left = d; left != 0 && k < TOGETHER_ACTIONS;
			    left &= left - 1, k++) {
				p = __builtin_ctz(left);
				if (!(g->deciders(st) & (1u << p)) ||
				    (n = g->legal(st, p, l, MAX_LEGAL)) <= 0)
					continue;
				(void)g->apply(st, p, legal_pick(l, n, &rng),
				    &rng, NULL);
			}
		}
	}
	free(st);
	return together * 2 > all;
}
