/*
 * The engine fuzzer: plays thousands of games of random legal moves with
 * random player counts and options, checking at every step the game's
 * invariants (check()), that every decider has a legal move, that the
 * default move is legal, that illegal codes are rejected without touching
 * the state, that the codec round-trips every legal action, and that a
 * seat's view and legal list do not change when everything it may not see
 * is re-dealt (perturb()).  Every game must end within a step cap.
 *
 * The other direction (issue 13: a view complete for a bot that keeps no
 * memory) is checked by recall(): one seat's events are kept as it was
 * told them, and a game's recall rule replays them as a remembering bot
 * would, deriving the public facts that still matter; each must be in the
 * seat's current view, equal.  The rules, per game:
 *   speculation  per player and face-down position, where the card came
 *                from (dealt, or seller, price, cards of its last sale);
 *                every bid of the current auction (each one's highest)
 *   nyse         (open_holdings off) per player the colours taken and the
 *                specials used; every swap, with the colour given and the
 *                two marks when the seat was told them; every "none"
 *                answer of the game (target, colour, asker, turn); in a
 *                swap turn, the committed swap chip and this turn's
 *                refused requests
 *   horserace    the seat's own sealed bets of the race
 *   daifugo      the seat's own exchange: what it gave and got
 * Facts the view shows directly (counters, discards, markers...) are
 * compared by the scenarios.
 *
 * Usage: fuzz -g GAME [-n GAMES] [-s SEED] [-v]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "jw.h"
#include "proto.h"

#define STEP_CAP	2000000

static struct legal	legal[MAX_LEGAL], legal2[MAX_LEGAL];
/* leak_check's own lists: it must not clobber the mover's list in legal. */
static struct legal	leak1[MAX_LEGAL], leak2[MAX_LEGAL];
static long		nrecall;	/* recall() checks made */

static int	play(const struct game *, uint64_t, char *, size_t, long *);
static int	leak_check(const struct game *, const void *, int,
		    struct rng *, char *, size_t);
static int	codec_check(const struct game *, const void *, int,
		    const struct legal *, int, char *, size_t);
static int	writer_check(const struct game *, const void *, int,
		    const struct legal *, int, char *, size_t);
static int	events_check(const struct game *, const void *,
		    const struct events *, char *, size_t);
static int	same_text(json_t *, struct buf *, const char *, char *,
		    size_t);
static int	recall(const struct game *, const void *, int, json_t *,
		    char *, size_t);
static int	same_set(const json_t *, const json_t *);

/* Compares seat's view and legal list of st with those of a perturbed copy. */
static int
leak_check(const struct game *g, const void *st, int seat, struct rng *r,
    char *why, size_t len)
{
	void *copy;
	json_t *v1, *v2, *l1, *l2;
	char *s1, *s2;
	int n1, n2, rc = 0;

	copy = xmalloc(g->state_size);
	memcpy(copy, st, g->state_size);
	g->perturb(copy, seat, r);
	if (g->check(copy, why, len) == -1) {
		free(copy);
		return -1;
	}
	v1 = game_view_json(g, st, seat);
	v2 = game_view_json(g, copy, seat);
	/* Whether another seat decides now (a sealed bet still to make)
	 * may itself be hidden; the seat's own turn may not. */
	if ((g->deciders(st) ^ g->deciders(copy)) & (1u << seat)) {
		snprintf(why, len, "perturbing what seat %d cannot see changed "
		    "whether it decides", seat);
		rc = -1;
	}
	n1 = (g->deciders(st) & (1u << seat)) ?
	    g->legal(st, seat, leak1, MAX_LEGAL) : 0;
	n2 = (g->deciders(copy) & (1u << seat)) ?
	    g->legal(copy, seat, leak2, MAX_LEGAL) : 0;
	l1 = legal_json(g, st, seat, leak1, n1);
	l2 = legal_json(g, copy, seat, leak2, n2);
	json_object_set_new(v1, "legal", l1);
	json_object_set_new(v2, "legal", l2);
	s1 = json_canon(v1);
	s2 = json_canon(v2);
	if (rc == 0 && strcmp(s1, s2) != 0) {
		size_t i;

		for (i = 0; s1[i] == s2[i]; i++)
			;
		snprintf(why, len, "seat %d's view changed when hidden "
		    "information was re-dealt, at byte %zu: ...%.80s... vs "
		    "...%.80s...", seat, i, s1 + (i > 40 ? i - 40 : 0),
		    s2 + (i > 40 ? i - 40 : 0));
		rc = -1;
	}
	free(s1);
	free(s2);
	json_decref(v1);
	json_decref(v2);
	free(copy);
	return rc;
}

