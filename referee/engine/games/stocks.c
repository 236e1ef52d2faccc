/*
 * The rules engine of stocks, Sid Sackson's stock market card game
 * (../shared/rules/stocks.md): two decks, four suits as four companies whose
 * share prices are the top cards of their price stacks, 8-card hands, and a
 * turn of two phases in either order, each at most once: trade (buy a
 * certificate with a card, sell certificates) and price (place up to two
 * cards on the price stacks within each company's limits, face cards as
 * 11-13 or as $0, which bankrupts the company).  A player who does neither
 * may discard 1-4 cards.  The turn ends with a refill to 8; a short stock is
 * rebuilt from the discards and the buried price cards, bringing in the two
 * jokers, and the first joker drawn ends the game.  Wealth decides.
 *
 * A turn is a sequence of atomic decisions by the player on turn: buy one
 * card, sell one certificate, place one price card with its meaning, discard
 * one card, or end the turn.  A phase begins with its first action and ends
 * when the other phase begins (so trade, price, trade is never listed).  The
 * JSON codec is in stocks_json.c.
 */
#include <stdio.h>
#include <string.h>

#include "stocks.h"

static int	stocks_resolve(struct opts *, char *, size_t);
static void	stocks_init(void *, const struct opts *, const void *,
		    struct rng *, struct events *);
static uint32_t	stocks_deciders(const void *);
static int	stocks_legal(const void *, int, struct legal *, int);
static int	stocks_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action stocks_default_action(const void *, int);
static int	stocks_over(const void *);
static void	stocks_result(const void *, int *, double *);
static int	stocks_check(const void *, char *, size_t);
static void	stocks_perturb(void *, int, struct rng *);

static int	allowed(const struct stocks *, int, int64_t);
static int	price_ok(const struct stocks *, int, int);
static int	in_hand(const struct stocks *, int, int);
static int	sellable(const struct stocks *, int, int);
static void	hand_add(struct stocks *, int, int);
static void	hand_remove(struct stocks *, int, int);
static void	bank_pay(struct stocks *, int, int32_t, struct events *,
		    int32_t *);
static void	bankrupt(struct stocks *, int, struct events *);
static void	reshuffle(struct stocks *, struct rng *, struct events *);
static void	refill(struct stocks *, int, struct rng *, struct events *);
static void	end_turn(struct stocks *, struct rng *, struct events *);
static void	new_turn(struct stocks *, int, struct events *);
static int	holdings_check(const struct stocks *, int *, char *, size_t);
static int	piles_check(const struct stocks *, int *, char *, size_t);
static int	cards_check(const struct stocks *, char *, size_t);
static int	money_check(const struct stocks *, char *, size_t);
static int	turn_check(const struct stocks *, char *, size_t);

/* Price limits per company, in suit order S H D C. */
const int8_t stocks_up[ST_NCOMP] = { 4, 5, 3, 6 };
const int8_t stocks_down[ST_NCOMP] = { 3, 4, 2, 5 };

static const struct optdesc stocks_options[] = {
	{ .name = "bank", .type = OPT_INT, .min = 0, .max = 1000000,
	  .def = 0, .def_text = "3510 - 200 x players",
	  .help = "the money the bank holds at the start (the original's "
	  "largest chip set less the players' $200 each)" },
	{ .name = "sell_same_turn", .type = OPT_BOOL, .def = 0,
	  .help = "a certificate bought this turn may be sold in the same "
	  "turn" },
	{ .name = "max_turns", .type = OPT_INT, .min = 1, .max = 100000,
	  .def = 400,
	  .help = "player turns in total after which a game without a joker "
	  "drawn ends (after that turn's refill), scored as usual" },
	{ .name = NULL }
};

const struct game game_stocks = {
	.name = "stocks",
	.title = "Sid Sackson's stock market card game",
	.min_players = 2,
	.max_players = ST_MAXP,
	.default_players = 4,
	.options = stocks_options,
	.state_size = sizeof(struct stocks),
	.setup_size = sizeof(struct stocks_setup),
	.resolve = stocks_resolve,
	.init = stocks_init,
	.deciders = stocks_deciders,
	.legal = stocks_legal,
	.apply = stocks_apply,
	.default_action = stocks_default_action,
	.over = stocks_over,
	.result = stocks_result,
	.check = stocks_check,
	.perturb = stocks_perturb,
	.action_parse = stocks_action_parse,
	.view_write = stocks_view_write,
	.action_write = stocks_action_write,
	.event_write = stocks_event_write,
	.setup_parse = stocks_setup_parse,
	.determinize = stocks_determinize
};

