/*
 * The ladder's store: one SQLite file, DIR/ladder.db, in WAL mode (readers
 * such as `ladder status` or the site never block the run), holding the
 * settings (meta), the bots and their versions, the tables, every game (its
 * journal line, as jgame_json writes it, and its log) with one results row
 * per seat, and the ratings after every refit.  A game's identity is
 * (table, game index), UNIQUE in the games table, and each game is
 * committed in its own transaction: a process killed at any moment leaves
 * every committed game and no game twice (synchronous=NORMAL in WAL mode:
 * a committed transaction survives the process; the machine losing power
 * may lose the last few, never the file).  The schema is versioned
 * (meta schema_version) and described in cardarena-tournament-ladder(1).
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "alloc.h"
#include "base/journal.h"
#include "base/tfile.h"
#include "ladder/ladder_store.h"
#include "oneway.h"

/* Tables played as jobs (ladder_jobs.c): each job line written, and how
 * it went (state: out, done, lost, stopped). */
#define JOBS_SCHEMA \
"CREATE TABLE jobs (id INTEGER PRIMARY KEY,\n" \
"  tab INTEGER NOT NULL REFERENCES tables(id), lo INTEGER NOT NULL,\n" \
"  hi INTEGER NOT NULL, batch INTEGER NOT NULL, idx INTEGER NOT NULL,\n" \
"  line TEXT NOT NULL, fingerprint TEXT NOT NULL,\n" \
"  submitted INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'out',\n" \
"  UNIQUE (batch, idx));\n" \
"CREATE INDEX jobs_state ON jobs (state);\n"

/* A version's ratings over time, found without a scan of every fit's
 * (a bot's page reads them: a scan each was quadratic in the versions). */
#define RATINGS_INDEX \
"CREATE INDEX ratings_version ON ratings (version, fit);\n"

static const char schema[] =
"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
"CREATE TABLE bots (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,\n"
"  owner TEXT, entered INTEGER NOT NULL, retired INTEGER);\n"
"CREATE TABLE versions (id INTEGER PRIMARY KEY,\n"
"  bot INTEGER NOT NULL REFERENCES bots(id), version INTEGER NOT NULL,\n"
"  player TEXT NOT NULL UNIQUE, command TEXT NOT NULL, dir TEXT, env TEXT,\n"
"  entered INTEGER NOT NULL, retired INTEGER, quarantined INTEGER,\n"
"  quarantine TEXT, UNIQUE (bot, version));\n"
"CREATE TABLE tables (id INTEGER PRIMARY KEY, lo INTEGER NOT NULL,\n"
"  hi INTEGER NOT NULL, seed TEXT NOT NULL, log TEXT,\n"
"  started INTEGER NOT NULL, ended INTEGER,\n"
"  abandoned INTEGER NOT NULL DEFAULT 0);\n"
"CREATE TABLE seats (tab INTEGER NOT NULL REFERENCES tables(id),\n"
"  seat INTEGER NOT NULL, version INTEGER NOT NULL REFERENCES versions(id),\n"
"  PRIMARY KEY (tab, seat));\n"
"CREATE TABLE games (id INTEGER PRIMARY KEY,\n"
"  tab INTEGER NOT NULL REFERENCES tables(id), game INTEGER NOT NULL,\n"
"  deal INTEGER NOT NULL, line TEXT NOT NULL, log TEXT,\n"
"  played INTEGER NOT NULL, UNIQUE (tab, game));\n"
"CREATE TABLE results (game INTEGER NOT NULL REFERENCES games(id),\n"
"  seat INTEGER NOT NULL, version INTEGER NOT NULL REFERENCES versions(id),\n"
"  place INTEGER NOT NULL, score REAL, faults INTEGER NOT NULL,\n"
"  PRIMARY KEY (game, seat));\n"
"CREATE INDEX results_version ON results (version, game);\n"
"CREATE TABLE fits (id INTEGER PRIMARY KEY, at INTEGER NOT NULL,\n"
"  games INTEGER NOT NULL);\n"
"CREATE TABLE ratings (fit INTEGER NOT NULL REFERENCES fits(id),\n"
"  version INTEGER NOT NULL REFERENCES versions(id), elo REAL NOT NULL,\n"
"  pm REAL, games INTEGER NOT NULL, PRIMARY KEY (fit, version));\n"
JOBS_SCHEMA
RATINGS_INDEX;

