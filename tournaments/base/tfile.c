/*
 * The tournament file: a JSON object naming the game and its options, the
 * seats per table, the bots (name, command, optional working directory and
 * environment), the deals per table, duplicate on or off, the time limits,
 * the fault policy, the concurrency, the output directory, the master seed
 * and the kind of schedule.  README.md ("Tournaments") documents every key;
 * tournaments/examples/ has one file per game.  The game and its options
 * are checked against the rules engine linked in, before any bot runs.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/tfile.h"
#include "config.h"
#include "contain.h"
#include "cpulease.h"
#include "match.h"
#include "near.h"
#include "rng.h"

static int	 get_long(const json_t *, const char *, long, long, long,
		    long *, char *, size_t);
static int	 get_string(const json_t *, const char *, char **, char *,
		    size_t);
static int	 get_seed(const json_t *, uint64_t *, char *, size_t);
static int	 load_options(struct tour *, const struct game *,
		    const json_t *, char *, size_t);
static int	 load_bot(struct tbot *, const json_t *, int, char *, size_t);
static int	 name_ok(const char *);
static char	*default_name(const char *);
static int	 load_contain(struct tour *, const json_t *, char *, size_t);
static int	 load_book(struct tour *, const struct game *,
		    const struct opts *, char *, size_t);
static int	 check_keys(const json_t *, char *, size_t);
static int	 load_game(struct tour *, const json_t *, const char *,
		    char *, size_t);
static int	 load_bots(struct tour *, const json_t *, int, char *, size_t);
static int	 name_cmp(const void *, const void *);
static int	 load_deals(struct tour *, const json_t *, char *, size_t);
static int	 load_logs(struct tour *, const json_t *, char *, size_t);
static int	 load_policy(struct tour *, const json_t *, char *, size_t);
static int	 load_schedule(struct tour *, const json_t *, char *, size_t);
static int	 load_refargs(struct tour *, const json_t *, char *, size_t);
static int	 load_hide(struct tour *, const json_t *, char *, size_t);

static const char *const known_keys[] = {
	"name", "game", "options", "seats", "bots", "deals", "duplicate",
	"time_per_move_ms", "time_bank_ms", "time_hello_ms", "on_fault",
	"concurrency", "output", "seed", "schedule", "rounds", "tables", "max_tables",
	"referee", "referee_args", "logs", "replays", "log_level",
	"log_max_bytes", "max_decisions", "comment", "sandbox", "limits",
	"env", "bot_user", "deals_per_run", "gauntlet", "deal_book", "affinity",
	"hide", NULL
};

void
tour_refarg(struct tour *t, const char *a, const char *v)
{
	t->refargs = xreallocarray(t->refargs, (size_t)t->nrefargs + 3,
	    sizeof *t->refargs);
	t->refargs[t->nrefargs++] = xstrdup(a);
	if (v != NULL)
		t->refargs[t->nrefargs++] = xstrdup(v);
	t->refargs[t->nrefargs] = NULL;
}

void
tour_hide(struct tour *t, const char *path)
{
	t->hide = xreallocarray(t->hide, (size_t)t->nhide + 2,
	    sizeof *t->hide);
	t->hide[t->nhide++] = xstrdup(path);
	t->hide[t->nhide] = NULL;
}

/*
 * The containment keys: "sandbox" (true, false or "auto", the default:
 * where the sandbox can be made, decided by run), "limits" (an object of
 * limit_keys), "env" (an object of strings set in every bot's
 * environment), "bot_user" ("auto" or "same"); each becomes referee
 * arguments.  -1 and a cause.
 */
