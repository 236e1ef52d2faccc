/*
 * The search bot of nyse: information-set MCTS over the engines' library
 * (bots/lib/mcts.c); --ms per move (default 100) or --iterations N,
 * deterministic for a --seed.  Its playouts are greedy most of the time,
 * as the players it meets are: a take of the colour that gains most (the
 * marker's value after the move plus what the move adds to the chips of
 * it the player holds; a crash loses them), else a uniform move.
 */
#include "lib/mcts.h"
#include "games/nyse.h"

#define GREEDY	8	/* in 10 playout moves, when a take is legal */

static int	policy(const struct ca_game *, int, const struct ca_legal *,
		    int, struct rng *, int32_t *);

/* The value of colour c's marker at position pos. */
static int
value_at(const struct nyse *st, int pos)
{
	return pos >= NY_CRASHED ? 0 : st->board[pos / 2];
}

/* A playout move: mostly the take that gains most, else uniform. */
static int
policy(const struct ca_game *g, int p, const struct ca_legal *l, int n,
    struct rng *r, int32_t *amount)
{
	const struct nyse *st = ca_state(g);
	int i, c, v0, v1, s, best = -1, bs = 0;

	*amount = 0;
	if (rng_below(r, 10) < GREEDY)
		for (i = 0; i < n; i++) {
			if (NY_KIND(l[i].code) != NY_A_TAKE)
				continue;
			c = NY_F(l[i].code, 0);
			v0 = value_at(st, st->pos[c]);
			v1 = value_at(st, st->pos[c] + 1);
			s = 4 * (v1 + nyse_colour_count(st, p, c) * (v1 - v0)) +
			    (int)rng_below(r, 4);
			if (best < 0 || s > bs) {
				best = i;
				bs = s;
			}
		}
	if (best >= 0)
		return best;
	i = (int)rng_below(r, (uint32_t)n);
	if (l[i].ranged)
		*amount = l[i].lo;
	return i;
}

int
main(int argc, char **argv)
{
	static const struct mcts_bot bot = {
		.name = "nyse_mcts",
		.game = "nyse",
		.policy = policy
	};

	return mcts_main(argc, argv, &bot);
}