/* From schema 1: a version kept from play, and why. */
static const char upgrade1[] =
"BEGIN IMMEDIATE;\n"
"ALTER TABLE versions ADD COLUMN quarantined INTEGER;\n"
"ALTER TABLE versions ADD COLUMN quarantine TEXT;\n"
"UPDATE meta SET value = '2' WHERE key = 'schema_version';\n"
"COMMIT;\n";

/* From schema 2: tables played as jobs. */
static const char upgrade2[] =
"BEGIN IMMEDIATE;\n"
JOBS_SCHEMA
"UPDATE meta SET value = '3' WHERE key = 'schema_version';\n"
"COMMIT;\n";

/* From schema 3: the ratings by version. */
static const char upgrade3[] =
"BEGIN IMMEDIATE;\n"
RATINGS_INDEX
"UPDATE meta SET value = '4' WHERE key = 'schema_version';\n"
"COMMIT;\n";

static int	 fail(struct lstore *, const char *, char *, size_t);
static sqlite3_stmt *kept(struct lstore *, enum lstmt, char *, size_t);
static int	 step_kept(struct lstore *, enum lstmt, const char *, char *,
		    size_t);
static char	*col_text(sqlite3_stmt *, int);
static int	 upgrade(struct lstore *, char *, size_t);
static json_t	*settings(struct lstore *, char *, size_t);

/* Writes the database's last error after what; returns -1. */
static int
fail(struct lstore *s, const char *what, char *cause, size_t len)
{
	snprintf(cause, len, "%s: %s: %s", s->path, what,
	    sqlite3_errmsg(s->db));
	return -1;
}

/* Prepares a statement; see ladder_store.h. */
sqlite3_stmt *
lstore_prep(struct lstore *s, const char *sql, char *cause, size_t len)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail(s, "prepare", cause, len);
		return NULL;
	}
	return st;
}

/* The SQL of each kept statement. */
static const char *const kept_sql[LST_N] = {
	[LST_SAVEPOINT] = "SAVEPOINT game",
	[LST_RELEASE] = "RELEASE game",
	[LST_GAME] = "INSERT INTO games (tab, game, deal, line, log, played) "
	    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
	[LST_RESULT] = "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
};

/*
 * Statement which, prepared the first time and kept in the store until it
 * closes (a game's statements, prepared for every game, were a good part
 * of its cost), reset with its bindings cleared; NULL and a cause.
 */
static sqlite3_stmt *
kept(struct lstore *s, enum lstmt which, char *cause, size_t len)
{
	if (s->st[which] == NULL)
		return s->st[which] = lstore_prep(s, kept_sql[which], cause,
		    len);
	sqlite3_reset(s->st[which]);
	sqlite3_clear_bindings(s->st[which]);
	return s->st[which];
}

/* Runs a kept statement without bindings or results; -1 and a cause. */
static int
step_kept(struct lstore *s, enum lstmt which, const char *what, char *cause,
    size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = kept(s, which, cause, len)) == NULL)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : fail(s, what, cause, len);
}

/* A column's text as a new string, or NULL. */
static char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

