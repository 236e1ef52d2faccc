/*
 * Speculation's private header: the flat state, the phases, the action and
 * event codes shared by the rules (speculation.c) and their JSON codec
 * (speculation_json.c).  Nothing here is part of the engine interface.
 */
#ifndef CARDARENA_SPECULATION_H
#define CARDARENA_SPECULATION_H

#include <stdint.h>

#include "auction.h"
#include "game.h"

#define SP_FD_MAX	36	/* face-down cards one player can hold */
#define SP_PRESETS	4	/* deals whose deck --setup may fix */
#define SP_LIST_MAX	(3 * SP_FD_MAX + 2)	/* longest legal list */

/* Option indices (the order of speculation_options[]). */
enum sp_opt {
	SO_STACK,
	SO_ANTE,
	SO_DEALS,
	SO_MAX_TURNS,
	SO_PAY_5_JACK,
	SO_WIDOW,
	SO_ALL_CARDS_RANK,
	SO_STACKED
};

/* Rule switches (struct sp.flags). */
#define SF_PAY_5_JACK	0x01
#define SF_WIDOW	0x02
#define SF_ALL_CARDS	0x04
#define SF_STACKED	0x08

enum sp_phase {
	SP_TRUMP,	/* the dealer: keep or auction the face-up trump */
	SP_TURN,	/* the player on turn: auctions, then turn up or pass */
	SP_NEWHIGH,	/* the finder of a new highest card: keep or auction */
	SP_AUCTION,	/* an auction is running: auc.turn bids or drops */
	SP_OVER
};

/* Action kinds: the low 8 bits of a code; the rest is the argument. */
enum sp_kind {
	AK_KEEP = 1,	/* keep the face-up card just found */
	AK_SELL_UP,	/* auction it; amount = the minimum price */
	AK_SELL,	/* auction face-down cards; arg = positions mask */
	AK_LOT,		/* add the card at position arg to the lot */
	AK_TURN,	/* turn up the card at position arg */
	AK_PASS,	/* end the turn without turning (holder only) */
	AK_BID,		/* amount = the bid */
	AK_DROP		/* leave the auction for good */
};
#define SP_CODE(kind, arg)	((int64_t)(kind) | ((int64_t)(arg) << 8))
#define SP_KIND(code)		((int)((code) & 0xff))
#define SP_ARG(code)		((uint64_t)(code) >> 8)

/* Why a deal ended (struct sp.last_end, events). */
enum sp_end {
	SE_ACE,		/* the unbeatable card is face up */
	SE_NO_CARDS,	/* only the holder has face-down cards */
	SE_CAP,		/* max_turns turns were played */
	SE_NONE		/* no deal has ended yet */
};

/* Event types. */
enum sp_event {
	SV_DEAL,	/* x deal, a0 dealer */
	SV_OUT,		/* a0 player, a1 counters: could not ante */
	SV_ANTE,	/* a0 player, a1 amount, a2 pool after */
	SV_DEALT,	/* a0 face-down cards per player, a1 widow cards */
	SV_TRUMP,	/* a0 dealer, a1 face-up card */
	SV_KEEP,	/* a0 player, a1 card */
	SV_AUCTION,	/* a0 seller, a1 min, a2 face-up card or -1,
			   x positions mask of face-down cards */
	SV_BID,		/* a0 player, a1 amount */
	SV_DROP,	/* a0 player, a1 1 if skipped (could not pay) */
	SV_SOLD,	/* a0 seller, a1 buyer, a2 price, a3 face-up card or -1,
			   x positions mask (seller's), a4 first new position */
	SV_UNSOLD,	/* a0 seller, a2 face-up card or -1, x positions */
	SV_LOT,		/* a0 player, a1 position */
	SV_TURNUP,	/* a0 player, a1 position, a2 card, a3 1 if new high,
			   a4 the discarded old high or -1 */
	SV_FINE,	/* a0 player, a1 amount (pay_5_jack) */
	SV_PASS,	/* a0 player */
	SV_WIDOW,	/* a0..a2 the widow's cards */
	SV_DEAL_END,	/* x deal, a0 winner or -1, a1 amount, a2 enum sp_end,
			   a3 1 if the pool carries over, a4 the winning card */
	SV_GAME_END,	/* x deals played */
	SV_POOL_PAID	/* a0 player, a1 amount, a2 pool after: a carried
			   pool paid when the game ends early */
};

/*
 * The state.  A player's face-down cards are fd[p][0..nfd[p]-1], oldest
 * first: with `stacked` the top of the stack is the last position.  offered
 * and lot are position masks in the hand of the player on turn.
 */
struct sp {
	struct auction	auc;
	int32_t		counters[MAX_PLAYERS];
	int32_t		pool;
	int32_t		stack, ante, max_turns;
	int32_t		last_amount;
	int16_t		deals, deal, turns, last_deal;
	int16_t		out[MAX_PLAYERS];	/* deal of going out; 0 = in */
	int16_t		outs;			/* players out */
	int8_t		n, flags, phase, dealer, turn, holder, high, trump;
	int8_t		auc_up;		/* 1: the face-up card is sold */
	int8_t		auc_from;	/* the phase the auction came from */
	int8_t		widow_dealt, nwidow, capped;
	int8_t		ndisc, nstock, npresets;
	int8_t		last_winner, last_end, last_carried, last_card;
	int8_t		last_nwidow;
	int8_t		nfd[MAX_PLAYERS];
	uint64_t	offered, lot, auc_lot;
	int8_t		fd[MAX_PLAYERS][SP_FD_MAX];
	/* Public facts of each face-down card, by position as fd: the
	 * seller of its last sale (-1: dealt), the price and the number of
	 * cards of that sale. */
	int8_t		fd_from[MAX_PLAYERS][SP_FD_MAX];
	int8_t		fd_lot[MAX_PLAYERS][SP_FD_MAX];
	int32_t		fd_price[MAX_PLAYERS][SP_FD_MAX];
	int32_t		auc_bid[MAX_PLAYERS];	/* each one's high bid, 0 */
	int8_t		widow[3], last_widow[3];
	int8_t		disc[52];
	int8_t		stock[52];		/* undealt, top first */
	int8_t		npreset[SP_PRESETS];
	int8_t		preset[SP_PRESETS][52];
};

/* The parsed --setup document. */
struct sp_setup {
	int	dealer;			/* -1: drawn at random */
	int	ndecks;
	int	ndeck[SP_PRESETS];
	int8_t	deck[SP_PRESETS][52];	/* from the top */
};

extern const struct optdesc speculation_options[];

/* speculation.c: helpers the codec uses. */
int	speculation_strength(const struct sp *, int card);
int	speculation_beats(const struct sp *, int card, int high);
int32_t	speculation_max_other(const struct sp *, int player);
int	speculation_in(const struct sp *, int player);

/* speculation_json.c: the codec: the writers and parsers. */
void	 speculation_view_write(const void *, int, struct jw *);
void	 speculation_action_write(const void *, int, struct action,
	    struct jw *);
void	 speculation_event_write(const void *, const struct event *,
	    struct jw *);
int	 speculation_action_parse(const void *, int, const json_t *,
	    struct action *, char *, size_t);
int	 speculation_setup_parse(const json_t *, const struct opts *, void *,
	    char *, size_t);

/* speculation_det.c: the determinization (it re-deals with perturb()). */
extern const struct game	game_speculation;
int	 speculation_determinize(void *, const struct opts *, int,
	    const json_t *, struct rng *, char *, size_t);

#endif
