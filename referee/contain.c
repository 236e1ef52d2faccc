/*
 * Containing untrusted bots; see contain.h and SECURITY.md.  Everything a
 * bot's exec needs (its argv, possibly wrapped in bwrap, and its whole
 * environment) is built before fork, so the child only sets limits, drops
 * to its user id and execs.  Without a sandbox a bot as root runs as a
 * user id of its own, BOT_UID_BASE + pid * 64 + n: distinct between
 * bots and between concurrent referees (pids are), so RLIMIT_NPROC counts
 * the bot's own processes only, and a stopped bot's every process, in
 * whatever group or session, is killed by a helper that becomes that uid
 * and calls kill(-1, SIGKILL).  An isolated bot is the child of an init of
 * our own, the first process of its PID namespace (see contain_child).
 * Every bot runs under a seccomp filter built once, before any fork
 * (seccomp.c): no file locks, no inotify, no TIOCSTI, no sockets (under
 * the sandbox that part is installed by bwrap, just before it execs the
 * bot).  Each bot has a view of the files of its own (view_build): its
 * directories shown, the other bots' and what the caller hides hidden.
 */
#include <sys/types.h>
#ifdef __linux__
#include <sys/mount.h>
#include <sys/syscall.h>
#include <linux/mount.h>
#include <sched.h>
#endif
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "contain.h"
#include "nsbox.h"
#include "seccomp.h"
#include "sweep.h"

#define STR(x)		#x
#define SANDBOX_STDIN_S	XSTR(SANDBOX_STDIN)
#define SANDBOX_SECCOMP_S XSTR(SANDBOX_SECCOMP)
#define SANDBOX_READY_S	XSTR(SANDBOX_READY)
#define SANDBOX_GO_S	XSTR(SANDBOX_GO)
#define XSTR(x)		STR(x)

extern char **environ;

static const struct contain	*conf;
static struct contain		 defaults;
static int			 defaults_set;
static unsigned			 spawn_seq;
static char			 bwrap_path[PATH_MAX];
static int			 native;	/* our own launcher (nsbox.c) */
static int			 isolation_warned;
/* the default sandbox, on but not yet proven (contain_ready) */
static struct contain		*unproven;
static int			 fell_back;	/* it was not: off */
static int			 checking;	/* sandbox_try's own spawn */
static cpu_set_t		 wide;		/* our CPUs before contain_pin */
static int			 pinned = -1;	/* the CPU it pinned us to */
static int			(*check_keep)(pid_t);	/* its sweep spares */

static void	 vec_add(char ***, int *, const char *);
static void	 env_put(char ***, int *, const char *);
static int	 under(const char *, const char *);
static int	 out_of_reach(const char *);
static int	 find_bwrap(void);
static void	 sandbox_args(char ***, int *, char *const *, int, int, int,
		    int);
static void	 pin_tree(pid_t, const cpu_set_t *, int);
static void	 unsandboxed(struct contain *, const char *);
static long	 own_processes(void);
static int	 isolate(const struct jailed *);
static int	 isolation_works(const struct jailed *);
static void	 scratch_opts(struct jailed *);
static int	 sandbox_try(char *, size_t);
static void	 isolate_hides(struct jailed *, char *const *, int);
static void	 own_add(struct contain *, const char *, int, int);
static int	 named_dir(const char *, char *);

const struct limit_flag limit_flags[NLIMIT_FLAGS + 1] = {
	{ "cpu_s",	"--limit-cpu",		86400 * 366,
	    offsetof(struct contain, cpu_s), LIMIT_CPU },
	{ "mem_mb",	"--limit-mem",		1L << 30,
	    offsetof(struct contain, mem_mb), LIMIT_MEMORY },
	{ "nproc",	"--limit-nproc",	1L << 22,
	    offsetof(struct contain, nproc), -1 },
	{ "fsize_mb",	"--limit-fsize",	1L << 30,
	    offsetof(struct contain, fsize_mb), LIMIT_FSIZE },
	{ "nofile",	"--limit-nofile",	1L << 20,
	    offsetof(struct contain, nofile), -1 },
	{ "scratch_mb",	"--limit-scratch",	1L << 20,
	    offsetof(struct contain, scratch_mb), -1 },
	{ NULL,		NULL,			0, 0, -1 }
};

int
contain_set_limit(struct contain *c, int i, long long v, char *cause,
    size_t len)
{
	const struct limit_flag *f = &limit_flags[i];

	if (v < 0 || v > f->hi) {
		snprintf(cause, len, "%lld: out of range (from 0, no limit, to "
		    "%ld)", v, f->hi);
		return -1;
	}
	if (f->off == offsetof(struct contain, nofile) && v > 0 && v < 8) {
		snprintf(cause, len, "%lld: too small (from 8, or 0 for none)",
		    v);
		return -1;
	}
	*(long *)(void *)((char *)c + f->off) = (long)v;
	return 0;
}

int
contain_set_limit_text(struct contain *c, int i, const char *s, char *cause,
    size_t len)
{
	const char *errstr;
	long long v;

	v = strtonum(s, 0, limit_flags[i].hi, &errstr);
	if (errstr != NULL) {
		snprintf(cause, len, "%s: %s (from 0, no limit, to %ld)", s,
		    errstr, limit_flags[i].hi);
		return -1;
	}
	return contain_set_limit(c, i, v, cause, len);
}

long
contain_limit_value(const struct contain *c, int i)
{
	return *(const long *)(const void *)((const char *)c +
	    limit_flags[i].off);
}

void
contain_limit_args(const struct contain *c, char *buf, size_t len)
{
	struct contain d;
	int i;

	contain_init(&d);
	for (i = 0; limit_flags[i].key != NULL; i++)
		if (contain_limit_value(c, i) != contain_limit_value(&d, i))
			snprintf(buf + strlen(buf), len - strlen(buf),
			    " %s %ld", limit_flags[i].flag,
			    contain_limit_value(c, i));
}

void
contain_init(struct contain *c)
{
	memset(c, 0, sizeof *c);
	c->cpu_s = 3600;
#if defined(__SANITIZE_ADDRESS__)
	c->mem_mb = 0;		/* ASan reserves terabytes of address space */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	c->mem_mb = 0;
#else
	c->mem_mb = 2048;
#endif
#else
	c->mem_mb = 2048;
#endif
	c->nproc = 64;
	c->fsize_mb = 64;
	c->nofile = 64;
	c->scratch_mb = 64;
	c->user = BOT_USER_AUTO;
	c->sandbox = SANDBOX_AUTO;
	c->cpu = -1;
}

void
contain_set(const struct contain *c)
{
	conf = c;
}

const struct contain *
contain_get(void)
{
	if (conf == NULL) {
		if (!defaults_set) {
			contain_init(&defaults);
			defaults_set = 1;
		}
		return &defaults;
	}
	return conf;
}