/* Returns the shares a certificate of card is worth: A-10 face value, J-K 5. */
int
stocks_card_shares(int card)
{
	return stocks_is_face(card) ? 5 : CARD_RANK(card) + 1;
}

/* Returns 1 for a J, Q or K. */
int
stocks_is_face(int card)
{
	return !IS_JOKER(card) && CARD_RANK(card) >= 10;
}

/* Returns a player's wealth: money, certificates at the current prices, less debt. */
int32_t
stocks_wealth(const struct stocks *st, int p)
{
	int32_t w;
	int s;

	w = st->money[p] - st->debt[p];
	for (s = 0; s < ST_NCOMP; s++)
		w += (int32_t)st->shares[p][s] * st->value[s];
	return w;
}

/* Fills the bank's computed default. */
static int
stocks_resolve(struct opts *o, char *cause, size_t len)
{
	if (!o->given[OPT_BANK])
		o->v[OPT_BANK] = ST_CHIPS - ST_START_MONEY * o->players;
	return 0;
}

/* Puts card into player p's hand, keeping it sorted. */
static void
hand_add(struct stocks *st, int p, int card)
{
	int i;

	for (i = st->nhand[p]; i > 0 && st->hand[p][i - 1] > card; i--)
		st->hand[p][i] = st->hand[p][i - 1];
	st->hand[p][i] = (uint8_t)card;
	st->nhand[p]++;
}

/* Takes one copy of card out of player p's hand (it must be there). */
static void
hand_remove(struct stocks *st, int p, int card)
{
	int i;

	for (i = 0; i < st->nhand[p] && st->hand[p][i] != card; i++)
		;
	for (; i + 1 < st->nhand[p]; i++)
		st->hand[p][i] = st->hand[p][i + 1];
	st->nhand[p]--;
}

/* Returns 1 if player p holds card. */
static int
in_hand(const struct stocks *st, int p, int card)
{
	int i;

	for (i = 0; i < st->nhand[p]; i++)
		if (st->hand[p][i] == card)
			return 1;
	return 0;
}

/* Returns how many certificates card player p may sell now. */
static int
sellable(const struct stocks *st, int p, int card)
{
	int n, i;

	n = st->cert[p][card];
	if (!st->sell_same)
		for (i = 0; i < st->nbought; i++)
			if (st->bought[i] == card)
				n--;
	return n;
}

/*
 * Returns 1 if card may go on its company's price stack now, as its face
 * value (zero 0) or as $0 (zero 1, face cards only).
 */
static int
price_ok(const struct stocks *st, int card, int zero)
{
	int s, top, nv, d;

	if (zero && !stocks_is_face(card))
		return 0;
	s = CARD_SUIT(card);
	top = st->pile[s][st->npile[s] - 1];
	if (stocks_is_face(top))
		return !stocks_is_face(card);
	nv = zero ? 0 : CARD_RANK(card) + 1;
	d = nv - st->value[s];
	return d <= stocks_up[s] && -d <= stocks_down[s];
}

/* Returns 1 if player p may take the action code now. */
static int
allowed(const struct stocks *st, int p, int64_t code)
{
	int kind, c, s, sh;

	if (st->over || p != st->turn)
		return 0;
	if (code == ST_END)
		return 1;
	if (code < ST_CODE(K_BUY, 0) || code > ST_CODE(K_DISCARD, 51))
		return 0;
	kind = ST_KIND(code);
	c = ST_CARD(code);
	if (c >= 52)
		return 0;
	s = CARD_SUIT(c);
	switch (kind) {
	case K_BUY:
		if (st->discards != 0 || st->trade == PH_CLOSED ||
		    st->buys >= ST_MAXBUYS || st->zero[s] || !in_hand(st, p, c))
			return 0;
		sh = stocks_card_shares(c);
		return st->shares[p][s] + sh <= ST_MAXSHARES &&
		    st->money[p] >= (int32_t)st->value[s] * sh;
	case K_SELL:
		return st->discards == 0 && st->trade != PH_CLOSED &&
		    sellable(st, p, c) > 0;
	case K_PRICE:
	case K_ZERO:
		if (st->discards != 0 || st->price == PH_CLOSED ||
		    st->prices >= ST_MAXPRICES || !in_hand(st, p, c))
			return 0;
		return price_ok(st, c, kind == K_ZERO);
	case K_DISCARD:
		return st->trade == PH_UNUSED && st->price == PH_UNUSED &&
		    st->discards < ST_MAXDISCARD && in_hand(st, p, c);
	}
	return 0;
}

