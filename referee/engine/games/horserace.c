/*
 * Horse Race (horserace.md, original shared/seeds/004): the four aces are horses,
 * cards turned from the stock move the horse of their suit, and the players
 * bet on the race against the dealer, who deals in turn.  This file holds
 * the rules: the options, the deal with its odds cards and re-lays, the
 * sealed simultaneous bets (win, exacta, trifecta, daily double), the
 * dealer's choice of odds, the race, the payouts with debt, and the
 * Calcutta variant whose aces are auctioned with the shared ascending
 * auction.  The JSON codec is in horserace_json.c.
 *
 * Seats are clockwise in increasing order: the dealer's left is seat
 * dealer + 1.  Between decisions no race is under way: a race is run, from
 * the first card to the payouts, inside the apply() of the decision that
 * completes its bets (or its auctions), and the next race is dealt there
 * too.
 */
#include <stdio.h>
#include <string.h>

#include "horserace.h"

static int	hr_resolve(struct opts *, char *, size_t);
static void	hr_init(void *, const struct opts *, const void *, struct rng *,
		    struct events *);
static uint32_t	hr_deciders(const void *);
static int	hr_legal(const void *, int, struct legal *, int);
static int	hr_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action hr_default_action(const void *, int);
static int	hr_over(const void *);
static void	hr_result(const void *, int *, double *);
static int	hr_check(const void *, char *, size_t);
static void	hr_perturb(void *, int, struct rng *);

static int	dealer_of(const struct hr_state *, int);
static int	dd_offered(const struct hr_state *);
static void	proceed(struct hr_state *, struct rng *, struct events *);
static void	deal(struct hr_state *, struct rng *, struct events *);
static void	shuffle(struct hr_state *, struct rng *);
static void	table_odds(struct hr_state *, struct events *);
static void	open_bets(struct hr_state *, struct events *);
static void	reveal(struct hr_state *, struct events *);
static int	run_race(const int8_t *, int, int, int, int8_t *, int8_t *,
		    struct events *);
static void	race(struct hr_state *, struct events *);
static void	settle(struct hr_state *, struct events *);
static void	settle_calcutta(struct hr_state *, struct events *);
static int64_t	odds_product(const struct hr_state *, int);
static void	counters(const struct hr_state *, int32_t *);
static void	begin_auction(struct hr_state *, struct events *);
static void	sold(struct hr_state *, struct events *);
static void	end_game(struct hr_state *, struct events *);
static uint64_t	pack_cards(const int8_t *, int);
static int	player_bits(const struct hr_state *);
static int	valid(const struct hr_state *, int, struct action);
static int	chips_check(const struct hr_state *, char *, size_t);
static int	deck_check(const struct hr_state *, char *, size_t);
static int	odds_check(const struct hr_state *, char *, size_t);
static int	bets_check(const struct hr_state *, char *, size_t);
static int	auction_check(const struct hr_state *, char *, size_t);
static int	last_race_check(const struct hr_state *, char *, size_t);

static const char *const hr_bets_choices[] = {
	"win", "exacta", "trifecta", "daily_double", NULL
};
static const long hr_odds_default[5] = { 1, 2, 3, 5, 10 };

static const struct optdesc hr_options[] = {
	[HO_RACES] = { .name = "races", .type = OPT_INT, .min = 1, .max = 200,
	    .def = 0, .def_text = "players (2 x players with daily_double)",
	    .help = "races in a game; the dealer passes clockwise after each "
	    "race (after each two with daily_double: then even)" },
	[HO_STACK] = { .name = "stack", .type = OPT_INT, .min = 1,
	    .max = 1000000, .def = 150,
	    .help = "chips each player starts with" },
	[HO_BET_LIMIT] = { .name = "bet_limit", .type = OPT_INT, .min = 1,
	    .max = 10000, .def = 20,
	    .help = "most chips a player may bet in one race, all kinds of "
	    "bet together (not in calcutta)" },
	[HO_ODDS_TABLE] = { .name = "odds_table", .type = OPT_LIST, .min = 1,
	    .max = 100, .def_list = hr_odds_default, .len = 5,
	    .help = "the odds of a suit with 0, 1, 2, 3, 4 odds cards "
	    "(not in calcutta)" },
	[HO_DEALER_SETS_ODDS] = { .name = "dealer_sets_odds", .type = OPT_BOOL,
	    .def = 0, .help = "the dealer chooses each suit's odds, 1-20, "
	    "instead of the table (not in calcutta)" },
	[HO_JOKER] = { .name = "joker", .type = OPT_BOOL, .def = 0,
	    .help = "a joker joins the deck: re-lay if among the odds cards; "
	    "in the race it moves every running horse but the leaders" },
	[HO_BETS] = { .name = "bets", .type = OPT_SET,
	    .def = HR_BETS_WIN, .choices = hr_bets_choices,
	    .help = "the kinds of bet on offer (not in calcutta)" },
	[HO_DD_MULTIPLIER] = { .name = "dd_multiplier", .type = OPT_INT,
	    .min = 2, .max = 3, .def = 2,
	    .help = "the daily double pays stake x odds x odds x this" },
	[HO_CALCUTTA] = { .name = "calcutta", .type = OPT_BOOL, .def = 0,
	    .help = "the Calcutta Horse Race: the aces are auctioned into a "
	    "pot shared 2/3 and 1/3 by the owners of the first two horses" },
	{ .name = NULL }
};