void
contain_watchdog(void)
{
	const struct contain *c = contain_get();

	if (c->user != BOT_USER_AUTO || c->no_sweep || geteuid() != 0)
		return;
	sweep_watchdog(BOT_UID_BASE + (unsigned)getpid() * 64u, 64);
}

void
contain_self(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_SET_DUMPABLE, 0);
}

/* Appends a copy of s to a NULL-terminated vector. */
static void
vec_add(char ***v, int *n, const char *s)
{
	*v = xreallocarray(*v, (size_t)*n + 2, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* Sets KEY=VALUE in an environment vector, replacing the key's entry. */
static void
env_put(char ***v, int *n, const char *kv)
{
	size_t k;
	int i;

	k = strcspn(kv, "=");
	for (i = 0; i < *n; i++)
		if (strncmp((*v)[i], kv, k) == 0 && (*v)[i][k] == '=') {
			free((*v)[i]);
			(*v)[i] = xstrdup(kv);
			return;
		}
	vec_add(v, n, kv);
}

/* Returns 1 if path is dir or inside it (both absolute, resolved). */
static int
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' ||
	    path[n] == '/');
}

/*
 * Finds the sandbox's launcher; 0 if there is one: bwrap at
 * $CARDARENA_BWRAP (the operator's choice, and the tests'), else on Linux
 * our own (nsbox.c: the same words, without bwrap's exec and the shell's),
 * else bwrap in PATH, then /usr/bin.
 */
static int
find_bwrap(void)
{
	const char *path;
	char *copy, *p, *dir;

	if (bwrap_path[0] != '\0')
		return 0;
	if ((path = getenv("CARDARENA_BWRAP")) != NULL && *path != '\0') {
		if (access(path, X_OK) == -1)
			return -1;
		strlcpy(bwrap_path, path, sizeof bwrap_path);
		return 0;
	}
#ifdef __linux__
	native = 1;
	strlcpy(bwrap_path, "cardarena", sizeof bwrap_path);
	return 0;
#endif
	if ((path = getenv("PATH")) == NULL)
		path = BOT_PATH;
	copy = xstrdup(path);
	for (p = copy; (dir = strsep(&p, ":")) != NULL; ) {
		if (*dir == '\0')
			continue;
		snprintf(bwrap_path, sizeof bwrap_path, "%s/bwrap", dir);
		if (access(bwrap_path, X_OK) == 0) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	if (access("/usr/bin/bwrap", X_OK) == 0) {
		strlcpy(bwrap_path, "/usr/bin/bwrap", sizeof bwrap_path);
		return 0;
	}
	bwrap_path[0] = '\0';
	return -1;
}

/* Appends bwrap's --size of the scratch limit, if there is one. */
static void
scratch_size(char ***v, int *n)
{
	char num[32];

	if (contain_get()->scratch_mb <= 0)
		return;
	snprintf(num, sizeof num, "%ld", contain_get()->scratch_mb << 20);
	vec_add(v, n, "--size");
	vec_add(v, n, num);
}

/* A path of a bot's view: shown, hidden, or one of its own. */
struct vpath {
	char	*path;		/* resolved */
	int	 dir;		/* a directory (else a file) */
	int	 given;		/* own: --bot-dir */
};

/*
 * What one bot sees of the file system (SECURITY.md), resolved before the
 * fork: under the sandbox the directories bound read-only for it, and
 * what is hidden from it, sandboxed (under a bound directory) or isolated.
 */
struct view {
	char		 cwd[PATH_MAX];
	int		 cwd_shown;	/* sandbox: the working directory */
	int		 cwd_make;	/* sandbox: an empty one to run in */
	struct vpath	*mine;		/* its own directories */
	int		 nmine;
	struct vpath	*bind;		/* sandbox: shown, read-only */
	int		 nbind;
	struct vpath	*hide;		/* hidden */
	int		 nhide;
};

static void	 view_build(struct view *, char *const *, int, int);
static void	 view_free(struct view *);

/*
 * Appends a copy of path to a vpath list that the caller knows does not
 * hold it.  Every list grows here, its room in powers of two, so that one
 * of thousands (a ladder's entrants hidden) grows in a few steps.
 */
static void
vpath_push(struct vpath **v, int *n, const char *path, int dir, int given)
{
	if ((*n & (*n - 1)) == 0)
		*v = xreallocarray(*v, *n == 0 ? 1 : (size_t)*n * 2,
		    sizeof **v);
	(*v)[*n].path = xstrdup(path);
	(*v)[*n].dir = dir;
	(*v)[(*n)++].given = given;
}

/* Appends a copy of path to a vpath list, unless it is there already. */
static void
vpath_add(struct vpath **v, int *n, const char *path, int dir, int given)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i].path, path) == 0) {
			(*v)[i].given |= given;
			return;
		}
	vpath_push(v, n, path, dir, given);
}

/* Orders two vpaths by path. */
static int
vpath_cmp(const void *a, const void *b)
{
	return strcmp(((const struct vpath *)a)->path,
	    ((const struct vpath *)b)->path);
}

/*
 * Sorts a vpath list by path (a directory before what it holds) and drops
 * the repeats, their given flags joined: vpath_add's result for a long
 * list, without its scan at each path.
 */
static void
vpath_uniq(struct vpath *v, int *n)
{
	int i, k;

	if (*n < 2)
		return;
	qsort(v, (size_t)*n, sizeof *v, vpath_cmp);
	for (i = 1, k = 0; i < *n; i++)
		if (strcmp(v[i].path, v[k].path) == 0) {
			v[k].given |= v[i].given;
			free(v[i].path);
		} else
			v[++k] = v[i];
	*n = k + 1;
}

/* The index of a directory of v that holds path (or is it), or -1. */
static int
vpath_holds(const struct vpath *v, int n, const char *path)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].dir && under(path, v[i].path))
			return i;
	return -1;
}

