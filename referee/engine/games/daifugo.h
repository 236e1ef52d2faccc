/*
 * The private half of the daifugo game (SdC Daifugo): the flat state, the
 * set-up, the coding of cards, combinations, actions and events, shared by
 * the rules (daifugo.c) and the JSON codec (daifugo_json.c), and read by
 * the unit test tests/t_daifugo.c.  Nothing else includes it.
 *
 * Cards inside the engine are bits of a 52-bit mask ordered by strength:
 * bit suit * 13 + s, where s is the strength index in the normal order
 * (0 = the 3 .. 10 = K, 11 = A, 12 = the 2), so one suit's 13 bits are a
 * run in sequence order.  Jokers are identical and counted, not masked.
 */
#ifndef CARDARENA_DAIFUGO_H
#define CARDARENA_DAIFUGO_H

#include <stdint.h>

#include "game.h"

#define DF_MAXP		7	/* players */
#define DF_NNAT		52	/* natural cards */
#define DF_MAXDECK	54	/* with two jokers */
#define DF_MAXPLAY	5	/* cards in one play */
#define DF_FIXED	8	/* deals whose deck a --setup may fix */
#define DF_MAXDEALS	100
#define DF_NATMASK	((1ULL << DF_NNAT) - 1)

/* Strength indices of the ranks with effects, and the bit of 3D. */
#define DF_S8		5
#define DF_SJ		8
#define DF_BIT3D	(DIAMONDS * 13 + 0)

/* Engine bit of a shared card number (not a joker), and back. */
#define DF_BIT(card)	(CARD_SUIT(card) * 13 + (CARD_RANK(card) + 11) % 13)
#define DF_CARD(bit)	CARD((bit) / 13, ((bit) % 13 + 2) % 13)

/* The options, as indices into the options table. */
enum df_opt {
	DO_JOKERS,
	DO_DEALS,
	DO_PASS_LIMIT,
	DO_EIGHT_CUT,
	DO_ELEVEN_BACK
};

enum df_phase {
	DP_EXCHANGE,
	DP_PLAY,
	DP_OVER
};

/* Kinds of combination (and of the table). */
enum df_kind {
	DK_NONE,
	DK_SINGLE,	/* one natural card */
	DK_SET,		/* 2-5 cards of one rank, jokers filling in */
	DK_SEQ,		/* 3-5 consecutive cards of one suit */
	DK_JOKER,	/* a joker alone: the strongest single */
	DK_JPAIR	/* the two jokers: the strongest pair */
};

/* Classes, from the previous deal's places. */
enum df_class {
	DC_COMMONER,
	DC_GRAND,	/* 1st: gives 2 of free choice to the last */
	DC_RICH,	/* 2nd: gives 1 of free choice to the second-last */
	DC_POOR,	/* second-last: gives their strongest 1 */
	DC_VERY_POOR	/* last: gives their strongest 2 */
};

/*
 * Action codes.  A play: DA_PLAY | naturals mask | jokers << 52 | low << 54,
 * low being a sequence's weakest strength index in the normal order (0 for
 * other plays).  A gift in the exchange: DA_GIVE | mask | jokers << 52.
 * A pass is 0.
 */
#define DA_PASS		0LL
#define DA_PLAY		(1LL << 60)
#define DA_GIVE		(2LL << 60)
#define DA_TYPE(c)	((c) & (3LL << 60))
#define DA_NAT(c)	((uint64_t)(c) & DF_NATMASK)
#define DA_JOK(c)	((int)(((c) >> 52) & 3))
#define DA_LOW(c)	((int)(((c) >> 54) & 15))
#define DA_REST(c)	((c) & ~((3LL << 60) | ((1LL << 58) - 1)))
#define DA_MAKE(t, nat, j, low) \
	((t) | (int64_t)(nat) | ((int64_t)(j) << 52) | ((int64_t)(low) << 54))

/*
 * Events; a[] as noted.  Seat lists are packed 3 bits a seat, point lists
 * 16 bits a seat (x holds seats 0-3, a[3] seats 4-5, a[4] seat 6).
 */
