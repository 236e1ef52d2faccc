/*
 * The private half of the horserace game: the flat state, the set-up, the
 * coding of actions, bet targets and events, shared by the rules
 * (horserace.c) and the JSON codec (horserace_json.c).  Nothing outside
 * these two files includes it.
 */
#ifndef CARDARENA_HORSERACE_H
#define CARDARENA_HORSERACE_H

#include <stdint.h>

#include "auction.h"
#include "game.h"

#define HR_MAXP		8	/* players */
#define HR_DECK		49	/* the race deck: 48 non-aces and a joker */
#define HR_NODDS	7	/* odds cards */
#define HR_GOAL		8	/* cards beside the ace that finish a horse */
#define HR_SDECKS	16	/* decks a --setup may fix */

/*
 * Bet targets, one index per (kind, suits): 0-3 win (the suit), 4-15 exacta
 * (ordered pairs), 16-39 trifecta (ordered triples), 40-55 daily double
 * (winner of the pair's first race, winner of its second).
 */
#define HR_T_WIN	0
#define HR_T_EXACTA	4
#define HR_T_TRIFECTA	16
#define HR_T_DD		40
#define HR_NT		56

enum hr_kind {
	HR_WIN,
	HR_EXACTA,
	HR_TRIFECTA,
	HR_DD
};

/* The bits of the bets option (its choices, in this order). */
#define HR_BETS_WIN	(1 << HR_WIN)
#define HR_BETS_EXACTA	(1 << HR_EXACTA)
#define HR_BETS_TRI	(1 << HR_TRIFECTA)
#define HR_BETS_DD	(1 << HR_DD)

/* The options, as indices into the options table. */
enum hr_opt {
	HO_RACES,
	HO_STACK,
	HO_BET_LIMIT,
	HO_ODDS_TABLE,
	HO_DEALER_SETS_ODDS,
	HO_JOKER,
	HO_BETS,
	HO_DD_MULTIPLIER,
	HO_CALCUTTA
};

/* Action codes; bets, odds and bids carry an amount. */
#define HA_DONE		1		/* no more bets this race */
#define HA_BET		16		/* + target: bet amount on it */
#define HA_ODDS		128		/* + suit: the dealer sets its odds */
#define HA_BID		160		/* Calcutta: bid amount */
#define HA_PASS		161		/* Calcutta: drop out of this auction */

enum hr_phase {
	HP_ODDS,	/* the dealer sets the odds (dealer_sets_odds) */
	HP_BET,		/* sealed bets, every bettor at once */
	HP_AUCTION,	/* Calcutta: an ace is auctioned */
	HP_OVER,
	HP_DEAL		/* inside apply() only: the next race is dealt */
};

enum hr_ev {
	HE_RACE,	/* x race (0-based), a0 dealer */
	HE_LAY,		/* x 7 odds cards (6 bits each), a0 1 if void */
	HE_ODDS,	/* a0..a3 the odds of S H D C */
	HE_ODDS_SET,	/* a0 suit, a1 odds: the dealer's choice */
	HE_BETTING,	/* x mask of the players who bet now */
	HE_BET_SEALED,	/* told the bettor only: a0 player, a1 target,
			   a2 amount, a3 their stake on it now */
	HE_DONE,	/* a0 player has finished betting, a1 1 if automatic */
	HE_BET,		/* every bet once all are in: a0 player, a1 target,
			   a2 stake */
	HE_CARD,	/* a0 card, a1 its suit's progress or -1 if set aside */
	HE_JOKER,	/* the joker turned: a0 mask of the suits it moved */
	HE_FINISH,	/* a0 suit, a1 place (1-based) */
	HE_RACE_END,	/* a0 number of places, a1..a3 the first three suits */
	HE_SETTLE,	/* a0 player, a1 target, a2 stake, x paid by the
			   dealer (0: the stake went to the dealer) */
	HE_AUCTION,	/* a0 suit put up for auction */
	HE_BID,		/* a0 player, a1 amount */
	HE_PASS,	/* a0 player */
	HE_SOLD,	/* a0 suit, a1 buyer or -1, a2 price */
	HE_SHARE,	/* a0 owner or -1 (stays in the pot), a1 place, a2 suit,
			   x amount */
	HE_SPLIT,	/* a0 player, x their share of the pot left at the end */
	HE_GAME_END
};

