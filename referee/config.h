/*
 * A match's configuration and result, and the fault policies' names
 * (config.c): what the match runner (match.c), its log (matchlog.c) and
 * the programs that fill a configuration (the referee's command line, a
 * tournament file's "on_fault") share, in a unit of its own so that none
 * of them reaches into another for it.
 */
#ifndef CARDARENA_CONFIG_H
#define CARDARENA_CONFIG_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "playorder.h"
#include "proto.h"

/* The time limits a match has unless told (a runner names them to
 * bots that ran out: tournaments/rating/advice.c). */
#define DEF_TIME_PER_MOVE_MS	1000
#define DEF_TIME_BANK_MS	10000		/* per bot per game */
#define DEF_TIME_HELLO_MS	10000

enum policy {
	POLICY_RANDOM,		/* a seeded random legal move */
	POLICY_DEFAULT,		/* the game's default move */
	POLICY_RETIRE		/* default moves for the rest of the game */
};

extern const char *const policy_names[];	/* NULL-terminated */

/* The policy called name; -1 if there is none. */
int	 policy_parse(const char *name);

struct match_config {
	const struct game	*game;
	struct opts		 opts;		/* finished: opts_finish() */
	const void		*setup;		/* setup_parse() output or NULL */
	const json_t		*setup_json;	/* its document, for the log */
	const void		*book;		/* a deal book's set-ups, or NULL */
	int			 nbook;
	const json_t		*book_json;	/* its documents, for the log */
	uint64_t		 seed;		/* the match seed, < 2^63 */
	int			 games;		/* games in the match */
	const int		*game_list;	/* play only these, or NULL */
	int			 ngame_list;
	int			 no_replay;	/* a list of whole lifetimes */
	int			 first_game;	/* lifetimes begin here (a
						 * runner's chunk), else 0 */
	int			 duplicate;	/* every deal from every seat */
	long			 max_decisions;	/* per game; 0: no cap */
	int			 log_lean;	/* no message text in the log */
	long long		 log_max;	/* bytes; 0: no cap */
	int			 nbots;		/* = opts.players */
	char *const		*commands;	/* the -b strings */
	const char		*log_path;	/* NULL: no log */
	const char		*results_path;	/* NULL: none, "-": stdout */
	size_t			 stderr_cap;	/* bytes kept per bot */
	long			 time_per_move_ms;
	long			 time_bank_ms;	/* per bot per game */
	long			 time_hello_ms;
	long			 grace_ms;	/* to exit after "bye" */
	enum policy		 policy;
	long			 max_faults;	/* per bot per game; 0: none */
	size_t			 max_output;	/* stdout bytes per request */
	volatile sig_atomic_t	*stop;		/* a signal number: abort */
	/* set: end after the game in play (with duplicate, the deal in
	 * play: the later rotations play up to it), as if the list ended */
	volatile sig_atomic_t	*finish;
};

/* Fills in the defaults: one game, the time limits below, ... */
void	 match_config_init(struct match_config *);

struct match_result {
	int	nbots;
	int	games_played;
	int	places[MAX_PLAYERS];		/* per bot, 1 = first */
	double	scores[MAX_PLAYERS];		/* per bot, over the games */
	int	place_sum[MAX_PLAYERS];		/* per bot, the games' places */
	long	faults[MAX_PLAYERS][NFAULT];
	char	names[MAX_PLAYERS][MAX_NAME + 1];
	int	aborted;			/* the signal that stopped it */
	int	unstarted;			/* 1 + the bot that could not start */
	int	disk_full;			/* a write failed for want of space */
	/* Measurements (bench, --stats). */
	long	decisions;			/* requests sent to bots */
	long	actions;			/* actions applied */
	int64_t	wall_us;			/* the whole match */
	int64_t	play_us;	/* in its games: no start, hello, end */
	int64_t	wait_us;			/* spent blocked in poll(2) */
};

#endif
