/*
 * The private header of NYSE (Ben Stanley's ten-minute stock game): the
 * flat state shared by the rules engine (nyse.c) and its JSON codec
 * (nyse_json.c), the parsed --setup document, the action codes and the
 * event types.  Nothing here is meant for other games.
 *
 * Chips are not individuals: chips of one colour and one mark are alike, so
 * holdings are counts by colour and mark, and a pile is the list of its
 * chips' marks (its colour is the pile's).  Ownership: no pointers.
 */
#ifndef CARDARENA_NYSE_H
#define CARDARENA_NYSE_H

#include <stdint.h>

#include "game.h"

#define NY_MAXP		10	/* players */
#define NY_COLOURS	4
#define NY_MARKS	4
#define NY_PER_COLOUR	11	/* chips of a colour */
#define NY_CHIPS	44
#define NY_PILE		10	/* a pile once its marker is drawn */
#define NY_GREYS	6	/* grey chips of the valuation board */
#define NY_POSITIONS	12	/* A..L */
#define NY_CRASHED	12	/* the position of a marker moved past L */
#define NY_SUPPLY	15	/* the target of a solitaire swap: a pile */
#define NY_SPECIALS	24	/* chips with a special mark */

/* Colours in the brief's order; marks. */
enum ny_colour { NY_BLUE, NY_BLACK, NY_RED, NY_GREEN };
enum ny_mark { NY_PLAIN, NY_SPECULATE, NY_INVEST, NY_SWAP };

/* Whose decision it is. */
enum ny_phase {
	NY_TURN,	/* the active player chooses the turn's action */
	NY_INVESTING,	/* the active player takes the chips of an invest */
	NY_ANSWER,	/* the target of a swap chooses the chip it gives */
	NY_SWAPPING,	/* after a "none", the active player asks again */
	NY_OVER
};

/*
 * Action codes: the kind in the low 4 bits, then up to five 4-bit fields,
 * NY_CODE(kind, a, b, c, d, e).  Unused fields are 0.
 *   TAKE     a = pile colour            DISCARD  a = pile colour
 *   SPECULATE a = chip colour, b = marker colour
 *   INVEST   a = chip colour
 *   SWAP     a = swap chip colour, b = colour given, c = mark given,
 *            d = target seat (NY_SUPPLY in solitaire), e = colour asked
 *            (in solitaire: the pile taken from)
 *            f (NY_AGE: bits 24-27): in solitaire, which of two
 *            specials (gc, gm) is given, 0 = the older
 *   GIVE     a = colour asked, b = mark given (the target's answer)
 *   NONE     the target holds no chip of the colour asked
 */
enum ny_kind {
	NY_A_TAKE = 1,
	NY_A_DISCARD,
	NY_A_SPECULATE,
	NY_A_INVEST,
	NY_A_SWAP,
	NY_A_GIVE,
	NY_A_NONE
};
#define NY_CODE(k, a, b, c, d, e)					\
	((int64_t)(k) | (int64_t)(a) << 4 | (int64_t)(b) << 8 |		\
	(int64_t)(c) << 12 | (int64_t)(d) << 16 | (int64_t)(e) << 20)
#define NY_AGE(code)		((int)(((code) >> 24) & 15))
#define NY_KIND(code)		((int)((code) & 15))
#define NY_F(code, i)		((int)(((code) >> (4 * ((i) + 1))) & 15))

/*
 * Event types; the fields are a[0..4] and x, mark -1 where the audience of
 * that copy may not see it:
 *   START    a0 start player; x the board, 3 bits a grey chip
 *   TURN     a0 player, a1 turn number (1 = the first)
 *   TAKE     a0 player, a1 colour, a2 mark, a3 marker from, a4 marker to
 *            (NY_CRASHED past L); x chips left in that pile
 *   DISCARD  a0 player, a1 colour; x chips left in that pile
 *   SPECULATE a0 player, a1 chip colour, a2 marker colour, a3 from, a4 to
 *   INVEST   a0 player, a1 chip colour
 *   ASK      a0 player, a1 target, a2 colour asked, a3 swap chip colour,
 *            a4 colour offered (-1 if unseen)
 *   REFUSE   a0 target, a1 colour asked, a2 player
 *   SWAP     a0 player, a1 target, a2 swap chip colour, a3 colour given
 *            (-1 if unseen), a4 colour received; x = (mark given + 1) |
 *            (mark received + 1) << 4, 0 where unseen
 *   PILESWAP a0 player, a1 swap chip colour, a2 colour given, a3 mark
 *            given, a4 pile taken from; x the mark received
 *   VOID     a0 player, a1 swap chip colour: every request was answered
 *            none; the chip leaves the game, nothing exchanged
 *   END      a0 the player who would have had the next turn; x 0
 */
enum ny_event {
	NY_EV_START,
	NY_EV_TURN,
	NY_EV_TAKE,
	NY_EV_DISCARD,
	NY_EV_SPECULATE,
	NY_EV_INVEST,
	NY_EV_ASK,
	NY_EV_REFUSE,
	NY_EV_SWAP,
	NY_EV_PILESWAP,
	NY_EV_VOID,
	NY_EV_END
};

/* Option indices in the options table. */
enum ny_option { NY_OPT_BOARD, NY_OPT_OPEN };