/* Checks that every legal action survives a trip through the codec. */
static int
codec_check(const struct game *g, const void *st, int p,
    const struct legal *l, int n, char *why, size_t len)
{
	struct action a, b;
	json_t *j;
	char cause[256], *s;
	int i;

	for (i = 0; i < n; i++) {
		a.code = l[i].code;
		a.amount = l[i].ranged ? l[i].hi : 0;
		j = game_action_json(g, st, p, a);
		if (g->action_parse(st, p, j, &b, cause, sizeof cause) == -1 ||
		    b.code != a.code || b.amount != a.amount) {
			s = json_canon(j);
			snprintf(why, len, "codec: %s does not parse back (%s)",
			    s, cause);
			free(s);
			json_decref(j);
			return -1;
		}
		json_decref(j);
	}
	return 0;
}

/* Compares the referee's encoding of tree j with text t (frees j). */
static int
same_text(json_t *j, struct buf *t, const char *what, char *why, size_t len)
{
	struct buf b = { 0 };
	int rc = 0;

	buf_json(&b, j);
	if (b.len != t->len || memcmp(b.p, t->p, b.len) != 0) {
		snprintf(why, len, "writer: the text of %s differs from its "
		    "tree: %.200s vs %.200s", what, t->len ? t->p : "",
		    b.len ? b.p : "");
		rc = -1;
	}
	json_decref(j);
	buf_free(&b);
	t->len = 0;
	return rc;
}

/*
 * The text the referee sends (views, the legal list) must be byte for byte
 * the encoding of the JSON trees the same writers make (jw.h's two back
 * ends agree).
 */
static int
writer_check(const struct game *g, const void *st, int p,
    const struct legal *l, int n, char *why, size_t len)
{
	struct buf t = { 0 };
	struct jw w;
	int seat, rc = 0;

	for (seat = SEAT_ALL; rc == 0 && seat < MAX_PLAYERS; seat++) {
		if (seat >= 0 && !(g->deciders(st) & (1u << seat)) && seat != p)
			continue;
		jw_text(&w, &t);
		g->view_write(st, seat, &w);
		rc = same_text(game_view_json(g, st, seat), &t, "a view", why,
		    len);
	}
	if (rc == 0) {
		jw_text(&w, &t);
		legal_write(g, st, p, l, n, &w);
		rc = same_text(legal_json(g, st, p, l, n), &t, "a legal list",
		    why, len);
	}
	buf_free(&t);
	return rc;
}

/* The same for the events just emitted, encoded against st. */
static int
events_check(const struct game *g, const void *st, const struct events *ev,
    char *why, size_t len)
{
	struct buf t = { 0 };
	struct jw w;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < ev->n; i++) {
		jw_text(&w, &t);
		g->event_write(st, &ev->e[i], &w);
		rc = same_text(game_event_json(g, st, &ev->e[i]), &t,
		    "an event", why, len);
	}
	buf_free(&t);
	return rc;
}

