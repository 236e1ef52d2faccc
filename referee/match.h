/*
 * The match runner: spawns the bots of one match, runs its games through
 * the rules engine and the bot protocol (protocol.md) in one poll(2) loop,
 * handles every bot fault by the fault policy, writes the match log and
 * the per-game results lines, and always ends with a result unless the
 * referee itself fails or is stopped.  It never exits the process: errors
 * come back as -1 and a cause, with every bot process group killed and
 * reaped.  bin/referee is a thin command line around match_run(); the
 * tournament runner can call it directly.
 */
#ifndef CARDARENA_MATCH_H
#define CARDARENA_MATCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "playorder.h"
#include "proto.h"

enum policy {
	POLICY_RANDOM,		/* a seeded random legal move */
	POLICY_DEFAULT,		/* the game's default move */
	POLICY_RETIRE		/* default moves for the rest of the game */
};

extern const char *const policy_names[];	/* NULL-terminated */

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
};

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
	int64_t	wait_us;			/* spent blocked in poll(2) */
};

/*
 * Ranks the bots of a result: by scores summed over the games, equal sums
 * parted by summed places (place_sum), then shared.
 */
void	 match_places(struct match_result *);
/* Fills the defaults every field but game, opts, nbots and commands. */
void	 match_config_init(struct match_config *);
/*
 * Runs the match.  0 when it completed (whatever the bots did); -1 and a
 * cause when it could not start or the referee failed or was stopped
 * (result->aborted then holds the signal).
 */
int	 match_run(const struct match_config *, struct match_result *, char *,
	    size_t);
/* Returns 1 if a write error e means the disk (or the file size) is full. */
int	 match_disk_full(int);
/*
 * Returns the result line of the log and of bin/referee's stdout (a new
 * object; matchlog.c writes the log's lines).
 */
json_t	*match_result_json(const struct match_result *);

/*
 * The result of a game stopped by --max-decisions: a draw, every seat
 * first with a score of 0.
 */
void	 match_adjudicate(int, int *, double *);

#endif