/* Brings a store of an older schema to this one's; -1 and a cause. */
static int
upgrade(struct lstore *s, char *cause, size_t len)
{
	char *v = lstore_meta(s, "schema_version");
	long n = v != NULL ? strtol(v, NULL, 10) : 0;

	free(v);
	if ((n == 1 && lstore_exec(s, upgrade1, cause, len) == -1) ||
	    (n <= 2 && n >= 1 && lstore_exec(s, upgrade2, cause, len) == -1) ||
	    (n <= 3 && n >= 1 && lstore_exec(s, upgrade3, cause, len) == -1)) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

/* Opens (or makes) the store; see ladder_store.h. */
int
lstore_open(struct lstore *s, const char *dir, int create, char *cause,
    size_t len)
{
	struct stat sb;
	char *v;
	int flags = SQLITE_OPEN_READWRITE, rc;

	memset(s, 0, sizeof *s);
	/* absolute: the bots' copies are found from any working directory */
	if ((s->dir = realpath(dir, NULL)) == NULL)
		s->dir = xstrdup(dir);
	if (asprintf(&s->path, "%s/%s", dir, LADDER_DB) == -1)
		abort();
	if (!create && stat(s->path, &sb) == -1) {
		snprintf(cause, len, "%s: not a ladder (no %s; make one with "
		    "tournament ladder init)", dir, LADDER_DB);
		goto bad;
	}
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if ((rc = sqlite3_open_v2(s->path, &s->db, flags, NULL)) !=
	    SQLITE_OK) {
		snprintf(cause, len, "%s: %s", s->path, sqlite3_errstr(rc));
		goto bad;
	}
	if (create)
		chmod(s->path, 0600);	/* it holds the seed */
	sqlite3_busy_timeout(s->db, 60000);
	if (lstore_exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous="
	    "NORMAL; PRAGMA foreign_keys=ON;", cause, len) == -1)
		goto bad;
	if (create) {
		if (lstore_exec(s, "BEGIN", cause, len) == -1 ||
		    lstore_exec(s, schema, cause, len) == -1 ||
		    lstore_exec(s, "INSERT INTO meta VALUES ('schema_version', "
		    "'4')", cause, len) == -1 ||
		    lstore_exec(s, "COMMIT", cause, len) == -1)
			goto bad;
		return 0;
	}
	if (upgrade(s, cause, len) == -1)
		goto bad;
	if ((v = lstore_meta(s, "schema_version")) == NULL ||
	    strtol(v, NULL, 10) != LADDER_SCHEMA) {
		snprintf(cause, len, "%s: schema version %s, this program "
		    "knows %d", s->path, v != NULL ? v : "(none)",
		    LADDER_SCHEMA);
		free(v);
		goto bad;
	}
	free(v);
	return 0;
bad:
	lstore_close(s);
	return -1;
}

/* Closes the store. */
void
lstore_close(struct lstore *s)
{
	int i;

	for (i = 0; i < LST_N; i++)
		sqlite3_finalize(s->st[i]);
	if (s->db != NULL)
		sqlite3_close(s->db);
	free(s->dir);
	free(s->path);
	memset(s, 0, sizeof *s);
}

