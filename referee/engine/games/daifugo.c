/*
 * The rules of daifugo, SdC Daifugo (../shared/rules/daifugo.md): a
 * shedding game for 4-7 players over a series of deals.  The deal (all the
 * cards, one at a time in seat order), the class exchange (simultaneous; the
 * rich choose, the poor give their strongest non-jokers), tricks of singles,
 * sets and same-suit sequences with jokers standing in, trumps (joker,
 * joker pair, 8-cut), revolution, coup (11-back), points on going out, and
 * the re-seating by the previous finishing order.  Pure and allocation-free;
 * the JSON codec is daifugo_json.c.
 */
#include <stdio.h>
#include <string.h>

#include "daifugo.h"

#define SUITBITS	0x1fffULL
#define RANKBITS	(1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39)

struct gen {
	struct legal	*out;
	int		 max, n;
};

static void	df_init(void *, const struct opts *, const void *,
		    struct rng *, struct events *);
static uint32_t	df_deciders(const void *);
static int	df_legal(const void *, int, struct legal *, int);
static int	df_apply(void *, int, struct action, struct rng *,
		    struct events *);
static struct action df_default_action(const void *, int);
static int	df_over(const void *);
static void	df_result(const void *, int *, double *);
static int	df_check(const void *, char *, size_t);
static void	df_perturb(void *, int, struct rng *);

static int	popc(uint64_t);
static int	stronger(int, int, int);
static uint64_t	spread(unsigned, int);
static unsigned	gather(uint64_t, int);
static void	emit(struct gen *, int64_t);
static void	gen_plays(const struct df_state *, int, struct gen *);
static void	gen_gifts(const struct df_state *, int, struct gen *);
static int	strongest_ok(uint64_t, uint64_t);
static int	next_active(const struct df_state *, int);
static void	start_deal(struct df_state *, const struct df_setup *,
		    struct rng *, struct events *);
static void	set_classes(struct df_state *, const uint8_t *);
static void	begin_play(struct df_state *, struct events *);
static int	apply_give(struct df_state *, int, int64_t, struct events *);
static int	apply_play(struct df_state *, int, int64_t, struct rng *,
		    struct events *);
static void	advance(struct df_state *, struct events *);
static void	end_trick(struct df_state *, int, struct events *);
static void	end_deal(struct df_state *, struct rng *, struct events *);
static void	go_out(struct df_state *, int, struct events *);
static void	push_points(struct events *, int, int32_t, int32_t,
		    const int32_t *, int);
static void	push_pass(struct events *, int, int);

const char df_rank_names[] = "3456789TJQKA2";

static const char *const pass_choices[] = { "once", "unlimited", NULL };

static const struct optdesc df_options[] = {
	[DO_JOKERS] = { .name = "jokers", .type = OPT_INT, .min = 0,
	    .max = 2, .def = 2,
	    .help = "jokers in the deck (52 + jokers cards, all dealt)" },
	[DO_DEALS] = { .name = "deals", .type = OPT_INT, .min = 1,
	    .max = DF_MAXDEALS, .def = 5,
	    .help = "deals in a game, ranked by total points" },
	[DO_PASS_LIMIT] = { .name = "pass_limit", .type = OPT_ENUM,
	    .choices = pass_choices, .def = 0,
	    .help = "once: a player who passed sits out the rest of the "
	    "trick; unlimited: may play again while the trick goes on" },
	[DO_EIGHT_CUT] = { .name = "eight_cut", .type = OPT_BOOL, .def = 1,
	    .help = "an 8 as rank-deciding card ends the trick" },
	[DO_ELEVEN_BACK] = { .name = "eleven_back", .type = OPT_BOOL,
	    .def = 1,
	    .help = "a J as rank-deciding card reverses the order until "
	    "the trick ends (coup)" },
	{ .name = NULL }
};

const struct game game_daifugo = {
	.name = "daifugo",
	.title = "SdC Daifugo",
	.min_players = 4,
	.max_players = DF_MAXP,
	.default_players = 5,
	.options = df_options,
	.state_size = sizeof(struct df_state),
	.setup_size = sizeof(struct df_setup),
	.resolve = NULL,		/* no computed defaults, no cross-option rules */
	.init = df_init,
	.deciders = df_deciders,
	.legal = df_legal,
	.apply = df_apply,
	.default_action = df_default_action,
	.over = df_over,
	.result = df_result,
	.check = df_check,
	.perturb = df_perturb,
	.action_parse = df_action_parse,
	.view_write = df_view_write,
	.action_write = df_action_write,
	.event_write = df_event_write,
	.setup_parse = df_setup_parse,
	.determinize = df_determinize
};

/* Counts the bits of a card mask. */
static int
popc(uint64_t x)
{
	return popcount64(x);
}

/* Whether strength a beats strength b in the order in force. */
static int
stronger(int a, int b, int reversed)
{
	return reversed ? a < b : a > b;
}

