/*
 * Speculation (../shared/rules/speculation.md): the rules engine.  A game is
 * `deals` deals; in each, everyone antes (the dealer double), gets three
 * face-down cards nobody may look at, and the dealer's face-up card names
 * trump.  Players auction face-down cards and found face-up cards with the
 * shared ascending auction (auction.c) and turn cards up in turn; whoever
 * holds the highest face-up trump when the deal ends takes the pool.  The
 * JSON codec is in speculation_json.c; the state is in speculation.h.
 *
 * Control flow: speculation_apply() makes one decision's change, then
 * run() carries the state through every automatic step (ends of turns,
 * ends of deals, antes and dealing) until someone must decide or the game
 * is over.  The internal phases below never outlive a call.
 */
#include <stdio.h>
#include <string.h>

#include "speculation.h"

enum {
	XP_FOUND = SP_OVER + 1,	/* a found card was kept or auctioned */
	XP_NEXT,		/* the turn ended: the next one */
	XP_CONT,		/* back in a turn after a face-down auction */
	XP_END,			/* the deal ends (reason in last_end) */
	XP_START		/* the next deal starts */
};

#define ACE_OF_SPADES	CARD(SPADES, 0)

const struct optdesc speculation_options[] = {
	[SO_STACK] = { .name = "stack", .type = OPT_INT, .min = 1,
	    .max = 1000000, .def = 100,
	    .help = "counters each player has at the start of the game" },
	[SO_ANTE] = { .name = "ante", .type = OPT_INT, .min = 1,
	    .max = 100000, .def = 2,
	    .help = "counters each player antes a deal (the dealer double)" },
	[SO_DEALS] = { .name = "deals", .type = OPT_INT, .min = 1,
	    .max = 1000, .def = 0, .def_text = "2 x players",
	    .help = "deals in a game (default: everyone deals twice)" },
	[SO_MAX_TURNS] = { .name = "max_turns", .type = OPT_INT, .min = 1,
	    .max = 100000, .def = 200,
	    .help = "turns after which a deal ends, scored as when only the "
	    "holder of the highest card has face-down cards" },
	[SO_PAY_5_JACK] = { .name = "pay_5_jack", .type = OPT_BOOL,
	    .help = "turning up a 5 or a J costs 1 counter into the pool" },
	[SO_WIDOW] = { .name = "widow", .type = OPT_BOOL,
	    .help = "an extra 3-card hand; if it beats the winning card the "
	    "pool carries over (not on the last deal)" },
	[SO_ALL_CARDS_RANK] = { .name = "all_cards_rank", .type = OPT_BOOL,
	    .help = "every card ranks: A high, equal ranks S > H > D > C" },
	[SO_STACKED] = { .name = "stacked", .type = OPT_BOOL,
	    .help = "face-down cards lie in a stack: only the top one may be "
	    "sold (alone) or turned up" },
	{ .name = NULL }
};

static int	speculation_resolve(struct opts *, char *, size_t);
static void	speculation_init(void *, const struct opts *, const void *,
		    struct rng *, struct events *);
static uint32_t	speculation_deciders(const void *);
static int	speculation_legal(const void *, int, struct legal *, int);
static int	speculation_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action speculation_default_action(const void *, int);
static int	speculation_over(const void *);
static void	speculation_result(const void *, int *, double *);
static int	speculation_check(const void *, char *, size_t);
static void	speculation_perturb(void *, int, struct rng *);

static int	unbeatable(const struct sp *, int);
static uint32_t	in_mask(const struct sp *);
static int	next_in(const struct sp *, int);
static uint64_t	unoffered(const struct sp *, int);
static int	holder_can_sell(const struct sp *, int);
static int	others_have_cards(const struct sp *);
static uint64_t	mask_remove(uint64_t, uint64_t, int);
static void	hand_remove(struct sp *, int, uint64_t);
static void	go_out(struct sp *, int, struct events *);
static void	pay_carried(struct sp *, struct events *);
static void	start_deal(struct sp *, struct rng *, struct events *);
static void	end_deal(struct sp *, struct events *);
static void	start_auction(struct sp *, int, int32_t, int, uint64_t,
		    struct events *);
static void	drop_events(const struct sp *, uint32_t, int,
		    struct events *);
static void	finish_auction(struct sp *, struct events *);
static void	turn_up(struct sp *, int, int, struct events *);
static void	run(struct sp *, struct rng *, struct events *);