/* Deals a game: price cards, hands, stock; see stocks.md's Setup. */
static void
stocks_init(void *vst, const struct opts *o, const void *vsetup,
    struct rng *r, struct events *ev)
{
	const struct stocks_setup *su = vsetup;
	struct stocks *st = vst;
	uint8_t turned[ST_DECK], deck[ST_DECK];
	uint8_t left[52];
	int nturned, ndeck, found, i, k, c, s, p, pos, nstock, prefix;

	memset(st, 0, sizeof *st);
	st->players = (int8_t)o->players;
	st->sell_same = (uint8_t)o->v[OPT_SELL_SAME];
	st->max_turns = (int32_t)o->v[OPT_MAX_TURNS];
	st->bank = (int32_t)o->v[OPT_BANK];
	for (p = 0; p < st->players; p++)
		st->money[p] = ST_START_MONEY;
	st->total = st->bank + ST_START_MONEY * st->players;
	st->joker_by = -1;

	/* The first shuffle: turn cards until every suit has a price card. */
	for (c = 0; c < 52; c++)
		left[c] = 2;
	if (su != NULL && su->nturn > 0) {
		nturned = su->nturn;
		memcpy(turned, su->turn, (size_t)nturned);
	} else {
		if (su != NULL)
			for (i = 0; i < su->ndeck; i++)
				left[su->deck[i]]--;
		for (nturned = 0, c = 0; c < 52; c++)
			for (k = 0; k < left[c]; k++)
				turned[nturned++] = (uint8_t)c;
		rng_shuffle8(r, turned, nturned);
		for (c = 0; c < 52; c++)
			left[c] = 2;
	}
	for (found = 0, i = 0; i < nturned && found < ST_NCOMP; i++) {
		c = turned[i];
		s = CARD_SUIT(c);
		if (!stocks_is_face(c) && st->npile[s] == 0) {
			st->pile[s][0] = (uint8_t)c;
			st->npile[s] = 1;
			st->value[s] = (int8_t)(CARD_RANK(c) + 1);
			left[c]--;
			found++;
			ev_push(ev, SEEN_ALL, EV_SETUP_CARD, 0, c, s, 0, 0, 0);
		} else
			ev_push(ev, SEEN_ALL, EV_SETUP_CARD, 0, c, -1, 0, 0, 0);
	}

	/* The second shuffle: the dealing deck, top first. */
	ndeck = 0;
	prefix = su != NULL ? su->ndeck : 0;
	for (i = 0; i < prefix; i++) {
		deck[ndeck++] = su->deck[i];
		left[su->deck[i]]--;
	}
	for (c = 0; c < 52; c++)
		for (k = 0; k < left[c]; k++)
			deck[ndeck++] = (uint8_t)c;
	rng_shuffle8(r, deck + prefix, ndeck - prefix);

	st->start = (int8_t)(su != NULL && su->start >= 0 ? su->start :
	    (int)rng_below(r, (uint32_t)st->players));
	ev_push(ev, SEEN_ALL, EV_START, 0, st->start, 0, 0, 0, 0);
	pos = 0;
	for (k = 0; k < ST_HAND / 2; k++)
		for (i = 0; i < st->players; i++) {
			p = (st->start + i) % st->players;
			hand_add(st, p, deck[pos++]);
			hand_add(st, p, deck[pos++]);
		}
	for (i = 0; i < st->players; i++) {
		for (k = 0; k < st->nhand[i]; k++)
			ev_push(ev, 1u << i, EV_DRAW, 0, i, st->hand[i][k], 0,
			    0, 0);
		ev_push(ev, SEEN_ALL, EV_DRAWN, 0, i, st->nhand[i], 0, 0, 0);
	}
	nstock = ndeck - pos;
	if (su != NULL && su->stock >= 0 && su->stock < nstock)
		nstock = su->stock;
	for (i = 0; i < nstock; i++)
		st->stock[nstock - 1 - i] = deck[pos + i];
	st->nstock = (uint8_t)nstock;
	for (i = pos + nstock; i < ndeck; i++)
		st->discard[st->ndiscard++] = deck[i];
	if (su != NULL) {
		st->nresh = (uint8_t)su->nresh;
		memcpy(st->resh, su->resh, (size_t)su->nresh);
	}
	new_turn(st, st->start, ev);
}

