/*
 * Reading a match log's header for the replay (see head.h): each part by
 * its own reader, the options through the game's own option parser, so a
 * header holds nothing the referee would not have taken on its command
 * line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "head.h"

static int	 opt_string(const json_t *, char *, size_t);
static int	 header_options(struct rhead *, char *, size_t);
static int	 header_seed(struct rhead *, char *, size_t);
static int	 header_game_list(struct rhead *, char *, size_t);
static int	 header_games(struct rhead *, char *, size_t);
static int	 header_limits(struct rhead *, char *, size_t);
static int	 header_deals(struct rhead *, char *, size_t);

/* Writes an option's JSON value as its command-line text; -1 if odd. */
static int
opt_string(const json_t *v, char *s, size_t len)
{
	const json_t *x;
	size_t i, off = 0;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(s, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return 0;
	case JSON_TRUE:
	case JSON_FALSE:
		snprintf(s, len, "%s", json_is_true(v) ? "on" : "off");
		return 0;
	case JSON_STRING:
		snprintf(s, len, "%s", json_string_value(v));
		return 0;
	case JSON_ARRAY:
		s[0] = '\0';
		json_array_foreach(v, i, x) {
			if (json_is_integer(x))
				off += (size_t)snprintf(s + off, len - off,
				    "%s%" JSON_INTEGER_FORMAT, i ? "," : "",
				    json_integer_value(x));
			else if (json_is_string(x))
				off += (size_t)snprintf(s + off, len - off,
				    "%s%s", i ? "," : "", json_string_value(x));
			else
				return -1;
			if (off >= len)
				return -1;
		}
		return 0;
	default:
		return -1;
	}
}

/* Takes the game's options from the header (and which the user set). */
static int
header_options(struct rhead *rh, char *cause, size_t len)
{
	struct replay *rp = rh->rp;
	const json_t *opts, *v, *gv;
	const char *key;
	char kv[512], val[400], why[256];
	size_t gi;
	int k;

	opts = json_object_get(rh->l->header, "options");
	rh->P = (int)rlog_int(opts, "players", 0);
	if (!json_is_object(opts) || rh->P < rh->g->min_players ||
	    rh->P > rh->g->max_players) {
		snprintf(cause, len, "%s: the header has no usable options "
		    "(\"players\")", rh->l->path);
		return -1;
	}
	opts_defaults(rh->g, &rp->o, rh->P);
	json_object_foreach((json_t *)opts, key, v) {
		if (strcmp(key, "players") == 0)
			continue;
		if (opt_string(v, val, sizeof val) == -1) {
			snprintf(cause, len, "%s: option %s has an odd value",
			    rh->l->path, key);
			return -1;
		}
		snprintf(kv, sizeof kv, "%s=%s", key, val);
		if (opts_set(rh->g, &rp->o, kv, why, sizeof why) == -1) {
			snprintf(cause, len, "%s: header: %s", rh->l->path,
			    why);
			return -1;
		}
	}
	/* Logs that name the options the user set: only those count as set
	 * (a game may weigh a set option against its --setup). */
	if (json_is_array(v = json_object_get(rh->l->header, "options_given")))
		for (k = 0; rh->g->options[k].name != NULL; k++) {
			rp->o.given[k] = 0;
			json_array_foreach(v, gi, gv)
				if (json_is_string(gv) && strcmp(
				    json_string_value(gv),
				    rh->g->options[k].name) == 0)
					rp->o.given[k] = 1;
		}
	if (opts_finish(rh->g, &rp->o, why, sizeof why) == -1) {
		snprintf(cause, len, "%s: header: %s", rh->l->path, why);
		return -1;
	}
	rp->players = rh->P;
	rh->optsj = opts_json(rh->g, &rp->o);
	return 0;
}

/* Takes the seed from the header and checks the hello's nonce by it. */
static int
header_seed(struct rhead *rh, char *cause, size_t len)
{
	struct replay *rp = rh->rp;
	const json_t *v;

	v = json_object_get(rh->l->header, "seed");
	if (v == NULL) {
		snprintf(cause, len, "%s:1: the header has no seed", rh->l->path);
		return -1;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(cause, len, "%s:1: the header's seed is not a whole "
		    "number from 0 to 2^63-1", rh->l->path);
		return -1;
	}
	rp->seed = (uint64_t)json_integer_value(v);
	/* the hello's nonce, in the logs written since it was */
	rh->nonce = NULL;
	if ((v = json_object_get(rh->l->header, "nonce")) != NULL) {
		match_nonce(rp->seed, rh->nonce_s);
		if (!json_is_string(v) || strcmp(json_string_value(v),
		    rh->nonce_s) != 0) {
			snprintf(cause, len, "%s:1: the header's nonce is not "
			    "the seed's", rh->l->path);
			return -1;
		}
		rh->nonce = rh->nonce_s;
	}
	return 0;
}

/* Takes the header's list of games reported ("game_list"), if any. */
static int
header_game_list(struct rhead *rh, char *cause, size_t len)
{
	const json_t *v;
	size_t k, k2;

	rh->game_list = json_object_get(rh->l->header, "game_list");
	if (!json_is_array(rh->game_list) && !json_is_null(rh->game_list) &&
	    rh->game_list != NULL) {
		snprintf(cause, len, "%s:1: the header's \"game_list\" is not "
		    "a list or null", rh->l->path);
		return -1;
	}
	if (!json_is_array(rh->game_list)) {
		rh->game_list = NULL;
		return 0;
	}
	rh->list = xcalloc(json_array_size(rh->game_list) + 1,
	    sizeof *rh->list);
	json_array_foreach(rh->game_list, k, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= rh->ngames) {
			snprintf(cause, len, "%s:1: the header's game list "
			    "holds something not a game of the match",
			    rh->l->path);
			return -1;
		}
		rh->list[k] = (int)json_integer_value(v);
		for (k2 = 0; k2 < k; k2++)
			if (rh->list[k2] == rh->list[k]) {
				snprintf(cause, len, "%s:1: the header's game "
				    "list has game %d twice", rh->l->path,
				    rh->list[k]);
				return -1;
			}
	}
	return 0;
}