/* The engine bits of the suits in x (bit u = suit u) at strength s. */
static uint64_t
spread(unsigned x, int s)
{
	return ((uint64_t)(x & 1) | (uint64_t)(x & 2) << 12 |
	    (uint64_t)(x & 4) << 24 | (uint64_t)(x & 8) << 36) << s;
}

/* The suits held at strength s, as 4 bits. */
static unsigned
gather(uint64_t nat, int s)
{
	return (unsigned)(((nat >> s) & 1) | ((nat >> (s + 12)) & 2) |
	    ((nat >> (s + 24)) & 4) | ((nat >> (s + 36)) & 8));
}

/* Adds a legal entry (counting past the buffer's end). */
static void
emit(struct gen *g, int64_t code)
{
	if (g->n < g->max) {
		g->out[g->n].code = code;
		g->out[g->n].lo = g->out[g->n].hi = 0;
		g->out[g->n].ranged = 0;
	}
	g->n++;
}

/*
 * Classifies a combination: returns its kind (DK_NONE if it is none) and
 * sets *rank to a single's or set's strength, a sequence's low end.  One
 * natural with jokers is a set (a set is read before a sequence).
 */
int
df_classify(uint64_t nat, int jokers, int low, int *rank)
{
	uint64_t sm, w;
	int m, c, s, u;

	m = popc(nat);
	c = m + jokers;
	*rank = -1;
	if (jokers < 0 || jokers > 2 || c < 1 || c > DF_MAXPLAY ||
	    (nat & ~DF_NATMASK) != 0 || low < 0 || low > 12)
		return DK_NONE;
	if (m == 0) {
		if (low != 0)
			return DK_NONE;
		return jokers == 1 ? DK_JOKER : DK_JPAIR;
	}
	s = __builtin_ctzll(nat) % 13;
	if ((nat & ~(RANKBITS << s)) == 0) {
		if (low != 0)
			return DK_NONE;
		*rank = s;
		return c == 1 ? DK_SINGLE : DK_SET;
	}
	u = __builtin_ctzll(nat) / 13;
	if ((nat & ~(SUITBITS << (13 * u))) != 0 || c < 3 || low + c > 13)
		return DK_NONE;
	sm = (nat >> (13 * u)) & SUITBITS;
	w = ((1ULL << c) - 1) << low;
	if ((sm & ~w) != 0)
		return DK_NONE;
	*rank = low;
	return DK_SEQ;
}

/*
 * Returns the strength of the rank-deciding card of a combination in the
 * given order (a sequence's strongest end), or -1 for the jokers alone.
 */
int
df_deciding(int kind, int count, int low, int rank, int reversed)
{
	switch (kind) {
	case DK_SINGLE:
	case DK_SET:
		return rank;
	case DK_SEQ:
		return reversed ? low : low + count - 1;
	default:
		return -1;
	}
}

/* Deals a new game from the options and an optional set-up. */
static void
df_init(void *vst, const struct opts *o, const void *vsetup, struct rng *r,
    struct events *ev)
{
	struct df_state *st = vst;
	const struct df_setup *su = vsetup;
	int i;

	memset(st, 0, sizeof *st);
	st->np = (uint8_t)o->players;
	st->jokers = (uint8_t)o->v[DO_JOKERS];
	st->deals = (uint8_t)o->v[DO_DEALS];
	st->unlimited = o->v[DO_PASS_LIMIT] == 1;
	st->eight_cut = o->v[DO_EIGHT_CUT] != 0;
	st->eleven_back = o->v[DO_ELEVEN_BACK] != 0;
	if (su != NULL) {
		st->nfixed = (uint8_t)su->ndecks;
		memcpy(st->fixed, su->decks, sizeof st->fixed);
	}
	for (i = 0; i < st->np; i++)
		st->partner[i] = -1;
	start_deal(st, su, r, ev);
}

/* Sets classes and exchange partners from a finishing order. */
static void
set_classes(struct df_state *st, const uint8_t *order)
{
	int i, n = st->np;

	for (i = 0; i < n; i++) {
		st->cls[i] = DC_COMMONER;
		st->partner[i] = -1;
		st->ngive[i] = 0;
	}
	st->cls[order[0]] = DC_GRAND;
	st->cls[order[1]] = DC_RICH;
	st->cls[order[n - 2]] = DC_POOR;
	st->cls[order[n - 1]] = DC_VERY_POOR;
	st->partner[order[0]] = (int8_t)order[n - 1];
	st->partner[order[n - 1]] = (int8_t)order[0];
	st->partner[order[1]] = (int8_t)order[n - 2];
	st->partner[order[n - 2]] = (int8_t)order[1];
	st->ngive[order[0]] = st->ngive[order[n - 1]] = 2;
	st->ngive[order[1]] = st->ngive[order[n - 2]] = 1;
}

/*
 * Starts deal st->deal: seats the players (deal 1 from the set-up or at
 * random, later by the previous finishing order), deals every card one at a
 * time in seat order, then opens the exchange or the play.
 */
