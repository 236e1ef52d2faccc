/*
 * The heuristic stocks bot: on every request it plans the rest of its
 * turn from its view alone and answers the plan's first step (the
 * planner, shared with bin/stocks_mcts, is bots/lib/stocks_heur.c).
 */
#include "lib/stocks_heur.h"

int
main(int argc, char **argv)
{
	return bot_main(argc, argv, "stocks_bot", stk_choose, NULL, NULL);
}
