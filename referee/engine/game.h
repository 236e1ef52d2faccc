/*
 * The rules-engine interface shared by every game of cardarena.
 *
 * A game is a const table of function pointers (struct game) over an opaque,
 * flat state: every state is a plain struct without pointers, so it can be
 * copied with memcpy (playouts, fuzzing, the view-leak tests).  The rules
 * functions are pure: no I/O, no clock, no exit(); randomness comes only from
 * the struct rng passed in.  A game is fully determined by (game, options,
 * seed, actions).
 *
 * Actions are small integer codes chosen by each game, plus an amount where
 * the legal entry is a range.  The JSON encoding of views, actions, events
 * and set-ups is a separate layer (the codec half of the table), so the same
 * engine serves the referee, benchmarks, fuzzing and tests.
 *
 * Ownership: every json_t * returned by a codec function is a new reference
 * that the caller must json_decref().  apply() does not trust its input: it
 * returns -1 for an action that is not legal and leaves the state untouched.
 */
#ifndef CARDARENA_GAME_H
#define CARDARENA_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "alloc.h"
#include "card.h"
#include "rng.h"

struct jw;

#define MAX_PLAYERS	12
#define MAX_OPTS	16
#define MAX_LIST	8
#define MAX_LEGAL	8192	/* most legal entries any state may list */
#define SEAT_ALL	(-1)	/* the all-seeing view (logs, replay) */
#define SEEN_ALL	0xffffffffu

enum opt_type {
	OPT_INT,	/* a whole number in [min, max] */
	OPT_BOOL,	/* on/off, true/false, 1/0, yes/no */
	OPT_ENUM,	/* one of choices; the value is its index */
	OPT_SET,	/* comma-separated subset of choices; a bit mask */
	OPT_LIST	/* exactly len whole numbers in [min, max], comma-separated */
};

struct optdesc {
	const char		*name;
	enum opt_type		 type;
	long			 min, max;	/* INT, and each LIST element */
	long			 def;		/* INT, BOOL, ENUM index, SET mask */
	const long		*def_list;	/* LIST default (len values) */
	const char		*def_text;	/* computed default, e.g. "players" */
	const char *const	*choices;	/* ENUM, SET: NULL-terminated */
	int			 len;		/* LIST length */
	const char		*keyword;	/* LIST: a word accepted instead */
	const char		*help;
};

/* Parsed options; v[i] belongs to the game's options[i]. */
struct opts {
	int	players;
	long	v[MAX_OPTS];
	int	given[MAX_OPTS];		/* set explicitly by the user */
	long	list[MAX_OPTS][MAX_LIST];	/* OPT_LIST values */
	int	keyword[MAX_OPTS];		/* OPT_LIST given as its keyword */
};

/* A decision as a bot makes it: the game's code, and an amount if ranged. */
struct action {
	int64_t	code;
	int32_t	amount;
};

/* One entry of the legal list: a fixed action, or a code with an amount. */
struct legal {
	int64_t	code;
	int32_t	lo, hi;		/* the amount range when ranged */
	int	ranged;
};

/*
 * Something that happened, as the players may learn it.  seen is the mask of
 * seats that are told (SEEN_ALL for everyone); a game that must tell one seat
 * more than the others emits two events.  The meaning of type, x and a[] is
 * the game's own; its codec turns them into JSON.
 */
struct event {
	int		type;
	uint32_t	seen;
	int64_t		x;
	int32_t		a[5];
};

struct events {
	struct event	*e;
	size_t		 n, cap;
};

struct game {
	const char		*name;		/* the id: "horserace" */
	const char		*title;
	int			 min_players, max_players, default_players;
	const struct optdesc	*options;	/* ends with a NULL name */
	size_t			 state_size;	/* sizeof the flat state struct */
	size_t			 setup_size;	/* sizeof the parsed set-up */

	/* Fills computed defaults, checks cross-option rules. -1 + cause. */
	int	(*resolve)(struct opts *, char *, size_t);
	/* Deals a new game; setup is NULL (random) or from setup_parse. */
	void	(*init)(void *st, const struct opts *, const void *setup,
		    struct rng *, struct events *);
	/* The mask of seats that must decide now; 0 when the game is over. */
	uint32_t (*deciders)(const void *st);
	/* Writes the legal entries of player (at most max); returns count. */
	int	(*legal)(const void *st, int player, struct legal *, int max);
	/* Applies a legal action; -1 (state untouched) if it is not legal. */
	int	(*apply)(void *st, int player, struct action, struct rng *,
		    struct events *);
	/* The game's default move for a faulty seat (always legal). */
	struct action (*default_action)(const void *st, int player);
	int	(*over)(const void *st);
	/* Final places (1 = first, ties share) and scores of a finished game. */
	void	(*result)(const void *st, int *places, double *scores);
	/* Checks the invariants (conservation...); -1 + cause when broken. */
	int	(*check)(const void *st, char *, size_t);
	/*
	 * Re-deals everything seat may not see (others' hands, the stock
	 * order, ...) keeping what seat sees; used by the view-leak tests.
	 */
	void	(*perturb)(void *st, int seat, struct rng *);