static void
start_deal(struct df_state *st, const struct df_setup *su, struct rng *r,
    struct events *ev)
{
	int deck[DF_MAXDECK], perm[DF_MAXP];
	int i, n, p, exchange = 0;
	int32_t seats = 0, classes = 0;

	n = DF_NNAT + st->jokers;
	if (st->deal < st->nfixed)
		for (i = 0; i < n; i++)
			deck[i] = st->fixed[st->deal][i];
	else {
		for (i = 0; i < n; i++)
			deck[i] = i;
		deck_shuffle(deck, n, r);
	}
	if (st->deal == 0) {
		if (su != NULL && su->has_previous) {
			memcpy(st->prev, su->previous, st->np);
			st->has_prev = 1;
		}
		for (i = 0; i < st->np; i++)
			perm[i] = i;
		if (st->has_prev)
			for (i = 0; i < st->np; i++)
				perm[i] = st->prev[i];
		else if (su != NULL && su->has_seating)
			for (i = 0; i < st->np; i++)
				perm[i] = su->seating[i];
		else
			deck_shuffle(perm, st->np, r);
	} else
		for (i = 0; i < st->np; i++)
			perm[i] = st->prev[i];
	for (i = 0; i < st->np; i++) {
		st->seat[i] = (uint8_t)perm[i];
		st->pos[perm[i]] = (uint8_t)i;
		st->hand[i] = st->played[i] = st->gift[i] = 0;
		st->jok[i] = st->pjok[i] = st->gjok[i] = 0;
		st->dpts[i] = 0;
		st->cls[i] = DC_COMMONER;
		st->partner[i] = -1;
		st->ngive[i] = 0;
	}
	if (st->has_prev) {
		set_classes(st, st->prev);
		exchange = 1;
	}
	for (i = 0; i < n; i++) {
		p = st->seat[i % st->np];
		if (IS_JOKER(deck[i]))
			st->jok[p]++;
		else
			st->hand[p] |= 1ULL << DF_BIT(deck[i]);
	}
	st->nout = 0;
	st->revolution = st->coup = 0;
	st->tkind = DK_NONE;
	st->tcount = st->trank = 0;
	st->tcode = 0;
	st->passed = 0;
	st->exchanged = 0;
	st->pending = 0;
	for (i = 0; i < st->np; i++) {
		seats |= (int32_t)st->seat[i] << (3 * i);
		classes |= (int32_t)st->cls[i] << (3 * i);
	}
	ev_push(ev, SEEN_ALL, DE_DEAL, 0, st->deal, seats, classes, 0, 0);
	for (i = 0; i < st->np; i++)
		ev_push(ev, 1u << i, DE_HAND, (int64_t)st->hand[i], i,
		    st->jok[i], 0, 0, 0);
	if (exchange) {
		st->phase = DP_EXCHANGE;
		for (i = 0; i < st->np; i++)
			if (st->partner[i] >= 0)
				st->pending |= (uint8_t)(1u << i);
	} else
		begin_play(st, ev);
}

/* Opens the play of a deal: the holder of 3D leads, 3D in the play. */
static void
begin_play(struct df_state *st, struct events *ev)
{
	int p;

	st->phase = DP_PLAY;
	st->active = (uint8_t)((1u << st->np) - 1);
	for (p = 0; p < st->np; p++)
		if (st->hand[p] & (1ULL << DF_BIT3D))
			break;
	st->turn = st->last = (uint8_t)p;
	st->first = 1;
	st->tkind = DK_NONE;
	st->passed = 0;
	ev_push(ev, SEEN_ALL, DE_TRICK, 0, p, 1, 0, 0, 0);
}

/* The mask of seats that must decide now; 0 when the game is over. */
static uint32_t
df_deciders(const void *vst)
{
	const struct df_state *st = vst;

	switch (st->phase) {
	case DP_EXCHANGE:
		return st->pending;
	case DP_PLAY:
		return 1u << st->turn;
	default:
		return 0;
	}
}

/*
 * Lists the plays of p (passing first when allowed): every single, set and
 * sequence, each joker reading its own entry, that may lead or beat the
 * table, holding 3D on the first play of a deal.
 */
