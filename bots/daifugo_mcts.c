/*
 * The search bot of daifugo: information-set MCTS over the engines' library
 * (bots/lib/mcts.c) with uniform playouts; --ms per move (default 100) or
 * --iterations N, deterministic for a --seed.
 */
#include "lib/mcts.h"

int
main(int argc, char **argv)
{
	return mcts_main(argc, argv, "daifugo_mcts", "daifugo", NULL, NULL);
}
