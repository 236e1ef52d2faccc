/*
 * The journal's game line read two ways (tournaments/base/journal.c): jgame_scan
 * reads a line in the canonical form (json_dumps of jgame_json's object)
 * without a JSON tree, jgame_parse reads any line through jansson.  Random
 * games written by jgame_json are taken by the scan when their strings are
 * plain and their scores whole, and then read exactly as jgame_parse reads
 * them; every single-byte damage, cut or extra byte of such a line is
 * either refused by the scan or is a line the scan reads as jgame_parse
 * does and that encodes back to the very text read (the scan takes no line
 * jgame_json would have written differently); hand-made lines just off the
 * canonical form are left to jgame_parse.  jgame_text, the runner's
 * writer of a game line without a tree, writes every game (random ones,
 * odd names, scores and seeds) as json_dumps writes jgame_json's object.
 * TAP output.
 *
 * Usage: t_journal [-n LINES] [-s SEED]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/journal.h"
#include "common.h"
#include "rng.h"

#define NAME_CHARS	"abcXYZ019 _-./:"

static void	 random_game(struct rng *, struct jgame *, char (*)[16],
		    json_t **);
static char	*line_of(const struct jgame *, const json_t *);
static int	 same(const struct jgame *, const struct jgame *);
static int	 agree(const char *, size_t);
static int	 left(const char *);
static int	 same_text(const struct jgame *, const json_t *);

/* Fills g with a random game; names are written into names. */
static void
random_game(struct rng *rg, struct jgame *g, char (*names)[16], json_t **seed)
{
	int i, n, c, len;

	memset(g, 0, sizeof *g);
	g->table = (long)rng_below(rg, 1000);
	g->game = (long)rng_below(rg, 1000000);
	g->deal = rng_below(rg, 8) == 0 ? (long)(rng_next(rg) >> 1) :
	    g->game / 4;
	g->k = 1 + (int)rng_below(rg, MAX_PLAYERS);
	for (i = 0; i < g->k; i++) {
		len = (int)rng_below(rg, 12);
		for (c = 0; c < len; c++)
			names[i][c] = NAME_CHARS[rng_below(rg,
			    sizeof NAME_CHARS - 1)];
		names[i][len] = '\0';
		if (rng_below(rg, 20) == 0)	/* escaped, or UTF-8 */
			strcpy(names[i], rng_below(rg, 2) ? "\"q" : "\xc3\xa9t");
		g->bots[i] = names[i];
		g->places[i] = 1 + (int)rng_below(rg, (uint32_t)g->k);
		switch (rng_below(rg, 8)) {
		case 0:
			g->scores[i] = (double)rng_below(rg, 1000) / 8;
			break;
		case 1:
			g->scores[i] = rng_below(rg, 2) ? 8999999999999999.0 :
			    -8999999999999999.0;
			break;
		default:
			g->scores[i] = (double)rng_below(rg, 100000) - 50000;
		}
		for (n = 0; n < NTFAULT; n++)
			g->faults[i][n] = rng_below(rg, 6) == 0 ?
			    (long)rng_below(rg, 1000) : 0;
	}
	g->capped = rng_below(rg, 4) == 0;
	if (rng_below(rg, 3) != 0)
		g->log = rng_below(rg, 10) == 0 ? "logs/\\t\"x\".jsonl" :
		    "logs/t00003.g40.d001.jsonl";
	switch (rng_below(rg, 4)) {
	case 0:
		*seed = NULL;
		break;
	case 1:
		*seed = json_integer(-(json_int_t)rng_below(rg, 1000000));
		break;
	default:
		*seed = json_integer((json_int_t)(rng_next(rg) >> 1));
	}
}

/* The journal line jgame_json writes of g (no newline): a new string. */
static char *
line_of(const struct jgame *g, const json_t *seed)
{
	json_t *j;
	char *s;

	j = jgame_json(g, seed);
	if ((s = json_dumps(j, JSON_COMPACT)) == NULL)
		errx(1, "cannot encode a game");
	json_decref(j);
	return s;
}