static void
gen_plays(const struct df_state *st, int p, struct gen *g)
{
	uint64_t nat = st->hand[p], b, sm, w, pr, x;
	int J = st->jok[p], lead = st->tkind == DK_NONE, first = st->first;
	int rev = st->revolution ^ st->coup, tk = st->tkind, tc = st->tcount;
	int tr = st->trank, s, u, m, j, c, L, l, d, need;
	unsigned xs, sx;

	if (!lead)
		emit(g, DA_PASS);
	/* Singles; a joker alone beats any single. */
	if (lead || tk == DK_SINGLE) {
		for (b = nat; b != 0; b &= b - 1) {
			s = __builtin_ctzll(b);
			if (first && s != DF_BIT3D)
				continue;
			if (!lead && !stronger(s % 13, tr, rev))
				continue;
			emit(g, DA_PLAY | (int64_t)(1ULL << s));
		}
		if (J > 0 && !first)
			emit(g, DA_MAKE(DA_PLAY, 0, 1, 0));
	}
	/* Sets: any suits of one rank, jokers filling in; the joker pair. */
	if (lead || tk == DK_SET) {
		for (s = 0; s < 13; s++) {
			if (first && s != 0)
				break;
			if (!lead && !stronger(s, tr, rev))
				continue;
			sx = gather(nat, s);
			for (xs = sx; xs != 0; xs = (xs - 1) & sx) {
				if (first && !(xs & (1u << DIAMONDS)))
					continue;
				m = popcount32(xs);
				for (j = 0; j <= J; j++) {
					c = m + j;
					if (c < 2 || c > DF_MAXPLAY ||
					    (!lead && c != tc))
						continue;
					emit(g, DA_MAKE(DA_PLAY, spread(xs, s),
					    j, 0));
				}
			}
		}
		if (J == 2 && !first && (lead || tc == 2))
			emit(g, DA_MAKE(DA_PLAY, 0, 2, 0));
	}
	/* Sequences of one suit, jokers filling gaps or extending. */
	if (lead || tk == DK_SEQ) {
		for (u = 0; u < 4; u++) {
			if (first && u != DIAMONDS)
				continue;
			sm = (nat >> (13 * u)) & SUITBITS;
			if (popc(sm) < 2)
				continue;
			for (L = 3; L <= DF_MAXPLAY; L++) {
				if (!lead && L != tc)
					continue;
				need = L - J > 2 ? L - J : 2;
				for (l = 0; l + L <= 13; l++) {
					if (first && l != 0)
						break;
					w = ((1ULL << L) - 1) << l;
					pr = sm & w;
					if (popc(pr) < need)
						continue;
					if (!lead) {
						d = rev ? l : l + L - 1;
						if (!stronger(d, tr, rev))
							continue;
					}
					for (x = pr; x != 0; x = (x - 1) & pr) {
						m = popc(x);
						if (m < need || (first && !(x & 1)))
							continue;
						emit(g, DA_MAKE(DA_PLAY,
						    x << (13 * u), L - m, l));
					}
				}
			}
		}
	}
}

/* Whether a poor player's gift nat is their strongest non-jokers. */
static int
strongest_ok(uint64_t hand, uint64_t nat)
{
	uint64_t rest = hand & ~nat;
	int s, lo = 13, hi = -1;

	for (s = 0; s < 13; s++) {
		if (gather(nat, s) && s < lo)
			lo = s;
		if (gather(rest, s))
			hi = s;
	}
	return hi <= lo;
}

/* Lists the gifts of p in the exchange. */
static void
gen_gifts(const struct df_state *st, int p, struct gen *g)
{
	uint64_t nat = st->hand[p], b, b2, taken = 0;
	int J = st->jok[p], k = st->ngive[p], s, need, cnt;
	unsigned sx, xs;

	if (st->cls[p] == DC_GRAND || st->cls[p] == DC_RICH) {
		if (k == 1) {
			for (b = nat; b != 0; b &= b - 1)
				emit(g, DA_MAKE(DA_GIVE, b & -b, 0, 0));
			if (J > 0)
				emit(g, DA_MAKE(DA_GIVE, 0, 1, 0));
			return;
		}
		for (b = nat; b != 0; b &= b - 1)
			for (b2 = b & (b - 1); b2 != 0; b2 &= b2 - 1)
				emit(g, DA_MAKE(DA_GIVE, (b & -b) |
				    (b2 & -b2), 0, 0));
		if (J > 0)
			for (b = nat; b != 0; b &= b - 1)
				emit(g, DA_MAKE(DA_GIVE, b & -b, 1, 0));
		if (J == 2)
			emit(g, DA_MAKE(DA_GIVE, 0, 2, 0));
		return;
	}
	/* The poor: the strongest k, choosing suits within the lowest rank. */
	need = k;
	for (s = 12; s >= 0 && need > 0; s--) {
		sx = gather(nat, s);
		cnt = popcount32(sx);
		if (cnt == 0)
			continue;
		if (cnt <= need) {
			taken |= spread(sx, s);
			need -= cnt;
			if (need == 0)
				emit(g, DA_MAKE(DA_GIVE, taken, 0, 0));
			continue;
		}
		for (xs = sx; xs != 0; xs = (xs - 1) & sx)
			if (popcount32(xs) == need)
				emit(g, DA_MAKE(DA_GIVE, taken | spread(xs, s),
				    0, 0));
		need = 0;
	}
}

/* Writes the legal entries of player (at most max); returns the count. */
static int
df_legal(const void *vst, int p, struct legal *l, int max)
{
	const struct df_state *st = vst;
	struct gen g = { l, max, 0 };

	if (p < 0 || p >= st->np || !(df_deciders(st) & (1u << p)))
		return 0;
	if (st->phase == DP_EXCHANGE)
		gen_gifts(st, p, &g);
	else
		gen_plays(st, p, &g);
	return g.n < max ? g.n : max;
}