/* Frees a vpath list. */
static void
vpath_free(struct vpath *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/*
 * The directory a word of a bot's command names (resolved into real): the
 * word itself for a directory, else its file's directory; 0 for a word
 * that names no path, or the system's (/usr, /etc, /dev, /proc, /sys),
 * the root, or a directory every process shares (/tmp, /var/tmp).
 */
static int
named_dir(const char *w, char *real)
{
	static const char *const sys[] = { "/usr", "/etc", "/dev", "/proc",
	    "/sys", NULL };
	struct stat sb;
	int i;

	if (strchr(w, '/') == NULL || realpath(w, real) == NULL ||
	    stat(real, &sb) == -1)
		return 0;
	if (!S_ISDIR(sb.st_mode)) {
		*strrchr(real, '/') = '\0';
		if (real[0] == '\0')
			return 0;
	}
	for (i = 0; sys[i] != NULL; i++)
		if (under(real, sys[i]))
			return 0;
	return strcmp(real, "/") != 0 && strcmp(real, "/tmp") != 0 &&
	    strcmp(real, "/var/tmp") != 0;
}

/*
 * Builds v, the view of bot (its index, or -1) whose command is argv,
 * sandboxed (sandbox) or isolated.  Its own directories (--bot-dir, and
 * those its command names) are its; the other bots' are hidden from it
 * (unless they hold one it was given, or, named by their command alone,
 * one of its own, or it has none: a command that names no directory, as
 * sh -c '...', may run any program), as is what the caller hides
 * (--sandbox-hide: hidden wins, even over a directory its command names)
 * and the log's directory (unless it holds one of its own).  Under the
 * sandbox a bot given a directory sees it and what its command names, not
 * the working directory (it runs in an empty one of that path); a bot
 * given none also sees the working directory, unless it lies in a hidden
 * one; what is hidden under none of that is out of sight anyway, and left
 * out.  Isolated, every file system is there to see but what is hidden;
 * nor can the working directory, or a directory holding it, be hidden.
 */
static void
view_build(struct view *v, char *const *argv, int bot, int sandbox)
{
	const struct contain *c = contain_get();
	struct vpath *hard = NULL, *keep = NULL;
	char real[PATH_MAX];
	struct stat sb;
	int i, j, nhard = 0, nkeep = 0, given = 0, vis;

	memset(v, 0, sizeof *v);
	if (getcwd(v->cwd, sizeof v->cwd) == NULL)
		strlcpy(v->cwd, "/", sizeof v->cwd);
	for (i = 0; i < c->n_own; i++)
		if (c->own[i].bot == bot) {
			vpath_add(&v->mine, &v->nmine, c->own[i].path, 1,
			    c->own[i].given);
			given |= c->own[i].given;
		}
	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		if (named_dir(argv[i], real))
			vpath_add(&v->mine, &v->nmine, real, 1, 0);
	for (i = 0; i < c->n_hide; i++)
		if (realpath(c->hide[i], real) != NULL &&
		    stat(real, &sb) == 0 && strcmp(real, "/") != 0)
			vpath_push(&hard, &nhard, real, S_ISDIR(sb.st_mode), 0);
	vpath_uniq(hard, &nhard);
	/* whether its working directory is in its sight */
	vis = !sandbox || (!given && vpath_holds(hard, nhard, v->cwd) == -1 &&
	    strcmp(v->cwd, "/") != 0);
	v->cwd_shown = sandbox && vis && strcmp(v->cwd, "/tmp") != 0;
	for (i = 0; i < nhard; i++)
		if (!hard[i].dir || !vis || !under(v->cwd, hard[i].path))
			vpath_push(&v->hide, &v->nhide, hard[i].path,
			    hard[i].dir, 0);
	for (i = 0; i < c->n_own; i++) {
		/* a command naming no directory (sh -c '...') is kept
		 * from the directories given to others alone */
		if (c->own[i].bot == bot || (!c->own[i].given &&
		    v->nmine == 0) || (vis && under(v->cwd,
		    c->own[i].path)) || vpath_holds(hard, nhard,
		    c->own[i].path) != -1)
			continue;
		for (j = 0; j < v->nmine; j++)
			if (under(v->mine[j].path, c->own[i].path) &&
			    (v->mine[j].given || !c->own[i].given))
				break;
		if (j == v->nmine)
			vpath_add(&v->hide, &v->nhide, c->own[i].path, 1, 0);
	}
	if (c->log_dir != NULL && realpath(c->log_dir, real) != NULL &&
	    !(vis && under(v->cwd, real)) && strcmp(real, "/") != 0) {
		for (j = 0; j < v->nmine && !under(v->mine[j].path, real); j++)
			;
		if (j == v->nmine)
			vpath_add(&v->hide, &v->nhide, real, 1, 0);
	}
	vpath_free(hard, nhard);
	if (!sandbox)
		return;
	if (v->cwd_shown)
		vpath_add(&v->bind, &v->nbind, v->cwd, 1, 0);
	for (i = 0; i < v->nmine; i++)
		if (!(v->cwd_shown && under(v->mine[i].path, v->cwd)) &&
		    vpath_holds(v->hide, v->nhide, v->mine[i].path) == -1)
			vpath_add(&v->bind, &v->nbind, v->mine[i].path, 1, 0);
	for (i = 0; i < c->n_bind; i++)
		if (realpath(c->bind[i], real) != NULL &&
		    vpath_holds(v->hide, v->nhide, real) == -1)
			vpath_add(&v->bind, &v->nbind, real, 1, 0);
	v->cwd_make = !v->cwd_shown && strcmp(v->cwd, "/") != 0 &&
	    vpath_holds(v->bind, v->nbind, v->cwd) == -1;
	/* hidden where a bind would show it; else out of sight anyway */
	for (i = 0; i < v->nhide; i++)
		if (vpath_holds(v->bind, v->nbind, v->hide[i].path) != -1 &&
		    !out_of_reach(v->hide[i].path))
			vpath_push(&keep, &nkeep, v->hide[i].path,
			    v->hide[i].dir, 0);
	vpath_free(v->hide, v->nhide);
	v->hide = keep;
	v->nhide = nkeep;
}

/*
 * 1 if a bot of a uid of its own (as root: no file's owner or group)
 * cannot reach path at all: a directory above it is not searchable by
 * others.  bwrap, run as that uid, could not make the mount point that
 * would cover it (every bot crashed where a tournament's output lay in a
 * directory of mode 0700, as a ladder's spool does), and needs none.
 */
static int
out_of_reach(const char *path)
{
	const struct contain *c = contain_get();
	char up[PATH_MAX], *e;
	struct stat sb;

	if (geteuid() != 0 || c->user != BOT_USER_AUTO ||
	    strlcpy(up, path, sizeof up) >= sizeof up)
		return 0;
	while ((e = strrchr(up, '/')) != NULL && e != up) {
		*e = '\0';
		if (stat(up, &sb) == 0 && !(sb.st_mode & S_IXOTH))
			return 1;
	}
	return 0;
}

/* Frees what view_build allocated. */
static void
view_free(struct view *v)
{
	vpath_free(v->mine, v->nmine);
	vpath_free(v->bind, v->nbind);
	vpath_free(v->hide, v->nhide);
	memset(v, 0, sizeof *v);
}

/*
 * The bwrap words before the bot's argv: new PID, network, IPC, UTS (and
 * user, cgroup when it can) namespaces; the system read-only; the bot's
 * view (view_build): its directories read-only, what is hidden from it
 * covered (a directory by an empty read-only tmpfs, a file by /dev/null);
 * a /dev of the five devices a program may open (no pty, no tty: --dev's
 * devpts and binds were its largest step after the namespaces) and the
 * links to /proc/self/fd; a private /tmp and /dev/shm of the scratch
 * limit each; bwrap's own root, which holds /dev and every mount point,
 * read-only (it was writable, and of no size limit); the filter of
 * SANDBOX_SECCOMP (with seccomp); then the shell that gives the bot its
 * stdin (SANDBOX_STDIN) and, with ready, first writes a byte to
 * SANDBOX_READY, which it closes, and with go then waits for our word on
 * SANDBOX_GO (contain_go).
 */
static void
sandbox_args(char ***v, int *n, char *const *argv, int bot, int seccomp,
    int ready, int go)
{
	static const char *const sys_dirs[] = { "/usr", "/etc", "/opt", NULL };
	static const char *const links[] = { "/bin", "/sbin", "/lib", "/lib32",
	    "/lib64", "/libx32", NULL };
	static const char *const devs[] = { "null", "zero", "full", "random",
	    "urandom", NULL };
	static const char *const dev_links[] = { "/dev/fd", "/proc/self/fd",
	    "/dev/stdin", "/proc/self/fd/0", "/dev/stdout", "/proc/self/fd/1",
	    "/dev/stderr", "/proc/self/fd/2", NULL };
	char target[PATH_MAX], **gone = NULL;
	struct view vw;
	struct stat sb;
	ssize_t k;
	int i, j, ngone = 0;

	if (!native)
		vec_add(v, n, bwrap_path);
	vec_add(v, n, "--die-with-parent");
	vec_add(v, n, "--unshare-all");
	/*
	 * No --new-session: a session of its own is an autogroup of its own
	 * to the scheduler, whose wake-ups across groups cost every decision
	 * (bots run by setsid took 2 to 3 times the wall per decision of
	 * the same bots without).  The session's terminal is out of its
	 * reach anyway: no tty device in its /dev, no descriptor of one, and
	 * the filter refuses TIOCSTI (seccomp.c).
	 */
	vec_add(v, n, "--hostname");
	vec_add(v, n, "cardarena");
	for (i = 0; sys_dirs[i] != NULL; i++) {
		vec_add(v, n, "--ro-bind-try");
		vec_add(v, n, sys_dirs[i]);
		vec_add(v, n, sys_dirs[i]);
	}
	for (i = 0; links[i] != NULL; i++) {
		if (lstat(links[i], &sb) == -1)
			continue;
		if (S_ISLNK(sb.st_mode)) {
			if ((k = readlink(links[i], target, sizeof target -
			    1)) <= 0)
				continue;
			target[k] = '\0';
			vec_add(v, n, "--symlink");
			vec_add(v, n, target);
		} else
			vec_add(v, n, "--ro-bind");
		vec_add(v, n, links[i]);
		if (!S_ISLNK(sb.st_mode))
			vec_add(v, n, links[i]);
	}
	vec_add(v, n, "--proc");
	vec_add(v, n, "/proc");
	for (i = 0; devs[i] != NULL; i++) {
		snprintf(target, sizeof target, "/dev/%s", devs[i]);
		vec_add(v, n, "--dev-bind");
		vec_add(v, n, target);
		vec_add(v, n, target);
	}
	for (i = 0; dev_links[i] != NULL; i += 2) {
		vec_add(v, n, "--symlink");
		vec_add(v, n, dev_links[i + 1]);
		vec_add(v, n, dev_links[i]);
	}
	scratch_size(v, n);
	vec_add(v, n, "--tmpfs");
	vec_add(v, n, "/dev/shm");
	scratch_size(v, n);
	vec_add(v, n, "--tmpfs");
	vec_add(v, n, "/tmp");
	view_build(&vw, argv, bot, 1);
	for (i = 0; i < vw.nbind; i++) {
		vec_add(v, n, "--ro-bind");
		vec_add(v, n, vw.bind[i].path);
		vec_add(v, n, vw.bind[i].path);
	}
	if (vw.cwd_make) {
		vec_add(v, n, "--dir");
		vec_add(v, n, vw.cwd);
	}
	/*
	 * What lies in a directory hidden already is out of sight (and bwrap
	 * could not make its mount point there).
	 */
	for (i = 0; i < vw.nhide; i++) {
		for (j = 0; j < ngone && !under(vw.hide[i].path, gone[j]); j++)
			;
		if (j < ngone)
			continue;
		if (vw.hide[i].dir) {
			vec_add(v, n, "--size");
			vec_add(v, n, "4096");
			vec_add(v, n, "--perms");
			vec_add(v, n, "0000");
			vec_add(v, n, "--tmpfs");
			vec_add(v, n, vw.hide[i].path);
			vec_add(v, n, "--remount-ro");
			vec_add(&gone, &ngone, vw.hide[i].path);
		} else {
			vec_add(v, n, "--ro-bind");
			vec_add(v, n, "/dev/null");
		}
		vec_add(v, n, vw.hide[i].path);
	}
	for (j = 0; j < ngone; j++)
		free(gone[j]);
	free(gone);
	/* bwrap's own root, where it made /dev and the mount points */
	vec_add(v, n, "--remount-ro");
	vec_add(v, n, "/");
	if (seccomp) {
		vec_add(v, n, "--seccomp");
		vec_add(v, n, SANDBOX_SECCOMP_S);
	}
	vec_add(v, n, "--chdir");
	vec_add(v, n, vw.cwd);
	view_free(&vw);
	vec_add(v, n, "--");
	if (native)
		return;	/* nsbox_exec does the shell's part */
	vec_add(v, n, "/bin/sh");
	vec_add(v, n, "-c");
	if (go)
		vec_add(v, n, "printf x >&" SANDBOX_READY_S "; read -r _ <&"
		    SANDBOX_GO_S "; exec \"$@\" <&" SANDBOX_STDIN_S " "
		    SANDBOX_STDIN_S "<&- " SANDBOX_READY_S ">&- " SANDBOX_GO_S
		    "<&-");
	else if (ready)
		vec_add(v, n, "printf x >&" SANDBOX_READY_S "; exec \"$@\" <&"
		    SANDBOX_STDIN_S " " SANDBOX_STDIN_S "<&- " SANDBOX_READY_S
		    ">&-");
	else
		vec_add(v, n, "exec \"$@\" <&" SANDBOX_STDIN_S " "
		    SANDBOX_STDIN_S "<&-");
	vec_add(v, n, "sh");
}

/* Counts the processes and threads of our own uid (for RLIMIT_NPROC). */
static long
own_processes(void)
{
	char path[300];
	struct dirent *d;
	struct stat sb;
	DIR *dp;
	long count = 0;
	uid_t me = getuid();
	DIR *tp;
	struct dirent *t;

	if ((dp = opendir("/proc")) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/task", d->d_name);
		if (stat(path, &sb) == -1 || sb.st_uid != me)
			continue;
		if ((tp = opendir(path)) == NULL)
			continue;
		while ((t = readdir(tp)) != NULL)
			if (t->d_name[0] != '.')
				count++;
		closedir(tp);
	}
	closedir(dp);
	return count;
}

/* The options of an isolated bot's scratch tmpfs: the scratch limit. */
static void
scratch_opts(struct jailed *jl)
{
	const struct contain *c = contain_get();
	char size[32] = "";

	if (c->scratch_mb > 0)
		snprintf(size, sizeof size, "size=%ldm,", c->scratch_mb);
	snprintf(jl->scratch_opts, sizeof jl->scratch_opts,
	    "%snr_inodes=16384,mode=0700,uid=%u,gid=%u", size,
	    (unsigned)jl->uid, (unsigned)jl->uid);
}

void
contain_prepare(struct jailed *jl, char *const *argv, int bot)
{
	static const char *const pass[] = { "LANG", "LC_ALL", "LC_CTYPE",
	    "TZ", NULL };
	const struct contain *c = contain_get();
	char kv[PATH_MAX + 16], *copy, *p, *w;
	const char *v;
	int n = 0, i;

	memset(jl, 0, sizeof *jl);
	jl->uid = (uid_t)-1;
	jl->seccomp_fd = -1;
	jl->ready[0] = jl->ready[1] = -1;
	jl->go[0] = jl->go[1] = -1;
	if (c->user == BOT_USER_AUTO && geteuid() == 0)
		jl->uid = (uid_t)(BOT_UID_BASE + (unsigned)getpid() * 64u +
		    spawn_seq++ % 64u);
	if (c->nproc > 0)
		jl->lim_nproc = (int)(jl->uid != (uid_t)-1 ? c->nproc :
		    c->nproc + own_processes());
	jl->filter = !c->no_filter && !c->trusted;
	/* bwrap does all this its own way (and needs sockets to do it) */
	if (c->sandbox != 1) {
		jl->nonet = jl->filter;
		scratch_opts(jl);
		jl->isolate = jl->uid != (uid_t)-1 && !c->no_isolate &&
		    !c->trusted && isolation_works(jl);
		if (jl->isolate)
			isolate_hides(jl, argv, bot);
	}
	jl->relayed = jl->isolate || c->sandbox == 1;
	if (jl->filter)
		seccomp_build(jl->nonet);
	/* the sandbox's, without sockets: installed in the bot by our
	   launcher, or given to bwrap, which needs them */
	if (jl->filter && c->sandbox == 1 && find_bwrap() == 0) {
		if (native)
			seccomp_build(1);
		else if ((jl->seccomp_fd = seccomp_pipe()) == -2) {
			/* no pipe for it: the bot is not started without it */
			jl->seccomp_fd = -1;
			jl->no_filter = 1;
		}
	}
	vec_add(&jl->envp, &n, "PATH=" BOT_PATH);
	if (jl->isolate) {
		vec_add(&jl->envp, &n, "HOME=" BOT_SCRATCH);
		vec_add(&jl->envp, &n, "TMPDIR=" BOT_SCRATCH);
	} else
		vec_add(&jl->envp, &n, "HOME=/tmp");
	for (i = 0; pass[i] != NULL; i++)
		if ((v = getenv(pass[i])) != NULL) {
			snprintf(kv, sizeof kv, "%s=%s", pass[i], v);
			vec_add(&jl->envp, &n, kv);
		}
	/* The operator's pass-through list: CARDARENA_BOT_ENV=NAME,NAME */
	if ((v = getenv("CARDARENA_BOT_ENV")) != NULL) {
		copy = xstrdup(v);
		for (p = copy; (w = strsep(&p, ", :")) != NULL; )
			if (*w != '\0' && (v = getenv(w)) != NULL) {
				snprintf(kv, sizeof kv, "%s=%s", w, v);
				env_put(&jl->envp, &n, kv);
			}
		free(copy);
	}
	for (i = 0; i < c->n_env; i++)
		env_put(&jl->envp, &n, c->env[i]);
	n = 0;
	if (c->sandbox == 1 && find_bwrap() == 0) {
		/* not yet proven: its start tells (else it is not asked) */
		if (unproven != NULL && !checking)
			(void)pipe2(jl->ready, O_CLOEXEC);
		/* pinned: bwrap's set-up on any CPU, the bot on ours */
		if (pinned >= 0 && CPU_COUNT(&wide) > 1 && !checking &&
		    (jl->ready[0] != -1 || pipe2(jl->ready, O_CLOEXEC) == 0) &&
		    pipe2(jl->go, O_CLOEXEC) == -1)
			jl->go[0] = jl->go[1] = -1;
		sandbox_args(&jl->argv, &n, argv, bot, jl->seccomp_fd != -1,
		    jl->ready[0] != -1, jl->go[0] != -1);
		jl->stdin_fd = SANDBOX_STDIN;
		jl->native = native;
	}
	for (i = 0; argv[i] != NULL; i++)
		vec_add(&jl->argv, &n, argv[i]);
}

void
contain_free(struct jailed *jl)
{
	int i;

	for (i = 0; jl->argv != NULL && jl->argv[i] != NULL; i++)
		free(jl->argv[i]);
	for (i = 0; jl->envp != NULL && jl->envp[i] != NULL; i++)
		free(jl->envp[i]);
	for (i = 0; jl->hide_dirs != NULL && jl->hide_dirs[i] != NULL; i++)
		free(jl->hide_dirs[i]);
	for (i = 0; jl->hide_files != NULL && jl->hide_files[i] != NULL; i++)
		free(jl->hide_files[i]);
	free(jl->argv);
	free(jl->envp);
	free(jl->hide_dirs);
	free(jl->hide_files);
	jl->argv = jl->envp = jl->hide_dirs = jl->hide_files = NULL;
	if (jl->seccomp_fd != -1)
		close(jl->seccomp_fd);
	jl->seccomp_fd = -1;
	for (i = 0; i < 2; i++) {
		if (jl->ready[i] != -1)
			close(jl->ready[i]);
		if (jl->go[i] != -1)
			close(jl->go[i]);
	}
	jl->ready[0] = jl->ready[1] = -1;
	jl->go[0] = jl->go[1] = -1;
}

int
contain_bot_dir(struct contain *c, int bot, const char *dir, char *cause,
    size_t len)
{
	char real[PATH_MAX];
	struct stat sb;

	if (realpath(dir, real) == NULL || stat(real, &sb) == -1) {
		snprintf(cause, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(cause, len, "%s: not a directory", dir);
		return -1;
	}
	own_add(c, real, bot, 1);
	return 0;
}

void
contain_bot_argv(struct contain *c, int bot, char *const *argv)
{
	char real[PATH_MAX];
	int i;

	for (i = 0; argv[i] != NULL; i++)
		if (named_dir(argv[i], real))
			own_add(c, real, bot, 0);
}

/* Adds path (resolved) to c's own directories of bot, once. */
static void
own_add(struct contain *c, const char *path, int bot, int given)
{
	int i;

	for (i = 0; i < c->n_own; i++)
		if (c->own[i].bot == bot && strcmp(c->own[i].path, path) ==
		    0) {
			c->own[i].given |= given;
			return;
		}
	c->own = xreallocarray(c->own, (size_t)c->n_own + 1, sizeof *c->own);
	c->own[c->n_own].path = xstrdup(path);
	c->own[c->n_own].bot = bot;
	c->own[c->n_own++].given = given;
}

int
contain_own_check(const struct contain *c, char *cause, size_t len)
{
	char real[PATH_MAX];
	int i, j;

	for (i = 0; i < c->n_hide; i++) {
		if (realpath(c->hide[i], real) == NULL)
			continue;
		for (j = 0; j < c->n_own; j++)
			if (c->own[j].given && under(c->own[j].path, real)) {
				snprintf(cause, len, "--bot-dir %d=%s lies "
				    "inside %s, which is hidden from every bot",
				    c->own[j].bot, c->own[j].path, c->hide[i]);
				return -1;
			}
	}
	return 0;
}

void
contain_clear(struct contain *c)
{
	int i;

	for (i = 0; i < c->n_own; i++)
		free(c->own[i].path);
	free(c->own);
	c->own = NULL;
	c->n_own = 0;
}

/*
 * Sets the limit res of a bot to cur (soft) and max (hard), never above
 * the referee's own hard limit: raising it needs a privilege the referee
 * may not have (an operator's `ulimit -f`), and a bot gets no more than
 * the referee has.
 */
static int
set_limit(int res, rlim_t cur, rlim_t max)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) == 0 && rl.rlim_max != RLIM_INFINITY) {
		if (max > rl.rlim_max)
			max = rl.rlim_max;
		if (cur > max)
			cur = max;
	}
	rl.rlim_cur = cur;
	rl.rlim_max = max;
	return setrlimit(res, &rl);
}

