/*
 * The table of games, in the style of tmux's cmd_entry table: one const
 * struct game per file under games/, listed here, looked up by name.
 */
#include <string.h>

#include "game.h"
#include "near.h"

/* extern const struct game game_X; one line per game */
extern const struct game game_horserace;
extern const struct game game_stocks;
extern const struct game game_speculation;
extern const struct game game_nyse;
extern const struct game game_daifugo;

const struct game *const games[] = {
	&game_horserace,
	&game_stocks,
	&game_speculation,
	&game_nyse,
	&game_daifugo,
	NULL
};

/* Returns the game called name, or NULL. */
const struct game *
game_find(const char *name)
{
	int i;

	for (i = 0; games[i] != NULL; i++)
		if (strcmp(games[i]->name, name) == 0)
			return games[i];
	return NULL;
}

/* "did you mean GAME? " when one game's name is close to name, else "". */
const char *
game_near(const char *name, char *buf, size_t len)
{
	struct near nr;
	int i;

	near_init(&nr, name);
	for (i = 0; games[i] != NULL; i++)
		near_offer(&nr, games[i]->name);
	return near_say(&nr, buf, len);
}
