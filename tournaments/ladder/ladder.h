/*
 * The ladder (tournament ladder ...): a competition that never stops.  Bots
 * enter, are updated and retire while tables are played one after another
 * on the pool; every game goes into one SQLite file per ladder (the store),
 * the ratings are refitted every few games with rate.c, and a static site
 * of standings is written after each refit.  The manual,
 * docs/man/cardarena-tournament-ladder.1, documents the store's schema.
 *
 * Ownership: a struct lstore owns its database handle and statements; a
 * struct lversion array from lstore_versions is the caller's, released by
 * lversions_free.  Library functions return -1 and write a cause.
 */
#ifndef CARDARENA_LADDER_H
#define CARDARENA_LADDER_H

#include <stdint.h>

#include <jansson.h>

#include "base/tfile.h"
#include "rating/rate.h"
#include "rating/report.h"


#define LADDER_DB	"ladder.db"
#define LADDER_SCHEMA	2		/* the store's schema version */
#define LNAME_MAX	40		/* a bot's name */
#define LDESC_NAME	"bot.json"	/* an inbox entry's description */
#define LDESC_MAX	65536		/* its size, and a settings' comment */
#define LBOT_MAX_BYTES	(256LL << 20)	/* a bot's files, by default */
#define LBOT_MAX_FILES	10000L		/* its files, dirs and links */
#define LQUARANTINE	4		/* failed tables in a row */
/* play a table when auto: long enough that its bots' start-ups (a
 * sandbox each, some 0.1-0.2 s of CPU here) cost a few percent, short
 * enough that the pairing follows the ratings and a new version soon
 * plays (a run's chunks are shorter: CHUNK_SECONDS) */
#define LTABLE_SECONDS	20.0
/* games a table at most: its referee's --game-list fits one argument */
#define LTABLE_MAX_GAMES 10000

struct sqlite3;
struct sqlite3_stmt;

struct lstore {
	struct sqlite3	*db;
	char		*dir;		/* the ladder's directory */
	char		*path;		/* its ladder.db */
};

/* One version of a bot, as the store holds it. */
struct lversion {
	long	 id;		/* versions.id */
	long	 bot;		/* bots.id */
	char	*bot_name;
	int	 version;
	char	*player;	/* "NAME.vN", in journals and tables */
	char	*command;
	char	*dir;		/* the copy in the store, or NULL */
	json_t	*env;		/* an object of strings, or NULL */
	char	*owner;
	int64_t	 entered, retired;	/* unix seconds; 0: not */
	int	 active;
	char	*quarantine;	/* why it is kept from play, or NULL */
	/* filled by the run */
	long	 games, last;	/* games since a fit, last table */
	int	 inflight;	/* tables it sits at now */
	int	 fails;		/* its last tables that failed, in a row */
	long	 after;		/* backed off: not seated before table */
};

/* What a ladder lets a bot bring in (its settings' "ladder" object). */
struct llimits {
	long long	 bytes;		/* its regular files' sizes in all */
	long		 files;		/* its files, directories and links */
};

/* ladder_store.c: the SQLite store */

/* Opens (create: makes) DIR/ladder.db in WAL mode; -1 and a cause. */
int	 lstore_open(struct lstore *, const char *dir, int create, char *,
	    size_t);
void	 lstore_close(struct lstore *);
/* A prepared statement (the caller finalizes it), or NULL and a cause. */
struct sqlite3_stmt *lstore_prep(struct lstore *, const char *sql, char *,
	    size_t);
/* Runs SQL text (no results); -1 and the database's cause. */
int	 lstore_exec(struct lstore *, const char *sql, char *, size_t);
/* A meta value: a new string, or NULL when it is not set. */
char	*lstore_meta(struct lstore *, const char *key);
/* Sets a meta value; -1 and a cause. */
int	 lstore_set_meta(struct lstore *, const char *key, const char *value,
	    char *, size_t);