int
contain_child(const struct jailed *jl)
{
	const struct contain *c = contain_get();
	gid_t gid;
	pid_t pid;

	if (jl->no_filter) {
		/* its filter was lost (prepare had no descriptor for it) */
		errno = EMFILE;
		return -1;
	}
	/* bwrap's set-up on any of our CPUs; contain_go pins the bot */
	if (jl->go[0] != -1)
		sched_setaffinity(0, sizeof wide, &wide);
	if (set_limit(RLIMIT_CORE, 0, 0) == -1)
		return -1;
	/* CPU: SIGXCPU at the limit, SIGKILL a second later */
	if (c->cpu_s > 0 && set_limit(RLIMIT_CPU, (rlim_t)c->cpu_s,
	    (rlim_t)c->cpu_s + 1) == -1)
		return -1;
	if (c->mem_mb > 0 && set_limit(RLIMIT_AS, (rlim_t)c->mem_mb << 20,
	    (rlim_t)c->mem_mb << 20) == -1)
		return -1;
	if (c->fsize_mb > 0 && set_limit(RLIMIT_FSIZE, (rlim_t)c->fsize_mb <<
	    20, (rlim_t)c->fsize_mb << 20) == -1)
		return -1;
	/* valgrind keeps descriptors of its own above any such limit */
	if (c->nofile > 0 && !c->trusted && set_limit(RLIMIT_NOFILE,
	    (rlim_t)c->nofile, (rlim_t)c->nofile) == -1)
		return -1;
	if (jl->lim_nproc > 0 && set_limit(RLIMIT_NPROC,
	    (rlim_t)jl->lim_nproc, (rlim_t)jl->lim_nproc) == -1)
		return -1;
	if (jl->isolate) {
		if (isolate(jl) == -1 || (pid = fork()) == -1)
			return -1;
		if (pid > 0)
			nsbox_init(pid);
	}
	if (jl->uid != (uid_t)-1) {
		gid = (gid_t)jl->uid;
		if (setgroups(0, NULL) == -1 || setresgid(gid, gid, gid) ==
		    -1 || setresuid(jl->uid, jl->uid, jl->uid) == -1)
			return -1;
	}
	if (jl->filter && seccomp_install(jl->nonet) == -1)
		return -1;
	environ = jl->envp;
	return 0;
}