const struct game game_speculation = {
	.name = "speculation",
	.title = "Speculation",
	.min_players = 3,
	.max_players = MAX_PLAYERS,
	.default_players = 5,
	.options = speculation_options,
	.state_size = sizeof(struct sp),
	.setup_size = sizeof(struct sp_setup),
	.resolve = speculation_resolve,
	.init = speculation_init,
	.deciders = speculation_deciders,
	.legal = speculation_legal,
	.apply = speculation_apply,
	.default_action = speculation_default_action,
	.over = speculation_over,
	.result = speculation_result,
	.check = speculation_check,
	.perturb = speculation_perturb,
	.action_parse = speculation_action_parse,
	.setup_parse = speculation_setup_parse,
	.view_write = speculation_view_write,
	.action_write = speculation_action_write,
	.event_write = speculation_event_write,
	.determinize = speculation_determinize
};

/* Fills the computed default of deals and checks the ante fits the stack. */
static int
speculation_resolve(struct opts *o, char *cause, size_t len)
{
	if (!o->given[SO_DEALS])
		o->v[SO_DEALS] = 2L * o->players;
	if (o->v[SO_DEALS] < 1 ||
	    o->v[SO_DEALS] > speculation_options[SO_DEALS].max) {
		snprintf(cause, len, "option deals: %ld is not from 1 to %ld",
		    o->v[SO_DEALS], speculation_options[SO_DEALS].max);
		return -1;
	}
	if (2 * o->v[SO_ANTE] > o->v[SO_STACK]) {
		snprintf(cause, len, "option ante: the dealer's double ante "
		    "(%ld) is more than the stack (%ld)", 2 * o->v[SO_ANTE],
		    o->v[SO_STACK]);
		return -1;
	}
	return 0;
}

/* The strength of a card, higher is stronger; -1 for a card that cannot
 * win (a non-trump without all_cards_rank). */
int
speculation_strength(const struct sp *st, int card)
{
	int rank = CARD_RANK(card), rs;

	rs = rank == 0 ? 12 : rank - 1;		/* 2 = 0 .. K = 11, A = 12 */
	if (st->flags & SF_ALL_CARDS)
		return rs * 4 + (3 - CARD_SUIT(card));
	return CARD_SUIT(card) == st->trump ? rs : -1;
}

/* 1 if card beats the face-up card high. */
int
speculation_beats(const struct sp *st, int card, int high)
{
	return speculation_strength(st, card) > speculation_strength(st, high);
}

/* 1 if nothing can beat card (the ace of trumps; with all_cards_rank the
 * ace of spades). */
static int
unbeatable(const struct sp *st, int card)
{
	if (st->flags & SF_ALL_CARDS)
		return card == ACE_OF_SPADES;
	return CARD_RANK(card) == 0 && CARD_SUIT(card) == st->trump;
}

/* 1 if player is still in the game. */
int
speculation_in(const struct sp *st, int player)
{
	return player >= 0 && player < st->n && st->out[player] == 0;
}

/* The mask of the players still in the game. */
static uint32_t
in_mask(const struct sp *st)
{
	uint32_t m = 0;
	int p;

	for (p = 0; p < st->n; p++)
		if (st->out[p] == 0)
			m |= 1u << p;
	return m;
}

/* The first player still in at or clockwise after seat from; -1 if none. */
static int
next_in(const struct sp *st, int from)
{
	int i, p;

	for (i = 0; i < st->n; i++) {
		p = (from + i) % st->n;
		if (st->out[p] == 0)
			return p;
	}
	return -1;
}

/* The most counters any other player still in holds (the highest minimum
 * price player may ask). */
int32_t
speculation_max_other(const struct sp *st, int player)
{
	int32_t m = 0;
	int p;

	for (p = 0; p < st->n; p++)
		if (p != player && st->out[p] == 0 && st->counters[p] > m)
			m = st->counters[p];
	return m;
}

/* The positions of player's face-down cards not yet offered this turn
 * (with stacked, only the top one, if not offered). */
static uint64_t
unoffered(const struct sp *st, int p)
{
	uint64_t all;

	if (st->nfd[p] == 0)
		return 0;
	all = (1ULL << st->nfd[p]) - 1;
	if (st->flags & SF_STACKED)
		all = 1ULL << (st->nfd[p] - 1);
	return p == st->turn ? all & ~st->offered : all;
}

/* 1 if player p, on turn, has a face-down card to auction and a buyer. */
static int
holder_can_sell(const struct sp *st, int p)
{
	return unoffered(st, p) != 0 && speculation_max_other(st, p) >= 1;
}

/* 1 if a player other than the holder has a face-down card. */
static int
others_have_cards(const struct sp *st)
{
	int p;

	for (p = 0; p < st->n; p++)
		if (p != st->holder && st->nfd[p] > 0)
			return 1;
	return 0;
}

/* Removes the positions in rm from a position mask m of n positions,
 * closing the gaps. */
static uint64_t
mask_remove(uint64_t m, uint64_t rm, int n)
{
	uint64_t out = 0;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (rm & (1ULL << i))
			continue;
		if (m & (1ULL << i))
			out |= 1ULL << k;
		k++;
	}
	return out;
}

/* Removes the cards at positions rm from p's hand, keeping the order (and
 * the offered marks, when p is on turn). */