/* Starts player p's turn. */
static void
new_turn(struct stocks *st, int p, struct events *ev)
{
	st->turn = (int8_t)p;
	st->trade = st->price = PH_UNUSED;
	st->buys = st->nbought = st->prices = st->discards = 0;
	ev_push(ev, SEEN_ALL, EV_TURN, 0, p, st->turns + 1, 0, 0, 0);
}

/* The player on turn decides; nobody once the game is over. */
static uint32_t
stocks_deciders(const void *vst)
{
	const struct stocks *st = vst;

	return st->over ? 0 : 1u << st->turn;
}

/*
 * Lists end, buys, sells, price cards and discards, in that order; the
 * same conditions as allowed(), checked once per list where they can be.
 */
static int
stocks_legal(const void *vst, int p, struct legal *l, int max)
{
	const struct stocks *st = vst;
	int n = 0, i, c, s, sh, can_trade, can_buy, can_price, can_discard;

	if (st->over || p != st->turn || max < 1)
		return 0;
	l[n++] = (struct legal){ .code = ST_END };
	can_trade = st->discards == 0 && st->trade != PH_CLOSED;
	can_buy = can_trade && st->buys < ST_MAXBUYS;
	can_price = st->discards == 0 && st->price != PH_CLOSED &&
	    st->prices < ST_MAXPRICES;
	can_discard = st->trade == PH_UNUSED && st->price == PH_UNUSED &&
	    st->discards < ST_MAXDISCARD;
	for (i = 0; can_buy && i < st->nhand[p] && n < max; i++) {
		c = st->hand[p][i];
		if (i > 0 && st->hand[p][i - 1] == c)
			continue;
		s = CARD_SUIT(c);
		sh = stocks_card_shares(c);
		if (!st->zero[s] && st->shares[p][s] + sh <= ST_MAXSHARES &&
		    st->money[p] >= (int32_t)st->value[s] * sh)
			l[n++] = (struct legal){ .code = ST_CODE(K_BUY, c) };
	}
	for (c = 0; can_trade && c < 52 && n < max; c++)
		if (st->cert[p][c] != 0 && sellable(st, p, c) > 0)
			l[n++] = (struct legal){ .code = ST_CODE(K_SELL, c) };
	for (i = 0; can_price && i < st->nhand[p] && n < max; i++) {
		c = st->hand[p][i];
		if (i > 0 && st->hand[p][i - 1] == c)
			continue;
		if (price_ok(st, c, 0))
			l[n++] = (struct legal){ .code = ST_CODE(K_PRICE, c) };
		if (n < max && stocks_is_face(c) && price_ok(st, c, 1))
			l[n++] = (struct legal){ .code = ST_CODE(K_ZERO, c) };
	}
	for (i = 0; can_discard && i < st->nhand[p] && n < max; i++) {
		c = st->hand[p][i];
		if (i == 0 || st->hand[p][i - 1] != c)
			l[n++] = (struct legal){ .code = ST_CODE(K_DISCARD, c) };
	}
	return n;
}

/*
 * Pays amount to player p from the bank.  A bank that holds less first
 * takes $100 from every player (all they have, and debt for the rest) until
 * it can pay; the payee's debt is paid back out of the amount.
 */
static void
bank_pay(struct stocks *st, int p, int32_t amount, struct events *ev,
    int32_t *repaid)
{
	int32_t pay, r;
	int q;

	while (st->bank < amount) {
		ev_push(ev, SEEN_ALL, EV_BANK_SHORT, 0, amount, st->bank, 0, 0,
		    0);
		for (q = 0; q < st->players; q++) {
			pay = st->money[q] < ST_LEVY ? st->money[q] : ST_LEVY;
			st->money[q] -= pay;
			st->bank += pay;
			st->debt[q] += ST_LEVY - pay;
			ev_push(ev, SEEN_ALL, EV_LEVY, 0, q, pay, ST_LEVY - pay,
			    0, 0);
		}
	}
	st->bank -= amount;
	r = st->debt[p] < amount ? st->debt[p] : amount;
	st->debt[p] -= r;
	st->bank += r;
	st->money[p] += amount - r;
	*repaid = r;
}

