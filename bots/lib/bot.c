/*
 * The C bot SDK's protocol loop; see bot.h.  Lines are read with getline
 * (the referee caps their length) and answered with one write each.  A
 * message's type is read from the line's start (the referee writes it
 * first); only the messages a bot sees are parsed (jload.h's fast
 * reader, jansson's when it gives up), a start is scanned for its game
 * and seat, and the answers are written as text.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "jload.h"

static unsigned	wants = BOT_WANT_ALL;

static void	usage(const char *, FILE *);
static void	answer(const json_t *);
static void	say(const char *, int);
static const char *msg_type(const char *, size_t, size_t *);
static int	scan_int(const char *, size_t, const char *, long long *);
static int	parse_wants(const char *);
static int	args_read(int, char **, const char *, struct bot *);
static void	hello_answer(struct bot *, json_t *);
static void	request_answer(struct bot *, json_t *, bot_choose_fn);

/* Prints the usage of a bot program. */
static void
usage(const char *name, FILE *fp)
{
	fprintf(fp, "usage: %s [--seed N] [--wants LIST]\n"
	    "A cardarena bot: speaks the protocol (protocol.md) on stdin and "
	    "stdout;\nrun it under bin/referee, e.g. bin/referee -g horserace "
	    "-b bin/%s -b ...\n"
	    "  --seed N      the seed of its random choices (default: a fresh "
	    "one)\n"
	    "  --wants LIST  ask only for these parts of each request, of "
	    "view,events,legal\n                (only for a bot that reads "
	    "nothing else)\n"
	    "  --version     the SDK's version and protocol\n"
	    "Exit status: 0 after the referee's bye or the end of its input, "
	    "1 on an\ninternal error, 2 for a bad command line.\n",
	    name, name);
}

/* Writes one answer line and flushes it. */
static void
answer(const json_t *j)
{
	char *s;

	if ((s = json_dumps(j, JSON_COMPACT)) == NULL)
		errx(1, "cannot encode an answer");
	if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF ||
	    fflush(stdout) == EOF)
		err(1, "stdout");
	free(s);
}

/* Writes one line of n bytes (its newline included) and flushes it. */
static void
say(const char *s, int n)
{
	if (n < 0 || fwrite(s, 1, (size_t)n, stdout) != (size_t)n ||
	    fflush(stdout) == EOF)
		err(1, "stdout");
}

/*
 * The type of a message line when it starts {"type":"...", else NULL;
 * *n is its length.
 */
static const char *
msg_type(const char *line, size_t len, size_t *n)
{
	const char *p, *q;

	if (len < 10 || memcmp(line, "{\"type\":\"", 9) != 0)
		return NULL;
	p = line + 9;
	if ((q = memchr(p, '"', len - 9)) == NULL)
		return NULL;
	*n = (size_t)(q - p);
	return p;
}

/*
 * Reads the whole number after "key": in the first len bytes of a line
 * whose scalars come before its objects (a start); -1 if it is not there.
 */
static int
scan_int(const char *line, size_t len, const char *key, long long *v)
{
	const char *p, *end;
	size_t k = strlen(key);
	char *e;

	/* Only before the first nested object: the scalars of the message. */
	if ((end = memchr(line + 1, '{', len - 1)) == NULL)
		end = line + len;
	for (p = line; (p = memmem(p, (size_t)(end - p), key, k)) != NULL;
	    p += k) {
		if (p[-1] != '"' || p[k] != '"' || p[k + 1] != ':')
			continue;
		*v = strtoll(p + k + 2, &e, 10);
		return e == p + k + 2 ? -1 : 0;
	}
	return -1;
}

/* Sets wants from "view,legal"-like text; -1 on an unknown part. */
static int
parse_wants(const char *s)
{
	char *copy, *p, *w;
	unsigned v = 0;
	int rc = 0;

	if ((copy = strdup(s)) == NULL)
		err(1, "strdup");
	for (p = copy; rc == 0 && (w = strsep(&p, ",")) != NULL; ) {
		if (strcmp(w, "view") == 0)
			v |= BOT_WANT_VIEW;
		else if (strcmp(w, "events") == 0)
			v |= BOT_WANT_EVENTS;
		else if (strcmp(w, "legal") == 0)
			v |= BOT_WANT_LEGAL;
		else if (*w != '\0')
			rc = -1;
	}
	free(copy);
	if (rc == 0)
		wants = v;
	return rc;
}