static void
hand_remove(struct sp *st, int p, uint64_t rm)
{
	int i, k = 0, n = st->nfd[p];

	if (p == st->turn && st->phase != SP_OVER)
		st->offered = mask_remove(st->offered, rm, n);
	for (i = 0; i < n; i++)
		if (!(rm & (1ULL << i))) {
			st->fd[p][k] = st->fd[p][i];
			st->fd_from[p][k] = st->fd_from[p][i];
			st->fd_lot[p][k] = st->fd_lot[p][i];
			st->fd_price[p][k] = st->fd_price[p][i];
			k++;
		}
	st->nfd[p] = (int8_t)k;
}

/* Takes p out of the game: they could not ante. */
static void
go_out(struct sp *st, int p, struct events *ev)
{
	st->out[p] = (int16_t)st->deal;
	st->outs++;
	ev_push(ev, SEEN_ALL, SV_OUT, st->deal, p, st->counters[p], 0, 0, 0);
}

/*
 * The game ends early with a pool carried over (speculation.md): it goes to
 * the one player still in, or with nobody in, to those who went out at this
 * deal's start with the most counters; equal counters split it, any
 * remainder to the first of them clockwise from the last dealer's left.
 */
static void
pay_carried(struct sp *st, struct events *ev)
{
	uint32_t who = in_mask(st), best = 0;
	int32_t most = -1, share, rem;
	int i, p, k;

	if (st->pool == 0)
		return;
	if (who == 0)
		for (p = 0; p < st->n; p++)
			if (st->out[p] == st->deal)
				who |= 1u << p;
	for (p = 0; p < st->n; p++) {
		if (!(who & (1u << p)) || st->counters[p] < most)
			continue;
		if (st->counters[p] > most)
			best = 0;
		most = st->counters[p];
		best |= 1u << p;
	}
	k = popcount32(best);
	share = st->pool / k;
	rem = st->pool % k;
	for (i = 1; i <= st->n; i++) {
		p = (st->dealer + i) % st->n;
		if (!(best & (1u << p)))
			continue;
		st->counters[p] += share + rem;
		st->pool -= share + rem;
		ev_push(ev, SEEN_ALL, SV_POOL_PAID, 0, p, share + rem, st->pool,
		    0, 0);
		rem = 0;
	}
}

/*
 * Starts the next deal: gathers the cards, puts out the players who cannot
 * ante (the dealer needs double; a dealer who cannot pay passes the deal
 * on), takes the antes, deals and turns the dealer's card.  Ends the game
 * after the last deal or when fewer than two players can ante.
 */
static void
start_deal(struct sp *st, struct rng *rng, struct events *ev)
{
	int deck[52], used[52], i, k, r, p, d, np;

	if (st->deal >= st->deals) {
		st->phase = SP_OVER;
		ev_push(ev, SEEN_ALL, SV_GAME_END, st->deal, 0, 0, 0, 0, 0);
		return;
	}
	d = st->deal == 0 ? st->dealer : next_in(st, st->dealer + 1);
	st->deal++;
	for (p = 0; p < st->n; p++)
		if (st->out[p] == 0 && p != d && st->counters[p] < st->ante)
			go_out(st, p, ev);
	while (d >= 0 && st->counters[d] < 2 * st->ante) {
		go_out(st, d, ev);
		d = next_in(st, d + 1);
	}
	if (d < 0 || popcount32(in_mask(st)) < 2) {
		/* The deal is not played; the last one's cards stay. */
		pay_carried(st, ev);
		st->deal--;
		st->phase = SP_OVER;
		ev_push(ev, SEEN_ALL, SV_GAME_END, st->deal, 0, 0, 0, 0, 0);
		return;
	}
	memset(st->nfd, 0, sizeof st->nfd);
	st->nwidow = 0;
	st->ndisc = 0;
	st->offered = st->lot = 0;
	st->turns = 0;
	st->dealer = (int8_t)d;
	ev_push(ev, SEEN_ALL, SV_DEAL, st->deal, d, 0, 0, 0, 0);
	for (i = 1; i <= st->n; i++) {
		p = (d + i) % st->n;
		if (st->out[p] != 0)
			continue;
		k = p == d ? 2 * st->ante : st->ante;
		st->counters[p] -= k;
		st->pool += k;
		ev_push(ev, SEEN_ALL, SV_ANTE, 0, p, k, st->pool, 0, 0);
	}

	/* The deck: a --setup preset on top, the rest shuffled below. */
	memset(used, 0, sizeof used);
	np = 0;
	if (st->deal - 1 < st->npresets)
		for (np = 0; np < st->npreset[st->deal - 1]; np++) {
			deck[np] = st->preset[st->deal - 1][np];
			used[deck[np]] = 1;
		}
	for (i = 0, k = np; i < 52; i++)
		if (!used[i])
			deck[k++] = i;
	deck_shuffle(deck + np, 52 - np, rng);

	st->widow_dealt = (st->flags & SF_WIDOW) && st->deal < st->deals;
	k = 0;
	for (r = 0; r < 3; r++) {
		for (i = 1; i <= st->n; i++) {
			p = (d + i) % st->n;
			if (st->out[p] == 0) {
				st->fd_from[p][st->nfd[p]] = -1;
				st->fd_lot[p][st->nfd[p]] = 0;
				st->fd_price[p][st->nfd[p]] = 0;
				st->fd[p][st->nfd[p]++] = (int8_t)deck[k++];
			}
		}
		if (st->widow_dealt)
			st->widow[st->nwidow++] = (int8_t)deck[k++];
	}
	st->high = (int8_t)deck[k++];
	st->holder = (int8_t)d;
	st->trump = (int8_t)CARD_SUIT(st->high);
	for (i = k; i < 52; i++)
		st->stock[i - k] = (int8_t)deck[i];
	st->nstock = (int8_t)(52 - k);
	ev_push(ev, SEEN_ALL, SV_DEALT, st->deal, 3, st->nwidow, 0, 0, 0);
	ev_push(ev, SEEN_ALL, SV_TRUMP, st->deal, d, st->high, 0, 0, 0);
	st->turn = (int8_t)d;
	st->phase = SP_TRUMP;
}

