/*
 * The sweep of what stopped bots leave behind; see sweep.h.  A
 * straggler's children reparent to us (a child subreaper) once it is
 * killed, hence the rounds; as root a uid's every process, in whatever
 * group or session, is killed by a helper that becomes that uid and calls
 * kill(-1, SIGKILL).
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "sweep.h"

#define SWEEP_ROUNDS	50	/* a straggler's children reparent to us */
#define SWEEP_WAIT_MS	5000	/* for a SIGKILLed straggler to die */

static pid_t	 watchdog = -1;	/* sweep_watchdog's */

static void	 kill_uid(uid_t);
static int	 kill_range(unsigned, unsigned);
static pid_t	 proc_stat(pid_t, char *);
static pid_t	*children(size_t *);

/* Kills every process of uid (as root: a helper becomes it). */
static void
kill_uid(uid_t uid)
{
	pid_t h;
	int status;

	if ((h = fork()) == 0) {
		if (setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) == -1 ||
		    setresuid(uid, uid, uid) == -1)
			_exit(1);
		kill(-1, SIGKILL);
		_exit(0);
	}
	if (h > 0)
		while (waitpid(h, &status, 0) == -1 && errno == EINTR)
			;
}

/*
 * Kills (kill_uid) every uid in [base, base + n) that has a process now;
 * returns how many had.
 */
static int
kill_range(unsigned base, unsigned n)
{
	char path[300];
	struct dirent *d;
	struct stat sb;
	DIR *dp;
	int found = 0;

	if ((dp = opendir("/proc")) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s", d->d_name);
		if (stat(path, &sb) == -1 || sb.st_uid < base ||
		    sb.st_uid >= base + n)
			continue;
		kill_uid(sb.st_uid);
		found++;
	}
	closedir(dp);
	return found;
}

void
sweep_watchdog(unsigned base, unsigned n)
{
	unsigned i;
	int p[2], sig;
	char b;

	if (pipe2(p, O_CLOEXEC) == -1)
		return;
	switch ((watchdog = fork())) {
	case -1:
		close(p[0]);
		close(p[1]);
		return;
	case 0:
		/*
		 * A process group of its own: it outlives us a moment (and
		 * as a zombie until its new parent reaps it), and a caller
		 * that waits for our group to be gone must not wait for it.
		 */
		setpgid(0, 0);
		/* Out of the terminal's signals; waits for our end of file. */
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD)
				signal(sig, SIG_IGN);
		/* Holds nothing of ours (a tournament waits for our stdout). */
		if (dup2(p[0], 3) == -1 || (i = (unsigned)open("/dev/null",
		    O_RDWR)) == (unsigned)-1)
			_exit(1);
		dup2((int)i, 0);
		dup2((int)i, 1);
		dup2((int)i, 2);
		closefrom(4);
		while (read(3, &b, 1) == -1 && errno == EINTR)
			;
		for (sig = 0; sig < SWEEP_ROUNDS && kill_range(base, n) > 0;
		    sig++)
			;
		_exit(0);
	}
	setpgid(watchdog, watchdog);	/* both sides: no window in ours */
	close(p[0]);
	/* p[1] stays open (close on exec) until we are gone. */
}

/* The parent of pid from /proc/PID/stat (and its state), or -1. */
static pid_t
proc_stat(pid_t pid, char *state)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) S ppid ...": comm may hold anything, even ")". */
	if ((p = strrchr(buf, ')')) == NULL || p[1] == '\0' || p[2] == '\0')
		return -1;
	*state = p[2];
	return (pid_t)strtol(p + 4, NULL, 10);
}

/* The kernel's list of a thread's children; see sweep.h. */
int
sweep_task_children(pid_t pid, pid_t tid, pid_t **v, size_t *n)
{
	char path[64], buf[8192], *p, *end;
	size_t cap = 0;
	ssize_t k;
	pid_t kid;
	int fd;

	*v = NULL;
	*n = 0;
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid,
	    (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	k = read(fd, buf, sizeof buf - 1);
	close(fd);
	/* one read of a list this long may have cut it: not whole */
	if (k < 0 || (size_t)k >= sizeof buf - 1)
		return -1;
	buf[k] = '\0';
	for (p = buf; (kid = (pid_t)strtol(p, &end, 10)), end != p; p = end) {
		if (*n == cap)
			*v = xreallocarray(*v, cap = cap * 2 + 16, sizeof **v);
		(*v)[(*n)++] = kid;
	}
	return 0;
}

/*
 * Our children now, into a new array (*n of them): from the kernel's list
 * (sweep_task_children), else a scan of every /proc/PID/stat.
 */
static pid_t *
children(size_t *n)
{
	struct dirent *d;
	pid_t *v = NULL, me = getpid(), pid;
	size_t cap = 0;
	DIR *dp;
	char state;

	if (sweep_task_children(me, me, &v, n) == 0)
		return v;
	if ((dp = opendir("/proc")) == NULL)
		return v;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		pid = (pid_t)strtol(d->d_name, NULL, 10);
		if (proc_stat(pid, &state) != me)
			continue;
		if (*n == cap)
			v = xreallocarray(v, cap = cap * 2 + 16, sizeof *v);
		v[(*n)++] = pid;
	}
	closedir(dp);
	return v;
}

/* The monotonic clock in milliseconds. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
sweep_reap(pid_t pid, int ms, int *status, struct rusage *ru)
{
	struct pollfd pf;
	long long end = now_ms() + ms, left;
	int fd = -1, r = -1;
	pid_t w;

#if defined(__linux__) && defined(SYS_pidfd_open)
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	for (;;) {
		memset(ru, 0, sizeof *ru);
		w = wait4(pid, status, WNOHANG, ru);
		if (w == pid) {
			r = 0;
			break;
		}
		if ((w == -1 && errno != EINTR) || (left = end - now_ms()) <=
		    0)
			break;
		pf.fd = fd;
		pf.events = POLLIN;
		/* a pidfd is readable once the process has ended */
		poll(&pf, fd != -1 ? 1 : 0, fd != -1 ? (int)left : 1);
	}
	if (fd != -1)
		close(fd);
	return r;
}

void
sweep_children(uid_t uid, int (*keep)(pid_t), struct usage *u)
{
	struct rusage ru;
	pid_t *kids;
	size_t n, k;
	int round, found, status;

	/*
	 * Our children no live bot leads: what bots left, adopted by us as
	 * subreaper (their children come to us in turn, hence the rounds).
	 * When there was any, as root, a helper of the bot's uid also kills
	 * every process of it, in any group or session, at once.
	 */
	for (round = 0; round < SWEEP_ROUNDS; round++) {
		found = 0;
		kids = children(&n);
		for (k = 0; k < n; k++) {
			if (kids[k] == watchdog || (keep != NULL &&
			    keep(kids[k])))
				continue;
			kill(kids[k], SIGKILL);
			if (sweep_reap(kids[k], SWEEP_WAIT_MS, &status, &ru) ==
			    0 && u != NULL) {
				u->cpu_ms += (long)(ru.ru_utime.tv_sec +
				    ru.ru_stime.tv_sec) * 1000 +
				    (long)(ru.ru_utime.tv_usec +
				    ru.ru_stime.tv_usec) / 1000;
				if (ru.ru_maxrss > u->maxrss_kb)
					u->maxrss_kb = ru.ru_maxrss;
			}
			found = 1;
		}
		free(kids);
		if (found && round == 0 && uid != (uid_t)-1 && geteuid() == 0)
			kill_uid(uid);
		if (!found)
			return;
	}
}