/* 1 if two games say the same, field by field. */
static int
same(const struct jgame *a, const struct jgame *b)
{
	int i;

	if (a->table != b->table || a->game != b->game ||
	    a->deal != b->deal || a->k != b->k || a->capped != b->capped ||
	    (a->log == NULL) != (b->log == NULL) ||
	    (a->log != NULL && strcmp(a->log, b->log) != 0))
		return 0;
	for (i = 0; i < a->k; i++)
		if (strcmp(a->bots[i], b->bots[i]) != 0 ||
		    a->places[i] != b->places[i] ||
		    a->scores[i] != b->scores[i] ||
		    memcmp(a->faults[i], b->faults[i],
		    sizeof a->faults[i]) != 0)
			return 0;
	return 1;
}

/*
 * 1 if the scan refuses text, or reads it as jgame_parse does and the
 * game encodes back to text; 2 if it took it, 0 if it is wrong.
 */
static int
agree(const char *text, size_t n)
{
	struct jgame s, p;
	json_t *j;
	char cause[256], *out, *back;
	int rc = 0;

	out = xcalloc(n + 1, 1);
	if (jgame_scan(text, n, &s, out) == -1) {
		free(out);
		return 1;
	}
	j = json_loadb(text, n, 0, NULL);
	if (j != NULL && jgame_parse(j, &p, cause, sizeof cause) == 0 &&
	    same(&s, &p) && s.text == text && s.textlen == n) {
		back = line_of(&s, json_object_get(j, "seed"));
		rc = strlen(back) == n && memcmp(back, text, n) == 0 ? 2 : 0;
		free(back);
	}
	json_decref(j);
	free(out);
	return rc;
}

/* 1 if jgame_text writes g as json_dumps writes jgame_json's object. */
static int
same_text(const struct jgame *g, const json_t *seed)
{
	char *want, *got;
	size_t n;
	int ok;

	want = line_of(g, seed);
	got = jgame_text(g, seed, &n);
	ok = got != NULL && n == strlen(want) && memcmp(got, want, n) == 0;
	free(want);
	free(got);
	return ok;
}

/* 1 if the scan leaves text to jgame_parse. */
static int
left(const char *text)
{
	struct jgame g;
	char out[1024];

	return jgame_scan(text, strlen(text), &g, out) == -1;
}