/* Ends the deal: turns up the widow, pays the pool to the holder of the
 * highest face-up card unless the widow beats it. */
static void
end_deal(struct sp *st, struct events *ev)
{
	int i, carried = 0;
	int32_t amount = st->pool;

	if (st->widow_dealt) {
		ev_push(ev, SEEN_ALL, SV_WIDOW, st->deal, st->widow[0],
		    st->widow[1], st->widow[2], 0, 0);
		for (i = 0; i < st->nwidow; i++)
			if (speculation_beats(st, st->widow[i], st->high))
				carried = 1;
	}
	if (!carried) {
		st->counters[st->holder] += st->pool;
		st->pool = 0;
	}
	if (st->last_end == SE_CAP)
		st->capped = 1;
	st->last_deal = st->deal;
	st->last_winner = st->holder;
	st->last_amount = amount;
	st->last_carried = (int8_t)carried;
	st->last_card = st->high;
	st->last_nwidow = st->nwidow;
	memcpy(st->last_widow, st->widow, sizeof st->widow);
	ev_push(ev, SEEN_ALL, SV_DEAL_END, st->deal, st->holder, amount,
	    st->last_end, carried, st->high);
}

/* Emits a skipped-drop event for every player in before but not in now
 * (except actor, whose drop was their own). */
static void
drop_events(const struct sp *st, uint32_t before, int actor,
    struct events *ev)
{
	uint32_t gone = before & ~st->auc.in;
	int i, p;

	for (i = 1; i <= st->n; i++) {
		p = (st->auc.seller + i) % st->n;
		if ((gone & (1u << p)) && p != actor)
			ev_push(ev, SEEN_ALL, SV_DROP, 0, p, 1, 0, 0, 0);
	}
}

/* Starts an auction by seller of the face-up card (up) or of the face-down
 * cards at positions lot. */
static void
start_auction(struct sp *st, int seller, int32_t min, int up, uint64_t lot,
    struct events *ev)
{
	uint32_t eligible = in_mask(st) & ~(1u << seller);

	st->auc_up = (int8_t)up;
	st->auc_lot = lot;
	st->auc_from = st->phase;
	memset(st->auc_bid, 0, sizeof st->auc_bid);
	auction_start(&st->auc, st->n, seller, seller + 1, min, eligible,
	    st->counters);
	ev_push(ev, SEEN_ALL, SV_AUCTION, (int64_t)lot, seller, min,
	    up ? st->high : -1, 0, 0);
	drop_events(st, eligible, -1, ev);
	st->phase = SP_AUCTION;
}

/* Settles an auction that has ended: the high bidder pays the seller and
 * takes the card(s); with no bid the seller keeps them. */
static void
finish_auction(struct sp *st, struct events *ev)
{
	int s = st->auc.seller, b = st->auc.high_bidder, i, first, k;

	if (b < 0) {
		ev_push(ev, SEEN_ALL, SV_UNSOLD, (int64_t)st->auc_lot, s, 0,
		    st->auc_up ? st->high : -1, 0, 0);
	} else {
		st->counters[b] -= st->auc.high;
		st->counters[s] += st->auc.high;
		first = st->nfd[b];
		if (st->auc_up)
			st->holder = (int8_t)b;
		else {
			k = popcount64(st->auc_lot);
			for (i = 0; i < st->nfd[s]; i++)
				if (st->auc_lot & (1ULL << i)) {
					st->fd_from[b][st->nfd[b]] = (int8_t)s;
					st->fd_lot[b][st->nfd[b]] = (int8_t)k;
					st->fd_price[b][st->nfd[b]] =
					    st->auc.high;
					st->fd[b][st->nfd[b]++] = st->fd[s][i];
				}
			hand_remove(st, s, st->auc_lot);
		}
		ev_push(ev, SEEN_ALL, SV_SOLD, (int64_t)st->auc_lot, s, b,
		    st->auc.high, st->auc_up ? st->high : -1, first);
	}
	st->phase = st->auc_up ? XP_FOUND : XP_CONT;
}