struct nyse {
	int8_t		n;		/* players */
	int8_t		open;		/* open_holdings */
	int8_t		turn;		/* the active player */
	int8_t		phase;		/* enum ny_phase */
	int8_t		left;		/* NY_INVESTING: takes still to make */
	int8_t		start;		/* the start player */
	int8_t		board[NY_GREYS];	/* grey values, left to right */
	int8_t		pos[NY_COLOURS];	/* 0 = A .. 11 = L, NY_CRASHED */
	int8_t		marker[NY_COLOURS];	/* the markers' marks (hidden) */
	int8_t		plen[NY_COLOURS];
	int8_t		pile[NY_COLOURS][NY_PILE];	/* marks; top last */
	int8_t		known[NY_COLOURS];	/* solitaire: top chips seen */
	uint8_t		held[NY_MAXP][NY_COLOURS][NY_MARKS];
	uint8_t		used[NY_COLOURS][NY_MARKS];	/* specials used up */
	uint8_t		gone[NY_COLOURS][NY_MARKS];	/* discarded, face down */
	uint8_t		refused[NY_MAXP];	/* colours refused this turn */
	/* The swap request the target answers (NY_ANSWER); sw_chip is the
	 * committed swap chip in NY_ANSWER and NY_SWAPPING. */
	int8_t		sw_chip, sw_gc, sw_gm, sw_target, sw_ac;
	/* Solitaire: the specials held, oldest first, colour * 4 + mark. */
	int8_t		sqn;
	uint8_t		sq[NY_SPECIALS];
	int16_t		turns;		/* turns begun */
	/* Public records for a view that needs no memory (open_holdings
	 * off): chips each player took and specials used, by colour; every
	 * swap made (a swap uses one of the 8 swap chips); every "none"
	 * answer, by turn (only a swap turn has them, and each swap turn
	 * uses up a swap chip: at most 8 such turns). */
	uint8_t		taken[NY_MAXP][NY_COLOURS];
	uint8_t		spent[NY_MAXP][NY_COLOURS];
	int8_t		nswaps;
	int8_t		swaps[8][7];	/* player, target, chip, given, asked,
					   mark given, mark received */
	int8_t		nnone;
	int8_t		none_by[8];	/* the player who asked */
	int16_t		none_turn[8];
	uint8_t		none[8][NY_MAXP];	/* colours answered none */
};

/* The parsed --setup document; -1 where it leaves a thing to chance. */
struct nyse_setup {
	int8_t		ntop[NY_COLOURS];	/* chips given from the top */
	int8_t		top[NY_COLOURS][NY_PILE];
	int8_t		marker[NY_COLOURS];
	int8_t		start;
	int8_t		has_board;
	int8_t		board[NY_GREYS];
};

/* The names, in the order of their numbers. */
#define NY_COLOUR_NAMES(X)	X("blue") X("black") X("red") X("green")
#define NY_MARK_NAMES(X)	X("plain") X("speculate") X("invest") X("swap")
extern const char *const nyse_colours[];	/* "blue", "black", ... */
extern const char *const nyse_marks[];		/* "plain", "speculate", ... */
/* Their lengths, for the codec's writer (no strlen per key). */
extern const uint8_t nyse_colour_len[];
extern const uint8_t nyse_mark_len[];

/* nyse.c: rule helpers the codec uses. */
int	nyse_value(const struct nyse *, int colour);
int	nyse_chips(const struct nyse *, int player);
int	nyse_colour_count(const struct nyse *, int player, int colour);
/*
 * With open_holdings off, the colours each player holds as the records
 * tell them: what it took, less the specials it used, plus what its swaps
 * brought and less what they cost.  The colour given in each swap seat
 * was not party to is drawn at random until every count is whole, each
 * player's total is chips[p], none holds fewer than lock[p][c] nor a
 * colour refused this turn, seat's counts are its own, and a swap request
 * under way that seat did not make has a chip to offer; on success the
 * draws are written into the swap records and hold, and 0 is returned;
 * -1 (st untouched) if no draw fits in tries.  (The order of the swaps is
 * not checked: a draw that needed a chip before it was taken may pass.)
 */
/*
 * Draws the chip offered in the swap request under way (NY_ANSWER) as one
 * who did not make it sees it: the colour (when gc < 0, any but the one
 * asked) and the mark (when gm < 0) of one of the player's chips at
 * random, the swap chip itself aside; sets sw_gc and sw_gm.
 */
void	nyse_offer(struct nyse *, int gc, int gm, struct rng *);
int	nyse_records_colours(struct nyse *, int seat, const int *chips,
	    int lock[][NY_COLOURS], int hold[][NY_COLOURS], int tries,
	    struct rng *);
int	nyse_supply(const struct nyse *);
int	nyse_next(const struct nyse *);
int	nyse_forced(const struct nyse *);
void	nyse_scores(const struct nyse *, double *scores, int *places);
int	nyse_board_ok(const long *);

/* nyse_json.c: the codec: the writers and parsers. */
void	 nyse_view_write(const void *, int, struct jw *);
void	 nyse_action_write(const void *, int, struct action, struct jw *);
void	 nyse_event_write(const void *, const struct event *, struct jw *);
int	 nyse_action_parse(const void *, int, const json_t *,
	    struct action *, char *, size_t);
int	 nyse_setup_parse(const json_t *, const struct opts *, void *,
	    char *, size_t);

/* nyse_det.c: the determinization. */
int	 nyse_determinize(void *, const struct opts *, int, const json_t *,
	    struct rng *, char *, size_t);

#endif
