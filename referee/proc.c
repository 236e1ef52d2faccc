/*
 * Bot processes; see proc.h.  A bot is started with execvp (no shell), in
 * its own process group, with pipe2(O_CLOEXEC) pipes and every other
 * descriptor closed (closefrom); a close-on-exec status pipe carries the
 * errno of a failed exec back to the parent.  On Linux its child borrows
 * our memory until the exec (spawn: no copy of our page tables), asks for
 * SIGKILL when the referee dies (PR_SET_PDEATHSIG), and a pidfd lets the
 * match loop poll(2) for the bot's exit.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sched.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "contain.h"
#include "proc.h"
#include "sweep.h"

#define PROC_MAX	1024	/* live process groups at once */
#define REAP_MS		30000	/* for a killed bot to end (its init may
				   take long to tear a namespace down) */
#define SPAWN_STACK	(256 * 1024)	/* a child's until its exec */
/* ASan knows each thread's one stack: a child on another confuses it */
#if defined(__SANITIZE_ADDRESS__)
#define SPAWN_COPY	1
#else
#define SPAWN_COPY	0
#endif

extern char **environ;

/* What a bot's child needs (spawn). */
struct start {
	const struct jailed	*jl;
	int			 in, out, err, st;
	pid_t			 parent;
};

static volatile sig_atomic_t	registry[PROC_MAX];

static int	registry_add(pid_t);
static void	registry_del(pid_t);
static void	child(const struct jailed *, int, int, int, int, pid_t);
static int	place(int, int, int *);
static pid_t	spawn(const struct start *);
static int	registered(pid_t);
static int	findable(const char *, const char *, char *, size_t);
static int	resolve_bare(const char *, char *, size_t, char *, size_t);
static int	set_nonblock(int);
static void	add_char(char **, size_t *, size_t *, char);
static void	guard_stop(int);
static void	guard_fatal(int);
static void	unrelay(struct proc *);
static void	ended(struct proc *);

static int	tty_fd = -1;	/* the terminal we run in the foreground of */
static int	readies[PROC_MAX];	/* the procs' ready pipes still open */
static int	nreadies;

/* Closes p's ready pipe, if open, and forgets it. */
static void
ready_close(struct proc *p)
{
	int i;

	if (p->ready == -1)
		return;
	for (i = 0; i < nreadies; i++)
		if (readies[i] == p->ready)
			readies[i] = readies[--nreadies];
	close(p->ready);
	p->ready = -1;
}

/* Remembers a live group; -1 when the registry is full. */
static int
registry_add(pid_t pid)
{
	int i;

	for (i = 0; i < PROC_MAX; i++)
		if (registry[i] == 0) {
			registry[i] = pid;
			return 0;
		}
	return -1;
}

/* Returns 1 if pid leads a live group (contain_sweep spares it). */
static int
registered(pid_t pid)
{
	int i;

	for (i = 0; i < PROC_MAX; i++)
		if (registry[i] == pid)
			return 1;
	return 0;
}

/* Forgets a group. */
static void
registry_del(pid_t pid)
{
	int i;

	for (i = 0; i < PROC_MAX; i++)
		if (registry[i] == pid)
			registry[i] = 0;
}

void
proc_killall(void)
{
	int i;

	for (i = 0; i < PROC_MAX; i++)
		if (registry[i] > 0)
			kill(-(pid_t)registry[i], SIGKILL);
}

/* Appends one character to a growing word. */
static void
add_char(char **w, size_t *len, size_t *cap, char c)
{
	if (*len + 2 > *cap) {
		*cap = *cap ? *cap * 2 : 32;
		*w = xreallocarray(*w, *cap, 1);
	}
	(*w)[(*len)++] = c;
	(*w)[*len] = '\0';
}

