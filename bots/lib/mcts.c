/*
 * The search of the search bots (mcts.h): single-observer information-set
 * MCTS on the engines' public library, wrapped in the C SDK's loop.  One
 * tree per decision, its nodes in one growing array; the bot keeps no
 * memory between requests but the match's options.
 */
#include <err.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "bot.h"
#include "mcts.h"

#define MAX_NODES	(1 << 21)	/* then iterations add no node */
#define MAX_DEPTH	4096
#define MAX_CAND	(4 * CA_MAX_LEGAL)
#define MAX_AMOUNTS	16	/* a ranged entry's amounts from expand */

/* One tree node: the action that leads to it, by whom, and its counts. */
struct node {
	int64_t		code;
	int32_t		amount;
	int32_t		child, next;	/* first child, next sibling; -1 */
	int32_t		index;		/* a root child's legal index */
	uint32_t	visits, avail;
	int8_t		player;
	double		reward;		/* summed, for player */
	double		square;		/* the squares summed */
};

/* A candidate action of a node: an entry and an amount. */
struct cand {
	int64_t	code;
	int32_t	amount;
	int32_t	index;
};

struct mcts {
	const char	*game;
	mcts_policy_fn	 policy;
	mcts_cutoff_fn	 cutoff;
	mcts_expand_fn	 expand;
	bot_choose_fn	 advice;
	double		 confidence;	/* z to leave the prior's move */
	double		 settle;	/* z to stop a search early */
	int		 own;		/* a tree of the bot's own moves */
	int		 cut_own;	/* the cutoff before own moves too */
	struct ca_game	*root;		/* this decision's first draw */
	long		 ms, iterations;
	double		 explore;
	int		 amounts;
	int		 verbose;	/* every root child to stderr */
	struct ca_game	*base;		/* the match's options, dealt once */
	struct ca_game	*d;		/* the draw of an iteration */
	struct node	*node;
	size_t		 nnode, cap;
	struct ca_legal	 legal[CA_MAX_LEGAL];
	struct cand	 cand[MAX_CAND];
	int32_t		 path[MAX_DEPTH];
};

static int	candidates(struct mcts *, const struct ca_game *, int);
static int32_t	new_node(struct mcts *, int32_t, const struct cand *, int);
static int	policy_move(struct mcts *, struct ca_game *, int,
		    struct rng *);
static int	playout(struct mcts *, struct ca_game *, struct rng *,
		    double *);
static void	rewards(const struct ca_game *, double *);
static int	iterate(struct mcts *, int, const struct ca_view *,
		    struct rng *);
static void	moments(const struct node *, double *, double *);
static int	settled(const struct mcts *);
static double	real_arg(const char *, const char *);
static int32_t	advised(struct mcts *, struct bot *, const json_t *,
		    int32_t, int *, int32_t *);
static int	choose(struct bot *, const json_t *, int32_t *);
static double	now_ms(void);

/* The monotonic clock in milliseconds. */
static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Lists player's candidate actions in g into m->cand: each entry the
 * game's expand hook keeps (every entry if it keeps none), a ranged one
 * as its amounts or up to m->amounts amounts spread over the range; their
 * count.
 */
static int
candidates(struct mcts *m, const struct ca_game *g, int player)
{
	const struct ca_legal *l;
	int32_t am[MAX_AMOUNTS];
	int n, i, k, a, c = 0, all = 0;
	int64_t span;

	n = ca_legal(g, player, m->legal, CA_MAX_LEGAL);
again:
	for (i = 0; i < n && c < MAX_CAND; i++) {
		l = &m->legal[i];
		a = all || m->expand == NULL ? -1 :
		    m->expand(g, player, l, am, MAX_AMOUNTS);
		if (a == 0)
			continue;
		if (!l->ranged) {
			m->cand[c++] = (struct cand){ l->code, 0, i };
			continue;
		}
		if (a > 0) {
			for (k = 0; k < a && c < MAX_CAND; k++)
				if (am[k] >= l->lo && am[k] <= l->hi)
					m->cand[c++] = (struct cand){ l->code,
					    am[k], i };
			continue;
		}
		/*
		 * lo, lo + 1, lo + 3, lo + 7...: most amounts near the
		 * minimum (an ascending auction's next bid, a small stake);
		 * an all-in amount is rarely the move.
		 */
		for (k = 0; k < m->amounts && c < MAX_CAND; k++) {
			span = ((int64_t)1 << k) - 1;
			if (l->lo + span > l->hi)
				break;
			m->cand[c++] = (struct cand){ l->code,
			    (int32_t)(l->lo + span), i };
		}
	}
	if (c == 0 && n > 0 && !all) {
		all = 1;
		goto again;
	}
	return c;
}