/* Company s goes bankrupt: every certificate of it is discarded. */
static void
bankrupt(struct stocks *st, int s, struct events *ev)
{
	int q, c, k, n, lost, total = 0, i;

	for (q = 0; q < st->players; q++) {
		lost = 0;
		for (k = 0; k < 13; k++) {
			c = CARD(s, k);
			for (n = st->cert[q][c]; n > 0; n--) {
				st->discard[st->ndiscard++] = (uint8_t)c;
				total++;
			}
			st->cert[q][c] = 0;
		}
		lost = st->shares[q][s];
		st->shares[q][s] = 0;
		if (lost > 0)
			ev_push(ev, SEEN_ALL, EV_LOSE, 0, q, s, lost, 0, 0);
	}
	/* Forget this turn's purchases of the company: they are gone. */
	for (i = 0; i < st->nbought; ) {
		if (CARD_SUIT(st->bought[i]) == s) {
			st->bought[i] = st->bought[--st->nbought];
		} else
			i++;
	}
	ev_push(ev, SEEN_ALL, EV_BANKRUPT, 0, s, total, 0, 0, 0);
}

/*
 * Makes a new stock of the old stock, the discards, the price cards under
 * the top ones and the jokers (the first time); shuffles it.
 */
static void
reshuffle(struct stocks *st, struct rng *r, struct events *ev)
{
	int n, s, k, top, i, from_stock, from_piles, added = 0;

	n = from_stock = st->nstock;
	for (i = 0; i < st->ndiscard; i++)
		st->stock[n++] = st->discard[i];
	from_piles = 0;
	for (s = 0; s < ST_NCOMP; s++) {
		for (i = 0; i + 1 < st->npile[s]; i++)
			st->stock[n++] = st->pile[s][i];
		from_piles += st->npile[s] - 1;
		st->pile[s][0] = st->pile[s][st->npile[s] - 1];
		st->npile[s] = 1;
	}
	if (!st->jokers_in) {
		st->stock[n++] = JOKER;
		st->stock[n++] = JOKER + 1;
		st->jokers_in = 1;
		added = 2;
	}
	rng_shuffle8(r, st->stock, n);
	/* A --setup order puts the listed cards on top, in order. */
	top = n - 1;
	for (k = 0; k < st->nresh && top >= 0; k++) {
		for (i = top; i >= 0; i--)
			if (st->stock[i] == st->resh[k] ||
			    (IS_JOKER(st->resh[k]) && IS_JOKER(st->stock[i])))
				break;
		if (i < 0)
			continue;
		s = st->stock[i];
		st->stock[i] = st->stock[top];
		st->stock[top--] = (uint8_t)s;
	}
	st->nresh = 0;
	ev_push(ev, SEEN_ALL, EV_RESHUFFLE, 0, n, added, from_stock,
	    st->ndiscard, from_piles);
	st->ndiscard = 0;
	st->nstock = (uint8_t)n;
}

/* Refills player p's hand to 8; a joker drawn ends the game. */
static void
refill(struct stocks *st, int p, struct rng *r, struct events *ev)
{
	int need, got = 0, c;

	need = ST_HAND - st->nhand[p];
	if (need <= 0) {
		/* Told like any refill, so every turn ends with one. */
		ev_push(ev, SEEN_ALL, EV_DRAWN, 0, p, 0, 1, 0, 0);
		return;
	}
	if (st->nstock < need)
		reshuffle(st, r, ev);
	while (st->nhand[p] < ST_HAND && st->nstock > 0) {
		c = st->stock[--st->nstock];
		if (IS_JOKER(c)) {
			st->jokers_out++;
			st->joker_by = (int8_t)p;
			st->over = 1;
			ev_push(ev, SEEN_ALL, EV_DRAWN, 0, p, got, 1, 0, 0);
			ev_push(ev, SEEN_ALL, EV_JOKER, 0, p, 0, 0, 0, 0);
			return;
		}
		hand_add(st, p, c);
		ev_push(ev, 1u << p, EV_DRAW, 0, p, c, 0, 0, 0);
		got++;
	}
	ev_push(ev, SEEN_ALL, EV_DRAWN, 0, p, got, 1, 0, 0);
}