int
contain_exec(const struct jailed *jl, int status)
{
	if (jl->native)
		nsbox_exec(jl->argv, status, SANDBOX_STDIN, jl->ready[1] !=
		    -1 ? SANDBOX_READY : -1, jl->go[0] != -1 ? SANDBOX_GO : -1,
		    jl->filter);
	execvp(jl->argv[0], jl->argv);
	return -1;
}

pid_t
contain_fork(const struct jailed *jl)
{
#ifdef __linux__
	static int own = -1;
	pid_t pid;
	int e;

	if (!jl->isolate)
		return fork();
	/* our PID namespace, to come back to for our later children */
	if (own == -1 && (own = open("/proc/self/ns/pid", O_RDONLY |
	    O_CLOEXEC)) == -1)
		return -1;
	if (unshare(CLONE_NEWPID) == -1)
		return -1;
	pid = fork();
	if (pid == 0)
		return 0;
	e = errno;
	if (setns(own, CLONE_NEWPID) == -1)
		err(1, "setns back to our own PID namespace");
	errno = e;
	return pid;
#else
	return fork();
#endif
}

/*
 * Isolates a bot run as a uid of its own (as root) without the sandbox,
 * in the first process of a PID namespace of its own (contain_fork): in a
 * mount namespace of its own every file system is read-only, /proc shows
 * the namespace's processes only, and BOT_SCRATCH (its HOME and TMPDIR)
 * and /dev/shm are one private tmpfs of the scratch limit, gone with it;
 * in an IPC namespace of its own it meets no other's System V or POSIX
 * IPC objects.  The uid alone would leave it /tmp and every directory
 * anyone may write: a place to keep the deal of one seat rotation for the
 * next, or to pass cards to another bot; and every process in sight.  In
 * the child, as root; -1 (errno set) if it fails.
 */
