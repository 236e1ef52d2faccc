/*
 * Speculation's search values, for bin/speculation_mcts (bots/lib/mcts.h's
 * hooks) and tests/t_speculation_edge, which checks them against the
 * engine: the model of the players (the heuristic bot's valuation, read
 * from the state's public part) and each player's chance to take the pool
 * if nobody traded again, over draws of the unseen cards that are this
 * unit's state: spec_new_draws() draws them for a search's root (the
 * cutoff does it when the root changes), and spec_chances() and the
 * cutoff use the last ones drawn.  Not for two searches at once.
 */
#ifndef CARDARENA_SPECULATION_SEARCH_H
#define CARDARENA_SPECULATION_SEARCH_H

#include <stdint.h>

#include "cardarena.h"
#include "games/speculation.h"
#include "rng.h"

#define SPEC_DRAWS	256	/* the draws of the unseen cards an equity
				   takes */

/* What a player knows of the cards this deal: the unseen ones stronger
 * than the highest face-up card, strongest first. */
struct spec_seen {
	int	unseen;			/* cards not seen this deal */
	int	nabove;
	int	above[52];		/* their strengths */
};

/* Reads the unseen cards that beat the highest face-up card from st. */
void	spec_read_seen(const struct sp *st, struct spec_seen *s);

/* The worth of the highest face-up card with g face-down cards still to be
 * turned against it, for a pool. */
double	spec_worth_high(const struct spec_seen *s, int g, int32_t pool);

/* The face-down cards to be turned against who's cards (the widow's
 * too). */
int	spec_against(const struct sp *st, int who);

/* p's worth of one of its own face-down cards: as a card, or, for the
 * holder of the highest, what it would cost turned against that card. */
double	spec_worth_own(const struct sp *st, const struct spec_seen *s, int p);

/* What the model bidder p would pay at most for the lot on sale (the
 * face-up card when up, else k face-down cards); below 1 if nothing. */
int	spec_model_want(const struct sp *st, const struct spec_seen *s, int p,
	    int up, int k);

/* The model's move for p in g (an mcts_policy_fn, mcts.h). */
int	spec_policy(const struct ca_game *g, int p, const struct ca_legal *l,
	    int n, struct rng *r, int32_t *amount);

/* Draws the orders of the cards for the search whose root is root, from
 * root's bytes (so from the bot's seed in --iterations mode). */
void	spec_new_draws(const struct sp *root);

/*
 * Each player's chance to take st's pool if nobody trades again, over the
 * last draws (spec_new_draws), from the public part of st alone, into
 * win[]; the taker of each draw in who[] (-1: carried over) unless who is
 * NULL.
 */
void	spec_chances(const struct sp *st, double *win, int8_t *who);

/* A walk's end and its rewards (an mcts_cutoff_fn, mcts.h; the head of
 * speculation_search.c says where it stops and how it scores). */
int	spec_cutoff(const struct ca_game *root, const struct ca_game *g,
	    double *reward);

#endif