/* Ends the turn: refill, count it, and pass on or end the game. */
static void
end_turn(struct stocks *st, struct rng *r, struct events *ev)
{
	int p = st->turn;

	refill(st, p, r, ev);
	st->turns++;
	st->trade = st->price = PH_UNUSED;
	st->buys = st->nbought = st->prices = st->discards = 0;
	ev_push(ev, SEEN_ALL, EV_END_TURN, 0, p, st->turns, 0, 0, 0);
	if (!st->over && st->turns >= st->max_turns) {
		st->over = 1;
		st->capped = 1;
	}
	if (st->over) {
		ev_push(ev, SEEN_ALL, EV_GAME_OVER, 0, st->capped, 0, 0, 0, 0);
		return;
	}
	new_turn(st, (p + 1) % st->players, ev);
}

/* Applies one decision of the player on turn; -1 if it is not legal. */
static int
stocks_apply(void *vst, int p, struct action a, struct rng *r,
    struct events *ev)
{
	struct stocks *st = vst;
	int32_t cost, repaid;
	int c, s, sh, kind, old, i;

	if (a.amount != 0 || !allowed(st, p, a.code))
		return -1;
	if (a.code == ST_END) {
		end_turn(st, r, ev);
		return 0;
	}
	kind = ST_KIND(a.code);
	c = ST_CARD(a.code);
	s = CARD_SUIT(c);
	sh = stocks_card_shares(c);
	switch (kind) {
	case K_BUY:
		cost = (int32_t)st->value[s] * sh;
		hand_remove(st, p, c);
		st->cert[p][c]++;
		st->shares[p][s] += (uint8_t)sh;
		st->money[p] -= cost;
		st->bank += cost;
		st->bought[st->nbought++] = (uint8_t)c;
		st->buys++;
		st->trade = PH_OPEN;
		if (st->price == PH_OPEN)
			st->price = PH_CLOSED;
		ev_push(ev, SEEN_ALL, EV_BUY, 0, p, c, sh, cost, 0);
		break;
	case K_SELL:
		st->cert[p][c]--;
		st->shares[p][s] -= (uint8_t)sh;
		st->discard[st->ndiscard++] = (uint8_t)c;
		/* With sell_same_turn, a sold purchase leaves the list. */
		for (i = 0, old = 0; i < st->nbought; i++)
			old += st->bought[i] == c;
		if (old > st->cert[p][c])
			for (i = 0; i < st->nbought; i++)
				if (st->bought[i] == c) {
					st->bought[i] = st->bought[--st->nbought];
					break;
				}
		st->trade = PH_OPEN;
		if (st->price == PH_OPEN)
			st->price = PH_CLOSED;
		bank_pay(st, p, (int32_t)st->value[s] * sh, ev, &repaid);
		ev_push(ev, SEEN_ALL, EV_SELL, 0, p, c, sh,
		    (int32_t)st->value[s] * sh, repaid);
		break;
	case K_PRICE:
	case K_ZERO:
		old = st->value[s];
		hand_remove(st, p, c);
		st->pile[s][st->npile[s]++] = (uint8_t)c;
		st->zero[s] = kind == K_ZERO;
		st->value[s] = (int8_t)(kind == K_ZERO ? 0 : CARD_RANK(c) + 1);
		st->prices++;
		st->price = PH_OPEN;
		if (st->trade == PH_OPEN)
			st->trade = PH_CLOSED;
		ev_push(ev, SEEN_ALL, EV_PRICE, 0, p, c, s, old, st->value[s]);
		if (kind == K_ZERO)
			bankrupt(st, s, ev);
		break;
	case K_DISCARD:
		hand_remove(st, p, c);
		st->discard[st->ndiscard++] = (uint8_t)c;
		st->discards++;
		ev_push(ev, SEEN_ALL, EV_DISCARD, 0, p, c, 0, 0, 0);
		break;
	}
	return 0;
}

/* Ending the turn is always legal. */
static struct action
stocks_default_action(const void *vst, int p)
{
	return (struct action){ .code = ST_END, .amount = 0 };
}

/* 1 once a joker was drawn or max_turns was reached. */
static int
stocks_over(const void *vst)
{
	const struct stocks *st = vst;

	return st->over;
}

/* Scores are the players' wealth; the highest places first. */
static void
stocks_result(const void *vst, int *places, double *scores)
{
	const struct stocks *st = vst;
	int p;

	for (p = 0; p < st->players; p++)
		scores[p] = stocks_wealth(st, p);
	places_from_scores(st->players, scores, places);
}