static int
isolate(const struct jailed *jl)
{
#ifdef __linux__
	struct mount_attr ma;
	int i, fd;

	if (unshare(CLONE_NEWNS | CLONE_NEWIPC) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) == -1)
		return -1;
	/*
	 * The files first: a directory hidden after covers them too.  ENOENT:
	 * under a directory already hidden, it is out of sight.  Each is
	 * covered by an empty file of root's with mode 0, made on a tmpfs
	 * mounted for the moment on BOT_SCRATCH: opening it fails (EACCES) as
	 * the log's own mode would, where /dev/null would read as empty.
	 */
	if (jl->hide_files != NULL && jl->hide_files[0] != NULL) {
		if (mount("tmpfs", BOT_SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV |
		    MS_NOEXEC, "size=4k,nr_inodes=2,mode=0700") == -1 ||
		    (fd = open(BOT_SCRATCH "/hidden", O_WRONLY | O_CREAT |
		    O_EXCL | O_CLOEXEC, 0)) == -1)
			return -1;
		close(fd);
		for (i = 0; jl->hide_files[i] != NULL; i++)
			if (mount(BOT_SCRATCH "/hidden", jl->hide_files[i],
			    NULL, MS_BIND, NULL) == -1 && errno != ENOENT)
				return -1;
		if (umount2(BOT_SCRATCH, MNT_DETACH) == -1)
			return -1;
	}
	for (i = 0; jl->hide_dirs != NULL && jl->hide_dirs[i] != NULL; i++)
		if (mount("tmpfs", jl->hide_dirs[i], "tmpfs", MS_NOSUID |
		    MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=1,mode=0") == -1 &&
		    errno != ENOENT)
			return -1;
	memset(&ma, 0, sizeof ma);
	ma.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;
	if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ma,
	    sizeof ma) == -1)
		return -1;
	if (mount("tmpfs", BOT_SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV,
	    jl->scratch_opts) == -1)
		return -1;
	if (access("/dev/shm", F_OK) == 0 && mount(BOT_SCRATCH, "/dev/shm",
	    NULL, MS_BIND, NULL) == -1)
		return -1;
	return 0;