/* Takes the games of the match and the order they were played in. */
static int
header_games(struct rhead *rh, char *cause, size_t len)
{
	const json_t *h = rh->l->header, *v, *first;

	rh->ngames = (int)rlog_int(h, "games", 1);
	if (rh->ngames < 1 || rh->ngames > 10000000) {
		snprintf(cause, len, "%s:1: the header's \"games\" is not a "
		    "whole number from 1 to 10000000", rh->l->path);
		return -1;
	}
	rh->duplicate = json_is_true(json_object_get(h, "duplicate"));
	if (header_game_list(rh, cause, len) == -1)
		return -1;
	v = json_object_get(h, "replay");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(cause, len, "%s:1: the header's \"replay\" is not true "
		    "or false", rh->l->path);
		return -1;
	}
	first = json_object_get(h, "first_game");
	if (first != NULL && (!json_is_integer(first) ||
	    json_integer_value(first) < 0 || json_integer_value(first) >=
	    rh->ngames || (rh->duplicate && json_integer_value(first) %
	    rh->P))) {
		snprintf(cause, len, "%s:1: the header's \"first_game\" is not "
		    "a game of the match where a lifetime begins", rh->l->path);
		return -1;
	}
	playorder_init(&rh->po, rh->ngames, rh->P, rh->duplicate, rh->list,
	    rh->game_list != NULL ? (int)json_array_size(rh->game_list) : 0,
	    v == NULL || json_is_true(v), first != NULL ?
	    (int)json_integer_value(first) : 0);
	return 0;
}

/* Takes the limits and the fault policy from the header. */
static int
header_limits(struct rhead *rh, char *cause, size_t len)
{
	const json_t *h = rh->l->header, *v;

	v = json_object_get(h, "max_decisions");
	if (v != NULL && !json_is_null(v) && (!json_is_integer(v) ||
	    json_integer_value(v) < 1)) {
		snprintf(cause, len, "%s:1: the header's \"max_decisions\" is "
		    "not a positive whole number or null", rh->l->path);
		return -1;
	}
	rh->max_dec = json_is_integer(v) ? (long)json_integer_value(v) : 0;
	rh->policy = json_string_value(json_object_get(h, "on_fault"));
	if (rh->policy == NULL)
		rh->policy = "random";
	rh->max_faults = rlog_int(h, "max_faults", 0);
	rh->tpm = rlog_int(h, "time_per_move_ms", 0);
	rh->tbank = rlog_int(h, "time_bank_ms", 0);
	rh->thello = rlog_int(h, "time_hello_ms", 0);
	return 0;
}

/* Takes the deals fixed by the header: its set-up or its deal book. */
static int
header_deals(struct rhead *rh, char *cause, size_t len)
{
	struct replay *rp = rh->rp;
	const json_t *v;
	char why[256];

	v = json_object_get(rh->l->header, "setup");
	if (v != NULL && !json_is_null(v) && !json_is_object(v)) {
		snprintf(cause, len, "%s:1: the header's \"setup\" is not a "
		    "set-up document (an object) or null", rh->l->path);
		return -1;
	}
	if (json_is_object(v)) {
		rp->setup = xcalloc(1, rh->g->setup_size);
		if (rh->g->setup_parse(v, &rp->o, rp->setup, why, sizeof why) ==
		    -1) {
			snprintf(cause, len, "%s: the header's set-up: %s",
			    rh->l->path, why);
			free(rp->setup);
			rp->setup = NULL;
			return -1;
		}
	}
	v = json_object_get(rh->l->header, "deal_book");
	if (v != NULL && (rp->book = deal_book_parse(rh->g, &rp->o, v,
	    &rp->nbook, why, sizeof why)) == NULL) {
		snprintf(cause, len, "%s: the header's deal book: %s",
		    rh->l->path, why);
		return -1;
	}
	return 0;
}

int
rhead_read(struct rhead *rh, struct replay *rp, const struct rlog *l,
    char *cause, size_t len)
{
	const json_t *bots;
	const char *name;

	memset(rh, 0, sizeof *rh);
	rh->rp = rp;
	rh->l = l;
	name = json_string_value(json_object_get(rh->l->header, "game"));
	if (name == NULL || (rh->g = game_find(name)) == NULL) {
		snprintf(cause, len, "%s: the header's game \"%s\" is not one "
		    "of this build's games", rh->l->path, name ? name : "");
		return -1;
	}
	rh->rp->g = rh->g;
	if (header_options(rh, cause, len) == -1 ||
	    header_seed(rh, cause, len) == -1 ||
	    header_games(rh, cause, len) == -1 ||
	    header_limits(rh, cause, len) == -1)
		return -1;
	bots = json_object_get(rh->l->header, "bots");
	if (!json_is_array(bots) || json_array_size(bots) != (size_t)rh->P) {
		snprintf(cause, len, "%s: the header lists %zu bots for %d "
		    "players", rh->l->path, json_array_size(bots), rh->P);
		return -1;
	}
	return header_deals(rh, cause, len);
}

void
rhead_free(struct rhead *rh)
{
	json_decref(rh->optsj);
	playorder_free(&rh->po);
	free(rh->list);
}
