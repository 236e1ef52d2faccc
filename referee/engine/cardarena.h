/*
 * cardarena.h: the rules engines of cardarena (stocks, speculation, nyse,
 * daifugo, horserace) as a library for bot authors: the same exact,
 * fuzzed engines the referee runs, to search, simulate or learn with.
 * Link with `pkg-config --cflags --libs cardarena` (libcardarena.a or
 * libcardarena.so); Python binds it through ctypes (bots/python).
 *
 * A struct ca_game is one game in progress: its rules, options, state
 * and random generator.  Players are seats 0..players-1.  Actions are the
 * engine's integer codes plus an amount for a ranged legal entry, exactly
 * as the referee's legal lists carry them; the JSON forms (views, legal
 * lists, actions) are the protocol's (protocol.md), byte for byte.
 *
 * A bot that searches turns the view it is sent into full games with
 * ca_determinize(): every hidden part (other hands, the stock's order...)
 * drawn at random among the completions consistent with that view.
 *
 * Ownership: a struct ca_game and a struct ca_view belong to the caller,
 * who frees them with ca_free() and ca_view_free(); text returned as a
 * char * is the caller's, freed with ca_text_free().  Errors: a function
 * that can fail returns NULL or -1 and writes a cause into err (errlen
 * bytes; err may be NULL).  Nothing here does I/O or keeps global state;
 * distinct games may be used from distinct threads.
 */
#ifndef CARDARENA_H
#define CARDARENA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CA_VERSION	1	/* of this interface */
#define CA_ALL		(-1)	/* the all-seeing view's seat */
#define CA_MAX_LEGAL	8192	/* most legal entries a player may have */
#define CA_MAX_PLAYERS	12

struct ca_game;
struct ca_view;

/* One legal entry: a fixed action (ranged 0), or a code with [lo, hi]. */
struct ca_legal {
	int64_t	code;
	int32_t	lo, hi;
	int32_t	ranged;
};

/* The id of the i-th game ("stocks"...), NULL past the last. */
const char	*ca_game_name(int i);

/*
 * A new game of id game dealt from seed: players (0: the game's default,
 * or the options' "players"), options a JSON object as a hello's
 * "options" or --describe's names give them ({"max_turns": 50}), or NULL
 * for the defaults.  NULL + cause if the game or an option is wrong.
 */
struct ca_game	*ca_new(const char *game, int players, const char *options,
		    uint64_t seed, char *err, size_t errlen);
/* A copy of g (state and generator), or NULL if out of memory. */
struct ca_game	*ca_clone(const struct ca_game *g);
/* Copies src's state and generator into dst, a game of the same rules. */
int		 ca_copy(struct ca_game *dst, const struct ca_game *src);
void		 ca_free(struct ca_game *g);
/* Re-seeds g's generator (the chance inside ca_apply and ca_determinize). */
void		 ca_seed(struct ca_game *g, uint64_t seed);

/* The game's id and its number of players. */
const char	*ca_name(const struct ca_game *g);
int		 ca_players(const struct ca_game *g);
/* The mask of the seats that must decide now (several at once: sealed
 * choices); 0 once the game is over. */
uint32_t	 ca_deciders(const struct ca_game *g);
int		 ca_over(const struct ca_game *g);
/* Writes player's legal entries (at most max); their count, 0 if player
 * does not decide now. */
int		 ca_legal(const struct ca_game *g, int player,
		    struct ca_legal *legal, int max);
/* Plays player's action (amount only for a ranged entry); -1, g
 * untouched, if it is not legal. */
int		 ca_apply(struct ca_game *g, int player, int64_t code,
		    int32_t amount);
/* The game's move for a player that must decide (always legal). */
int		 ca_default_action(const struct ca_game *g, int player,
		    int64_t *code, int32_t *amount);
/*
 * Plays g on by uniformly random legal actions (a uniform amount in a
 * ranged entry), drawn with g's generator, for at most max_actions (0:
 * no bound) or to its end; the number played, -1 if a decider had no move.
 * A fast playout for a search written in a slower language.
 */
long		 ca_playout(struct ca_game *g, long max_actions);
/* Places (1 = first, ties share) and scores of a finished game; -1 if it
 * is not over.  Either pointer may be NULL. */
int		 ca_result(const struct ca_game *g, int *places,
		    double *scores);
/*
 * The engine's flat state, for code built with the engine's private
 * headers (referee/engine/games/<game>.h: the bundled search bots' playout
 * policies); its layout is no part of this interface.
 */
const void	*ca_state(const struct ca_game *g);
/* Checks the engine's invariants; -1 + cause if one is broken. */
int		 ca_check(const struct ca_game *g, char *err, size_t errlen);

/* The view of seat as the referee sends it (CA_ALL: everything). */
char		*ca_view_json(const struct ca_game *g, int seat);
/* player's legal list as the referee sends it. */
char		*ca_legal_json(const struct ca_game *g, int player);
/* An action as JSON, and back (the object a bot may answer with). */
char		*ca_action_json(const struct ca_game *g, int player,
		    int64_t code, int32_t amount);
int		 ca_action_parse(const struct ca_game *g, int player,
		    const char *json, int64_t *code, int32_t *amount,
		    char *err, size_t errlen);
void		 ca_text_free(char *text);

/* A view (JSON text, as ca_view_json or the referee gives it) parsed once
 * for many determinizations; NULL + cause if it is not JSON. */
struct ca_view	*ca_view_parse(const char *json, char *err, size_t errlen);
void		 ca_view_free(struct ca_view *v);
/*
 * Makes g a full game consistent with seat's view v under g's options,
 * every hidden part drawn with g's generator uniformly among the
 * completions the view allows (see the game's notes in HACKING.md);
 * ca_view_json(g, seat) then gives the view back byte for byte.  -1 +
 * cause if the view is not one of this game (g's state is then
 * undefined until the next ca_determinize or ca_copy).
 */
int		 ca_determinize(struct ca_game *g, int seat,
		    const struct ca_view *v, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