/* The next player clockwise from p still holding cards; -1 if none. */
static int
next_active(const struct df_state *st, int p)
{
	int i, q;

	for (i = 1; i <= st->np; i++) {
		q = st->seat[(st->pos[p] + i) % st->np];
		if (q != p && (st->active & (1u << q)))
			return q;
	}
	return -1;
}

/* Applies p's gift; the last gift in swaps them all and opens the play. */
static int
apply_give(struct df_state *st, int p, int64_t code, struct events *ev)
{
	uint64_t nat = DA_NAT(code);
	int j = DA_JOK(code), q;

	if (DA_TYPE(code) != DA_GIVE || DA_REST(code) != 0 ||
	    DA_LOW(code) != 0 || (nat & ~st->hand[p]) != 0 ||
	    j > st->jok[p] || popc(nat) + j != st->ngive[p])
		return -1;
	if ((st->cls[p] == DC_POOR || st->cls[p] == DC_VERY_POOR) &&
	    (j != 0 || !strongest_ok(st->hand[p], nat)))
		return -1;
	st->gift[p] = nat;
	st->gjok[p] = (uint8_t)j;
	st->hand[p] &= ~nat;
	st->jok[p] -= (uint8_t)j;
	st->pending &= (uint8_t)~(1u << p);
	if (st->pending != 0)
		return 0;
	for (p = 0; p < st->np; p++) {
		if ((q = st->partner[p]) < 0)
			continue;
		st->hand[q] |= st->gift[p];
		st->jok[q] += st->gjok[p];
		ev_push(ev, (1u << p) | (1u << q), DE_GIVE,
		    (int64_t)st->gift[p], p, q, st->gjok[p], 0, 0);
		ev_push(ev, SEEN_ALL & ~((1u << p) | (1u << q)), DE_SWAP, 0,
		    p, q, st->ngive[p], 0, 0);
	}
	st->exchanged = 1;
	begin_play(st, ev);
	return 0;
}

/* p goes out: places next and scores the cards the others still hold. */
static void
go_out(struct df_state *st, int p, struct events *ev)
{
	int q, pts = 0;

	st->active &= (uint8_t)~(1u << p);
	for (q = 0; q < st->np; q++)
		if (st->active & (1u << q))
			pts += popc(st->hand[q]) + st->jok[q];
	st->dpts[p] = (int16_t)pts;
	st->total[p] += pts;
	st->out[st->nout++] = (uint8_t)p;
	ev_push(ev, SEEN_ALL, DE_OUT, 0, p, st->nout, pts, 0, 0);
}

/* Ends the trick: its last player leads, or the next one still in. */
static void
end_trick(struct df_state *st, int trump, struct events *ev)
{
	int leader;

	leader = (st->active & (1u << st->last)) ? st->last :
	    next_active(st, st->last);
	ev_push(ev, SEEN_ALL, DE_TRICK_END, 0, st->last, trump, leader, 0, 0);
	if (st->coup) {
		st->coup = 0;
		ev_push(ev, SEEN_ALL, DE_COUP, 0, 0, 0, 0, 0, 0);
	}
	st->tkind = DK_NONE;
	st->tcount = st->trank = 0;
	st->tcode = 0;
	st->passed = 0;
	st->turn = st->last = (uint8_t)leader;
	ev_push(ev, SEEN_ALL, DE_TRICK, 0, leader, 0, 0, 0, 0);
}

/*
 * Moves the turn on: ends the trick once every other player still in has
 * passed, passes for a player who cannot beat the table.
 */
static void
advance(struct df_state *st, struct events *ev)
{
	struct gen g = { NULL, 0, 0 };
	uint32_t others;
	int p, i;

	for (;;) {
		others = st->active & ~(1u << st->last);
		if ((st->passed & others) == others) {
			end_trick(st, 0, ev);
			return;
		}
		p = st->turn;
		for (i = 0; i < st->np; i++) {
			p = st->seat[(st->pos[p] + 1) % st->np];
			if ((st->active & (1u << p)) &&
			    (st->unlimited || !(st->passed & (1u << p))))
				break;
		}
		st->turn = (uint8_t)p;
		g.n = 0;
		gen_plays(st, p, &g);
		if (g.n > 1)
			return;
		st->passed |= (uint8_t)(1u << p);
		push_pass(ev, p, 1);
	}
}

/*
 * Tells a pass: the passer learns whether it was automatic, the others
 * only that p passed (a pass for want of a play says nothing more).
 */
static void
push_pass(struct events *ev, int p, int automatic)
{
	ev_push(ev, 1u << p, DE_PASS, 0, p, automatic, 0, 0, 0);
	ev_push(ev, SEEN_ALL & ~(1u << p), DE_PASS, 0, p, -1, 0, 0, 0);
}

