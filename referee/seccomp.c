/*
 * The seccomp filter of every bot (seccomp_build, before any fork; the
 * child only installs it, seccomp_install): no file locks, the one channel
 * every bot has into any other through any file it may read (flock(2),
 * fcntl(2)'s record and open file description locks, F_GETLK included;
 * leases and F_NOTIFY), refused with ENOLCK; no inotify, whose watches see
 * another bot open and read a shared file (EACCES); and with nonet no
 * sockets (EACCES): no network, no abstract Unix socket to meet another
 * bot by, no io_uring to do any of it behind the filter's back.
 * socketpair(2) stays: it reaches no one.  For the native calls, x32's,
 * and (on x86-64) i386's, with socketcall(2) and fcntl64(2).  Under the
 * sandbox bwrap needs its sockets (netlink, to set up its network
 * namespace's loopback): the bot's filter without sockets goes to bwrap
 * (seccomp_pipe), which installs it just before it execs the bot; without
 * it a sandboxed bot reached a host's unix socket in a directory it was
 * shown, and opened netlink sockets and io_urings.  And no TIOCSTI (nor
 * TIOCLINUX) on any terminal (EPERM): a bot shares the referee's session,
 * whose terminal is the operator's, and an isolated bot pushed a line
 * into its input for the operator's shell to run.
 */
#include <sys/types.h>
#ifdef __linux__
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#endif
#include <sys/prctl.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "seccomp.h"

#define FILTER_MAX	128
static struct sock_filter	filter[FILTER_MAX];	/* being built */
static int			filter_len;
static struct sock_filter	filters[2][FILTER_MAX];	/* by nonet */
static int			filters_len[2];		/* 0: not built */

static void	 bpf_put(uint16_t, uint32_t, int, int);
static void	 filter_arch(const uint32_t *, const int *, int,
		    const uint32_t *, int, uint32_t);

/* Appends one BPF instruction to filter[]. */
static void
bpf_put(uint16_t code, uint32_t k, int jt, int jf)
{
	struct sock_filter f = BPF_JUMP(code, k, jt, jf);

	if (filter_len < FILTER_MAX)
		filter[filter_len] = f;
	filter_len++;
}

/*
 * Appends the checks of one architecture's system call numbers: the
 * denied calls nr (n of them, each with its errno e), then fcntl's lock
 * commands for the calls fc (nf of them).
 */
static void
filter_arch(const uint32_t *nr, const int *e, int n, const uint32_t *fc,
    int nf, uint32_t ioctl_nr)
{
	/* what a bot may not do to a terminal it holds: push keystrokes
	 * into its input (TIOCSTI: typed into the operator's shell once the
	 * referee ends), or the console's TIOCLINUX (paste its selection) */
	static const uint32_t ttys[] = { 0x5412, 0x541c };
	static const uint32_t locks[] = {
		5, 6, 7,	/* F_GETLK, F_SETLK, F_SETLKW */
		12, 13, 14,	/* i386's F_GETLK64, F_SETLK64, F_SETLKW64 */
		36, 37, 38,	/* F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW */
		1024, 1025,	/* F_SETLEASE, F_GETLEASE */
		1026		/* F_NOTIFY */
	};
	int i;

	for (i = 0; i < n; i++) {
		bpf_put(BPF_JMP | BPF_JEQ | BPF_K, nr[i], 0, 1);
		bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (uint32_t)e[i],
		    0, 0);
	}
	/* fcntl to its block past the ioctl's test and an allow; ioctl past
	 * the allow and the fcntl block */
	for (i = 0; i < nf; i++)
		bpf_put(BPF_JMP | BPF_JEQ | BPF_K, fc[i],
		    (uint32_t)(nf - i + 1), 0);
	bpf_put(BPF_JMP | BPF_JEQ | BPF_K, ioctl_nr,
	    (uint32_t)(1 + 2 + 2 * (sizeof locks / sizeof locks[0])), 0);
	bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	/* fcntl: its command, the low half of the second argument */
	bpf_put(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data,
	    args[1]), 0, 0);
	for (i = 0; i < (int)(sizeof locks / sizeof locks[0]); i++) {
		bpf_put(BPF_JMP | BPF_JEQ | BPF_K, locks[i], 0, 1);
		bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOLCK, 0, 0);
	}
	bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	/* ioctl: its request, the low half of the second argument */
	bpf_put(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data,
	    args[1]), 0, 0);
	for (i = 0; i < (int)(sizeof ttys / sizeof ttys[0]); i++) {
		bpf_put(BPF_JMP | BPF_JEQ | BPF_K, ttys[i], 0, 1);
		bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM, 0, 0);
	}
	bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
}

