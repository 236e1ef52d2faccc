/*
 * The yardsticks of the referee benchmark.  Without -c: the round trip of
 * a line between two processes over a pair of pipes, as bare as it gets
 * (one blocking write and read each way).  With -c N: the referee's shape
 * without its work, a parent that keeps N echoing children on non-blocking
 * pipes and, for each round, writes a line to the next child in turn and
 * poll(2)s over all N children's outputs until its echo is back.  Both
 * report the wall time per round trip and the parent's own CPU time per
 * round trip, so the referee's wall time is compared with a wall time and
 * its CPU time with a CPU time.
 *
 * With -p CPU the parent and its children are kept on that one CPU, as the
 * referee keeps a table that asks one seat at a time (--cpu auto): the
 * stricter yardstick, since a wake-up on the same CPU is cheaper than one
 * across CPUs.
 *
 * Usage: bench_pipe [-n ROUNDS] [-s BYTES] [-c CHILDREN] [-p CPU]; prints
 * one JSON line {"pipe_rtt_us", "cpu_us", "rounds", "bytes", "children",
 * "cpu"} ("cpu" -1 when not kept on one).
 */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define MAX_CHILDREN	16

static void	echo_child(int, int, size_t);
static void	read_full(int, char *, size_t);

/* Reads exactly n bytes (blocking) or exits. */
static void
read_full(int fd, char *p, size_t n)
{
	ssize_t r;

	while (n > 0) {
		if ((r = read(fd, p, n)) <= 0)
			_exit(1);
		p += r;
		n -= (size_t)r;
	}
}

/* Echoes every message back until end of input. */
static void
echo_child(int in, int out, size_t size)
{
	static char buf[1 << 20];
	ssize_t r;

	for (;;) {
		if ((r = read(in, buf, size)) <= 0)
			_exit(0);
		if (r < (ssize_t)size)
			read_full(in, buf + r, size - (size_t)r);
		if (write(out, buf, size) != (ssize_t)size)
			_exit(1);
	}
}

int
main(int argc, char **argv)
{
	static char buf[1 << 20];
	const char *errstr;
	struct pollfd pfd[MAX_CHILDREN];
	long rounds = 100000, i;
	size_t size = 64, got, off;
	int to[MAX_CHILDREN][2], from[MAX_CHILDREN][2];
	int c, k, status, nchild = 0, n, poll_mode = 0, cpu = -1;
	cpu_set_t set;
	double t0, t1, c0, c1;
	pid_t pid[MAX_CHILDREN];
	ssize_t r;

	while ((c = getopt(argc, argv, "c:n:p:s:")) != -1)
		switch (c) {
		case 'c':
			nchild = (int)strtonum(optarg, 1, MAX_CHILDREN,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-c %s: %s", optarg, errstr);
			poll_mode = 1;
			break;
		case 'n':
			rounds = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 'p':
			cpu = (int)strtonum(optarg, 0, CPU_SETSIZE - 1,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-p %s: %s", optarg, errstr);
			break;
		case 's':
			size = (size_t)strtonum(optarg, 1, sizeof buf, &errstr);
			if (errstr != NULL)
				errx(2, "-s %s: %s", optarg, errstr);
			break;
		default:
			fprintf(stderr, "usage: bench_pipe [-n ROUNDS] "
			    "[-s BYTES] [-c CHILDREN] [-p CPU]\n");
			return 2;
		}
	if (cpu != -1) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) == -1)
			err(1, "-p %d", cpu);
	}
	n = poll_mode ? nchild : 1;
	for (k = 0; k < n; k++) {
		if (pipe(to[k]) == -1 || pipe(from[k]) == -1)
			err(1, "pipe");
		if ((pid[k] = fork()) == -1)
			err(1, "fork");
		if (pid[k] == 0) {
			close(to[k][1]);
			close(from[k][0]);
			echo_child(to[k][0], from[k][1], size);
		}
		close(to[k][0]);
		close(from[k][1]);
		if (poll_mode && (fcntl(from[k][0], F_SETFL, O_NONBLOCK) ==
		    -1 || fcntl(to[k][1], F_SETFL, O_NONBLOCK) == -1))
			err(1, "fcntl");
		pfd[k].fd = from[k][0];
		pfd[k].events = POLLIN;
	}
	memset(buf, 'x', size);
	buf[size - 1] = '\n';
	t0 = now_seconds();
	c0 = cpu_seconds();
	for (i = 0; i < rounds; i++) {
		k = (int)(i % n);
		if (!poll_mode) {
			if (write(to[k][1], buf, size) != (ssize_t)size)
				err(1, "write");
			read_full(from[k][0], buf, size);
			continue;
		}
		/* Non-blocking both ways, as the referee does. */
		for (off = 0; off < size; off += (size_t)r) {
			r = write(to[k][1], buf + off, size - off);
			if (r == -1 && errno == EAGAIN) {
				struct pollfd w = { to[k][1], POLLOUT, 0 };

				poll(&w, 1, -1);
				r = 0;
			} else if (r == -1)
				err(1, "write");
		}
		for (got = 0; got < size;) {
			if (poll(pfd, (nfds_t)n, -1) == -1)
				err(1, "poll");
			if (!(pfd[k].revents & (POLLIN | POLLHUP)))
				continue;
			r = read(from[k][0], buf + got, size - got);
			if (r == 0)
				errx(1, "child %d exited", k);
			if (r == -1 && errno != EAGAIN)
				err(1, "read");
			if (r > 0)
				got += (size_t)r;
		}
	}
	c1 = cpu_seconds();
	t1 = now_seconds();
	/* Later children hold earlier ones' pipes: end them by signal. */
	for (k = 0; k < n; k++) {
		kill(pid[k], SIGTERM);
		waitpid(pid[k], &status, 0);
	}
	printf("{\"pipe_rtt_us\":%.3f,\"cpu_us\":%.3f,\"rounds\":%ld,"
	    "\"bytes\":%zu,\"children\":%d,\"cpu\":%d}\n", (t1 - t0) * 1e6 /
	    (double)rounds, (c1 - c0) * 1e6 / (double)rounds, rounds, size,
	    poll_mode ? nchild : 0, cpu);
	return 0;
}