const struct game game_horserace = {
	.name = "horserace",
	.title = "Horse Race (and the Calcutta Horse Race)",
	.min_players = 3,
	.max_players = HR_MAXP,
	.default_players = 5,
	.options = hr_options,
	.state_size = sizeof(struct hr_state),
	.setup_size = sizeof(struct hr_setup),
	.resolve = hr_resolve,
	.init = hr_init,
	.deciders = hr_deciders,
	.legal = hr_legal,
	.apply = hr_apply,
	.default_action = hr_default_action,
	.over = hr_over,
	.result = hr_result,
	.check = hr_check,
	.perturb = hr_perturb,
	.action_parse = hr_action_parse,
	.setup_parse = hr_setup_parse,
	.view_write = hr_view_write,
	.action_write = hr_action_write,
	.event_write = hr_event_write,
	.determinize = hr_determinize
};

/* Returns the kind of bet of target t. */
int
hr_target_kind(int t)
{
	if (t < HR_T_EXACTA)
		return HR_WIN;
	if (t < HR_T_TRIFECTA)
		return HR_EXACTA;
	if (t < HR_T_DD)
		return HR_TRIFECTA;
	return HR_DD;
}

/* Writes the suits of target t; returns how many there are. */
int
hr_target_suits(int t, int s[3])
{
	int rest[3], i, k, r;

	switch (hr_target_kind(t)) {
	case HR_WIN:
		s[0] = t;
		return 1;
	case HR_EXACTA:
		i = t - HR_T_EXACTA;
		s[0] = i / 3;
		s[1] = i % 3 >= s[0] ? i % 3 + 1 : i % 3;
		return 2;
	case HR_TRIFECTA:
		i = t - HR_T_TRIFECTA;
		s[0] = i / 6;
		r = i % 6;
		for (k = 0, i = 0; i < 4; i++)
			if (i != s[0])
				rest[k++] = i;
		s[1] = rest[r / 2];
		for (k = 0, i = 0; i < 3; i++)
			if (rest[i] != s[1] && k++ == r % 2)
				s[2] = rest[i];
		return 3;
	default:
		i = t - HR_T_DD;
		s[0] = i / 4;
		s[1] = i % 4;
		return 2;
	}
}

/* Returns the target of a kind of bet on suits, or -1 if they do not fit. */
int
hr_target_index(int kind, const int *s)
{
	int rest[3], k, m, i;

	switch (kind) {
	case HR_WIN:
		return s[0] >= 0 && s[0] < 4 ? HR_T_WIN + s[0] : -1;
	case HR_EXACTA:
		if (s[0] < 0 || s[0] > 3 || s[1] < 0 || s[1] > 3 ||
		    s[0] == s[1])
			return -1;
		return HR_T_EXACTA + s[0] * 3 + (s[1] > s[0] ? s[1] - 1 : s[1]);
	case HR_TRIFECTA:
		for (i = 0; i < 3; i++)
			if (s[i] < 0 || s[i] > 3)
				return -1;
		if (s[0] == s[1] || s[0] == s[2] || s[1] == s[2])
			return -1;
		for (k = 0, i = 0; i < 4; i++)
			if (i != s[0])
				rest[k++] = i;
		for (k = 0; rest[k] != s[1]; k++)
			;
		for (m = 0, i = 0; i < 3; i++)
			if (rest[i] != s[1]) {
				if (rest[i] == s[2])
					break;
				m++;
			}
		return HR_T_TRIFECTA + s[0] * 6 + k * 2 + m;
	case HR_DD:
		if (s[0] < 0 || s[0] > 3 || s[1] < 0 || s[1] > 3)
			return -1;
		return HR_T_DD + s[0] * 4 + s[1];
	}
	return -1;
}

/* Returns 1 if bets of kind may be placed in the race being set. */
int
hr_kind_offered(const struct hr_state *st, int kind)
{
	if (st->calcutta || !(st->bets & (1 << kind)))
		return 0;
	return kind != HR_DD || st->race % 2 == 0;
}

/* Returns how many more chips player may still bet in this race. */
int32_t
hr_left(const struct hr_state *st, int p)
{
	int64_t cap;

	cap = st->chips[p] < st->bet_limit ? st->chips[p] : st->bet_limit;
	if (cap < 0)
		cap = 0;
	return cap > st->ptotal[p] ? (int32_t)(cap - st->ptotal[p]) : 0;
}

/* Returns 1 if the daily double is played (each dealer deals two races). */
static int
dd_offered(const struct hr_state *st)
{
	return !st->calcutta && (st->bets & HR_BETS_DD);
}

/* Returns the dealer of race r (0-based). */
static int
dealer_of(const struct hr_state *st, int r)
{
	return (st->first_dealer + (dd_offered(st) ? r / 2 : r)) % st->players;
}

/* Returns the mask of all the seats. */
static int
player_bits(const struct hr_state *st)
{
	return (1 << st->players) - 1;
}

/* Fills the computed default of races; rejects an odd one with daily_double. */
static int
hr_resolve(struct opts *o, char *cause, size_t len)
{
	int dd;

	dd = !o->v[HO_CALCUTTA] && (o->v[HO_BETS] & HR_BETS_DD);
	if (!o->given[HO_RACES])
		o->v[HO_RACES] = (dd ? 2 : 1) * o->players;
	else if (dd && o->v[HO_RACES] % 2 != 0) {
		snprintf(cause, len, "races must be even with daily_double "
		    "(each dealer deals two races in a row), not %ld",
		    o->v[HO_RACES]);
		return -1;
	}
	return 0;
}

