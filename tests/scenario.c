/*
 * The rule-scenario driver: reads scenario files (tests as data, like jq's
 * test corpus) and plays each one against the rules engine, printing TAP.
 *
 * A file holds one scenario object, or {"scenarios": [...]} whose entries
 * inherit the file's top-level fields.  A scenario:
 *
 *   "name"      what it shows
 *   "game"      game id            "players"  count (default: the game's)
 *   "options"   {"key": value} or ["key=value"]     "seed"  (default 1)
 *   "setup"     the game's --setup document (optional)
 *   "steps"     a list, each one of:
 *     {"player": P, "action": A}             A must be legal; applied
 *     {"player": P, "index": I [, "amount": N]}  the I-th legal entry
 *     {"player": P, "action": A, "illegal": true}
 *                                            A must be rejected (by the
 *                                            parser or the legal list) and
 *                                            apply must leave the state as is
 *     {"player": P, "default": true}         applies the default action
 *     {"expect": {PATH: VALUE, ...} [, "seat": S]}
 *                                            PATH ("/a/0/b" or "a.0.b") in
 *                                            the view of seat S (default the
 *                                            all-seeing view) equals VALUE;
 *                                            VALUE null also matches absent
 *     {"deciders": [P, ...]}                 exactly these must decide
 *     {"legal_count": N, "player": P}        P has exactly N legal entries
 *     {"legal_has": [A, ...], "player": P}   each A is among P's legal list
 *     {"over": true|false}
 *   "result"    {"places": [...], "scores": [...]} once the game is over
 *
 * Usage: scenario [-v] FILE...
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

struct run {
	const struct game	*g;
	void			*st, *copy;
	struct rng		 rng;
	struct events		 ev;
	struct legal		 legal[MAX_LEGAL];
	char			 why[1024];
};

static int	verbose;
static int	ntest;

static int	fail(struct run *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	run_scenario(const json_t *, const char *);
static int	do_step(struct run *, const json_t *, int);
static int	step_action(struct run *, const json_t *, int);
static int	parse_value(struct run *, int, const json_t *, struct action *);
static json_t	*merged(const json_t *, const json_t *);

/* Records why the scenario failed; returns -1. */
static int
fail(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char buf[sizeof r->why];

	/* Formatted aside first: the arguments may point into r->why. */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	memcpy(r->why, buf, sizeof buf);
	return -1;
}

/* Parses an action value for player; -1 with the cause in r->why. */
static int
parse_value(struct run *r, int player, const json_t *j, struct action *a)
{
	char cause[256];

	if (r->g->action_parse(r->st, player, j, a, cause, sizeof cause) == -1)
		return fail(r, "%s", cause);
	return 0;
}

/* Plays one action step (legal, illegal, by index, or default). */
static int
step_action(struct run *r, const json_t *s, int k)
{
	const json_t *jact, *jidx;
	struct action a;
	char *txt;
	int player, n, legal, i;

	player = (int)json_integer_value(json_object_get(s, "player"));
	if (player < 0 || player >= MAX_PLAYERS)
		return fail(r, "step %d: bad player", k);
	jact = json_object_get(s, "action");
	jidx = json_object_get(s, "index");
	if (json_is_true(json_object_get(s, "illegal"))) {
		if (parse_value(r, player, jact, &a) == -1)
			return 0;	/* rejected by the parser: as wanted */
		memcpy(r->copy, r->st, r->g->state_size);
		legal = (r->g->deciders(r->st) & (1u << player)) &&
		    legal_contains(r->g, r->st, player, a);
		if (legal) {
			txt = json_canon(jact);
			fail(r, "step %d: illegal action %s by %d was listed as "
			    "legal", k, txt, player);
			free(txt);
			return -1;
		}
		if (r->g->apply(r->st, player, a, &r->rng, &r->ev) != -1)
			return fail(r, "step %d: apply accepted an illegal "
			    "action", k);
		if (memcmp(r->copy, r->st, r->g->state_size) != 0)
			return fail(r, "step %d: a rejected action changed the "
			    "state", k);
		return 0;
	}
	if (!(r->g->deciders(r->st) & (1u << player)))
		return fail(r, "step %d: player %d is not a decider (mask "
		    "%#x)", k, player, r->g->deciders(r->st));
	if (json_is_true(json_object_get(s, "default")))
		a = r->g->default_action(r->st, player);
	else if (jidx != NULL) {
		n = r->g->legal(r->st, player, r->legal, MAX_LEGAL);
		i = (int)json_integer_value(jidx);
		if (i < 0 || i >= n)
			return fail(r, "step %d: index %d of %d", k, i, n);
		a.code = r->legal[i].code;
		a.amount = (int32_t)json_integer_value(json_object_get(s,
		    "amount"));
	} else if (parse_value(r, player, jact, &a) == -1) {
		txt = json_canon(jact);
		fail(r, "step %d: action %s did not parse: %s", k, txt,
		    r->why);
		free(txt);
		return -1;
	}
	if (!legal_contains(r->g, r->st, player, a)) {
		txt = json_canon(jact);
		fail(r, "step %d: action %s by %d is not legal", k,
		    txt ? txt : "(default)", player);
		free(txt);
		return -1;
	}
	if (r->g->apply(r->st, player, a, &r->rng, &r->ev) == -1)
		return fail(r, "step %d: apply refused a legal action", k);
	if (r->g->check(r->st, r->why, sizeof r->why) == -1)
		return fail(r, "step %d: invariant: %s", k, r->why);
	return 0;
}