/* Adds a child of parent for player's candidate c; its index, or -1. */
static int32_t
new_node(struct mcts *m, int32_t parent, const struct cand *c, int player)
{
	struct node *n;

	if (m->nnode >= MAX_NODES)
		return -1;
	if (m->nnode == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4096;
		m->node = reallocarray(m->node, m->cap, sizeof *m->node);
		if (m->node == NULL)
			err(1, "reallocarray");
	}
	n = &m->node[m->nnode];
	*n = (struct node){ .code = c->code, .amount = c->amount,
	    .child = -1, .next = -1, .index = c->index, .player =
	    (int8_t)player };
	if (parent >= 0) {
		n->next = m->node[parent].child;
		m->node[parent].child = (int32_t)m->nnode;
	}
	return (int32_t)m->nnode++;
}

/* Plays p's playout move in g by the policy (uniform without one); -1 if
 * p has none. */
static int
policy_move(struct mcts *m, struct ca_game *g, int p, struct rng *r)
{
	int32_t amount = 0;
	int n, i;

	if ((n = ca_legal(g, p, m->legal, CA_MAX_LEGAL)) <= 0)
		return -1;
	if (m->policy != NULL)
		i = m->policy(g, p, m->legal, n, r, &amount);
	else {
		i = (int)rng_below(r, (uint32_t)n);
		if (m->legal[i].ranged)
			amount = m->legal[i].lo + (int32_t)rng_below(r,
			    (uint32_t)(m->legal[i].hi - m->legal[i].lo) + 1);
	}
	return ca_apply(g, p, m->legal[i].code, amount);
}

/*
 * Plays g to its end (or the cutoff) by the policy (uniform without one)
 * and writes the rewards; -1 if stuck.
 */
static int
playout(struct mcts *m, struct ca_game *g, struct rng *r, double *rw)
{
	uint32_t d;

	while ((d = ca_deciders(g)) != 0) {
		if (m->cutoff != NULL && m->cutoff(m->root, g, rw))
			return 0;
		if (policy_move(m, g, __builtin_ctz(d), r) == -1)
			return -1;
	}
	if (m->cutoff == NULL || !m->cutoff(m->root, g, rw))
		rewards(g, rw);
	return 0;
}

/* Rewards from scores: 1 for first .. 0 for last, ties sharing. */
void
mcts_rank(int n, const double *scores, double *reward)
{
	int p, q;
	double above, equal;

	for (p = 0; p < n; p++) {
		for (above = equal = 0, q = 0; q < n; q++)
			if (scores[q] > scores[p])
				above++;
			else if (scores[q] == scores[p] && q != p)
				equal++;
		/* The mean of places above + 1 .. above + 1 + equal. */
		reward[p] = n > 1 ? (n - 1 - above - equal / 2) / (n - 1) : 1;
	}
}

/* Each player's reward of a finished g: 1 for first .. 0 for last. */
static void
rewards(const struct ca_game *g, double *r)
{
	int places[CA_MAX_PLAYERS], n, p;

	n = ca_players(g);
	ca_result(g, places, NULL);
	for (p = 0; p < n; p++)
		r[p] = n > 1 ? (double)(n - places[p]) / (n - 1) : 1;
}