/* Sets the fields of st that the options decide (not the chips). */
void
hr_set_options(struct hr_state *st, const struct opts *o)
{
	int k;

	st->players = (int8_t)o->players;
	st->races = (int16_t)o->v[HO_RACES];
	st->bet_limit = (int32_t)o->v[HO_BET_LIMIT];
	for (k = 0; k < 5; k++)
		st->odds_table[k] = (int32_t)o->list[HO_ODDS_TABLE][k];
	st->dso = (int8_t)o->v[HO_DEALER_SETS_ODDS];
	st->joker = (int8_t)o->v[HO_JOKER];
	st->bets = (int8_t)o->v[HO_BETS];
	st->dd_mult = (int8_t)o->v[HO_DD_MULTIPLIER];
	st->calcutta = (int8_t)o->v[HO_CALCUTTA];
	if (st->calcutta)
		st->need = 2;
	else if (st->bets & HR_BETS_TRI)
		st->need = 3;
	else if (st->bets & HR_BETS_EXACTA)
		st->need = 2;
	else
		st->need = 1;
}

/* Deals a new game and runs it to its first decision. */
static void
hr_init(void *vst, const struct opts *o, const void *vsetup, struct rng *r,
    struct events *ev)
{
	struct hr_state *st = vst;
	const struct hr_setup *su = vsetup;
	int p, i;

	memset(st, 0, sizeof *st);
	hr_set_options(st, o);
	st->total = (int64_t)o->players * o->v[HO_STACK];
	for (p = 0; p < st->players; p++)
		st->chips[p] = o->v[HO_STACK];
	st->dd_w1 = -1;
	for (i = 0; i < 4; i++)
		st->owner[i] = -1;
	st->auc.turn = -1;
	if (su != NULL) {
		st->nsdecks = (int8_t)su->ndecks;
		for (i = 0; i < su->ndecks; i++) {
			st->sdeck_len[i] = (int8_t)su->len[i];
			memcpy(st->sdeck[i], su->deck[i], HR_DECK);
		}
	}
	if (su != NULL && su->dealer >= 0)
		st->first_dealer = (int8_t)su->dealer;
	else
		st->first_dealer = (int8_t)rng_below(r, (uint32_t)st->players);
	st->race = 0;
	st->phase = HP_DEAL;
	proceed(st, r, ev);
}

/*
 * Runs everything that needs no decision (deals, re-lays, races, payouts,
 * auctions ending) until someone must decide or the game is over.
 */
static void
proceed(struct hr_state *st, struct rng *r, struct events *ev)
{
	for (;;) {
		switch (st->phase) {
		case HP_DEAL:
			if (st->race >= st->races) {
				end_game(st, ev);
				st->phase = HP_OVER;
				return;
			}
			deal(st, r, ev);
			if (st->calcutta) {
				st->asuit = 0;
				begin_auction(st, ev);
				st->phase = HP_AUCTION;
			} else if (st->dso) {
				st->odds_suit = 0;
				st->phase = HP_ODDS;
			} else {
				table_odds(st, ev);
				open_bets(st, ev);
			}
			break;
		case HP_ODDS:
			if (st->odds_suit < 4)
				return;
			ev_push(ev, SEEN_ALL, HE_ODDS, 0, st->odds[0],
			    st->odds[1], st->odds[2], st->odds[3], 0);
			open_bets(st, ev);
			break;
		case HP_BET:
			if (st->waiting != 0)
				return;
			reveal(st, ev);
			race(st, ev);
			break;
		case HP_AUCTION:
			if (!auction_over(&st->auc))
				return;
			sold(st, ev);
			if (++st->asuit < 4)
				begin_auction(st, ev);
			else
				race(st, ev);
			break;
		case HP_OVER:
			return;
		}
	}
}

/* Starts race st->race: its dealer, the shuffle and the odds cards. */
static void
deal(struct hr_state *st, struct rng *r, struct events *ev)
{
	int i, c, bad;

	st->dealer = (int8_t)dealer_of(st, st->race);
	ev_push(ev, SEEN_ALL, HE_RACE, st->race, st->dealer, 0, 0, 0, 0);
	st->relays = 0;
	for (;;) {
		shuffle(st, r);
		memset(st->count, 0, sizeof st->count);
		bad = 0;
		for (i = 0; i < HR_NODDS; i++) {
			c = st->deck[i];
			if (IS_JOKER(c))
				bad = 1;
			else if (++st->count[CARD_SUIT(c)] >= 5)
				bad = 1;
		}
		ev_push(ev, SEEN_ALL, HE_LAY, (int64_t)pack_cards(st->deck,
		    HR_NODDS), bad, 0, 0, 0, 0);
		if (!bad)
			break;
		st->relays++;
	}
	st->top = HR_NODDS;
	memset(st->odds, 0, sizeof st->odds);
}

/* Gathers the race deck and shuffles it, a --setup deck's cards on top. */
static void
shuffle(struct hr_state *st, struct rng *r)
{
	int used[54], n, i, k, c, len;

	memset(used, 0, sizeof used);
	n = 0;
	if (st->next_sdeck < st->nsdecks) {
		k = st->next_sdeck++;
		len = st->sdeck_len[k];
		for (i = 0; i < len; i++) {
			st->deck[n++] = st->sdeck[k][i];
			used[st->sdeck[k][i]] = 1;
		}
	} else
		len = 0;
	for (c = 0; c < 52; c++)
		if (CARD_RANK(c) != 0 && !used[c])
			st->deck[n++] = (int8_t)c;
	if (st->joker && !used[JOKER])
		st->deck[n++] = JOKER;
	st->ndeck = (int8_t)n;
	rng_shuffle8(r, st->deck + len, n - len);
}