/* Turns up p's card at position pos: a new highest card or a discard
 * (and the pay_5_jack fine). */
static void
turn_up(struct sp *st, int p, int pos, struct events *ev)
{
	int c = st->fd[p][pos], old = -1, rank;

	hand_remove(st, p, 1ULL << pos);
	if (speculation_beats(st, c, st->high)) {
		old = st->high;
		st->disc[st->ndisc++] = (int8_t)old;
		st->high = (int8_t)c;
		st->holder = (int8_t)p;
		st->phase = SP_NEWHIGH;
	} else {
		st->disc[st->ndisc++] = (int8_t)c;
		st->phase = XP_NEXT;
	}
	ev_push(ev, SEEN_ALL, SV_TURNUP, st->deal, p, pos, c, old >= 0, old);
	rank = CARD_RANK(c);
	if ((st->flags & SF_PAY_5_JACK) && (rank == 4 || rank == 10)) {
		int32_t fine = st->counters[p] > 0 ? 1 : 0;

		st->counters[p] -= fine;
		st->pool += fine;
		ev_push(ev, SEEN_ALL, SV_FINE, 0, p, fine, 0, 0, 0);
	}
}

/* Carries the state through the automatic steps until a decision or the
 * end of the game. */
static void
run(struct sp *st, struct rng *rng, struct events *ev)
{
	int i, p;

	for (;;) {
		switch (st->phase) {
		case SP_TRUMP:
		case SP_NEWHIGH:
			if (speculation_max_other(st, st->turn) >= 1)
				return;
			ev_push(ev, SEEN_ALL, SV_KEEP, 0, st->turn, st->high,
			    0, 0, 0);
			st->phase = XP_FOUND;
			break;
		case SP_AUCTION:
			if (!auction_over(&st->auc))
				return;
			finish_auction(st, ev);
			break;
		case SP_TURN:
			return;
		case XP_FOUND:
			if (unbeatable(st, st->high)) {
				st->last_end = SE_ACE;
				st->phase = XP_END;
			} else
				st->phase = XP_NEXT;
			break;
		case XP_CONT:
			p = st->turn;
			if (!others_have_cards(st)) {
				st->last_end = SE_NO_CARDS;
				st->phase = XP_END;
			} else if (st->nfd[p] == 0)
				st->phase = XP_NEXT;
			else if (p == st->holder && !holder_can_sell(st, p)) {
				ev_push(ev, SEEN_ALL, SV_PASS, 0, p, 0, 0, 0, 0);
				st->phase = XP_NEXT;
			} else
				st->phase = SP_TURN;
			break;
		case XP_NEXT:
			if (!others_have_cards(st)) {
				st->last_end = SE_NO_CARDS;
				st->phase = XP_END;
				break;
			}
			if (st->turns >= st->max_turns) {
				st->last_end = SE_CAP;
				st->phase = XP_END;
				break;
			}
			for (i = 1; i <= st->n; i++) {
				p = (st->turn + i) % st->n;
				if (st->out[p] != 0 || st->nfd[p] == 0)
					continue;
				break;
			}
			if (i > st->n) {
				st->last_end = SE_NO_CARDS;
				st->phase = XP_END;
				break;
			}
			st->turn = (int8_t)p;
			st->offered = st->lot = 0;
			st->turns++;
			/* The holder nobody can buy from passes unasked; the
			 * turn still counts (speculation.md, decision 5). */
			if (p == st->holder && !holder_can_sell(st, p)) {
				ev_push(ev, SEEN_ALL, SV_PASS, 0, p, 0, 0, 0, 0);
				break;
			}
			st->phase = SP_TURN;
			return;
		case XP_END:
			end_deal(st, ev);
			st->phase = XP_START;
			break;
		case XP_START:
			start_deal(st, rng, ev);
			break;
		case SP_OVER:
		default:
			return;
		}
	}
}

/* Deals the first deal (the --setup decks and dealer, else from rng). */
static void
speculation_init(void *vst, const struct opts *o, const void *vsetup,
    struct rng *rng, struct events *ev)
{
	struct sp *st = vst;
	const struct sp_setup *setup = vsetup;
	int i, p;