/* Runs SQL without results; see ladder_store.h. */
int
lstore_exec(struct lstore *s, const char *sql, char *cause, size_t len)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(cause, len, "%s: %s", s->path, msg != NULL ? msg :
		    sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* A meta value; see ladder_store.h. */
char *
lstore_meta(struct lstore *s, const char *key)
{
	sqlite3_stmt *st;
	char cause[256], *v = NULL;

	if ((st = lstore_prep(s, "SELECT value FROM meta WHERE key = ?", cause,
	    sizeof cause)) == NULL)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = col_text(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Sets a meta value; see ladder_store.h. */
int
lstore_set_meta(struct lstore *s, const char *key, const char *value,
    char *cause, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = lstore_prep(s,
	    "INSERT OR REPLACE INTO meta VALUES (?, ?)", cause,
	    len)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, key, cause, len);
}

/* Every version, in id order; see ladder_store.h. */
int
lstore_versions(struct lstore *s, struct lversion **out, int *n,
    char *cause, size_t len)
{
	sqlite3_stmt *st;
	struct lversion *v = NULL, *e;
	const char *env;
	int cap = 0, rc;

	*n = 0;
	if ((st = lstore_prep(s,
	    "SELECT v.id, v.bot, b.name, v.version, v.player, "
	    "v.command, v.dir, v.env, b.owner, v.entered, v.retired, "
	    "v.quarantine FROM versions v JOIN bots b ON b.id = v.bot "
	    "ORDER BY v.id", cause,
	    len)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, (size_t)cap, sizeof *v);
		}
		e = &v[(*n)++];
		memset(e, 0, sizeof *e);
		e->id = sqlite3_column_int64(st, 0);
		e->bot = sqlite3_column_int64(st, 1);
		e->bot_name = col_text(st, 2);
		e->version = sqlite3_column_int(st, 3);
		e->player = col_text(st, 4);
		e->command = col_text(st, 5);
		/* its copy is always DIR/bots/NAME/vN, wherever DIR was
		 * named from (schema 1 kept the path as add was given it) */
		if (sqlite3_column_type(st, 6) != SQLITE_NULL && asprintf(
		    &e->dir, "%s/bots/%s/v%d", s->dir, e->bot_name,
		    e->version) == -1)
			abort();
		env = (const char *)sqlite3_column_text(st, 7);
		e->env = env != NULL ? json_loads(env, 0, NULL) : NULL;
		e->owner = col_text(st, 8);
		e->entered = sqlite3_column_int64(st, 9);
		e->retired = sqlite3_column_int64(st, 10);
		e->active = sqlite3_column_type(st, 10) == SQLITE_NULL;
		e->quarantine = col_text(st, 11);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		lversions_free(v, *n);
		*n = 0;
		return fail(s, "versions", cause, len);
	}
	*out = v;
	return 0;
}

/* Frees a version array. */
void
lversions_free(struct lversion *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].bot_name);
		free(v[i].player);
		free(v[i].command);
		free(v[i].dir);
		free(v[i].owner);
		free(v[i].quarantine);
		json_decref(v[i].env);
	}
	free(v);
}

/* The number of name's next version (1 for a new bot). */
int
lstore_next_version(struct lstore *s, const char *name)
{
	sqlite3_stmt *st;
	char cause[256];
	int n = 1;

	if ((st = lstore_prep(s,
	    "SELECT max(v.version) FROM versions v JOIN bots b "
	    "ON b.id = v.bot WHERE b.name = ?", cause, sizeof cause)) == NULL)
		return 1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		n = sqlite3_column_int(st, 0) + 1;
	sqlite3_finalize(st);
	return n;
}

/* Enters a version; see ladder_store.h. */
int
lstore_add_version(struct lstore *s, const char *name, const char *owner,
    const char *command, const char *dir, const json_t *env, char *cause,
    size_t len)
{
	sqlite3_stmt *st;
	char *envs = NULL, *player = NULL;
	int64_t now = (int64_t)time(NULL), bot;
	int ver = -1, rc;

	if (lstore_exec(s, "BEGIN IMMEDIATE", cause, len) == -1)
		return -1;
	if ((st = lstore_prep(s,
	    "INSERT INTO bots (name, owner, entered) VALUES "
	    "(?, ?, ?) ON CONFLICT (name) DO UPDATE SET retired = NULL, "
	    "owner = coalesce(excluded.owner, owner)", cause, len)) == NULL)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, owner, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail(s, "bots", cause, len);
		goto out;
	}
	if ((st = lstore_prep(s, "SELECT id FROM bots WHERE name = ?", cause,
	    len)) == NULL)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	bot = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		fail(s, "bots", cause, len);
		goto out;
	}
	if ((st = lstore_prep(s,
	    "UPDATE versions SET retired = ? WHERE bot = ? AND "
	    "retired IS NULL", cause, len)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, bot);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail(s, "versions", cause, len);
		goto out;
	}
	ver = lstore_next_version(s, name);
	if (asprintf(&player, "%s.v%d", name, ver) == -1)
		abort();
	if (env != NULL)
		envs = json_dumps(env, JSON_COMPACT | JSON_SORT_KEYS);
	if ((st = lstore_prep(s, "INSERT INTO versions (bot, version, player, "
	    "command, dir, env, entered) VALUES (?, ?, ?, ?, ?, ?, ?)", cause,
	    len)) == NULL) {
		ver = -1;
		goto out;
	}
	sqlite3_bind_int64(st, 1, bot);
	sqlite3_bind_int(st, 2, ver);
	sqlite3_bind_text(st, 3, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, command, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, envs, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail(s, "versions", cause, len);
		ver = -1;
		goto out;
	}
	if (lstore_exec(s, "COMMIT", cause, len) == -1)
		ver = -1;
