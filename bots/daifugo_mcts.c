/*
 * The search bot of daifugo: information-set MCTS over the engines' library
 * (bots/lib/mcts.c) with uniform playouts; --ms per move (default 100) or
 * --iterations N, deterministic for a --seed.
 */
#include "lib/mcts.h"

int
main(int argc, char **argv)
{
	static const struct mcts_bot bot = {
		.name = "daifugo_mcts",
		.game = "daifugo"
	};

	return mcts_main(argc, argv, &bot);
}