/* Packs points 16 bits a seat into an event (see enum df_event). */
static void
push_points(struct events *ev, int type, int32_t a0, int32_t a1,
    const int32_t *pts, int n)
{
	uint64_t x = 0;
	int32_t a3 = 0, a4 = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (i < 4)
			x |= (uint64_t)(uint16_t)pts[i] << (16 * i);
		else if (i < 6)
			a3 |= (int32_t)((uint32_t)(uint16_t)pts[i] <<
			    (16 * (i - 4)));
		else
			a4 = (uint16_t)pts[i];
	}
	ev_push(ev, SEEN_ALL, type, (int64_t)x, a0, a1, 0, a3, a4);
}

/* Ends the deal (one player left): places them last, re-deals or ends. */
static void
end_deal(struct df_state *st, struct rng *r, struct events *ev)
{
	int32_t pts[DF_MAXP], order = 0;
	int i, p;

	for (p = 0; p < st->np; p++)
		if (st->active & (1u << p)) {
			st->active &= (uint8_t)~(1u << p);
			st->dpts[p] = 0;
			st->out[st->nout++] = (uint8_t)p;
			ev_push(ev, SEEN_ALL, DE_OUT, 0, p, st->nout, 0, 0, 0);
		}
	for (i = 0; i < st->np; i++) {
		pts[i] = st->dpts[i];
		st->done_sum += st->dpts[i];
		order |= (int32_t)st->out[i] << (3 * i);
		st->prev[i] = st->out[i];
	}
	st->has_prev = 1;
	st->tkind = DK_NONE;
	st->passed = 0;
	st->coup = 0;
	push_points(ev, DE_DEAL_END, st->deal, order, pts, st->np);
	if (st->deal + 1 < st->deals) {
		st->deal++;
		start_deal(st, NULL, r, ev);
		return;
	}
	st->phase = DP_OVER;
	push_points(ev, DE_GAME_END, st->deal, 0, st->total, st->np);
}

/*
 * Applies a play or a pass of the player on turn: the play must lead or
 * beat the table; then, in this order, going out, revolution, coup and the
 * trump that ends the trick.
 */
static int
apply_play(struct df_state *st, int p, int64_t code, struct rng *r,
    struct events *ev)
{
	uint64_t nat = DA_NAT(code);
	int j = DA_JOK(code), low = DA_LOW(code), kind, rank, d, c, rev;
	int trump;

	if (p != st->turn)
		return -1;
	if (code == DA_PASS) {
		if (st->tkind == DK_NONE)
			return -1;
		st->passed |= (uint8_t)(1u << p);
		push_pass(ev, p, 0);
		advance(st, ev);
		return 0;
	}
	if (DA_TYPE(code) != DA_PLAY || DA_REST(code) != 0 ||
	    (kind = df_classify(nat, j, low, &rank)) == DK_NONE ||
	    (nat & ~st->hand[p]) != 0 || j > st->jok[p])
		return -1;
	if (st->first && !(nat & (1ULL << DF_BIT3D)))
		return -1;
	c = popc(nat) + j;
	rev = st->revolution ^ st->coup;
	d = df_deciding(kind, c, low, rank, rev);
	if (st->tkind != DK_NONE) {
		if (kind == DK_JOKER) {
			if (st->tkind != DK_SINGLE)
				return -1;
		} else if (kind == DK_JPAIR) {
			if (st->tkind != DK_SET || st->tcount != 2)
				return -1;
		} else if (kind != st->tkind || c != st->tcount ||
		    !stronger(d, st->trank, rev))
			return -1;
	}
	st->hand[p] &= ~nat;
	st->jok[p] -= (uint8_t)j;
	st->played[p] |= nat;
	st->pjok[p] += (uint8_t)j;
	st->tkind = (uint8_t)kind;
	st->tcount = (uint8_t)c;
	st->trank = (uint8_t)(d < 0 ? 0 : d);
	st->tcode = code;
	st->last = (uint8_t)p;
	st->first = 0;
	if (st->unlimited)
		st->passed = 0;
	ev_push(ev, SEEN_ALL, DE_PLAY, code, p, kind, d,
	    popc(st->hand[p]) + st->jok[p], 0);
	if (st->hand[p] == 0 && st->jok[p] == 0)
		go_out(st, p, ev);
	if (kind == DK_SET && c >= 4) {
		st->revolution ^= 1;
		ev_push(ev, SEEN_ALL, DE_REVOLUTION, 0, st->revolution, 0, 0, 0,
		    0);
	}
	if (st->eleven_back && d == DF_SJ) {
		st->coup ^= 1;
		ev_push(ev, SEEN_ALL, DE_COUP, 0, st->coup, 0, 0, 0, 0);
	}
	trump = kind == DK_JOKER || kind == DK_JPAIR ||
	    (st->eight_cut && d == DF_S8);
	if (popc(st->active) <= 1) {
		end_deal(st, r, ev);
		return 0;
	}
	if (trump) {
		end_trick(st, 1, ev);
		return 0;
	}
	advance(st, ev);
	return 0;
}

/* Applies a legal action; -1 (state untouched) if it is not legal. */
static int
df_apply(void *vst, int p, struct action a, struct rng *r,
    struct events *ev)
{
	struct df_state *st = vst;