/* One iteration from seat's view v; -1 if the view cannot be drawn. */
static int
iterate(struct mcts *m, int seat, const struct ca_view *v, struct rng *r)
{
	struct node *ch;
	double rw[CA_MAX_PLAYERS], best, u;
	uint32_t dec;
	int32_t at = 0, pick, c;
	int depth = 0, n, i, p, untried, k = 0;
	char cause[256];

	/* seeded first: the draw is the game's, not the last search's */
	ca_seed(m->d, rng_next(r));
	if (ca_determinize(m->d, seat, v, cause, sizeof cause) == -1)
		return -1;
	if (m->root == NULL && (m->root = ca_clone(m->d)) == NULL)
		err(1, "ca_clone");
	m->path[depth++] = 0;
	while ((dec = ca_deciders(m->d)) != 0 && depth < MAX_DEPTH) {
		if (m->own && (dec & (1u << seat)) == 0) {
			/* The others' moves are the policy's (their model). */
			if (m->cutoff != NULL && m->cutoff(m->root, m->d, rw))
				goto back;
			if (policy_move(m, m->d, __builtin_ctz(dec), r) == -1)
				return -1;
			continue;
		}
		if (at != 0 && m->cut_own && m->cutoff != NULL &&
		    m->cutoff(m->root, m->d, rw))
			goto back;
		p = at == 0 || m->own ? seat : __builtin_ctz(dec);
		n = candidates(m, m->d, p);
		/* Untried candidates first (one at random); else UCB1. */
		pick = -1;
		untried = 0;
		best = -1;
		for (i = 0; i < n; i++) {
			for (c = m->node[at].child; c >= 0; c = ch->next) {
				ch = &m->node[c];
				if (ch->player == p && ch->code ==
				    m->cand[i].code && ch->amount ==
				    m->cand[i].amount)
					break;
			}
			if (c < 0) {
				/* Reservoir: a uniform untried one. */
				if (rng_below(r, (uint32_t)++untried) == 0)
					k = i;
				continue;
			}
			ch->avail++;
			if (untried)
				continue;
			u = ch->reward / ch->visits + m->explore *
			    sqrt(log(ch->avail) / ch->visits);
			if (u > best) {
				best = u;
				pick = c;
			}
		}
		if (untried) {
			pick = new_node(m, at, &m->cand[k], p);
			if (pick < 0) {
				/* The tree is full: play the candidate. */
				if (ca_apply(m->d, p, m->cand[k].code,
				    m->cand[k].amount) == -1)
					return -1;
				break;
			}
		}
		ch = &m->node[pick];
		if (ca_apply(m->d, p, ch->code, ch->amount) == -1)
			return -1;
		m->path[depth++] = pick;
		at = pick;
		if (untried)
			break;
	}
	if (playout(m, m->d, r, rw) == -1)
		return -1;
back:
	for (i = 1; i < depth; i++) {
		ch = &m->node[m->path[i]];
		ch->visits++;
		ch->reward += rw[ch->player];
		ch->square += rw[ch->player] * rw[ch->player];
	}
	return 0;
}

/* The mean and the variance of the mean of node c's rewards. */
static void
moments(const struct node *c, double *mean, double *var)
{
	double n = c->visits > 1 ? c->visits : 1;

	*mean = c->reward / n;
	*var = (c->square / n - *mean * *mean) / n;
	if (*var < 0)
		*var = 0;
}

/*
 * 1 when the root's most visited child leads every other by m->settle
 * standard errors of the difference of their means (each tried three
 * times at least): more iterations would not change the move.
 */
static int
settled(const struct mcts *m)
{
	const struct node *ch, *b = NULL;
	double mb, vb, mc, vc;
	int32_t c;

	for (c = m->node[0].child; c >= 0; c = ch->next) {
		ch = &m->node[c];
		if (ch->visits < 3)
			return 0;
		if (b == NULL || ch->visits > b->visits)
			b = ch;
	}
	if (b == NULL)
		return 0;
	moments(b, &mb, &vb);
	for (c = m->node[0].child; c >= 0; c = ch->next) {
		ch = &m->node[c];
		if (ch == b)
			continue;
		moments(ch, &mc, &vc);
		if (!(mb - mc > m->settle * sqrt(vb + vc)))
			return 0;
	}
	return 1;
}

/*
 * The root child to play: the adviser's move unless best's mean beats its
 * by m->confidence standard errors (the search's noise does not leave a
 * sound move for a coin's toss); -1, with the adviser's legal index in
 * *index and amount, when its move is no root child the search tried.
 */
