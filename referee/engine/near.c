/*
 * "Did you mean": the optimal string alignment distance (Levenshtein
 * with the swap of two neighbouring letters as one edit), ignoring case,
 * between a mistyped word and each known name; a name is close when the
 * distance is at most 1 for a word of up to 4 letters, else at most 2,
 * and is suggested only when no other name is as close.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "near.h"

static int	distance(const char *, const char *);

/* The edit distance of a and b, both at most NEAR_MAX long. */
static int
distance(const char *a, const char *b)
{
	int d[NEAR_MAX + 1][NEAR_MAX + 1], n = (int)strlen(a),
	    m = (int)strlen(b), i, j, c, x;

	for (i = 0; i <= n; i++)
		d[i][0] = i;
	for (j = 0; j <= m; j++)
		d[0][j] = j;
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++) {
			c = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);
			x = d[i - 1][j - 1] + c;
			if (d[i - 1][j] + 1 < x)
				x = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < x)
				x = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < x)
				x = d[i - 2][j - 2] + 1;
			d[i][j] = x;
		}
	return d[n][m];
}

/* Starts a search for the names close to word. */
void
near_init(struct near *nr, const char *word)
{
	nr->word = word;
	nr->best = NULL;
	nr->dist = strlen(word) <= 4 ? 1 : 2;
	nr->ties = 0;
}

/* Offers one known name. */
void
near_offer(struct near *nr, const char *name)
{
	int d;

	if (strlen(nr->word) > NEAR_MAX || strlen(name) > NEAR_MAX ||
	    (d = distance(nr->word, name)) > nr->dist)
		return;
	if (nr->best != NULL && d == nr->dist)
		nr->ties++;
	else {
		nr->best = name;
		nr->dist = d;
		nr->ties = 0;
	}
}

/* The one name close to the word, or NULL if none or several are. */
const char *
near_best(const struct near *nr)
{
	return nr->ties == 0 ? nr->best : NULL;
}

/* "did you mean NAME? " into buf when one name is close, else ""; buf. */
const char *
near_say(const struct near *nr, char *buf, size_t len)
{
	if (near_best(nr) != NULL)
		snprintf(buf, len, "did you mean %s? ", near_best(nr));
	else if (len > 0)
		buf[0] = '\0';
	return buf;
}