/* Sets the odds from the table and the odds cards. */
static void
table_odds(struct hr_state *st, struct events *ev)
{
	int s;

	for (s = 0; s < 4; s++)
		st->odds[s] = st->odds_table[st->count[s]];
	ev_push(ev, SEEN_ALL, HE_ODDS, 0, st->odds[0], st->odds[1],
	    st->odds[2], st->odds[3], 0);
}

/* Opens the sealed bets: every player but the dealer who can bet. */
static void
open_bets(struct hr_state *st, struct events *ev)
{
	int p, k, any = 0;

	memset(st->stake, 0, sizeof st->stake);
	memset(st->ptotal, 0, sizeof st->ptotal);
	for (k = HR_WIN; k <= HR_DD; k++)
		any |= hr_kind_offered(st, k);
	st->waiting = 0;
	for (p = 0; p < st->players; p++)
		if (p != st->dealer && any && hr_left(st, p) > 0)
			st->waiting |= 1u << p;
	st->bettors = st->waiting;
	st->ndone = 0;
	st->phase = HP_BET;
	ev_push(ev, SEEN_ALL, HE_BETTING, st->waiting, 0, 0, 0, 0, 0);
}

/* All bets are in: shows them to everyone and puts the stakes down. */
static void
reveal(struct hr_state *st, struct events *ev)
{
	int i, p, t;

	memcpy(st->last_stake, st->stake, sizeof st->last_stake);
	/* Who finished when: each bettor was told only its own. */
	for (i = 0; i < st->ndone; i++) {
		p = st->done_order[i] & 0xf;
		ev_push(ev, SEEN_ALL & ~(1u << p), HE_DONE, 0, p,
		    (st->done_order[i] & 0x10) != 0, 0, 0, 0);
	}
	for (p = 0; p < st->players; p++) {
		for (t = 0; t < HR_NT; t++) {
			if (st->stake[p][t] == 0)
				continue;
			ev_push(ev, SEEN_ALL, HE_BET, 0, p, t, st->stake[p][t],
			    0, 0);
			if (t >= HR_T_DD) {
				st->dd[p][t - HR_T_DD] += st->stake[p][t];
				st->stake[p][t] = 0;
			}
		}
		st->chips[p] -= st->ptotal[p];
	}
}

/*
 * Turns cards deck[top..n) until need places are decided; fills progress
 * and order; returns the index after the last card turned.  Pure, so
 * check() can replay a race.
 */
static int
run_race(const int8_t *deck, int top, int n, int need, int8_t *progress,
    int8_t *order, struct events *ev)
{
	int places = 0, s, c, lead, moved;
	uint32_t done = 0;

	memset(progress, 0, 4);
	while (places < need && top < n) {
		c = deck[top++];
		if (IS_JOKER(c)) {
			lead = -1;
			for (s = 0; s < 4; s++)
				if (!(done & (1u << s)) && progress[s] > lead)
					lead = progress[s];
			moved = 0;
			for (s = 0; s < 4; s++)
				if (!(done & (1u << s)) && progress[s] < lead) {
					progress[s]++;
					moved |= 1 << s;
				}
			ev_push(ev, SEEN_ALL, HE_JOKER, 0, moved, 0, 0, 0, 0);
			continue;
		}
		s = CARD_SUIT(c);
		if (done & (1u << s)) {
			ev_push(ev, SEEN_ALL, HE_CARD, 0, c, -1, 0, 0, 0);
			continue;
		}
		progress[s]++;
		ev_push(ev, SEEN_ALL, HE_CARD, 0, c, progress[s], 0, 0, 0);
		if (progress[s] == HR_GOAL) {
			done |= 1u << s;
			order[places++] = (int8_t)s;
			ev_push(ev, SEEN_ALL, HE_FINISH, 0, s, places, 0, 0, 0);
		}
	}
	return top;
}

/* Runs the race just set, pays it and moves on to the next deal. */
static void
race(struct hr_state *st, struct events *ev)
{
	int end, nplaces;

	memset(st->last_order, -1, sizeof st->last_order);
	end = run_race(st->deck, st->top, st->ndeck, st->need,
	    st->last_progress, st->last_order, ev);
	for (nplaces = 0; nplaces < 4 && st->last_order[nplaces] >= 0;
	    nplaces++)
		;
	st->last_race_valid = 1;
	st->last_dealer = st->dealer;
	st->last_nplaces = (int8_t)nplaces;
	st->last_nturned = (int8_t)(end - st->top);
	memset(st->last_turned, 0, sizeof st->last_turned);
	memcpy(st->last_turned, st->deck + st->top, (size_t)(end - st->top));
	memcpy(st->last_odds_cards, st->deck, HR_NODDS);
	memcpy(st->last_odds, st->odds, sizeof st->odds);
	st->top = (int8_t)end;
	ev_push(ev, SEEN_ALL, HE_RACE_END, 0, nplaces, st->last_order[0],
	    st->last_order[1], st->last_order[2], 0);
	if (st->calcutta)
		settle_calcutta(st, ev);
	else
		settle(st, ev);
	st->race++;
	st->phase = HP_DEAL;
}