static int32_t
advised(struct mcts *m, struct bot *b, const json_t *req, int32_t best,
    int *index, int32_t *amount)
{
	struct node *ch;
	double mb, vb, ma, va;
	int32_t c;
	int n, i;

	/* The legal list's order is the engine's (the view's draw's). */
	*amount = 0;
	n = ca_legal(m->root, b->seat, m->legal, CA_MAX_LEGAL);
	if (n <= 0 || (i = m->advice(b, req, amount)) < 0 || i >= n)
		return best;
	if (!m->legal[i].ranged)
		*amount = 0;
	for (c = m->node[0].child; c >= 0; c = ch->next) {
		ch = &m->node[c];
		if (ch->code == m->legal[i].code && ch->amount == *amount)
			break;
	}
	if (c < 0 || m->node[c].visits == 0) {
		*index = i;
		return -1;
	}
	if (c == best)
		return best;
	moments(&m->node[best], &mb, &vb);
	moments(&m->node[c], &ma, &va);
	return mb - ma > m->confidence * sqrt(vb + va) ? best : c;
}

/* Chooses by search: the most visited root action. */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	struct mcts *m = b->arg;
	const json_t *legal, *tl;
	struct ca_view *v;
	struct node *ch;
	char *text, cause[256];
	double t0, budget;
	long it;
	int32_t c, best;
	int index = 0;

	legal = json_object_get(req, "legal");
	if (json_array_size(legal) <= 1)
		return bot_random_choice(b, legal, amount);
	if (m->base == NULL) {
		text = json_dumps(json_object_get(b->hello, "options"),
		    JSON_COMPACT);
		m->base = ca_new(m->game, b->players, text, b->seed, cause,
		    sizeof cause);
		free(text);
		if (m->base == NULL)
			errx(1, "%s: %s", m->game, cause);
		if ((m->d = ca_clone(m->base)) == NULL)
			err(1, "ca_clone");
	}
	text = json_dumps(json_object_get(req, "view"), JSON_COMPACT);
	v = text != NULL ? ca_view_parse(text, cause, sizeof cause) : NULL;
	free(text);
	if (v == NULL) {
		bot_debug(b, "no view: %s; a random move", cause);
		return bot_random_choice(b, legal, amount);
	}
	budget = (double)m->ms;
	if ((tl = json_object_get(req, "time_left_ms")) != NULL &&
	    json_is_integer(tl) && json_integer_value(tl) / 3 < budget)
		budget = (double)(json_integer_value(tl) / 3);
	m->nnode = 0;
	new_node(m, -1, &(struct cand){ 0, 0, -1 }, b->seat);
	ca_free(m->root);
	m->root = NULL;
	t0 = now_ms();
	for (it = 0; m->iterations > 0 ? it < m->iterations :
	    (it == 0 || now_ms() - t0 < budget); it++) {
		if (iterate(m, b->seat, v, &b->rng) == -1) {
			bot_debug(b, "the view cannot be drawn; a random "
			    "move");
			ca_view_free(v);
			return bot_random_choice(b, legal, amount);
		}
		/* A search stops when its move is settled. */
		if (m->settle > 0 && it >= 63 &&
		    (it + 1) % 32 == 0 && settled(m)) {
			it++;
			break;
		}
	}
	ca_view_free(v);
	best = -1;
	for (c = m->node[0].child; c >= 0; c = ch->next) {
		ch = &m->node[c];
		if (best < 0 || ch->visits > m->node[best].visits)
			best = c;
	}
	if (m->advice != NULL && m->root != NULL &&
	    (best = advised(m, b, req, best, &index, amount)) < 0) {
		bot_say(b, "%ld iterations: the adviser's move, untried", it);
		return index;
	}
	if (m->verbose)
		for (c = m->node[0].child; c >= 0; c = ch->next) {
			ch = &m->node[c];
			text = ca_action_json(m->d, b->seat, ch->code,
			    ch->amount);
			bot_debug(b, "%s %u visits, value %.3f%s", text,
			    ch->visits, ch->visits ? ch->reward / ch->visits :
			    0, c == best ? " *" : "");
			ca_text_free(text);
		}
	ch = &m->node[best];
	*amount = ch->amount;
	bot_say(b, "%ld iterations, %zu nodes, %.0f%% of %u visits, value "
	    "%.3f", it, m->nnode, 100.0 * ch->visits / (it ? it : 1),
	    ch->visits, ch->visits ? ch->reward / ch->visits : 0);
	return ch->index;
}

