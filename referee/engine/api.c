/*
 * The public library interface (cardarena.h) over the game table
 * (game.h): a game in progress is its rules, options, generator and flat
 * state in one allocation, so a clone is one malloc and a memcpy.  JSON
 * text comes from the codecs' text writers, the same the referee sends.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardarena.h"
#include "game.h"
#include "jw.h"

struct ca_game {
	const struct game	*g;
	struct opts		 o;
	struct rng		 rng;
	size_t			 size;		/* of the allocation */
	max_align_t		 st[];		/* the flat state */
};

struct ca_view {
	json_t	*j;
};

_Static_assert(sizeof(struct ca_legal) == sizeof(struct legal) &&
    offsetof(struct ca_legal, lo) == offsetof(struct legal, lo) &&
    offsetof(struct ca_legal, hi) == offsetof(struct legal, hi) &&
    offsetof(struct ca_legal, ranged) == offsetof(struct legal, ranged),
    "struct ca_legal is struct legal");
_Static_assert(CA_MAX_LEGAL == MAX_LEGAL && CA_MAX_PLAYERS == MAX_PLAYERS &&
    CA_ALL == SEAT_ALL, "cardarena.h agrees with game.h");

static void	say(char *, size_t, const char *, const char *);

/* Copies cause into err (errlen bytes) when there is room. */
static void
say(char *err, size_t errlen, const char *what, const char *cause)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s%s", what, cause);
}

/* The id of the i-th game, NULL past the last. */
const char *
ca_game_name(int i)
{
	int k;

	for (k = 0; k < i && games[k] != NULL; k++)
		;
	return i >= 0 && games[k] != NULL ? games[k]->name : NULL;
}

/* A new game dealt from seed; NULL + cause if the game or options are bad. */
struct ca_game *
ca_new(const char *game, int players, const char *options, uint64_t seed,
    char *err, size_t errlen)
{
	const struct game *g;
	struct ca_game *c;
	json_t *j = NULL;
	json_error_t je;
	char cause[256];

	if (game == NULL || (g = game_find(game)) == NULL) {
		say(err, errlen, "no such game: ", game != NULL ? game : "");
		return NULL;
	}
	if (options != NULL && (j = json_loads(options, 0, &je)) == NULL) {
		say(err, errlen, "options: ", je.text);
		return NULL;
	}
	if ((c = calloc(1, sizeof *c + g->state_size)) == NULL) {
		json_decref(j);
		say(err, errlen, "out of memory", "");
		return NULL;
	}
	c->g = g;
	c->size = sizeof *c + g->state_size;
	opts_defaults(g, &c->o, g->default_players);
	if (opts_from_json(g, &c->o, j, cause, sizeof cause) == -1 ||
	    (players != 0 && (c->o.players = players) < 0) ||
	    opts_finish(g, &c->o, cause, sizeof cause) == -1) {
		json_decref(j);
		free(c);
		say(err, errlen, "", cause);
		return NULL;
	}
	json_decref(j);
	rng_seed(&c->rng, seed);
	g->init(c->st, &c->o, NULL, &c->rng, NULL);
	return c;
}

/* A copy of g, or NULL if out of memory. */
struct ca_game *
ca_clone(const struct ca_game *g)
{
	struct ca_game *c;

	if ((c = malloc(g->size)) != NULL)
		memcpy(c, g, g->size);
	return c;
}

/* Copies src's state and generator into dst (same rules); -1 if not. */
int
ca_copy(struct ca_game *dst, const struct ca_game *src)
{
	if (dst->g != src->g)
		return -1;
	memcpy(dst, src, src->size);
	return 0;
}

/* Frees g (NULL is fine). */
void
ca_free(struct ca_game *g)
{
	free(g);
}

/* Re-seeds g's generator. */
void
ca_seed(struct ca_game *g, uint64_t seed)
{
	rng_seed(&g->rng, seed);
}

/* The game's id. */
const char *
ca_name(const struct ca_game *g)
{
	return g->g->name;
}

/* The number of players. */
int
ca_players(const struct ca_game *g)
{
	return g->o.players;
}

/* The mask of the seats that decide now. */
uint32_t
ca_deciders(const struct ca_game *g)
{
	return g->g->deciders(g->st);
}

/* 1 once the game is over. */
int
ca_over(const struct ca_game *g)
{
	return g->g->over(g->st);
}

/* Writes player's legal entries (at most max); their count. */
int
ca_legal(const struct ca_game *g, int player, struct ca_legal *legal,
    int max)
{
	if (player < 0 || player >= g->o.players || max <= 0)
		return 0;
	return g->g->legal(g->st, player, (struct legal *)(void *)legal,
	    max);
}

/* Plays player's action; -1, g untouched, if it is not legal. */
int
ca_apply(struct ca_game *g, int player, int64_t code, int32_t amount)
{
	struct action a = { code, amount };

	if (player < 0 || player >= g->o.players)
		return -1;
	return g->g->apply(g->st, player, a, &g->rng, NULL);
}

/* The game's default move for a decider. */
int
ca_default_action(const struct ca_game *g, int player, int64_t *code,
    int32_t *amount)
{
	struct action a;

	if (player < 0 || player >= g->o.players ||
	    !(g->g->deciders(g->st) & (1u << player)))
		return -1;
	a = g->g->default_action(g->st, player);
	*code = a.code;
	*amount = a.amount;
	return 0;
}