enum df_event {
	DE_DEAL,	/* a0 deal, a1 seating, a2 classes (3 bits each) */
	DE_HAND,	/* to a0: x naturals, a1 jokers (the dealt hand) */
	DE_GIVE,	/* to both sides: a0 from, a1 to, x naturals, a2 jokers */
	DE_SWAP,	/* to the others: a0 from, a1 to, a2 count */
	DE_TRICK,	/* a0 leader, a1 1 if the play must hold 3D */
	DE_PLAY,	/* a0 player, x code, a1 kind, a2 rank, a3 cards left */
	DE_PASS,	/* a0 player, a1 1 if automatic (to the passer; -1 others) */
	DE_REVOLUTION,	/* a0 1 if now in force */
	DE_COUP,	/* a0 1 if now in force */
	DE_TRICK_END,	/* a0 last player, a1 1 if by a trump, a2 next leader */
	DE_OUT,		/* a0 player, a1 place, a2 points */
	DE_DEAL_END,	/* a0 deal, a1 finishing order, points packed */
	DE_GAME_END	/* totals packed */
};

struct df_setup {
	int	ndecks;
	int8_t	decks[DF_FIXED][DF_MAXDECK];	/* from the top */
	int	has_seating, has_previous;
	uint8_t	seating[DF_MAXP];		/* clockwise, first dealt first */
	uint8_t	previous[DF_MAXP];		/* finishing order */
};

struct df_state {
	/* Options. */
	uint8_t		np, jokers, deals, unlimited, eight_cut, eleven_back;

	uint8_t		phase, deal;		/* deal: 0-based */
	uint8_t		seat[DF_MAXP];		/* position -> player */
	uint8_t		pos[DF_MAXP];		/* player -> position */
	uint8_t		cls[DF_MAXP];		/* enum df_class */
	uint8_t		prev[DF_MAXP];		/* previous finishing order */
	uint8_t		has_prev;

	uint64_t	hand[DF_MAXP];		/* naturals */
	uint8_t		jok[DF_MAXP];		/* jokers held */
	uint64_t	played[DF_MAXP];	/* naturals played this deal */
	uint8_t		pjok[DF_MAXP];		/* jokers played this deal */

	/* The exchange: partner, count, gift chosen (hidden until all in). */
	int8_t		partner[DF_MAXP];	/* -1: none */
	uint8_t		ngive[DF_MAXP];
	uint64_t	gift[DF_MAXP];
	uint8_t		gjok[DF_MAXP];
	uint8_t		pending;		/* mask: still to choose */
	uint8_t		exchanged;		/* gifts made this deal */

	/* The play. */
	uint8_t		active;			/* mask: still holding cards */
	uint8_t		turn, last;		/* last: who played the table */
	uint8_t		passed;			/* mask, this trick */
	uint8_t		first;			/* the play must hold 3D */
	uint8_t		revolution, coup;
	uint8_t		tkind, tcount, trank;	/* the table */
	int64_t		tcode;
	uint8_t		nout, out[DF_MAXP];	/* going-out order this deal */

	int16_t		dpts[DF_MAXP];		/* points this deal */
	int32_t		total[DF_MAXP];
	int32_t		done_sum;		/* points of finished deals */

	uint8_t		nfixed;
	int8_t		fixed[DF_FIXED][DF_MAXDECK];
};

/* daifugo.c: combination analysis shared with the codec. */
int	df_classify(uint64_t nat, int jokers, int low, int *rank);
int	df_deciding(int kind, int count, int low, int rank, int reversed);
extern const char df_rank_names[];	/* by strength: "3456789TJQKA2" */

/* daifugo_json.c: the codec: the writers and parsers. */
void	 df_view_write(const void *, int, struct jw *);
void	 df_action_write(const void *, int, struct action, struct jw *);
void	 df_event_write(const void *, const struct event *, struct jw *);
int	 df_action_parse(const void *, int, const json_t *, struct action *,
	    char *, size_t);
int	 df_setup_parse(const json_t *, const struct opts *, void *, char *,
	    size_t);
int	 df_play_parse(const json_t *, int64_t *, char *, size_t);

/* daifugo_det.c: the determinization. */
int	 df_determinize(void *, const struct opts *, int, const json_t *,
	    struct rng *, char *, size_t);

#endif