void
bot_set_wants(unsigned w)
{
	wants = w & BOT_WANT_ALL;
}

int
bot_random_choice(struct bot *b, const json_t *legal, int32_t *amount)
{
	const json_t *r;
	size_t n;
	int i;
	json_int_t lo, hi;

	n = json_array_size(legal);
	if (n == 0)
		return 0;
	i = (int)rng_below(&b->rng, (uint32_t)n);
	r = json_object_get(json_array_get(legal, (size_t)i), "amount");
	if (json_is_object(r)) {
		lo = json_integer_value(json_object_get(r, "min"));
		hi = json_integer_value(json_object_get(r, "max"));
		*amount = (int32_t)(lo + (json_int_t)rng_below(&b->rng,
		    (uint32_t)(hi - lo + 1)));
	}
	return i;
}

void
bot_say(struct bot *b, const char *fmt, ...)
{
	va_list ap;
	char *line, *all;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		err(1, "vasprintf");
	va_end(ap);
	if (b->say == NULL) {
		b->say = line;
		return;
	}
	if (asprintf(&all, "%s\n%s", b->say, line) == -1)
		err(1, "asprintf");
	free(b->say);
	free(line);
	b->say = all;
}

void
bot_debug(struct bot *b, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", b->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Reads the bot's command line into b; -1 to go on, else the exit status
 * (0 after --help or --version, 2 for a bad command line).
 */
static int
args_read(int argc, char **argv, const char *name, struct bot *b)
{
	const char *errstr;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(name, stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("%s (cardarena C bot SDK %s), protocol %d\n",
			    name, BOT_SDK_VERSION, BOT_PROTOCOL);
			return 0;
		} else if (strcmp(argv[i], "--wants") == 0 && i + 1 < argc) {
			if (parse_wants(argv[++i]) == -1)
				errx(2, "--wants %s: not a list of view, events "
				    "and legal", argv[i]);
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			b->seed = (uint64_t)strtonum(argv[++i], 0, LLONG_MAX,
			    &errstr);
			if (errstr != NULL)
				errx(2, "--seed %s: %s", argv[i], errstr);
		} else {
			fprintf(stderr, "%s: %s %s (see %s --help)\n", name,
			    strcmp(argv[i], "--seed") == 0 ? "a value is "
			    "missing after" : "unknown option", argv[i], name);
			return 2;
		}
	}
	return -1;
}

/*
 * Keeps the referee's hello msg in b (game, seat, players, the match's
 * nonce) and answers it with the bot's name and the parts it wants.
 */
static void
hello_answer(struct bot *b, json_t *msg)
{
	json_t *ans, *parts;
	const char *nonce;

	json_decref(b->hello);
	b->hello = json_incref(msg);
	b->game = json_string_value(json_object_get(msg, "game"));
	b->seat = (int)json_integer_value(json_object_get(msg, "seat"));
	b->players = (int)json_integer_value(json_object_get(msg, "players"));
	/* the match's nonce, mixed into the seed */
	nonce = json_string_value(json_object_get(msg, "nonce"));
	b->nonce = nonce != NULL ? strtoull(nonce, NULL, 16) : 0;
	ans = json_pack("{s:s,s:s,s:s}", "type", "hello", "name", b->name,
	    "version", BOT_SDK_VERSION);
	if (wants != BOT_WANT_ALL) {
		parts = json_array();
		if (wants & BOT_WANT_VIEW)
			json_array_append_new(parts, json_string("view"));
		if (wants & BOT_WANT_EVENTS)
			json_array_append_new(parts, json_string("events"));
		if (wants & BOT_WANT_LEGAL)
			json_array_append_new(parts, json_string("legal"));
		json_object_set_new(ans, "wants", parts);
	}
	answer(ans);
	json_decref(ans);
}

/*
 * Answers the request msg with the entry choose picks (its amount when
 * ranged), as text, or through jansson when bot_say left debug text.
 */
