/*
 * The sandbox's own launcher, in place of bwrap (nsbox.c): the same words
 * (contain.c's sandbox_args, the part of bwrap's language the referee
 * writes) set up in-process, without bwrap's exec and the shell's.
 */
#ifndef CARDARENA_NSBOX_H
#define CARDARENA_NSBOX_H

#include <sys/types.h>

/*
 * In the child, where bwrap's exec would be: closes status (an exec's
 * sign that the child started) and runs the bot in namespaces of its own
 * as words say, its stdin from stdin_fd; with ready, writes a byte there
 * once the sandbox is up, with go then waits for a byte from it; with
 * filter the bot takes the seccomp filter without sockets.  Never
 * returns: this process stays on as the sandbox's first, exiting as its
 * init does; a step that fails is said on stderr, exit 1.
 */
void	 nsbox_exec(char *const *words, int status, int stdin_fd, int ready,
	    int go, int filter) __attribute__((noreturn));
/*
 * The init of a PID namespace of a bot's (the sandbox's, or an isolated
 * bot's): reaps whatever the namespace leaves to it and, once pid (the
 * bot) is gone, exits with its status, 128 + N for a bot killed by signal
 * N; the kernel then kills whatever is left in the namespace.  It holds
 * the bot's stdout and stderr, so that their end comes with its exit and
 * its status (a bot's end is told as the bot's own, however slow the
 * machine), never its stdin (a bot that closes its stdin is seen at once).
 */
void	 nsbox_init(pid_t pid) __attribute__((noreturn));

#endif