/* Returns what a winning bet on target t pays per chip staked. */
static int64_t
odds_product(const struct hr_state *st, int t)
{
	int s[3], n, i;
	int64_t m = 1;

	n = hr_target_suits(t, s);
	if (hr_target_kind(t) == HR_DD)
		return (int64_t)st->dd_o1 * st->odds[s[1]] * st->dd_mult;
	for (i = 0; i < n; i++)
		m *= st->odds[s[i]];
	return m;
}

/*
 * Pays the bets of the race just run: a winning bet keeps its stake and is
 * paid stake x odds by the dealer, even into debt; every other stake goes
 * to the dealer.  The daily double is settled after its second race.
 */
static void
settle(struct hr_state *st, struct events *ev)
{
	const int8_t *o = st->last_order;
	int p, t, s[3], n, i, win;
	int64_t paid;

	for (p = 0; p < st->players; p++) {
		for (t = 0; t < HR_T_DD; t++) {
			if (st->stake[p][t] == 0)
				continue;
			n = hr_target_suits(t, s);
			for (win = 1, i = 0; i < n; i++)
				if (i >= st->last_nplaces || o[i] != s[i])
					win = 0;
			paid = win ? st->stake[p][t] * odds_product(st, t) : 0;
			if (win) {
				st->chips[p] += st->stake[p][t] + paid;
				st->chips[st->dealer] -= paid;
			} else
				st->chips[st->dealer] += st->stake[p][t];
			ev_push(ev, SEEN_ALL, HE_SETTLE, paid, p, t,
			    st->stake[p][t], 0, 0);
			st->stake[p][t] = 0;
		}
		st->ptotal[p] = 0;
	}
	if (!dd_offered(st))
		return;
	if (st->race % 2 == 0) {
		st->dd_w1 = o[0];
		st->dd_o1 = st->odds[o[0]];
		return;
	}
	for (p = 0; p < st->players; p++)
		for (i = 0; i < 16; i++) {
			if (st->dd[p][i] == 0)
				continue;
			t = HR_T_DD + i;
			hr_target_suits(t, s);
			win = s[0] == st->dd_w1 && s[1] == o[0];
			paid = win ? st->dd[p][i] * odds_product(st, t) : 0;
			if (win) {
				st->chips[p] += st->dd[p][i] + paid;
				st->chips[st->dealer] -= paid;
			} else
				st->chips[st->dealer] += st->dd[p][i];
			ev_push(ev, SEEN_ALL, HE_SETTLE, paid, p, t,
			    st->dd[p][i], 0, 0);
			st->dd[p][i] = 0;
		}
	st->dd_w1 = -1;
	st->dd_o1 = 0;
}

/*
 * Shares the Calcutta pot: two thirds to the owner of the winner, one
 * third to the owner of the second (pot mod 3: 1 chip to the first, 2 one
 * each); an unowned horse's share stays in the pot.
 */
static void
settle_calcutta(struct hr_state *st, struct events *ev)
{
	int64_t third, rem, share[2];
	int i, s, w;

	memcpy(st->last_owner, st->owner, sizeof st->last_owner);
	memcpy(st->last_price, st->price, sizeof st->last_price);
	third = st->pot / 3;
	rem = st->pot % 3;
	share[0] = 2 * third + (rem >= 1);
	share[1] = third + (rem == 2);
	for (i = 0; i < 2 && i < st->last_nplaces; i++) {
		s = st->last_order[i];
		w = st->owner[s];
		if (w >= 0) {
			st->chips[w] += share[i];
			st->pot -= share[i];
		}
		ev_push(ev, SEEN_ALL, HE_SHARE, share[i], w, i + 1, s, 0, 0);
	}
	for (s = 0; s < 4; s++) {
		st->owner[s] = -1;
		st->price[s] = 0;
	}
}

/* Each player's chips as the auction's counters. */
static void
counters(const struct hr_state *st, int32_t *c)
{
	int p;

	for (p = 0; p < st->players; p++)
		c[p] = st->chips[p] < 0 ? 0 : st->chips[p] > INT32_MAX ?
		    INT32_MAX : (int32_t)st->chips[p];
}

/* Puts the ace of st->asuit up for auction, from the dealer's left. */
static void
begin_auction(struct hr_state *st, struct events *ev)
{
	int32_t c[HR_MAXP];

	counters(st, c);
	ev_push(ev, SEEN_ALL, HE_AUCTION, 0, st->asuit, 0, 0, 0, 0);
	auction_start(&st->auc, st->players, -1, (st->dealer + 1) %
	    st->players, 1, (uint32_t)player_bits(st), c);
}

/* The auction of st->asuit is over: the buyer pays the pot. */
static void
sold(struct hr_state *st, struct events *ev)
{
	int b = st->auc.high_bidder;

	st->owner[st->asuit] = (int8_t)b;
	if (b >= 0) {
		st->price[st->asuit] = st->auc.high;
		st->chips[b] -= st->auc.high;
		st->pot += st->auc.high;
	}
	ev_push(ev, SEEN_ALL, HE_SOLD, 0, st->asuit, b, b >= 0 ? st->auc.high :
	    0, 0, 0);
}

/* The last race is over: a Calcutta pot left is shared by all. */
static void
end_game(struct hr_state *st, struct events *ev)
{
	int64_t share, rem;
	int p;

	if (st->calcutta && st->pot > 0) {
		share = st->pot / st->players;
		rem = st->pot % st->players;
		for (p = 0; p < st->players; p++) {
			st->chips[p] += share + (p < rem);
			ev_push(ev, SEEN_ALL, HE_SPLIT, share + (p < rem), p, 0,
			    0, 0, 0);
		}
		st->pot = 0;
	}
	ev_push(ev, SEEN_ALL, HE_GAME_END, 0, 0, 0, 0, 0, 0);
}