static int
load_contain(struct tour *t, const json_t *j, char *cause, size_t len)
{
	const json_t *v, *x;
	const char *key;
	struct contain scratch;
	char num[32], why[256], *kv;
	long n;
	int i;

	if ((v = json_object_get(j, "sandbox")) != NULL &&
	    !json_is_boolean(v) && (!json_is_string(v) ||
	    strcmp(json_string_value(v), "auto") != 0)) {
		snprintf(cause, len, "\"sandbox\": true, false or \"auto\"");
		return -1;
	}
	/* by default "auto", as the referee's own default, unless the
	 * file's referee arguments say (a gauntlet's --referee-arg) */
	t->sandbox = json_is_false(v) ? 0 : json_is_true(v) ? 1 : 2;
	for (i = 0; v == NULL && i < t->nrefargs; i++)
		if (strcmp(t->refargs[i], "--no-sandbox") == 0)
			t->sandbox = 0;
		else if (strcmp(t->refargs[i], "--sandbox") == 0)
			t->sandbox = 1;
	if (v != NULL && t->sandbox == 1)
		tour_refarg(t, "--sandbox", NULL);
	else if (v != NULL && t->sandbox == 0)
		tour_refarg(t, "--no-sandbox", NULL);
	if ((v = json_object_get(j, "limits")) != NULL) {
		if (!json_is_object(v)) {
			snprintf(cause, len, "\"limits\": an object of "
			    "cpu_s, mem_mb, nproc, fsize_mb, nofile, "
			    "scratch_mb");
			return -1;
		}
		json_object_foreach((json_t *)v, key, x) {
			for (i = 0; limit_flags[i].key != NULL; i++)
				if (strcmp(key, limit_flags[i].key) == 0)
					break;
			if (limit_flags[i].key == NULL) {
				snprintf(cause, len, "\"limits\": unknown key "
				    "\"%s\" (cpu_s, mem_mb, nproc, fsize_mb, "
				    "nofile, scratch_mb)", key);
				return -1;
			}
			if (get_long(v, key, 0, limit_flags[i].hi, 0, &n, why,
			    sizeof why) == -1) {
				snprintf(cause, len, "\"limits\": %s", why);
				return -1;
			}
			contain_init(&scratch);
			if (contain_set_limit(&scratch, i, n, why, sizeof why) ==
			    -1) {
				snprintf(cause, len, "\"limits\": \"%s\": %s",
				    key, why);
				return -1;
			}
			snprintf(num, sizeof num, "%ld", n);
			tour_refarg(t, limit_flags[i].flag, num);
		}
	}
	if ((v = json_object_get(j, "env")) != NULL) {
		if (!json_is_object(v)) {
			snprintf(cause, len, "\"env\": an object of strings");
			return -1;
		}
		json_object_foreach((json_t *)v, key, x) {
			if (!json_is_string(x) || *key == '\0' ||
			    strchr(key, '=') != NULL) {
				snprintf(cause, len, "\"env\": \"%s\" is not "
				    "a name with a string value", key);
				return -1;
			}
			if (asprintf(&kv, "%s=%s", key, json_string_value(x)) ==
			    -1)
				err(1, "asprintf");
			tour_refarg(t, "--env", kv);
			free(kv);
		}
	}
	if ((v = json_object_get(j, "bot_user")) != NULL) {
		key = json_string_value(v);
		if (key == NULL || (strcmp(key, "auto") != 0 &&
		    strcmp(key, "same") != 0)) {
			snprintf(cause, len, "\"bot_user\": \"auto\" or "
			    "\"same\"");
			return -1;
		}
		tour_refarg(t, "--bot-user", key);
	}
	return 0;
}

/* Reads an optional whole number key in [lo, hi]; -1 and a cause. */
static int
get_long(const json_t *j, const char *key, long lo, long hi, long def,
    long *out, char *cause, size_t len)
{
	json_t *v;

	*out = def;
	if ((v = json_object_get(j, key)) == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		snprintf(cause, len, "\"%s\": a whole number from %ld to %ld",
		    key, lo, hi);
		return -1;
	}
	*out = (long)json_integer_value(v);
	return 0;
}

/* Reads an optional string key into a copy (NULL if absent). */
static int
get_string(const json_t *j, const char *key, char **out, char *cause,
    size_t len)
{
	json_t *v;

	*out = NULL;
	if ((v = json_object_get(j, key)) == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0) {
		snprintf(cause, len, "\"%s\": a non-empty string", key);
		return -1;
	}
	*out = xstrdup(json_string_value(v));
	return 0;
}

/* Reads the master seed: a whole number, or one in a decimal string. */
static int
get_seed(const json_t *v, uint64_t *out, char *cause, size_t len)
{
	const char *s;
	char *end;
	unsigned long long u;

	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		s = json_string_value(v);
		errno = 0;
		u = strtoull(s, &end, 10);
		if (isdigit((unsigned char)s[0]) && *end == '\0' &&
		    errno == 0) {
			*out = (uint64_t)u;
			return 0;
		}
	}
	snprintf(cause, len, "\"seed\": a whole number from 0 to 2^64-1 "
	    "(as a string above 2^63)");
	return -1;
}

/* Returns 1 if a bot name is usable in file names and every format. */
static int
name_ok(const char *s)
{
	size_t i;

	if (s[0] == '\0' || strlen(s) > 64)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("._+-", s[i]) ==
		    NULL)
			return 0;
	return 1;
}

/* The file's base name without ".json": the default tournament name. */
static char *
default_name(const char *path)
{
	const char *b;
	char *s;
	size_t n;

	b = strrchr(path, '/');
	b = b == NULL ? path : b + 1;
	s = xstrdup(b);
	n = strlen(s);
	if (n > 5 && strcmp(s + n - 5, ".json") == 0)
		s[n - 5] = '\0';
	return s;
}

