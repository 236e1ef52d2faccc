/*
 * What every cardarena program says the same way on its command line:
 * --version, a bad option answered with one line that points to --help
 * (exit status 2), and the --limit-* options of the programs that start
 * bots.
 */
#ifndef CARDARENA_CLI_H
#define CARDARENA_CLI_H

#include <getopt.h>
#include <stddef.h>

struct contain;

/* Prints "PROG (cardarena) VERSION, protocol N" on stdout; exits 0. */
void	cli_version(const char *prog) __attribute__((noreturn));

/*
 * Reports the option getopt_long just refused (it returned c, '?' or
 * ':', with opterr 0) in one line with a hint to --help; exits 2.
 */
void	cli_bad_option(const char *prog, int c, char *const argv[])
	    __attribute__((noreturn));

/* Reports a bad command line in one line with a hint to --help; exits 2. */
void	cli_usage_error(const char *prog, const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));

/*
 * Reads s, the value of option name, as a whole number in [lo, hi], or
 * says why it is not (exit status 2).
 */
long long cli_number(const char *name, const char *s, long long lo,
	    long long hi);
/*
 * Reads s as cli_number does, but says only why it is not one: "NAME S:
 * why", the way cli_usage_error(prog, ...) says it (pointing to --help)
 * if prog is not NULL, else as errx(3) does (exit status 2).
 */
long long cli_whole(const char *prog, const char *name, const char *s,
	    long long lo, long long hi);

/*
 * Returns a getopt_long table (not to free; valid until the next call):
 * the entries of own, then one --limit-* option for each of contain.h's
 * limit_flags, in its order, with the values base to base +
 * NLIMIT_FLAGS - 1.
 */
struct option *cli_limit_longopts(const struct option *own, int base);
/*
 * Takes option c if it is one of the --limit-* options from base: sets
 * its limit in ct from its text arg, or says why it cannot (exit status
 * 2).  Returns 1 if c is one, else 0.
 */
int	cli_limit_option(struct contain *ct, int c, int base, const char *arg);

/*
 * Fills buf with the path of the program name beside the running one:
 * DIR/name (bin/ in the source tree), else DIR/cardarena-name (make
 * install gives every program the project's name); 0 if it can be run,
 * else -1 with buf holding DIR/name.
 */
int	cli_beside(const char *name, char *buf, size_t len);

#endif