out:
	if (ver == -1)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	free(envs);
	free(player);
	return ver;
}

/* Retires a bot; see ladder_store.h. */
int
lstore_retire(struct lstore *s, const char *name, char *cause, size_t len)
{
	sqlite3_stmt *st;
	int64_t now = (int64_t)time(NULL);
	int rc, n;

	if ((st = lstore_prep(s,
	    "UPDATE bots SET retired = ?1 WHERE name = ?2 AND "
	    "retired IS NULL", cause, len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "bots", cause, len);
	if ((n = sqlite3_changes(s->db)) == 0) {
		snprintf(cause, len, "no active bot called %s", name);
		return -1;
	}
	if ((st = lstore_prep(s,
	    "UPDATE versions SET retired = ?1 WHERE retired IS "
	    "NULL AND bot = (SELECT id FROM bots WHERE name = ?2)", cause,
	    len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "versions", cause, len);
}

/* Starts a table; see ladder_store.h. */
long
lstore_table(struct lstore *s, int k, const long *vers, long lo, long hi,
    uint64_t master, int logs, uint64_t *seed, char **log, char *cause,
    size_t len)
{
	sqlite3_stmt *st;
	char sd[32];
	long id = -1;
	int i, rc;

	*log = NULL;
	if (lstore_exec(s, "SAVEPOINT tab", cause, len) == -1)
		return -1;
	if ((st = lstore_prep(s,
	    "INSERT INTO tables (lo, hi, seed, started) VALUES (?, ?, '', ?)",
	    cause, len)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail(s, "tables", cause, len);
		goto out;
	}
	id = (long)sqlite3_last_insert_rowid(s->db);
	/* the table's seed and log follow from its number */
	*seed = seed_oneway(master, "table", (uint64_t)id);
	snprintf(sd, sizeof sd, "%" PRIu64, *seed);
	if (logs && asprintf(log, "logs/t%06ld.jsonl", id) == -1)
		abort();
	if ((st = lstore_prep(s, "UPDATE tables SET seed = ?, log = ? WHERE "
	    "id = ?", cause, len)) == NULL) {
		id = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, sd, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, *log, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		id = fail(s, "tables", cause, len);
		goto out;
	}
	if ((st = lstore_prep(s, "INSERT INTO seats VALUES (?, ?, ?)", cause,
	    len)) == NULL) {
		id = -1;
		goto out;
	}
	for (i = 0; i < k && id != -1; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_int64(st, 3, vers[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			id = fail(s, "seats", cause, len);
	}
	sqlite3_finalize(st);
	if (id != -1 && lstore_exec(s, "RELEASE tab", cause, len) == -1)
		id = -1;
out:
	if (id == -1) {
		sqlite3_exec(s->db, "ROLLBACK TO tab; RELEASE tab", NULL, NULL,
		    NULL);
		free(*log);
		*log = NULL;
	}
	return id;
}

/* Marks a table ended; see ladder_store.h. */
int
lstore_table_end(struct lstore *s, long table, char *cause, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = lstore_prep(s,
	    "UPDATE tables SET ended = ? WHERE id = ?", cause,
	    len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 2, table);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "tables", cause, len);
}

/* Marks the tables a killed run left open; see ladder_store.h. */
long
lstore_abandon(struct lstore *s, int keep_jobs)
{
	char cause[256];
	long n;

	if (lstore_exec(s, keep_jobs ? "UPDATE tables SET abandoned = 1, "
	    "ended = strftime('%s','now') WHERE ended IS NULL AND id NOT IN "
	    "(SELECT tab FROM jobs)" : "UPDATE tables SET "
	    "abandoned = 1, ended = strftime('%s','now') WHERE ended IS NULL",
	    cause, sizeof cause) == -1)
		return 0;
	n = (long)sqlite3_changes(s->db);
	/* played here, a job still out is no longer waited for */
	if (!keep_jobs)
		lstore_exec(s, "UPDATE jobs SET state = 'stopped' WHERE "
		    "state = 'out'", cause, sizeof cause);
	return n;
}

/* Commits one game; see ladder_store.h. */
int
lstore_game(struct lstore *s, const struct jgame *g, const long *vers,
    const json_t *line, char *cause, size_t len)
{
	sqlite3_stmt *st;
	char *text;
	long f, sum;
	int64_t id;
	int i, n, rc = -1;

	if ((text = json_dumps(line, JSON_COMPACT)) == NULL) {
		snprintf(cause, len, "cannot encode a game line");
		return -1;
	}
	/* a savepoint: a transaction of its own, or part of the caller's */
	if (step_kept(s, LST_SAVEPOINT, "savepoint", cause, len) == -1) {
		free(text);
		return -1;
	}
	if ((st = kept(s, LST_GAME, cause, len)) == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, g->table);
	sqlite3_bind_int64(st, 2, g->game);
	sqlite3_bind_int64(st, 3, g->deal);
	sqlite3_bind_text(st, 4, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, g->log, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)time(NULL));
	i = sqlite3_step(st);
	sqlite3_reset(st);
	if (i != SQLITE_DONE) {
		fail(s, "games", cause, len);
		goto out;
	}
	if (sqlite3_changes(s->db) == 0) {
		rc = 1;
		goto out;
	}
	id = sqlite3_last_insert_rowid(s->db);
	if ((st = kept(s, LST_RESULT, cause, len)) == NULL)
		goto out;
	for (i = 0; i < g->k; i++) {
		for (sum = 0, f = 0; f < NTFAULT_MAIN; f++)
			sum += g->faults[i][f];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_int64(st, 3, vers[i]);
		sqlite3_bind_int(st, 4, g->places[i]);
		sqlite3_bind_double(st, 5, g->scores[i]);
		sqlite3_bind_int64(st, 6, sum);
		if (sqlite3_step(st) != SQLITE_DONE)
			break;
	}
	n = i;
	sqlite3_reset(st);
	if (n < g->k) {
		fail(s, "results", cause, len);
		goto out;
	}
	if (step_kept(s, LST_RELEASE, "release", cause, len) == 0)
		rc = 0;
out:
	if (rc != 0)
		sqlite3_exec(s->db, "ROLLBACK TO game; RELEASE game", NULL,
		    NULL, NULL);
	free(text);
	return rc;
}

/* The integer a one-value query gives; see ladder_store.h. */
long
lstore_scalar(struct lstore *s, const char *sql)
{
	sqlite3_stmt *st;
	char cause[256];
	long n = 0;

	if ((st = lstore_prep(s, sql, cause, sizeof cause)) == NULL)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Calls fn with every game after id after; see ladder_store.h. */
int
lstore_games(struct lstore *s, long after,
    int (*fn)(void *, long, const struct jgame *, char *, size_t),
    void *arg, char *cause, size_t len)
{
	sqlite3_stmt *st;
	struct jgame g;
	json_t *j;
	json_error_t je;
	char why[256];
	int rc;

	if ((st = lstore_prep(s,
	    "SELECT id, line FROM games WHERE id > ? ORDER BY "
	    "id", cause, len)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, after);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		j = json_loadb((const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1), 0, &je);
		if (j == NULL || jgame_parse(j, &g, why, sizeof why) == -1) {
			snprintf(cause, len, "%s: game %lld: %s", s->path,
			    (long long)sqlite3_column_int64(st, 0), j == NULL ?
			    je.text : why);
			json_decref(j);
			sqlite3_finalize(st);
			return -1;
		}
		if (fn(arg, (long)sqlite3_column_int64(st, 0), &g, why,
		    sizeof why) == -1) {
			snprintf(cause, len, "%s", why);
			json_decref(j);
			sqlite3_finalize(st);
			return -1;
		}
		json_decref(j);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "games", cause, len);
}

/* The ladder's settings (meta "settings"): a new reference, or NULL. */
static json_t *
settings(struct lstore *s, char *cause, size_t len)
{
	json_t *j = NULL;
	char *text;

	if ((text = lstore_meta(s, "settings")) != NULL)
		j = json_loads(text, 0, NULL);
	free(text);
	if (j == NULL)
		snprintf(cause, len, "%s: no settings", s->path);
	return j;
}

/* Appends the path "%s%s" (a, b) to the array j unless it ends it. */
static void
hide_add(json_t *j, const char *a, const char *b)
{
	const char *last;
	char *p;

	if (asprintf(&p, "%s%s", a, b) == -1)
		abort();
	last = json_string_value(json_array_get(j, json_array_size(j) - 1));
	if (last == NULL || strcmp(last, p) != 0)
		json_array_append_new(j, json_string(p));
	free(p);
}

/*
 * What the referees of a ladder's file keep out of its bots' sight (its
 * "hide"), where present as each starts: the store and its journals, the
 * logs, and every entrant's copies but those of v[0..n-1] (which the pool
 * hides from the bots not seated, seat by seat): the whole bots/ and each
 * entrant's dir, which the pool leaves shown where they hold a seated
 * bot's, so that a copy made after the file (an entrant added, or
 * updated, while a table plays) is hidden with them; then each other
 * version of an entrant of v (one path per entrant, and one per version
 * of those: a referee resolves each at every start).  A new reference,
 * or NULL and a cause.
 */
static json_t *
ladder_hide(struct lstore *s, const struct lversion *const *v, int n,
    char *cause, size_t len)
{
	static const char *const store[] = { "/" LADDER_DB, "/" LADDER_DB
	    "-wal", "/" LADDER_DB "-shm", "/" LADDER_DB "-journal", NULL };
	struct lversion *all;
	json_t *h = json_array();
	char *up;
	int na, i, k;

	for (i = 0; store[i] != NULL; i++)
		hide_add(h, s->dir, store[i]);
	hide_add(h, s->dir, "/logs");
	hide_add(h, s->dir, "/bots");
	if (lstore_versions(s, &all, &na, cause, len) == -1) {
		json_decref(h);
		return NULL;
	}
	for (i = 0; i < na; i++)
		if (all[i].dir != NULL && (up = strrchr(all[i].dir, '/')) !=
		    NULL) {
			*up = '\0';
			hide_add(h, all[i].dir, "");
			*up = '/';
		}
	/* another version of an entrant in the file (the others' are under
	 * their NAME, hidden whole) */
	for (i = 0; i < na; i++) {
		if (all[i].dir == NULL)
			continue;
		for (k = 0; k < n && v[k]->id != all[i].id; k++)
			;
		if (k < n)
			continue;
		for (k = 0; k < n && v[k]->bot != all[i].bot; k++)
			;
		if (k < n)
			hide_add(h, all[i].dir, "");
	}
	lversions_free(all, na);
	return h;
}

/* The settings with bots as a tournament file; see ladder_store.h. */
json_t *
ladder_file(struct lstore *s, const struct lversion *const *v, int n,
    char *cause, size_t len)
{
	json_t *j, *bots, *b, *hide;
	int i;

	if ((j = settings(s, cause, len)) == NULL)
		return NULL;
	/* the ladder's own settings (llimits_parse), no tournament's */
	json_object_del(j, "ladder");
	bots = json_array();
	for (i = 0; i < n; i++) {
		b = json_pack("{s:s,s:s}", "name", v[i]->player, "command",
		    v[i]->command);
		if (v[i]->dir != NULL)
			json_object_set_new(b, "dir", json_string(v[i]->dir));
		if (v[i]->env != NULL)
			json_object_set(b, "env", v[i]->env);
		json_array_append_new(bots, b);
	}
	json_object_set_new(j, "bots", bots);
	if ((hide = ladder_hide(s, v, n, cause, len)) == NULL) {
		json_decref(j);
		return NULL;
	}
	json_object_set_new(j, "hide", hide);
	return j;
}

/* The settings as a tournament; see ladder_store.h. */
int
ladder_tour(struct lstore *s, const struct lversion *v, int n,
    struct tour *t, char *cause, size_t len)
{
	const struct lversion **vp;
	json_t *j, *bots;
	char *text;
	int i, rc;

	vp = xcalloc((size_t)n + 1, sizeof *vp);
	for (i = 0; i < n; i++)
		vp[i] = &v[i];
	j = ladder_file(s, vp, n, cause, len);
	free(vp);
	if (j == NULL)
		return -1;
	bots = json_object_get(j, "bots");
	/* never seated (the run seats only v): a file needs a table's worth */
	for (i = n; i < MAX_PLAYERS; i++) {
		if (asprintf(&text, "placeholder-%d", i) == -1)
			abort();
		json_array_append_new(bots, json_pack("{s:s,s:s}", "name",
		    text, "command", "true"));
		free(text);
	}
	/* the referees' output, out of the bots' sight: the logs alone (the
	 * bots' copies must stay visible, the store is hidden as the file) */
	if (asprintf(&text, "%s/logs", s->dir) == -1)
		abort();
	json_object_set_new(j, "output", json_string(text));
	free(text);
	rc = tour_parse_max(t, j, s->path, LADDER_MAX_BOTS, cause, len);
	json_decref(j);
	return rc;
}

/* Reads a settings' "ladder" object; see ladder_store.h. */
int
llimits_parse(const json_t *j, struct llimits *l, char *cause, size_t len)
{
	const char *key;
	json_t *v;
	long long x;

	l->bytes = LBOT_MAX_BYTES;
	l->files = LBOT_MAX_FILES;
	if (j == NULL)
		return 0;
	if (!json_is_object(j)) {
		snprintf(cause, len, "\"ladder\": an object of limits");
		return -1;
	}
	json_object_foreach((json_t *)j, key, v) {
		x = json_is_integer(v) ? json_integer_value(v) : -1;
		if (strcmp(key, "bot_max_bytes") != 0 &&
		    strcmp(key, "bot_max_files") != 0) {
			snprintf(cause, len, "\"ladder\": unknown key \"%s\" "
			    "(bot_max_bytes, bot_max_files)", key);
			return -1;
		}
		if (x < 1 || (key[8] == 'f' && x > 10000000)) {
			snprintf(cause, len, "\"ladder\": \"%s\": a whole "
			    "number from 1%s", key, key[8] == 'f' ?
			    " to 10000000" : "");
			return -1;
		}
		if (key[8] == 'f')
			l->files = (long)x;
		else
			l->bytes = x;
	}
	return 0;
}

/* The limits of a ladder; see ladder_store.h. */
int
lstore_limits(struct lstore *s, struct llimits *l, char *cause, size_t len)
{
	json_t *j;
	int rc;

	if ((j = settings(s, cause, len)) == NULL)
		return -1;
	rc = llimits_parse(json_object_get(j, "ladder"), l, cause, len);
	json_decref(j);
	return rc;
}

/* Keeps a version from play, or lets it play again; see ladder_store.h. */
int
lstore_quarantine(struct lstore *s, long version, const char *why,
    char *cause, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = lstore_prep(s, "UPDATE versions SET quarantined = ?, "
	    "quarantine = ? WHERE id = ?", cause, len)) == NULL)
		return -1;
	if (why != NULL)
		sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_text(st, 2, why, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, version);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "versions", cause, len);
}