/* Plays g on by uniform random legal actions; the count, or -1. */
long
ca_playout(struct ca_game *g, long max_actions)
{
	static _Thread_local struct legal l[MAX_LEGAL];
	struct action a;
	uint32_t d;
	long k;
	int n, p;

	for (k = 0; (max_actions <= 0 || k < max_actions) &&
	    (d = g->g->deciders(g->st)) != 0; k++) {
		p = __builtin_ctz(d);
		if ((n = g->g->legal(g->st, p, l, MAX_LEGAL)) <= 0)
			return -1;
		a = legal_pick(l, n, &g->rng);
		if (g->g->apply(g->st, p, a, &g->rng, NULL) == -1)
			return -1;
	}
	return k;
}

/* Places and scores of a finished game; -1 if it is not over. */
int
ca_result(const struct ca_game *g, int *places, double *scores)
{
	int p[MAX_PLAYERS];
	double s[MAX_PLAYERS];

	if (!g->g->over(g->st))
		return -1;
	g->g->result(g->st, p, s);
	if (places != NULL)
		memcpy(places, p, (size_t)g->o.players * sizeof *p);
	if (scores != NULL)
		memcpy(scores, s, (size_t)g->o.players * sizeof *s);
	return 0;
}

/* The engine's flat state (for the private headers' users). */
const void *
ca_state(const struct ca_game *g)
{
	return g->st;
}

/* Checks the invariants; -1 + cause. */
int
ca_check(const struct ca_game *g, char *err, size_t errlen)
{
	char cause[256];

	if (g->g->check(g->st, cause, sizeof cause) == -1) {
		say(err, errlen, "", cause);
		return -1;
	}
	return 0;
}

/* The view of seat as JSON text (CA_ALL: everything); caller frees. */
char *
ca_view_json(const struct ca_game *g, int seat)
{
	struct buf b = { 0 };
	struct jw w;

	if (seat != SEAT_ALL && (seat < 0 || seat >= g->o.players))
		return NULL;
	jw_text(&w, &b);
	g->g->view_write(g->st, seat, &w);
	buf_ch(&b, '\0');
	return b.p;
}

/* player's legal list as JSON text; caller frees. */
char *
ca_legal_json(const struct ca_game *g, int player)
{
	static _Thread_local struct legal l[MAX_LEGAL];
	struct buf b = { 0 };
	struct jw w;
	int n;

	n = ca_legal(g, player, (struct ca_legal *)(void *)l, MAX_LEGAL);
	jw_text(&w, &b);
	legal_write(g->g, g->st, player, l, n, &w);
	buf_ch(&b, '\0');
	return b.p;
}

/* An action as JSON text; caller frees. */
char *
ca_action_json(const struct ca_game *g, int player, int64_t code,
    int32_t amount)
{
	struct action a = { code, amount };
	struct buf b = { 0 };
	struct jw w;

	jw_text(&w, &b);
	g->g->action_write(g->st, player, a, &w);
	buf_ch(&b, '\0');
	return b.p;
}

/* Reads an action object; -1 + cause. */
int
ca_action_parse(const struct ca_game *g, int player, const char *json,
    int64_t *code, int32_t *amount, char *err, size_t errlen)
{
	struct action a = { 0, 0 };
	json_error_t je;
	json_t *j;
	char cause[256];
	int rc;

	if ((j = json_loads(json, 0, &je)) == NULL) {
		say(err, errlen, "action: ", je.text);
		return -1;
	}
	rc = g->g->action_parse(g->st, player, j, &a, cause, sizeof cause);
	json_decref(j);
	if (rc == -1) {
		say(err, errlen, "", cause);
		return -1;
	}
	*code = a.code;
	*amount = a.amount;
	return 0;
}

/* Frees text this library returned. */
void
ca_text_free(char *text)
{
	free(text);
}

/* A view parsed once; NULL + cause. */
struct ca_view *
ca_view_parse(const char *json, char *err, size_t errlen)
{
	struct ca_view *v;
	json_error_t je;
	json_t *j;

	if ((j = json_loads(json, 0, &je)) == NULL) {
		say(err, errlen, "view: ", je.text);
		return NULL;
	}
	if (!json_is_object(j) || (v = malloc(sizeof *v)) == NULL) {
		json_decref(j);
		say(err, errlen, "view: ", "not an object");
		return NULL;
	}
	v->j = j;
	return v;
}

/* Frees a parsed view (NULL is fine). */
void
ca_view_free(struct ca_view *v)
{
	if (v != NULL) {
		json_decref(v->j);
		free(v);
	}
}

/* Makes g a full game consistent with seat's view; -1 + cause. */
int
ca_determinize(struct ca_game *g, int seat, const struct ca_view *v,
    char *err, size_t errlen)
{
	char cause[256];

	if (g->g->determinize == NULL) {
		say(err, errlen, g->g->name, ": no determinization");
		return -1;
	}
	if (g->g->determinize(g->st, &g->o, seat, v->j, &g->rng, cause,
	    sizeof cause) == -1) {
		say(err, errlen, "", cause);
		return -1;
	}
	return 0;
}