/* Every version of every bot, in id order; -1 and a cause. */
int	 lstore_versions(struct lstore *, struct lversion **, int *, char *,
	    size_t);
void	 lversions_free(struct lversion *, int);
/*
 * Enters a version of bot name (a new bot when it has none; else the
 * newest active version retires): returns the new version's number, or
 * -1 and a cause.  dir is the copy's path in the store, or NULL.
 */
int	 lstore_add_version(struct lstore *, const char *name,
	    const char *owner, const char *command, const char *dir,
	    const json_t *env, char *, size_t);
/* The number the next version of name will get (1 for a new bot). */
int	 lstore_next_version(struct lstore *, const char *name);
/* Retires every active version of name; -1 and a cause (no such bot). */
int	 lstore_retire(struct lstore *, const char *name, char *, size_t);
/*
 * Starts a table: its seats (version ids in seat order), games lo..hi-1;
 * sets its seed (derived from the master seed and its number) and, when
 * logs, its log (a new string, "logs/tNNNNNN.jsonl"); returns its number
 * (> 0), or -1 and a cause.
 */
long	 lstore_table(struct lstore *, int k, const long *versions, long lo,
	    long hi, uint64_t master, int logs, uint64_t *seed, char **log,
	    char *, size_t);
/* Marks a table ended; -1 and a cause. */
int	 lstore_table_end(struct lstore *, long table, char *, size_t);
/* Marks every table not ended as abandoned (after a kill); the count. */
long	 lstore_abandon(struct lstore *);
/*
 * Commits one game: its journal line (jgame_json's) and its seats'
 * versions, in one transaction: 0, 1 if (table, game) was already in,
 * -1 and a cause.
 */
int	 lstore_game(struct lstore *, const struct jgame *, const long *vers,
	    const json_t *line, char *, size_t);
/*
 * The ladder's settings (meta "settings", a tournament file without
 * bots) with the versions v as its first bots (then placeholders up to
 * MAX_PLAYERS, never seated), checked as a tournament file is; -1 and a
 * cause.
 */
int	 ladder_tour(struct lstore *, const struct lversion *v, int n,
	    struct tour *, char *, size_t);
/*
 * Reads a settings' "ladder" object (NULL: none) into l, the defaults
 * for what it does not say; -1 and a cause (an unknown key, a bad value).
 */
int	 llimits_parse(const json_t *, struct llimits *, char *, size_t);
/* The limits of a ladder's settings; -1 and a cause. */
int	 lstore_limits(struct lstore *, struct llimits *, char *, size_t);
/*
 * Keeps a version from play with its cause (cause NULL: lets it play
 * again); -1 and the database's cause in err.
 */
int	 lstore_quarantine(struct lstore *, long version, const char *cause,
	    char *err, size_t);
/* The integer a one-value query gives, 0 if none. */
long	 lstore_scalar(struct lstore *, const char *sql);
/*
 * Calls fn with every game line (parsed) in commit order from game id
 * after on; -1 and a cause (also when fn fails).
 */
int	 lstore_games(struct lstore *, long after,
	    int (*fn)(void *, long id, const struct jgame *, char *, size_t),
	    void *, char *, size_t);

/* ladder_rate.c: the ratings and the tables */

struct lrating {
	struct rating	 r;
	long		 last_id;	/* the last game added */
	long		 max_table;	/* the highest table seen */
};

/* The rating options of a ladder (its meta boot, prior and seed). */
void	 lrate_opts(struct lstore *, struct rate_opts *);
/*
 * Starts a rating of the store's games; warm: each fit starts from the
 * last one's result (else every fit is the one tournament rate makes).
 */
void	 lrate_init(struct lstore *, struct lrating *, int warm);
/*
 * Adds every game committed after the last one added, as tournament
 * rate adds the export's lines; -1 and a cause.
 */