	memset(st, 0, sizeof *st);
	st->n = (int8_t)o->players;
	st->stack = (int32_t)o->v[SO_STACK];
	st->ante = (int32_t)o->v[SO_ANTE];
	st->deals = (int16_t)o->v[SO_DEALS];
	st->max_turns = (int32_t)o->v[SO_MAX_TURNS];
	st->flags = (int8_t)((o->v[SO_PAY_5_JACK] ? SF_PAY_5_JACK : 0) |
	    (o->v[SO_WIDOW] ? SF_WIDOW : 0) |
	    (o->v[SO_ALL_CARDS_RANK] ? SF_ALL_CARDS : 0) |
	    (o->v[SO_STACKED] ? SF_STACKED : 0));
	for (p = 0; p < st->n; p++)
		st->counters[p] = st->stack;
	st->last_winner = -1;
	st->last_end = SE_NONE;
	st->last_card = -1;
	st->holder = st->high = st->turn = -1;
	for (i = 0; i < 52; i++)
		st->stock[i] = (int8_t)i;
	st->nstock = 52;
	if (setup != NULL && setup->dealer >= 0)
		st->dealer = (int8_t)setup->dealer;
	else
		st->dealer = (int8_t)rng_below(rng, (uint32_t)st->n);
	if (setup != NULL) {
		st->npresets = (int8_t)setup->ndecks;
		for (i = 0; i < setup->ndecks; i++) {
			st->npreset[i] = (int8_t)setup->ndeck[i];
			memcpy(st->preset[i], setup->deck[i], 52);
		}
	}
	st->phase = XP_START;
	run(st, rng, ev);
}

/* The one seat that decides now: the player on turn or the bidder. */
static uint32_t
speculation_deciders(const void *vst)
{
	const struct sp *st = vst;

	switch (st->phase) {
	case SP_TRUMP:
	case SP_NEWHIGH:
	case SP_TURN:
		return 1u << st->turn;
	case SP_AUCTION:
		return 1u << st->auc.turn;
	default:
		return 0;
	}
}

/* Lists player's legal entries: see protocol.md for each kind. */
static int
speculation_legal(const void *vst, int player, struct legal *l, int max)
{
	const struct sp *st = vst;
	int32_t mo;
	uint64_t avail;
	int n = 0, i, nfd;

#define ADD(c, lo_, hi_, r_) do {					\
	if (n < max) {							\
		l[n].code = (c);					\
		l[n].lo = (lo_);					\
		l[n].hi = (hi_);					\
		l[n].ranged = (r_);					\
	}								\
	n++;								\
} while (0)

	if (player < 0 || player >= st->n ||
	    !(speculation_deciders(st) & (1u << player)))
		return 0;
	switch (st->phase) {
	case SP_TRUMP:
	case SP_NEWHIGH:
		ADD(SP_CODE(AK_KEEP, 0), 0, 0, 0);
		mo = speculation_max_other(st, player);
		if (mo >= 1)
			ADD(SP_CODE(AK_SELL_UP, 0), 1, mo, 1);
		break;
	case SP_AUCTION:
		ADD(SP_CODE(AK_DROP, 0), 0, 0, 0);
		ADD(SP_CODE(AK_BID, 0), auction_next_min(&st->auc),
		    st->counters[player], 1);
		break;
	case SP_TURN:
		mo = speculation_max_other(st, player);
		avail = unoffered(st, player);
		nfd = st->nfd[player];
		if (st->lot != 0) {
			ADD(SP_CODE(AK_SELL, st->lot), 1, mo, 1);
			for (i = 0; i < nfd; i++)
				if ((avail & ~st->lot) & (1ULL << i))
					ADD(SP_CODE(AK_LOT, i), 0, 0, 0);
			break;
		}
		if (player == st->holder)
			ADD(SP_CODE(AK_PASS, 0), 0, 0, 0);
		else if (st->flags & SF_STACKED)
			ADD(SP_CODE(AK_TURN, nfd - 1), 0, 0, 0);
		else
			for (i = 0; i < nfd; i++)
				ADD(SP_CODE(AK_TURN, i), 0, 0, 0);
		if (mo < 1)
			break;
		for (i = 0; i < nfd; i++)
			if (avail & (1ULL << i))
				ADD(SP_CODE(AK_SELL, 1ULL << i), 1, mo, 1);
		if (popcount64(avail) >= 2)
			for (i = 0; i < nfd; i++)
				if (avail & (1ULL << i))
					ADD(SP_CODE(AK_LOT, i), 0, 0, 0);
		break;
	default:
		break;
	}
#undef ADD
	return n < max ? n : max;
}

/* Applies a listed action and runs on to the next decision; -1 (state
 * untouched) for anything not in the legal list. */
static int
speculation_apply(void *vst, int player, struct action a, struct rng *rng,
    struct events *ev)
{
	struct sp *st = vst;
	struct legal l[SP_LIST_MAX];
	uint32_t before;
	int n, arg;