/* The number in [0, 100] that option opt was given as arg; exits with
 * status 2 and a message if arg is not one. */
static double
real_arg(const char *opt, const char *arg)
{
	char *end;
	double x;

	x = strtod(arg, &end);
	if (end == arg || *end != '\0' || !(x >= 0 && x <= 100))
		errx(2, "%s %s: not a number in [0, 100]", opt, arg);
	return x;
}

/* Runs a search bot of game on the SDK's loop. */
int
mcts_main(int argc, char **argv, const struct mcts_bot *bot)
{
	static struct mcts m;
	const char *errstr;
	char **rest;
	char settle_default[32];
	int i, n = 0, rc;

	m.game = bot->game;
	m.policy = bot->policy;
	m.cutoff = bot->cutoff;
	m.expand = bot->expand;
	m.advice = bot->advice;
	m.confidence = 2;
	m.own = bot->own_tree;
	m.cut_own = bot->cut_own;
	m.settle = bot->settle;
	m.ms = 100;
	m.explore = 0.7;
	m.amounts = 5;
	snprintf(settle_default, sizeof settle_default, "default %g",
	    bot->settle);
	if ((rest = calloc((size_t)argc + 1, sizeof *rest)) == NULL)
		err(1, "calloc");
	rest[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			/* The search's options, then the SDK's usage. */
			printf("%s: an information-set MCTS bot of %s\n"
			    "  --ms N          time per move in ms (default "
			    "100)\n"
			    "  --iterations N  iterations per move instead "
			    "(the same moves for a seed)\n"
			    "  --explore C     UCB1's exploration (0.7)\n"
			    "  --amounts K     amounts tried in a ranged entry: "
			    "lo, lo + 1, 3, 7... (5)\n"
			    "  --uniform       uniform playouts to the end "
			    "(not the game's policy)\n"
			    "  --confidence Z  leave the adviser's move (the "
			    "heuristic bot's) only for\n"
			    "                  one Z standard errors better (2)\n"
			    "  --settle Z      stop once the best move leads "
			    "every other by\n"
			    "                  Z standard errors (%s; 0: the "
			    "whole budget)\n"
			    "  --verbose       every root action's visits and "
			    "value to stderr\n", bot->name, bot->game,
			    settle_default);
			rest[n++] = argv[i];
			continue;
		}
		if (i + 1 < argc && strcmp(argv[i], "--ms") == 0) {
			m.ms = strtonum(argv[++i], 1, 86400000, &errstr);
			if (errstr != NULL)
				errx(2, "--ms %s: %s", argv[i], errstr);
		} else if (i + 1 < argc &&
		    strcmp(argv[i], "--iterations") == 0) {
			m.iterations = strtonum(argv[++i], 1, LONG_MAX,
			    &errstr);
			if (errstr != NULL)
				errx(2, "--iterations %s: %s", argv[i],
				    errstr);
		} else if (i + 1 < argc &&
		    strcmp(argv[i], "--amounts") == 0) {
			m.amounts = (int)strtonum(argv[++i], 1, 100, &errstr);
			if (errstr != NULL)
				errx(2, "--amounts %s: %s", argv[i], errstr);
		} else if (i + 1 < argc &&
		    strcmp(argv[i], "--confidence") == 0) {
			m.confidence = real_arg(argv[i], argv[i + 1]);
			i++;
		} else if (i + 1 < argc &&
		    strcmp(argv[i], "--settle") == 0) {
			m.settle = real_arg(argv[i], argv[i + 1]);
			i++;
		} else if (strcmp(argv[i], "--verbose") == 0) {
			m.verbose = 1;
		} else if (strcmp(argv[i], "--uniform") == 0) {
			m.policy = NULL;
			m.cutoff = NULL;
		} else if (i + 1 < argc &&
		    strcmp(argv[i], "--explore") == 0) {
			m.explore = real_arg(argv[i], argv[i + 1]);
			i++;
		} else
			rest[n++] = argv[i];
	}
	bot_set_wants(BOT_WANT_VIEW | BOT_WANT_LEGAL);
	rc = bot_main(n, rest, bot->name, choose, NULL, &m);
	ca_free(m.base);
	ca_free(m.d);
	ca_free(m.root);
	free(m.node);
	free(rest);
	return rc;
}