int
main(int argc, char **argv)
{
	static const char damage[] = "09-\"\\,:}]x. ";
	struct rng rg;
	struct jgame g;
	json_t *seed;
	char names[MAX_PLAYERS][16], *text, *bad;
	long lines = 200, i, taken = 0, plain = 0, wrong = 0, tried = 0;
	long strict = 0, texts = 0;
	static const char *const odd[] = { "\x7f", "a\tb", "\\", "/x",
	    "\xc3\xa9", "~ ", "" };
	static const double odd_scores[] = { 8999999999999999.0, 9e15, -9e15,
	    0.5, -0.0, 1e300 };
	json_t *str;
	unsigned long rseed = 7;
	size_t pos, len, d;
	int s, canon, rc;

	count_seed_args(argc, argv, "t_journal", &lines, &rseed);
	rng_seed(&rg, rseed);
	for (i = 0; i < lines; i++) {
		random_game(&rg, &g, names, &seed);
		text = line_of(&g, seed);
		len = strlen(text);
		texts += same_text(&g, seed);
		/* plain strings and whole scores: the scan must take it */
		canon = g.log == NULL || g.log[5] != '\\';
		for (s = 0; s < g.k; s++)
			canon = canon && names[s][0] != '"' &&
			    names[s][0] != '\xc3' &&
			    g.scores[s] == (double)(long long)g.scores[s];
		rc = agree(text, len);
		plain += canon;
		taken += canon && rc == 2;
		wrong += rc == 0 || (!canon && rc == 2);
		/* damage: one byte changed, cut or doubled */
		bad = xcalloc(len + 2, 1);
		for (pos = 0; pos < len && canon; pos++) {
			for (d = 0; d < sizeof damage - 1; d++) {
				if (text[pos] == damage[d])
					continue;
				memcpy(bad, text, len);
				bad[pos] = damage[d];
				rc = agree(bad, len);
				tried++;
				strict += rc == 2;
				wrong += rc == 0;
			}
			memcpy(bad, text, pos);
			memcpy(bad + pos, text + pos + 1, len - pos - 1);
			rc = agree(bad, len - 1);
			memcpy(bad, text, pos + 1);
			memcpy(bad + pos + 1, text + pos, len - pos);
			rc = rc == 0 ? 0 : agree(bad, len + 1);
			tried += 2;
			wrong += rc == 0;
		}
		free(bad);
		free(text);
		json_decref(seed);
	}
	tap_ok(texts == lines, "jgame_text writes %ld random games as "
	    "json_dumps writes jgame_json's object (%ld alike)", lines, texts);
	/* odd names, logs, scores and seeds: the tree's text again */
	random_game(&rg, &g, names, &seed);
	json_decref(seed);
	str = json_string("7");
	rc = same_text(&g, str) && same_text(&g, NULL);
	json_decref(str);
	for (i = 0; i < (long)(sizeof odd / sizeof odd[0]); i++) {
		g.bots[0] = odd[i];
		g.log = odd[i];
		rc = rc && same_text(&g, NULL);
		g.bots[0] = "a";
		g.log = NULL;
	}
	for (i = 0; i < (long)(sizeof odd_scores / sizeof odd_scores[0]);
	    i++) {
		g.scores[0] = odd_scores[i];
		rc = rc && same_text(&g, NULL);
	}
	tap_ok(rc, "jgame_text writes odd names, logs (DEL, a tab, a "
	    "backslash, a slash, UTF-8, empty), scores (9e15, -0, halves) "
	    "and seeds (none, a string) as json_dumps does");
	tap_ok(plain > 0 && taken == plain, "the scan takes every canonical "
	    "line of %ld random games (%ld of %ld)", lines, taken, plain);
	tap_ok(wrong == 0, "the scan and jgame_parse agree on every line "
	    "(%ld damaged lines tried, %ld of them still canonical; %ld "
	    "disagreements)", tried, strict, wrong);
	tap_ok(left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":-0,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false}") &&
	    left("{\"table\":0,\"game\":01,\"deal\":0,\"seed\":1,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false}") &&
	    left("{\"table\":0,\"game\":0,\"deal\":0,"
	    "\"seed\":9223372036854775808,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false}") &&
	    left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":1,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[9000000000000000],"
	    "\"faults\":[{\"timeout\":0,\"crash\":0,\"illegal\":0,"
	    "\"limit\":0}],\"capped\":false}") &&
	    left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":1,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0,"
	    "\"hello_timeout\":0}],\"capped\":false}") &&
	    left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":1,"
	    "\"bots\":[\"\\u0061\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false}") &&
	    left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":1,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false} ") &&
	    left("{\"table\":0,\"game\":0,\"seed\":1,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[0],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0}],"
	    "\"capped\":false}") &&
	    !left("{\"table\":0,\"game\":0,\"deal\":0,\"seed\":null,"
	    "\"bots\":[\"a\"],\"places\":[1],\"scores\":[-7],\"faults\":"
	    "[{\"timeout\":0,\"crash\":0,\"illegal\":0,\"limit\":0,"
	    "\"limit_cpu\":2}],\"capped\":true,\"log\":\"l\"}"),
	    "lines just off the canonical form (-0, a leading zero, a seed "
	    "past int64, a score past 9e15, an optional fault of 0, an "
	    "escape, a trailing space, no deal) are left to jgame_parse");
	return tap_done();
}