/*
 * Reads the game options ({"key": value} or ["key=value"]), checks them
 * with the game's own table and keeps them as "key=value" strings.
 */
static int
load_options(struct tour *t, const struct game *g, const json_t *j,
    char *cause, size_t len)
{
	struct opts o;
	const char *key;
	json_t *v;
	size_t i, n;
	char val[512], buf[640];

	opts_defaults(g, &o, t->seats);
	n = json_is_object(j) ? json_object_size(j) : json_array_size(j);
	t->optv = xcalloc(n + 1, sizeof *t->optv);
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			if (!json_is_string(v) ||
			    strchr(json_string_value(v), '=') == NULL) {
				snprintf(cause, len, "\"options\": item %zu is "
				    "not a \"key=value\" string", i);
				return -1;
			}
			t->optv[t->nopt++] = xstrdup(json_string_value(v));
		}
	} else if (json_is_object(j)) {
		json_object_foreach((json_t *)j, key, v) {
			if (opt_value_text(v, val, sizeof val) == -1) {
				snprintf(cause, len, "\"options\": %s: a "
				    "string, number, boolean or list of numbers "
				    "or words", key);
				return -1;
			}
			snprintf(buf, sizeof buf, "%s=%s", key, val);
			t->optv[t->nopt++] = xstrdup(buf);
		}
	} else if (j != NULL) {
		snprintf(cause, len, "\"options\": an object or an array");
		return -1;
	}
	for (i = 0; i < (size_t)t->nopt; i++) {
		if (opts_set(g, &o, t->optv[i], buf, sizeof buf) == -1) {
			snprintf(cause, len, "\"options\": %s", buf);
			return -1;
		}
	}
	if (opts_finish(g, &o, buf, sizeof buf) == -1) {
		snprintf(cause, len, "\"options\": %s", buf);
		return -1;
	}
	t->options = opts_json(g, &o);
	t->together = cpu_asks_together(g, &o);
	return load_book(t, g, &o, cause, len);
}

/*
 * Reads and checks the "deal_book" file, if any, keeping its path and a
 * fingerprint of its deals (for the journal header); -1 and a cause.
 */
static int
load_book(struct tour *t, const struct game *g, const struct opts *o,
    char *cause, size_t len)
{
	json_t *a;
	void *book;
	char *text, why[512];
	uint64_t h;
	int n;

	if (t->deal_book == NULL)
		return 0;
	if ((a = deal_book_read(t->deal_book, why, sizeof why)) == NULL) {
		snprintf(cause, len, "\"deal_book\": %s", why);
		return -1;
	}
	if ((book = deal_book_parse(g, o, a, &n, why, sizeof why)) == NULL) {
		snprintf(cause, len, "\"deal_book\": %s: %s", t->deal_book,
		    why);
		json_decref(a);
		return -1;
	}
	free(book);
	/* FNV-1a of the deals as read (comments and spacing aside) */
	text = json_dumps(a, JSON_COMPACT);
	h = fnv1a(FNV_BASIS, text, strlen(text));
	free(text);
	json_decref(a);
	snprintf(t->book_hash, sizeof t->book_hash, "%d deals, %016" PRIx64,
	    n, h);
	return 0;
}

/* Reads one bot entry; -1 and a cause. */
static int
load_bot(struct tbot *b, const json_t *j, int idx, char *cause, size_t len)
{
	const char *key;
	json_t *v, *env;
	char buf[256];

	if (!json_is_object(j)) {
		snprintf(cause, len, "\"bots\"[%d]: an object", idx);
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "name") != 0 && strcmp(key, "command") != 0 &&
		    strcmp(key, "dir") != 0 && strcmp(key, "env") != 0 &&
		    strcmp(key, "comment") != 0) {
			snprintf(cause, len, "\"bots\"[%d]: unknown key \"%s\" "
			    "(name, command, dir, env)", idx, key);
			return -1;
		}
	}
	if (get_string(j, "name", &b->name, buf, sizeof buf) == -1 ||
	    get_string(j, "command", &b->command, buf, sizeof buf) == -1 ||
	    get_string(j, "dir", &b->dir, buf, sizeof buf) == -1) {
		snprintf(cause, len, "\"bots\"[%d]: %s", idx, buf);
		return -1;
	}
	if (b->name == NULL || b->command == NULL) {
		snprintf(cause, len, "\"bots\"[%d]: needs \"name\" and "
		    "\"command\"", idx);
		return -1;
	}
	if (!name_ok(b->name)) {
		snprintf(cause, len, "\"bots\"[%d]: name \"%s\": 1 to 64 "
		    "letters, digits or . _ + -", idx, b->name);
		return -1;
	}
	if ((env = json_object_get(j, "env")) != NULL) {
		if (!json_is_object(env)) {
			snprintf(cause, len, "\"bots\"[%d]: \"env\": an object "
			    "of strings", idx);
			return -1;
		}
		b->env = xcalloc(json_object_size(env) + 1, sizeof *b->env);
		json_object_foreach(env, key, v) {
			if (key[0] == '\0') {
				snprintf(cause, len, "\"bots\"[%d]: \"env\": "
				    "an empty variable name", idx);
				return -1;
			}
			if (strchr(key, '=') != NULL) {
				snprintf(cause, len, "\"bots\"[%d]: \"env\": "
				    "variable name \"%s\" contains '='", idx,
				    key);
				return -1;
			}
			if (!json_is_string(v)) {
				snprintf(cause, len, "\"bots\"[%d]: \"env\": "
				    "%s: the value is not a string", idx, key);
				return -1;
			}
			if (asprintf(&b->env[b->nenv], "%s=%s", key,
			    json_string_value(v)) == -1)
				err(1, "asprintf");
			b->nenv++;
		}
	}
	return 0;
}