int
argv_split(const char *s, char ***argvp, char *cause, size_t len)
{
	char **av = NULL, *w = NULL;
	size_t n = 0, wlen = 0, wcap = 0;
	int inword = 0;
	char q;

	for (;;) {
		if (*s == '\0' || *s == ' ' || *s == '\t' || *s == '\n') {
			if (inword) {
				av = xreallocarray(av, n + 2, sizeof *av);
				av[n++] = w != NULL ? w : xstrdup("");
				av[n] = NULL;
				w = NULL;
				wlen = wcap = 0;
				inword = 0;
			}
			if (*s == '\0')
				break;
			s++;
			continue;
		}
		inword = 1;
		if (*s == '\'' || *s == '"') {
			q = *s++;
			while (*s != q) {
				if (*s == '\0') {
					snprintf(cause, len, "unterminated %c "
					    "quote", q);
					free(w);
					argv_free(av);
					return -1;
				}
				if (q == '"' && *s == '\\' &&
				    (s[1] == '"' || s[1] == '\\'))
					s++;
				add_char(&w, &wlen, &wcap, *s++);
			}
			s++;
			continue;
		}
		if (*s == '\\' && s[1] != '\0')
			s++;
		add_char(&w, &wlen, &wcap, *s++);
	}
	if (n == 0) {
		snprintf(cause, len, "empty command");
		return -1;
	}
	*argvp = av;
	return 0;
}

void
argv_free(char **av)
{
	char **p;

	if (av == NULL)
		return;
	for (p = av; *p != NULL; p++)
		free(*p);
	free(av);
}