/*
 * Checks each player's hand (size, order) and certificates (the shares
 * cached, none of a bankrupt company), counting their cards into count.
 */
static int
holdings_check(const struct stocks *st, int *count, char *why, size_t len)
{
	int p, s, c, i, k, sh;

	for (p = 0; p < st->players; p++) {
		if (st->nhand[p] > ST_HAND) {
			snprintf(why, len, "player %d holds %d cards", p,
			    st->nhand[p]);
			return -1;
		}
		for (i = 0; i < st->nhand[p]; i++) {
			count[st->hand[p][i]]++;
			if (i > 0 && st->hand[p][i - 1] > st->hand[p][i]) {
				snprintf(why, len, "hand %d not sorted", p);
				return -1;
			}
		}
		for (c = 0; c < 52; c++)
			count[c] += st->cert[p][c];
		if (!st->over && p != st->turn && st->nhand[p] != ST_HAND) {
			snprintf(why, len, "player %d waits with %d cards", p,
			    st->nhand[p]);
			return -1;
		}
		for (s = 0; s < ST_NCOMP; s++) {
			for (sh = 0, k = 0; k < 13; k++)
				sh += st->cert[p][CARD(s, k)] *
				    stocks_card_shares(CARD(s, k));
			if (sh != st->shares[p][s] || sh > ST_MAXSHARES) {
				snprintf(why, len, "player %d: %d shares of "
				    "company %d (cached %d)", p, sh, s,
				    st->shares[p][s]);
				return -1;
			}
			if (sh > 0 && st->zero[s]) {
				snprintf(why, len, "player %d holds shares of "
				    "bankrupt company %d", p, s);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Checks the price stacks (each company's own cards, the price its top
 * card says), counting their cards into count.
 */
static int
piles_check(const struct stocks *st, int *count, char *why, size_t len)
{
	int s, c, i, k;

	for (s = 0; s < ST_NCOMP; s++) {
		if (st->npile[s] < 1) {
			snprintf(why, len, "company %d has no price card", s);
			return -1;
		}
		for (i = 0; i < st->npile[s]; i++) {
			c = st->pile[s][i];
			count[c]++;
			if (IS_JOKER(c) || CARD_SUIT(c) != s) {
				snprintf(why, len, "a foreign card on price "
				    "stack %d", s);
				return -1;
			}
		}
		c = st->pile[s][st->npile[s] - 1];
		k = st->zero[s] ? 0 : CARD_RANK(c) + 1;
		if (st->value[s] != k || (st->zero[s] && !stocks_is_face(c))) {
			snprintf(why, len, "company %d priced %d under %d", s,
			    st->value[s], c);
			return -1;
		}
	}
	return 0;
}

/*
 * Checks the conservation of cards: each of the 52 twice, the jokers in
 * the stock until drawn, in no hand and never discarded.
 */
static int
cards_check(const struct stocks *st, char *why, size_t len)
{
	int count[54], total, p, c, i;

	memset(count, 0, sizeof count);
	total = 0;
	if (holdings_check(st, count, why, len) == -1)
		return -1;
	for (i = 0; i < st->nstock; i++)
		count[st->stock[i]]++;
	for (i = 0; i < st->ndiscard; i++)
		count[st->discard[i]]++;
	if (piles_check(st, count, why, len) == -1)
		return -1;
	for (c = 0; c < 54; c++)
		total += count[c];
	if (count[JOKER] + count[JOKER + 1] + st->jokers_out !=
	    (st->jokers_in ? 2 : 0) ||
	    count[JOKER] > 1 || count[JOKER + 1] > 1) {
		snprintf(why, len, "jokers: %d and %d in play, %d drawn",
		    count[JOKER], count[JOKER + 1], st->jokers_out);
		return -1;
	}
	if (total + st->jokers_out != ST_DECK + (st->jokers_in ? 2 : 0)) {
		snprintf(why, len, "%d cards instead of %d", total +
		    st->jokers_out, ST_DECK + (st->jokers_in ? 2 : 0));
		return -1;
	}
	for (c = 0; c < 52; c++)
		if (count[c] != 2) {
			snprintf(why, len, "card %d appears %d times", c,
			    count[c]);
			return -1;
		}
	for (p = 0; p < st->players; p++)
		for (i = 0; i < st->nhand[p]; i++)
			if (IS_JOKER(st->hand[p][i])) {
				snprintf(why, len, "a joker in a hand");
				return -1;
			}
	for (i = 0; i < st->ndiscard; i++)
		if (IS_JOKER(st->discard[i])) {
			snprintf(why, len, "a joker discarded");
			return -1;
		}
	return 0;
}

/* Checks the conservation of money: the bank and no one in the red. */
static int
money_check(const struct stocks *st, char *why, size_t len)
{
	int32_t money;
	int p;

	money = st->bank;
	if (st->bank < 0) {
		snprintf(why, len, "the bank holds %d", st->bank);
		return -1;
	}
	for (p = 0; p < st->players; p++) {
		if (st->money[p] < 0 || st->debt[p] < 0 ||
		    (st->debt[p] > 0 && st->money[p] > 0)) {
			snprintf(why, len, "player %d: money %d, debt %d", p,
			    st->money[p], st->debt[p]);
			return -1;
		}
		money += st->money[p];
	}
	if (money != st->total) {
		snprintf(why, len, "money %d instead of %d", money, st->total);
		return -1;
	}
	return 0;
}

/*
 * Checks the turn's state (its phases, the purchases it holds) and the
 * end (the first joker drawn, or the cap).
 */
static int
turn_check(const struct stocks *st, char *why, size_t len)
{
	int i;

	if (st->buys > ST_MAXBUYS || st->prices > ST_MAXPRICES ||
	    st->discards > ST_MAXDISCARD ||
	    (st->discards > 0 && (st->trade != PH_UNUSED ||
	    st->price != PH_UNUSED)) ||
	    (st->trade == PH_CLOSED && st->price != PH_OPEN) ||
	    (st->price == PH_CLOSED && st->trade != PH_OPEN)) {
		snprintf(why, len, "turn state: trade %d price %d buys %d "
		    "prices %d discards %d", st->trade, st->price, st->buys,
		    st->prices, st->discards);
		return -1;
	}
	if (st->nbought > st->buys) {
		snprintf(why, len, "%d purchases held of %d", st->nbought,
		    st->buys);
		return -1;
	}
	for (i = 0; i < st->nbought; i++)
		if (sellable(st, st->turn, st->bought[i]) < 0 ||
		    st->cert[st->turn][st->bought[i]] == 0) {
			snprintf(why, len, "a purchase of this turn is not "
			    "held");
			return -1;
		}
	if (st->turns > st->max_turns ||
	    !!st->over != (st->jokers_out > 0 || st->turns >= st->max_turns) ||
	    (st->capped && st->jokers_out > 0)) {
		snprintf(why, len, "end: over %d capped %d turns %d jokers "
		    "drawn %d", st->over, st->capped, st->turns,
		    st->jokers_out);
		return -1;
	}
	return 0;
}

/* Checks conservation of cards and money and the game's invariants. */
static int
stocks_check(const void *vst, char *why, size_t len)
{
	const struct stocks *st = vst;

	if (cards_check(st, why, len) == -1 ||
	    money_check(st, why, len) == -1 || turn_check(st, why, len) == -1)
		return -1;
	return 0;
}

/*
 * Re-deals what seat cannot see: the other players' hands and the stock's
 * order (the jokers stay in the stock, as everyone knows they are there).
 */
static void
stocks_perturb(void *vst, int seat, struct rng *r)
{
	struct stocks *st = vst;
	uint8_t pool[ST_CARDS], joker[2];
	int n = 0, p, i, k, jokers = 0, sizes[ST_MAXP];

	for (p = 0; p < st->players; p++) {
		sizes[p] = st->nhand[p];
		if (p == seat)
			continue;
		for (i = 0; i < st->nhand[p]; i++)
			pool[n++] = st->hand[p][i];
		st->nhand[p] = 0;
	}
	for (i = 0; i < st->nstock; i++) {
		if (IS_JOKER(st->stock[i]))
			joker[jokers++] = st->stock[i];
		else
			pool[n++] = st->stock[i];
	}
	rng_shuffle8(r, pool, n);
	k = 0;
	for (p = 0; p < st->players; p++) {
		if (p == seat)
			continue;
		for (i = 0; i < sizes[p]; i++)
			hand_add(st, p, pool[k++]);
	}
	for (i = 0; k < n; i++)
		st->stock[i] = pool[k++];
	for (k = 0; k < jokers; k++)
		st->stock[i++] = joker[k];
	rng_shuffle8(r, st->stock, st->nstock);
}
