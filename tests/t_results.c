/*
 * The results line as a pair (referee/results.h): random lines encoded
 * then decoded come back equal, field by field; every single-byte damage,
 * cut or extra byte of an encoded line is either refused or decodes to a
 * line that encodes back to the very text read (the decoder accepts no
 * line the encoder could not have written differently); hand-made bad
 * lines are refused with the field named; the fault tables agree.  The
 * two readers behind resline_decode agree: resline_scan takes every line
 * of whole scores and a plain log, and reads it exactly as resline_parse
 * (jansson) does; every single-byte change, cut or doubled byte of such a
 * line is refused by the scan or read by both alike and encodes back to
 * the very text; lines just off the encoder's form are left to the parse.
 *
 * Usage: t_results [-n LINES] [-s SEED]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "results.h"
#include "rng.h"

/* A line of one bot with the given start, score and log. */
#define LINE0(start, score, log)	"{" start ",\"seats\":[0],"	\
	"\"places\":[1],\"scores\":[" score "],\"faults\":[0],"	\
	"\"fault_kinds\":[{\"timeout\":0,\"exit\":0,\"malformed\":0,"	\
	"\"line_too_long\":0,\"wrong_id\":0,\"illegal\":0,\"limit\":0}],"	\
	"\"hello_timeouts\":[0],\"limits\":[{\"cpu\":0,\"memory\":0,"	\
	"\"fsize\":0}],\"retired\":[false],\"capped\":false,\"log\":"	\
	log "}"

static void	 random_line(struct rng *, struct resline *);
static int	 bad(const char *, int, const char *);
static int	 agree(const char *, size_t, int);
static int	 left(const char *, int);

/* Fills r with a random game of 1..MAX_PLAYERS bots. */
static void
random_line(struct rng *rg, struct resline *r)
{
	int i, k, j, t;

	memset(r, 0, sizeof *r);
	r->n = 1 + (int)rng_below(rg, MAX_PLAYERS);
	r->game = (long)rng_below(rg, 1000000);
	r->seed = (int64_t)(rng_next(rg) & INT64_MAX);
	for (i = 0; i < r->n; i++)
		r->seats[i] = i;
	for (i = r->n - 1; i > 0; i--) {
		j = (int)rng_below(rg, (uint32_t)i + 1);
		t = r->seats[i];
		r->seats[i] = r->seats[j];
		r->seats[j] = t;
	}
	for (i = 0; i < r->n; i++) {
		r->places[i] = 1 + (int)rng_below(rg, (uint32_t)r->n);
		switch (rng_below(rg, 3)) {
		case 0:
			r->scores[i] = (double)rng_below(rg, 100000) - 50000;
			break;
		case 1:
			r->scores[i] = ((double)rng_below(rg, 1000000) - 500000)
			    / 64;
			break;
		default:
			r->scores[i] = 0;
		}
		for (k = 0; k < NFAULT; k++)
			r->kinds[i][k] = rng_below(rg, 4) == 0 ?
			    (long)rng_below(rg, 1000) : 0;
		r->hello[i] = r->kinds[i][FAULT_TIMEOUT] > 0 ?
		    (long)rng_below(rg, (uint32_t)r->kinds[i][FAULT_TIMEOUT] +
		    1) : 0;
		for (k = 0; k < NLIMIT; k++)
			r->limits[i][k] = (long)rng_below(rg, 3);
		r->retired[i] = rng_below(rg, 5) == 0;
	}
	r->capped = rng_below(rg, 4) == 0;
	switch (rng_below(rg, 3)) {
	case 0:
		snprintf(r->log, sizeof r->log, "logs/t%05u.d%03u \"x\"\\.jsonl",
		    rng_below(rg, 100000), rng_below(rg, 1000));
		break;
	case 1:
		snprintf(r->log, sizeof r->log, "logs/t%05u.d%03u.jsonl",
		    rng_below(rg, 100000), rng_below(rg, 1000));
		break;
	}
}

/* 1 if text is refused for n bots with a cause naming field. */
static int
bad(const char *text, int n, const char *field)
{
	struct resline r;
	char cause[256];

	if (resline_decode(text, strlen(text), n, &r, cause,
	    sizeof cause) == 0)
		return 0;
	return strstr(cause, field) != NULL;
}

/*
 * Reads text (n bytes) for bots by both readers: 1 if the scan leaves it
 * to the parse, 2 if both read it alike and it encodes back to the very
 * text, 0 if they disagree or the scan took a line the encoder would
 * write differently.
 */
