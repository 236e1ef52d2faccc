/*
 * The scripted bot: bin/scripted FILE [--seed N] plays, for its seat, the
 * actions listed in FILE, one JSON action value a line (as the legal list
 * shows them; a ranged entry with its chosen "amount"), blank lines and
 * lines starting with # skipped.  It exits non-zero, saying why on stderr,
 * the moment the next action is not in the legal list it receives, or when
 * it is asked and the file has no action left.  With --setup this
 * reproduces any rule situation from the command line.  An action's
 * "debug" key is not part of it: its text goes with the answer as the
 * answer's "debug" (bot_say), for the replays.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "lib/bot.h"

struct script {
	const char	*path;
	json_t		**acts;
	char		**says;		/* each action's "debug" text, or NULL */
	int		*lines;		/* the file line of each action */
	size_t		 n, next;
};

static void	load(struct script *, const char *);
static int	matches(const json_t *, const json_t *);
static int	choose(struct bot *, const json_t *, int32_t *);

/* Reads every action of the file, or exits on a malformed line. */
static void
load(struct script *sc, const char *path)
{
	json_error_t jerr;
	FILE *fp;
	char *line = NULL, *p;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0;

	sc->path = path;
	if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	while ((len = getline(&line, &cap, fp)) != -1) {
		lineno++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
			continue;
		sc->acts = xreallocarray(sc->acts, sc->n + 1, sizeof *sc->acts);
		sc->lines = xreallocarray(sc->lines, sc->n + 1,
		    sizeof *sc->lines);
		sc->says = xreallocarray(sc->says, sc->n + 1,
		    sizeof *sc->says);
		if ((sc->acts[sc->n] = json_loads(p, JSON_DECODE_ANY, &jerr)) ==
		    NULL)
			errx(2, "%s:%d: %s", path, lineno, jerr.text);
		sc->says[sc->n] = NULL;
		if (json_is_string(json_object_get(sc->acts[sc->n], "debug"))) {
			sc->says[sc->n] = xstrdup(json_string_value(
			    json_object_get(sc->acts[sc->n], "debug")));
			json_object_del(sc->acts[sc->n], "debug");
		}
		sc->lines[sc->n++] = lineno;
	}
	if (ferror(fp))
		err(2, "%s", path);
	free(line);
	fclose(fp);
}

/*
 * Returns 1 if the action value v is the legal entry e: equal, or for a
 * ranged entry ("amount": {"min", "max"}) equal but for an amount in range.
 */
static int
matches(const json_t *e, const json_t *v)
{
	const json_t *r, *am, *x;
	const char *key;
	json_int_t a;

	r = json_object_get(e, "amount");
	if (!json_is_object(r) || !json_is_object(v))
		return json_equal(e, v);
	am = json_object_get(v, "amount");
	if (!json_is_integer(am) || json_object_size(e) != json_object_size(v))
		return 0;
	a = json_integer_value(am);
	if (a < json_integer_value(json_object_get(r, "min")) ||
	    a > json_integer_value(json_object_get(r, "max")))
		return 0;
	json_object_foreach((json_t *)e, key, x) {
		if (strcmp(key, "amount") == 0)
			continue;
		if (!json_equal(x, json_object_get(v, key)))
			return 0;
	}
	return 1;
}

/* Answers with the index of the script's next action, or exits. */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	struct script *sc = b->arg;
	const json_t *legal, *v;
	char *vs, *ls;
	size_t i;

	legal = json_object_get(req, "legal");
	if (sc->next == sc->n)
		errx(1, "%s: no action left for request %lld (seat %d)",
		    sc->path, (long long)json_integer_value(json_object_get(req,
		    "id")), b->seat);
	v = sc->acts[sc->next];
	for (i = 0; i < json_array_size(legal); i++)
		if (matches(json_array_get(legal, i), v)) {
			if (json_is_object(json_object_get(json_array_get(
			    legal, i), "amount")))
				*amount = (int32_t)json_integer_value(
				    json_object_get(v, "amount"));
			if (sc->says[sc->next] != NULL)
				bot_say(b, "%s", sc->says[sc->next]);
			sc->next++;
			return (int)i;
		}
	vs = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	ls = json_dumps(legal, JSON_COMPACT);
	errx(1, "%s:%d: %s is not legal for seat %d; the legal list is %s",
	    sc->path, sc->lines[sc->next], vs ? vs : "?", b->seat,
	    ls ? ls : "?");
}

int
main(int argc, char **argv)
{
	struct script sc;
	int rc;
	size_t i;

	memset(&sc, 0, sizeof sc);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
		    strcmp(argv[1], "-h") == 0)) {
			printf("usage: scripted FILE [--seed N]\n"
			    "Plays the actions of FILE (one JSON action a "
			    "line, as in the legal list)\nand exits non-zero "
			    "as soon as one is not legal.\n"
			    "Exit status: 0 when the match ended first, 1 at "
			    "an action that is\nnot legal or when none is "
			    "left, 2 for a bad command line or FILE.\n");
			return 0;
		}
		if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
			printf("scripted (cardarena C bot SDK %s), protocol "
			    "%d\n", BOT_SDK_VERSION, BOT_PROTOCOL);
			return 0;
		}
		if (argc >= 2)
			fprintf(stderr, "scripted: unknown option %s (see "
			    "scripted --help)\n", argv[1]);
		else
			fprintf(stderr, "scripted: no FILE of actions (see "
			    "scripted --help)\n");
		return 2;
	}
	load(&sc, argv[1]);
	argv[1] = argv[0];
	rc = bot_main(argc - 1, argv + 1, "scripted", choose, NULL, &sc);
	for (i = 0; i < sc.n; i++) {
		json_decref(sc.acts[i]);
		free(sc.says[i]);
	}
	free(sc.acts);
	free(sc.says);
	free(sc.lines);
	return rc;
}