#else
	(void)jl;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * What an isolated bot must not see (its view, view_build): a directory
 * under an empty tmpfs, a file under an empty file no bot may open.
 */
static void
isolate_hides(struct jailed *jl, char *const *argv, int bot)
{
	struct view vw;
	int i, nd = 0, nf = 0;

	view_build(&vw, argv, bot, 0);
	for (i = 0; i < vw.nhide; i++)
		if (vw.hide[i].dir)
			vec_add(&jl->hide_dirs, &nd, vw.hide[i].path);
		else
			vec_add(&jl->hide_files, &nf, vw.hide[i].path);
	view_free(&vw);
}

/*
 * Whether isolate() works here (it needs CAP_SYS_ADMIN, which a container
 * may withhold, and BOT_SCRATCH), tried once in a child: 0 if it does,
 * else the errno it failed with (-1: no child).
 */
static int
isolation_probe(const struct jailed *jl)
{
	static int result = -2;
	struct jailed pj = *jl;
	int status;
	pid_t pid;

	if (result != -2)
		return result;
	pj.isolate = 1;
	if ((pid = contain_fork(&pj)) == 0)
		_exit(isolate(jl) == 0 ? 0 : errno > 0 && errno < 256 ?
		    errno : 255);
	if (pid == -1 && errno != EAGAIN && errno != ENOMEM) {
		result = errno > 0 && errno < 256 ? errno : 255;
		return result;
	}
	while (pid != -1 && waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (pid == -1 || !WIFEXITED(status))
		result = -1;
	else
		result = WEXITSTATUS(status);
	return result;
}

/* Says why bots cannot be isolated, from isolation_probe's result. */
static void
isolation_cause(int e, char *cause, size_t len)
{
	snprintf(cause, len, "bots cannot be isolated here (%s%s): they share "
	    "/tmp, %s and /dev/shm, where one may leave what it saw for "
	    "another", e == -1 ? "no child" : strerror(e), e == ENOSYS ?
	    ": a kernel without namespaces, or valgrind, which cannot make "
	    "them (see CARDARENA_MEMCHECK)" : "", BOT_SCRATCH);
}

/* isolation_probe, with a warning once if the bots cannot be isolated. */
static int
isolation_works(const struct jailed *jl)
{
	char cause[256];
	int e;

	if ((e = isolation_probe(jl)) != 0 && !isolation_warned) {
		isolation_cause(e, cause, sizeof cause);
		warnx("%s; the sandbox isolates them", cause);
		isolation_warned = 1;
	}
	return e == 0;
}

int
contain_pin(int cpu, char *cause, size_t len)
{
	cpu_set_t set;

	if (pinned == -1 && sched_getaffinity(0, sizeof wide, &wide) == -1)
		CPU_ZERO(&wide);
	CPU_ZERO(&set);
	CPU_SET((size_t)cpu, &set);
	if (cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof set, &set) == -1) {
		snprintf(cause, len, "--cpu %d: not a CPU this process may run "
		    "on (%s)", cpu, cpu >= CPU_SETSIZE ? "too large" :
		    strerror(errno));
		return -1;
	}
	pinned = cpu;
	return 0;
}

/*
 * Pins pid, each of its threads and, to depth levels below, their
 * children (sweep_task_children) to set.
 */