static int
agree(const char *text, size_t n, int bots)
{
	struct resline s, p;
	struct buf b = { NULL, 0, 0 };
	char cause[256];
	int rc;

	if (resline_scan(text, n, bots, &s) == -1)
		return 1;
	if (resline_parse(text, n, bots, &p, cause, sizeof cause) == -1 ||
	    !resline_same(&s, &p))
		return 0;
	resline_encode(&b, &s);
	rc = b.len == n + 1 && memcmp(b.p, text, n) == 0 ? 2 : 0;
	buf_free(&b);
	return rc;
}

/* 1 if the scan leaves text for bots to resline_parse. */
static int
left(const char *text, int bots)
{
	struct resline r;

	return resline_scan(text, strlen(text), bots, &r) == -1;
}

int
main(int argc, char **argv)
{
	struct rng rg;
	struct resline r, back, again;
	struct buf b = { NULL, 0, 0 }, b2 = { NULL, 0, 0 };
	char cause[256], *copy;
	long lines = 2000, i, equal = 0, refused = 0, strict = 0, tried = 0;
	unsigned long seed = 7;
	size_t pos, len;
	long t, plain = 0, taken = 0, wrong = 0, tried2 = 0, still = 0;
	int k, ok, canon, rc;
	size_t d;
	static const char damage[] = "09-\"\\,:}]x. {[";

	count_seed_args(argc, argv, "t_results", &lines, &seed);
	rng_seed(&rg, seed);
	/* round trips */
	for (i = 0; i < lines; i++) {
		random_line(&rg, &r);
		b.len = 0;
		resline_encode(&b, &r);
		if (b.len > 0 && b.p[b.len - 1] == '\n' &&
		    resline_decode(b.p, b.len - 1, r.n, &back, cause,
		    sizeof cause) == 0 && resline_same(&r, &back))
			equal++;
		else
			fprintf(stderr, "# round trip failed: %s (%s)\n", b.p,
			    cause);
	}
	tap_ok(equal == lines, "%ld random lines of 1..%d bots come back "
	    "equal (%ld)", lines, MAX_PLAYERS, equal);
	/* the scan against the parse, on every damage of canonical lines */
	for (i = 0; i < lines / 20 + 1; i++) {
		random_line(&rg, &r);
		for (k = 0; k < r.n && i % 2 == 0; k++)	/* half canonical */
			r.scores[k] = (double)(long long)r.scores[k];
		if (i % 2 == 0 && strchr(r.log, '\\') != NULL)
			r.log[0] = '\0';
		b.len = 0;
		resline_encode(&b, &r);
		len = b.len - 1;
		canon = strchr(r.log, '\\') == NULL;
		for (k = 0; k < r.n; k++)
			canon = canon &&
			    r.scores[k] == (double)(long long)r.scores[k];
		rc = agree(b.p, len, r.n);
		plain += canon;
		taken += canon && rc == 2;
		wrong += rc == 0 || (!canon && rc == 2);
		copy = xcalloc(len + 2, 1);
		for (pos = 0; pos < len && canon; pos++) {
			for (d = 0; d < sizeof damage - 1; d++) {
				if (b.p[pos] == damage[d])
					continue;
				memcpy(copy, b.p, len);
				copy[pos] = damage[d];
				rc = agree(copy, len, r.n);
				tried2++;
				still += rc == 2;
				wrong += rc == 0;
			}
			memcpy(copy, b.p, pos);
			memcpy(copy + pos, b.p + pos + 1, len - pos - 1);
			rc = agree(copy, len - 1, r.n);
			memcpy(copy, b.p, pos + 1);
			memcpy(copy + pos + 1, b.p + pos, len - pos);
			rc = rc == 0 ? 0 : agree(copy, len + 1, r.n);
			tried2 += 2;
			wrong += rc == 0;
		}
		for (t = 1; canon && t <= 3; t++)	/* read as other counts */
			wrong += agree(b.p, len, r.n + (int)t) == 0 ||
			    agree(b.p, len, r.n - (int)t) == 0;
		free(copy);
	}
	tap_ok(plain > 0 && taken == plain, "the scan takes every line of "
	    "whole scores and a plain log (%ld of %ld)", taken, plain);
	tap_ok(wrong == 0, "the scan and resline_parse agree on every line "
	    "(%ld damaged lines tried, %ld of them still canonical; %ld "
	    "disagreements)", tried2, still, wrong);
	tap_ok(left(LINE0("\"game\":01,\"seed\":0", "0", "null"), 1) &&
	    !left(LINE0("\"game\":0,\"seed\":0", "0", "null"), 1) &&
	    left(LINE0("\"game\":0,\"seed\":-0", "0", "null"), 1) &&
	    left(LINE0("\"game\":0,\"seed\":9223372036854775808", "0",
	    "null"), 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "9000000000000000",
	    "null"), 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "1.5", "null"), 1) &&
	    left(LINE0("\"game\":0, \"seed\":0", "0", "null"), 1) &&
	    left(LINE0("\"seed\":0,\"game\":0", "0", "null"), 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "0", "\"\\u0061\""), 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "0", "\"\""), 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "0", "null") "\n", 1) &&
	    left(LINE0("\"game\":0,\"seed\":0", "0", "null"), 2) &&
	    !left(LINE0("\"game\":0,\"seed\":0", "-7", "\"l\""), 1),
	    "lines just off the encoder's form (a leading zero, -0, a seed "
	    "past int64, a score past 9e15, a real score, a space, another "
	    "key order, an escape, an empty log, a newline, another bot "
	    "count) are left to resline_parse");
	/* damaged lines: refused, or decoded to a line that encodes back
	 * to the text read */
	for (i = 0; i < lines; i++) {
		random_line(&rg, &r);
		b.len = 0;
		resline_encode(&b, &r);
		len = b.len - 1;
		copy = xmalloc(len + 2);
		for (k = 0; k < 8; k++) {
			memcpy(copy, b.p, len + 1);
			pos = rng_below(&rg, (uint32_t)len);
			switch (rng_below(&rg, 3)) {
			case 0:
				copy[pos] = (char)(' ' + rng_below(&rg, 95));
				t = (long)len;
				break;
			case 1:
				t = (long)pos;	/* cut */
				break;
			default:
				memmove(copy + pos + 1, copy + pos, len - pos);
				copy[pos] = (char)(' ' + rng_below(&rg, 95));
				t = (long)len + 1;
			}
			tried++;
			if (resline_decode(copy, (size_t)t, r.n, &back, cause,
			    sizeof cause) == -1) {
				refused++;
				continue;
			}
			/* accepted: it must say something the encoder says
			 * the same way, or be the same line */
			b2.len = 0;
			resline_encode(&b2, &back);
			ok = resline_decode(b2.p, b2.len - 1, r.n, &again,
			    cause, sizeof cause) == 0 && resline_same(&back, &again);
			strict += ok;
			if (!ok)
				fprintf(stderr, "# accepted but not stable: "
				    "%.*s\n", (int)t, copy);
		}
		free(copy);
	}
	tap_ok(refused + strict == tried, "%ld damaged lines: %ld refused, "
	    "%ld decoded to a stable line, none taken wrong", tried, refused,
	    strict);
	tap_ok(refused > tried / 2, "most damage is refused (%ld of %ld)",
	    refused, tried);
	/* fields named */
	tap_ok(bad("{\"game\":-1}", 2, "game"), "a negative game is refused");
	tap_ok(bad("nonsense", 2, "not JSON"), "text that is not JSON is "
	    "refused");
	random_line(&rg, &r);
	r.n = 3;
	r.seats[0] = 0;
	r.seats[1] = 1;
	r.seats[2] = 2;
	for (k = 0; k < 3; k++)
		r.places[k] = k + 1;
	b.len = 0;
	resline_encode(&b, &r);
	tap_ok(resline_decode(b.p, b.len, 3, &back, cause, sizeof cause) == 0,
	    "a line of 3 bots is read");
	tap_ok(bad(b.p, 4, "seats"), "a line of 3 bots read as 4 is refused "
	    "at its seats");
	copy = xstrdup(b.p);
	memcpy(strstr(copy, "\"seats\":[0,1,2]"), "\"seats\":[0,1,1]", 15);
	tap_ok(bad(copy, 3, "seats"), "seats that name a bot twice are "
	    "refused");
	free(copy);
	copy = xstrdup(b.p);
	k = (int)(strstr(copy, "\"faults\":[") - copy) + 10;
	copy[k] = copy[k] == '9' ? '8' : '9';
	tap_ok(bad(copy, 3, "faults"), "fault totals that disagree with "
	    "their kinds are refused");
	free(copy);
	/* the one fault table */
	for (k = 0, ok = 1; k < NFAULT; k++)
		ok &= fault_tkind[k] < NTFAULT_MAIN;
	tap_ok(ok && fault_tkind[FAULT_TIMEOUT] == TF_TIMEOUT &&
	    fault_tkind[FAULT_EXIT] == TF_CRASH &&
	    fault_tkind[FAULT_LIMIT] == TF_LIMIT &&
	    fault_tkind[FAULT_ILLEGAL] == TF_ILLEGAL &&
	    strcmp(tfault_names[TF_CPU + LIMIT_MEMORY], "limit_memory") == 0,
	    "every protocol fault maps to a table's kind");
	buf_free(&b);
	buf_free(&b2);
	return tap_done();
}