/* Reads a tournament file's JSON: a new reference, or NULL and a cause. */
json_t *
tour_read(const char *path, char *cause, size_t len)
{
	struct stat sb;
	json_error_t je;
	json_t *j;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(cause, len, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(cause, len, "%s", strerror(EISDIR));
		fclose(fp);
		return NULL;
	}
	j = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
	fclose(fp);
	if (j == NULL)
		snprintf(cause, len, "line %d: %s", je.line, je.text);
	return j;
}

/* Reads and checks a tournament file; see tournament.h. */
int
tour_load(struct tour *t, const char *path, char *cause, size_t len)
{
	json_t *j;
	int rc;

	memset(t, 0, sizeof *t);
	if ((j = tour_read(path, cause, len)) == NULL) {
		t->path = xstrdup(path);
		return -1;
	}
	rc = tour_parse(t, j, path, cause, len);
	json_decref(j);
	/* a round robin needs its tables full (a ladder, whose bots enter
	 * later, and a gauntlet, which plays copies, parse alone) */
	if (rc == 0 && t->nbots < t->seats) {
		snprintf(cause, len, "%d bot%s for tables of %d seats: a table "
		    "needs %d different bots", t->nbots, t->nbots == 1 ? "" :
		    "s", t->seats, t->seats);
		rc = -1;
	}
	return rc;
}

/* Refuses a key no tournament file has, with the nearest known one. */
static int
check_keys(const json_t *j, char *cause, size_t len)
{
	struct near nr;
	json_t *v;
	const char *key;
	int k;

	json_object_foreach((json_t *)j, key, v) {
		for (k = 0; known_keys[k] != NULL; k++)
			if (strcmp(known_keys[k], key) == 0)
				break;
		if (known_keys[k] == NULL) {
			near_init(&nr, key);
			for (k = 0; known_keys[k] != NULL; k++)
				near_offer(&nr, known_keys[k]);
			snprintf(cause, len, "unknown key \"%s\"%s%s%s", key,
			    near_best(&nr) != NULL ? " (did you mean \"" : "",
			    near_best(&nr) != NULL ? near_best(&nr) : "",
			    near_best(&nr) != NULL ? "\"?)" : "");
			return -1;
		}
	}
	return 0;
}

/*
 * Reads the names (the tournament's, its game's, the fault policy's, the
 * output directory's, the referee's), the seats per table and the game's
 * options, checked with the game's own tables; -1 and a cause.
 */
static int
load_game(struct tour *t, const json_t *j, const char *path, char *cause,
    size_t len)
{
	const struct game *g;
	char hint[96];
	long x;

	if (get_string(j, "name", &t->name, cause, len) == -1 ||
	    get_string(j, "game", &t->game, cause, len) == -1 ||
	    get_string(j, "on_fault", &t->on_fault, cause, len) == -1 ||
	    get_string(j, "output", &t->outdir, cause, len) == -1 ||
	    get_string(j, "referee", &t->referee, cause, len) == -1)
		return -1;
	if (t->name == NULL)
		t->name = default_name(path);
	if (t->game == NULL) {
		snprintf(cause, len, "\"game\" is missing");
		return -1;
	}
	if ((g = game_find(t->game)) == NULL) {
		snprintf(cause, len, "\"game\": unknown game \"%s\" "
		    "(%sbin/referee --list-games lists them)", t->game,
		    game_near(t->game, hint, sizeof hint));
		return -1;
	}
	if (get_long(j, "seats", 1, MAX_PLAYERS, g->default_players, &x,
	    cause, len) == -1)
		return -1;
	t->seats = (int)x;
	if (t->seats < 2) {
		snprintf(cause, len, "\"seats\": at least 2 (a table of one "
		    "has no results between bots to rate)");
		return -1;
	}
	if (t->seats < g->min_players || t->seats > g->max_players) {
		snprintf(cause, len, "\"seats\": %s is played by %d to %d",
		    g->name, g->min_players, g->max_players);
		return -1;
	}
	if (get_string(j, "deal_book", &t->deal_book, cause, len) == -1 ||
	    load_options(t, g, json_object_get(j, "options"), cause,
	    len) == -1)
		return -1;
	return 0;
}