/* Makes a descriptor non-blocking; -1 on failure. */
static int
set_nonblock(int fd)
{
	int fl;

	if ((fl = fcntl(fd, F_GETFL)) == -1)
		return -1;
	return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/*
 * In the child: puts fd at descriptor at, above *top, closing what lies
 * between, and makes at the new top; -1 if it cannot.
 */
static int
place(int fd, int at, int *top)
{
	int i;

	if (fd == -1 || dup2(fd, at) == -1)
		return -1;
	for (i = *top + 1; i < at; i++)
		close(i);
	*top = at;
	return 0;
}

/*
 * The child between fork and exec: its own group, default signal
 * dispositions, the pipes as 0, 1, 2 (stdin as jl's stdin_fd, 0 then
 * /dev/null, under the sandbox) and the status pipe as 3 (close on exec),
 * nothing else open, then its limits and user (contain_child).  An
 * isolated bot's first process is the init of its PID namespace, where
 * our pid is 0, and the bot its child, pid 2 of parent 1.  Never returns.
 */
static void
child(const struct jailed *jl, int in, int out, int errfd, int st,
    pid_t parent)
{
	sigset_t all;
	int fds[7], i, e, top;

	setpgid(0, 0);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != (jl->isolate ? 0 : parent))
		_exit(127);
#else
	(void)parent;
#endif
	for (i = 1; i < NSIG; i++)
		if (i != SIGKILL && i != SIGSTOP)
			signal(i, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* Out of the way of 0..3 first, whatever numbers they had. */
	fds[0] = fcntl(in, F_DUPFD_CLOEXEC, 10);
	fds[1] = fcntl(out, F_DUPFD_CLOEXEC, 10);
	fds[2] = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	fds[3] = fcntl(st, F_DUPFD_CLOEXEC, 10);
	fds[4] = jl->seccomp_fd == -1 ? -1 : fcntl(jl->seccomp_fd,
	    F_DUPFD_CLOEXEC, 10);
	fds[5] = jl->ready[1] == -1 ? -1 : fcntl(jl->ready[1],
	    F_DUPFD_CLOEXEC, 10);
	fds[6] = jl->go[0] == -1 ? -1 : fcntl(jl->go[0], F_DUPFD_CLOEXEC, 10);
	for (i = 0; i < 4; i++)
		if (fds[i] == -1 || dup2(fds[i], i) == -1)
			_exit(127);
	fcntl(3, F_SETFD, FD_CLOEXEC);
	if (jl->stdin_fd > 3 && (dup2(0, jl->stdin_fd) != jl->stdin_fd ||
	    (i = open("/dev/null", O_RDONLY)) == -1 || dup2(i, 0) == -1))
		_exit(127);
	top = jl->stdin_fd > 3 ? jl->stdin_fd : 3;
	/* the sandbox's filter, for bwrap (SANDBOX_SECCOMP) */
	if (jl->seccomp_fd != -1 && (fds[4] == -1 ||
	    dup2(fds[4], SANDBOX_SECCOMP) == -1))
		_exit(127);
	if (jl->seccomp_fd != -1)
		top = SANDBOX_SECCOMP;
	/* the shell's word that the sandbox is up (SANDBOX_READY) and its
	 * wait for ours (SANDBOX_GO) */
	if ((jl->ready[1] != -1 && place(fds[5], SANDBOX_READY, &top) == -1) ||
	    (jl->go[0] != -1 && place(fds[6], SANDBOX_GO, &top) == -1))
		_exit(127);
	closefrom(top + 1);
	if (contain_child(jl) == 0) {
#ifdef __linux__
		/* A change of uid cleared it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != (jl->isolate ? 1 : parent))
			_exit(127);
#endif
		contain_exec(jl, 3);
	}
	e = errno;
	if (write(3, &e, sizeof e) == -1)
		_exit(126);
	_exit(127);
}

#ifdef __linux__
/* The child's side of spawn, on its own stack. */
static int
spawn_child(void *arg)
{
	const struct start *s = arg;

	child(s->jl, s->in, s->out, s->err, s->st, s->parent);
	return 127;
}
#endif

/*
 * Starts the process of a bot (s): child() in a new process; 0 there (it
 * never returns), its pid here, -1 (errno set).  A bot that is not
 * isolated starts on Linux by clone(CLONE_VM | CLONE_VFORK) on a stack of
 * its own: the child borrows our memory until it execs or exits, while we
 * wait, so nothing of ours is copied (a copy of our page tables, then a
 * fault on each page either side writes, was most of a start's cost to
 * us).  Every signal is blocked across it, so that none of our handlers
 * runs in the child (on our memory) before child() resets them, and the
 * environment the child sets for its exec is put back.  An isolated bot's
 * first process stays on as the init of its PID namespace, so it is a
 * copy of us (contain_fork), as is every bot of an ASan build.
 */
static pid_t
spawn(const struct start *s)
{
#ifdef __linux__
	static char *stack;
	sigset_t all, old;
	char **env = environ;
	pid_t pid;
	int e;

	if (s->jl->isolate || s->jl->native || SPAWN_COPY)
		return contain_fork(s->jl);
	if (stack == NULL) {
		/* the lowest page a guard, never mapped readable */
		stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED) {
			stack = NULL;
			return -1;
		}
		if (mprotect(stack, 4096, PROT_NONE) == -1) {
			e = errno;
			munmap(stack, SPAWN_STACK);
			stack = NULL;
			errno = e;
			return -1;
		}
	}
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = clone(spawn_child, stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK |
	    SIGCHLD, (void *)s);
	e = errno;
	environ = env;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
#else
	return contain_fork(s->jl);
#endif
}

int
proc_spawn(struct proc *p, char *const *argv, char *cause, size_t len)
{
	if (proc_start(p, argv, -1, cause, len) == -1)
		return -1;
	return proc_started(p, cause, len);
}

int
proc_findable(const char *cmd, const char *path)
{
	char full[PATH_MAX];

	return findable(cmd, path, full, sizeof full);
}

/* Returns 1 if cmd can be executed, searched in path, its path in full. */
static int
findable(const char *cmd, const char *path, char *full, size_t len)
{
	char *copy, *p, *dir;
	int ok = 0;

	if (strchr(cmd, '/') != NULL) {
		strlcpy(full, cmd, len);
		return access(cmd, X_OK) == 0;
	}
	copy = xstrdup(path);
	for (p = copy; !ok && (dir = strsep(&p, ":")) != NULL; ) {
		snprintf(full, len, "%s/%s", *dir ? dir : ".", cmd);
		ok = access(full, X_OK) == 0;
	}
	free(copy);
	return ok;
}

/*
 * Resolves a bare command name before the bot's environment is scrubbed:
 * a program of the bots' own PATH (BOT_PATH) stays a bare name, else the
 * referee's PATH is searched as the user's shell would (a bot installed
 * in ~/.local/bin) and the program's path goes into full; -1 and a cause
 * when neither holds it.
 */
static int
resolve_bare(const char *cmd, char *full, size_t len, char *cause,
    size_t clen)
{
	const char *path;

	if (findable(cmd, BOT_PATH, full, len)) {
		strlcpy(full, cmd, len);
		return 0;
	}
	if ((path = getenv("PATH")) != NULL && findable(cmd, path, full, len))
		return 0;
	snprintf(cause, clen, "cannot execute '%s': no such program in the "
	    "directories of $PATH", cmd);
	return -1;
}

int
proc_start(struct proc *p, char *const *argv, int bot, char *cause,
    size_t len)
{
	int in[2], out[2], errp[2], st[2], e, i;
	struct jailed jl;
	const char *path = BOT_PATH;
	char full[PATH_MAX], where[PATH_MAX], **rav;
	struct start sa;
	pid_t pid;

	memset(p, 0, sizeof *p);
	p->in = p->out = p->err = p->pidfd = p->status = p->ready = -1;
	p->go = -1;
	p->uid = (uid_t)-1;
	/* Said from here: the bot's own uid may not even see the path. */
	if (strchr(argv[0], '/') != NULL && access(argv[0], F_OK) == -1) {
		snprintf(cause, len, "cannot execute '%s': %s", argv[0],
		    strerror(errno));
		return -1;
	}
	if (strchr(argv[0], '/') == NULL &&
	    resolve_bare(argv[0], full, sizeof full, cause, len) == -1)
		return -1;
	/* the same words, the program by its path when it was a bare name */
	for (i = 0; argv[i] != NULL; i++)
		;
	rav = xcalloc((size_t)i + 1, sizeof *rav);
	memcpy(rav, argv, (size_t)i * sizeof *rav);
	if (strchr(argv[0], '/') == NULL)
		rav[0] = full;
	contain_prepare(&jl, rav, bot);
	if (contain_get()->sandbox == 1) {
		for (i = 0; jl.envp[i] != NULL; i++)
			if (strncmp(jl.envp[i], "PATH=", 5) == 0)
				path = jl.envp[i] + 5;
		if (!findable(rav[0], path, where, sizeof where)) {
			snprintf(cause, len, "cannot execute '%s': not found "
			    "or not executable (PATH=%s)", argv[0], path);
			contain_free(&jl);
			free(rav);
			return -1;
		}
	}
	free(rav);
	p->uid = jl.uid;
	p->relayed = jl.relayed;
	p->argv = argv;
	p->bot = bot;
	if (pipe2(in, O_CLOEXEC) == -1) {
		snprintf(cause, len, "pipe: %s", strerror(errno));
		contain_free(&jl);
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) == -1) {
		e = errno;
		goto close1;
	}
	if (pipe2(errp, O_CLOEXEC) == -1) {
		e = errno;
		goto close2;
	}
	if (pipe2(st, O_CLOEXEC) == -1) {
		e = errno;
		goto close3;
	}
	sa.jl = &jl;
	sa.in = in[0];
	sa.out = out[1];
	sa.err = errp[1];
	sa.st = st[1];
	sa.parent = getpid();
	if ((pid = spawn(&sa)) == -1) {
		e = errno;
		close(st[0]);
		close(st[1]);
		goto close3;
	}
	if (pid == 0)
		child(&jl, in[0], out[1], errp[1], st[1], sa.parent);
	p->ready = jl.ready[0];	/* ours now */
	jl.ready[0] = -1;
	p->go = jl.go[1];
	jl.go[1] = -1;
	if (p->ready != -1 && nreadies < PROC_MAX)
		readies[nreadies++] = p->ready;
	contain_free(&jl);
	setpgid(pid, pid);	/* both sides: no window without a group */
	close(in[0]);
	close(out[1]);
	close(errp[1]);
	close(st[1]);
	p->pid = pid;
	p->in = in[1];
	p->out = out[0];
	p->err = errp[0];
	p->status = st[0];
	p->argv0 = argv[0];
	if (registry_add(pid) == -1) {
		proc_reap(p);
		snprintf(cause, len, "too many bot processes");
		return -1;
	}
	return 0;

close3:
	close(errp[0]);
	close(errp[1]);
close2:
	close(out[0]);
	close(out[1]);
close1:
	close(in[0]);
	close(in[1]);
	contain_free(&jl);
	snprintf(cause, len, "cannot start '%s': %s", argv[0], strerror(e));
	return -1;
}

int
proc_started(struct proc *p, char *cause, size_t len)
{
	char *const *argv;
	int e, status, bot;
	ssize_t n;

	do
		n = read(p->status, &e, sizeof e);
	while (n == -1 && errno == EINTR);
	close(p->status);
	p->status = -1;
	if (n != (ssize_t)sizeof e && p->ready != -1) {
		/* started under a sandbox not yet proven to work here */
		/* the others' pipes tell too: a bot ran, the sandbox works */
		for (e = 0; e < nreadies; e++)
			if (readies[e] == p->ready)
				readies[e] = readies[--nreadies];
		e = contain_ready(p->ready, readies, nreadies, registered);
		p->ready = -1;
		if (e == 1) {
			/* it does not: started again, outside */
			argv = p->argv;
			bot = p->bot;
			proc_reap(p);
			if (proc_start(p, argv, bot, cause, len) == -1)
				return -1;
			return proc_started(p, cause, len);
		}
	}
	if (p->go != -1 && n != (ssize_t)sizeof e) {
		/* its shell at the gate (or gone): the bot on our CPU */
		contain_go(p->pid, p->go);
		p->go = -1;
	}
	if (n == (ssize_t)sizeof e) {
		ready_close(p);
		if (p->go != -1)
			close(p->go);
		p->go = -1;
		registry_del(p->pid);
		while (waitpid(p->pid, &status, 0) == -1 && errno == EINTR)
			;
		close(p->in);
		close(p->out);
		close(p->err);
		p->in = p->out = p->err = -1;
		p->pid = 0;
		snprintf(cause, len, "cannot execute '%s': %s%s", p->argv0,
		    strerror(e), e == EACCES && p->uid != (uid_t)-1 ?
		    " (the bot runs as a user of its own: its files and "
		    "directories must be readable by others)" : "");
		return -1;
	}
	if (set_nonblock(p->in) == -1 || set_nonblock(p->out) == -1 ||
	    set_nonblock(p->err) == -1) {
		snprintf(cause, len, "fcntl: %s", strerror(errno));
		proc_reap(p);
		return -1;
	}
#if defined(__linux__) && defined(SYS_pidfd_open)
	p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (p->pidfd != -1)
		fcntl(p->pidfd, F_SETFD, FD_CLOEXEC);
#endif
	return 0;
}

int
proc_exited(struct proc *p)
{
	siginfo_t si;

	if (p->exited || p->reaped)
		return 1;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) ==
	    -1 || si.si_pid != p->pid)
		return 0;
	p->exited = 1;
	p->signalled = si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED;
	p->code = si.si_status;
	unrelay(p);
	ended(p);
	return 1;
}