/* Packs up to 10 cards, 6 bits each, for an event. */
static uint64_t
pack_cards(const int8_t *c, int n)
{
	uint64_t x = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		x = x << 6 | (uint64_t)c[i];
	return x;
}

/* Who decides now: the dealer, the bettors still out, or the bidder. */
static uint32_t
hr_deciders(const void *vst)
{
	const struct hr_state *st = vst;

	switch (st->phase) {
	case HP_ODDS:
		return 1u << st->dealer;
	case HP_BET:
		return st->waiting;
	case HP_AUCTION:
		return st->auc.turn >= 0 ? 1u << st->auc.turn : 0;
	}
	return 0;
}

/* Lists player's legal entries: done first, then ranged bets, odds or bids. */
static int
hr_legal(const void *vst, int p, struct legal *l, int max)
{
	static const int first[5] = { HR_T_WIN, HR_T_EXACTA, HR_T_TRIFECTA,
	    HR_T_DD, HR_NT };
	const struct hr_state *st = vst;
	int32_t left, c[HR_MAXP];
	int n = 0, t, k;

	if (p < 0 || p >= st->players || !(hr_deciders(st) & (1u << p)) ||
	    max < 2)
		return 0;
	switch (st->phase) {
	case HP_ODDS:
		l[n++] = (struct legal){ HA_ODDS + st->odds_suit, 1, 20, 1 };
		break;
	case HP_BET:
		left = hr_left(st, p);
		l[n++] = (struct legal){ HA_DONE, 0, 0, 0 };
		for (k = HR_WIN; k <= HR_DD; k++)
			if (hr_kind_offered(st, k))
				for (t = first[k]; t < first[k + 1] && n < max;
				    t++)
					l[n++] = (struct legal){ HA_BET + t, 1,
					    left, 1 };
		break;
	case HP_AUCTION:
		counters(st, c);
		l[n++] = (struct legal){ HA_PASS, 0, 0, 0 };
		if (c[p] >= auction_next_min(&st->auc))
			l[n++] = (struct legal){ HA_BID,
			    auction_next_min(&st->auc), c[p], 1 };
		break;
	}
	return n;
}

/*
 * Returns 1 if a is in player's legal list, without listing it (apply's
 * fast path; t_horserace checks that the two always agree).
 */
static int
valid(const struct hr_state *st, int p, struct action a)
{
	int32_t c[HR_MAXP];
	int64_t t;

	if (p < 0 || p >= st->players || !(hr_deciders(st) & (1u << p)))
		return 0;
	switch (st->phase) {
	case HP_ODDS:
		return a.code == HA_ODDS + st->odds_suit && a.amount >= 1 &&
		    a.amount <= 20;
	case HP_BET:
		if (a.code == HA_DONE)
			return a.amount == 0;
		t = a.code - HA_BET;
		return t >= 0 && t < HR_NT &&
		    hr_kind_offered(st, hr_target_kind((int)t)) &&
		    a.amount >= 1 && a.amount <= hr_left(st, p);
	case HP_AUCTION:
		if (a.code == HA_PASS)
			return a.amount == 0;
		counters(st, c);
		return a.code == HA_BID && a.amount >= auction_next_min(&st->auc)
		    && a.amount <= c[p];
	}
	return 0;
}

/* Applies a legal action; -1, state untouched, if it is not legal. */
static int
hr_apply(void *vst, int p, struct action a, struct rng *r,
    struct events *ev)
{
	struct hr_state *st = vst;
	int32_t c[HR_MAXP];
	int t;

	if (!valid(st, p, a))
		return -1;
	switch (st->phase) {
	case HP_ODDS:
		st->odds[st->odds_suit] = a.amount;
		ev_push(ev, SEEN_ALL, HE_ODDS_SET, 0, st->odds_suit, a.amount,
		    0, 0, 0);
		st->odds_suit++;
		break;
	case HP_BET:
		if (a.code == HA_DONE) {
			st->waiting &= ~(1u << p);
			st->done_order[st->ndone++] = (int8_t)p;
			ev_push(ev, 1u << p, HE_DONE, 0, p, 0, 0, 0, 0);
			break;
		}
		t = (int)(a.code - HA_BET);
		st->stake[p][t] += a.amount;
		st->ptotal[p] += a.amount;
		ev_push(ev, 1u << p, HE_BET_SEALED, 0, p, t, a.amount,
		    st->stake[p][t], 0);
		if (hr_left(st, p) == 0) {
			st->waiting &= ~(1u << p);
			st->done_order[st->ndone++] = (int8_t)(p | 0x10);
			ev_push(ev, 1u << p, HE_DONE, 0, p, 1, 0, 0, 0);
		}
		break;
	case HP_AUCTION:
		counters(st, c);
		auction_act(&st->auc, p, a.code == HA_BID ? a.amount : 0, c);
		ev_push(ev, SEEN_ALL, a.code == HA_BID ? HE_BID : HE_PASS, 0,
		    p, a.code == HA_BID ? a.amount : 0, 0, 0, 0);
		break;
	}
	proceed(st, r, ev);
	return 0;
}

