/*
 * libFuzzer target: the results line's decoder (referee/results.c) on any
 * bytes, the first choosing the bots (1..MAX_PLAYERS), as a runner reads
 * what a referee writes.  Its two readers must agree: a line the fast scan
 * (resline_scan) takes, jansson's parse (resline_parse) takes the same,
 * field by field; and a line either takes must encode (resline_encode) to
 * a line both read back to the same fields.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fz.h"
#include "results.h"

static void	 back(const struct resline *);

/* Encodes r and reads it back with both readers: the same, or abort. */
static void
back(const struct resline *r)
{
	struct resline d;
	struct buf b = { 0 };
	char cause[256];

	resline_encode(&b, r);
	if (b.len == 0 || b.p[b.len - 1] != '\n')
		abort();
	memset(&d, 0, sizeof d);
	if (resline_parse(b.p, b.len - 1, r->n, &d, cause, sizeof cause) ==
	    -1 || !resline_same(r, &d))
		abort();
	memset(&d, 0, sizeof d);
	if (resline_decode(b.p, b.len - 1, r->n, &d, cause, sizeof cause) ==
	    -1 || !resline_same(r, &d))
		abort();
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct resline s, p;
	char cause[256];
	const char *text;
	int n, scanned, parsed;

	if (size < 1)
		return 0;
	n = 1 + data[0] % MAX_PLAYERS;
	text = (const char *)data + 1;
	size--;
	memset(&s, 0, sizeof s);
	memset(&p, 0, sizeof p);
	scanned = resline_scan(text, size, n, &s) == 0;
	parsed = resline_parse(text, size, n, &p, cause, sizeof cause) == 0;
	if (scanned && (!parsed || !resline_same(&s, &p)))
		abort();
	if (parsed)
		back(&p);
	return 0;
}
