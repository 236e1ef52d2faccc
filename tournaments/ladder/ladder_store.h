/*
 * The ladder's store (ladder_store.c): one SQLite file per ladder,
 * DIR/ladder.db, holding its settings, bots and versions, tables, games
 * and ratings over time (the schema: cardarena-tournament-ladder(1));
 * also the limits a ladder puts on the bots entered, and the tournament
 * file its settings make.
 *
 * Ownership: a struct lstore owns its database handle and statements; a
 * struct lversion array from lstore_versions is the caller's, released by
 * lversions_free.  Library functions return -1 and write a cause.
 */
#ifndef CARDARENA_LADDER_STORE_H
#define CARDARENA_LADDER_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define LADDER_DB	"ladder.db"
#define LADDER_SCHEMA	4		/* the store's schema version */
#define LNAME_MAX	40		/* a bot's name */
#define LDESC_NAME	"bot.json"	/* an inbox entry's description */
#define LDESC_MAX	65536		/* its size, and a settings' comment */
#define LBOT_MAX_BYTES	(256LL << 20)	/* a bot's files, by default */
#define LBOT_MAX_FILES	10000L		/* its files, dirs and links */
#define LADDER_MAX_BOTS	100000		/* active bots a run seats from (a
					 * file's MAX_BOTS is for a table's few) */

struct jgame;
struct sqlite3;
struct sqlite3_stmt;
struct tour;

/* The statements a store prepares once and keeps (lstore_game's). */
enum lstmt {
	LST_SAVEPOINT, LST_RELEASE, LST_GAME, LST_RESULT, LST_N
};

struct lstore {
	struct sqlite3	*db;
	char		*dir;		/* the ladder's directory */
	char		*path;		/* its ladder.db */
	struct sqlite3_stmt *st[LST_N];	/* prepared on first use */
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
/*
 * Marks every table not ended as abandoned (after a kill), but with
 * keep_jobs those played as jobs (ladder_jobs.c resumes them: a job out,
 * or their games all in and their logs not yet copied; without, their
 * jobs out are marked stopped); the count.
 */
long	 lstore_abandon(struct lstore *, int keep_jobs);
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
 * The settings (without the ladder's own "ladder" object) with the
 * versions v[0..n-1] as its bots, in that order: a tournament file as a
 * new reference, or NULL and a cause.
 */
json_t	*ladder_file(struct lstore *, const struct lversion *const *v, int n,
	    char *, size_t);
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

#endif
