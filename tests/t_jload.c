/*
 * Unit tests of the C SDK's fast message reader (bots/lib/jload.h): for
 * any input, jload() returns the tree json_loadb(buf, len, 0, ...)
 * returns (json_equal, and the same compact dump: the same key order) or
 * gives up (NULL); it never returns a tree where jansson rejects.
 *   1. every message of fixed-seed matches of the five games (bin/referee
 *      and bin/random, run from the repository's root as tests/run does)
 *      is read by the fast path, as sent and re-encoded with \u escapes
 *      and indentation;
 *   2. random documents of a fixed seed (nesting, every escape, UTF-8,
 *      integers at json_int_t's edges, literals, odd whitespace,
 *      duplicate keys): the clean ones by the fast path, those with
 *      reals and out-of-range integers equal or given up;
 *   3. hostile inputs: byte flips and every truncation of real messages,
 *      invalid UTF-8 of each kind, control characters, bad escapes, deep
 *      nesting, huge numbers, top-level scalars, trailing garbage.
 */
#include <err.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bots/lib/jload.h"
#include "alloc.h"
#include "common.h"
#include "rng.h"

#define MAX_SAMPLES	64	/* real messages kept for the hostile tests */

enum want { ANY, FAST, REJECT };

struct sb {
	char	*p;
	size_t	 n, cap;
};

static struct rng rng;
static long	fails;		/* mismatches in the current group */
static char	*samples[MAX_SAMPLES];
static size_t	nsamples;