/* The integer at key of object o, or -1. */
static json_int_t
ival(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* The string at key of object o, or "". */
static const char *
sval(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "";
}

/* Removes the entries at the positions listed in array pos from array a. */
static void
remove_positions(json_t *a, const json_t *pos)
{
	json_int_t k;
	size_t i;

	/* Highest position first, so the lower ones stay put. */
	for (k = (json_int_t)json_array_size(a) - 1; k >= 0; k--)
		for (i = 0; i < json_array_size(pos); i++)
			if (json_integer_value(json_array_get(pos, i)) == k) {
				json_array_remove(a, (size_t)k);
				break;
			}
}

/* Speculation's recall rule (see the top of the file). */
static int
recall_speculation(const json_t *evs, const json_t *view, char *why,
    size_t len)
{
	json_t *hands, *bids, *e, *h, *o, *players, *want;
	const char *t;
	size_t i, k, n;
	json_int_t pl, cnt;
	int rc = 0;

	players = json_object_get(view, "players");
	n = json_array_size(players);
	hands = json_array();
	bids = json_null();
	for (i = 0; i < n; i++)
		json_array_append_new(hands, json_array());
	json_array_foreach(evs, k, e) {
		t = sval(e, "type");
		if (strcmp(t, "dealt") == 0) {
			for (i = 0; i < n; i++) {
				h = json_array_get(hands, i);
				json_array_clear(h);
			}
			cnt = ival(e, "face_down");
			/* Those still in: not out by the current view's
			 * record at this deal or before. */
			for (i = 0; i < n; i++) {
				pl = ival(json_array_get(players, i), "out");
				if (pl >= 0 && pl <= ival(e, "deal"))
					continue;
				for (pl = 0; pl < cnt; pl++)
					json_array_append_new(json_array_get(
					    hands, i), json_null());
			}
		} else if (strcmp(t, "turn_up") == 0) {
			h = json_array_get(hands, (size_t)ival(e, "player"));
			json_array_remove(h, (size_t)ival(e, "position"));
		} else if (strcmp(t, "auction") == 0) {
			json_decref(bids);
			bids = json_array();
			for (i = 0; i < n; i++)
				json_array_append_new(bids, json_integer(0));
		} else if (strcmp(t, "bid") == 0 && json_is_array(bids)) {
			json_array_set_new(bids, (size_t)ival(e, "player"),
			    json_integer(ival(e, "amount")));
		} else if (strcmp(t, "sold") == 0 || strcmp(t, "unsold") == 0) {
			json_decref(bids);
			bids = json_null();
			if (strcmp(t, "sold") != 0 ||
			    json_object_get(e, "positions") == NULL)
				continue;
			remove_positions(json_array_get(hands,
			    (size_t)ival(e, "seller")),
			    json_object_get(e, "positions"));
			cnt = (json_int_t)json_array_size(json_object_get(e,
			    "positions"));
			for (pl = 0; pl < cnt; pl++) {
				o = json_pack("{s:I,s:I,s:I}", "from",
				    ival(e, "seller"), "price", ival(e, "price"),
				    "cards", cnt);
				json_array_append_new(json_array_get(hands,
				    (size_t)ival(e, "buyer")), o);
			}
		}
	}
	for (i = 0; rc == 0 && i < n; i++) {
		want = json_object_get(json_array_get(players, i), "bought");
		if (!json_equal(want, json_array_get(hands, i))) {
			snprintf(why, len, "recall: player %zu's face-down cards "
			    "as told differ from the view's bought", i);
			rc = -1;
		}
	}
	o = json_object_get(view, "auction");
	if (rc == 0 && json_is_object(o) &&
	    !json_equal(json_object_get(o, "bids"), bids)) {
		snprintf(why, len, "recall: the bids of the auction as told "
		    "differ from the view's");
		rc = -1;
	}
	json_decref(hands);
	json_decref(bids);
	return rc;
}

/* Returns 1 if the arrays a and b hold equal elements, each once. */
static int
same_set(const json_t *a, const json_t *b)
{
	size_t i, j, found;

	if (!json_is_array(a) || !json_is_array(b) ||
	    json_array_size(a) != json_array_size(b))
		return 0;
	for (i = 0; i < json_array_size(a); i++) {
		for (found = 0, j = 0; j < json_array_size(b); j++)
			found += json_equal(json_array_get(a, i),
			    json_array_get(b, j));
		if (found != 1)
			return 0;
	}
	return 1;
}

/* NYSE's recall rule, with open_holdings off (see the top of the file). */
static int
recall_nyse(const json_t *evs, const json_t *view, char *why, size_t len)
{
	static const char *const colours[] = { "blue", "black", "red",
	    "green" };
	static const char *const told[] = { "give_colour", "give_mark",
	    "mark" };
	json_t *taken, *used, *swaps, *nones, *refused, *e, *o, *hold;
	const char *t, *key, *chip = NULL, *phase;
	size_t k, n, i;
	json_int_t turn = 0;
	int rc = 0;

	hold = json_object_get(view, "holdings");
	if (json_object_get(json_array_get(hold, 0), "taken") == NULL)
		return 0;	/* open_holdings on: colours are shown */
	n = json_array_size(hold);
	taken = json_array();
	used = json_array();
	for (i = 0; i < n; i++) {
		json_array_append_new(taken, json_pack("{s:i,s:i,s:i,s:i}",
		    colours[0], 0, colours[1], 0, colours[2], 0, colours[3], 0));
		json_array_append_new(used, json_deep_copy(
		    json_array_get(taken, i)));
	}
	swaps = json_array();
	nones = json_array();
	refused = json_array();
	json_array_foreach(evs, k, e) {
		t = sval(e, "type");
		o = NULL;
		key = "chip";
		if (strcmp(t, "turn") == 0) {
			turn = ival(e, "number");
			json_array_clear(refused);
			chip = NULL;
		} else if (strcmp(t, "ask") == 0)
			chip = sval(e, "chip");
		else if (strcmp(t, "swap_void") == 0 ||
		    strcmp(t, "swap") == 0)
			chip = NULL;
		if (strcmp(t, "none") == 0) {
			json_array_append_new(nones, json_pack(
			    "{s:I,s:s,s:I,s:I}", "target", ival(e, "target"),
			    "colour", sval(e, "colour"), "player",
			    ival(e, "player"), "turn", turn));
			json_array_append_new(refused, json_pack("{s:I,s:s}",
			    "target", ival(e, "target"), "colour",
			    sval(e, "colour")));
		}
		if (strcmp(t, "take") == 0) {
			o = json_array_get(taken, (size_t)ival(e, "player"));
			key = "colour";
		} else if (strcmp(t, "speculate") == 0 ||
		    strcmp(t, "invest") == 0 || strcmp(t, "swap") == 0 ||
		    strcmp(t, "swap_void") == 0)
			o = json_array_get(used, (size_t)ival(e, "player"));
		if (o != NULL)
			json_object_set_new(o, sval(e, key), json_integer(
			    ival(o, sval(e, key)) + 1));
		if (strcmp(t, "swap") == 0 &&
		    json_object_get(e, "pile") == NULL) {
			o = json_pack("{s:I,s:I,s:s,s:s}", "player",
			    ival(e, "player"), "target", ival(e, "target"),
			    "chip", sval(e, "chip"), "colour",
			    sval(e, "colour"));
			for (i = 0; i < 3; i++)
				if (json_object_get(e, told[i]) != NULL)
					json_object_set(o, told[i],
					    json_object_get(e, told[i]));
			json_array_append_new(swaps, o);
		}
	}
	for (i = 0; rc == 0 && i < n; i++)
		if (!json_equal(json_object_get(json_array_get(hold, i),
		    "taken"), json_array_get(taken, i)) ||
		    !json_equal(json_object_get(json_array_get(hold, i),
		    "used"), json_array_get(used, i))) {
			snprintf(why, len, "recall: player %zu's chips taken or "
			    "used as told differ from the view's", i);
			rc = -1;
		}
	phase = sval(view, "phase");
	if (rc == 0 && strcmp(phase, "over") != 0 &&
	    !json_equal(json_object_get(view, "swaps"), swaps)) {
		snprintf(why, len, "recall: the swaps as told differ from the "
		    "view's");
		rc = -1;
	}
	if (rc == 0 && !same_set(json_object_get(view, "nones"), nones)) {
		snprintf(why, len, "recall: the none answers as told differ "
		    "from the view's");
		rc = -1;
	}
	if (rc == 0 && strcmp(phase, "over") != 0 &&
	    !same_set(json_object_get(view, "refused"), refused)) {
		snprintf(why, len, "recall: this turn's refused requests as "
		    "told differ from the view's");
		rc = -1;
	}
	o = json_object_get(view, "committed");
	if (rc == 0 && (chip == NULL ? o != NULL : o == NULL ||
	    strcmp(sval(o, "chip"), chip) != 0)) {
		snprintf(why, len, "recall: the committed swap chip as told "
		    "(%s) differs from the view's", chip ? chip : "none");
		rc = -1;
	}
	json_decref(taken);
	json_decref(used);
	json_decref(swaps);
	json_decref(nones);
	json_decref(refused);
	return rc;
}

/* Horserace's recall rule: the seat's own sealed bets of this race. */
static int
recall_horserace(const json_t *evs, const json_t *view, char *why,
    size_t len)
{
	json_t *mine, *e, *b = NULL, *want;
	const char *t;
	size_t k, i;
	int rc = 0;

	want = json_object_get(view, "my_bets");
	if (want == NULL)
		return 0;
	mine = json_array();
	json_array_foreach(evs, k, e) {
		t = sval(e, "type");
		if (strcmp(t, "betting") == 0)
			json_array_clear(mine);
		if (strcmp(t, "my_bet") != 0)
			continue;
		json_array_foreach(mine, i, b)
			if (strcmp(sval(b, "kind"), sval(e, "kind")) == 0 &&
			    json_equal(json_object_get(b, "suits"),
			    json_object_get(e, "suits")))
				break;
		if (i < json_array_size(mine))
			json_object_set_new(b, "stake",
			    json_integer(ival(e, "stake")));
		else
			json_array_append_new(mine, json_pack("{s:s,s:O,s:I}",
			    "kind", sval(e, "kind"), "suits",
			    json_object_get(e, "suits"), "stake",
			    ival(e, "stake")));
	}
	/* The view lists them by target; compare as sets. */
	if (json_array_size(mine) != json_array_size(want))
		rc = -1;
	json_array_foreach(mine, i, b) {
		for (k = 0; k < json_array_size(want); k++)
			if (json_equal(json_array_get(want, k), b))
				break;
		if (k == json_array_size(want))
			rc = -1;
	}
	if (rc == -1)
		snprintf(why, len, "recall: the seat's sealed bets as told "
		    "differ from the view's my_bets");
	json_decref(mine);
	return rc;
}

/* Daifugo's recall rule: the seat's own exchange, given and got. */
static int
recall_daifugo(const json_t *evs, const json_t *view, char *why, size_t len)
{
	const json_t *x = json_object_get(view, "exchange"), *e, *gave = NULL;
	const json_t *got = NULL;
	json_int_t seat = ival(view, "seat");
	size_t k;

	json_array_foreach(evs, k, e) {
		if (strcmp(sval(e, "type"), "deal") == 0)
			gave = got = NULL;
		if (strcmp(sval(e, "type"), "exchange") != 0 ||
		    json_object_get(e, "cards") == NULL)
			continue;
		if (ival(e, "from") == seat)
			gave = json_object_get(e, "cards");
		else if (ival(e, "to") == seat)
			got = json_object_get(e, "cards");
	}
	if (((gave != NULL || got != NULL) && !json_is_object(x)) ||
	    (gave != NULL && !json_equal(gave, json_object_get(x, "gave"))) ||
	    (got != NULL && !json_equal(got, json_object_get(x, "got")))) {
		snprintf(why, len, "recall: the seat's exchange as told differs "
		    "from the view's");
		return -1;
	}
	return 0;
}

/*
 * The second direction of the leak check: what seat was told (evs, every
 * event of the game it received) that can still matter is in its view.
 */
static int
recall(const struct game *g, const void *st, int seat, json_t *evs,
    char *why, size_t len)
{
	json_t *view = game_view_json(g, st, seat);
	int rc = 0;

	nrecall++;
	if (strcmp(g->name, "speculation") == 0)
		rc = recall_speculation(evs, view, why, len);
	else if (strcmp(g->name, "nyse") == 0)
		rc = recall_nyse(evs, view, why, len);
	else if (strcmp(g->name, "horserace") == 0)
		rc = recall_horserace(evs, view, why, len);
	else if (strcmp(g->name, "daifugo") == 0)
		rc = recall_daifugo(evs, view, why, len);
	json_decref(view);
	return rc;
}

/* Plays one random game; -1 + cause on the first broken check. */
static int
play(const struct game *g, uint64_t seed, char *why, size_t len, long *steps)
{
	struct rng r, rr;
	struct opts o;
	struct events ev = { NULL, 0, 0 };
	struct action a, bad;
	uint32_t d;
	void *st, *copy;
	double scores[MAX_PLAYERS];
	int places[MAX_PLAYERS], n, p, i, j, rc = -1, better, obs;
	json_t *told = json_array();
	size_t k;
	long step;

	rng_seed(&r, seed);
	if (opts_random(g, &o, &r, why, len) == -1)
		return -1;
	st = xcalloc(1, g->state_size);
	copy = xcalloc(1, g->state_size);
	rng_seed(&rr, seed ^ 0x5eed);
	g->init(st, &o, NULL, &r, (rng_below(&rr, 8) == 0) ? &ev : NULL);
	/* With events: one seat remembers what it is told (recall()). */
	obs = (int)rng_below(&rr, (uint32_t)o.players);
	for (step = 0; ; step++) {
		for (k = 0; k < ev.n; k++)
			if (ev.e[k].seen & (1u << obs))
				json_array_append_new(told,
				    game_event_json(g, st, &ev.e[k]));
		ev_clear(&ev);
		if (g->check(st, why, len) == -1)
			goto out;
		if (ev.e != NULL && ((g->deciders(st) & (1u << obs)) ||
		    g->over(st)) && rng_below(&rr, 4) == 0 &&
		    recall(g, st, obs, told, why, len) == -1)
			goto out;
		if ((d = g->deciders(st)) == 0)
			break;
		if (g->over(st)) {
			snprintf(why, len, "over, yet deciders %#x", d);
			goto out;
		}
		if (step >= STEP_CAP) {
			snprintf(why, len, "no end after %d steps", STEP_CAP);
			goto out;
		}
		/* A random decider acts; the others keep their turn. */
		n = popcount32(d);
		for (i = (int)rng_below(&r, (uint32_t)n), p = 0; ; p++)
			if ((d & (1u << p)) && i-- == 0)
				break;
		if ((n = g->legal(st, p, legal, MAX_LEGAL)) <= 0) {
			snprintf(why, len, "decider %d has no legal move", p);
			goto out;
		}
		a = g->default_action(st, p);
		if (legal_find(legal, n, a) < 0) {
			snprintf(why, len, "default action of %d is not legal",
			    p);
			goto out;
		}
		if (rng_below(&rr, 16) == 0) {
			if (codec_check(g, st, p, legal, n, why, len) == -1 ||
			    writer_check(g, st, p, legal, n, why, len) == -1)
				goto out;
			/* An unlisted action must be refused, state intact. */
			bad.code = legal[rng_below(&rr, (uint32_t)n)].code +
			    1 + rng_below(&rr, 1000);
			bad.amount = (int32_t)rng_below(&rr, 3);
			memcpy(copy, st, g->state_size);
			if (legal_find(legal, n, bad) < 0) {
				if (g->apply(st, p, bad, &r, NULL) != -1 ||
				    memcmp(copy, st, g->state_size) != 0) {
					snprintf(why, len, "illegal code %lld "
					    "accepted", (long long)bad.code);
					goto out;
				}
			}
			/* A player who does not decide now has nothing to do. */
			for (j = 0; j < o.players; j++)
				if (!(d & (1u << j))) {
					if (g->legal(st, j, legal2, MAX_LEGAL) != 0 ||
					    g->apply(st, j, a, &r, NULL) != -1 ||
					    memcmp(copy, st, g->state_size) != 0) {
						snprintf(why, len, "player %d, not a "
						    "decider, could act", j);
						goto out;
					}
					break;
				}
		}
		if (rng_below(&rr, 8) == 0 &&
		    leak_check(g, st, (int)rng_below(&rr,
		    (uint32_t)o.players), &rr, why, len) == -1)
			goto out;
		a = legal_pick(legal, n, &r);
		if (g->apply(st, p, a, &r, ev.e ? &ev : NULL) == -1) {
			snprintf(why, len, "apply refused legal action %lld "
			    "of player %d", (long long)a.code, p);
			goto out;
		}
		if (events_check(g, st, &ev, why, len) == -1)
			goto out;
	}
	if (!g->over(st)) {
		snprintf(why, len, "no deciders but not over");
		goto out;
	}
	if (ev.e != NULL && recall(g, st, obs, told, why, len) == -1)
		goto out;
	g->result(st, places, scores);
	for (i = 0; i < o.players; i++) {
		better = 0;
		for (j = 0; j < o.players; j++)
			better += places[j] < places[i];
		if (places[i] < 1 || places[i] > o.players ||
		    places[i] != better + 1) {
			snprintf(why, len, "inconsistent places");
			goto out;
		}
	}
	*steps += step;
	rc = 0;
out:
	if (rc == -1) {
		size_t l = strlen(why);

		snprintf(why + l, len - l, " (players %d, step %ld)",
		    o.players, step);
	}
	ev_free(&ev);
	json_decref(told);
	free(st);
	free(copy);
	return rc;
}

int
main(int argc, char **argv)
{
	const struct game *g = NULL;
	const char *errstr;
	uint64_t seed = 1;
	long n = 1000, i, steps = 0;
	char why[1024];
	int c;

	while ((c = getopt(argc, argv, "g:n:s:")) != -1)
		switch (c) {
		case 'g':
			if ((g = game_find(optarg)) == NULL)
				errx(2, "no game %s", optarg);
			break;
		case 'n':
			n = strtonum(optarg, 1, 100000000, &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: fuzz -g GAME [-n GAMES] "
			    "[-s SEED]\n");
			return 2;
		}
	if (g == NULL)
		errx(2, "usage: fuzz -g GAME [-n GAMES] [-s SEED]");
	for (i = 0; i < n; i++) {
		if (play(g, seed_derive(seed, (uint64_t)i), why, sizeof why,
		    &steps) == -1) {
			printf("not ok 1 - %s: game %ld (fuzz -g %s -s %llu, "
			    "game index %ld): %s\n1..1\n", g->name, i, g->name,
			    (unsigned long long)seed, i, why);
			return 1;
		}
	}
	printf("ok 1 - %s: %ld random games, %ld actions: every game ended, "
	    "invariants held, views leak-free and complete (%ld recalls), "
	    "codec round-trips\n1..1\n", g->name, n, steps, nrecall);
	return 0;
}
