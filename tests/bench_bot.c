/*
 * The parse-free bot of the referee benchmark: it answers every request
 * with a random legal entry without parsing the JSON, only scanning the
 * line for the id and the top-level entries of the legal list (and the
 * range of a ranged entry), so that what a match costs beyond the
 * yardstick is the referee's and not a JSON parser's.  Not a bot to copy:
 * it trusts the referee's layout (the type first, the legal list last).
 *
 * Usage: bench_bot [--seed N] [--wants LIST]; LIST (e.g. "legal") is sent
 * in the hello as the parts of a request it wants.
 */
#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ENTRIES	4096

static uint64_t	state = 88172645463325252ULL;

static uint32_t	next_rand(void);
static void	say(const char *, size_t);
static void	request(char *, size_t);
static long long number_after(const char *, const char *, const char *);
static const char *quote_list(const char *);

/* xorshift64: enough for choosing. */
static uint32_t
next_rand(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 32);
}

/* "a,b" as the JSON array's inside "a","b". */
static const char *
quote_list(const char *s)
{
	static char q[128];
	size_t n = 0;

	q[n++] = '"';
	for (; *s != '\0' && n < sizeof q - 4; s++) {
		if (*s == ',') {
			q[n++] = '"';
			q[n++] = ',';
			q[n++] = '"';
		} else
			q[n++] = *s;
	}
	q[n++] = '"';
	q[n] = '\0';
	return q;
}

/* Writes one whole line to stdout or exits. */
static void
say(const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(1, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			exit(1);
		}
		s += w;
		n -= (size_t)w;
	}
}

/* The whole number after key in [p, end), or -1 if there is none. */
static long long
number_after(const char *p, const char *end, const char *key)
{
	const char *q;
	size_t k = strlen(key);

	q = memmem(p, (size_t)(end - p), key, k);
	if (q == NULL)
		return -1;
	return strtoll(q + k, NULL, 10);
}

/* Answers a request line with a random top-level entry of "legal". */
static void
request(char *line, size_t len)
{
	static const char *starts[MAX_ENTRIES + 1];
	const char *end = line + len, *p, *q, *legal = NULL;
	char out[128];
	long long id, lo, hi;
	int depth = 0, n = 0, k, instr = 0;

	id = number_after(line, end, "\"id\":");
	for (p = line; (q = memmem(p, (size_t)(end - p), "\"legal\":[", 9)) !=
	    NULL; p = q + 1)
		legal = q + 9;
	if (legal == NULL)
		return;
	starts[n++] = legal;
	for (p = legal; p < end; p++) {
		if (instr) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				instr = 0;
			continue;
		}
		if (*p == '"')
			instr = 1;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}')
			depth--;
		else if (*p == ']' && depth-- == 0)
			break;
		else if (*p == ',' && depth == 0 && n < MAX_ENTRIES)
			starts[n++] = p + 1;
	}
	starts[n] = p;
	k = (int)(next_rand() % (uint32_t)n);
	lo = number_after(starts[k], starts[k + 1], "\"min\":");
	if (lo >= 0) {
		hi = number_after(starts[k], starts[k + 1], "\"max\":");
		if (hi < lo)
			hi = lo;
		len = (size_t)snprintf(out, sizeof out, "{\"id\":%lld,\"index\":"
		    "%d,\"amount\":%lld}\n", id, k, lo + (long long)(next_rand() %
		    (uint32_t)(hi - lo + 1)));
	} else
		len = (size_t)snprintf(out, sizeof out, "{\"id\":%lld,\"index\":"
		    "%d}\n", id, k);
	say(out, len);
}

int
main(int argc, char **argv)
{
	static char buf[1 << 21];
	const char *wants = NULL;
	char hello[256], *nl, *start;
	size_t have = 0, n;
	ssize_t r;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			state ^= strtoull(argv[++i], NULL, 10) * 2654435761ULL;
		else if (strcmp(argv[i], "--wants") == 0 && i + 1 < argc)
			wants = quote_list(argv[++i]);
		else {
			fprintf(stderr, "usage: bench_bot [--seed N] "
			    "[--wants LIST]\n");
			return strcmp(argv[i], "--help") == 0 ? 0 : 2;
		}
	}
	for (;;) {
		r = read(0, buf + have, sizeof buf - have);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		have += (size_t)r;
		start = buf;
		while ((nl = memchr(start, '\n', have - (size_t)(start - buf)))
		    != NULL) {
			n = (size_t)(nl - start);
			if (n > 16 && memcmp(start, "{\"type\":\"request\"", 17)
			    == 0)
				request(start, n);
			else if (n > 14 && memcmp(start, "{\"type\":\"hello\"",
			    15) == 0) {
				if (wants != NULL)
					n = (size_t)snprintf(hello, sizeof hello,
					    "{\"type\":\"hello\",\"name\":"
					    "\"parse-free\",\"wants\":[%s]}\n",
					    wants);
				else
					n = (size_t)snprintf(hello, sizeof hello,
					    "{\"type\":\"hello\",\"name\":"
					    "\"parse-free\"}\n");
				say(hello, n);
			} else if (n > 12 && memcmp(start, "{\"type\":\"bye\"",
			    13) == 0)
				return 0;
			start = nl + 1;
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == sizeof buf)
			errx(1, "a line longer than %zu bytes", sizeof buf);
	}
}