/* The parsed --setup document. */
struct hr_setup {
	int	dealer;			/* -1: drawn at random */
	int	ndecks;
	int	len[HR_SDECKS];		/* cards fixed on top of each shuffle */
	int8_t	deck[HR_SDECKS][HR_DECK];
};

/* The whole game, flat. */
struct hr_state {
	/* The options. */
	int8_t		players;
	int8_t		joker, calcutta, dso;	/* dso: dealer_sets_odds */
	int8_t		bets;			/* HR_BETS_* mask offered */
	int8_t		dd_mult;
	int8_t		need;			/* places a race must decide */
	int16_t		races;
	int32_t		bet_limit;
	int32_t		odds_table[5];

	/* The progress of the game. */
	int8_t		phase;
	int8_t		first_dealer, dealer;
	int16_t		race;			/* 0-based, the one being set */
	int64_t		total;			/* all the chips there are */
	int64_t		chips[HR_MAXP];		/* in hand; may be negative */

	/* The race deck: deck[0..7) are the odds cards, the stock follows. */
	int8_t		ndeck, top;
	int8_t		deck[HR_DECK];
	int8_t		count[4];		/* odds cards per suit */
	int8_t		relays;			/* void lays before this one */
	int8_t		odds_suit;		/* HP_ODDS: the suit to set */
	int32_t		odds[4];

	/* Sealed bets of this race (pending until all are in). */
	uint32_t	waiting;		/* bettors still deciding */
	uint32_t	bettors;		/* those asked to bet */
	int8_t		ndone;			/* bettors done, in order: */
	int8_t		done_order[HR_MAXP];	/* seat | 0x10 if automatic */
	int32_t		stake[HR_MAXP][HR_NT];
	int32_t		ptotal[HR_MAXP];	/* each bettor's stake this race */

	/* The daily double on the table: stakes, race 1's winner and odds. */
	int32_t		dd[HR_MAXP][16];
	int8_t		dd_w1;			/* -1: no pair half-played */
	int32_t		dd_o1;

	/* Calcutta. */
	int64_t		pot;
	int8_t		asuit;			/* the ace being auctioned */
	int8_t		owner[4];		/* -1: nobody */
	int32_t		price[4];
	struct auction	auc;

	/* The last race run, for the views. */
	int8_t		last_race_valid;
	int8_t		last_dealer;
	int8_t		last_nplaces;
	int8_t		last_order[4];
	int8_t		last_progress[4];
	int8_t		last_nturned;
	int8_t		last_odds_cards[HR_NODDS];
	int8_t		last_turned[HR_DECK];
	int32_t		last_odds[4];
	int8_t		last_owner[4];		/* Calcutta */
	int32_t		last_price[4];
	int32_t		last_stake[HR_MAXP][HR_NT];	/* its bets */

	/* Decks fixed by --setup, used by the shuffles in turn. */
	int8_t		nsdecks, next_sdeck;
	int8_t		sdeck_len[HR_SDECKS];
	int8_t		sdeck[HR_SDECKS][HR_DECK];
};

/* horserace.c: helpers the codec shares. */
int	hr_target_kind(int t);
int	hr_target_suits(int t, int suits[3]);
int	hr_target_index(int kind, const int *suits);
int	hr_kind_offered(const struct hr_state *, int kind);
int32_t	hr_left(const struct hr_state *, int player);

/* horserace_json.c: the codec: the writers and parsers. */
void	 hr_view_write(const void *, int, struct jw *);
void	 hr_action_write(const void *, int, struct action, struct jw *);
void	 hr_event_write(const void *, const struct event *, struct jw *);
int	 hr_action_parse(const void *, int, const json_t *, struct action *,
	    char *, size_t);
int	 hr_setup_parse(const json_t *, const struct opts *, void *, char *,
	    size_t);

/* horserace.c: the fields of a state the options decide. */
void	 hr_set_options(struct hr_state *, const struct opts *);

/* horserace_det.c: the determinization. */
int	 hr_determinize(void *, const struct opts *, int,
	    const json_t *, struct rng *, char *, size_t);

#endif
