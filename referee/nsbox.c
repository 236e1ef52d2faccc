/*
 * The sandbox's own launcher (nsbox.h): in the child, where bwrap's exec
 * would be, it sets up what sandbox_args' words say, the part of bwrap's
 * language the referee writes, and execs the bot.  It spares a start what
 * bwrap and the shell in it cost: two more programs' execs and their
 * libraries, bwrap's reading of the whole mount table for each bind, and
 * its loopback device (the bot has no sockets).  Three processes, as under
 * bwrap: the first (ours, the one the referee forked) makes the user,
 * mount, network, IPC, UTS, cgroup and PID namespaces and waits; its
 * child, the first of the PID namespace, builds the new root, says it is
 * ready, waits for the word to go, starts the bot and stays as its init;
 * the bot drops every capability and takes the filter just before its
 * exec.  The mounts follow bwrap's way: a tmpfs on /tmp becomes the root
 * at once, the old one lies under /oldroot while the new one is built
 * under /newroot from it, then the new root alone is left.
 */
#include <sys/types.h>
#ifdef __linux__
#include <sys/mount.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#endif
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkdirs.h"
#include "nsbox.h"
#include "seccomp.h"

#define NEWROOT		"/newroot"
#define OLDROOT		"/oldroot"
#define INIT_NAME	"cardarena-init"

/* Says what failed on stderr (the bot's), as bwrap would, and exits 1. */
static void __attribute__((noreturn))
fail(const char *what, const char *path)
{
	char msg[PATH_MAX + 200];
	int n;

	n = snprintf(msg, sizeof msg, "cardarena sandbox: %s%s%s: %s\n", what,
	    path != NULL ? " " : "", path != NULL ? path : "",
	    strerror(errno));
	if (n > 0)
		(void)write(2, msg, (size_t)n < sizeof msg ? (size_t)n :
		    sizeof msg - 1);
	_exit(1);
}

/*
 * Covers our command line, a copy of the referee's (the bots' commands,
 * a seed given with -s), which /proc shows to anyone who sees us (a bot in
 * our PID namespace), with INIT_NAME, and names us so: the kernel reads
 * /proc/PID/cmdline from our memory, between arg_start and arg_end of
 * /proc/self/stat (its 48th and 49th fields).
 */
static void
rename_self(void)
{
	char st[2048], *p;
	unsigned long start = 0, end = 0;
	ssize_t n;
	int fd, i;

	prctl(PR_SET_NAME, INIT_NAME, 0, 0, 0);
	if ((fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, st, sizeof st - 1);
	close(fd);
	if (n <= 0)
		return;
	st[n] = '\0';
	/* the fields after the name (which may hold spaces) from the 3rd */
	if ((p = strrchr(st, ')')) == NULL)
		return;
	for (i = 2; i < 48 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, " %lu %lu", &start, &end) != 2 ||
	    end <= start || end - start < sizeof INIT_NAME)
		return;
	memset((void *)start, 0, end - start);
	memcpy((void *)start, INIT_NAME, sizeof INIT_NAME);
}

void
nsbox_init(pid_t pid)
{
	int status;
	pid_t r;

	rename_self();
	close(0);
	closefrom(3);
	for (;;) {
		r = waitpid(-1, &status, 0);
		if (r == -1 && errno != EINTR)
			_exit(127);
		if (r != pid)
			continue;
		_exit(WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
		    WEXITSTATUS(status));
	}
}

#ifdef __linux__
/* Writes s to the file at path (one of /proc/self's maps). */
static void
put(const char *path, const char *s)
{
	size_t n = strlen(s);
	int fd;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1 ||
	    write(fd, s, n) != (ssize_t)n)
		fail("cannot write", path);
	close(fd);
}

/*
 * Makes the mount point at dst for src: a directory for a directory, else
 * an empty file (and the directories above it); one there already does.
 */
static void
mount_point(const char *src, const char *dst)
{
	char up[PATH_MAX], *s;
	struct stat sb;
	int fd;

	if (stat(src, &sb) == -1)
		fail("cannot find", src);
	if (S_ISDIR(sb.st_mode)) {
		if (mkdirs(dst) == -1)
			fail("cannot make", dst);
		return;
	}
	if (access(dst, F_OK) == 0)
		return;
	strlcpy(up, dst, sizeof up);
	if ((s = strrchr(up, '/')) != NULL && s != up) {
		*s = '\0';
		if (mkdirs(up) == -1)
			fail("cannot make", up);
	}
	if ((fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0444)) == -1)
		fail("cannot make", dst);
	close(fd);
}

