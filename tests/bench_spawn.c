/*
 * The cost of starting a bot (make bench, tests/bench_security.sh): spawns
 * a bot with proc_spawn, waits for it to exit and reaps it, N times, as
 * the referee would with the given containment: "none" (no limits, the
 * referee's uid, sockets allowed), "limits" (the limits and, as root, a
 * uid of its own, neither isolated nor filtered), "isolated" (the
 * defaults: "limits", the socket filter and, as root, the namespaces and
 * private scratch) or "sandbox" (the defaults under bubblewrap).
 *
 * Usage: bench_spawn [-n N] none|limits|isolated|sandbox COMMAND...; prints
 * {"mode": M, "spawn_us": X} (the mean per bot).
 */
#include <err.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "contain.h"
#include "proc.h"

int
main(int argc, char **argv)
{
	struct contain c;
	struct proc p;
	struct pollfd pf;
	char cause[512];
	const char *errstr;
	double t0;
	int n = 50, i, ch;

	while ((ch = getopt(argc, argv, "+n:")) != -1) {
		if (ch != 'n')
			errx(2, "usage: bench_spawn [-n N] none|limits|"
			    "isolated|sandbox COMMAND...");
		n = (int)strtonum(optarg, 1, 100000, &errstr);
		if (errstr != NULL)
			errx(2, "-n %s: %s", optarg, errstr);
	}
	if (argc - optind < 2)
		errx(2, "usage: bench_spawn [-n N] none|limits|isolated|"
		    "sandbox COMMAND...");
	contain_init(&c);
	if (strcmp(argv[optind], "none") == 0) {
		c.cpu_s = c.mem_mb = c.nproc = c.fsize_mb = c.nofile = 0;
		c.user = BOT_USER_SAME;
		c.no_isolate = c.no_filter = 1;
	} else if (strcmp(argv[optind], "limits") == 0)
		c.no_isolate = c.no_filter = 1;
	else if (strcmp(argv[optind], "sandbox") == 0)
		c.sandbox = 1;
	else if (strcmp(argv[optind], "isolated") != 0)
		errx(2, "%s: not none, limits, isolated or sandbox",
		    argv[optind]);
	contain_set(&c);
	contain_self();
	if (c.sandbox && contain_check(cause, sizeof cause) == -1)
		errx(1, "%s", cause);
	t0 = now_seconds();
	for (i = 0; i < n; i++) {
		if (proc_spawn(&p, argv + optind + 1, cause, sizeof cause) ==
		    -1)
			errx(1, "%s", cause);
		proc_close_in(&p);
		while (!proc_exited(&p)) {
			pf.fd = p.pidfd;
			pf.events = POLLIN;
			poll(&pf, p.pidfd != -1 ? 1 : 0, 1);
		}
		proc_reap(&p);
	}
	printf("{\"mode\":\"%s\",\"spawn_us\":%.1f}\n", argv[optind],
	    (now_seconds() - t0) / n * 1e6);
	return 0;
}
