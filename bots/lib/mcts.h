/*
 * Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
 * Powley and Whitehouse 2012) over the engines' library (cardarena.h), for
 * the search bots bots/<game>_mcts.c.  Every iteration draws a full game
 * consistent with the bot's view (ca_determinize), walks one tree shared
 * by all the draws (a child is an action: player, code, amount; UCB1 over
 * the children legal in this draw, counted by availability), adds one
 * node, plays out to the end (or to a game's cutoff, scored by its own
 * evaluation) and backs up each player's reward (1 for the first place ..
 * 0 for the last).  A ranged legal entry becomes a few amounts spread
 * over its range, or the game's own (expand).  The playout is uniform, or
 * a game's own policy.  A game may keep the tree to the bot's own moves
 * (own_tree: the others' moves, in the tree's part too, are the policy's,
 * a model of the players met) and name an adviser, a heuristic bot whose
 * move is played unless the search finds one better with confidence.
 * With --iterations the search is deterministic for a seed; with --ms
 * (default 100) it stops on the clock; either stops sooner once its move
 * is settled (a game's settle, --settle).
 */
#ifndef CARDARENA_MCTS_H
#define CARDARENA_MCTS_H

#include <stdint.h>

#include "bot.h"
#include "cardarena.h"
#include "rng.h"

/*
 * A playout policy: the index of the entry player plays among the n of
 * legal in g, and *amount for a ranged one; NULL plays uniformly.
 */
typedef int	(*mcts_policy_fn)(const struct ca_game *g, int player,
		    const struct ca_legal *legal, int n, struct rng *r,
		    int32_t *amount);

/*
 * A playout's early end: called before each playout move and at the
 * game's end with the draw at the root of the search (root) and the game
 * now (g); returns 1 after writing every player's reward (1 best .. 0
 * worst) when the playout may stop here, 0 to play on (at the end: the
 * places give the rewards).  NULL plays every game to its end.
 */
typedef int	(*mcts_cutoff_fn)(const struct ca_game *root,
		    const struct ca_game *g, double *reward);

/*
 * The tree's candidates from one legal entry of player in g: returns 0 to
 * leave the entry out of the tree (unless every entry is left out), or for
 * a ranged entry writes up to max amounts to try and returns their count;
 * -1 for the default (a fixed entry kept, a ranged one as --amounts says).
 */
typedef int	(*mcts_expand_fn)(const struct ca_game *g, int player,
		    const struct ca_legal *entry, int32_t *amounts, int max);

/* A search bot: its names and the game's hooks (each may be NULL). */
struct mcts_bot {
	const char	*name;		/* the bot's, for the hello */
	const char	*game;		/* the game's id */
	mcts_policy_fn	 policy;
	mcts_cutoff_fn	 cutoff;
	mcts_expand_fn	 expand;
	bot_choose_fn	 advice;	/* an adviser (a bot's choose): its
					   move is played unless the search
					   finds a better one with confidence
					   (--confidence) */
	int		 own_tree;	/* 1: the tree holds the bot's own
					   moves only, the others' are the
					   policy's (a model of them) */
	int		 cut_own;	/* 1: the cutoff is asked before the
					   bot's own moves below the root
					   too, not only before the others' */
	double		 settle;	/* stop once the best root move
					   leads every other by this
					   many standard errors (--settle; 0:
					   use the whole budget) */
};

/* Rewards from scores (the more the better): 1 for first .. 0 for last,
 * ties sharing the mean of their places. */
void	mcts_rank(int n, const double *scores, double *reward);

/*
 * Runs the search bot bot on the SDK's loop: understands --ms N,
 * --iterations N, --explore C, --amounts K, --confidence Z, --settle Z,
 * --uniform
 * (playouts without the policy and the cutoff) and --verbose besides the
 * SDK's options;
 * returns the exit status for main.
 */
int	mcts_main(int argc, char **argv, const struct mcts_bot *bot);

#endif