static void
request_answer(struct bot *b, json_t *msg, bot_choose_fn choose)
{
	json_t *ans, *legal;
	json_int_t id;
	char out[128];
	int32_t amount;
	int idx, n, ranged;

	legal = json_object_get(msg, "legal");
	amount = 0;
	idx = choose(b, msg, &amount);
	id = json_integer_value(json_object_get(msg, "id"));
	ranged = idx >= 0 && (size_t)idx < json_array_size(legal) &&
	    json_is_object(json_object_get(json_array_get(legal, (size_t)idx),
	    "amount"));
	if (b->say != NULL) {
		/* with debug text: encoded by jansson */
		ans = json_pack("{s:I,s:i}", "id", (json_int_t)id, "index",
		    idx);
		if (ranged)
			json_object_set_new(ans, "amount",
			    json_integer(amount));
		json_object_set_new(ans, "debug", json_string(b->say));
		free(b->say);
		b->say = NULL;
		answer(ans);
		json_decref(ans);
	} else {
		if (ranged)
			n = snprintf(out, sizeof out, "{\"id\":%lld,"
			    "\"index\":%d,\"amount\":%ld}\n", (long long)id,
			    idx, (long)amount);
		else
			n = snprintf(out, sizeof out, "{\"id\":%lld,"
			    "\"index\":%d}\n", (long long)id, idx);
		say(out, n);
	}
}

/* Runs the protocol loop on stdin and stdout; see bot.h. */
int
bot_main(int argc, char **argv, const char *name, bot_choose_fn choose,
    bot_message_fn on_message, void *arg)
{
	struct bot b;
	json_error_t jerr;
	json_t *msg;
	const char *type, *tname;
	char *line = NULL;
	size_t cap = 0, tlen;
	ssize_t len;
	long long game, v;
	int status;

	memset(&b, 0, sizeof b);
	b.name = name;
	b.arg = arg;
	b.seed = seed_fresh();
	if ((status = args_read(argc, argv, name, &b)) != -1)
		return status;
	rng_seed(&b.rng, b.seed);
	while ((len = getline(&line, &cap, stdin)) != -1) {
		type = msg_type(line, (size_t)len, &tlen);
		/* Nobody reads these: not parsed at all. */
		if (type != NULL && on_message == NULL && ((tlen == 3 &&
		    memcmp(type, "end", 3) == 0) || (tlen == 5 &&
		    memcmp(type, "error", 5) == 0)))
			continue;
		/* A start: its game and seat, scanned. */
		if (type != NULL && on_message == NULL && tlen == 5 &&
		    memcmp(type, "start", 5) == 0 && scan_int(line,
		    (size_t)len, "game", &game) == 0) {
			if (scan_int(line, (size_t)len, "seat", &v) == 0)
				b.seat = (int)v;
			/* Each game's moves depend on (seed, game) alone, so a
			 * game replayed alone (a resumed tournament) is the
			 * same game. */
			rng_seed(&b.rng, seed_derive(b.seed ^ b.nonce,
			    (uint64_t)game));
			continue;
		}
		/* The fast reader; jansson's own when it gives up. */
		if ((msg = jload_or_loadb(line, (size_t)len, &jerr)) == NULL) {
			warnx("unreadable message from the referee: %s",
			    jerr.text);
			continue;
		}
		tname = json_string_value(json_object_get(msg, "type"));
		if (tname == NULL)
			tname = "";
		if (strcmp(tname, "bye") == 0) {
			json_decref(msg);
			break;
		}
		if (strcmp(tname, "hello") == 0)
			hello_answer(&b, msg);
		else if (strcmp(tname, "start") == 0) {
			if (json_object_get(msg, "seat") != NULL)
				b.seat = (int)json_integer_value(
				    json_object_get(msg, "seat"));
			rng_seed(&b.rng, seed_derive(b.seed ^ b.nonce,
			    (uint64_t)json_integer_value(json_object_get(msg,
			    "game"))));
		}
		if (strcmp(tname, "request") == 0 &&
		    json_is_integer(json_object_get(msg, "id")))
			request_answer(&b, msg, choose);
		else if (on_message != NULL)
			on_message(&b, msg);
		json_decref(msg);
	}
	free(line);
	free(b.say);
	json_decref(b.hello);
	return 0;
}