static void
pin_tree(pid_t pid, const cpu_set_t *set, int depth)
{
	char path[64];
	struct dirent *d;
	DIR *dp;
	pid_t tid, *kids;
	size_t i, n;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if ((dp = opendir(path)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		tid = (pid_t)strtol(d->d_name, NULL, 10);
		sched_setaffinity(tid, sizeof *set, set);
		if (depth == 0 ||
		    sweep_task_children(pid, tid, &kids, &n) == -1)
			continue;
		for (i = 0; i < n; i++)
			pin_tree(kids[i], set, depth - 1);
		free(kids);
	}
	closedir(dp);
}

void
contain_go(pid_t pid, int go)
{
	cpu_set_t set;

	if (pinned >= 0) {
		CPU_ZERO(&set);
		CPU_SET((size_t)pinned, &set);
		/* bwrap, its init, the shell at the gate: nothing forks now */
		pin_tree(pid, &set, 3);
	}
	(void)write(go, "\n", 1);
	close(go);
}

int
contain_start(struct contain *c, char *cause, size_t len)
{
	const struct contain *was = conf;
	char why[512];
	int e;

	if (c->cpu >= 0 && contain_pin(c->cpu, cause, len) == -1)
		return -1;
	if (c->trusted)
		c->sandbox = 0;
	if (c->sandbox == SANDBOX_CHECKED) {
		/* a runner checked it just now: a bot that cannot start
		 * under it fails as any bot that cannot start */
		c->sandbox = 1;
		return 0;
	}
	if (c->sandbox == SANDBOX_AUTO && find_bwrap() == 0) {
		/* the first bots' starts tell whether it works */
		c->sandbox = 1;
		unproven = c;
		return 0;
	}
	if (c->sandbox != 0) {
		/* contain_check spawns as c says, under the sandbox */
		contain_set(c);
		e = contain_check(why, sizeof why);
		contain_set(was);
		if (e == 0) {
			c->sandbox = 1;
			return 0;
		}
		if (c->sandbox == 1) {
			strlcpy(cause, why, len);
			return -1;
		}
	} else
		strlcpy(why, c->trusted ? "CARDARENA_MEMCHECK: trusted bots" :
		    "--no-sandbox", sizeof why);
	unsandboxed(c, why);
	return 0;
}

/*
 * Whether one of n ready pipes holds its byte (left there: the shell of a
 * pinned bot waits until its own byte is read, contain_go).
 */
static int
any_ready(const int *fds, int n)
{
	struct pollfd pf;
	int i;

	for (i = 0; i < n; i++) {
		pf.fd = fds[i];
		pf.events = POLLIN;
		if (poll(&pf, 1, 0) == 1 && (pf.revents & POLLIN))
			return 1;
	}
	return 0;
}

int
contain_ready(int fd, const int *others, int nothers, int (*keep)(pid_t))
{
	struct contain *c = unproven;
	char why[512], x;
	ssize_t n;

	do
		n = read(fd, &x, 1);
	while (n == -1 && errno == EINTR);
	close(fd);
	if (c == NULL)
		return fell_back;
	if (n == 1) {
		unproven = NULL;
		return 0;
	}
	/*
	 * It did not start: the sandbox, or this bot alone?  Another's byte
	 * says the sandbox works; and no bot has run (which would have
	 * written its byte first) to make the check fail.
	 */
	if (!any_ready(others, nothers)) {
		check_keep = keep;
		n = contain_check(why, sizeof why);
		check_keep = NULL;
	} else
		n = 0;
	if (n == 0 || any_ready(others, nothers)) {
		unproven = NULL;
		return 0;
	}
	unproven = NULL;
	fell_back = 1;
	unsandboxed(c, why);
	return 1;
}

/*
 * Turns c's sandbox off (why: the cause) and says so: as root where bots
 * can be isolated nothing, where they cannot the isolation warning, else
 * the one loud warning of unprotected bots.
 */
static void
unsandboxed(struct contain *c, const char *why)
{
	char iso[256];

	c->sandbox = 0;
	if (geteuid() == 0 && c->user == BOT_USER_AUTO && !c->trusted &&
	    !c->no_isolate) {
		if (contain_isolation_check(iso, sizeof iso) == 0)
			return;
		warnx("%s; and no sandbox (%s)", iso, why);
		isolation_warned = 1;
		return;
	}
	warnx("WARNING: bots run neither sandboxed nor isolated (%s): each "
	    "runs as %s and can read and write what that user can (the match "
	    "log, a tournament's file and journal, whose seeds give every "
	    "card), signal, trace or kill the other bots and the referee, and "
	    "leave files for another bot; run untrusted bots in the sandbox "
	    "or %s", why, geteuid() == 0 ? "root" :
	    "the referee's own user", geteuid() == 0 ?
	    "with --bot-user auto" : "as root");
}

int
contain_isolation_check(char *cause, size_t len)
{
	struct jailed jl;
	int e;

	if (geteuid() != 0)
		return 0;
	memset(&jl, 0, sizeof jl);
	snprintf(jl.scratch_opts, sizeof jl.scratch_opts,
	    "size=1m,nr_inodes=16,mode=0700");
	if ((e = isolation_probe(&jl)) == 0)
		return 0;
	isolation_cause(e, cause, len);
	return -1;
}

void
contain_sweep(uid_t uid, int (*keep)(pid_t))
{
	contain_sweep_usage(uid, keep, NULL);
}

void
contain_sweep_usage(uid_t uid, int (*keep)(pid_t), struct usage *u)
{
	if (!contain_get()->no_sweep)
		sweep_children(uid, keep, u);
}

int
contain_check(char *cause, size_t len)
{
	const struct contain *was = conf;
	struct contain c = *contain_get();
	int r;

	c.sandbox = 1;
	contain_set(&c);
	r = sandbox_try(cause, len);
	contain_set(was);
	return r;
}

/* contain_check's work, the configuration in force asking for bwrap. */
static int
sandbox_try(char *cause, size_t len)
{
	struct jailed jl;
	char *const argv[] = { (char *)"true", NULL };
	char msg[512];
	int errp[2], status;
	ssize_t n;
	pid_t pid;

	if (find_bwrap() == -1) {
		snprintf(cause, len, "--sandbox: bwrap (Debian's bubblewrap) is "
		    "not installed: apt-get install bubblewrap");
		return -1;
	}
	if (pipe2(errp, O_CLOEXEC) == -1) {
		snprintf(cause, len, "pipe: %s", strerror(errno));
		return -1;
	}
	checking = 1;
	contain_prepare(&jl, argv, -1);
	checking = 0;
	spawn_seq--;	/* the check's uid is the first bot's */
	if ((pid = fork()) == 0) {
		dup2(errp[1], 2);
		if (jl.seccomp_fd != -1 && (jl.seccomp_fd == SANDBOX_SECCOMP ?
		    fcntl(SANDBOX_SECCOMP, F_SETFD, 0) : dup2(jl.seccomp_fd,
		    SANDBOX_SECCOMP)) == -1)
			_exit(126);
		if (jl.stdin_fd > 0)
			dup2(0, jl.stdin_fd);
		if (contain_child(&jl) == -1)
			_exit(126);
		contain_exec(&jl, -1);
		_exit(127);
	}
	close(errp[1]);
	contain_free(&jl);
	n = pid == -1 ? -1 : read(errp[0], msg, sizeof msg - 1);
	close(errp[0]);
	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	if (pid == -1) {
		snprintf(cause, len, "fork: %s", strerror(errno));
		return -1;
	}
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	/* a helper bwrap left us (not the bots started meanwhile) */
	contain_sweep((uid_t)-1, check_keep);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (native)
		snprintf(cause, len, "--sandbox: the sandbox's namespaces "
		    "cannot be made here: %s", msg[0] ? msg : "it failed");
	else
		snprintf(cause, len, "--sandbox: %s cannot create its "
		    "namespaces here: %s", bwrap_path, msg[0] ? msg : "it failed");
	return -1;
}

const char *const limit_names[NLIMIT] = { "cpu", "memory", "fsize" };

const char *
contain_limit(int signalled, int code, long cpu_ms, long maxrss_kb)
{
	const struct contain *c = contain_get();

	if (signalled && code == SIGXCPU)
		return limit_names[LIMIT_CPU];
	if (signalled && code == SIGKILL && c->cpu_s > 0 &&
	    cpu_ms >= c->cpu_s * 1000)
		return limit_names[LIMIT_CPU];
	if (signalled && code == SIGXFSZ)
		return limit_names[LIMIT_FSIZE];
	if (c->mem_mb > 0 && (signalled || code != 0) &&
	    maxrss_kb >= c->mem_mb * 1024 / 2)
		return limit_names[LIMIT_MEMORY];
	return NULL;
}

void
contain_limit_describe(const char *lim, char *buf, size_t len)
{
	const struct contain *c = contain_get();

	if (strcmp(lim, "cpu") == 0)
		snprintf(buf, len, "the CPU time limit (%ld s)", c->cpu_s);
	else if (strcmp(lim, "fsize") == 0)
		snprintf(buf, len, "the file size limit (%ld MiB)",
		    c->fsize_mb);
	else
		snprintf(buf, len, "the memory limit (%ld MiB of address "
		    "space)", c->mem_mb);
}
