/*
 * The command-line conventions shared by every program (cli.h): the
 * --version line and the one-line answer to a bad option, which names
 * the option and points to --help, with exit status 2; numbers read
 * within their range; the --limit-* options, made from contain.h's
 * table of limits; and where the programs beside the running one are,
 * in bin/ or installed.
 */
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "contain.h"
#include "proto.h"

void
cli_version(const char *prog)
{
	printf("%s (cardarena) %s, protocol %d\n", prog, CARDARENA_VERSION,
	    PROTOCOL_VERSION);
	exit(fflush(stdout) == EOF ? 1 : 0);
}

void
cli_bad_option(const char *prog, int c, char *const argv[])
{
	char shortopt[3] = { '-', 0, 0 };
	const char *what;

	/*
	 * A long option is the word just read; a short one is optopt; a
	 * --word given to plain getopt(3) is refused at its second '-',
	 * still inside the word.
	 */
	what = optind > 0 ? argv[optind - 1] : "?";
	if (optopt == '-' && argv[optind] != NULL &&
	    strncmp(argv[optind], "--", 2) == 0)
		what = argv[optind];
	else if ((what[0] != '-' || what[1] != '-') && optopt > 0 &&
	    optopt < 128) {
		shortopt[1] = (char)optopt;
		what = shortopt;
	}
	fflush(stdout);
	if (c == ':')
		fprintf(stderr, "%s: option %s needs a value (see %s "
		    "--help)\n", prog, what, prog);
	else
		fprintf(stderr, "%s: unknown option %s (see %s --help)\n",
		    prog, what, prog);
	exit(2);
}

void
cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", prog);
	exit(2);
}

/*
 * The table cli_limit_longopts made last: kept here, not by its caller, so
 * that the exits in the middle of parsing (--help, a bad option) leave
 * nothing allocated that no pointer holds.
 */
static struct option *limit_longopts;

struct option *
cli_limit_longopts(const struct option *own, int base)
{
	struct option *o;
	size_t n, k;

	for (n = 0; own[n].name != NULL; n++)
		;
	free(limit_longopts);
	limit_longopts = o = xcalloc(n + NLIMIT_FLAGS + 1, sizeof *o);
	memcpy(o, own, n * sizeof *o);
	for (k = 0; k < NLIMIT_FLAGS; k++)
		o[n + k] = (struct option){ limit_flags[k].flag + 2,
		    required_argument, NULL, base + (int)k };
	return o;
}

int
cli_limit_option(struct contain *ct, int c, int base, const char *arg)
{
	char cause[1024];

	if (c < base || c >= base + NLIMIT_FLAGS)
		return 0;
	if (contain_set_limit_text(ct, c - base, arg, cause,
	    sizeof cause) == -1)
		errx(2, "%s %s", limit_flags[c - base].flag, cause);
	return 1;
}

int
cli_beside(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX], *slash;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0)
		strlcpy(self, "bin/x", sizeof self);
	else
		self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	else
		strlcpy(self, ".", sizeof self);
	if ((size_t)snprintf(buf, len, "%s/cardarena-%s", self, name) < len &&
	    access(buf, X_OK) == 0)
		return 0;
	snprintf(buf, len, "%s/%s", self, name);
	return access(buf, X_OK) == 0 ? 0 : -1;
}

/*
 * Reads s, the value of option name, as a whole number in [lo, hi], or
 * says why it is not (exit status 2): with the range if range is set,
 * else as cli_usage_error(prog, ...) does if prog is not NULL, else as
 * errx(3) does.
 */
static long long
read_number(const char *prog, const char *name, const char *s, long long lo,
    long long hi, int range)
{
	const char *errstr;
	long long v;

	v = strtonum(s, lo, hi, &errstr);
	if (errstr == NULL)
		return v;
	if (range)
		errx(2, "%s %s: %s (from %lld to %lld)", name, s, errstr, lo,
		    hi);
	if (prog != NULL)
		cli_usage_error(prog, "%s %s: %s", name, s, errstr);
	errx(2, "%s %s: %s", name, s, errstr);
}

long long
cli_number(const char *name, const char *s, long long lo, long long hi)
{
	return read_number(NULL, name, s, lo, hi, 1);
}

long long
cli_whole(const char *prog, const char *name, const char *s, long long lo,
    long long hi)
{
	return read_number(prog, name, s, lo, hi, 0);
}