/* Orders bots by name (name_cmp's qsort of pointers to them). */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct tbot *const *)a)->name,
	    (*(const struct tbot *const *)b)->name);
}

/*
 * Reads the bots (at most maxbots), each with a name of its own (checked
 * in order of names: a ladder's tens of thousands too); -1 and a cause.
 */
static int
load_bots(struct tour *t, const json_t *j, int maxbots, char *cause,
    size_t len)
{
	const struct tbot **by;
	json_t *v;
	size_t i;
	int rc = 0;

	v = json_object_get(j, "bots");
	if (!json_is_array(v) || json_array_size(v) == 0) {
		snprintf(cause, len, "\"bots\": a non-empty array");
		return -1;
	}
	if (json_array_size(v) > (size_t)maxbots) {
		snprintf(cause, len, "\"bots\": at most %d", maxbots);
		return -1;
	}
	t->bots = xcalloc(json_array_size(v), sizeof *t->bots);
	for (i = 0; i < json_array_size(v); i++) {
		t->nbots++;
		if (load_bot(&t->bots[i], json_array_get(v, i), (int)i, cause,
		    len) == -1)
			return -1;
	}
	by = xcalloc((size_t)t->nbots, sizeof *by);
	for (i = 0; i < (size_t)t->nbots; i++)
		by[i] = &t->bots[i];
	qsort(by, (size_t)t->nbots, sizeof *by, name_cmp);
	for (i = 1; i < (size_t)t->nbots && rc == 0; i++)
		if (strcmp(by[i - 1]->name, by[i]->name) == 0) {
			snprintf(cause, len, "\"bots\": two bots are called "
			    "%s", by[i]->name);
			rc = -1;
		}
	free(by);
	return rc;
}

/*
 * Reads how the deals are played: the deals per table and per run, the
 * time limits, the concurrency, duplicate or not; -1 and a cause.
 */
static int
load_deals(struct tour *t, const json_t *j, char *cause, size_t len)
{
	json_t *v;
	long x;

	if ((v = json_object_get(j, "deals_per_run")) != NULL &&
	    !(json_is_string(v) && strcmp(json_string_value(v), "auto") ==
	    0) && get_long(j, "deals_per_run", 1, 100000000, 0,
	    &t->deals_per_run, cause, len) == -1)
		return -1;
	if (get_long(j, "deals", 1, 100000000, 1, &t->deals, cause,
	    len) == -1 ||
	    get_long(j, "time_per_move_ms", 0, 86400000, 0, &t->time_per_move,
	    cause, len) == -1 ||
	    get_long(j, "time_bank_ms", 0, 86400000, 0, &t->time_bank, cause,
	    len) == -1 ||
	    get_long(j, "time_hello_ms", 0, 3600000, 0, &t->time_hello, cause,
	    len) == -1 ||
	    get_long(j, "concurrency", 1, 1024, 1, &x, cause, len) == -1)
		return -1;
	t->jobs = (int)x;
	if ((v = json_object_get(j, "duplicate")) != NULL &&
	    !json_is_boolean(v)) {
		snprintf(cause, len, "\"duplicate\": true or false");
		return -1;
	}
	t->duplicate = v == NULL || json_is_true(v);
	if ((v = json_object_get(j, "affinity")) != NULL &&
	    !json_is_boolean(v) && !(json_is_string(v) &&
	    strcmp(json_string_value(v), "auto") == 0)) {
		snprintf(cause, len, "\"affinity\": true or false, or "
		    "\"auto\" (the default)");
		return -1;
	}
	t->affinity = v == NULL || json_is_string(v) ? AFFINITY_AUTO :
	    json_is_true(v) ? AFFINITY_ON : AFFINITY_OFF;
	return 0;
}

/*
 * Reads what is kept of the matches: the logs, their level and size, the
 * decisions cap, the replays; -1 and a cause.
 */
