/*
 * The tournament file (tfile.c): read, checked and turned into the
 * journal's header and the settings it was read as.
 *
 * Ownership: every structure here owns what it points to and is released
 * by its _free function; names and strings handed in are copied.  Library
 * functions return -1 (or NULL) and write a cause; only main() exits.
 */
#ifndef CARDARENA_BASE_TFILE_H
#define CARDARENA_BASE_TFILE_H

#include <stdint.h>

#include <jansson.h>

#include "base/schedule.h"

#define DEF_LOG_MAX	(64L << 20)	/* bytes per table log */
#define DEF_MAX_DECISIONS 100000	/* per game */

struct tbot {
	char	*name;
	char	*command;
	char	*dir;		/* working directory, or NULL */
	char   **env;		/* "KEY=VALUE" strings */
	int	 nenv;
};

/* "affinity": absent (pin.h decides), true, false. */
enum { AFFINITY_AUTO, AFFINITY_ON, AFFINITY_OFF };

struct tour {
	char		*path;
	const char	*plan;		/* a job's plan file (its seeds): hidden */
	char		*name;
	char		*game;
	char	       **optv;		/* game options as "KEY=VALUE" */
	int		 nopt;
	json_t		*options;	/* the resolved options (header) */
	int		 seats;
	struct tbot	*bots;
	int		 nbots;
	long		 deals;		/* deals per table */
	long		 deals_per_run;	/* deals a referee run plays; 0 auto */
#define CHUNK_SECONDS	3.0		/* play per referee run when auto */
	int		 duplicate;
	int		 logs;		/* keep a match log per table run */
	int		 affinity;	/* AFFINITY_*: slots on CPUs (pin.h) */
	int		 together;	/* the game asks bots together
					 * (cpu_asks_together()) */
	int		 log_full;	/* every message's text in the logs */
	long long	 log_max;	/* bytes per log */
	long		 max_decisions;	/* per game; 0: no cap */
	int		 replays;	/* render them as HTML replays */
	long		 time_per_move;	/* ms, 0: the referee's default */
	long		 time_bank;	/* ms, 0: the referee's default */
	long		 time_hello;	/* ms, 0: the referee's default */
	char		*on_fault;	/* NULL: the referee's default */
	int		 jobs;
	char		*outdir;
	uint64_t	 seed;
	int		 seed_named;	/* the file names it (else fresh) */
	json_t		*gauntlet;	/* a gauntlet's settings, or NULL */
	char		*deal_book;	/* a file of deals played in order */
	char		 book_hash[48];	/* its deals' count and fingerprint */
	enum sched_mode	 mode;
	long		 count;		/* rounds or tables */
	long		 max_tables;
	char		*referee;	/* NULL: beside bin/tournament */
	char	       **refargs;	/* extra referee arguments */
	int		 nrefargs;
	char	       **hide;		/* kept from every bot where present */
	int		 nhide;
	int		 sandbox;	/* 1: "sandbox": true, 2: "auto" (default) */
	int		 sandbox_checked; /* 1: the runner checked it works */
	json_t		*file;		/* the file's JSON, as read */
};

/*
 * Reads and checks a round robin's tournament file (at least as many bots
 * as seats); -1 and a cause.
 */
int	 tour_load(struct tour *, const char *path, char *, size_t);
/* Reads a tournament file's JSON: a new reference, or NULL and a cause. */
json_t	*tour_read(const char *path, char *, size_t);
/* Checks a tournament file's JSON (path names it); -1 and a cause. */
int	 tour_parse(struct tour *, const json_t *, const char *path, char *,
	    size_t);
/*
 * The same with at most maxbots bots, not a file's MAX_BOTS: a ladder's
 * tournament (every bot it may seat; each table seats a few).
 */
int	 tour_parse_max(struct tour *, const json_t *, const char *path,
	    int maxbots, char *, size_t);
/* Games each table plays: deals, times the seats when duplicate. */
long	 tour_games_per_table(const struct tour *);
/*
 * Every key of a tournament file as t was read: the file's value or the
 * default the parser filled in, null where the referee decides or there
 * is none (tournament schedule --settings); a new reference.
 */
json_t	*tour_settings(const struct tour *);
/* The journal header of a tournament and its schedule: a new reference. */
json_t	*tour_header(const struct tour *, const struct schedule *);
void	 tour_free(struct tour *);
/* Appends a path to hide (see "hide" in tournament(5)). */
void	 tour_hide(struct tour *, const char *);
/* Appends a referee argument (and its value unless NULL) to refargs. */
void	 tour_refarg(struct tour *, const char *, const char *);

#endif
