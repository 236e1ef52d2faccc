/*
 * The C bot SDK's protocol loop; see bot.h.  Lines are read with getline
 * (the referee caps their length) and answered with one write each.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static void	usage(const char *, FILE *);
static void	answer(const json_t *);

/* Prints the usage of a bot program. */
static void
usage(const char *name, FILE *fp)
{
	fprintf(fp, "usage: %s [--seed N]\n"
	    "A cardarena bot: speaks the protocol (protocol.md) on stdin and "
	    "stdout;\nrun it under bin/referee, e.g. bin/referee -g horserace "
	    "-b bin/%s -b ...\n"
	    "  --seed N     the seed of its random choices (default: a fresh "
	    "one)\n"
	    "  --version    the SDK's version and protocol\n"
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

int
bot_main(int argc, char **argv, const char *name, bot_choose_fn choose,
    bot_message_fn on_message, void *arg)
{
	struct bot b;
	json_error_t jerr;
	json_t *msg, *ans, *legal;
	const char *type, *errstr;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int32_t amount;
	int i, idx;

	memset(&b, 0, sizeof b);
	b.name = name;
	b.arg = arg;
	b.seed = seed_fresh();
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(name, stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("%s (cardarena C bot SDK %s), protocol %d\n",
			    name, BOT_SDK_VERSION, BOT_PROTOCOL);
			return 0;
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			b.seed = (uint64_t)strtonum(argv[++i], 0, LLONG_MAX,
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
	rng_seed(&b.rng, b.seed);
	while ((len = getline(&line, &cap, stdin)) != -1) {
		if ((msg = json_loadb(line, (size_t)len, 0, &jerr)) == NULL) {
			warnx("unreadable message from the referee: %s",
			    jerr.text);
			continue;
		}
		type = json_string_value(json_object_get(msg, "type"));
		if (type == NULL)
			type = "";
		if (strcmp(type, "bye") == 0) {
			json_decref(msg);
			break;
		}
		if (strcmp(type, "hello") == 0) {
			json_decref(b.hello);
			b.hello = json_incref(msg);
			b.game = json_string_value(json_object_get(msg, "game"));
			b.seat = (int)json_integer_value(json_object_get(msg,
			    "seat"));
			b.players = (int)json_integer_value(json_object_get(msg,
			    "players"));
			ans = json_pack("{s:s,s:s,s:s}", "type", "hello", "name",
			    name, "version", BOT_SDK_VERSION);
			answer(ans);
			json_decref(ans);
		} else if (strcmp(type, "start") == 0) {
			if (json_object_get(msg, "seat") != NULL)
				b.seat = (int)json_integer_value(
				    json_object_get(msg, "seat"));
			/* Each game's moves depend on (seed, game) alone, so a
			 * game replayed alone (a resumed tournament) is the
			 * same game. */
			rng_seed(&b.rng, seed_derive(b.seed, (uint64_t)
			    json_integer_value(json_object_get(msg, "game"))));
		}
		if ((legal = json_object_get(msg, "legal")) != NULL &&
		    json_object_get(msg, "id") != NULL) {
			amount = 0;
			idx = choose(&b, msg, &amount);
			ans = json_pack("{s:O,s:i}", "id",
			    json_object_get(msg, "id"), "index", idx);
			i = idx >= 0 && (size_t)idx < json_array_size(legal);
			if (i && json_is_object(json_object_get(
			    json_array_get(legal, (size_t)idx), "amount")))
				json_object_set_new(ans, "amount",
				    json_integer(amount));
			if (b.say != NULL) {
				json_object_set_new(ans, "debug",
				    json_string(b.say));
				free(b.say);
				b.say = NULL;
			}
			answer(ans);
			json_decref(ans);
		} else if (on_message != NULL)
			on_message(&b, msg);
		json_decref(msg);
	}
	free(line);
	free(b.say);
	json_decref(b.hello);
	return 0;
}
