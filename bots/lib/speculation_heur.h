/*
 * The speculation heuristic: the choice of bin/speculation_bot, which
 * bin/speculation_mcts takes as its adviser and whose bid limit its model
 * of the players (speculation_search.h) shares.  It keeps no memory: it
 * values the cards from the request's view alone (speculation_heur.c).
 */
#ifndef CARDARENA_SPECULATION_HEUR_H
#define CARDARENA_SPECULATION_HEUR_H

#include <stdint.h>

#include <jansson.h>

#include "bot.h"

#define SPEC_BID_SHARE	0.8	/* the share of a card's value it bids up to */

/* The heuristic's answer to a request (a bot_choose_fn, bot.h). */
int	spec_heur_choose(struct bot *, const json_t *request, int32_t *amount);

#endif