static int
load_logs(struct tour *t, const json_t *j, char *cause, size_t len)
{
	json_t *v;
	long x;

	if ((v = json_object_get(j, "logs")) != NULL && !json_is_boolean(v)) {
		snprintf(cause, len, "\"logs\": true or false");
		return -1;
	}
	t->logs = v == NULL || json_is_true(v);
	if ((v = json_object_get(j, "log_level")) != NULL &&
	    (!json_is_string(v) || (strcmp(json_string_value(v), "lean") != 0 &&
	    strcmp(json_string_value(v), "full") != 0))) {
		snprintf(cause, len, "\"log_level\": \"lean\" or \"full\"");
		return -1;
	}
	t->log_full = v != NULL && strcmp(json_string_value(v), "full") == 0;
	if (get_long(j, "log_max_bytes", 65536, LONG_MAX, DEF_LOG_MAX, &x,
	    cause, len) == -1 ||
	    get_long(j, "max_decisions", 0, 1000000000, DEF_MAX_DECISIONS,
	    &t->max_decisions, cause, len) == -1)
		return -1;
	t->log_max = x;
	if ((v = json_object_get(j, "replays")) != NULL &&
	    !json_is_boolean(v)) {
		snprintf(cause, len, "\"replays\": true or false");
		return -1;
	}
	t->replays = json_is_true(v);
	if (t->replays && !t->logs) {
		snprintf(cause, len, "\"replays\" needs the match logs "
		    "(\"logs\": true)");
		return -1;
	}
	return 0;
}

/*
 * Checks the fault policy and reads the master seed (a fresh secret one
 * unless the file names it), the gauntlet's object and the output
 * directory (out/NAME by default); -1 and a cause.
 */
static int
load_policy(struct tour *t, const json_t *j, char *cause, size_t len)
{
	json_t *v;

	if (t->on_fault != NULL && policy_parse(t->on_fault) == -1) {
		snprintf(cause, len, "\"on_fault\": random, default or retire");
		return -1;
	}
	/* the seed gives every card: secret unless the file names one */
	if ((v = json_object_get(j, "seed")) != NULL) {
		if (get_seed(v, &t->seed, cause, len) == -1)
			return -1;
		t->seed_named = 1;
	} else
		t->seed = seed_fresh() & INT64_MAX;
	if ((v = json_object_get(j, "gauntlet")) != NULL) {
		if (!json_is_object(v)) {
			snprintf(cause, len, "\"gauntlet\": an object "
			    "(candidate, elo0, elo1, alpha, beta, max_deals)");
			return -1;
		}
		t->gauntlet = json_incref(v);
	}
	if (t->outdir == NULL && asprintf(&t->outdir, "out/%s",
	    t->name) == -1)
		err(1, "asprintf");
	return 0;
}

/*
 * Reads the schedule: its kind, "rounds" of every subset or "tables"
 * balanced, and the cap on tables; -1 and a cause.
 */
static int
load_schedule(struct tour *t, const json_t *j, char *cause, size_t len)
{
	const char *mode;

	mode = json_string_value(json_object_get(j, "schedule"));
	if (json_object_get(j, "schedule") != NULL && mode == NULL)
		mode = "?";
	if (mode == NULL || strcmp(mode, "auto") == 0)
		t->mode = SCHED_AUTO;
	else if (strcmp(mode, "all") == 0)
		t->mode = SCHED_ALL;
	else if (strcmp(mode, "balanced") == 0)
		t->mode = SCHED_BALANCED;
	else {
		snprintf(cause, len, "\"schedule\": auto, all or balanced");
		return -1;
	}
	if (json_object_get(j, "rounds") != NULL &&
	    json_object_get(j, "tables") != NULL) {
		snprintf(cause, len, "\"rounds\" (every subset) and \"tables\" "
		    "(balanced) exclude each other");
		return -1;
	}
	if (json_object_get(j, "tables") != NULL) {
		if (t->mode == SCHED_ALL) {
			snprintf(cause, len, "\"tables\" needs a balanced "
			    "schedule");
			return -1;
		}
		t->mode = SCHED_BALANCED;
		if (get_long(j, "tables", 1, MAX_TABLES, 0, &t->count, cause,
		    len) == -1)
			return -1;
	} else if (json_object_get(j, "rounds") != NULL) {
		if (t->mode == SCHED_BALANCED) {
			snprintf(cause, len, "\"rounds\" needs the schedule "
			    "of every subset");
			return -1;
		}
		if (get_long(j, "rounds", 1, MAX_TABLES, 1, &t->count, cause,
		    len) == -1)
			return -1;
	}
	return get_long(j, "max_tables", 1, MAX_TABLES, DEF_MAX_TABLES,
	    &t->max_tables, cause, len);
}

