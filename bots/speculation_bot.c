/*
 * The heuristic speculation bot: it bids below a card's value, sells above
 * it, else turns up a card or passes, valuing the cards from its view
 * alone (bots/lib/speculation_heur.c, bin/speculation_mcts's adviser).
 */
#include "lib/speculation_heur.h"

int
main(int argc, char **argv)
{
	return bot_main(argc, argv, "speculation_bot", spec_heur_choose, NULL,
	    NULL);
}