/* Builds filter[] for bots with (nonet) or without sockets, once. */
void
seccomp_build(int nonet)
{
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#ifdef __x86_64__
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#else
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#endif
	const uint32_t nr[] = { __NR_flock, __NR_inotify_init1,
#ifdef __NR_inotify_init
	    __NR_inotify_init,
#endif
	    __NR_socket, __NR_io_uring_setup };
	const int e[] = { ENOLCK, EACCES,
#ifdef __NR_inotify_init
	    EACCES,
#endif
	    EACCES, EACCES };
	/* i386: flock, inotify_init1, inotify_init; socketcall, socket,
	 * io_uring_setup; fcntl, fcntl64; ioctl is 54 */
	const uint32_t nr32[] = { 143, 332, 291, 102, 359, 425 };
	const int e32[] = { ENOLCK, EACCES, EACCES, EACCES, EACCES, EACCES };
	const uint32_t fc[] = { __NR_fcntl }, fc32[] = { 55, 221 };
	int n = (int)(sizeof nr / sizeof nr[0]), ja;

	if (filters_len[nonet] > 0)
		return;
	filter_len = 0;
	bpf_put(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch),
	    0, 0);
	bpf_put(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	ja = filter_len;
	bpf_put(BPF_JMP | BPF_JA, 0, 0, 0);
	bpf_put(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr),
	    0, 0);
	bpf_put(BPF_ALU | BPF_AND | BPF_K, ~0x40000000u, 0, 0);	/* x32 */
	filter_arch(nr, e, nonet ? n : n - 2, fc, 1, __NR_ioctl);
	filter[ja].k = (uint32_t)(filter_len - ja - 1);
	bpf_put(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 1, 0);
	bpf_put(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	bpf_put(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr),
	    0, 0);
	filter_arch(nr32, e32, nonet ? 6 : 3, fc32, 2, 54);
	if (filter_len > FILTER_MAX)
		errx(1, "the seccomp filter outgrew its %d instructions",
		    FILTER_MAX);
	memcpy(filters[nonet], filter, (size_t)filter_len * sizeof *filter);
	filters_len[nonet] = filter_len;
#undef NATIVE_ARCH
#else
	(void)nonet;
#endif
}

/* Installs filter[] (seccomp_build's) in the child; -1 if it fails. */
int
seccomp_install(int nonet)
{
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
	struct sock_fprog prog;

	if (filters_len[nonet] == 0) {
		errno = EINVAL;
		return -1;
	}
	prog.len = (unsigned short)filters_len[nonet];
	prog.filter = filters[nonet];
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#else
	(void)nonet;
	return 0;
#endif
}

/*
 * A pipe holding the program of the filter without sockets (for bwrap's
 * --seccomp, which reads it to its end), its read end; -1 where there is
 * no filter, -2 where there is one but no pipe could hold it.
 */
int
seccomp_pipe(void)
{
	int p[2];
	size_t len;

	seccomp_build(1);
	len = (size_t)filters_len[1] * sizeof filters[1][0];
	if (len == 0)
		return -1;
	if (pipe2(p, O_CLOEXEC) == -1)
		return -2;
	/* far less than a pipe holds (FILTER_MAX instructions) */
	if (write(p[1], filters[1], len) != (ssize_t)len) {
		close(p[0]);
		p[0] = -2;
	}
	close(p[1]);
	return p[0];
}