	/*
	 * The codec: the writers (jw.h) give a view (SEAT_ALL too), an action
	 * (its amount through jw_amount()) and an event as a tree or as text
	 * from one code (game_view_json() and the others below wrap them).
	 */
	void	(*view_write)(const void *st, int seat, struct jw *);
	void	(*action_write)(const void *st, int player, struct action,
		    struct jw *);
	void	(*event_write)(const void *st, const struct event *,
		    struct jw *);
	/* Parses an action given by value; -1 + cause if malformed. */
	int	(*action_parse)(const void *st, int player, const json_t *,
		    struct action *, char *, size_t);
	/* Parses a --setup document; -1 + cause if invalid. */
	int	(*setup_parse)(const json_t *, const struct opts *, void *setup,
		    char *, size_t);

	/*
	 * Determinization (vread.h): builds in st a full state whose view
	 * for seat is view (as game_view_json(g, st, seat) wrote it) under the
	 * options o, drawing every hidden part at random among the
	 * completions consistent with the view; -1 + cause if the view
	 * cannot be read.  Others' sealed choices still hidden are drawn
	 * too (see each game's *_det.c).
	 */
	int	(*determinize)(void *st, const struct opts *o, int seat,
		    const json_t *view, struct rng *, char *, size_t);
};

extern const struct game *const games[];	/* NULL-terminated */

const struct game *game_find(const char *);
/* "did you mean GAME? " when one game's name is close to name, else "". */
const char	*game_near(const char *name, char *buf, size_t len);
/*
 * The kind of an action object: its "type" (the key in every game), or
 * for a bot of protocol 1 written when nyse and daifugo used "action",
 * its "action"; NULL if neither.
 */
const json_t	*action_kind(const json_t *);	/* rules.c */
/* rules.c: the index of the JSON string j among the NULL-ended names, or -1. */
int		 word_index(const char *const *names, const json_t *j);
/* rules.c: a view's "seat": its seat, or null in the all-seeing view. */
void		 view_seat_write(struct jw *, int seat);

/* rules.c: events */
void	 ev_push(struct events *, uint32_t seen, int type, int64_t x,
	    int32_t a0, int32_t a1, int32_t a2, int32_t a3, int32_t a4);
void	 ev_clear(struct events *);
void	 ev_free(struct events *);

/* options.c */
void	 opts_defaults(const struct game *, struct opts *, int players);
int	 opts_set(const struct game *, struct opts *, const char *keyval,
	    char *, size_t);
int	 opts_finish(const struct game *, struct opts *, char *, size_t);
/*
 * Writes an option's JSON value as the text opts_set takes ("on"/"off",
 * a number, a word, or a list as "1,2,3"); -1 for any other value.
 */
int	 opt_value_text(const json_t *, char *, size_t);
int	 opts_from_json(const struct game *, struct opts *, const json_t *,
	    char *, size_t);
json_t	*opts_json(const struct game *, const struct opts *);
json_t	*game_describe(const struct game *);
int	 opt_index(const struct game *, const char *);

/* rules.c: the engine-side helpers every game uses */
int	 legal_find(const struct legal *, int, struct action);
/*
 * A uniformly random entry of the n > 0 in l as an action, its amount
 * uniform in a ranged entry's range (the entry drawn first): the
 * referee's random substitute, the library's and fuzzer's playouts.
 */
struct action legal_pick(const struct legal *, int, struct rng *);
int	 legal_contains(const struct game *, const void *st, int player,
	    struct action);
void	 places_from_scores(int n, const double *scores, int *places);
/*
 * The codec's trees, new references written by the game's writers:
 * seat's view (SEAT_ALL: all-seeing), an action, an event.
 */
json_t	*game_view_json(const struct game *, const void *st, int seat);
json_t	*game_action_json(const struct game *, const void *st, int player,
	    struct action);
json_t	*game_event_json(const struct game *, const void *st,
	    const struct event *);
json_t	*legal_json(const struct game *, const void *st, int player,
	    const struct legal *, int n);
void	 legal_write(const struct game *, const void *st, int player,
	    const struct legal *, int n, struct jw *);
/*
 * The bits set in a mask, inline: without -mpopcnt (a build for any
 * x86-64) the builtin is a call into libgcc that walks a table, 5.6% of
 * a daifugo referee's instructions.
 */
static inline int
popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int
popcount32(uint32_t x)
{
	return popcount64(x);
}

#endif
