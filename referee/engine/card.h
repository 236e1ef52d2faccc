/*
 * The cards shared by the card games: 0..51 = suit * 13 + rank (rank 0 = A
 * .. 12 = K), jokers 52 and 53, named 7H, TS, AD, JK.
 */
#ifndef CARDARENA_CARD_H
#define CARDARENA_CARD_H

#include <jansson.h>

#include "rng.h"

enum suit { SPADES, HEARTS, DIAMONDS, CLUBS };
#define CARD(suit, rank)	((suit) * 13 + (rank))	/* rank 0 = A .. 12 = K */
#define CARD_SUIT(c)		((c) / 13)
#define CARD_RANK(c)		((c) % 13)
#define JOKER			52	/* 52 and 53 are the jokers */
#define IS_JOKER(c)		((c) >= 52)
#define CARD_RANKS		"A23456789TJQK"	/* the names' letters */
#define CARD_SUITS		"SHDC"

/* Writes the two-letter name of a card ("7H", "TS", "JK"). */
static inline void
card_name(int card, char buf[3])
{
	if (IS_JOKER(card)) {
		buf[0] = 'J';
		buf[1] = 'K';
	} else {
		buf[0] = CARD_RANKS[CARD_RANK(card)];
		buf[1] = CARD_SUITS[CARD_SUIT(card)];
	}
	buf[2] = '\0';
}

/* Parses a card name; "JK" gives JOKER; -1 if it is not a card. */
int	 card_parse(const char *);
/* Parses a JSON card name; -1 if it is not one. */
int	 card_from_json(const json_t *);
/* Fisher-Yates shuffle of n cards with the game's generator. */
void	 deck_shuffle(int *cards, int n, struct rng *);

#endif