/* The default move: the table's odds, no more bets, or drop out. */
static struct action
hr_default_action(const void *vst, int p)
{
	const struct hr_state *st = vst;
	int32_t o;

	switch (st->phase) {
	case HP_ODDS:
		o = st->odds_table[st->count[st->odds_suit]];
		return (struct action){ HA_ODDS + st->odds_suit,
		    o < 1 ? 1 : o > 20 ? 20 : o };
	case HP_BET:
		return (struct action){ HA_DONE, 0 };
	case HP_AUCTION:
		return (struct action){ HA_PASS, 0 };
	}
	return (struct action){ 0, 0 };
}

static int
hr_over(const void *vst)
{
	return ((const struct hr_state *)vst)->phase == HP_OVER;
}

/* Scores are the chips held (debt negative); the most chips place first. */
static void
hr_result(const void *vst, int *places, double *scores)
{
	const struct hr_state *st = vst;
	int p;

	for (p = 0; p < st->players; p++)
		scores[p] = (double)st->chips[p];
	places_from_scores(st->players, scores, places);
}

/*
 * Checks the player count, the phase and the conservation of chips (in
 * hand, on the table, in the pot).
 */
static int
chips_check(const struct hr_state *st, char *why, size_t len)
{
	int64_t sum;
	int p, i;

	if (st->players < 3 || st->players > HR_MAXP || st->phase < HP_ODDS ||
	    st->phase > HP_OVER) {
		snprintf(why, len, "bad players %d or phase %d", st->players,
		    st->phase);
		return -1;
	}
	sum = st->pot;
	for (p = 0; p < st->players; p++) {
		sum += st->chips[p];
		for (i = 0; i < 16; i++)
			sum += st->dd[p][i];
		if (st->calcutta && st->chips[p] < 0) {
			snprintf(why, len, "calcutta: player %d owes chips", p);
			return -1;
		}
	}
	if (sum != st->total || st->pot < 0) {
		snprintf(why, len, "chips not conserved: %lld in hand, on the "
		    "table and in the pot, %lld dealt (pot %lld)",
		    (long long)sum, (long long)st->total, (long long)st->pot);
		return -1;
	}
	return 0;
}

/* Checks the race deck: 48 cards (no aces) and the joker if used, once. */
static int
deck_check(const struct hr_state *st, char *why, size_t len)
{
	int seen[54], i, c;

	if (st->ndeck != 48 + st->joker) {
		snprintf(why, len, "race deck of %d cards", st->ndeck);
		return -1;
	}
	memset(seen, 0, sizeof seen);
	for (i = 0; i < st->ndeck; i++) {
		c = st->deck[i];
		if (c < 0 || c > JOKER || (c < 52 && CARD_RANK(c) == 0) ||
		    (c == JOKER && !st->joker) || seen[c]++) {
			snprintf(why, len, "race deck: bad or doubled card %d "
			    "at %d", c, i);
			return -1;
		}
	}
	return 0;
}

/*
 * Checks, between decisions of a game under way, the race's dealer, the
 * odds cards laid and the odds they give.
 */
static int
odds_check(const struct hr_state *st, char *why, size_t len)
{
	int count[4], i, c, s;

	if (st->top != HR_NODDS || st->dealer != dealer_of(st, st->race) ||
	    st->race >= st->races) {
		snprintf(why, len, "between decisions: top %d, dealer %d of "
		    "race %d", st->top, st->dealer, st->race);
		return -1;
	}
	memset(count, 0, sizeof count);
	for (i = 0; i < HR_NODDS; i++) {
		c = st->deck[i];
		if (IS_JOKER(c) || ++count[CARD_SUIT(c)] > 4) {
			snprintf(why, len, "odds cards should have been re-laid");
			return -1;
		}
	}
	for (s = 0; s < 4; s++) {
		if (count[s] != st->count[s]) {
			snprintf(why, len, "odds card count of suit %d", s);
			return -1;
		}
		if (st->calcutta || (st->dso && st->phase == HP_ODDS &&
		    s >= st->odds_suit))
			continue;
		if (st->dso ? st->odds[s] < 1 || st->odds[s] > 20 :
		    st->odds[s] != st->odds_table[count[s]]) {
			snprintf(why, len, "odds %d of suit %d", st->odds[s], s);
			return -1;
		}
	}
	return 0;
}

/*
 * Checks each player's stakes (on offered targets, within the limit, the
 * totals recorded), who waits to bet, and the daily double's stakes and
 * pairing.
 */
static int
bets_check(const struct hr_state *st, char *why, size_t len)
{
	int64_t cap, tot;
	int p, t, i;

	for (p = 0; p < st->players; p++) {
		tot = 0;
		for (t = 0; t < HR_NT; t++) {
			if (st->stake[p][t] < 0 || (st->stake[p][t] > 0 &&
			    (st->phase != HP_BET || p == st->dealer ||
			    !hr_kind_offered(st, hr_target_kind(t))))) {
				snprintf(why, len, "stake of %d on target %d",
				    p, t);
				return -1;
			}
			tot += st->stake[p][t];
		}
		cap = st->chips[p] < st->bet_limit ? st->chips[p] :
		    st->bet_limit;
		if (tot != st->ptotal[p] || (tot > 0 && tot > cap)) {
			snprintf(why, len, "player %d bet %lld (recorded %d) "
			    "over %lld", p, (long long)tot, st->ptotal[p],
			    (long long)cap);
			return -1;
		}
		if ((st->waiting & ~st->bettors) != 0 ||
		    (st->phase == HP_BET && st->ndone !=
		    popcount32(st->bettors & ~st->waiting))) {
			snprintf(why, len, "bettors %#x, waiting %#x, %d done",
			    st->bettors, st->waiting, st->ndone);
			return -1;
		}
		if ((st->waiting & (1u << p)) && (st->phase != HP_BET ||
		    p == st->dealer || hr_left(st, p) == 0)) {
			snprintf(why, len, "player %d waits to bet", p);
			return -1;
		}
		for (i = 0; i < 16; i++)
			if (st->dd[p][i] < 0 || (st->dd[p][i] > 0 &&
			    st->dd_w1 < 0)) {
				snprintf(why, len, "daily double stake of %d",
				    p);
				return -1;
			}
	}
	if ((st->dd_w1 >= 0) != (dd_offered(st) && st->race % 2 == 1)) {
		snprintf(why, len, "daily double pairing: race %d, first "
		    "winner %d", st->race, st->dd_w1);
		return -1;
	}
	return 0;
}