/* Reads "referee_args", an array of strings; -1 and a cause. */
static int
load_refargs(struct tour *t, const json_t *j, char *cause, size_t len)
{
	json_t *v;
	size_t i;

	if ((v = json_object_get(j, "referee_args")) == NULL)
		return 0;
	if (!json_is_array(v)) {
		snprintf(cause, len, "\"referee_args\": an array of strings");
		return -1;
	}
	t->refargs = xcalloc(json_array_size(v) + 1, sizeof *t->refargs);
	for (i = 0; i < json_array_size(v); i++) {
		if (!json_is_string(json_array_get(v, i))) {
			snprintf(cause, len, "\"referee_args\": an array of "
			    "strings");
			return -1;
		}
		t->refargs[t->nrefargs++] =
		    xstrdup(json_string_value(json_array_get(v, i)));
	}
	return 0;
}

/*
 * Reads "hide", an array of paths kept out of every bot's sight where they
 * are when a referee starts (a ladder's store, its other entrants'
 * copies); -1 and a cause.
 */
static int
load_hide(struct tour *t, const json_t *j, char *cause, size_t len)
{
	const json_t *v, *x;
	size_t i;

	if ((v = json_object_get(j, "hide")) == NULL)
		return 0;
	if (!json_is_array(v)) {
		snprintf(cause, len, "\"hide\": an array of paths");
		return -1;
	}
	json_array_foreach(v, i, x) {
		if (!json_is_string(x) || json_string_length(x) == 0 ||
		    json_string_length(x) >= PATH_MAX ||
		    strlen(json_string_value(x)) != json_string_length(x)) {
			snprintf(cause, len, "\"hide\": an array of paths "
			    "(item %zu is not one)", i);
			return -1;
		}
		tour_hide(t, json_string_value(x));
	}
	return 0;
}

/* Checks a tournament file's JSON; see tournament.h. */
int
tour_parse(struct tour *t, const json_t *j, const char *path, char *cause,
    size_t len)
{
	return tour_parse_max(t, j, path, MAX_BOTS, cause, len);
}

/* The same with at most maxbots bots; see tournament.h. */
int
tour_parse_max(struct tour *t, const json_t *j, const char *path,
    int maxbots, char *cause, size_t len)
{
	memset(t, 0, sizeof *t);
	t->path = xstrdup(path);
	if (!json_is_object(j)) {
		snprintf(cause, len, "not a JSON object");
		return -1;
	}
	if (check_keys(j, cause, len) == -1 ||
	    load_game(t, j, path, cause, len) == -1 ||
	    load_bots(t, j, maxbots, cause, len) == -1 ||
	    load_deals(t, j, cause, len) == -1 ||
	    load_logs(t, j, cause, len) == -1 ||
	    load_policy(t, j, cause, len) == -1 ||
	    load_schedule(t, j, cause, len) == -1 ||
	    load_refargs(t, j, cause, len) == -1 ||
	    load_hide(t, j, cause, len) == -1 ||
	    load_contain(t, j, cause, len) == -1)
		return -1;
	if (t->deals * (t->duplicate ? t->seats : 1) > INT_MAX / 2) {
		snprintf(cause, len, "\"deals\": too many games per table");
		return -1;
	}
	t->file = json_incref((json_t *)j);
	return 0;
}

/* A limit in ms of the file, or null: the referee's. */
static json_t *
ms_or_null(long ms)
{
	return ms > 0 ? json_integer(ms) : json_null();
}

