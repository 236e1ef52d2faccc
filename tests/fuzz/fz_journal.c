/*
 * libFuzzer target: the results journal reader (journal_read, and each
 * game line through jgame_scan or jgame_parse) on any bytes, as a resumed
 * tournament reads what an earlier run left.  A game line it accepts must
 * encode back (jgame_json) without harm, and one the scan read, to the
 * very bytes read.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/journal.h"
#include "fz.h"

static int	 on_header(void *, const json_t *, char *, size_t);
static int	 on_game(void *, const struct jgame *, char *, size_t);
static void	 on_warn(void *, long, const char *);
static void	 load(const char *);

/* Takes the header line. */
static int
on_header(void *arg, const json_t *h, char *cause, size_t len)
{
	return json_is_object(h) ? 0 : -1;
}

/*
 * Takes a game line: encodes it again; a line the scan read without a
 * tree (canonical) must encode back to its very bytes.
 */
static int
on_game(void *arg, const struct jgame *g, char *cause, size_t len)
{
	json_t *j, *line = NULL;
	char *s;

	if (g->text != NULL && (line = json_loadb(g->text, g->textlen, 0,
	    NULL)) == NULL)
		abort();
	j = jgame_json(g, json_object_get(line, "seed"));
	if (g->text != NULL && ((s = json_dumps(j, JSON_COMPACT)) == NULL ||
	    strlen(s) != g->textlen || memcmp(s, g->text, g->textlen) != 0))
		abort();
	if (g->text != NULL)
		free(s);
	json_decref(j);
	json_decref(line);
	return 0;
}

/* Takes a damaged line's warning. */
static void
on_warn(void *arg, long lineno, const char *cause)
{
}

/* Reads the journal at path. */
static void
load(const char *path)
{
	struct jreader r;
	char cause[512];

	memset(&r, 0, sizeof r);
	r.header = on_header;
	r.game = on_game;
	r.warn = on_warn;
	journal_read(path, &r, cause, sizeof cause);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	return fz_file(d, n, load);
}
