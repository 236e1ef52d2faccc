/*
 * The yardstick of the referee benchmark: the round trip of a short line
 * between two processes over a pair of pipes, as bare as it gets (one
 * write and one read each way, blocking).  The referee's time per decision
 * is reported as a multiple of this, measured in the same run.
 *
 * Usage: bench_pipe [-n ROUNDS] [-s BYTES]; prints {"pipe_rtt_us": X}.
 */
#include <sys/wait.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double	now_s(void);
static void	echo_child(int, int, size_t);
static void	read_full(int, char *, size_t);

/* The monotonic clock in seconds. */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads exactly n bytes or exits. */
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
	char buf[65536];
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
	const char *errstr;
	char buf[65536];
	long rounds = 100000, i;
	size_t size = 64;
	int to[2], from[2], c, status;
	double t0, t1;
	pid_t pid;

	while ((c = getopt(argc, argv, "n:s:")) != -1)
		switch (c) {
		case 'n':
			rounds = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 's':
			size = (size_t)strtonum(optarg, 1, sizeof buf, &errstr);
			if (errstr != NULL)
				errx(2, "-s %s: %s", optarg, errstr);
			break;
		default:
			fprintf(stderr, "usage: bench_pipe [-n ROUNDS] "
			    "[-s BYTES]\n");
			return 2;
		}
	if (pipe(to) == -1 || pipe(from) == -1)
		err(1, "pipe");
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		echo_child(to[0], from[1], size);
	}
	close(to[0]);
	close(from[1]);
	memset(buf, 'x', size);
	buf[size - 1] = '\n';
	t0 = now_s();
	for (i = 0; i < rounds; i++) {
		if (write(to[1], buf, size) != (ssize_t)size)
			err(1, "write");
		read_full(from[0], buf, size);
	}
	t1 = now_s();
	close(to[1]);
	waitpid(pid, &status, 0);
	printf("{\"pipe_rtt_us\":%.3f,\"rounds\":%ld,\"bytes\":%zu}\n",
	    (t1 - t0) * 1e6 / (double)rounds, rounds, size);
	return 0;
}