	n = speculation_legal(st, player, l, SP_LIST_MAX);
	if (legal_find(l, n, a) < 0)
		return -1;
	arg = (int)(SP_ARG(a.code) & 0x3f);
	switch (SP_KIND(a.code)) {
	case AK_KEEP:
		ev_push(ev, SEEN_ALL, SV_KEEP, 0, player, st->high, 0, 0, 0);
		st->phase = XP_FOUND;
		break;
	case AK_SELL_UP:
		start_auction(st, player, a.amount, 1, 0, ev);
		break;
	case AK_SELL:
		st->offered |= SP_ARG(a.code);
		st->lot = 0;
		start_auction(st, player, a.amount, 0, SP_ARG(a.code), ev);
		break;
	case AK_LOT:
		st->lot |= 1ULL << arg;
		ev_push(ev, SEEN_ALL, SV_LOT, 0, player, arg, 0, 0, 0);
		break;
	case AK_TURN:
		turn_up(st, player, arg, ev);
		break;
	case AK_PASS:
		ev_push(ev, SEEN_ALL, SV_PASS, 0, player, 0, 0, 0, 0);
		st->phase = XP_NEXT;
		break;
	case AK_BID:
	case AK_DROP:
		before = st->auc.in;
		if (SP_KIND(a.code) == AK_BID) {
			st->auc_bid[player] = a.amount;
			ev_push(ev, SEEN_ALL, SV_BID, 0, player, a.amount, 0,
			    0, 0);
		}
		else
			ev_push(ev, SEEN_ALL, SV_DROP, 0, player, 0, 0, 0, 0);
		if (auction_act(&st->auc, player,
		    SP_KIND(a.code) == AK_BID ? a.amount : 0,
		    st->counters) == -1)
			return -1;	/* not reached: the list allowed it */
		drop_events(st, before, player, ev);
		break;
	default:
		return -1;
	}
	run(st, rng, ev);
	return 0;
}

/* Keep, drop, pass or turn up the top card; a started lot is sold at
 * the highest minimum allowed. */
static struct action
speculation_default_action(const void *vst, int player)
{
	const struct sp *st = vst;
	struct action a = { 0, 0 };

	switch (st->phase) {
	case SP_TRUMP:
	case SP_NEWHIGH:
		a.code = SP_CODE(AK_KEEP, 0);
		break;
	case SP_AUCTION:
		a.code = SP_CODE(AK_DROP, 0);
		break;
	case SP_TURN:
		if (st->lot != 0) {
			a.code = SP_CODE(AK_SELL, st->lot);
			a.amount = speculation_max_other(st, player);
		} else if (player == st->holder)
			a.code = SP_CODE(AK_PASS, 0);
		else
			a.code = SP_CODE(AK_TURN, st->nfd[player] - 1);
		break;
	default:
		break;
	}
	return a;
}

/* 1 once the game is over. */
static int
speculation_over(const void *vst)
{
	const struct sp *st = vst;

	return st->phase == SP_OVER;
}

/* Players still in rank by counters; those out rank below them, the later
 * out the better, and those out at the same deal by counters; equal keys
 * share a place.  Scores are the counters. */
static void
speculation_result(const void *vst, int *places, double *scores)
{
	const struct sp *st = vst;
	int64_t key[MAX_PLAYERS];
	int i, j;

	/* Counters are below 2^31; a deal of going out is below 2^15. */
	for (i = 0; i < st->n; i++)
		key[i] = ((int64_t)(st->out[i] == 0 ? 1 << 16 : st->out[i])
		    << 32) + st->counters[i];
	for (i = 0; i < st->n; i++) {
		places[i] = 1;
		for (j = 0; j < st->n; j++)
			if (key[j] > key[i])
				places[i]++;
		scores[i] = st->counters[i];
	}
}

/* Checks that every card is in exactly one place, that the counters are
 * conserved, and the invariants of the phase. */