	if (p < 0 || p >= st->np || a.amount != 0 ||
	    !(df_deciders(st) & (1u << p)))
		return -1;
	if (st->phase == DP_EXCHANGE)
		return apply_give(st, p, a.code, ev);
	return apply_play(st, p, a.code, r, ev);
}

/*
 * The default move: pass when passing is allowed; a leader plays its
 * weakest single in the order in force (3D on the first play); a rich
 * player gives its weakest cards, a poor one the first of its strongest.
 */
static struct action
df_default_action(const void *vst, int p)
{
	const struct df_state *st = vst;
	struct action a = { DA_PASS, 0 };
	uint64_t nat = st->hand[p], pick = 0;
	int s, u, k, rev;
	unsigned sx;

	if (st->phase == DP_EXCHANGE) {
		k = st->ngive[p];
		if (st->cls[p] == DC_GRAND || st->cls[p] == DC_RICH) {
			for (s = 0; s < 13 && k > 0; s++)
				for (u = 0; u < 4 && k > 0; u++)
					if (nat & (1ULL << (u * 13 + s))) {
						pick |= 1ULL << (u * 13 + s);
						k--;
					}
			a.code = DA_MAKE(DA_GIVE, pick, k, 0);
			return a;
		}
		for (s = 12; s >= 0 && k > 0; s--) {
			sx = gather(nat, s);
			for (u = 0; u < 4 && k > 0; u++)
				if (sx & (1u << u)) {
					pick |= 1ULL << (u * 13 + s);
					k--;
				}
		}
		a.code = DA_MAKE(DA_GIVE, pick, 0, 0);
		return a;
	}
	if (st->phase != DP_PLAY || st->tkind != DK_NONE)
		return a;
	if (st->first) {
		a.code = DA_PLAY | (int64_t)(1ULL << DF_BIT3D);
		return a;
	}
	rev = st->revolution ^ st->coup;
	for (k = 0; k < 13; k++) {
		s = rev ? 12 - k : k;
		sx = gather(nat, s);
		if (sx != 0) {
			a.code = DA_PLAY | (int64_t)spread(sx & -sx, s);
			return a;
		}
	}
	a.code = DA_MAKE(DA_PLAY, 0, 1, 0);
	return a;
}

/* Whether the game is over. */
static int
df_over(const void *vst)
{
	const struct df_state *st = vst;

	return st->phase == DP_OVER;
}

/* Final places (by total points, ties sharing) and scores. */
static void
df_result(const void *vst, int *places, double *scores)
{
	const struct df_state *st = vst;
	int i;

	for (i = 0; i < st->np; i++)
		scores[i] = st->total[i];
	places_from_scores(st->np, scores, places);
}

/*
 * Checks conservation (every natural card in exactly one place, the jokers
 * counted), the seating, the trick state and the points.
 */
static int
df_check(const void *vst, char *why, size_t len)
{
	const struct df_state *st = vst;
	uint64_t seen = 0, all;
	int i, p, q, jok = 0, sum = 0, tsum = 0, pending_gifts;
	uint32_t outmask = 0;

	if (st->np < 4 || st->np > DF_MAXP || st->jokers > 2) {
		snprintf(why, len, "bad player or joker count");
		return -1;
	}
	pending_gifts = st->phase == DP_EXCHANGE;
	for (p = 0; p < st->np; p++) {
		if (st->pos[st->seat[p]] != p || st->seat[p] >= st->np) {
			snprintf(why, len, "seating is not a permutation");
			return -1;
		}
		all = st->hand[p] | st->played[p];
		if (pending_gifts)
			all |= st->gift[p];
		if ((st->hand[p] & st->played[p]) != 0 ||
		    (pending_gifts && ((st->gift[p] & st->hand[p]) ||
		    (st->gift[p] & st->played[p]))) ||
		    (all & seen) != 0 || (all & ~DF_NATMASK) != 0) {
			snprintf(why, len, "a card is in two places (player "
			    "%d)", p);
			return -1;
		}
		seen |= all;
		jok += st->jok[p] + st->pjok[p] + (pending_gifts ?
		    st->gjok[p] : 0);
	}
	if (seen != DF_NATMASK || jok != st->jokers) {
		snprintf(why, len, "cards not conserved: %d naturals, %d of %d "
		    "jokers", popc(seen), jok, st->jokers);
		return -1;
	}
	if (st->phase == DP_EXCHANGE) {
		for (p = 0; p < st->np; p++) {
			q = st->partner[p];
			if ((st->pending & (1u << p)) && q < 0) {
				snprintf(why, len, "%d must give to nobody", p);
				return -1;
			}
			if (q >= 0 && !(st->pending & (1u << p)) &&
			    popc(st->gift[p]) + st->gjok[p] != st->ngive[p]) {
				snprintf(why, len, "gift of %d has the wrong "
				    "size", p);
				return -1;
			}
		}
		if (st->pending == 0) {
			snprintf(why, len, "exchange with nobody pending");
			return -1;
		}
	}
	for (i = 0; i < st->nout; i++) {
		p = st->out[i];
		if (p >= st->np || (outmask & (1u << p))) {
			snprintf(why, len, "finishing order repeats %d", p);
			return -1;
		}
		outmask |= 1u << p;
		if (i > 0 && st->phase == DP_PLAY &&
		    st->dpts[p] >= st->dpts[st->out[i - 1]]) {
			snprintf(why, len, "points not decreasing in going-out "
			    "order");
			return -1;
		}
	}
	for (p = 0; p < st->np; p++) {
		sum += st->dpts[p];
		tsum += st->total[p];
		if (!(outmask & (1u << p)) && st->dpts[p] != 0) {
			snprintf(why, len, "%d scored before going out", p);
			return -1;
		}
	}
	if (tsum != st->done_sum + (st->phase == DP_OVER ? 0 : sum)) {
		snprintf(why, len, "points do not add up: %d vs %d + %d", tsum,
		    st->done_sum, sum);
		return -1;
	}
	if (st->phase != DP_PLAY)
		return 0;
	for (p = 0; p < st->np; p++) {
		int held = popc(st->hand[p]) + st->jok[p];

		if (!!(st->active & (1u << p)) == !!(outmask & (1u << p)) ||
		    (!(st->active & (1u << p)) && held != 0) ||
		    ((st->active & (1u << p)) && held == 0)) {
			snprintf(why, len, "player %d: active, out and hand "
			    "disagree", p);
			return -1;
		}
	}
	if (popc(st->active) < 2 || !(st->active & (1u << st->turn)) ||
	    (st->passed & (1u << st->turn)) != 0 ||
	    (st->passed & ~st->active) != 0 ||
	    st->revolution > 1 || st->coup > 1 ||
	    (st->tkind == DK_NONE && (st->turn != st->last || st->passed ||
	    st->coup)) || st->tkind == DK_JOKER || st->tkind == DK_JPAIR) {
		snprintf(why, len, "trick state inconsistent");
		return -1;
	}
	if (st->first && (st->nout != 0 || !(st->hand[st->turn] &
	    (1ULL << DF_BIT3D)))) {
		snprintf(why, len, "the first play is due but %d lacks 3D",
		    st->turn);
		return -1;
	}
	return 0;
}