/* Plays or checks one step. */
static int
do_step(struct run *r, const json_t *s, int k)
{
	const json_t *v, *jseat;
	const char *path;
	json_t *view, *got, *lj;
	char *a, *b;
	uint32_t mask;
	size_t i;
	int seat, n, player, ok;

	if (json_object_get(s, "player") != NULL &&
	    (json_object_get(s, "action") != NULL ||
	    json_object_get(s, "index") != NULL ||
	    json_object_get(s, "default") != NULL))
		return step_action(r, s, k);
	if ((v = json_object_get(s, "expect")) != NULL) {
		jseat = json_object_get(s, "seat");
		seat = jseat ? (int)json_integer_value(jseat) : SEAT_ALL;
		view = game_view_json(r->g, r->st, seat);
		json_object_foreach((json_t *)v, path, jseat) {
			got = json_path(view, path);
			if ((got == NULL && json_is_null(jseat)) ||
			    (got != NULL && json_equal(got, jseat)))
				continue;
			a = json_canon(jseat);
			b = got ? json_canon(got) : xstrdup("(absent)");
			fail(r, "step %d: %s: expected %s, got %s", k, path, a,
			    b);
			free(a);
			free(b);
			if (verbose) {
				a = json_dumps(view, JSON_INDENT(1));
				fprintf(stderr, "%s\n", a);
				free(a);
			}
			json_decref(view);
			return -1;
		}
		json_decref(view);
		return 0;
	}
	if ((v = json_object_get(s, "deciders")) != NULL) {
		mask = 0;
		json_array_foreach(v, i, jseat)
			mask |= 1u << json_integer_value(jseat);
		if (r->g->deciders(r->st) != mask)
			return fail(r, "step %d: deciders %#x, expected %#x", k,
			    r->g->deciders(r->st), mask);
		return 0;
	}
	if ((v = json_object_get(s, "over")) != NULL) {
		if (!!r->g->over(r->st) != json_is_true(v))
			return fail(r, "step %d: over is %d", k,
			    r->g->over(r->st));
		return 0;
	}
	player = (int)json_integer_value(json_object_get(s, "player"));
	if ((v = json_object_get(s, "legal_count")) != NULL) {
		n = r->g->legal(r->st, player, r->legal, MAX_LEGAL);
		if (n != json_integer_value(v)) {
			lj = legal_json(r->g, r->st, player, r->legal, n);
			a = json_canon(lj);
			fail(r, "step %d: %d legal entries, expected %lld: %.600s",
			    k, n, (long long)json_integer_value(v), a);
			free(a);
			json_decref(lj);
			return -1;
		}
		return 0;
	}
	if ((v = json_object_get(s, "legal_has")) != NULL) {
		json_array_foreach(v, i, jseat) {
			struct action act;

			if (parse_value(r, player, jseat, &act) == -1)
				return fail(r, "step %d: legal_has[%zu]: %s", k,
				    i, r->why);
			ok = (r->g->deciders(r->st) & (1u << player)) &&
			    legal_contains(r->g, r->st, player, act);
			if (!ok) {
				a = json_canon(jseat);
				fail(r, "step %d: %s is not legal", k, a);
				free(a);
				return -1;
			}
		}
		return 0;
	}
	return fail(r, "step %d: unknown step", k);
}

/* Returns a new object: base's fields overridden by s's. */
static json_t *
merged(const json_t *base, const json_t *s)
{
	json_t *m;

	m = json_deep_copy(base);
	json_object_del(m, "scenarios");
	json_object_update(m, (json_t *)s);
	return m;
}

