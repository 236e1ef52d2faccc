/*
 * Game options: parsing KEY=VALUE strings against a game's option table,
 * defaults, their JSON form (handshake, log header) and --describe.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "near.h"

static int	parse_long(const char *, long, long, long *);
static int	choice_index(const char *const *, const char *, size_t);
static json_t	*opt_value_json(const struct optdesc *, const struct opts *,
		    int);

/* Returns the index of a game's option, or -1. */
int
opt_index(const struct game *g, const char *name)
{
	int i;

	for (i = 0; g->options[i].name != NULL; i++)
		if (strcmp(g->options[i].name, name) == 0)
			return i;
	return -1;
}

/* Fills the table's defaults; computed defaults are left to finish. */
void
opts_defaults(const struct game *g, struct opts *o, int players)
{
	const struct optdesc *d;
	int i, k;

	memset(o, 0, sizeof *o);
	o->players = players;
	for (i = 0; g->options[i].name != NULL; i++) {
		d = &g->options[i];
		o->v[i] = d->def;
		if (d->type == OPT_LIST && d->def_list != NULL)
			for (k = 0; k < d->len; k++)
				o->list[i][k] = d->def_list[k];
	}
}

/* Parses a whole decimal number in [lo, hi]; -1 if it is not one. */
static int
parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (s[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Returns the index of the first len bytes of s among choices, or -1. */
static int
choice_index(const char *const *choices, const char *s, size_t len)
{
	int i;

	for (i = 0; choices[i] != NULL; i++)
		if (strlen(choices[i]) == len && strncmp(choices[i], s, len) == 0)
			return i;
	return -1;
}

/*
 * Sets one option from "key=value"; -1 and a cause on a bad one, an option
 * already given, or a set naming a choice twice.
 */
int
opts_set(const struct game *g, struct opts *o, const char *kv, char *cause,
    size_t len)
{
	const struct optdesc *d;
	const char *eq, *val, *p, *q;
	struct near nr;
	char key[64], hint[96];
	long v;
	int i, k, c;

	if ((eq = strchr(kv, '=')) == NULL || eq == kv ||
	    (size_t)(eq - kv) >= sizeof key) {
		snprintf(cause, len, "option '%s' is not KEY=VALUE", kv);
		return -1;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	val = eq + 1;
	if ((i = opt_index(g, key)) == -1) {
		near_init(&nr, key);
		for (i = 0; g->options[i].name != NULL; i++)
			near_offer(&nr, g->options[i].name);
		snprintf(cause, len, "%s has no option '%s' (%ssee --describe "
		    "%s)", g->name, key, near_say(&nr, hint, sizeof hint),
		    g->name);
		return -1;
	}
	d = &g->options[i];
	if (o->given[i]) {
		snprintf(cause, len, "option %s is given twice", key);
		return -1;
	}
	switch (d->type) {
	case OPT_INT:
		if (parse_long(val, d->min, d->max, &v) == -1) {
			snprintf(cause, len, "option %s: '%s' is not a whole "
			    "number from %ld to %ld", key, val, d->min, d->max);
			return -1;
		}
		o->v[i] = v;
		break;
	case OPT_BOOL:
		if (strcasecmp(val, "on") == 0 || strcasecmp(val, "true") == 0 ||
		    strcmp(val, "1") == 0 || strcasecmp(val, "yes") == 0)
			o->v[i] = 1;
		else if (strcasecmp(val, "off") == 0 ||
		    strcasecmp(val, "false") == 0 || strcmp(val, "0") == 0 ||
		    strcasecmp(val, "no") == 0)
			o->v[i] = 0;
		else {
			snprintf(cause, len, "option %s: '%s' is not on or off",
			    key, val);
			return -1;
		}
		break;
	case OPT_ENUM:
		if ((c = choice_index(d->choices, val, strlen(val))) == -1) {
			snprintf(cause, len, "option %s: '%s' is not one of the "
			    "choices (see --describe %s)", key, val, g->name);
			return -1;
		}
		o->v[i] = c;
		break;
	case OPT_SET:
		o->v[i] = 0;
		for (p = val; *p != '\0'; p = *q ? q + 1 : q) {
			q = p + strcspn(p, ",");
			if ((c = choice_index(d->choices, p, (size_t)(q - p))) ==
			    -1) {
				snprintf(cause, len, "option %s: '%.*s' is not "
				    "one of the choices (see --describe %s)", key,
				    (int)(q - p), p, g->name);
				return -1;
			}
			if (o->v[i] & (1L << c)) {
				snprintf(cause, len, "option %s: '%.*s' is "
				    "given twice", key, (int)(q - p), p);
				return -1;
			}
			o->v[i] |= 1L << c;
		}
		if (o->v[i] == 0) {
			snprintf(cause, len, "option %s: empty set", key);
			return -1;
		}
		break;
	case OPT_LIST:
		o->keyword[i] = 0;
		if (d->keyword != NULL && strcmp(val, d->keyword) == 0) {
			o->keyword[i] = 1;
			break;
		}
		for (p = val, k = 0; ; k++) {
			char num[32];

			q = p + strcspn(p, ",");
			if (k >= d->len || (size_t)(q - p) >= sizeof num)
				goto badlist;
			memcpy(num, p, (size_t)(q - p));
			num[q - p] = '\0';
			if (parse_long(num, d->min, d->max, &v) == -1)
				goto badlist;
			o->list[i][k] = v;
			if (*q == '\0')
				break;
			p = q + 1;
		}
		if (k + 1 != d->len)
			goto badlist;
		break;
	}
	o->given[i] = 1;
	return 0;

badlist:
	snprintf(cause, len, "option %s: '%s' is not %d comma-separated "
	    "numbers from %ld to %ld%s%s", key, val, d->len, d->min, d->max,
	    d->keyword ? " or " : "", d->keyword ? d->keyword : "");
	return -1;
}

/* Checks the player count and lets the game resolve its options. */
int
opts_finish(const struct game *g, struct opts *o, char *cause, size_t len)
{
	if (o->players < g->min_players || o->players > g->max_players) {
		snprintf(cause, len, "%s is for %d to %d players, not %d",
		    g->name, g->min_players, g->max_players, o->players);
		return -1;
	}
	return g->resolve != NULL ? g->resolve(o, cause, len) : 0;
}

/* Returns the JSON value of option i. */
static json_t *
opt_value_json(const struct optdesc *d, const struct opts *o, int i)
{
	json_t *a;
	int k;

	switch (d->type) {
	case OPT_INT:
		return json_integer(o->v[i]);
	case OPT_BOOL:
		return json_boolean(o->v[i]);
	case OPT_ENUM:
		return json_string(d->choices[o->v[i]]);
	case OPT_SET:
		a = json_array();
		for (k = 0; d->choices[k] != NULL; k++)
			if (o->v[i] & (1L << k))
				json_array_append_new(a, json_string(d->choices[k]));
		return a;
	case OPT_LIST:
		if (o->keyword[i])
			return json_string(d->keyword);
		a = json_array();
		for (k = 0; k < d->len; k++)
			json_array_append_new(a, json_integer(o->list[i][k]));
		return a;
	}
	return json_null();
}

/* Returns the options as a new JSON object, players included. */
json_t *
opts_json(const struct game *g, const struct opts *o)
{
	json_t *j;
	int i;

	j = json_object();
	json_object_set_new(j, "players", json_integer(o->players));
	for (i = 0; g->options[i].name != NULL; i++)
		json_object_set_new(j, g->options[i].name,
		    opt_value_json(&g->options[i], o, i));
	return j;
}

/* Returns --describe's document: player counts and every option. */
json_t *
game_describe(const struct game *g)
{
	static const char *const types[] = { "int", "bool", "enum", "set",
	    "list" };
	const struct optdesc *d;
	struct opts o;
	json_t *j, *opts, *od, *ch;
	int i, k;

	opts_defaults(g, &o, g->default_players);
	j = json_pack("{s:s,s:s,s:{s:i,s:i,s:i}}", "game", g->name, "title",
	    g->title, "players", "min", g->min_players, "max", g->max_players,
	    "default", g->default_players);
	opts = json_array();
	for (i = 0; g->options[i].name != NULL; i++) {
		d = &g->options[i];
		od = json_pack("{s:s,s:s,s:s}", "name", d->name, "type",
		    types[d->type], "help", d->help ? d->help : "");
		if (d->type == OPT_INT || d->type == OPT_LIST) {
			json_object_set_new(od, "min", json_integer(d->min));
			json_object_set_new(od, "max", json_integer(d->max));
		}
		if (d->type == OPT_LIST) {
			json_object_set_new(od, "length", json_integer(d->len));
			if (d->keyword)
				json_object_set_new(od, "keyword",
				    json_string(d->keyword));
		}
		if (d->choices != NULL) {
			ch = json_array();
			for (k = 0; d->choices[k] != NULL; k++)
				json_array_append_new(ch,
				    json_string(d->choices[k]));
			json_object_set_new(od, "choices", ch);
		}
		json_object_set_new(od, "default", d->def_text ?
		    json_string(d->def_text) : opt_value_json(d, &o, i));
		json_array_append_new(opts, od);
	}
	json_object_set_new(j, "options", opts);
	return j;
}

/*
 * Applies {"key": value, ...} (as --describe and a hello show them, the
 * hello's "players" setting the count) or ["key=value", ...] to o; -1 +
 * cause.
 */
int
opts_from_json(const struct game *g, struct opts *o, const json_t *j,
    char *cause, size_t len)
{
	const char *key;
	json_t *v;
	size_t i;
	char buf[512], val[400];

	if (j == NULL)
		return 0;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			if (!json_is_string(v)) {
				snprintf(cause, len, "options: not a string");
				return -1;
			}
			if (opts_set(g, o, json_string_value(v), cause, len) == -1)
				return -1;
		}
		return 0;
	}
	if (!json_is_object(j)) {
		snprintf(cause, len, "options: not an object or array");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "players") == 0) {
			/* A hello's options: the count, not an option. */
			if (!json_is_integer(v)) {
				snprintf(cause, len, "options: players is "
				    "not a number");
				return -1;
			}
			o->players = (int)json_integer_value(v);
			continue;
		}
		if (opt_value_text(v, val, sizeof val) == -1) {
			snprintf(cause, len, "options: bad value for %s", key);
			return -1;
		}
		snprintf(buf, sizeof buf, "%s=%s", key, val);
		if (opts_set(g, o, buf, cause, len) == -1)
			return -1;
	}
	return 0;
}

int
opt_value_text(const json_t *v, char *val, size_t len)
{
	const json_t *e;
	size_t i, n;

	if (json_is_string(v))
		snprintf(val, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(val, len, "%s", json_is_true(v) ? "on" : "off");
	else if (json_is_integer(v))
		snprintf(val, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_array(v)) {
		val[0] = '\0';
		json_array_foreach(v, i, e) {
			n = strlen(val);
			if (json_is_integer(e))
				snprintf(val + n, len - n, "%s%lld",
				    i ? "," : "", (long long)
				    json_integer_value(e));
			else if (json_is_string(e))
				snprintf(val + n, len - n, "%s%s", i ? "," : "",
				    json_string_value(e));
			else
				return -1;
		}
	} else
		return -1;
	return 0;
}