static int
speculation_check(const void *vst, char *cause, size_t len)
{
	const struct sp *st = vst;
	int seen[52], i, p, c, pos, nwant;
	int64_t money;

#define SEE(card, where) do {						\
	c = (card);							\
	if (c < 0 || c >= 52) {						\
		snprintf(cause, len, "bad card %d in %s", c, where);	\
		return -1;						\
	}								\
	if (seen[c]++) {						\
		snprintf(cause, len, "card %d twice (%s)", c, where);	\
		return -1;						\
	}								\
} while (0)

	memset(seen, 0, sizeof seen);
	money = st->pool;
	if (st->pool < 0) {
		snprintf(cause, len, "negative pool %d", st->pool);
		return -1;
	}
	for (p = 0; p < st->n; p++) {
		if (st->counters[p] < 0) {
			snprintf(cause, len, "player %d has %d counters", p,
			    st->counters[p]);
			return -1;
		}
		money += st->counters[p];
		if (st->nfd[p] < 0 || st->nfd[p] > SP_FD_MAX ||
		    (st->out[p] != 0 && st->out[p] <= st->deal &&
		    st->nfd[p] != 0)) {
			snprintf(cause, len, "player %d holds %d face-down "
			    "cards", p, st->nfd[p]);
			return -1;
		}
		for (i = 0; i < st->nfd[p]; i++)
			SEE(st->fd[p][i], "a hand");
	}
	if (st->phase == SP_OVER && st->pool != 0) {
		snprintf(cause, len, "the game is over with %d counters in the "
		    "pool", st->pool);
		return -1;
	}
	if (money != (int64_t)st->n * st->stack) {
		snprintf(cause, len, "counters not conserved: %lld, not %lld",
		    (long long)money, (long long)st->n * st->stack);
		return -1;
	}
	nwant = st->widow_dealt ? 3 : 0;
	if (st->nwidow != nwant) {
		snprintf(cause, len, "widow of %d cards", st->nwidow);
		return -1;
	}
	for (i = 0; i < st->nwidow; i++)
		SEE(st->widow[i], "the widow");
	for (i = 0; i < st->ndisc; i++)
		SEE(st->disc[i], "the discards");
	if (st->nstock < 0 || st->nstock > 52) {
		snprintf(cause, len, "stock of %d", st->nstock);
		return -1;
	}
	for (i = 0; i < st->nstock; i++)
		SEE(st->stock[i], "the stock");
	if (st->high >= 0)
		SEE(st->high, "the highest card");
	for (c = 0; c < 52; c++)
		if (!seen[c]) {
			snprintf(cause, len, "card %d lost", c);
			return -1;
		}
#undef SEE
	if (st->phase == SP_OVER)
		return 0;
	if (st->phase > SP_OVER || !speculation_in(st, st->holder) ||
	    !speculation_in(st, st->turn) || !speculation_in(st, st->dealer) ||
	    st->trump < 0 || st->trump > 3 ||
	    (!(st->flags & SF_ALL_CARDS) && CARD_SUIT(st->high) != st->trump)) {
		snprintf(cause, len, "bad phase %d, holder %d, turn %d, high "
		    "%d", st->phase, st->holder, st->turn, st->high);
		return -1;
	}
	if (st->turns > st->max_turns || st->deal < 1 ||
	    st->deal > st->deals) {
		snprintf(cause, len, "turn %d of %d, deal %d of %d",
		    st->turns, st->max_turns, st->deal, st->deals);
		return -1;
	}
	if (st->phase == SP_TURN || (st->phase == SP_AUCTION &&
	    st->auc_from == SP_TURN)) {
		pos = st->nfd[st->turn];
		if (pos == 0 || (st->offered >> pos) != 0 ||
		    (st->lot & ~unoffered(st, st->turn)) != 0) {
			snprintf(cause, len, "turn of %d: %d cards, offered "
			    "%#llx, lot %#llx", st->turn, pos,
			    (unsigned long long)st->offered,
			    (unsigned long long)st->lot);
			return -1;
		}
		if (!others_have_cards(st)) {
			snprintf(cause, len, "the deal should have ended");
			return -1;
		}
	}
	if (st->phase == SP_AUCTION) {
		if (st->auc.seller != st->turn ||
		    !speculation_in(st, st->auc.turn) ||
		    st->auc.turn == st->auc.seller ||
		    (!st->auc_up && (st->auc_lot == 0 ||
		    (st->auc_lot >> st->nfd[st->auc.seller]) != 0)) ||
		    (st->auc.high_bidder >= 0 &&
		    st->auc.high > st->counters[st->auc.high_bidder])) {
			snprintf(cause, len, "bad auction by %d", st->auc.seller);
			return -1;
		}
	}
	return 0;
}

/* Re-deals every card nobody sees: all face-down cards, the widow and the
 * undealt stock (seat sees none of them), keeping every count. */
static void
speculation_perturb(void *vst, int seat, struct rng *rng)
{
	struct sp *st = vst;
	int pool[52], n = 0, i, p;

	for (p = 0; p < st->n; p++)
		for (i = 0; i < st->nfd[p]; i++)
			pool[n++] = st->fd[p][i];
	for (i = 0; i < st->nwidow; i++)
		pool[n++] = st->widow[i];
	for (i = 0; i < st->nstock; i++)
		pool[n++] = st->stock[i];
	deck_shuffle(pool, n, rng);
	n = 0;
	for (p = 0; p < st->n; p++)
		for (i = 0; i < st->nfd[p]; i++)
			st->fd[p][i] = (int8_t)pool[n++];
	for (i = 0; i < st->nwidow; i++)
		st->widow[i] = (int8_t)pool[n++];
	for (i = 0; i < st->nstock; i++)
		st->stock[i] = (int8_t)pool[n++];
}