int	 lrate_update(struct lstore *, struct lrating *, char *, size_t);
void	 lrate_free(struct lrating *);
/*
 * Saves a fit in the store (a fits row, a ratings row per version): the
 * ratings over time; -1 and a cause.
 */
int	 lrate_save(struct lstore *, const struct lrating *, char *, size_t);
/*
 * Writes the rating's table as FORMAT to fp, the bytes `tournament rate`
 * writes to stdout of the export saved in the ladder's directory (the
 * html's recent games linking their logs as it does); -1 and a cause.
 */
int	 lrate_report(struct lstore *, const struct lrating *, FILE *,
	    enum report_fmt, char *, size_t);
/* What the site's page of the table adds. */
struct lpage {
	const char	*nav;	/* links atop the page */
	const char	*pre;	/* logs linked as PRE + "logs/..." */
	int		 live;	/* a run plays: no log of a table in play */
};
/* The table as lrate_report writes it, or as the site's page (pg). */
int	 lrate_page(struct lstore *, const struct lrating *, FILE *,
	    enum report_fmt, const struct lpage *, char *, size_t);
/*
 * Writes the ladder's journal (a header, then every game in commit
 * order) to fp; -1 and a cause.
 */
int	 ladder_export(struct lstore *, FILE *, char *, size_t);
/* The journal header of a ladder: a new reference. */
json_t	*ladder_header(struct lstore *);

/* ladder_site.c: the static site */

/*
 * Writes the site for the fitted rating into DIR/site atomically (a new
 * directory, then a symlink renamed over the old); live 1 as a running
 * ladder shows it (its tables in play), 0 at rest, -1 as the run lock
 * says; -1 and a cause.
 */
int	 ladder_site(struct lstore *, const struct lrating *, int, char *,
	    size_t);

/* ladder_serve.c */

#define LSERVE_IDLE	10	/* seconds an idle connection is kept */
/*
 * Serves the ladder's published site (and the logs of tables ended)
 * read-only on 127.0.0.1:port until a signal, closing a connection idle
 * for idle seconds; -1 and a cause.
 */
int	 ladder_serve(struct lstore *, int port, int idle, char *, size_t);

/* ladder_pair.c: who sits at the next table */

struct lcand {
	int	 idx;		/* the caller's index */
	double	 elo, pm;	/* pm NaN: not rated yet */
	long	 games;
	long	 since;		/* tables since it last played */
	int	 fresh;		/* a new version */
	int	 inflight;
};

/*
 * Chooses k of the n candidates for one table (k <= n): the one a game
 * tells most about first (new, few games, wide interval, long unplayed),
 * then opponents near its rating and uncertain themselves; writes their
 * positions in cands into out, in seat order.  -1 if n < k.
 */
int	 pair_choose(const struct lcand *, int n, int k, struct rng *,
	    int *out);

/* ladder.c */
int	 cmd_ladder(int, char **);

/* ladder_run.c */

struct lrun_opts {
	int	 jobs;
	long	 max_games;	/* stop after so many games; 0: never */
	int	 refit_every;	/* games between refits */
	const char *inbox;	/* looked into at every refit, or NULL */
	int	 quiet;
};

/*
 * Renders the HTML replay (LOG.html, bin/replay --html) of a table no
 * longer in play whose log holds a game (ended, stopped by a signal or
 * abandoned) when it has none as new as its log, whole or not at all: 1
 * rendered, 0 nothing to render (or it failed, said), -1 and a cause.
 * The run renders them in the background, after play.
 */
int	 ladder_replay(struct lstore *, long table, char *, size_t);
/*
 * Renders every replay missing (the one owner of that list, with the
 * run's background queue: `ladder site`, and the count a run's end
 * says), and notes in the store's meta "replays_upto" the table before
 * the first one in play: the number rendered, or -1 and a cause.
 */
long	 ladder_replays(struct lstore *, char *, size_t);
/* Plays the ladder until stopped; the exit status for main. */
int	 ladder_run(struct lstore *, const struct lrun_opts *);

#endif