/* Sets attributes (MOUNT_ATTR_*) on the mount at path, or on its tree. */
static void
set_attr(const char *path, unsigned long long set, int tree)
{
	struct mount_attr ma;

	memset(&ma, 0, sizeof ma);
	ma.attr_set = set;
	if (syscall(SYS_mount_setattr, AT_FDCWD, path, tree ? AT_RECURSIVE :
	    0, &ma, sizeof ma) == -1)
		fail("cannot set the mount's attributes of", path);
}

/* Binds the old root's src at the new root's dst: read-only, or a device. */
static void
bind_at(const char *src, const char *dst, int ro, int try)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct stat sb;

	snprintf(from, sizeof from, OLDROOT "%s", src);
	snprintf(to, sizeof to, NEWROOT "%s", dst);
	if (try && stat(from, &sb) == -1 && errno == ENOENT)
		return;
	mount_point(from, to);
	if (mount(from, to, NULL, MS_BIND | MS_REC, NULL) == -1)
		fail("cannot bind", src);
	set_attr(to, ro ? MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
	    MOUNT_ATTR_NODEV : MOUNT_ATTR_NOSUID, ro);
}

/* A tmpfs at the new root's dst of size (bytes, "" none) and mode. */
static void
tmpfs(const char *dst, const char *size, unsigned mode)
{
	char to[PATH_MAX], opts[128];

	snprintf(to, sizeof to, NEWROOT "%s", dst);
	if (mkdirs(to) == -1)
		fail("cannot make", to);
	snprintf(opts, sizeof opts, "mode=0%o%s%s", mode, *size ? ",size=" :
	    "", size);
	if (mount("tmpfs", to, "tmpfs", MS_NOSUID | MS_NODEV, opts) == -1)
		fail("cannot mount a tmpfs on", dst);
}

/*
 * The new PID namespace's /proc at the new root's dst, while the old one
 * is in sight (the kernel lets a namespace mount proc only then), with the
 * parts a process could write to change the machine read-only, as bwrap
 * does.
 */
static void
proc(const char *dst)
{
	static const char *const ro[] = { "sys", "sysrq-trigger", "irq", "bus",
	    NULL };
	char to[PATH_MAX], sub[PATH_MAX + 32];
	int i;

	snprintf(to, sizeof to, NEWROOT "%s", dst);
	if (mkdirs(to) == -1)
		fail("cannot make", to);
	if (mount("proc", to, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	    NULL) == -1)
		fail("cannot mount proc on", dst);
	for (i = 0; ro[i] != NULL; i++) {
		snprintf(sub, sizeof sub, "%s/%s", to, ro[i]);
		if (access(sub, F_OK) == -1)
			continue;
		if (mount(sub, sub, NULL, MS_BIND | MS_REC, NULL) == -1)
			fail("cannot bind", sub);
		set_attr(sub, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
		    MOUNT_ATTR_NODEV, 1);
	}
}

/*
 * Builds the new root from the words (sandbox_args), up to "--": returns
 * the index of the bot's argv, the working directory in *cwd.
 */
static int
build(char *const *w, const char **cwd)
{
	char path[PATH_MAX];
	const char *size = "";
	unsigned perms = 0755;
	int i;

	for (i = 0; w[i] != NULL && strcmp(w[i], "--") != 0; i++) {
		if (strcmp(w[i], "--ro-bind") == 0 ||
		    strcmp(w[i], "--ro-bind-try") == 0 ||
		    strcmp(w[i], "--dev-bind") == 0) {
			bind_at(w[i + 1], w[i + 2], w[i][2] == 'r',
			    strcmp(w[i], "--ro-bind-try") == 0);
			i += 2;
		} else if (strcmp(w[i], "--symlink") == 0) {
			snprintf(path, sizeof path, NEWROOT "%s", w[i + 2]);
			if (symlink(w[i + 1], path) == -1)
				fail("cannot make", w[i + 2]);
			i += 2;
		} else if (strcmp(w[i], "--proc") == 0)
			proc(w[++i]);
		else if (strcmp(w[i], "--size") == 0)
			size = w[++i];
		else if (strcmp(w[i], "--perms") == 0)
			perms = (unsigned)strtoul(w[++i], NULL, 8);
		else if (strcmp(w[i], "--tmpfs") == 0) {
			tmpfs(w[++i], size, perms);
			size = "";
			perms = 0755;
		} else if (strcmp(w[i], "--dir") == 0) {
			snprintf(path, sizeof path, NEWROOT "%s", w[++i]);
			if (mkdirs(path) == -1)
				fail("cannot make", w[i]);
		} else if (strcmp(w[i], "--remount-ro") == 0) {
			snprintf(path, sizeof path, NEWROOT "%s", w[++i]);
			set_attr(path, MOUNT_ATTR_RDONLY, 0);
		} else if (strcmp(w[i], "--hostname") == 0) {
			if (sethostname(w[i + 1], strlen(w[i + 1])) == -1)
				fail("cannot set the host name", NULL);
			i++;
		} else if (strcmp(w[i], "--chdir") == 0)
			*cwd = w[++i];
		else if (strcmp(w[i], "--die-with-parent") != 0 &&
		    strcmp(w[i], "--unshare-all") != 0) {
			errno = EINVAL;
			fail("no such word", w[i]);
		}
	}
	if (w[i] == NULL) {
		errno = EINVAL;
		fail("no command", NULL);
	}
	return i + 1;
}

