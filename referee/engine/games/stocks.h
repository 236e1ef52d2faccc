/*
 * The private header of the stocks game (Sid Sackson's stock market card
 * game): the flat state shared by the rules engine (stocks.c) and its JSON
 * codec (stocks_json.c), the parsed --setup document, the action codes and
 * the event types.  Nothing here is meant for other games.
 *
 * Companies are the four suits in the engine's suit order (S H D C).  Cards
 * are the engine's card numbers: a card of the two decks appears twice, the
 * jokers are 52 and 53.  Ownership: the state holds no pointers.
 */
#ifndef CARDARENA_STOCKS_H
#define CARDARENA_STOCKS_H

#include <stdint.h>

#include "game.h"

#define ST_MAXP		6	/* players */
#define ST_HAND		8	/* a full hand */
#define ST_DECK		104	/* two decks without jokers */
#define ST_CARDS	106	/* with the two jokers */
#define ST_NCOMP	4	/* companies (suits) */
#define ST_MAXSHARES	12	/* most shares of one company a player holds */
#define ST_MAXBUYS	2	/* certificates bought per turn */
#define ST_MAXPRICES	2	/* cards placed in one price phase */
#define ST_MAXDISCARD	4	/* cards discarded instead of playing */
#define ST_LEVY		100	/* what each player pays a short bank */
#define ST_START_MONEY	200
#define ST_CHIPS	3510	/* 60 x $1 + 30 x $5 + 30 x $10 + 60 x $50 */

/* The state of a phase of the turn. */
enum st_phase {
	PH_UNUSED,	/* not begun this turn */
	PH_OPEN,	/* under way */
	PH_CLOSED	/* done: the other phase has begun since */
};

/*
 * Action codes: kind * 100 + card.  END is the whole code 1; a PRICE_ZERO
 * places a face card meaning $0.
 */
enum st_kind {
	K_END = 0,
	K_BUY = 1,
	K_SELL = 2,
	K_PRICE = 3,
	K_ZERO = 4,
	K_DISCARD = 5
};
#define ST_END		1
#define ST_CODE(kind, card)	((int64_t)(kind) * 100 + (card))
#define ST_KIND(code)	((int)((code) / 100))
#define ST_CARD(code)	((int)((code) % 100))

/* Events; the a[] meanings are in stocks_json.c's event writer. */
enum st_event {
	EV_SETUP_CARD,	/* a0 card turned at set-up, a1 company or -1 */
	EV_START,	/* a0 the start player */
	EV_DRAW,	/* a0 player, a1 card (told only to that player) */
	EV_DRAWN,	/* a0 player, a1 count, a2 1 = refill, 0 = deal */
	EV_TURN,	/* a0 player whose turn begins, a1 turn number */
	EV_BUY,		/* a0 player, a1 card, a2 shares, a3 cost */
	EV_SELL,	/* a0 player, a1 card, a2 shares, a3 proceeds, a4 debt repaid */
	EV_PRICE,	/* a0 player, a1 card, a2 company, a3 old, a4 new price */
	EV_BANKRUPT,	/* a0 company, a1 certificates discarded */
	EV_LOSE,	/* a0 player, a1 company, a2 shares discarded */
	EV_DISCARD,	/* a0 player, a1 card */
	EV_BANK_SHORT,	/* a0 the bank must pay, a1 the bank holds */
	EV_LEVY,	/* a0 player, a1 paid, a2 owed on top (new debt) */
	EV_RESHUFFLE,	/* a0 new stock size, a1 jokers added (0 or 2),
			   a2 from the stock, a3 from the discards, a4 from
			   the price stacks */
	EV_JOKER,	/* a0 the player who drew it */
	EV_END_TURN,	/* a0 player, a1 turns played so far */
	EV_GAME_OVER	/* a0 1 if max_turns ended it, 0 for a joker */
};

/* Option indices in the options table. */
enum st_opt {
	OPT_BANK,
	OPT_SELL_SAME,
	OPT_MAX_TURNS
};

struct stocks {
	/* The table. */
	int8_t		players;
	uint8_t		sell_same;	/* option sell_same_turn */
	uint8_t		over;
	uint8_t		capped;		/* max_turns ended it */
	uint8_t		jokers_in;	/* the jokers joined at a reshuffle */
	int8_t		joker_by;	/* who drew the joker; -1 */
	int8_t		start;		/* the start player */
	int8_t		turn;		/* the player on turn */
	int32_t		max_turns;
	int32_t		turns;		/* player turns completed */
	int32_t		total;		/* all money: bank + players */

	/* The turn under way. */
	uint8_t		trade, price;	/* enum st_phase */
	uint8_t		buys;		/* certificates bought */
	uint8_t		nbought;	/* of them still held */
	uint8_t		prices;		/* cards placed on price stacks */
	uint8_t		discards;	/* cards discarded instead */
	uint8_t		bought[ST_MAXBUYS];	/* the cards bought, held */

	/* Money. */
	int32_t		bank;
	int32_t		money[ST_MAXP];
	int32_t		debt[ST_MAXP];

	/* Companies. */
	int8_t		value[ST_NCOMP];	/* the share price */
	uint8_t		zero[ST_NCOMP];		/* top is a face card as $0 */
	uint8_t		npile[ST_NCOMP];
	uint8_t		pile[ST_NCOMP][ST_CARDS];	/* bottom first */

	/* Cards. */
	uint8_t		nhand[ST_MAXP];
	uint8_t		hand[ST_MAXP][ST_HAND];		/* sorted */
	uint8_t		cert[ST_MAXP][52];		/* certificates held */
	uint8_t		shares[ST_MAXP][ST_NCOMP];
	uint8_t		nstock;
	uint8_t		stock[ST_CARDS];		/* top last */
	uint8_t		ndiscard;
	uint8_t		discard[ST_CARDS];		/* oldest first */
	uint8_t		jokers_out;			/* drawn (0 or 1) */

	/* The --setup order of the first reshuffle's top cards. */
	uint8_t		nresh;
	uint8_t		resh[ST_CARDS];
};

struct stocks_setup {
	int		nturn;		/* 0: the first shuffle is random */
	uint8_t		turn[ST_DECK];
	int		ndeck;		/* the dealing deck's top cards */
	uint8_t		deck[ST_DECK];
	int		start;		/* -1: random */
	int		stock;		/* -1: the whole rest */
	int		nresh;
	uint8_t		resh[ST_CARDS];
};

/* stocks.c: rules facts the codec shares. */
extern const int8_t	stocks_up[ST_NCOMP], stocks_down[ST_NCOMP];
int	stocks_card_shares(int card);
int	stocks_is_face(int card);
int32_t	stocks_wealth(const struct stocks *, int player);

/* stocks_json.c: the codec: the writers and parsers. */
void	 stocks_view_write(const void *, int, struct jw *);
void	 stocks_action_write(const void *, int, struct action,
	    struct jw *);
void	 stocks_event_write(const void *, const struct event *, struct jw *);
int	 stocks_action_parse(const void *, int, const json_t *,
	    struct action *, char *, size_t);
int	 stocks_setup_parse(const json_t *, const struct opts *, void *,
	    char *, size_t);

/* stocks_det.c: the determinization (it re-deals with perturb()). */
extern const struct game	game_stocks;
int	 stocks_determinize(void *, const struct opts *, int, const json_t *,
	    struct rng *, char *, size_t);

#endif