/* The settings of t; see tournament.h. */
json_t *
tour_settings(const struct tour *t)
{
	static const char *const passed[] = { "bots", "limits", "env",
	    "bot_user", "comment", "referee_args", "hide", NULL };
	static const char *const modes[] = { [SCHED_AUTO] = "auto",
	    [SCHED_ALL] = "all", [SCHED_BALANCED] = "balanced" };
	char seed[32];
	json_t *s, *v;
	int i;

	snprintf(seed, sizeof seed, "%" PRIu64, t->seed);
	s = json_pack("{s:s,s:s,s:O,s:i,s:I,s:o,s:b,s:o,s:o,s:o,s:o,s:i,s:o}",
	    "name", t->name, "game", t->game, "options", t->options,
	    "seats", t->seats, "deals", (json_int_t)t->deals,
	    "deals_per_run", t->deals_per_run > 0 ?
	    json_integer(t->deals_per_run) : json_string("auto"),
	    "duplicate", t->duplicate,
	    "time_per_move_ms", ms_or_null(t->time_per_move),
	    "time_bank_ms", ms_or_null(t->time_bank),
	    "time_hello_ms", ms_or_null(t->time_hello),
	    "on_fault", t->on_fault != NULL ? json_string(t->on_fault) :
	    json_null(), "concurrency", t->jobs, "affinity", t->affinity == AFFINITY_AUTO ?
	    json_string("auto") : json_boolean(t->affinity == AFFINITY_ON));
	json_object_set_new(s, "output", json_string(t->outdir));
	/* a fresh seed stays secret */
	json_object_set_new(s, "seed", t->seed_named ? json_string(seed) :
	    json_null());
	json_object_set_new(s, "deal_book", t->deal_book != NULL ?
	    json_string(t->deal_book) : json_null());
	json_object_set(s, "gauntlet", t->gauntlet != NULL ? t->gauntlet :
	    json_null());
	json_object_set_new(s, "schedule", json_string(modes[t->mode]));
	json_object_set_new(s, "rounds", t->mode == SCHED_BALANCED ?
	    json_null() : json_integer(t->count > 0 ? t->count : 1));
	json_object_set_new(s, "tables", t->mode == SCHED_BALANCED &&
	    t->count > 0 ? json_integer(t->count) : json_null());
	json_object_set_new(s, "max_tables", json_integer(t->max_tables));
	json_object_set_new(s, "logs", json_boolean(t->logs));
	json_object_set_new(s, "log_level", json_string(t->log_full ? "full" :
	    "lean"));
	json_object_set_new(s, "log_max_bytes", json_integer(t->log_max));
	json_object_set_new(s, "max_decisions",
	    json_integer(t->max_decisions));
	json_object_set_new(s, "replays", json_boolean(t->replays));
	json_object_set_new(s, "referee", t->referee != NULL ?
	    json_string(t->referee) : json_null());
	json_object_set_new(s, "sandbox", t->sandbox == 2 ?
	    json_string("auto") : json_boolean(t->sandbox));
	/* the keys passed to the referee as they are */
	for (i = 0; passed[i] != NULL; i++) {
		v = json_object_get(t->file, passed[i]);
		json_object_set(s, passed[i], v != NULL ? v : json_null());
	}
	return s;
}

/* Games each table plays: deals, times the seats when duplicate. */
long
tour_games_per_table(const struct tour *t)
{
	return t->deals * (t->duplicate ? t->seats : 1);
}

/*
 * The journal header: everything that decides which games are played, so
 * that resuming with a changed file is refused instead of mixing games.
 */
json_t *
tour_header(const struct tour *t, const struct schedule *s)
{
	json_t *h, *bots;
	char seed[32], hash[32];
	int i;

	bots = json_array();
	for (i = 0; i < t->nbots; i++)
		json_array_append_new(bots, json_string(t->bots[i].name));
	snprintf(seed, sizeof seed, "%" PRIu64, t->seed);
	snprintf(hash, sizeof hash, "%016" PRIx64, schedule_hash(s));
	h = json_pack("{s:i,s:s,s:s,s:O,s:i,s:b,s:I,s:s,s:o,s:i,s:I,s:s}",
	    "journal", 1, "name", t->name, "game", t->game,
	    "options", t->options, "seats", t->seats,
	    "duplicate", t->duplicate, "deals", (json_int_t)t->deals,
	    "seed", seed, "bots", bots, "tables", s->ntables,
	    "games_per_table", (json_int_t)tour_games_per_table(t),
	    "schedule", hash);
	/* it changes results: a journal is resumed only with the same */
	json_object_set_new(h, "max_decisions",
	    json_integer(t->max_decisions));
	if (t->deal_book != NULL)
		json_object_set_new(h, "deal_book",
		    json_string(t->book_hash));
	return h;
}

/* Frees everything the tournament owns. */
void
tour_free(struct tour *t)
{
	int i, k;

	for (i = 0; i < t->nbots; i++) {
		free(t->bots[i].name);
		free(t->bots[i].command);
		free(t->bots[i].dir);
		for (k = 0; k < t->bots[i].nenv; k++)
			free(t->bots[i].env[k]);
		free(t->bots[i].env);
	}
	for (i = 0; i < t->nopt; i++)
		free(t->optv[i]);
	for (i = 0; i < t->nrefargs; i++)
		free(t->refargs[i]);
	free(t->refargs);
	for (i = 0; i < t->nhide; i++)
		free(t->hide[i]);
	free(t->hide);
	free(t->optv);
	free(t->bots);
	free(t->path);
	free(t->name);
	free(t->game);
	free(t->on_fault);
	free(t->outdir);
	free(t->referee);
	json_decref(t->options);
	json_decref(t->gauntlet);
	json_decref(t->file);
	free(t->deal_book);
	memset(t, 0, sizeof *t);
}