/*
 * The namespaces, the first process's: the user namespace maps our uid
 * and gid to themselves (setgroups denied, as an unprivileged map needs).
 */
static void
unshare_all(void)
{
	char map[64];
	int flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET |
	    CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID;
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (unshare(flags | CLONE_NEWCGROUP) == -1 && (errno != EINVAL ||
	    unshare(flags) == -1))
		fail(errno == ENOSPC ? "unshare (at the limit of user "
		    "namespaces, user.max_user_namespaces)" : errno == EPERM ?
		    "unshare (no unprivileged user namespaces here)" :
		    "unshare", NULL);
	/* (our /proc/self is root's while we are not dumpable) */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	put("/proc/self/setgroups", "deny");
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	put("/proc/self/uid_map", map);
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	put("/proc/self/gid_map", map);
	/* no bot of the same uid may trace us or the init */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/*
 * Drops every capability (those of the user namespace, all of them until
 * now): the init keeps none, and the bot, its child, inherits none.
 */
static void
drop_caps(void)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2];
	int c;

	for (c = 0; c <= 63; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) == -1 && errno !=
		    EINVAL)
			fail("cannot drop its capabilities", NULL);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(&h, 0, sizeof h);
	memset(d, 0, sizeof d);
	h.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capset, &h, d) == -1)
		fail("cannot drop its capabilities", NULL);
}

/* The first of the PID namespace: the new root, made the only one. */
static int
new_root(char *const *words, const char **cwd)
{
	int at;

	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == -1)
		fail("cannot make the mounts private", NULL);
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0755") == -1)
		fail("cannot mount a tmpfs on", "/tmp");
	if (chdir("/tmp") == -1 || mkdir("newroot", 0755) == -1 ||
	    mkdir("oldroot", 0755) == -1 ||
	    mount("newroot", "newroot", NULL, MS_BIND | MS_REC, NULL) == -1)
		fail("cannot make the new root", NULL);
	if (syscall(SYS_pivot_root, "/tmp", "/tmp/oldroot") == -1 ||
	    chdir("/") == -1)
		fail("cannot pivot to the new root", NULL);
	at = build(words, cwd);
	if (umount2(OLDROOT, MNT_DETACH) == -1 || chdir(NEWROOT) == -1 ||
	    syscall(SYS_pivot_root, ".", ".") == -1 ||
	    umount2(".", MNT_DETACH) == -1 || chdir("/") == -1)
		fail("cannot leave the old root", NULL);
	return at;
}

/* The bot's last steps: its stdin, its directory, the filter, exec. */
static void __attribute__((noreturn))
bot(char *const *argv, const char *cwd, int stdin_fd, int filter)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (dup2(stdin_fd, 0) == -1)
		fail("cannot take its stdin", NULL);
	closefrom(3);
	if (cwd != NULL && chdir(cwd) == -1)
		fail("cannot change directory to", cwd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    (filter && seccomp_install(1) == -1))
		fail("cannot install its filter", NULL);
	execvp(argv[0], argv);
	fail("cannot execute", argv[0]);
}
#endif

void
nsbox_exec(char *const *words, int status, int stdin_fd, int ready, int go,
    int filter)
{
#ifdef __linux__
	const char *cwd = NULL;
	pid_t pid;
	char x;
	int at;

	/* what an exec would have closed: we are started */
	if (status != -1)
		close(status);
	unshare_all();
	if ((pid = fork()) == -1)
		fail("cannot fork", NULL);
	if (pid > 0)
		nsbox_init(pid);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	at = new_root(words, &cwd);
	drop_caps();
	if (ready != -1) {
		if (write(ready, "x", 1) != 1)
			_exit(1);
		close(ready);
	}
	/* the referee's word (it pins us first); none: it is gone */
	if (go != -1 && read(go, &x, 1) != 1)
		_exit(1);
	if ((pid = fork()) == -1)
		fail("cannot fork", NULL);
	if (pid == 0)
		bot(words + at, cwd, stdin_fd, filter);
	nsbox_init(pid);
#else
	(void)words;
	(void)status;
	(void)stdin_fd;
	(void)ready;
	(void)go;
	(void)filter;
	errno = ENOSYS;
	fail("cannot create its namespaces", NULL);
#endif
}
