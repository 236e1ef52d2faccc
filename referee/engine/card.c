/*
 * The cards shared by the card games: their notation (7H, TS, JK) read
 * back from text and JSON, and the shuffle with the game's generator.
 */
#include <string.h>

#include "card.h"

static const char ranks[] = CARD_RANKS;
static const char suits[] = CARD_SUITS;

/* Parses a card name; "JK" gives JOKER; -1 if it is not a card. */
int
card_parse(const char *s)
{
	const char *r, *su;

	if (s == NULL || strlen(s) != 2)
		return -1;
	if (strcmp(s, "JK") == 0)
		return JOKER;
	if ((r = strchr(ranks, s[0])) == NULL || s[0] == '\0' ||
	    (su = strchr(suits, s[1])) == NULL || s[1] == '\0')
		return -1;
	return CARD((int)(su - suits), (int)(r - ranks));
}

/* Parses a JSON card name; -1 if it is not one. */
int
card_from_json(const json_t *j)
{
	return json_is_string(j) ? card_parse(json_string_value(j)) : -1;
}

/* Fisher-Yates shuffle of n cards with the game's generator. */
void
deck_shuffle(int *cards, int n, struct rng *r)
{
	int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)rng_below(r, (uint32_t)i + 1);
		t = cards[i];
		cards[i] = cards[j];
		cards[j] = t;
	}
}