/* Runs one scenario; prints its TAP line; returns 0 if it passed. */
static int
run_scenario(const json_t *sc, const char *file)
{
	struct run *r;
	struct opts o;
	const json_t *steps, *res, *v;
	const char *name;
	void *setup = NULL;
	double scores[MAX_PLAYERS];
	int places[MAX_PLAYERS];
	json_t *got;
	size_t i;
	int rc = -1, players, k;
	char *a;

	r = xcalloc(1, sizeof *r);
	name = json_string_value(json_object_get(sc, "name"));
	if (name == NULL)
		name = "(unnamed)";
	if ((r->g = game_find(json_string_value(json_object_get(sc,
	    "game")) ? json_string_value(json_object_get(sc, "game")) :
	    "")) == NULL) {
		fail(r, "no such game");
		goto out;
	}
	players = json_object_get(sc, "players") ?
	    (int)json_integer_value(json_object_get(sc, "players")) :
	    r->g->default_players;
	opts_defaults(r->g, &o, players);
	if (opts_from_json(r->g, &o, json_object_get(sc, "options"), r->why,
	    sizeof r->why) == -1 ||
	    opts_finish(r->g, &o, r->why, sizeof r->why) == -1)
		goto out;
	if ((v = json_object_get(sc, "setup")) != NULL) {
		setup = xcalloc(1, r->g->setup_size);
		if (r->g->setup_parse(v, &o, setup, r->why, sizeof r->why) ==
		    -1)
			goto out;
	}
	r->st = xcalloc(1, r->g->state_size);
	r->copy = xcalloc(1, r->g->state_size);
	rng_seed(&r->rng, json_object_get(sc, "seed") ?
	    (uint64_t)json_integer_value(json_object_get(sc, "seed")) : 1);
	r->g->init(r->st, &o, setup, &r->rng, &r->ev);
	if (r->g->check(r->st, r->why, sizeof r->why) == -1)
		goto out;
	steps = json_object_get(sc, "steps");
	json_array_foreach(steps, i, v) {
		if (do_step(r, v, (int)i) == -1)
			goto out;
		ev_clear(&r->ev);
	}
	if ((res = json_object_get(sc, "result")) != NULL) {
		if (!r->g->over(r->st)) {
			fail(r, "result: the game is not over");
			goto out;
		}
		r->g->result(r->st, places, scores);
		if ((v = json_object_get(res, "places")) != NULL)
			for (k = 0; k < players; k++)
				if (json_integer_value(json_array_get(v,
				    (size_t)k)) != places[k]) {
					fail(r, "result: player %d placed %d, "
					    "expected %lld", k, places[k],
					    (long long)json_integer_value(
					    json_array_get(v, (size_t)k)));
					goto out;
				}
		if ((v = json_object_get(res, "scores")) != NULL)
			for (k = 0; k < players; k++) {
				got = json_array_get(v, (size_t)k);
				if (json_number_value(got) != scores[k]) {
					fail(r, "result: player %d scored %g, "
					    "expected %g", k, scores[k],
					    json_number_value(got));
					goto out;
				}
			}
	}
	rc = 0;
out:
	ntest++;
	if (rc == 0)
		printf("ok %d - %s: %s\n", ntest, file, name);
	else {
		printf("not ok %d - %s: %s\n#   %s\n", ntest, file, name, r->why);
		if (verbose && r->st != NULL && r->g != NULL) {
			got = game_view_json(r->g, r->st, SEAT_ALL);
			a = json_dumps(got, JSON_INDENT(1));
			printf("#   state: %s\n", a);
			free(a);
			json_decref(got);
		}
	}
	ev_free(&r->ev);
	free(r->st);
	free(r->copy);
	free(setup);
	free(r);
	return rc;
}

int
main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *doc, *list, *sc, *m;
	size_t i;
	int c, failed = 0;

	while ((c = getopt(argc, argv, "v")) != -1)
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: scenario [-v] FILE...\n");
			return 2;
		}
	if (optind == argc) {
		fprintf(stderr, "usage: scenario [-v] FILE...\n");
		return 2;
	}
	for (; optind < argc; optind++) {
		if ((doc = json_load_file(argv[optind], 0, &jerr)) == NULL) {
			printf("not ok %d - %s\n#   line %d: %s\n", ++ntest,
			    argv[optind], jerr.line, jerr.text);
			failed++;
			continue;
		}
		if ((list = json_object_get(doc, "scenarios")) != NULL) {
			json_array_foreach(list, i, sc) {
				m = merged(doc, sc);
				failed += run_scenario(m, argv[optind]) != 0;
				json_decref(m);
			}
		} else
			failed += run_scenario(doc, argv[optind]) != 0;
		json_decref(doc);
	}
	printf("1..%d\n", ntest);
	return failed ? 1 : 0;
}
