/*
 * The random bot: plays any game by choosing uniformly among the legal
 * entries of each request (and a uniform amount in a range), seeded by
 * --seed N.  The smallest useful bot, and the yardstick of the others.
 */
#include "lib/bot.h"

static int	choose(struct bot *, const json_t *, int32_t *);

/* Picks a uniformly random legal entry. */
static int
choose(struct bot *b, const json_t *req, int32_t *amount)
{
	return bot_random_choice(b, json_object_get(req, "legal"), amount);
}

int
main(int argc, char **argv)
{
	return bot_main(argc, argv, "random", choose, NULL, NULL);
}
