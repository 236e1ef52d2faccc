/*
 * The seccomp filter every bot runs under (SECURITY.md): no file locks,
 * no inotify, and for a bot with no network (nonet) no sockets and no
 * io_uring.  Built before any fork (the child between fork and exec
 * allocates nothing), it is installed by the child itself or, under the
 * sandbox, by bwrap just before it execs the bot (bwrap needs the
 * sockets it refuses).  contain.c decides which bot gets which.
 */
#ifndef CARDARENA_SECCOMP_H
#define CARDARENA_SECCOMP_H

/* Builds the filter with (nonet) or without the sockets' part, once. */
void	 seccomp_build(int nonet);
/*
 * In the child: installs seccomp_build's filter, with no new privileges;
 * -1 (errno set) if it fails or was not built; 0 where there is no
 * filter (a system other than Linux on x86-64 or aarch64).
 */
int	 seccomp_install(int nonet);
/*
 * Builds the filter without sockets (nonet) and returns the read end of
 * a pipe (close on exec) holding its program, for bwrap's --seccomp,
 * which reads it to its end; -1 where there is no filter, -2 where there
 * is one but no pipe could hold it.
 */
int	 seccomp_pipe(void);

#endif