/*
 * Re-deals what seat cannot see: the other players' cards (and their
 * hidden gifts during the exchange), keeping every count, the cards the
 * seat gave its partner that the partner still holds, and 3D with the
 * player due to make the first play.
 */
static void
df_perturb(void *vst, int seat, struct rng *r)
{
	struct df_state *st = vst;
	int pool[DF_MAXDECK], cnt[DF_MAXP], gcnt[DF_MAXP];
	uint64_t keep[DF_MAXP];
	int kj[DF_MAXP], n = 0, p, q, k, i, b;

	memset(keep, 0, sizeof keep);
	memset(kj, 0, sizeof kj);
	q = st->partner[seat];
	if (st->phase != DP_EXCHANGE && st->exchanged && q >= 0) {
		keep[q] = st->gift[seat] & st->hand[q];
		k = st->gjok[seat] - st->pjok[q];
		kj[q] = k < 0 ? 0 : (k > st->jok[q] ? st->jok[q] : k);
	}
	/* Everyone knows who holds 3D while the first play is due. */
	if (st->phase == DP_PLAY && st->first)
		keep[st->turn] |= st->hand[st->turn] & (1ULL << DF_BIT3D);
	for (p = 0; p < st->np; p++) {
		cnt[p] = gcnt[p] = 0;
		if (p == seat)
			continue;
		for (i = 0; i < DF_NNAT; i++)
			if ((st->hand[p] & ~keep[p]) & (1ULL << i)) {
				pool[n++] = i;
				cnt[p]++;
			}
		for (i = kj[p]; i < st->jok[p]; i++) {
			pool[n++] = JOKER;
			cnt[p]++;
		}
		st->hand[p] &= keep[p];
		st->jok[p] = (uint8_t)kj[p];
		if (st->phase == DP_EXCHANGE && !(st->pending & (1u << p)) &&
		    st->partner[p] >= 0) {
			for (i = 0; i < DF_NNAT; i++)
				if (st->gift[p] & (1ULL << i))
					pool[n++] = i;
			for (i = 0; i < st->gjok[p]; i++)
				pool[n++] = JOKER;
			gcnt[p] = popc(st->gift[p]) + st->gjok[p];
			st->gift[p] = 0;
			st->gjok[p] = 0;
		}
	}
	deck_shuffle(pool, n, r);
	for (p = 0, i = 0; p < st->np; p++) {
		for (k = 0; k < cnt[p]; k++) {
			b = pool[i++];
			if (b == JOKER)
				st->jok[p]++;
			else
				st->hand[p] |= 1ULL << b;
		}
		for (k = 0; k < gcnt[p]; k++) {
			b = pool[i++];
			if (b == JOKER)
				st->gjok[p]++;
			else
				st->gift[p] |= 1ULL << b;
		}
	}
}