/*
 * Checks a Calcutta auction under way: the ace sold, none of the later
 * ones owned, the pot holding the prices paid.
 */
static int
auction_check(const struct hr_state *st, char *why, size_t len)
{
	int64_t sum;
	int s;

	if (!st->calcutta || st->asuit < 0 || st->asuit > 3 ||
	    st->auc.turn < 0) {
		snprintf(why, len, "auction of ace %d", st->asuit);
		return -1;
	}
	sum = 0;
	for (s = 0; s < 4; s++) {
		if (s >= st->asuit && (st->owner[s] != -1 ||
		    st->price[s] != 0)) {
			snprintf(why, len, "ace %d owned before its auction",
			    s);
			return -1;
		}
		sum += st->price[s];
	}
	if (st->pot < sum) {
		snprintf(why, len, "pot %lld below the prices %lld",
		    (long long)st->pot, (long long)sum);
		return -1;
	}
	return 0;
}

/* Checks that the last race kept for the views replays from its cards. */
static int
last_race_check(const struct hr_state *st, char *why, size_t len)
{
	int8_t prog[4], order[4];
	int end;

	if (!st->last_race_valid)
		return 0;
	memset(order, -1, sizeof order);
	end = run_race(st->last_turned, 0, st->last_nturned, st->need, prog,
	    order, NULL);
	if (end != st->last_nturned || memcmp(prog, st->last_progress, 4) != 0 ||
	    memcmp(order, st->last_order, 4) != 0 ||
	    st->last_nplaces != st->need) {
		snprintf(why, len, "the last race does not replay");
		return -1;
	}
	return 0;
}

/*
 * Checks conservation of chips (in hand, on the table, in the pot) and of
 * the race deck, the odds cards and odds, the sealed bets' limits, the
 * daily double's pairing, the auctions, and replays the last race.
 */
static int
hr_check(const void *vst, char *why, size_t len)
{
	const struct hr_state *st = vst;

	if (chips_check(st, why, len) == -1 || deck_check(st, why, len) == -1)
		return -1;
	if (st->phase != HP_OVER && (odds_check(st, why, len) == -1 ||
	    bets_check(st, why, len) == -1 || (st->phase == HP_AUCTION &&
	    auction_check(st, why, len) == -1)))
		return -1;
	return last_race_check(st, why, len);
}

/*
 * Re-deals what seat cannot see: the order of the stock, and in the sealed
 * bets every other bettor's stakes (any amounts within their limits that
 * keep them waiting or done as they are).
 */
static void
hr_perturb(void *vst, int seat, struct rng *r)
{
	struct hr_state *st = vst;
	int32_t cap, t_total, amt;
	int offered[HR_NT], noff, p, t;

	if (st->phase == HP_OVER)
		return;
	rng_shuffle8(r, st->deck + st->top, st->ndeck - st->top);
	if (st->phase != HP_BET)
		return;
	for (noff = 0, t = 0; t < HR_NT; t++)
		if (hr_kind_offered(st, hr_target_kind(t)))
			offered[noff++] = t;
	for (p = 0; p < st->players; p++) {
		if (p == seat || !(st->bettors & (1u << p)) || noff == 0)
			continue;
		st->ptotal[p] = 0;
		memset(st->stake[p], 0, sizeof st->stake[p]);
		/* Whether p is done is hidden too (horserace.md). */
		st->waiting &= ~(1u << p);
		if (rng_below(r, 2) == 0)
			st->waiting |= 1u << p;
		cap = hr_left(st, p);
		if (st->waiting & (1u << p))
			cap--;
		if (cap <= 0)
			continue;
		t_total = (int32_t)rng_below(r, (uint32_t)cap + 1);
		while (t_total > 0) {
			amt = 1 + (int32_t)rng_below(r, (uint32_t)t_total);
			t = offered[rng_below(r, (uint32_t)noff)];
			st->stake[p][t] += amt;
			st->ptotal[p] += amt;
			t_total -= amt;
		}
	}
	/* The order of finishing, in a new random order. */
	st->ndone = 0;
	for (p = 0; p < st->players; p++)
		if ((st->bettors & ~st->waiting) & (1u << p))
			st->done_order[st->ndone++] = (int8_t)(p |
			    (hr_left(st, p) == 0 ? 0x10 : 0));
	for (p = st->ndone - 1; p > 0; p--) {
		t = (int)rng_below(r, (uint32_t)p + 1);
		amt = st->done_order[p];
		st->done_order[p] = st->done_order[t];
		st->done_order[t] = (int8_t)amt;
	}
}
