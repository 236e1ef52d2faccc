/*
 * The stocks heuristic: the planner of bin/stocks_bot, which
 * bin/stocks_mcts also plays for every other player and takes as its
 * adviser.  It keeps no memory: a model of the table (read from a view by
 * stk_choose, or filled from a state by the search) is all it plans from.
 * It tries every plan of the rest of the turn (certificates to sell, up to
 * two cards to buy, up to two price cards and their meanings, in either
 * phase order), scores the position each leaves and plays the best plan's
 * first step; with nothing worth doing it discards a card that promises
 * nothing (stocks_heur.c says how a position is scored).
 */
#ifndef CARDARENA_STOCKS_HEUR_H
#define CARDARENA_STOCKS_HEUR_H

#include <stdint.h>

#include <jansson.h>

#include "bot.h"

#define STK_NCOMP	4	/* companies, the suits S H D C */
#define STK_MAXP	6	/* players */
#define STK_MAXHAND	8	/* cards in a hand */

/* The state of a phase of the turn (the engine's st_phase, in order). */
enum stk_phase { STK_UNUSED, STK_OPEN, STK_CLOSED };

/* What the heuristic knows of the table, from seat me's point of view. */
struct stk_model {
	int	n, me;
	int	price[STK_NCOMP], face_top[STK_NCOMP], bankrupt[STK_NCOMP];
	int	up[STK_NCOMP], down[STK_NCOMP];
	int	money;
	int	shares[STK_MAXP][STK_NCOMP];
	int	hand[STK_MAXHAND], nhand;
	int	sellable[STK_NCOMP];	/* shares of certificates sellable now */
	int	sellable_cards[52];
	int	trade, pricing;		/* enum stk_phase */
	int	buys, prices, discards;
	int	jokers_in;
};

/* A card placed on a price stack with its meaning. */
struct stk_placing {
	int	card, value;
};

/* A plan for the rest of the turn. */
struct stk_plan {
	int			price_first;
	int			nbuy;
	int			buy[2];
	int			nplace;
	struct stk_placing	place[2];
	int			sell[STK_NCOMP];	/* sell every sellable
							   certificate */
	double			score;
};

/* The company (suit index) of card c (0..51). */
int	stk_suit(int c);
/* 1 for a face card (J, Q, K). */
int	stk_is_face(int c);
/* The shares a certificate of card c is worth. */
int	stk_shares(int c);

/*
 * Plans m's turn: returns 1 with the best plan in *best when its first
 * step is the move; else 0 with *discard the hand's index of the card to
 * discard, or -1 when the move is the end of the turn.
 */
int	stk_decide(const struct stk_model *m, struct stk_plan *best,
	    int *discard);

/* The heuristic's answer to a request (a bot_choose_fn, bot.h). */
int	stk_choose(struct bot *, const json_t *request, int32_t *amount);

#endif