static void	sb_add(struct sb *, const void *, size_t);
static void	sb_printf(struct sb *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	show(const char *, const char *, const char *, size_t);
static int	check(const char *, size_t, enum want, const char *);
static int	check_s(const char *, enum want, const char *);
static long	log_messages(const char *);
static void	logs(void);
static void	gen_ws(struct sb *);
static void	gen_char(struct sb *, int);
static void	gen_string(struct sb *, int);
static void	gen_number(struct sb *, int);
static void	gen_value(struct sb *, int, int);
static void	random_docs(void);
static void	flips(void);
static void	truncations(void);
static void	utf8(void);
static void	strings(void);
static void	nesting(void);
static void	numbers(void);
static void	shapes(void);

/* Appends n bytes to b. */
static void
sb_add(struct sb *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

/* Appends formatted text to b. */
static void
sb_printf(struct sb *b, const char *fmt, ...)
{
	char s[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof s, fmt, ap);
	va_end(ap);
	sb_add(b, s, (size_t)n < sizeof s ? (size_t)n : sizeof s - 1);
}

/* Prints a failing input as a TAP comment, its bytes escaped, cut short. */
static void
show(const char *what, const char *why, const char *s, size_t n)
{
	size_t i;

	printf("#   %s, %s: ", what, why);
	for (i = 0; i < n && i < 300; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			printf("\\x%02x", (unsigned char)s[i]);
		else
			putchar(s[i]);
	printf("%s (%zu bytes)\n", n > 300 ? "..." : "", n);
}

/*
 * Reads buf[0..n) both ways: a tree from jload must be json_loadb's (equal,
 * the same compact dump); want FAST: jload must not give up; want REJECT:
 * jansson must reject it (and so jload).  Returns 1 if jload read it, 0 if
 * it gave up, -1 on a failure (counted in fails, the first few shown).
 */
static int
check(const char *buf, size_t n, enum want want, const char *what)
{
	json_error_t e;
	json_t *j, *r;
	char *dj = NULL, *dr = NULL;
	const char *why = NULL;

	j = jload(buf, n);
	r = json_loadb(buf, n, 0, &e);
	if (j != NULL && r == NULL)
		why = "jload read what jansson rejects";
	else if (j != NULL) {
		dj = json_dumps(j, JSON_COMPACT);
		dr = json_dumps(r, JSON_COMPACT);
		if (!json_equal(j, r) || dj == NULL || dr == NULL ||
		    strcmp(dj, dr) != 0)
			why = "a different tree";
	} else if (want == FAST)
		why = r == NULL ? "jansson rejects it too" : "jload gave up";
	if (why == NULL && want == REJECT && r != NULL)
		why = "jansson accepts it";
	if (why != NULL && fails++ < 3)
		show(what, why, buf, n);
	free(dj);
	free(dr);
	json_decref(r);
	json_decref(j);
	return why != NULL ? -1 : j != NULL;
}

/* check() of a NUL-terminated string. */
static int
check_s(const char *s, enum want want, const char *what)
{
	return check(s, strlen(s), want, what);
}

/*
 * Plays the match of args (bin/referee's game and options; three games of
 * bin/random) into a log and checks every message sent (the log's "msg"
 * member, as the bot reads it: with its newline) by the fast path, also
 * re-encoded; keeps a few as samples.  Returns the messages, -1 if the
 * referee failed.
 */
static long
log_messages(const char *args)
{
	char path[] = "/tmp/t_jload.XXXXXX", cmd[512], *line = NULL, *m;
	char *re;
	size_t cap = 0, len;
	ssize_t got;
	FILE *fp;
	json_t *t;
	long count = 0;
	int fd, n, i;

	if ((fd = mkstemp(path)) == -1)
		return -1;
	close(fd);
	n = args[strlen(args) - 1] - '0';
	len = (size_t)snprintf(cmd, sizeof cmd, "bin/referee %s -s 11 "
	    "--games 3 -q --log %s", args, path);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(cmd + len, sizeof cmd - len,
		    " -b 'bin/random --seed %d'", i + 1);
	if (len >= sizeof cmd - 12)
		errx(1, "command too long");
	strlcat(cmd, " >/dev/null", sizeof cmd);
	if (system(cmd) != 0 || (fp = fopen(path, "r")) == NULL) {
		unlink(path);
		return -1;
	}
	while ((got = getline(&line, &cap, fp)) > 0) {
		check(line, (size_t)got, ANY, "log line");
		if (strncmp(line, "{\"type\":\"send\"", 14) != 0 ||
		    (m = strstr(line, ",\"msg\":")) == NULL || got < 3)
			continue;
		m += 7;
		len = (size_t)(line + got - 2 - m);
		m[len] = '\n';
		count++;
		if (check(m, len + 1, FAST, "message") != 1 ||
		    (t = jload(m, len)) == NULL)
			continue;
		re = json_dumps(t, JSON_ENSURE_ASCII | JSON_INDENT(1));
		check_s(re, FAST, "re-encoded");
		if (nsamples < MAX_SAMPLES && rng_below(&rng, 16) == 0) {
			samples[nsamples] = xmalloc(len + 1);
			memcpy(samples[nsamples], m, len);
			samples[nsamples++][len] = '\0';
		}
		free(re);
		json_decref(t);
	}
	free(line);
	fclose(fp);
	unlink(path);
	return count;
}

/* Test 1: every message of matches of the five games. */
static void
logs(void)
{
	static const char *const cfg[] = {
		"-g stocks -n 3", "-g stocks -n 6", "-g speculation -n 4",
		"-g speculation -n 7", "-g nyse -n 3", "-g nyse -n 5",
		"-g daifugo -n 4", "-g daifugo -n 6", "-g horserace -n 3",
		"-g horserace -o calcutta=true -n 5", "-g horserace -n 8",
	};
	long n;
	size_t i;

	for (i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
		fails = 0;
		n = log_messages(cfg[i]);
		tap_ok(n > 20 && fails == 0, "%s: %ld messages read by the "
		    "fast path, as jansson reads them (%ld failures)", cfg[i],
		    n, fails);
	}
}

/* Appends JSON whitespace, often none. */
static void
gen_ws(struct sb *b)
{
	static const char *const ws[] = { "", "", "", " ", "\t", "\n", "\r",
	    "  \n\t\r " };

	sb_printf(b, "%s", ws[rng_below(&rng, 8)]);
}

/*
 * Appends one character of a string's text: plain ASCII, an escape of
 * each kind, a \u escape (a surrogate pair too), raw UTF-8 of 2 to 4
 * bytes; unless clean, now and then one jansson rejects.
 */
static void
gen_char(struct sb *b, int clean)
{
	static const char *const bad[] = { "\\u0000", "\\uD800", "\\uDC01",
	    "\\uD800\\u0041", "\\x", "\x01", "\x1f", "\xc0\x80", "\xed\xa0\x80",
	    "\xf4\x90\x80\x80", "\xff", "\\u12", "\t" };
	static const char *const esc[] = { "\\\"", "\\\\", "\\/", "\\b",
	    "\\f", "\\n", "\\r", "\\t" };
	char u[5];
	unsigned c, hi;

	switch (rng_below(&rng, clean ? 7 : 8)) {
	case 0:
	case 1:
		u[0] = (char)(0x20 + rng_below(&rng, 0x60));
		if (u[0] == '"' || u[0] == '\\')
			u[0] = 'x';
		sb_add(b, u, 1);
		return;
	case 2:
		sb_printf(b, "%s", esc[rng_below(&rng, 8)]);
		return;
	case 3:
		do
			c = 1 + rng_below(&rng, 0xFFFF);
		while (c >= 0xD800 && c <= 0xDFFF);
		sb_printf(b, rng_below(&rng, 2) ? "\\u%04x" : "\\u%04X", c);
		return;
	case 4:
		hi = 0xD800 + rng_below(&rng, 0x400);
		sb_printf(b, "\\u%04X\\u%04x", hi, 0xDC00 + rng_below(&rng,
		    0x400));
		return;
	case 5:
		c = 0x80 + rng_below(&rng, 0x780);
		sb_printf(b, "%c%c", 0xC0 | c >> 6, 0x80 | (c & 0x3F));
		return;
	case 6:
		if (rng_below(&rng, 2)) {
			do
				c = 0x800 + rng_below(&rng, 0xF800);
			while (c >= 0xD800 && c <= 0xDFFF);
			sb_printf(b, "%c%c%c", 0xE0 | c >> 12,
			    0x80 | (c >> 6 & 0x3F), 0x80 | (c & 0x3F));
		} else {
			c = 0x10000 + rng_below(&rng, 0x100000);
			sb_printf(b, "%c%c%c%c", 0xF0 | c >> 18,
			    0x80 | (c >> 12 & 0x3F), 0x80 | (c >> 6 & 0x3F),
			    0x80 | (c & 0x3F));
		}
		return;
	default:
		sb_printf(b, "%s", bad[rng_below(&rng, 13)]);
	}
}

/* Appends a string of 0 to 11 characters, or one of a few short keys. */
static void
gen_string(struct sb *b, int clean)
{
	static const char *const keys[] = { "a", "b", "type", "id", "" };
	int i, n;

	if (rng_below(&rng, 3) == 0) {
		sb_printf(b, "\"%s\"", keys[rng_below(&rng, 5)]);
		return;
	}
	sb_add(b, "\"", 1);
	n = (int)rng_below(&rng, 12);
	for (i = 0; i < n; i++)
		gen_char(b, clean);
	sb_add(b, "\"", 1);
}

/*
 * Appends an integer (small, 64-bit at random, at json_int_t's edges);
 * unless clean, now and then one just past the edges, a real or a
 * malformed number.
 */
static void
gen_number(struct sb *b, int clean)
{
	static const char *const edge[] = { "9223372036854775807",
	    "-9223372036854775808", "-9223372036854775807", "0", "-0",
	    "9223372036854775806" };
	static const char *const odd[] = { "9223372036854775808",
	    "-9223372036854775809", "18446744073709551616", "1.5", "-0.0",
	    "1e3", "2E-2", "1e400", "01", "-", "+1", ".5", "1.", "-a",
	    "99999999999999999999999999" };

	switch (rng_below(&rng, clean ? 3 : 4)) {
	case 0:
		sb_printf(b, "%d", (int)rng_below(&rng, 2001) - 1000);
		return;
	case 1:
		sb_printf(b, "%lld", (long long)rng_next(&rng));
		return;
	case 2:
		sb_printf(b, "%s", edge[rng_below(&rng, 6)]);
		return;
	default:
		sb_printf(b, "%s", odd[rng_below(&rng, 15)]);
	}
}

/* Appends a random value; depth bounds its nesting. */
static void
gen_value(struct sb *b, int depth, int clean)
{
	static const char *const lit[] = { "true", "false", "null" };
	int i, n, k;

	k = (int)rng_below(&rng, depth > 0 ? 6 : 3);
	if (k == 0)
		gen_string(b, clean);
	else if (k == 1)
		gen_number(b, clean);
	else if (k == 2)
		sb_printf(b, "%s", lit[rng_below(&rng, 3)]);
	else {
		n = (int)rng_below(&rng, 6);
		sb_add(b, k == 3 ? "[" : "{", 1);
		gen_ws(b);
		for (i = 0; i < n; i++) {
			if (i > 0) {
				sb_add(b, ",", 1);
				gen_ws(b);
			}
			if (k != 3) {
				gen_string(b, clean);
				gen_ws(b);
				sb_add(b, ":", 1);
				gen_ws(b);
			}
			gen_value(b, depth - 1, clean);
			gen_ws(b);
		}
		sb_add(b, k == 3 ? "]" : "}", 1);
	}
}

/*
 * Test 2: random documents, an object or an array at the top: the clean
 * ones must be read by the fast path, the others read as jansson reads
 * them or given up.
 */
static void
random_docs(void)
{
	struct sb b = { NULL, 0, 0 };
	long fast = 0, total = 4000, i;
	int clean;

	for (clean = 1; clean >= 0; clean--) {
		fails = 0;
		fast = 0;
		for (i = 0; i < total; i++) {
			b.n = 0;
			gen_ws(&b);
			sb_add(&b, i % 2 ? "[" : "{\"k\":", i % 2 ? 1 : 5);
			gen_value(&b, 1 + (int)rng_below(&rng, 6), clean);
			sb_add(&b, i % 2 ? "]" : "}", 1);
			gen_ws(&b);
			if (check(b.p, b.n, clean ? FAST : ANY, "random") == 1)
				fast++;
		}
		tap_ok(fails == 0 && fast > (clean ? total - 1 : total / 20),
		    "%ld random %s documents: %ld read by the fast path, the "
		    "rest given up (%ld failures)", total, clean ? "clean" :
		    "mixed", fast, fails);
	}
	free(b.p);
}

/* Test 3a: real messages with one to three bytes changed. */
static void
flips(void)
{
	static const char hot[] = "\"\\{}[],:0-e.\x01\x1f\x7f\x80\xbf\xc0"
	    "\xc2\xe0\xed\xf4\xf5\xff \nu";
	char *m;
	size_t n, i, k;
	long read = 0, rounds = 6000;

	fails = 0;
	for (i = 0; i < (size_t)rounds && nsamples > 0; i++) {
		m = xstrdup(samples[i % nsamples]);
		n = strlen(m);
		for (k = 1 + rng_below(&rng, 3); k > 0; k--)
			m[rng_below(&rng, (uint32_t)n)] = rng_below(&rng, 2) ?
			    hot[rng_below(&rng, sizeof hot - 1)] :
			    (char)rng_below(&rng, 256);
		if (check(m, n, ANY, "flip") == 1)
			read++;
		free(m);
	}
	tap_ok(nsamples > 10 && fails == 0, "%ld messages with bytes "
	    "changed: %ld read, as jansson reads them, the rest given up "
	    "(%ld failures)", rounds, read, fails);
}

/* Test 3b: every truncation of a few real messages. */
static void
truncations(void)
{
	size_t s, n, read = 0, cuts = 0;

	fails = 0;
	for (s = 0; s < nsamples && s < 8; s++)
		for (n = 0; n < strlen(samples[s]); n++, cuts++)
			if (check(samples[s], n, REJECT, "truncated") == 1)
				read++;
	tap_ok(cuts > 1000 && fails == 0 && read == 0, "%zu truncations of "
	    "real messages: all rejected by jansson and given up (%ld "
	    "failures)", cuts, fails);
}

/*
 * Test 3c: invalid UTF-8 of each kind in a string (a value, a key) is
 * given up; valid sequences at the edges of each length are read.
 */
static void
utf8(void)
{
	static const char *const bad[] = { "\x80", "\xbf", "\xc0\x80",
	    "\xc1\xbf", "\xc2", "\xc2\x41", "\xe0\x80\x80", "\xe0\x9f\xbf",
	    "\xe2\x82", "\xe2\x28\xa1", "\xed\xa0\x80", "\xed\xbf\xbf",
	    "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf0\x9f\x98",
	    "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80",
	    "\xfe", "\xff", "\xc2\xc2\x80" };
	static const char *const good[] = { "\xc2\x80", "\xdf\xbf",
	    "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
	    "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\x7f" };
	char doc[64];
	size_t i, nb = sizeof bad / sizeof bad[0];
	size_t ng = sizeof good / sizeof good[0];

	fails = 0;
	for (i = 0; i < nb; i++) {
		snprintf(doc, sizeof doc, "[\"a%sb\"]", bad[i]);
		check_s(doc, REJECT, "bad UTF-8");
		snprintf(doc, sizeof doc, "{\"%s\":1}", bad[i]);
		check_s(doc, REJECT, "bad UTF-8 key");
		snprintf(doc, sizeof doc, "[\"x\\n%s\"]", bad[i]);
		check_s(doc, REJECT, "bad UTF-8 after an escape");
	}
	tap_ok(fails == 0, "%zu kinds of invalid UTF-8 given up (%ld "
	    "failures)", nb, fails);
	fails = 0;
	for (i = 0; i < ng; i++) {
		snprintf(doc, sizeof doc, "{\"%s\":[\"%s\\t%s\"]}", good[i],
		    good[i], good[i]);
		check_s(doc, FAST, "good UTF-8");
	}
	tap_ok(fails == 0, "%zu UTF-8 sequences at the edges read (%ld "
	    "failures)", ng, fails);
}

/* Test 3d: control characters and escapes in strings and keys. */
static void
strings(void)
{
	static const char *const good[] = { "\\\"", "\\\\", "\\/", "\\b",
	    "\\f", "\\n", "\\r", "\\t", "\\u0001", "\\u001F", "\\u007f",
	    "\\u00e9", "\\u0800", "\\uFFFF", "\\uD800\\uDC00",
	    "\\udbff\\udfff", "\\uD83D\\uDE00x", "\\u20AC\\u20ac" };
	static const char *const bad[] = { "\\a", "\\x41", "\\U0041", "\\u12",
	    "\\u00G0", "\\u0000", "\\uD800", "\\uDC00", "\\uD800\\u0041",
	    "\\uD800x", "\\uDBFF\\uDBFF", "\\", "\\ ", "\\'" };
	char doc[160];
	size_t i;
	int c;

	fails = 0;
	for (c = 0; c < 0x20; c++) {
		snprintf(doc, sizeof doc, "[\"a%cb\"]", c ? c : '?');
		if (c == 0)
			doc[3] = '\0';
		check(doc, 7, REJECT, "control character");
		snprintf(doc, sizeof doc, "{\"k%c\":1}", c ? c : '?');
		if (c == 0)
			doc[3] = '\0';
		check(doc, 8, REJECT, "control character in a key");
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(doc, sizeof doc, "[\"a%s\"]", bad[i]);
		check_s(doc, REJECT, "bad escape");
		snprintf(doc, sizeof doc, "{\"%s\":0}", bad[i]);
		check_s(doc, REJECT, "bad escape in a key");
	}
	tap_ok(fails == 0, "32 control characters and %zu bad escapes given "
	    "up (%ld failures)", sizeof bad / sizeof bad[0], fails);
	fails = 0;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		snprintf(doc, sizeof doc, "{\"%s\":\"%s\",\"k%s\":[\"%s\"]}",
		    good[i], good[i], good[i], good[i]);
		check_s(doc, FAST, "escape");
	}
	tap_ok(fails == 0, "%zu escapes read as jansson reads them (%ld "
	    "failures)", sizeof good / sizeof good[0], fails);
}

/* Test 3e: nesting of 3000 levels (jansson's limit is 2048). */
static void
nesting(void)
{
	static const int depth[] = { 3000, 2049, 2048, JLOAD_MAX_DEPTH + 1,
	    JLOAD_MAX_DEPTH };
	struct sb a = { NULL, 0, 0 }, o = { NULL, 0, 0 };
	size_t i;
	int k, r[2];

	fails = 0;
	for (i = 0; i < sizeof depth / sizeof depth[0]; i++) {
		a.n = o.n = 0;
		for (k = 0; k < depth[i]; k++) {
			sb_add(&a, "[", 1);
			sb_add(&o, "{\"a\":", 5);
		}
		sb_add(&o, "1", 1);
		for (k = 0; k < depth[i]; k++) {
			sb_add(&a, "]", 1);
			sb_add(&o, "}", 1);
		}
		r[0] = check(a.p, a.n, depth[i] > JSON_PARSER_MAX_DEPTH ?
		    REJECT : depth[i] > JLOAD_MAX_DEPTH ? ANY : FAST, "nest");
		r[1] = check(o.p, o.n, depth[i] > JSON_PARSER_MAX_DEPTH ?
		    REJECT : depth[i] > JLOAD_MAX_DEPTH ? ANY : FAST, "nest");
		if (depth[i] > JLOAD_MAX_DEPTH && (r[0] != 0 || r[1] != 0) &&
		    fails++ < 3)
			printf("#   depth %d read\n", depth[i]);
	}
	tap_ok(fails == 0, "nesting of 3000, 2049, 2048, %d levels given up, "
	    "of %d read (%ld failures)", JLOAD_MAX_DEPTH + 1,
	    JLOAD_MAX_DEPTH, fails);
	free(a.p);
	free(o.p);
}

/* Test 3f: integers at json_int_t's edges and past them, reals. */
static void
numbers(void)
{
	static const char *const fast[] = { "[9223372036854775807]",
	    "[-9223372036854775808]", "[0]", "[-0]", "[ -1 , 10 ]",
	    "{\"a\":123456789012345678}", "[0,-0,1]" };
	static const char *const reject[] = { "[9223372036854775808]",
	    "[-9223372036854775809]", "[99999999999999999999999]",
	    "[-99999999999999999999999]", "[01]", "[-01]", "[00]", "[-]",
	    "[+1]", "[.5]", "[1.]", "[1e]", "[-a]", "[1e400]", "[0x10]",
	    "[1 2]", "[--1]" };
	static const char *const real[] = { "[1.5]", "[-0.0]", "[1e3]",
	    "[2E-2]", "[1.0e+2]", "{\"a\":0.1}" };
	size_t i;
	int gave = 0;

	fails = 0;
	for (i = 0; i < sizeof fast / sizeof fast[0]; i++)
		check_s(fast[i], FAST, "integer");
	for (i = 0; i < sizeof reject / sizeof reject[0]; i++)
		check_s(reject[i], REJECT, "bad number");
	for (i = 0; i < sizeof real / sizeof real[0]; i++)
		if (check_s(real[i], ANY, "real") == 0)
			gave++;
	tap_ok(fails == 0, "integers at the edges read, %zu bad numbers "
	    "given up, %d of %zu reals given up (%ld failures)",
	    sizeof reject / sizeof reject[0], gave,
	    sizeof real / sizeof real[0], fails);
}

/*
 * Test 3g: the document's shape: a top-level scalar, trailing garbage, a
 * NUL byte, bad separators and literals, duplicate keys, whitespace.
 */
static void
shapes(void)
{
	static const char *const reject[] = { "1", "\"a\"", "true", "null",
	    "", " \n", "[1] x", "[1]]", "{}{}", "[tru]", "[truex]", "[True]",
	    "[nul]", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "{\"a\"}",
	    "[", "{", "{\"a\":", "[,1]", "{,}", "[1;2]", "\xef\xbb\xbf[]",
	    "[]\v", "[]\f", "\v[]", "[\"a\"\"b\"]", "{\"a\"::1}", "[nulls]" };
	static const char *const fast[] = { "{}", "[]", " \t\r\n{ } \n",
	    "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1},\"a\":[true,false,null]}",
	    "{\"b\":1,\"a\":2,\"b\":3,\"c\":{},\"a\":[]}", "[[],{},[[]]]",
	    "{\"\":\"\"}", "[true,false,null]\n" };
	static const char nul[][8] = { "[1]\0", "[\"a\0b\"]", "\0[]" };
	static const size_t nuln[] = { 4, 7, 3 };
	size_t i;

	fails = 0;
	for (i = 0; i < sizeof reject / sizeof reject[0]; i++)
		check_s(reject[i], REJECT, "shape");
	for (i = 0; i < sizeof nul / sizeof nul[0]; i++)
		check(nul[i], nuln[i], REJECT, "NUL byte");
	for (i = 0; i < sizeof fast / sizeof fast[0]; i++)
		check_s(fast[i], FAST, "shape");
	tap_ok(fails == 0, "%zu bad shapes given up, %zu good ones read (%ld "
	    "failures)", sizeof reject / sizeof reject[0] + 3,
	    sizeof fast / sizeof fast[0], fails);
}

int
main(void)
{
	size_t i;

	rng_seed(&rng, 20261207);
	logs();
	random_docs();
	flips();
	truncations();
	utf8();
	strings();
	nesting();
	numbers();
	shapes();
	for (i = 0; i < nsamples; i++)
		free(samples[i]);
	return tap_done();
}
