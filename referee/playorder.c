/*
 * What each game of a match is dealt from and in what order the games are
 * played: the deal seeds and the seat rotation of --duplicate, the deal
 * books, and the play order of the bots' lifetimes (see playorder.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "playorder.h"

uint64_t
match_deal_seed(uint64_t seed, int g, int players, int duplicate)
{
	return seed_derive(seed, (uint64_t)(duplicate ? g / players : g)) &
	    INT64_MAX;
}

int
match_seat_bot(int seat, int g, int players, int duplicate)
{
	if (!duplicate)
		return seat;
	return ((seat - g % players) + players) % players;
}

/*
 * Reads the next line of fp, its '\n' dropped, into buf (DEAL_BOOK_LINE + 1
 * bytes); returns its length, -1 at the end, or -2 if it is longer than
 * DEAL_BOOK_LINE bytes or holds a NUL byte (*nul set), having read no
 * more of it than that.
 */
static long
book_line(FILE *fp, char *buf, int *nul)
{
	long n = 0;
	int c;

	*nul = 0;
	while ((c = getc(fp)) != EOF && c != '\n') {
		if (c == '\0')
			*nul = 1;
		if (c == '\0' || n == DEAL_BOOK_LINE)
			return -2;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return c == EOF && n == 0 ? -1 : n;
}

json_t *
deal_book_read(const char *path, char *cause, size_t len)
{
	json_error_t je;
	json_t *a, *d;
	char *line, *p;
	long no = 0, n;
	int nul;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	line = xmalloc(DEAL_BOOK_LINE + 1);
	a = json_array();
	while ((n = book_line(fp, line, &nul)) != -1) {
		no++;
		if (n == -2) {
			snprintf(cause, len, nul ? "%s:%ld: a NUL byte (not "
			    "a text file)" : "%s:%ld: longer than %d bytes",
			    path, no, DEAL_BOOK_LINE);
			goto fail;
		}
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		if (json_array_size(a) == DEAL_BOOK_MAX) {
			snprintf(cause, len, "%s:%ld: more than %d deals",
			    path, no, DEAL_BOOK_MAX);
			goto fail;
		}
		if ((d = json_loads(p, JSON_REJECT_DUPLICATES, &je)) == NULL) {
			snprintf(cause, len, "%s:%ld: %s", path, no, je.text);
			goto fail;
		}
		json_array_append_new(a, d);
	}
	if (ferror(fp)) {
		snprintf(cause, len, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (json_array_size(a) == 0) {
		snprintf(cause, len, "%s: no deal in it", path);
		goto fail;
	}
	fclose(fp);
	free(line);
	return a;
fail:
	fclose(fp);
	free(line);
	json_decref(a);
	return NULL;
}

void *
deal_book_parse(const struct game *g, const struct opts *o, const json_t *a,
    int *n, char *cause, size_t len)
{
	char why[256];
	char *book;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) == 0 ||
	    json_array_size(a) > DEAL_BOOK_MAX) {
		snprintf(cause, len, "not a list of 1 to %d deals",
		    DEAL_BOOK_MAX);
		return NULL;
	}
	book = xcalloc(json_array_size(a), g->setup_size);
	for (i = 0; i < json_array_size(a); i++)
		if (g->setup_parse(json_array_get(a, i), o, book + i *
		    g->setup_size, why, sizeof why) == -1) {
			snprintf(cause, len, "deal %zu: %s", i + 1, why);
			free(book);
			return NULL;
		}
	*n = (int)json_array_size(a);
	return book;
}

const void *
deal_setup(const struct game *g, const void *setup, const void *book,
    int nbook, int gi, int players, int duplicate)
{
	int d = duplicate ? gi / players : gi;

	if (book == NULL || nbook < 1)
		return setup;
	return (const char *)book + (size_t)(d % nbook) * g->setup_size;
}

void
playorder_init(struct playorder *po, int ngames, int players, int duplicate,
    const int *list, int nlist, int replay, int first)
{
	int last[MAX_PLAYERS], i, l, k, g;

	memset(po, 0, sizeof *po);
	po->games = ngames;
	po->players = players;
	po->duplicate = duplicate && players > 1;
	po->first = first;
	po->nlife = po->duplicate ? players : 1;
	for (l = 0; l < po->nlife; l++)
		last[l] = -1;
	if (list == NULL) {
		for (l = 0; l < po->nlife; l++)
			last[l] = ngames - 1;
	} else {
		po->listed = xcalloc((size_t)ngames / 8 + 1, 1);
		for (i = 0; i < nlist; i++) {
			po->listed[list[i] / 8] |= 1 << list[i] % 8;
			l = po->duplicate ? list[i] % players : 0;
			if (list[i] > last[l])
				last[l] = list[i];
		}
	}
	if (list != NULL && !replay) {
		/* the listed games only, lifetime by lifetime */
		po->seq = xcalloc((size_t)nlist + 1, sizeof *po->seq);
		for (l = 0, k = 0; l < po->nlife; l++)
			for (g = 0; g < ngames; g++)
				if ((po->duplicate ? g % players : 0) == l &&
				    (po->listed[g / 8] & (1 << g % 8))) {
					po->seq[k++] = g;
					po->count[l]++;
				}
		po->total = k;
		return;
	}
	for (l = 0; l < po->nlife; l++) {
		/* the games of lifetime l (from first + l) up to last[l] */
		if (last[l] < first + (po->duplicate ? l : 0))
			po->count[l] = 0;
		else
			po->count[l] = po->duplicate ?
			    (last[l] - first - l) / players + 1 :
			    last[l] - first + 1;
		po->total += po->count[l];
	}
}

int
playorder_game(const struct playorder *po, long k, int *reported, int *fresh)
{
	int l, g;

	if (po->seq != NULL) {
		g = po->seq[k];
		*reported = 1;
		*fresh = k == 0 || (po->duplicate && po->seq[k - 1] %
		    po->players != g % po->players);
		return g;
	}
	for (l = 0; l < po->nlife - 1 && k >= po->count[l]; l++)
		k -= po->count[l];
	g = po->first + (po->duplicate ? l + (int)k * po->players : (int)k);
	*fresh = k == 0;
	*reported = po->listed == NULL ||
	    (po->listed[g / 8] & (1 << g % 8)) != 0;
	return g;
}

void
playorder_free(struct playorder *po)
{
	free(po->listed);
	free(po->seq);
	po->listed = NULL;
	po->seq = NULL;
}