/* A bot's end as its init relayed it: 128 + N is signal N. */
static void
unrelay(struct proc *p)
{
	if (p->relayed && !p->signalled && p->code > 128 &&
	    p->code < 128 + NSIG) {
		p->signalled = 1;
		p->code -= 128;
	}
}

void
proc_signal(struct proc *p, int sig)
{
	if (p->pid > 0 && !p->reaped)
		kill(-p->pid, sig);
}

void
proc_close_in(struct proc *p)
{
	if (p->in != -1) {
		close(p->in);
		p->in = -1;
	}
}

void
proc_reap(struct proc *p)
{
	struct rusage ru;
	struct usage u;
	int status;

	if (p->pid <= 0 || p->reaped)
		return;
	/* The leader is unreaped, so the group id cannot have been reused. */
	kill(-p->pid, SIGKILL);
	registry_del(p->pid);
	if (sweep_reap(p->pid, REAP_MS, &status, &ru) == 0) {
		p->cpu_ms = (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		    1000 + (long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
		    1000;
		p->maxrss_kb = ru.ru_maxrss;
		if (!p->exited) {
			p->exited = 1;
			p->signalled = WIFSIGNALED(status);
			p->code = WIFSIGNALED(status) ? WTERMSIG(status) :
			    WEXITSTATUS(status);
			unrelay(p);
			ended(p);
		}
	}
	p->reaped = 1;
	ready_close(p);
	if (p->go != -1) {
		close(p->go);
		p->go = -1;
	}
	u.cpu_ms = p->cpu_ms;
	u.maxrss_kb = p->maxrss_kb;
	contain_sweep_usage(p->uid, registered, &u);
	p->cpu_ms = u.cpu_ms;
	p->maxrss_kb = u.maxrss_kb;
	if (p->status != -1) {
		close(p->status);
		p->status = -1;
	}
	proc_close_in(p);
	if (p->out != -1)
		close(p->out);
	if (p->err != -1)
		close(p->err);
	if (p->pidfd != -1)
		close(p->pidfd);
	p->out = p->err = p->pidfd = -1;
}

void
proc_describe(const struct proc *p, char *buf, size_t len)
{
	if (!p->exited)
		snprintf(buf, len, "closed its output");
	else if (p->signalled)
		snprintf(buf, len, "killed by signal %d (%s)", p->code,
		    strsignal(p->code));
	else
		snprintf(buf, len, "exited with status %d", p->code);
}

static volatile sig_atomic_t	*guard_flag;

/*
 * A bot gone, run in the foreground of a terminal: the terminal back to
 * us if the bot's group had it (bin/human takes it, and an isolated bot
 * cannot see our group to give it back); a bot killed by SIGINT is a
 * person's Ctrl-C at the seat they play, which stops the program as our
 * own SIGINT would (the shell's rule for a child that dies of the
 * interrupt; no uid or PID namespace is in its way, as kill(2) would be).
 */
static void
ended(struct proc *p)
{
	sigset_t ttou, old;

	if (tty_fd == -1)
		return;
	if (tcgetpgrp(tty_fd) == p->pid) {
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, &old);
		tcsetpgrp(tty_fd, getpgrp());
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (p->signalled && p->code == SIGINT && guard_flag != NULL)
		*guard_flag = SIGINT;
}

/* A stop signal: noted for the program's loop. */
static void
guard_stop(int sig)
{
	*guard_flag = sig;
}

/* A crash of the program itself: kill every bot group, then die of it. */
static void
guard_fatal(int sig)
{
	proc_killall();
	signal(sig, SIG_DFL);
	raise(sig);
}

int
proc_guard(volatile sig_atomic_t *flag, int extra)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	static const int fatals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE,
	    SIGILL };
	struct sigaction sa;
	size_t i;

	guard_flag = flag;
	/* a terminal whose foreground we are: a person may play a seat */
	if ((tty_fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) != -1 &&
	    tcgetpgrp(tty_fd) != getpgrp()) {
		close(tty_fd);
		tty_fd = -1;
	}
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = guard_stop;
	for (i = 0; i < sizeof stops / sizeof stops[0]; i++)
		sigaction(stops[i], &sa, NULL);
	if (extra != 0)
		sigaction(extra, &sa, NULL);
	sa.sa_handler = guard_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof fatals / sizeof fatals[0]; i++)
		sigaction(fatals[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return atexit(proc_killall) != 0 ? -1 : 0;
}

pid_t
proc_helper(char *const *argv, int in, int out, int errfd, const char *env)
{
	sigset_t none;
	pid_t pid, parent = getpid();
	char *e;
	int fds[3], i, nul;

	fflush(NULL);
	if ((pid = fork()) != 0)
		return pid;
	setpgid(0, 0);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
#endif
	for (i = 1; i < NSIG; i++)
		if (i != SIGKILL && i != SIGSTOP)
			signal(i, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if ((nul = open("/dev/null", O_RDWR)) == -1)
		_exit(127);
	fds[0] = fcntl(in != -1 ? in : nul, F_DUPFD_CLOEXEC, 10);
	fds[1] = fcntl(out != -1 ? out : nul, F_DUPFD_CLOEXEC, 10);
	fds[2] = fcntl(errfd != -1 ? errfd : 2, F_DUPFD_CLOEXEC, 10);
	for (i = 0; i < 3; i++)
		if (fds[i] == -1 || dup2(fds[i], i) == -1)
			_exit(127);
	closefrom(3);
	if (env != NULL && ((e = strdup(env)) == NULL || putenv(e) != 0))
		_exit(127);
	execvp(argv[0], argv);
	dprintf(2, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

char *
argv_quote(const char *w)
{
	char *q, *p;

	if (*w != '\0' && strspn(w, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == strlen(w))
		return xstrdup(w);
	q = p = xmalloc(strlen(w) * 4 + 3);
	*p++ = '\'';
	for (; *w != '\0'; w++) {
		if (*w == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = *w;
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

void
proc_catch(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
